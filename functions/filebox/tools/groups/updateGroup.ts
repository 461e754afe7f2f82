import * as z from 'zod';
import { invalidParameter } from '../../../../shared/core/errors';
import { fileboxTool } from '../../tool';
import { groupIdInput } from '../../params';
import { groupText, toGroup, type Group } from '../../groups/render';

export const updateGroup = fileboxTool({
  name: 'updateGroup',
  description: 'Rename a group or make it shared/personal. Pass at least one of name, is_shared. Members change with addGroupMembers and removeGroupMember. Returns the group.',
  input: z.strictObject({
    group_id: groupIdInput('The group id (g…, from listGroups).'),
    name: z.string().trim().min(1).max(200).optional().describe('New name.'),
    is_shared: z.boolean().optional().describe('true: shared with every employee; false: personal.'),
  }),
  annotations: { readOnly: false, destructive: true, idempotent: true },
  async run({ group_id, name, is_shared }, { client }): Promise<Group> {
    if (name === undefined && is_shared === undefined) throw invalidParameter('name', 'at least one of name, is_shared', 'Nothing to change: pass name or is_shared.');
    return toGroup(await client.updateGroup(group_id, { ...(name !== undefined ? { Name: name } : {}), ...(is_shared !== undefined ? { IsShared: is_shared } : {}) }));
  },
  text: (g: Group) => `updated ${groupText(g)}`,
  example: { input: { group_id: 'g0000047-5f1e-4b0c-9a7d-000000000047', name: 'Senior partners' }, result: { Id: 'g0000047-5f1e-4b0c-9a7d-000000000047', Name: 'Senior partners', IsShared: true, NumberOfContacts: 2 } },
});
