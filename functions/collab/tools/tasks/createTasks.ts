import * as z from 'zod';
import { collabTool } from '../../tool';
import { hookInput, silentInput } from '../../params';
import { runTaskBatch, taskBatchText, type TaskBatch } from '../../tasks/batch';
import { taskFields } from '../../tasks/inputs';
import { prepareTasks } from '../../tasks/write';

interface Created {
  created: true;
  task_id: number;
  text: string;
  due_on?: string;
  link?: string;
}

export const createTasks = collabTool({
  name: 'createTasks',
  description:
    'Create one or more tasks. Each element: text (required), description, due_date "YYYY-MM-DD" with optional due_time "HH:MM", or due_on "YYYY-MM-DD HH:MM" — ' +
    'times are in YOUR timezone (getUserStatus shows it) and converted to UTC (a time skipped by a daylight-saving change is refused; a repeated one is read as ' +
    'the first); responsible as a user_id (profile ids are refused with the right id; default: you); ref_type "item" + ref_id to attach it to an item; labels by ' +
    'id or text (a new text creates a grey label); file_ids as ids or https URLs (uploaded for you); private. Every element is checked first — if one is ' +
    'invalid nothing is written and the error names tasks.<i>.<field>. Then the tasks are written a few at a time; the answer is {total, successful, failed, ' +
    'tasks: [{index, success, created, task_id, text}]} and a failed entry is {index, success: false, error: {code, message}} (NOT_ATTEMPTED ones were not ' +
    'sent and can be resent). hook/silent apply to every task.',
  input: z.strictObject({
    tasks: z.array(z.strictObject(taskFields)).min(1).max(200).describe('The tasks to create, each {"text": …, …} (see the description).'),
    hook: hookInput,
    silent: silentInput,
  }),
  annotations: { readOnly: false, destructive: false, idempotent: false },
  async run({ tasks, hook, silent }, ctx): Promise<TaskBatch<Created>> {
    const { bodies, new_labels } = await prepareTasks(ctx, tasks);
    const r = await runTaskBatch(ctx, bodies, async (body): Promise<Created> => {
      const t = await ctx.client.createTask(body, { hook, silent });
      return { created: true, task_id: t.task_id, text: t.text, ...(t.due_on ? { due_on: t.due_on } : {}), ...(t.link ? { link: t.link } : {}) };
    });
    return { ...r, ...(new_labels.length ? { new_labels } : {}) };
  },
  text: (r: TaskBatch<Created>) => taskBatchText(r, 'created', 'tasks'),
  example: {
    input: {
      tasks: [
        { text: 'Call Northwind about the renewal', due_on: '2026-03-30 09:00', ref_type: 'item', ref_id: 30061, labels: ['Urgent'] },
        { text: 'Send the offer', responsible: 1002, due_date: '2026-03-31', file_ids: ['https://example.com/offers/northwind.pdf'] },
      ],
    },
    result: {
      total: 2,
      successful: 1,
      failed: 1,
      tasks: [
        { index: 0, success: true, created: true, task_id: 40011, text: 'Call Northwind about the renewal', due_on: '2026-03-30 07:00:00', link: 'https://podio.com/tasks/40011' },
        { index: 1, success: false, error: { code: 'RATE_LIMITED', message: 'Podio rate limit reached: You have hit the rate limit. Please wait 300 seconds before trying again' } },
      ],
    },
  },
});
