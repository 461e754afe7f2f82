import * as z from 'zod';
import { numberFormats, withAppSchema } from '../../apps/schema';
import { dbappTool } from '../../tool';
import { finishFields, planFields, recordText, toRecord, type AppRecord } from '../../fields';
import { fieldsInput, hookInput, recordAppId, silentInput, workflowInput } from '../../records/inputs';
import { orgUrl } from '../../records/page';
import { EXAMPLE_RECORD } from '../../records/examples';

type CreateResult = { record_id: number; record_url: string } | AppRecord;

export const createRecord = dbappTool({
  name: 'createRecord',
  description:
    'Create one record in an app. fields are keyed by external_id or field_id (getApp lists them) and are checked against the app before ' +
    'anything is written: unknown keys, wrong shapes, unknown category options, missing required fields and read-only fields are refused with ' +
    'the expected form. https URLs in attachment fields are downloaded and uploaded for you. Returns {record_id, record_url} (id_only, default) ' +
    'or the full record. Runs webhooks and automations unless hook/workflow are false. For two or more records use batchCreateRecords.',
  input: z.strictObject({
    app_id: recordAppId,
    fields: fieldsInput,
    id_only: z.boolean().default(true).describe('Answer only {record_id, record_url} (default true); false returns the full record.'),
    silent: silentInput,
    hook: hookInput,
    workflow: workflowInput,
  }),
  annotations: { readOnly: false, destructive: false, idempotent: false },
  async run({ app_id, fields, id_only, silent, hook, workflow }, ctx): Promise<CreateResult> {
    // Planning is checked against the cached schema (again against a fresh one before a refusal stands); uploads come after.
    const { app, plan } = await withAppSchema(ctx, app_id, (app) => ({ app, plan: planFields(app, fields, 'create') }));
    const body = await finishFields(plan, ctx);
    const [record, url] = await Promise.all([ctx.client.createRecord(app_id, body, { silent, hook, workflow }), orgUrl(ctx)]);
    const full = toRecord(record, url, { appId: app_id, formats: numberFormats(app) });
    return id_only ? { record_id: full.record_id, record_url: full.record_url } : full;
  },
  text: (r: CreateResult, input) => {
    if ('fields' in r) return `created record\n${recordText(r, {})}`;
    return `created record #${r.record_id} in app #${input.app_id} (set ${Object.keys(input.fields).join(', ')}) ${r.record_url}`;
  },
  example: {
    input: {
      app_id: 902,
      fields: { deal_name: 'Copperline Media — Automations', lead: [5180], amount: 93500, stage: ['Proposal'], close_date: '2025-04-17 00:00:00' },
    },
    result: { record_id: EXAMPLE_RECORD.record_id, record_url: EXAMPLE_RECORD.record_url },
  },
});
