import * as z from 'zod';
import { dbappTool } from '../../tool';
import { hookInput, recordId, silentInput } from '../../records/inputs';

interface Deleted {
  record_id: number;
  title: string;
  deleted_on: string | null;
  /** In the trash (restoreRecord brings it back) or gone for good (skip_trash). */
  restorable: boolean;
}

export const deleteRecord = dbappTool({
  name: 'deleteRecord',
  description:
    'Delete one record. By default it goes to the trash and restoreRecord can bring it back; skip_trash removes it permanently (cannot be ' +
    'undone). Runs webhooks (record.delete) unless hook is false; silent suppresses notifications. Deleting a record that is already deleted ' +
    'is an error. Returns {record_id, title, deleted_on, restorable}.',
  input: z.strictObject({
    record_id: recordId,
    skip_trash: z.boolean().default(false).describe('Delete permanently instead of moving to the trash (default false). Cannot be undone.'),
    silent: silentInput,
    hook: hookInput,
  }),
  // A repeat answers an error (already deleted): not idempotent.
  annotations: { readOnly: false, destructive: true, idempotent: false },
  async run({ record_id, skip_trash, silent, hook }, { client }): Promise<Deleted> {
    const r = await client.deleteRecord(record_id, { silent, hook, skip_trash });
    return { record_id: r.record_id, title: r.title, deleted_on: r.deleted_on ?? null, restorable: !skip_trash };
  },
  text: (r: Deleted) =>
    `deleted record #${r.record_id} ${r.title}${r.deleted_on ? ` at ${r.deleted_on}` : ''} — ${r.restorable ? 'in the trash: restoreRecord brings it back' : 'permanently (skip_trash): it cannot be restored'}`,
  example: {
    input: { record_id: 5300 },
    result: { record_id: 5300, title: 'Copperline Media — Automations', deleted_on: '2025-03-02 10:15:00', restorable: true },
  },
});
