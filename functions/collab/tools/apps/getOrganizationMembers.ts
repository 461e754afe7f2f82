import * as z from 'zod';
import { id, offset, page } from '../../../../shared/core/params';
import { listFooter } from '../../../../shared/core/render';
import { collabTool } from '../../tool';
import { defaultOrgId } from '../../apps/orgs';
import { memberLine, toMember, type Member } from '../../apps/people';

interface MemberPage {
  org_id: number;
  members: Member[];
  /** The offset of the next page; null on the last one. */
  next_offset: number | null;
}

export const getOrganizationMembers = collabTool({
  name: 'getOrganizationMembers',
  description:
    'List the members of an organization with BOTH their ids: user_id (for comment mentions @[Name](user:<user_id>), task responsibles, conversation ' +
    'participants) and profile_id (for contact fields of items — a user_id there fails), plus name, email and role (admin or regular). ' +
    'org_id may be left out when the key belongs to one organization. Paged by offset (limit default 100, max 500). getContacts searches by name or email. Read-only.',
  input: z.strictObject({
    org_id: id('Numeric id of the organization (getOrganizations); default: the key\'s only organization.').optional(),
    limit: page({ default: 100, max: 500, what: 'Members per page' }),
    offset: offset(),
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run({ org_id, limit, offset }, ctx): Promise<MemberPage> {
    const orgId = org_id ?? (await defaultOrgId(ctx));
    const page = await ctx.client.listOrgMembers(orgId, { limit, offset });
    // Podio gives no total: a full page may have a next one.
    return { org_id: orgId, members: page.map(toMember), next_offset: page.length >= limit ? offset + page.length : null };
  },
  text: (r: MemberPage) =>
    [
      ...r.members.map(memberLine),
      listFooter({
        shown: r.members.length,
        noun: 'member',
        next: r.next_offset !== null ? { param: 'offset', value: r.next_offset, also: `with org_id ${r.org_id}` } : undefined,
        empty: `no members in org #${r.org_id} on this page`,
      }),
    ].join('\n'),
  example: {
    input: { org_id: 7001, limit: 2 },
    result: {
      org_id: 7001,
      members: [
        { user_id: 1001, profile_id: 5101, name: 'Ann Becker', email: 'ann.becker@sandbox-co.test', role: 'admin' },
        { user_id: 1002, profile_id: 5102, name: 'Ben Okafor', email: 'ben.okafor@sandbox-co.test', role: 'regular' },
      ],
      next_offset: 2,
    },
  },
});
