import * as z from 'zod';
import { invalidParameter } from '../../../../shared/core/errors';
import { collabTool } from '../../tool';
import { hookInput, silentInput } from '../../params';
import { runTaskBatch, taskBatchText, type TaskBatch } from '../../tasks/batch';
import { taskFields, taskIdInput } from '../../tasks/inputs';
import { prepareTasks } from '../../tasks/write';

interface Updated {
  updated: true;
  task_id: number;
}

const element = z.strictObject({
  task_id: taskIdInput,
  ...taskFields,
  text: taskFields.text.optional(),
  completed: z.boolean().optional().describe('true marks the task done; false opens it again.'),
});

export const updateTasks = collabTool({
  name: 'updateTasks',
  description:
    'Change one or more tasks: each element names task_id and at least one change — text, description, due_date/due_time or due_on (in YOUR timezone, ' +
    'converted to UTC; due_date null removes the due date), responsible (a user_id; profile ids are refused), ref_type + ref_id, labels by id or text ' +
    '(replaces the labels; a new text creates a grey label), file_ids (ids or https URLs, added), private, completed (true marks done, false reopens). ' +
    'Every element is checked first (errors name tasks.<i>.<field>; nothing is written if one is invalid), then written a few at a time. Answer: ' +
    '{total, successful, failed, tasks: [{index, success, updated, task_id}]}; a failed entry is {index, success: false, task_id, error: {code, message}}.',
  input: z.strictObject({
    tasks: z.array(element).min(1).max(200).describe('The changes, each {"task_id": …, <fields to change>}.'),
    hook: hookInput,
    silent: silentInput,
  }),
  annotations: { readOnly: false, destructive: true, idempotent: false },
  async run({ tasks, hook, silent }, ctx): Promise<TaskBatch<Updated>> {
    tasks.forEach((t, i) => {
      if (Object.keys(t).length < 2) throw invalidParameter(`tasks.${i}`, 'task_id and at least one change', `Parameter "tasks.${i}" names task ${t.task_id} but nothing to change.`);
    });
    const { bodies, new_labels } = await prepareTasks(ctx, tasks);
    const r = await runTaskBatch(
      ctx,
      bodies.map((body, i) => ({ task_id: tasks[i]!.task_id, body })),
      async ({ task_id, body }): Promise<Updated> => {
        await ctx.client.updateTask(task_id, body, { hook, silent });
        return { updated: true, task_id };
      },
      (input) => input.task_id,
    );
    return { ...r, ...(new_labels.length ? { new_labels } : {}) };
  },
  text: (r: TaskBatch<Updated>) => taskBatchText(r, 'updated', 'tasks'),
  example: {
    input: { tasks: [{ task_id: 40001, completed: true }, { task_id: 40003, due_on: '2026-01-20 14:00', labels: ['Follow-up'] }] },
    result: {
      total: 2,
      successful: 1,
      failed: 1,
      tasks: [
        { index: 0, success: true, updated: true, task_id: 40001 },
        { index: 1, success: false, task_id: 40003, error: { code: 'FORBIDDEN', message: 'Podio rejected PUT /task/40003: The user 1006 does not have the right "view" on task 40003' } },
      ],
    },
  },
});
