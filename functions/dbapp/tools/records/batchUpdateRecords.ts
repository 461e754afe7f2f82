import * as z from 'zod';
import { eachChecked } from '../../../../shared/core/validate';
import { invalidParameter } from '../../../../shared/core/errors';
import { withAppSchema } from '../../apps/schema';
import { dbappTool } from '../../tool';
import { finishFields, needsCurrent, planFields } from '../../fields';
import { eachBounded } from '../../../../shared/core/pool';
import { MAX_BATCH_RECORDS, recordBatchText, runRecordBatch, type BatchWriteResult } from '../../records/batch-write';
import { fieldsInput, hookInput, recordAppId, recordId, silentInput, workflowInput } from '../../records/inputs';
import { appIdOf, orgUrl } from '../../records/page';

export const batchUpdateRecords = dbappTool({
  name: 'batchUpdateRecords',
  description:
    'Change field values of many records of one app; per record only the fields given change (same forms as updateRecord). All updates are ' +
    'checked first — if any is invalid, none is applied and the error names updates.<i>.… Then they are written in chunks of 50 (4 chunks ' +
    'at a time, one Tape batch call per chunk). Partial failure is possible at run time: the answer has {total, successful, failed, ' +
    'items: [{index, success, record_id, record_url}]}, a failed item carries error {code, message}, and every update is accounted for ' +
    '(NOT_ATTEMPTED = not sent because time ran out; resend those). silent/hook/workflow apply to every record.',
  input: z.strictObject({
    app_id: recordAppId,
    updates: z
      .array(z.strictObject({ record_id: recordId, fields: fieldsInput }))
      .min(1)
      .max(MAX_BATCH_RECORDS)
      .describe(`The changes, each {"record_id", "fields": {…}}; records of app_id, each record once; up to ${MAX_BATCH_RECORDS.toLocaleString('en-US')}.`),
    silent: silentInput,
    hook: hookInput,
    workflow: workflowInput,
  }),
  // Not idempotent: checklist items given without id are added again on a repeat.
  annotations: { readOnly: false, destructive: true, idempotent: false },
  task: 'optional',
  async run({ app_id, updates, silent, hook, workflow }, ctx): Promise<BatchWriteResult> {
    const { client } = ctx;
    const seen = new Map<number, number>();
    updates.forEach((u, i) => {
      const first = seen.get(u.record_id);
      if (first !== undefined) {
        throw invalidParameter(`updates.${i}.record_id`, 'each record once', `Parameter "updates.${i}.record_id": record ${u.record_id} is already updated by updates.${first}; merge the two into one update.`);
      }
      seen.set(u.record_id, i);
    });
    // Every update is checked against the cached schema; the org URL (for links) alongside.
    const [plans, url] = await Promise.all([withAppSchema(ctx, app_id, (app) => eachChecked(updates, (u, i) => planFields(app, u.fields, 'update', `updates.${i}.fields`))), orgUrl(ctx)]);
    // Checklist items given by id are completed from the record's current entries: those records are read first.
    const bodies = await eachBounded(plans, 8, async (plan, i) => {
      if (!needsCurrent(plan)) return finishFields(plan, ctx);
      const current = await client.getRecord(updates[i]!.record_id);
      if (appIdOf(current) !== app_id) {
        throw invalidParameter(`updates.${i}.record_id`, `a record of app ${app_id}`, `Parameter "updates.${i}.record_id": record ${current.record_id} belongs to app ${appIdOf(current)}, not to app ${app_id}.`);
      }
      return finishFields(plan, ctx, current);
    });
    const flags = { silent, hook, workflow };
    const items = updates.map((u, i) => ({ record_id: u.record_id, fields: bodies[i]! }));
    return runRecordBatch(
      items,
      {
        batch: async (group) => {
          // empty_response: Tape skips the records in its answer; the ids are ours already.
          await client.batchUpdateRecords(app_id, [...group], { ...flags, empty_response: true });
          return group.map((g) => g.record_id);
        },
        single: async (item) => (await client.updateRecord(item.record_id, item.fields, flags)).record_id,
        unknown: 'Whether these updates were applied is unknown: check the records (getRecord) before sending them again.',
        deadline: ctx.deadline,
      },
      url,
    );
  },
  text: (r: BatchWriteResult, input) => recordBatchText(r, 'updated', input.app_id, 'updates'),
  example: {
    input: {
      app_id: 902,
      updates: [
        { record_id: 5300, fields: { stage: ['Negotiation'], amount: 95000 } },
        { record_id: 5299, fields: { close_date: '2025-05-15 00:00:00' } },
      ],
    },
    result: {
      total: 2,
      successful: 2,
      failed: 0,
      items: [
        { index: 0, success: true, record_id: 5300, record_url: 'https://tapeapp.com/tape/record/5300' },
        { index: 1, success: true, record_id: 5299, record_url: 'https://tapeapp.com/tape/record/5299' },
      ],
    },
  },
});
