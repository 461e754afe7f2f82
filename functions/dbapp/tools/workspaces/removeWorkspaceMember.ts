import * as z from 'zod';
import { dbappTool } from '../../tool';
import { userId, workspaceId } from '../../params';

export const removeWorkspaceMember = dbappTool({
  name: 'removeWorkspaceMember',
  description:
    'Remove a user from a workspace: the user loses access to it but stays in the organization and in other workspaces. ' +
    'Needs admin rights on the workspace. Returns {}.',
  input: z.strictObject({ workspace_id: workspaceId, user_id: userId }),
  annotations: { readOnly: false, destructive: true, idempotent: false },
  async run({ workspace_id, user_id }, { client }) {
    await client.removeWorkspaceMember(workspace_id, user_id);
    return {};
  },
  text: (_r, input) => `removed user #${input.user_id} from workspace #${input.workspace_id} (still in the organization)`,
  example: { input: { workspace_id: 1, user_id: 10001 }, result: {} },
});
