/**
 * People as the lookup tools return them. Podio gives every person two ids: the account's user_id
 * (task responsible, conversation participants, mentions in comments) and the contact's profile_id
 * (contact fields of items). Both are always shown, side by side, so neither is taken for the other.
 */
import type { PodioOrgMember, PodioProfile } from '../wire';

/** An org member: the account and its contact, and the member's role in the org. */
export interface Member {
  user_id: number;
  profile_id: number;
  name: string;
  email: string | null;
  /** `admin` or `regular` (docs/vendors/podio.md#apps-spaces-orgs-and-contacts), when Podio says. */
  role?: string;
}

/** Podio's member entry → a Member (the shape lookups' orgMembers caches too). */
export function toMember(m: PodioOrgMember): Member {
  return { user_id: m.user.user_id, profile_id: m.profile.profile_id, name: m.profile.name, email: m.user.mail ?? m.profile.mail?.[0] ?? null, ...(m.role ? { role: m.role } : {}) };
}

/** `user #1002 profile #5102 Ben Okafor <ben.okafor@…> regular` */
export const memberLine = (m: Member): string => `user #${m.user_id} profile #${m.profile_id} ${m.name}${m.email ? ` <${m.email}>` : ''}${m.role ? ` ${m.role}` : ''}`;

/** A contact (profile); `user_id` is null for contacts that are no Podio user (space contacts). */
export interface Contact {
  profile_id: number;
  user_id: number | null;
  name: string;
  email: string | null;
  /** `user` (a Podio user's profile) or `space` (a contact kept in a space). */
  type?: string;
}

export function toContact(p: PodioProfile): Contact {
  return {
    profile_id: p.profile_id,
    user_id: typeof p.user_id === 'number' ? p.user_id : null,
    name: p.name,
    email: p.mail?.[0] ?? null,
    ...(typeof p.type === 'string' ? { type: p.type } : {}),
  };
}

/** `profile #5102 Ben Okafor <ben.okafor@…> user #1002` (or `, no user account`). */
export const contactLine = (c: Contact): string =>
  `profile #${c.profile_id} ${c.name}${c.email ? ` <${c.email}>` : ''}${c.user_id !== null ? ` user #${c.user_id}` : ', no user account'}`;
