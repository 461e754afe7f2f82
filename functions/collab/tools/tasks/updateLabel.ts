import * as z from 'zod';
import { invalidParameter } from '../../../../shared/core/errors';
import { collabTool } from '../../tool';
import { colorInput, labelIdInput, labelTextInput } from '../../tasks/inputs';
import { toLabel } from '../../tasks/render';

interface Updated {
  updated: true;
  label_id: number;
  text: string;
  color: string;
}

export const updateLabel = collabTool({
  name: 'updateLabel',
  description:
    'Rename a task label or change its colour (6 hex digits; a leading "#" is stripped); every task with it shows the change. ' +
    'Returns {updated: true, label_id, text, color} with both values as they are now.',
  input: z.strictObject({ label_id: labelIdInput, text: labelTextInput.optional(), color: colorInput.optional() }),
  annotations: { readOnly: false, destructive: true, idempotent: true },
  async run({ label_id, text, color }, { client }): Promise<Updated> {
    if (text === undefined && color === undefined) throw invalidParameter('text', 'text or color', 'Give the new text, the new color, or both.');
    await client.updateLabel(label_id, { ...(text !== undefined ? { text } : {}), ...(color !== undefined ? { color } : {}) });
    // The value left unchanged is read back, so the answer shows the label whole.
    const now = (await client.listLabels()).map(toLabel).find((l) => l.label_id === label_id);
    return { updated: true, label_id, text: now?.text ?? text ?? '', color: now?.color ?? color ?? '' };
  },
  text: (r: Updated) => `updated label #${r.label_id}: ${r.text} (${r.color})`,
  example: { input: { label_id: 45001, color: 'FFD5C2' }, result: { updated: true, label_id: 45001, text: 'Urgent', color: 'FFD5C2' } },
});
