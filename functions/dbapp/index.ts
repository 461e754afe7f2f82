import { definePlatform } from '../../shared/tool';
import { createTapeClient, TAPE_BASE_URL } from './client';
import { addWorkspaceMember } from './tools/workspaces/addWorkspaceMember';
import { createWorkspace } from './tools/workspaces/createWorkspace';
import { deleteWorkspace } from './tools/workspaces/deleteWorkspace';
import { getWorkspace } from './tools/workspaces/getWorkspace';
import { listWorkspaceMembers } from './tools/workspaces/listWorkspaceMembers';
import { listWorkspaces } from './tools/workspaces/listWorkspaces';
import { removeWorkspaceMember } from './tools/workspaces/removeWorkspaceMember';
import { updateWorkspace } from './tools/workspaces/updateWorkspace';

/** The dbapp platform (Tape): the explicit list of its tools. */
export const dbapp = definePlatform({
  name: 'dbapp',
  vendor: 'Tape',
  defaultBaseUrl: TAPE_BASE_URL,
  client: createTapeClient,
  tools: [
    listWorkspaces,
    getWorkspace,
    createWorkspace,
    updateWorkspace,
    listWorkspaceMembers,
    addWorkspaceMember,
    removeWorkspaceMember,
    deleteWorkspace,
  ],
});
