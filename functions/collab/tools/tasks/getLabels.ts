import * as z from 'zod';
import { plural } from '../../../../shared/core/render';
import { collabTool } from '../../tool';
import { labelLine, toLabel, type Label } from '../../tasks/render';

export const getLabels = collabTool({
  name: 'getLabels',
  description: 'Your task labels (personal in Podio): label_id, text, color. Use their ids or texts in createTasks/updateTasks labels and getTasks label. Read-only.',
  input: z.strictObject({}),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run(_input, { client }): Promise<Label[]> {
    return (await client.listLabels()).map(toLabel);
  },
  text: (labels: Label[]) => (labels.length ? [...labels.map(labelLine), plural(labels.length, 'label')].join('\n') : 'no labels — createLabel makes one'),
  example: {
    input: {},
    result: [
      { label_id: 45001, text: 'Urgent', color: 'D2E4EB' },
      { label_id: 45002, text: 'Follow-up', color: 'F7F0C5' },
    ],
  },
});
