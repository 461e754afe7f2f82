import { toolGroup } from '../../../../shared/core/tool';
import type { PodioClient } from '../../client';

/** The task and label tools (docs/spec.md#collab-task), each loaded on first use. */
export const taskTools = toolGroup<PodioClient>('tasks', {
  createTasks: () => import('./createTasks').then((m) => m.createTasks),
  getTask: () => import('./getTask').then((m) => m.getTask),
  updateTasks: () => import('./updateTasks').then((m) => m.updateTasks),
  deleteTasks: () => import('./deleteTasks').then((m) => m.deleteTasks),
  getTasks: () => import('./getTasks').then((m) => m.getTasks),
  createLabel: () => import('./createLabel').then((m) => m.createLabel),
  getLabels: () => import('./getLabels').then((m) => m.getLabels),
  updateLabel: () => import('./updateLabel').then((m) => m.updateLabel),
  deleteLabel: () => import('./deleteLabel').then((m) => m.deleteLabel),
});
