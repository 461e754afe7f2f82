import { addWorkspaceMember } from './addWorkspaceMember';
import { createWorkspace } from './createWorkspace';
import { deleteWorkspace } from './deleteWorkspace';
import { getWorkspace } from './getWorkspace';
import { listWorkspaceMembers } from './listWorkspaceMembers';
import { listWorkspaces } from './listWorkspaces';
import { removeWorkspaceMember } from './removeWorkspaceMember';
import { updateWorkspace } from './updateWorkspace';

export const workspaceTools = [
  listWorkspaces,
  getWorkspace,
  createWorkspace,
  updateWorkspace,
  listWorkspaceMembers,
  addWorkspaceMember,
  removeWorkspaceMember,
  deleteWorkspace,
];
