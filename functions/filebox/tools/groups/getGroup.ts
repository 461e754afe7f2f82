import * as z from 'zod';
import { fileboxTool } from '../../tool';
import { groupIdInput, summaryOnlyInput } from '../../params';
import { groupText, toGroup, type Group } from '../../groups/render';

export const getGroup = fileboxTool({
  name: 'getGroup',
  description: 'Get a distribution group: name, shared or personal, member count; include_contacts lists the members (id, name, email, company, confirmed, disabled). Read-only.',
  input: z.strictObject({
    group_id: groupIdInput('The group id (g…, from listGroups).'),
    include_contacts: z.boolean().default(false).describe('List the members (default false).'),
    summary_only: summaryOnlyInput,
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run({ group_id, include_contacts, summary_only }, { client }): Promise<Group> {
    return toGroup(await client.getGroup(group_id, include_contacts), summary_only);
  },
  text: (g: Group) => groupText(g),
  example: {
    input: { group_id: 'g0000047-5f1e-4b0c-9a7d-000000000047', include_contacts: true },
    result: {
      Id: 'g0000047-5f1e-4b0c-9a7d-000000000047', Name: 'Partners', IsShared: true, NumberOfContacts: 1, 'odata.type': 'ShareFile.Api.Models.Group',
      url: 'https://acme.sf-api.com/sf/v3/Groups(g0000047-5f1e-4b0c-9a7d-000000000047)',
      Contacts: [{ Id: '00000002-7a1e-4c2b-8d3f-000000000002', Name: 'Marcus Chen', FirstName: 'Marcus', LastName: 'Chen', Email: 'marcus.chen@acmelegal.example', Company: 'Acme Legal', IsConfirmed: true, IsDisabled: false, LastAnyLogin: null, CreatedDate: '2024-02-01T09:00:00Z', url: 'https://acme.sf-api.com/sf/v3/Contacts(00000002-7a1e-4c2b-8d3f-000000000002)' }],
    },
  },
});
