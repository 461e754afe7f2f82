import { toolGroup } from '../../../../shared/core/tool';
import type { TapeClient } from '../../client';

export const viewTools = toolGroup<TapeClient>('views', {
  getAppViews: () => import('./getAppViews').then((m) => m.getAppViews),
  getView: () => import('./getView').then((m) => m.getView),
  createView: () => import('./createView').then((m) => m.createView),
  updateView: () => import('./updateView').then((m) => m.updateView),
  makeViewDefault: () => import('./makeViewDefault').then((m) => m.makeViewDefault),
  deleteView: () => import('./deleteView').then((m) => m.deleteView),
});
