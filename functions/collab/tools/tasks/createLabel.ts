import * as z from 'zod';
import { collabTool } from '../../tool';
import { colorInput, labelTextInput } from '../../tasks/inputs';

interface Created {
  created: true;
  label_id: number;
  text: string;
  color: string;
}

export const createLabel = collabTool({
  name: 'createLabel',
  description:
    'Create a task label of your own (labels are personal in Podio): text and a colour as 6 hex digits without "#" (a leading "#" is stripped, anything else ' +
    'is refused). Put it on tasks with createTasks/updateTasks labels. Returns {created: true, label_id, text, color}.',
  input: z.strictObject({ text: labelTextInput, color: colorInput }),
  annotations: { readOnly: false, destructive: false, idempotent: false },
  async run({ text, color }, { client }): Promise<Created> {
    const { label_id } = await client.createLabel({ text, color });
    return { created: true, label_id, text, color };
  },
  text: (r: Created) => `created label #${r.label_id} ${r.text} (${r.color})`,
  example: { input: { text: 'Waiting', color: '#FFD5C2' }, result: { created: true, label_id: 45004, text: 'Waiting', color: 'FFD5C2' } },
});
