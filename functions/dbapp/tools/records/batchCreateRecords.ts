import * as z from 'zod';
import { eachChecked } from '../../../../shared/core/validate';
import { withAppSchema } from '../../apps/schema';
import { dbappTool } from '../../tool';
import { finishFields, planFields } from '../../fields';
import { eachBounded } from '../../../../shared/core/pool';
import { MAX_BATCH_RECORDS, recordBatchText, runRecordBatch, type BatchWriteResult } from '../../records/batch-write';
import { fieldsInput, hookInput, recordAppId, silentInput, workflowInput } from '../../records/inputs';
import { orgUrl } from '../../records/page';

export const batchCreateRecords = dbappTool({
  name: 'batchCreateRecords',
  description:
    'Create many records in one app. Every input is checked against the app first (same forms as createRecord); if any is invalid, none is ' +
    'created and the error names inputs.<i>.fields.<key>. Then the records are written in chunks of 50 (4 chunks at a time, one Tape batch ' +
    'call per chunk). Partial failure is possible: the answer has {total, successful, failed, items: [{index, success, record_id, record_url}]}, ' +
    'a failed item carries error {code, message} and every input is accounted for — items not sent because time ran out say so (NOT_ATTEMPTED) ' +
    'and can be resent. silent/hook/workflow apply to every record.',
  input: z.strictObject({
    app_id: recordAppId,
    inputs: z
      .array(z.strictObject({ fields: fieldsInput }))
      .min(1)
      .max(MAX_BATCH_RECORDS)
      .describe(`The records to create, each {"fields": {…}} (see createRecord for the value forms); any count up to ${MAX_BATCH_RECORDS.toLocaleString('en-US')}, all for app_id.`),
    silent: silentInput,
    hook: hookInput,
    workflow: workflowInput,
  }),
  annotations: { readOnly: false, destructive: false, idempotent: false },
  task: 'optional',
  async run({ app_id, inputs, silent, hook, workflow }, ctx): Promise<BatchWriteResult> {
    const { client } = ctx;
    // Every input is checked, against the cached schema, before anything is uploaded or written; the org URL (for links) alongside.
    const [plans, url] = await Promise.all([withAppSchema(ctx, app_id, (app) => eachChecked(inputs, (input, i) => planFields(app, input.fields, 'create', `inputs.${i}.fields`))), orgUrl(ctx)]);
    const bodies = await eachBounded(plans, 4, (plan) => finishFields(plan, ctx));
    const flags = { silent, hook, workflow };
    return runRecordBatch(
      bodies,
      {
        batch: async (group) => (await client.batchCreateRecords(app_id, group.map((fields) => ({ fields })), flags)).records.map((r) => r.record_id),
        single: async (fields) => (await client.createRecord(app_id, fields, flags)).record_id,
        unknown: 'Whether these records were created is unknown: check with listRecords before sending them again.',
        deadline: ctx.deadline,
      },
      url,
    );
  },
  text: (r: BatchWriteResult, input) => recordBatchText(r, 'created', input.app_id, 'inputs'),
  example: {
    input: {
      app_id: 902,
      inputs: [
        { fields: { deal_name: 'Northwind Traders — Analytics add-on', stage: ['Discovery'], amount: 18000 } },
        { fields: { deal_name: 'Helios Solar — Premium support', stage: ['Proposal'], close_date: '2025-05-01 00:00:00' } },
        { fields: { deal_name: 'Atlas Movers — Core platform', stage: ['Won'] } },
      ],
    },
    result: {
      total: 3,
      successful: 2,
      failed: 1,
      items: [
        { index: 0, success: true, record_id: 5301, record_url: 'https://tapeapp.com/tape/record/5301' },
        { index: 1, success: true, record_id: 5302, record_url: 'https://tapeapp.com/tape/record/5302' },
        { index: 2, success: false, error: { code: 'RATE_LIMITED', message: 'Tape rate limit reached: Too many requests' } },
      ],
    },
  },
});
