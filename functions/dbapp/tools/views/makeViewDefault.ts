import * as z from 'zod';
import { dbappTool } from '../../tool';
import { viewId } from '../../views/inputs';
import { toView, viewLine, type View } from '../../views/render';
import { EXAMPLE_VIEW } from '../../views/examples';

export const makeViewDefault = dbappTool({
  name: 'makeViewDefault',
  description:
    'Make a view the default view of its app (what users land on when they open the app). The previous default stops being the default in the same step; ' +
    'every app has exactly one default view, and a default cannot be unset, only replaced. Promoting the current default again changes nothing. ' +
    'Needs a user-type API key and share access to the app.',
  input: z.strictObject({ view_id: viewId }),
  annotations: { readOnly: false, destructive: false, idempotent: true },
  async run({ view_id }, { client }) {
    return { view: toView((await client.makeViewDefault(view_id)).view) };
  },
  text: (r: { view: View }) => `view ${viewLine(r.view)} is now the default view of app #${r.view.app_id}`,
  example: { input: { view_id: 88123 }, result: { view: { ...EXAMPLE_VIEW, is_default: true } } },
});
