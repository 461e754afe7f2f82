import * as z from 'zod';
import { collabTool } from '../../tool';
import { taskIdInput } from '../../tasks/inputs';
import { taskText, toTask, type Task } from '../../tasks/render';
import { SAMPLE_TASK } from '../../tasks/examples';

export const getTask = collabTool({
  name: 'getTask',
  description:
    'One task in full: text, description, status, due (due_date/due_time in your timezone, due_on in UTC), responsible {user_id, name}, created_by, what it is ' +
    'attached to (ref {type, id, title}), labels, files, link, private. getCommentsOnObject with type "task" reads its comments. Read-only.',
  input: z.strictObject({ task_id: taskIdInput }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run({ task_id }, { client }): Promise<Task> {
    return toTask(await client.getTask(task_id), false);
  },
  text: taskText,
  example: { input: { task_id: 40001 }, result: SAMPLE_TASK },
});
