import * as z from 'zod';
import { appSchema, formatsFor } from '../../apps/schema';
import { dbappTool } from '../../tool';
import { recordText, toRecord, type AppRecord } from '../../fields';
import { fieldIdsInput, fieldTypesInput, recordId, verboseInput } from '../../records/inputs';
import { orgUrl, selection } from '../../records/page';
import { EXAMPLE_RECORD } from '../../records/examples';

export const getRecord = dbappTool({
  name: 'getRecord',
  description:
    'Get one record with its field values: record_id, app_record_id, app_id, title, record_url, created_by, created_on and fields ' +
    '[{field_id, external_id, label, type, value}] (categories as {id, text}, dates as {start, end}, relations as {record_id, app_id, title}, ' +
    'checklist items with their ids for updateRecord). Empty fields are left out. field_ids limits the fields (by id or external_id), ' +
    'field_types picks basic or calculation fields. A deleted record answers an error (restoreRecord brings it back). Read-only.',
  input: z.strictObject({
    record_id: recordId,
    field_ids: fieldIdsInput,
    field_types: fieldTypesInput,
    verbose: verboseInput,
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run({ record_id, field_ids, field_types }, ctx) {
    const [record, url] = await Promise.all([ctx.client.getRecord(record_id), orgUrl(ctx)]);
    const appId = record.app?.app_id;
    // Keys are checked against the app's (cached) schema: an external_id of an empty field is valid, a typo is not.
    const app = field_ids && appId !== undefined ? await appSchema(ctx, appId) : undefined;
    return toRecord(record, url, { select: selection(app, field_ids, field_types), formats: await formatsFor(ctx, [record], app) });
  },
  text: (r: AppRecord, input) => recordText(r, { verbose: input.verbose }),
  example: { input: { record_id: 5300 }, result: EXAMPLE_RECORD },
});
