import * as z from 'zod';
import { invalidParameter, ToolError } from '../../../../shared/core/errors';
import { collabTool } from '../../tool';
import { hookInput, itemIdInput, silentInput, type Ctx } from '../../params';
import { appSchema } from '../../apps/lookups';
import { type ItemBatchResult, batchItems, checkAll, checkDistinct, ITEM_PARALLELISM, itemBatchText, MAX_BATCH_ITEMS, runItemBatch } from '../../items/batch';
import { checkUpdateMode, fieldPort, planUpdate, sendUpdate, updateRequest, updateShape } from '../../items/write';
import type { FieldPort } from '../../fields';
import type { PodioApp } from '../../wire';

export type BatchUpdated = ItemBatchResult<{ item_id: number; revision: number; title: string }>;

/** Each item's app schema and field port, loaded once per app for the whole batch. */
function appsOf(ctx: Ctx) {
  const apps = new Map<number, Promise<{ app: PodioApp; port: FieldPort }>>();
  return (appId: number) => {
    let p = apps.get(appId);
    if (!p) apps.set(appId, (p = appSchema(ctx, appId).then((app) => ({ app, port: fieldPort(ctx, app) }))));
    return p;
  };
}

export const batchUpdateItems = collabTool({
  name: 'batchUpdateItems',
  description:
    `Change up to ${MAX_BATCH_ITEMS} existing items, possibly of different apps. Each entry takes what updateItem takes: item_id, and fields or ` +
    'field_id + field_value (one mode), external_id, file_ids, tags (replaces the tags), revision. Every entry is checked first — each item is read ' +
    'to find its app, values are checked against it — and if any is invalid (or an item does not exist) none is changed: the error lists every bad ' +
    'items.<i>.<parameter>. Then one call per item, 10 at a time. Partial failure is possible: the answer is {total, successful, failed, items: ' +
    "[{index, success, item_id, revision, title} or {index, success: false, item_id, error}]}; when Podio's rate limit (420) is hit the rest are " +
    'NOT_ATTEMPTED with retry_after. Costs two Podio calls per item (read, write). hook and silent apply to every item.',
  input: z.strictObject({
    items: batchItems(
      z.strictObject({
        item_id: itemIdInput,
        ...updateShape,
      }),
      'The updates, each {"item_id": …, "fields": {…}} or {"item_id": …, "field_id": …, "field_value": …}, as updateItem takes them.',
    ),
    hook: hookInput,
    silent: silentInput,
  }),
  annotations: { readOnly: false, destructive: true, idempotent: true },
  task: 'optional',
  async run({ items, hook, silent }, ctx): Promise<BatchUpdated> {
    checkDistinct(items.map((i) => i.item_id));
    await checkAll(items, (input, i) => checkUpdateMode(input, `items.${i}.`));
    // Each item names its app, whose schema checks the values: a missing item and a bad value are
    // reported together.
    const appOf = appsOf(ctx);
    const planned = await checkAll(items, async (input, i) => {
      const item = await ctx.client.getItem(input.item_id).catch((err: unknown) => {
        if (err instanceof ToolError && err.code === 'NOT_FOUND') {
          throw invalidParameter(`items.${i}.item_id`, 'the item_id of an existing item', `Parameter "items.${i}.item_id": item ${input.item_id} does not exist or is not shared with this key (${err.message}).`);
        }
        throw err;
      });
      const target = await appOf(item.app!.app_id);
      return { port: target.port, update: planUpdate(target.app, input, `items.${i}.`) };
      // Plain reads: as many in flight as the writes.
    }, ITEM_PARALLELISM);
    const requests = await checkAll(planned, (p, i) => updateRequest(ctx, p.port, p.update, items[i]!.item_id));
    return runItemBatch(
      requests,
      ctx,
      async (req, i) => {
        const item_id = items[i]!.item_id;
        const r = await sendUpdate(ctx, item_id, req, { hook, silent }, `items.${i}.`);
        return { item_id, revision: r.revision, title: r.title };
      },
      (_req, i) => items[i]!.item_id,
    );
  },
  text: (r: BatchUpdated) => itemBatchText(r, 'updated', 'Podio'),
  example: {
    input: {
      items: [
        { item_id: 30061, fields: { '9204': 'Won', '9207': 100 } },
        { item_id: 30062, field_id: 9204, field_value: 'Lost' },
      ],
    },
    result: {
      total: 2,
      successful: 2,
      failed: 0,
      items: [
        { index: 0, success: true, item_id: 30061, revision: 3, title: 'Northwind Traders — Core platform' },
        { index: 1, success: true, item_id: 30062, revision: 2, title: 'Helios Solar — Analytics add-on' },
      ],
    },
  },
});
