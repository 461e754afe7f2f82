import * as z from 'zod';
import { dbappTool } from '../../tool';
import { viewId } from '../../views/inputs';

export const deleteView = dbappTool({
  name: 'deleteView',
  description:
    'Delete a saved view permanently (there is no restore). Records are not affected: only this way of looking at them goes. ' +
    'The app\'s default view cannot be deleted — make another view the default first (makeViewDefault). ' +
    'Needs a user-type API key and share access to the app.',
  input: z.strictObject({ view_id: viewId }),
  annotations: { readOnly: false, destructive: true, idempotent: false },
  async run({ view_id }, { client }) {
    return { view_id: (await client.deleteView(view_id)).view_id };
  },
  text: (r: { view_id: number }) => `deleted view #${r.view_id} (records unaffected)`,
  example: { input: { view_id: 88123 }, result: { view_id: 88123 } },
});
