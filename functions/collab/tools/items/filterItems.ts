import * as z from 'zod';
import { offset, page } from '../../../../shared/core/params';
import { listFooter, plural } from '../../../../shared/core/render';
import { collabTool } from '../../tool';
import { appIdInput } from '../../params';
import { appSchema } from '../../apps/lookups';
import { fieldIdsInput, fieldSelection, filtersInput, planFilters, planSort, sortByInput, verboseInput } from '../../items/read';
import { itemLine, linkHint, toItem, type Item } from '../../items/render';
import type { PodioFilterBody } from '../../wire';

/** Podio's filter page: default 30, at most 500 (docs/vendors/podio.md#items). */
const LIMIT = { default: 30, max: 500 };

interface ItemPage {
  app_id: number;
  /** Items in the app. */
  total: number;
  /** Items matching the filters. */
  filtered: number;
  offset: number;
  items: Item[];
}

interface ItemCount {
  app_id: number;
  total: number;
  filtered: number;
  count_only: true;
}

export const filterItems = collabTool({
  name: 'filterItems',
  description:
    'List the items of an app, filtered and sorted: each item as item_id, app_item_id, title, link, created_by, created_on, tags and its non-empty fields ' +
    '(text a string, category [{id, text}], money {value, currency}, date {start, end}, contacts, relations [{item_id, title}]). ' +
    'filters are keyed by field_id or external_id (text: part of the text; category: option ids or texts; dates and numbers {from, to}; relations: item ids; ' +
    'contacts: profile ids) plus created_on, created_by, last_edit_on, last_edit_by, app_item_id and tags; all must hold. ' +
    `Pages by limit (default ${LIMIT.default}, max ${LIMIT.max}) and offset; the answer gives total (items in the app) and filtered (matches). ` +
    'count_only returns just the counts. Newest first unless sort_by/sort_desc say otherwise. For sums and averages use aggregateItems. Read-only.',
  input: z.strictObject({
    app_id: appIdInput,
    filters: filtersInput,
    limit: page({ ...LIMIT, what: 'Items per page' }),
    offset: offset(),
    sort_by: sortByInput,
    sort_desc: z.boolean().default(true).describe('Descending order (default true: newest, largest, Z first).'),
    field_ids: fieldIdsInput,
    count_only: z.boolean().default(false).describe('Only the counts (total, filtered), no items (default false).'),
    verbose: verboseInput,
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run({ app_id, filters, limit, offset, sort_by, sort_desc, field_ids, count_only, verbose }, ctx): Promise<ItemPage | ItemCount> {
    // The app's schema (cached) checks filters, sort and field_ids before the call; a bare listing needs none.
    const app = filters || sort_by !== undefined || field_ids ? await appSchema(ctx, app_id) : undefined;
    const body: PodioFilterBody = {
      ...(app && filters ? { filters: planFilters(app, filters) } : {}),
      ...(app && sort_by !== undefined ? { sort_by: planSort(app, sort_by) } : {}),
      sort_desc,
      // count_only still needs a page: Podio's smallest.
      limit: count_only ? 1 : limit,
      offset: count_only ? 0 : offset,
      remember: false,
    };
    if (body.filters === undefined) delete body.filters;
    const res = await ctx.client.filterItems(app_id, body);
    if (count_only) return { app_id, total: res.total, filtered: res.filtered, count_only: true };
    const select = fieldSelection(app, field_ids, 'all');
    return { app_id, total: res.total, filtered: res.filtered, offset, items: res.items.map((i) => toItem(i, { select, verbose })) };
  },
  text: (r: ItemPage | ItemCount, input) => {
    const inApp = `app #${r.app_id} has ${plural(r.total, 'item')}`;
    if ('count_only' in r) return `${plural(r.filtered, 'item')} match${r.filtered === 1 ? 'es' : ''} (${inApp})`;
    const more = r.offset + r.items.length < r.filtered;
    const foot = listFooter({
      shown: r.items.length,
      total: r.filtered,
      noun: 'item',
      nounAfterTotal: true,
      next: more ? { param: 'offset', value: r.offset + r.items.length, also: 'with the same filters' } : undefined,
      empty: r.offset && r.filtered ? `no items past offset ${r.offset} (${plural(r.filtered, 'match', 'matches')})` : 'no items match',
    });
    const hint = input.verbose ? undefined : linkHint(r.items);
    return [...r.items.map((i) => itemLine(i, { verbose: input.verbose })), `${foot} · ${inApp}${hint ? ` · ${hint}` : ''}`].join('\n');
  },
  example: {
    input: { app_id: 8102, filters: { stage: ['Won'], amount: { from: 10000 } }, limit: 2 },
    result: {
      app_id: 8102,
      total: 160,
      filtered: 14,
      offset: 0,
      items: [
        {
          item_id: 30218,
          app_item_id: 158,
          title: 'Renewal — Cobalt Robotics',
          link: 'https://podio.com/sandbox-co/sales/apps/deals/items/158',
          created_by: { user_id: 1003, name: 'Chloé Martin' },
          created_on: '2025-03-30 14:00:00',
          tags: [],
          fields: [
            { field_id: 9201, external_id: 'title', label: 'Deal name', type: 'text', value: 'Renewal — Cobalt Robotics' },
            { field_id: 9203, external_id: 'amount', label: 'Amount', type: 'money', value: { value: '31500.00', currency: 'EUR' } },
            { field_id: 9204, external_id: 'stage', label: 'Stage', type: 'category', value: [{ id: 404, text: 'Won' }] },
          ],
        },
        {
          item_id: 30201,
          app_item_id: 141,
          title: 'Pilot — Helios Solar',
          link: 'https://podio.com/sandbox-co/sales/apps/deals/items/141',
          created_by: { user_id: 1002, name: 'Ben Okafor' },
          created_on: '2025-03-22 09:00:00',
          tags: ['priority'],
          fields: [
            { field_id: 9201, external_id: 'title', label: 'Deal name', type: 'text', value: 'Pilot — Helios Solar' },
            { field_id: 9203, external_id: 'amount', label: 'Amount', type: 'money', value: { value: '12000.00', currency: 'USD' } },
            { field_id: 9204, external_id: 'stage', label: 'Stage', type: 'category', value: [{ id: 404, text: 'Won' }] },
          ],
        },
      ],
    },
  },
});
