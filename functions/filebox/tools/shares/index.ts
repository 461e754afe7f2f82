import { toolGroup } from '../../../../shared/core/tool';
import type { ShareFileClient } from '../../client';

/** The shares tools (docs/spec.md#filebox-share), each loaded on first use. */
export const shareTools = toolGroup<ShareFileClient>('shares', {
  getShare: () => import('./getShare').then((m) => m.getShare),
  listShares: () => import('./listShares').then((m) => m.listShares),
  createShare: () => import('./createShare').then((m) => m.createShare),
  updateShare: () => import('./updateShare').then((m) => m.updateShare),
  deleteShare: () => import('./deleteShare').then((m) => m.deleteShare),
  sendShareNotification: () => import('./sendShareNotification').then((m) => m.sendShareNotification),
});
