import type { ToolLoaders } from '../../../../shared/tool';
import type { TapeClient } from '../../client';

export const appTools: ToolLoaders<TapeClient> = {
  getOrganization: () => import('./getOrganization').then((m) => m.getOrganization),
  listOrganizationUsers: () => import('./listOrganizationUsers').then((m) => m.listOrganizationUsers),
  listApps: () => import('./listApps').then((m) => m.listApps),
  getApp: () => import('./getApp').then((m) => m.getApp),
};
