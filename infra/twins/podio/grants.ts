import { invalid, notFound } from './http';
import { canSeeSpace } from './items';
import { ACCESS_LEVELS, byLine, podioDateTime, type AccessLevel, type PodioGrantRow, type PodioItemRow, type PodioState, type PodioUser } from './state';
import { isObject } from '../kit/request';

/**
 * Item sharing (docs/vendors/podio.md#grants): a grant gives one person view or edit access to one item. People are
 * named by user id, profile id or email (contact identifiers `{type: user|profile|mail, id}`); an
 * email of no Podio user is invited, and holds its grant under an invitee id of its own. Granting
 * again to someone who holds a grant sets the new access level (one grant per person and item).
 */

type Json = Record<string, unknown>;
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

export function grantsOn(state: PodioState, itemId: number): PodioGrantRow[] {
  return [...state.grants.rows.values()].filter((g) => g.ref.id === itemId).sort((a, b) => a.grant_id - b.grant_id);
}

export function grantOf(state: PodioState, itemId: number, userId: number): PodioGrantRow {
  const g = grantsOn(state, itemId).find((x) => x.user_id === userId);
  if (!g) throw notFound(`User ${userId} holds no grant on item ${itemId}.`);
  return g;
}

export function accessLevelOf(raw: unknown): AccessLevel {
  if (!ACCESS_LEVELS.includes(raw as AccessLevel)) throw invalid(`"access_level" is "view" or "edit", got ${JSON.stringify(raw)}.`);
  return raw as AccessLevel;
}

/** Who a contact identifier names: a user (404 when unknown) or an email (a user's, or a new invitee). */
function personOf(state: PodioState, p: unknown, i: number): { user?: PodioUser; mail?: string } {
  if (!isObject(p)) throw invalid(`"people.${i}" is {"type": "user"|"profile"|"mail", "id"}, got ${JSON.stringify(p)}.`);
  const users = [...state.users.values()];
  if (p.type === 'user' || p.type === 'profile') {
    const user = users.find((u) => (p.type === 'user' ? u.user_id : u.profile_id) === p.id);
    if (!user) throw notFound();
    return { user };
  }
  if (p.type === 'mail') {
    if (typeof p.id !== 'string' || !EMAIL.test(p.id.trim())) throw invalid(`"people.${i}.id" must be an email address, got ${JSON.stringify(p.id)}.`);
    const mail = p.id.trim().toLowerCase();
    const user = users.find((u) => u.mail.toLowerCase() === mail);
    return user ? { user } : { mail };
  }
  throw invalid(`"people.${i}.type" is user, profile or mail, got ${JSON.stringify(p.type)}.`);
}

/** POST /grant/item/{id}: every person checked before any grant is written. Answers `{invitable}`: the people outside the item's space. */
export function createGrants(state: PodioState, item: PodioItemRow, by: PodioUser, body: Json, now: number) {
  const level = accessLevelOf(body.access_level);
  if (body.action !== undefined && !['view', 'comment', 'rate'].includes(body.action as string)) throw invalid(`"action" is view, comment or rate, got ${JSON.stringify(body.action)}.`);
  if (body.message !== undefined && body.message !== null && typeof body.message !== 'string') throw invalid('"message" must be a string.');
  if (!Array.isArray(body.people) || body.people.length === 0) throw invalid('"people" is a non-empty list of {"type": "user"|"profile"|"mail", "id"}.');
  const people = body.people.map((p, i) => personOf(state, p, i));
  const spaceId = state.apps.get(item.app_id)!.space_id;
  const invitable: Json[] = [];
  for (const p of people) {
    let userId: number;
    if (p.user) userId = p.user.user_id;
    else {
      const known = [...state.grants.invitees].find(([, m]) => m === p.mail);
      userId = known ? known[0] : state.grants.nextInvitee++;
      state.grants.invitees.set(userId, p.mail!);
    }
    const existing = grantsOn(state, item.item_id).find((g) => g.user_id === userId);
    if (existing) existing.access_level = level;
    else {
      const grant_id = state.grants.nextId++;
      state.grants.rows.set(grant_id, { grant_id, ref: { type: 'item', id: item.item_id }, user_id: userId, access_level: level, message: (body.message as string | undefined) ?? null, created_by: by.user_id, created_on: podioDateTime(now) });
    }
    if (!p.user) invitable.push({ type: 'mail', mail: p.mail });
    else if (!canSeeSpace(p.user, spaceId)) invitable.push({ type: 'user', user_id: p.user.user_id, profile_id: p.user.profile_id, name: p.user.name });
  }
  return { invitable };
}

const RIGHTS: Record<AccessLevel, string[]> = { view: ['view', 'comment'], edit: ['view', 'comment', 'update', 'add_file'] };

export function grantOut(state: PodioState, g: PodioGrantRow) {
  const u = state.users.get(g.user_id);
  const mail = u?.mail ?? state.grants.invitees.get(g.user_id) ?? null;
  return {
    grant_id: g.grant_id,
    ref_type: g.ref.type,
    ref_id: g.ref.id,
    action: 'view',
    message: g.message,
    access_level: g.access_level,
    rights: RIGHTS[g.access_level],
    created_on: g.created_on,
    created_by: byLine(state.users.get(g.created_by)),
    user: u ? { user_id: u.user_id, profile_id: u.profile_id, name: u.name, type: 'user', mail } : { user_id: g.user_id, profile_id: null, name: mail, type: 'mail', mail },
  };
}

/** A grant or two on the demo items: Elena (Operations only) may view the first deal, Ben may edit the first project. */
export function seedGrants(state: PodioState, at: number): void {
  const owner = state.users.get(1001)!;
  createGrants(state, state.items.get(30061)!, owner, { access_level: 'view', people: [{ type: 'user', id: 1005 }], message: 'For the project kick-off.' }, at);
  createGrants(state, state.items.get(30221)!, owner, { access_level: 'edit', people: [{ type: 'user', id: 1002 }] }, at);
}
