import * as z from 'zod';
import { numericId } from '../../../../shared/core/ids';
import { invalidParameter } from '../../../../shared/core/errors';
import { collabTool } from '../../tool';
import { hookInput, silentInput } from '../../params';
import { runTaskBatch, taskBatchText, type TaskBatch } from '../../tasks/batch';

interface Deleted {
  deleted: true;
  task_id: number;
}

export const deleteTasks = collabTool({
  name: 'deleteTasks',
  description:
    'Delete tasks permanently, with their comments and files; they cannot be restored (to finish a task instead, updateTasks with completed: true). ' +
    'Deleted a few at a time; answer {total, successful, failed, tasks: [{index, success, deleted, task_id}]}, a failed entry {index, success: false, ' +
    'task_id, error: {code, message}}. hook/silent apply to every task.',
  input: z.strictObject({
    task_ids: z.array(numericId()).min(1).max(200).describe('The task ids to delete (getTasks lists them).'),
    hook: hookInput,
    silent: silentInput,
  }),
  annotations: { readOnly: false, destructive: true, idempotent: false },
  async run({ task_ids, hook, silent }, ctx): Promise<TaskBatch<Deleted>> {
    task_ids.forEach((id, i) => {
      if (task_ids.indexOf(id) !== i) throw invalidParameter(`task_ids.${i}`, 'each task id once', `Parameter "task_ids.${i}": task ${id} is listed twice.`);
    });
    return runTaskBatch(
      ctx,
      task_ids,
      async (task_id): Promise<Deleted> => {
        await ctx.client.deleteTask(task_id, { hook, silent });
        return { deleted: true, task_id };
      },
      (id) => id,
    );
  },
  text: (r: TaskBatch<Deleted>) => `${taskBatchText(r, 'deleted', 'task_ids')}${r.successful ? ' (permanent)' : ''}`,
  example: {
    input: { task_ids: [40004, 40099] },
    result: {
      total: 2,
      successful: 1,
      failed: 1,
      tasks: [
        { index: 0, success: true, deleted: true, task_id: 40004 },
        { index: 1, success: false, task_id: 40099, error: { code: 'NOT_FOUND', message: 'Podio rejected DELETE /task/40099: Object not found' } },
      ],
    },
  },
});
