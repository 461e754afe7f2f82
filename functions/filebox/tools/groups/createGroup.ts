import * as z from 'zod';
import { fileboxTool } from '../../tool';
import { memberResults, groupText, resultLine, toGroup, type Group, type MemberResult } from '../../groups/render';
import { memberInput, memberRef } from '../../groups/inputs';

interface Created {
  group: Group;
  members: MemberResult[];
}

export const createGroup = fileboxTool({
  name: 'createGroup',
  description:
    'Create a distribution group (a named list of users to share with in one go), shared with the account or personal, optionally with members given by ' +
    'user id or email. Emails of no user are reported per member (not_found), not added. Groups have no description. Returns {group, members}.',
  input: z.strictObject({
    name: z.string().trim().min(1).max(200).describe('Group name.'),
    is_shared: z.boolean().default(false).describe('Visible to every employee (default false: personal).'),
    contacts: z.array(memberInput).max(100).default([]).describe('Members: user ids (GUID) or email addresses, at most 100.'),
  }),
  annotations: { readOnly: false, destructive: false, idempotent: false },
  async run({ name, is_shared, contacts }, { client }): Promise<Created> {
    const w = await client.createGroup({ Name: name, IsShared: is_shared, Contacts: contacts.map(memberRef) });
    return { group: toGroup(w), members: memberResults(contacts, [], w.Contacts ?? []) };
  },
  text: (r: Created) => [`created ${groupText(r.group)}`, ...r.members.filter((m) => m.status !== 'added').map(resultLine)].join('\n'),
  example: {
    input: { name: 'Litigation', is_shared: true, contacts: ['marcus.chen@acmelegal.example'] },
    result: {
      group: { Id: 'g00003ea-5f1e-4b0c-9a7d-0000000003ea', Name: 'Litigation', IsShared: true, NumberOfContacts: 1, 'odata.type': 'ShareFile.Api.Models.Group', url: 'https://acme.sf-api.com/sf/v3/Groups(g00003ea-5f1e-4b0c-9a7d-0000000003ea)', Contacts: [{ Id: '00000002-7a1e-4c2b-8d3f-000000000002', Name: 'Marcus Chen', FirstName: 'Marcus', LastName: 'Chen', Email: 'marcus.chen@acmelegal.example', Company: 'Acme Legal', IsConfirmed: true, IsDisabled: false, LastAnyLogin: null, CreatedDate: '2024-02-01T09:00:00Z', url: 'https://acme.sf-api.com/sf/v3/Contacts(00000002-7a1e-4c2b-8d3f-000000000002)' }] },
      members: [{ member: 'marcus.chen@acmelegal.example', status: 'added', user_id: '00000002-7a1e-4c2b-8d3f-000000000002' }],
    },
  },
});
