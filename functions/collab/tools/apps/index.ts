import { toolGroup } from '../../../../shared/core/tool';
import type { PodioClient } from '../../client';

/** The apps and lookup tools (docs/spec.md#collab-item "tools referenced for lookup", plus getOrganizations), each loaded on first use. */
export const appTools = toolGroup<PodioClient>('apps', {
  getOrganizations: () => import('./getOrganizations').then((m) => m.getOrganizations),
  getUserStatus: () => import('./getUserStatus').then((m) => m.getUserStatus),
  getOrganizationMembers: () => import('./getOrganizationMembers').then((m) => m.getOrganizationMembers),
  getContacts: () => import('./getContacts').then((m) => m.getContacts),
  getAppsBySpace: () => import('./getAppsBySpace').then((m) => m.getAppsBySpace),
  getApp: () => import('./getApp').then((m) => m.getApp),
});
