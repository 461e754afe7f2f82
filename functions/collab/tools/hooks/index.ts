import { toolGroup } from '../../../../shared/tool';
import type { PodioClient } from '../../client';

/** The hook tools of issue 8 (spec §4.8), each loaded on first use. */
export const hookTools = toolGroup<PodioClient>('hooks', {
  getHooks: () => import('./getHooks').then((m) => m.getHooks),
  createHook: () => import('./createHook').then((m) => m.createHook),
  deleteHook: () => import('./deleteHook').then((m) => m.deleteHook),
  requestHookVerification: () => import('./requestHookVerification').then((m) => m.requestHookVerification),
  validateHookVerification: () => import('./validateHookVerification').then((m) => m.validateHookVerification),
});
