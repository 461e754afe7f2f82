import * as z from 'zod';
import { collabTool } from '../../tool';
import { labelIdInput } from '../../tasks/inputs';

interface Deleted {
  deleted: true;
  label_id: number;
}

export const deleteLabel = collabTool({
  name: 'deleteLabel',
  description: 'Delete one of your task labels; Podio removes it from every task that has it (the tasks stay). Cannot be undone. Returns {deleted: true, label_id}.',
  input: z.strictObject({ label_id: labelIdInput }),
  annotations: { readOnly: false, destructive: true, idempotent: false },
  async run({ label_id }, { client }): Promise<Deleted> {
    await client.deleteLabel(label_id);
    return { deleted: true, label_id };
  },
  text: (r: Deleted) => `deleted label #${r.label_id} and removed it from every task`,
  example: { input: { label_id: 45002 }, result: { deleted: true, label_id: 45002 } },
});
