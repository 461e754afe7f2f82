import * as z from 'zod';
import { dbappTool } from '../../tool';
import { hookInput, recordId, silentInput } from '../../records/inputs';
import { orgUrl } from '../../records/page';
import { recordUrl } from '../../fields';

interface Restored {
  record_id: number;
  title: string;
  record_url: string;
}

export const restoreRecord = dbappTool({
  name: 'restoreRecord',
  description:
    'Bring a deleted record back from the trash (only records deleted without skip_trash, in a trash the key can reach). Runs webhooks ' +
    '(record.restore) unless hook is false; silent suppresses notifications. Restoring a record that is not deleted is an error. ' +
    'Returns {record_id, title, record_url}.',
  input: z.strictObject({
    record_id: recordId,
    silent: silentInput,
    hook: hookInput,
  }),
  // A repeat answers an error (not deleted): not idempotent.
  annotations: { readOnly: false, destructive: false, idempotent: false },
  async run({ record_id, silent, hook }, ctx): Promise<Restored> {
    const [r, url] = await Promise.all([ctx.client.restoreRecord(record_id, { silent, hook }), orgUrl(ctx)]);
    return { record_id: r.record_id, title: r.title, record_url: recordUrl(url, r.record_id) };
  },
  text: (r: Restored) => `restored record #${r.record_id} ${r.title} ${r.record_url}`,
  example: {
    input: { record_id: 5300 },
    result: { record_id: 5300, title: 'Copperline Media — Automations', record_url: 'https://tapeapp.com/tape/record/5300' },
  },
});
