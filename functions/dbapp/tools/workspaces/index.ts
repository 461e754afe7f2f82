import { toolGroup } from '../../../../shared/core/tool';
import type { TapeClient } from '../../client';

export const workspaceTools = toolGroup<TapeClient>('workspaces', {
  listWorkspaces: () => import('./listWorkspaces').then((m) => m.listWorkspaces),
  getWorkspace: () => import('./getWorkspace').then((m) => m.getWorkspace),
  createWorkspace: () => import('./createWorkspace').then((m) => m.createWorkspace),
  updateWorkspace: () => import('./updateWorkspace').then((m) => m.updateWorkspace),
  listWorkspaceMembers: () => import('./listWorkspaceMembers').then((m) => m.listWorkspaceMembers),
  addWorkspaceMember: () => import('./addWorkspaceMember').then((m) => m.addWorkspaceMember),
  removeWorkspaceMember: () => import('./removeWorkspaceMember').then((m) => m.removeWorkspaceMember),
  deleteWorkspace: () => import('./deleteWorkspace').then((m) => m.deleteWorkspace),
});
