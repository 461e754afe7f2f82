import * as z from 'zod';
import { numericId } from '../../../../shared/core/ids';
import { invalidParameter } from '../../../../shared/core/errors';
import { EMAIL_PATTERN } from '../../../../shared/fields/values';
import { collabTool } from '../../tool';
import { itemIdInput } from '../../params';
import { notFoundHint } from '../../sharing/errors';
import { accessLevelInput } from '../../sharing/inputs';
import type { PodioAccessLevel, PodioGrant, PodioGrantPerson } from '../../wire';

interface Shared {
  item_id: number;
  access_level: PodioAccessLevel;
  /** How many people the call named. */
  shared_with: number;
  /** The people outside the item's workspace, invited to it: users ({user_id, profile_id, name}) and emails of people not on Podio ({mail}). */
  invitable: Record<string, unknown>[];
}

const ids = (what: string) => z.array(numericId()).max(50).optional().describe(what);

export const shareItem = collabTool({
  name: 'shareItem',
  description:
    'Share one item with people outside (or inside) its workspace, with view or edit access: by user_ids, profile_ids (the two differ — getOrganizationMembers lists both) ' +
    'or emails (someone not on Podio gets an invitation). A person who already holds a grant on the item is refused with the hint to use updateShare; nothing is shared then. ' +
    'Returns {item_id, access_level, shared_with, invitable}: invitable are the people outside the workspace who were invited. getItemShares lists the grants.',
  input: z.strictObject({
    item_id: itemIdInput,
    access_level: accessLevelInput,
    user_ids: ids('Podio user ids to share with.'),
    profile_ids: ids('Profile (contact) ids to share with.'),
    emails: z.array(z.string()).max(50).optional().describe('Email addresses to share with; someone not on Podio is invited.'),
    message: z.string().max(2000).optional().describe('A note sent with the invitation.'),
  }),
  annotations: { readOnly: false, destructive: false, idempotent: false },
  async run(input, { client }): Promise<Shared> {
    const userIds = [...new Set(input.user_ids ?? [])];
    const profileIds = [...new Set(input.profile_ids ?? [])];
    const emails = [...new Set((input.emails ?? []).map((e) => e.trim().toLowerCase()))];
    if (userIds.length + profileIds.length + emails.length === 0) {
      throw invalidParameter('user_ids', 'at least one person in user_ids, profile_ids or emails', 'Name someone to share the item with: user_ids, profile_ids or emails.');
    }
    (input.emails ?? []).forEach((e, i) => {
      if (!EMAIL_PATTERN.test(e.trim())) throw invalidParameter(`emails.${i}`, 'an email address, e.g. "ada@example.com"', `${JSON.stringify(e)} is not an email address.`);
    });

    // One grant per person: someone who holds one is changed with updateShare, never shared with twice.
    const grants = await client.listGrants('item', input.item_id);
    const holding = (path: string, g: PodioGrant | undefined) => {
      if (!g) return;
      throw invalidParameter(
        path,
        'people who hold no grant on this item yet',
        `${g.user.name ?? g.user.mail ?? `User ${g.user.user_id}`} (user ${g.user.user_id}) already holds ${g.access_level} access to item ${input.item_id}; to change it use updateShare ` +
          `{"item_id": ${input.item_id}, "user_id": ${g.user.user_id}, "access_level": "${input.access_level}"}. Nothing was shared.`,
      );
    };
    userIds.forEach((id) => holding(`user_ids.${(input.user_ids ?? []).indexOf(id)}`, grants.find((g) => g.user.user_id === id)));
    profileIds.forEach((id) => holding(`profile_ids.${(input.profile_ids ?? []).indexOf(id)}`, grants.find((g) => g.user.profile_id === id)));
    emails.forEach((mail) => holding(`emails.${(input.emails ?? []).findIndex((e) => e.trim().toLowerCase() === mail)}`, grants.find((g) => g.user.mail?.toLowerCase() === mail)));

    const people: PodioGrantPerson[] = [
      ...userIds.map((id) => ({ type: 'user' as const, id })),
      ...profileIds.map((id) => ({ type: 'profile' as const, id })),
      ...emails.map((id) => ({ type: 'mail' as const, id })),
    ];
    // The item was found a moment ago (its grants were read): a 404 now is about a person.
    const res = await notFoundHint(
      client.createGrant('item', input.item_id, { people, access_level: input.access_level, ...(input.message ? { message: input.message } : {}) }),
      'One of user_ids / profile_ids names nobody: user ids and profile ids differ — getOrganizationMembers lists both. Nothing was shared.',
    );
    return { item_id: input.item_id, access_level: input.access_level, shared_with: people.length, invitable: (res.invitable ?? []) as Record<string, unknown>[] };
  },
  text: (r: Shared) => {
    const invited = r.invitable.map((p) => (typeof p.mail === 'string' ? p.mail : `${String(p.name ?? '')} (user ${String(p.user_id)})`));
    return [
      `shared item #${r.item_id} with ${r.shared_with === 1 ? '1 person' : `${r.shared_with} people`} (${r.access_level} access) — getItemShares lists every grant`,
      invited.length ? `invited (outside the workspace): ${invited.join('; ')}` : '',
    ].filter(Boolean).join('\n');
  },
  example: {
    input: { item_id: 30061, access_level: 'edit', user_ids: [1002], emails: ['guest@example.com'], message: 'Have a look' },
    result: { item_id: 30061, access_level: 'edit', shared_with: 2, invitable: [{ type: 'mail', mail: 'guest@example.com' }] },
  },
});
