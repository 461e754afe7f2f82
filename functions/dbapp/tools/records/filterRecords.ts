import * as z from 'zod';
import { numberFormats, withAppSchema } from '../../apps/schema';
import { dbappTool } from '../../tool';
import { recordListText } from '../../fields';
import { plural } from '../../../../shared/core/render';
import { cursorInput, fieldIdsInput, fieldTypesInput, limitInput, recordAppId, sortByInput, sortDescInput, verboseInput } from '../../records/inputs';
import { orgUrl, selection, sortField, toPage, type RecordPage } from '../../records/page';
import { checkRecordFilters, recordFilter } from '../../records/filter-body';
import { EXAMPLE_RECORD } from '../../records/examples';

type FilterResult = RecordPage | { total: number; count_only: true };

export const filterRecords = dbappTool({
  name: 'filterRecords',
  description:
    'Find the records of an app that match field filters (all must match; there is no OR): e.g. status any ["Won"], amount larger 10000, ' +
    'close_date within current_month, owner equal [10000], name contains "GmbH". A filter names its field by field_id or external_id; ' +
    'field_type and type are derived from the app, category/status options may be given by text, and every filter is checked against ' +
    'the app before the call (match types per field type, operands, date forms). Metadata filters: {"type": "created_at" | "last_modified_at", ' +
    '"match_type": "on_or_after", "values": [{"value": "2025-03-01 00:00:00"}]} and app_record_id. Pages of up to 500 (default 100) with a cursor (the last page answers cursor: null); ' +
    'count_only answers the number of matches. Read-only.',
  input: z.strictObject({
    app_id: recordAppId,
    filters: z.array(recordFilter).max(100).describe('The filters, all of which a record must match (AND), at most 100.'),
    limit: limitInput,
    cursor: cursorInput,
    count_only: z.boolean().default(false).describe('Answer only {total, count_only: true} (default false).'),
    sort_by: sortByInput,
    sort_desc: sortDescInput,
    field_ids: fieldIdsInput,
    field_types: fieldTypesInput,
    verbose: verboseInput,
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run(input, ctx): Promise<FilterResult> {
    const { client } = ctx;
    // Filters are checked against the cached schema (once more against a fresh one before a refusal stands).
    const { app, filters } = await withAppSchema(ctx, input.app_id, (app) => ({ app, filters: checkRecordFilters(app, input.filters) }));
    const select = selection(app, input.field_ids, input.field_types);
    const sort = {
      ...(input.sort_by !== undefined ? { sort_by: sortField(app, input.sort_by) } : {}),
      ...(input.sort_desc !== undefined ? { sort_desc: input.sort_desc } : {}),
    };
    if (input.count_only) {
      const page = await client.filterRecords(input.app_id, filters, { limit: 1 });
      return { total: page.total, count_only: true };
    }
    const [page, url] = await Promise.all([
      client.filterRecords(input.app_id, filters, { limit: input.limit, ...(input.cursor ? { cursor: input.cursor } : {}), ...sort }),
      orgUrl(ctx),
    ]);
    return toPage(page, input.limit, url, select, input.app_id, numberFormats(app));
  },
  text: (r: FilterResult, input) => ('count_only' in r ? `${plural(r.total, 'record')} match${r.total === 1 ? 'es' : ''}` : recordListText(r, { verbose: input.verbose })),
  example: {
    input: {
      app_id: 902,
      filters: [
        { field_id: 'stage', match_type: 'any', values: [{ value: 'Proposal' }, { value: 'Negotiation' }] },
        { field_id: 'amount', match_type: 'larger', values: [{ value: 50000 }] },
      ],
      limit: 50,
    },
    result: { total: 1, cursor: null, records: [EXAMPLE_RECORD] },
  },
});
