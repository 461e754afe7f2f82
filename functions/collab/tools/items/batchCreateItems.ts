import * as z from 'zod';
import { collabTool } from '../../tool';
import { appIdInput, hookInput, silentInput } from '../../params';
import { appSchema } from '../../apps/lookups';
import { type ItemBatchResult, batchItems, checkAll, itemBatchText, MAX_BATCH_ITEMS, runItemBatch } from '../../items/batch';
import { createBody, createShape, fieldPort, planCreate, sendCreate } from '../../items/write';

export type BatchCreated = ItemBatchResult<{ item_id: number; link: string | null }>;

export const batchCreateItems = collabTool({
  name: 'batchCreateItems',
  description:
    `Create up to ${MAX_BATCH_ITEMS} items in one app. Each entry takes what createItem takes (fields, external_id, file_ids, tags). Every entry is checked ` +
    'against the app first — shapes, then contacts, embeds and file URLs — and if any is invalid none is created: the error lists every bad ' +
    'items.<i>.<parameter>. Podio has no batch endpoint, so the items are created one call each, 10 at a time. Partial failure is possible: the answer ' +
    'is {total, successful, failed, items: [{index, success, item_id, link} or {index, success: false, error}]}; when Podio\'s rate limit (420) is hit, ' +
    'the items not sent yet are NOT_ATTEMPTED with retry_after — resend exactly those. hook and silent apply to every item.',
  input: z.strictObject({
    app_id: appIdInput,
    items: batchItems(
      z.strictObject(createShape),
      'The items to create, each {"fields": {…}, "external_id"?, "file_ids"?, "tags"?} as createItem takes them.',
    ),
    hook: hookInput,
    silent: silentInput,
  }),
  annotations: { readOnly: false, destructive: false, idempotent: false },
  task: 'optional',
  async run({ app_id, items, hook, silent }, ctx): Promise<BatchCreated> {
    const app = await appSchema(ctx, app_id);
    // Shapes of every entry first (no call), then what needs Podio (contacts, embeds, uploads).
    const planned = await checkAll(items, (input, i) => planCreate(app, input, `items.${i}.`));
    const port = fieldPort(ctx, app);
    const bodies = await checkAll(planned, (p) => createBody(ctx, port, p));
    return runItemBatch(bodies, ctx, (body, i) => sendCreate(ctx, app_id, body, { hook, silent }, true, `items.${i}.`));
  },
  text: (r: BatchCreated, input) => itemBatchText(r, 'created', `app #${input.app_id}`),
  example: {
    input: {
      app_id: 8102,
      items: [
        { fields: { '9201': 'Northwind Traders — Analytics add-on', '9204': 'Proposal', '9203': { value: '18000.00', currency: 'EUR' } } },
        { fields: { '9201': 'Helios Solar — Premium support', '9204': 'Lead', '9206': { start: '2025-07-01 00:00:00' } }, tags: ['inbound'] },
        { fields: { '9201': 'Atlas Movers — Core platform', '9204': 'Qualified' } },
      ],
    },
    result: {
      total: 3,
      successful: 2,
      failed: 1,
      items: [
        { index: 0, success: true, item_id: 30301, link: 'https://podio.com/sandbox-co/sales/apps/deals/items/161' },
        { index: 1, success: false, error: { code: 'RATE_LIMITED', message: 'Podio rate limit reached: You have hit the rate limit. Please wait 300 seconds before trying again', details: { retry_after: 300, upstream_status: 420, upstream_code: 'rate_limit' } } },
        { index: 2, success: false, error: { code: 'NOT_ATTEMPTED', message: 'Not sent: item 1 failed with RATE_LIMITED, which stopped the batch. Resend this item after 300 s.', details: { stopped_by: 1, retry_after: 300 } } },
      ],
    },
  },
});
