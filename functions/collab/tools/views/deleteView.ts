import * as z from 'zod';
import { collabTool } from '../../tool';
import { viewIdInput } from '../../views/inputs';

interface Deleted {
  deleted: true;
  view_id: number;
}

export const deleteView = collabTool({
  name: 'deleteView',
  description:
    "Delete a saved view permanently (for everyone it is shared with); the app's items are not touched. Standard views cannot be deleted. " +
    "Needs to be the view's creator or an admin. Returns {deleted: true, view_id}.",
  input: z.strictObject({ view_id: viewIdInput }),
  annotations: { readOnly: false, destructive: true, idempotent: false },
  async run({ view_id }, { client }): Promise<Deleted> {
    await client.deleteView(view_id);
    return { deleted: true, view_id };
  },
  text: (r: Deleted) => `deleted view #${r.view_id} (permanent)`,
  example: { input: { view_id: 20003 }, result: { deleted: true, view_id: 20003 } },
});
