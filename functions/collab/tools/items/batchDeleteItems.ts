import * as z from 'zod';
import { collabTool } from '../../tool';
import { hookInput, itemIdInput, silentInput } from '../../params';
import { type ItemBatchResult, batchItems, checkDistinct, itemBatchText, MAX_BATCH_ITEMS, runItemBatch } from '../../items/batch';

export type BatchDeleted = ItemBatchResult<{ item_id: number; deleted: true }>;

export const batchDeleteItems = collabTool({
  name: 'batchDeleteItems',
  description:
    `Delete up to ${MAX_BATCH_ITEMS} items, permanently (values, comments and files go with them; nothing can be restored). Each entry is {item_id}; ` +
    'each item once. Items are deleted one call each, 10 at a time, and may be in different apps. Partial failure is possible: the answer is ' +
    '{total, successful, failed, items: [{index, success, item_id, deleted} or {index, success: false, error}]} — an item already gone fails with ' +
    "NOT_FOUND; when Podio's rate limit (420) is hit, the rest are NOT_ATTEMPTED with retry_after. hook and silent apply to every item.",
  input: z.strictObject({
    items: batchItems(z.strictObject({ item_id: itemIdInput }), 'The items to delete, each {"item_id": …}.'),
    hook: hookInput,
    silent: silentInput,
  }),
  annotations: { readOnly: false, destructive: true, idempotent: false },
  task: 'optional',
  async run({ items, hook, silent }, ctx): Promise<BatchDeleted> {
    checkDistinct(items.map((i) => i.item_id));
    return runItemBatch(items, ctx, async ({ item_id }) => {
      await ctx.client.deleteItem(item_id, { hook, silent });
      return { item_id, deleted: true as const };
    }, (i) => i.item_id);
  },
  text: (r: BatchDeleted) => `${itemBatchText(r, 'deleted', 'Podio')}${r.successful ? '\n(permanent)' : ''}`,
  example: {
    input: { items: [{ item_id: 30061 }, { item_id: 30062 }] },
    result: {
      total: 2,
      successful: 1,
      failed: 1,
      items: [
        { index: 0, success: true, item_id: 30061, deleted: true },
        { index: 1, success: false, item_id: 30062, error: { code: 'NOT_FOUND', message: 'Podio rejected DELETE /item/30062: Object not found', details: { upstream_status: 404, upstream_code: 'not_found' } } },
      ],
    },
  },
});
