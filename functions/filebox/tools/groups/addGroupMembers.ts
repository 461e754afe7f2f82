import * as z from 'zod';
import { fileboxTool } from '../../tool';
import { groupIdInput } from '../../params';
import { memberResults, resultLine, type MemberResult } from '../../groups/render';
import { memberInput, memberRef } from '../../groups/inputs';

interface Added {
  message: string;
  members_added: number;
  members: MemberResult[];
}

export const addGroupMembers = fileboxTool({
  name: 'addGroupMembers',
  description:
    'Add users to a group by user id or email. Returns one result per member: added, already_member, or not_found (no user has that id or email: create ' +
    'it with createUser first). Returns {message, members_added, members}.',
  input: z.strictObject({
    group_id: groupIdInput('The group id (g…, from listGroups).'),
    members: z.array(memberInput).min(1).max(100).describe('Users to add: user ids (GUID) or email addresses, 1-100.'),
  }),
  annotations: { readOnly: false, destructive: false, idempotent: true },
  async run({ group_id, members }, { client }): Promise<Added> {
    const before = (await client.getGroup(group_id, true)).Contacts ?? [];
    const after = await client.addGroupContacts(group_id, members.map(memberRef));
    const results = memberResults(members, before, after.value);
    const added = results.filter((r) => r.status === 'added').length;
    return { message: `Added ${added} of ${members.length} to group ${group_id}.`, members_added: added, members: results };
  },
  text: (r: Added) => [r.message, ...r.members.map(resultLine)].join('\n'),
  example: {
    input: { group_id: 'g0000047-5f1e-4b0c-9a7d-000000000047', members: ['olivia.bennett@acmelegal.example', 'nobody@example.com'] },
    result: {
      message: 'Added 1 of 2 to group g0000047-5f1e-4b0c-9a7d-000000000047.',
      members_added: 1,
      members: [
        { member: 'olivia.bennett@acmelegal.example', status: 'added', user_id: '00000001-7a1e-4c2b-8d3f-000000000001' },
        { member: 'nobody@example.com', status: 'not_found' },
      ],
    },
  },
});
