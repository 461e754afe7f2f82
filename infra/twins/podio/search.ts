import { invalid } from './http';
import { placeOf } from './files';
import { canSeeTask } from './tasks';
import { byLine, type PodioState, type PodioUser } from './state';
import { itemLink, titleOf } from './values';

/**
 * Podio's search (docs/vendors/podio.md#search): fuzzy over what the user sees — items (title, text values, tags),
 * files (name), tasks (text, description), conversations (subject, messages), profiles (name,
 * mail), apps (name). A query word matches a word of the object that
 * starts with it, or one edit away from it (words of 4+ letters): "invoce" finds "Invoice". Every
 * word of the query must match; results by rank (exact > prefix > typo), newest first on a tie.
 */

export const SEARCH_REF_TYPES = ['item', 'task', 'file', 'conversation', 'profile', 'app', 'status'] as const;

export interface SearchScope {
  org_id?: number;
  space_id?: number;
  app_id?: number;
}

export interface SearchBody {
  query?: unknown;
  ref_type?: unknown;
  search_fields?: unknown;
}

interface Candidate {
  type: string;
  id: number;
  title: string;
  /** Text searched besides the title (unless search_fields is title only). */
  text: string;
  created_on: string;
  created_by: number;
  link: string;
  app_id: number | null;
  space_id: number | null;
}

const words = (s: string) => s.toLowerCase().normalize('NFKD').replace(/\p{M}/gu, '').split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/** One edit (insert, delete, substitute) at most between a and b. */
function oneEdit(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return a.slice(i + 1) === b.slice(i + 1) || a.slice(i) === b.slice(i + 1) || a.slice(i + 1) === b.slice(i);
}

/** 3 exact, 2 prefix, 1 typo, 0 no match. */
function wordScore(q: string, tokens: string[]): number {
  let best = 0;
  for (const t of tokens) {
    if (t === q) return 3;
    if (t.startsWith(q)) best = Math.max(best, 2);
    else if (q.length >= 4 && (oneEdit(q, t) || oneEdit(q, t.slice(0, q.length)))) best = Math.max(best, 1);
  }
  return best;
}

function candidates(state: PodioState, user: PodioUser, scope: SearchScope): Candidate[] {
  const out: Candidate[] = [];
  const inScope = (spaceId: number | null, appId: number | null) =>
    spaceId !== null && user.spaces.includes(spaceId) && (scope.space_id === undefined || scope.space_id === spaceId) && (scope.app_id === undefined || scope.app_id === appId);
  for (const item of state.items.values()) {
    const app = state.apps.get(item.app_id)!;
    if (!inScope(app.space_id, app.app_id)) continue;
    const texts = [...item.values.values()].flat().map((v) => (typeof v.value === 'string' ? v.value : '')).filter(Boolean);
    out.push({ type: 'item', id: item.item_id, title: titleOf(state, item), text: [...texts, ...item.tags].join(' '), created_on: item.created_on, created_by: item.created_by, link: itemLink(state, item), app_id: app.app_id, space_id: app.space_id });
  }
  for (const f of state.files.values()) {
    const place = placeOf(state, f.context, (id) => titleOf(state, state.items.get(id)!));
    if (!inScope(place.space_id, place.app_id)) continue;
    out.push({ type: 'file', id: f.file_id, title: f.name, text: f.description ?? '', created_on: f.created_on, created_by: f.created_by, link: `https://podio.com/files/${f.file_id}`, app_id: place.app_id, space_id: place.space_id });
  }
  // Tasks (not private ones of others) and conversations the user takes part in; on an item they lie in its space.
  const refPlace = (ref: { type: string; id: number } | null) => {
    const item = ref?.type === 'item' ? state.items.get(ref.id) : undefined;
    const app = item ? state.apps.get(item.app_id) : undefined;
    return { app_id: app?.app_id ?? null, space_id: app?.space_id ?? null };
  };
  const loose = (p: { app_id: number | null; space_id: number | null }) => (p.space_id === null ? scope.space_id === undefined && scope.app_id === undefined : inScope(p.space_id, p.app_id));
  for (const t of state.tasks.rows.values()) {
    if (!canSeeTask(state, user, t)) continue;
    const p = refPlace(t.ref);
    if (!loose(p)) continue;
    out.push({ type: 'task', id: t.task_id, title: t.text, text: t.description ?? '', created_on: t.created_on, created_by: t.created_by, link: `https://podio.com/tasks/${t.task_id}`, ...p });
  }
  for (const conv of state.conversations.rows.values()) {
    if (!conv.participants.includes(user.user_id)) continue;
    const p = refPlace(conv.ref?.type === 'item' ? conv.ref : null);
    if (!loose(p)) continue;
    const text = conv.events.map((e) => e.message?.text ?? '').join(' ');
    out.push({ type: 'conversation', id: conv.conversation_id, title: conv.subject, text, created_on: conv.created_on, created_by: conv.created_by, link: `https://podio.com/conversations/${conv.conversation_id}`, ...p });
  }
  if (scope.app_id === undefined) {
    for (const app of state.apps.values()) {
      if (!inScope(app.space_id, null)) continue;
      const space = state.spaces.get(app.space_id)!;
      out.push({ type: 'app', id: app.app_id, title: app.name, text: `${app.item_name} ${app.description}`, created_on: space.created_on, created_by: [...state.users.keys()][0] ?? 0, link: `https://podio.com/${state.org.url_label}/${space.url_label}/apps/${app.url_label}`, app_id: app.app_id, space_id: app.space_id });
    }
    for (const u of state.users.values()) {
      // Profiles of the org; narrowed to a space: its members.
      if (scope.space_id !== undefined && !u.spaces.includes(scope.space_id)) continue;
      out.push({ type: 'profile', id: u.profile_id, title: u.name, text: `${u.mail} ${u.title}`, created_on: state.org.created_on, created_by: u.user_id, link: `https://podio.com/users/${u.user_id}`, app_id: null, space_id: null });
    }
  }
  return out;
}

export interface SearchHit {
  type: string;
  id: number;
  rank: number;
  title: string;
  link: string;
  created_on: string;
  created_by: ReturnType<typeof byLine>;
  app: { app_id: number; name: string } | null;
  space: { space_id: number; name: string } | null;
  org: { org_id: number; name: string };
  search_id: string;
}

/** Every hit of a search in its scope, ranked. Throws 400 on a bad body. */
export function search(state: PodioState, user: PodioUser, scope: SearchScope, body: SearchBody): SearchHit[] {
  if (typeof body.query !== 'string' || words(body.query).length === 0) throw invalid('"query" (the words to search for) is required.');
  if (body.ref_type !== undefined && body.ref_type !== null && !SEARCH_REF_TYPES.includes(body.ref_type as never)) throw invalid(`"ref_type" is one of ${SEARCH_REF_TYPES.join(', ')}; got ${JSON.stringify(body.ref_type)}.`);
  let fields: string[] | null = null;
  if (body.search_fields !== undefined && body.search_fields !== null) {
    const raw = typeof body.search_fields === 'string' ? body.search_fields.split(',') : body.search_fields;
    if (!Array.isArray(raw) || raw.some((x) => typeof x !== 'string')) throw invalid('"search_fields" is a list of field names (e.g. title).');
    fields = (raw as string[]).map((x) => x.trim()).filter(Boolean);
  }
  const q = words(body.query);
  const hits: SearchHit[] = [];
  for (const c of candidates(state, user, scope)) {
    if (body.ref_type && c.type !== body.ref_type) continue;
    const titleOnly = fields !== null && fields.length > 0 && fields.every((f) => f === 'title');
    const tokens = words(titleOnly ? c.title : `${c.title} ${c.text}`);
    let rank = 0;
    for (const w of q) {
      const s = wordScore(w, tokens);
      if (s === 0) {
        rank = 0;
        break;
      }
      rank += s;
    }
    if (rank === 0) continue;
    const app = c.app_id !== null ? state.apps.get(c.app_id) : undefined;
    const space = c.space_id !== null ? state.spaces.get(c.space_id) : undefined;
    hits.push({
      type: c.type, id: c.id, rank, title: c.title, link: c.link, created_on: c.created_on, created_by: byLine(state.users.get(c.created_by)),
      app: app ? { app_id: app.app_id, name: app.name } : null,
      space: space ? { space_id: space.space_id, name: space.name } : null,
      org: { org_id: state.org.org_id, name: state.org.name },
      search_id: `${c.type}:${c.id}`,
    });
  }
  return hits.sort((a, b) => b.rank - a.rank || (a.created_on < b.created_on ? 1 : a.created_on > b.created_on ? -1 : b.id - a.id));
}
