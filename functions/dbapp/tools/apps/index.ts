import { toolGroup } from '../../../../shared/core/tool';
import type { TapeClient } from '../../client';

export const appTools = toolGroup<TapeClient>('apps', {
  getOrganization: () => import('./getOrganization').then((m) => m.getOrganization),
  listOrganizationUsers: () => import('./listOrganizationUsers').then((m) => m.listOrganizationUsers),
  listApps: () => import('./listApps').then((m) => m.listApps),
  getApp: () => import('./getApp').then((m) => m.getApp),
});
