import { toolGroup } from '../../../../shared/core/tool';
import type { PodioClient } from '../../client';

/** The views tools (docs/spec.md#collab-view), each loaded on first use. */
export const viewTools = toolGroup<PodioClient>('views', {
  getViews: () => import('./getViews').then((m) => m.getViews),
  getView: () => import('./getView').then((m) => m.getView),
  createView: () => import('./createView').then((m) => m.createView),
  updateView: () => import('./updateView').then((m) => m.updateView),
  deleteView: () => import('./deleteView').then((m) => m.deleteView),
  makeViewDefault: () => import('./makeViewDefault').then((m) => m.makeViewDefault),
  updateLastView: () => import('./updateLastView').then((m) => m.updateLastView),
});
