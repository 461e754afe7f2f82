import { toolGroup } from '../../../../shared/core/tool';
import type { ShareFileClient } from '../../client';

/** The access-control tools (docs/spec.md#filebox-access-control), each loaded on first use. */
export const accessTools = toolGroup<ShareFileClient>('access', {
  getItemAccessControls: () => import('./getItemAccessControls').then((m) => m.getItemAccessControls),
  createAccessControl: () => import('./createAccessControl').then((m) => m.createAccessControl),
  updateAccessControl: () => import('./updateAccessControl').then((m) => m.updateAccessControl),
  deleteAccessControl: () => import('./deleteAccessControl').then((m) => m.deleteAccessControl),
});
