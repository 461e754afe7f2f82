import * as z from 'zod';
import { plural } from '../../../../shared/core/render';
import { collabTool } from '../../tool';
import { orgLine, orgsWithSpaces, type Org } from '../../apps/orgs';

interface Orgs {
  orgs: Org[];
}

export const getOrganizations = collabTool({
  name: 'getOrganizations',
  description:
    'List the organizations the key belongs to, each with the spaces (workspaces) it sees: org_id, name, role, and space_id and name of every space. ' +
    'The starting point when nothing is known yet: then getAppsBySpace for the apps of a space, getApp for an app\'s fields, getOrganizationMembers for the people. ' +
    'Not in the spec: added because every other lookup needs an org_id or space_id and none of the specified tools lists them. Read-only.',
  input: z.strictObject({}),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run(_input, ctx): Promise<Orgs> {
    return { orgs: await orgsWithSpaces(ctx) };
  },
  text: (r: Orgs) => (r.orgs.length ? [...r.orgs.map(orgLine), `${plural(r.orgs.length, 'organization')} — getAppsBySpace space_id lists a space's apps`].join('\n') : 'the key belongs to no organization'),
  example: {
    input: {},
    result: {
      orgs: [
        {
          org_id: 7001,
          name: 'Sandbox Co',
          url: 'https://podio.com/sandbox-co',
          role: 'admin',
          spaces: [
            { space_id: 7101, name: 'Sales', url: 'https://podio.com/sandbox-co/sales' },
            { space_id: 7102, name: 'Operations', url: 'https://podio.com/sandbox-co/operations' },
          ],
        },
      ],
    },
  },
});
