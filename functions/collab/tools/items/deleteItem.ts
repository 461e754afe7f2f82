import * as z from 'zod';
import { collabTool } from '../../tool';
import { hookInput, itemIdInput, silentInput } from '../../params';

export interface DeletedItem {
  deleted: true;
  item_id: number;
}

export const deleteItem = collabTool({
  name: 'deleteItem',
  description:
    'Delete one item, permanently: its field values, comments and attached files go with it and cannot be restored. Runs item.delete hooks unless ' +
    'hook is false; notifies unless silent. Returns {deleted: true, item_id}. For many items use batchDeleteItems.',
  input: z.strictObject({
    item_id: itemIdInput,
    hook: hookInput,
    silent: silentInput,
  }),
  annotations: { readOnly: false, destructive: true, idempotent: false },
  async run({ item_id, hook, silent }, ctx): Promise<DeletedItem> {
    await ctx.client.deleteItem(item_id, { hook, silent });
    return { deleted: true, item_id };
  },
  text: (r: DeletedItem) => `deleted item #${r.item_id} (permanent)`,
  example: { input: { item_id: 30061 }, result: { deleted: true, item_id: 30061 } },
});
