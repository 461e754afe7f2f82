import { toolGroup } from '../../../../shared/core/tool';
import type { PodioClient } from '../../client';

/** The hook tools (docs/spec.md#collab-hook), each loaded on first use. */
export const hookTools = toolGroup<PodioClient>('hooks', {
  getHooks: () => import('./getHooks').then((m) => m.getHooks),
  createHook: () => import('./createHook').then((m) => m.createHook),
  deleteHook: () => import('./deleteHook').then((m) => m.deleteHook),
  requestHookVerification: () => import('./requestHookVerification').then((m) => m.requestHookVerification),
  validateHookVerification: () => import('./validateHookVerification').then((m) => m.validateHookVerification),
});
