import * as z from 'zod';
import { dbappTool } from '../../tool';
import { organizationText, toOrganization } from '../../apps/render';

export const getOrganization = dbappTool({
  name: 'getOrganization',
  description:
    'Get the organization the API key belongs to: id, name, slug, URL, plan, location, and active_user_id (the user the key acts as: every write is ' +
    'attributed to that user). Use it to check which organization and user a key reaches. Read-only.',
  input: z.strictObject({}),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run(_input, { client }) {
    return toOrganization(await client.getOrganization());
  },
  text: organizationText,
  example: {
    input: {},
    result: {
      org_id: 1337,
      active_user_id: 10000,
      name: 'Tape Technologies',
      slug: 'tape',
      url: 'https://tapeapp.com/tape',
      description: 'One shall dogfood all day all night',
      website: 'https://tapeapp.com',
      location: 'Munich, Germany',
      created_on: '2019-05-01 10:00',
      plan: 'premium',
      activity_count: 345,
    },
  },
});
