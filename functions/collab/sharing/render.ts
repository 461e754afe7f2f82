import { person, type Person } from '../render';
import type { PodioAccessLevel, PodioGrant } from '../wire';

/** Share grants as the spec shapes them (docs/spec.md#collab-grant) and their text. */

export interface Share {
  grant_id: number;
  access_level: PodioAccessLevel;
  created_on: string | null;
  rights: string[];
  /** Who holds the grant; an invited email that is no Podio user yet has type "mail" and no profile_id. */
  user: { user_id: number; profile_id: number | null; name: string; type: string };
  created_by?: Person;
}

export function toShare(g: PodioGrant): Share {
  const u = g.user;
  return {
    grant_id: g.grant_id,
    access_level: g.access_level,
    created_on: g.created_on || null,
    rights: g.rights ?? [],
    user: { user_id: u.user_id, profile_id: u.profile_id ?? null, name: u.name ?? u.mail ?? `user ${u.user_id}`, type: u.type ?? 'user' },
    ...(g.created_by ? { created_by: person(g.created_by) } : {}),
  };
}

/** `Elena Rossi (user 1005) · view · rights view, comment · since 2025-06-24`. */
export function shareLine(s: Share): string {
  const who = s.user.type === 'mail' ? `${s.user.name} (invited, user ${s.user.user_id})` : `${s.user.name} (user ${s.user.user_id})`;
  return [who, s.access_level, s.rights.length ? `rights ${s.rights.join(', ')}` : '', s.created_on ? `since ${s.created_on.slice(0, 10)}` : ''].filter(Boolean).join(' · ');
}
