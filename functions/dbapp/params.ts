import * as z from 'zod';

/** A positive integer id of a Tape resource. */
export const id = (what: string) => z.number().int().positive().describe(what);

export const workspaceId = id('Numeric id of the workspace (from listWorkspaces).');
export const userId = id('Numeric id of an organization user (from listOrganizationUsers).');
export const workspaceType = z
  .enum(['private', 'open', 'default', 'closed'])
  .describe('Visibility: private = invite-only, open = any org member may join, default = org default visibility, closed = read-only for non-members.');
export const memberRole = z.enum(['member', 'admin']).describe('Role in the workspace: member or admin.');
