import * as z from 'zod';
import { invalidParameter } from '../../../../shared/core/errors';
import { collabTool } from '../../tool';
import { itemIdInput } from '../../params';
import { appSchema } from '../../apps/lookups';
import { fieldIdsInput, fieldSelection, fieldTypesInput, ITEM_URL_FORM, readItem, readItemByUrl, verboseInput } from '../../items/read';
import { itemText, toItem, type Item } from '../../items/render';
import type { PodioApp, PodioItem } from '../../wire';

export const getItem = collabTool({
  name: 'getItem',
  description:
    'Get one item: item_id, app_item_id, title, link, created_by {user_id, name}, created_on, tags, its files, and fields [{field_id, external_id, label, type, value}] ' +
    '(text a string; category [{id, text}]; money {value: decimal string, currency}; date {start, end}; contact [{profile_id, user_id, name}]; app relation [{item_id, title}]). ' +
    'Empty fields are left out. Pass item_id (the global id, from filterItems) or podio_url (an item link as Podio shows it: its last number is the ' +
    'app-scoped app_item_id, resolved for you through the app — two calls). field_ids keeps some fields (ids or external ids), field_types "basic" or ' +
    '"calculation" picks by kind, files_only gives just the files. A deleted item answers NOT_FOUND. Read-only.',
  input: z.strictObject({
    item_id: itemIdInput.optional(),
    podio_url: z.string().min(1).optional().describe(`An item link instead of item_id: ${ITEM_URL_FORM} (its number is the app_item_id, not the item_id).`),
    field_ids: fieldIdsInput,
    field_types: fieldTypesInput,
    files_only: z.boolean().default(false).describe("Only the item's files (file_id, name, type, size, link) and ids — no field values (default false)."),
    verbose: verboseInput,
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run({ item_id, podio_url, field_ids, field_types, files_only, verbose }, ctx): Promise<Item> {
    if ((item_id === undefined) === (podio_url === undefined)) {
      const both = item_id !== undefined;
      throw invalidParameter(
        both ? 'podio_url' : 'item_id',
        'exactly one of item_id and podio_url',
        both ? 'Pass item_id or podio_url, not both.' : `Pass item_id (the global item id) or podio_url (${ITEM_URL_FORM}).`,
      );
    }
    let raw: PodioItem;
    let app: PodioApp | undefined;
    if (podio_url !== undefined) ({ item: raw, app } = await readItemByUrl(ctx, podio_url));
    else raw = await readItem(ctx, item_id!);
    // field_ids are checked against the app: an external_id of an empty field is valid, a typo is not.
    if (field_ids && !app) {
      const appId = raw.app?.app_id;
      if (appId === undefined) throw new Error(`Podio's item ${raw.item_id} names no app`);
      app = await appSchema(ctx, appId);
    }
    const item = toItem(raw, { select: fieldSelection(app, field_ids, field_types), files: true, verbose });
    return files_only ? { ...item, fields: [] } : item;
  },
  text: (item: Item, input) => itemText(item, { verbose: input.verbose, filesOnly: input.files_only }),
  example: {
    input: { item_id: 30061 },
    result: {
      item_id: 30061,
      app_item_id: 1,
      title: 'Annual licence — Northwind Traders',
      link: 'https://podio.com/sandbox-co/sales/apps/deals/items/1',
      created_by: { user_id: 1002, name: 'Ben Okafor' },
      created_on: '2025-01-07 10:00:00',
      tags: ['priority'],
      fields: [
        { field_id: 9201, external_id: 'title', label: 'Deal name', type: 'text', value: 'Annual licence — Northwind Traders' },
        { field_id: 9202, external_id: 'company', label: 'Company', type: 'app', value: [{ item_id: 30001, title: 'Northwind Traders' }] },
        { field_id: 9203, external_id: 'amount', label: 'Amount', type: 'money', value: { value: '12500.00', currency: 'EUR' } },
        { field_id: 9204, external_id: 'stage', label: 'Stage', type: 'category', value: [{ id: 404, text: 'Won' }] },
        { field_id: 9206, external_id: 'close-date', label: 'Expected close', type: 'date', value: { start: '2025-03-01', end: null } },
        { field_id: 9208, external_id: 'owner', label: 'Deal owner', type: 'contact', value: [{ profile_id: 5102, user_id: 1002, name: 'Ben Okafor' }] },
      ],
      files: [{ file_id: 60012, name: 'proposal-1.pdf', mimetype: 'application/pdf', size: 48213 }],
    },
  },
});
