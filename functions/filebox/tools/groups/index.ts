import { toolGroup } from '../../../../shared/core/tool';
import type { ShareFileClient } from '../../client';

/** The groups tools (docs/spec.md#filebox-group), each loaded on first use. */
export const groupTools = toolGroup<ShareFileClient>('groups', {
  getGroup: () => import('./getGroup').then((m) => m.getGroup),
  listGroups: () => import('./listGroups').then((m) => m.listGroups),
  createGroup: () => import('./createGroup').then((m) => m.createGroup),
  updateGroup: () => import('./updateGroup').then((m) => m.updateGroup),
  deleteGroup: () => import('./deleteGroup').then((m) => m.deleteGroup),
  addGroupMembers: () => import('./addGroupMembers').then((m) => m.addGroupMembers),
  removeGroupMember: () => import('./removeGroupMember').then((m) => m.removeGroupMember),
});
