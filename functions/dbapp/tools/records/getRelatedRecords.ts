import * as z from 'zod';
import { formatsFor } from '../../apps/schema';
import { dbappTool } from '../../tool';
import { id, page } from '../../../../shared/core/params';
import { recordListText } from '../../fields';
import { fieldTypesInput, recordAppId, verboseInput } from '../../records/inputs';
import { orgUrl, selection, toPage, type RecordPage } from '../../records/page';
import { EXAMPLE_RECORD } from '../../records/examples';

const MAX_RELATED = 1000;

export const getRelatedRecords = dbappTool({
  name: 'getRelatedRecords',
  description:
    'Get the records of another app related to given records through relation fields: forward = the records they point to, reverse = the ' +
    'records pointing at them, both (default). E.g. the deals of a lead: app_id = Leads, record_ids = [the lead], related_app_id = Deals. ' +
    'relation_field_ids limits which relation fields count. Not paginated: at most 1000 records (limit, default 100), newest first; records the ' +
    'key cannot see are left out. Read-only.',
  input: z.strictObject({
    app_id: recordAppId.describe('Numeric id of the app of record_ids (from listApps).'),
    record_ids: z.array(id('A record id of app_id.')).min(1).max(1000).describe('The records whose related records to get; all of app_id.'),
    related_app_id: id('Numeric id of the app whose related records to return (getApp shows the apps a relation field points to).'),
    direction: z.enum(['forward', 'reverse', 'both']).default('both').describe('forward (records they point to), reverse (records pointing at them) or both (default).'),
    relation_field_ids: z.array(id('A relation field id.')).min(1).optional().describe('Only these relation fields (of either app); default all.'),
    limit: page({ default: 100, max: MAX_RELATED, what: 'Records at most' }),
    field_types: fieldTypesInput,
    verbose: verboseInput,
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run(input, ctx): Promise<RecordPage> {
    const [res, url] = await Promise.all([
      ctx.client.relatedRecords(
        input.app_id,
        input.related_app_id,
        { recordIds: input.record_ids, direction: input.direction, ...(input.relation_field_ids ? { relationFieldIds: input.relation_field_ids } : {}) },
        { limit: input.limit },
      ),
      orgUrl(ctx),
    ]);
    // Not paginated: no cursor, whatever the count.
    return toPage({ total: res.total, cursor: null, records: res.records }, input.limit, url, selection(undefined, undefined, input.field_types), input.related_app_id, await formatsFor(ctx, res.records));
  },
  text: (r: RecordPage, input) => recordListText(r, { verbose: input.verbose }, 'related record'),
  example: {
    input: { app_id: 901, record_ids: [5180], related_app_id: 902 },
    result: { total: 1, cursor: null, records: [EXAMPLE_RECORD] },
  },
});
