/**
 * The task batches (createTasks, updateTasks, deleteTasks) on shared/core/batch.ts: a few writes in flight
 * at once (Podio has no batch endpoint for tasks, and its hourly budget is shared), as one chunk (each
 * task is its own call: chunk boundaries would only idle the lanes), a rate limit stops the rest
 * (NOT_ATTEMPTED, to resend). The answer is docs/spec.md#collab-task's envelope
 * `{total, successful, failed, tasks: [...]}`; a failed entry is
 * `{index, success: false, task_id?, error: {code, message, details?}}` — `task_id` when the input
 * named one (update, delete).
 */
import { batchText, isRateLimited, runBatch, type BatchError, type BatchResult } from '../../../shared/core/batch';
import type { Ctx } from '../params';
import type { Label } from './render';

/** Writes of one batch in flight at once. */
const CONCURRENCY = 5;

export type FailedTask = { index: number; success: false; task_id?: number; error: BatchError };
export type TaskEntry<R> = ({ index: number; success: true } & R) | FailedTask;

export interface TaskBatch<R> {
  total: number;
  successful: number;
  failed: number;
  tasks: TaskEntry<R>[];
  /** createTasks/updateTasks: labels created for texts no label had. */
  new_labels?: Label[];
}

/** Runs `work` over the inputs; `idOf` names the task of an input for its failed entry. */
export async function runTaskBatch<T, R extends object>(ctx: Pick<Ctx, 'deadline'>, inputs: readonly T[], work: (input: T, index: number) => Promise<R>, idOf?: (input: T) => number): Promise<TaskBatch<R>> {
  const r: BatchResult<R> = await runBatch(inputs, work, { chunkSize: Math.max(1, inputs.length), concurrency: CONCURRENCY, deadline: ctx.deadline, stopOn: isRateLimited });
  return {
    total: r.total,
    successful: r.successful,
    failed: r.failed,
    tasks: r.items.map((item) => (item.success || !idOf ? item : { index: item.index, success: false, task_id: idOf(inputs[item.index]!), error: item.error })),
  };
}

/** `created 2 of 3 tasks — 1 failed`, ids by index, each failure, what to resend; new labels. */
export function taskBatchText<R extends { task_id: number }>(r: TaskBatch<R>, verb: 'created' | 'updated' | 'deleted', param: 'tasks' | 'task_ids'): string {
  const text = batchText({ ...r, items: r.tasks }, { verb, noun: 'tasks', container: 'Podio', param, idLabel: 'task ids', id: (i) => `#${i.task_id}` });
  const labels = r.new_labels?.length ? `\nnew labels: ${r.new_labels.map((l) => `#${l.label_id} ${l.text}`).join(', ')}` : '';
  return text + labels;
}
