import * as z from 'zod';
import { numberFormats, withAppSchema } from '../../apps/schema';
import { dbappTool } from '../../tool';
import { finishFields, planFields, recordText, toRecord, type AppRecord } from '../../fields';
import { fieldsInput, hookInput, recordId, silentInput, workflowInput } from '../../records/inputs';
import { appIdOf, orgUrl } from '../../records/page';
import { EXAMPLE_RECORD } from '../../records/examples';

type UpdateResult = { record_id: number } | AppRecord;

export const updateRecord = dbappTool({
  name: 'updateRecord',
  description:
    'Change field values of one record; fields not given stay as they are, null clears one. Values take the same forms as createRecord and ' +
    'are checked against the app first — single_date too is the plain string "YYYY-MM-DD HH:MM:SS" (an object with "start" is refused). ' +
    'A checklist value replaces the list: items with their "id" (from getRecord) are kept and only the keys given change, items without id ' +
    'are added, items left out are deleted. Returns {record_id} (id_only, default) or the full record. For two or more records use batchUpdateRecords.',
  input: z.strictObject({
    record_id: recordId,
    fields: fieldsInput,
    id_only: z.boolean().default(true).describe('Answer only {record_id} (default true); false returns the full updated record.'),
    silent: silentInput,
    hook: hookInput,
    workflow: workflowInput,
  }),
  // Not idempotent: checklist items given without id are added again on a repeat.
  annotations: { readOnly: false, destructive: true, idempotent: false },
  async run({ record_id, fields, id_only, silent, hook, workflow }, ctx): Promise<UpdateResult> {
    // The record names its app (for the schema) and holds the checklist entries that items with an id complete.
    const current = await ctx.client.getRecord(record_id);
    const { app, plan } = await withAppSchema(ctx, appIdOf(current), (app) => ({ app, plan: planFields(app, fields, 'update') }));
    const body = await finishFields(plan, ctx, current);
    const [updated, url] = await Promise.all([ctx.client.updateRecord(record_id, body, { silent, hook, workflow }), id_only ? undefined : orgUrl(ctx)]);
    if (id_only || url === undefined) return { record_id: updated.record_id };
    return toRecord(updated, url, { appId: app.app_id, formats: numberFormats(app) });
  },
  text: (r: UpdateResult, input) => {
    if ('fields' in r) return `updated record\n${recordText(r, {})}`;
    const cleared = Object.entries(input.fields).filter(([, v]) => v === null || (Array.isArray(v) && v.length === 0)).map(([k]) => k);
    const set = Object.keys(input.fields).filter((k) => !cleared.includes(k));
    return `updated record #${r.record_id}: ${[set.length ? `set ${set.join(', ')}` : '', cleared.length ? `cleared ${cleared.join(', ')}` : ''].filter(Boolean).join('; ')}`;
  },
  example: {
    input: { record_id: 5300, fields: { stage: ['Negotiation'], amount: 95000, next_steps: [{ id: 900612, completed: true }, { title: 'Legal review', due: '2025-03-10' }] } },
    result: { record_id: EXAMPLE_RECORD.record_id },
  },
});
