import { toolGroup } from '../../../../shared/core/tool';
import type { PodioClient } from '../../client';

/** The sharing tools (docs/spec.md#collab-grant), each loaded on first use. */
export const sharingTools = toolGroup<PodioClient>('sharing', {
  shareItem: () => import('./shareItem').then((m) => m.shareItem),
  updateShare: () => import('./updateShare').then((m) => m.updateShare),
  deleteShare: () => import('./deleteShare').then((m) => m.deleteShare),
  getItemShares: () => import('./getItemShares').then((m) => m.getItemShares),
});
