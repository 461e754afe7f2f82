import * as z from 'zod';
import { collabTool } from '../../tool';
import { orgLine, orgsWithSpaces, type Org } from '../../apps/orgs';

interface UserStatus {
  user_id: number;
  profile_id: number;
  name: string;
  email: string | null;
  timezone: string | null;
  orgs: Org[];
}

export const getUserStatus = collabTool({
  name: 'getUserStatus',
  description:
    "Who the key is: its own user_id (for mentions, tasks, conversations) and profile_id (for contact fields), name, email and timezone " +
    '(task due times are read in it), with the organizations and spaces it sees. Use it to act "as me" or to start from nothing. Read-only.',
  input: z.strictObject({}),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run(_input, ctx): Promise<UserStatus> {
    const [status, orgs] = await Promise.all([ctx.client.userStatus(), orgsWithSpaces(ctx)]);
    return {
      user_id: status.user.user_id,
      profile_id: status.profile.profile_id,
      name: status.profile.name,
      email: status.user.mail ?? status.profile.mail?.[0] ?? null,
      timezone: status.user.timezone ?? null,
      orgs,
    };
  },
  text: (u: UserStatus) =>
    [`user #${u.user_id} profile #${u.profile_id} ${u.name}${u.email ? ` <${u.email}>` : ''}${u.timezone ? `, timezone ${u.timezone}` : ''}`, ...u.orgs.map(orgLine)].join('\n'),
  example: {
    input: {},
    result: {
      user_id: 1001,
      profile_id: 5101,
      name: 'Ann Becker',
      email: 'ann.becker@sandbox-co.test',
      timezone: 'Europe/Berlin',
      orgs: [{ org_id: 7001, name: 'Sandbox Co', role: 'admin', spaces: [{ space_id: 7101, name: 'Sales' }, { space_id: 7102, name: 'Operations' }] }],
    },
  },
});
