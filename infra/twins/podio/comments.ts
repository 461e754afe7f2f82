import { byLine, CREATED_VIA, type PodioCommentRow, type PodioState } from './state';
import { embedOut, fileOut } from './values';

/**
 * Comments as Podio shows them (docs/vendors/podio.md#comments). Mentions are written `@[Full Name](user:<user_id>)`
 * in `value`; `rich_value` renders those of known users as links with the user's real name. A
 * mention of an id that is no user is dropped silently as Podio does: only its name stays, as
 * plain text, and nobody is notified.
 */

const MENTION = /@\[([^\]]*)\]\(user:([^)]*)\)/g;

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** `value` → `rich_value` (HTML), mentions of known users as links. */
export function richValue(state: PodioState, value: string): string {
  let out = '';
  let at = 0;
  for (const m of value.matchAll(MENTION)) {
    out += escapeHtml(value.slice(at, m.index));
    const user = /^\d+$/.test(m[2]!) ? state.users.get(Number(m[2])) : undefined;
    out += user ? `<a href="https://podio.com/users/${user.user_id}" data-id="${user.user_id}" data-type="user">@${escapeHtml(user.name)}</a>` : escapeHtml(m[1]!);
    at = m.index! + m[0].length;
  }
  return `<p>${(out + escapeHtml(value.slice(at))).replace(/\n/g, '<br />')}</p>`;
}

/** The comments on an object, oldest first. */
export function commentsOn(state: PodioState, type: string, id: number): PodioCommentRow[] {
  return [...state.comments.values()].filter((c) => c.ref.type === type && c.ref.id === id).sort((a, b) => a.comment_id - b.comment_id);
}

/** The space an object lies in (items: their app's). */
export function spaceOfRef(state: PodioState, ref: { type: string; id: number }): number | null {
  if (ref.type !== 'item') return null;
  const item = state.items.get(ref.id);
  return item ? state.apps.get(item.app_id)!.space_id : null;
}

export function commentOut(state: PodioState, c: PodioCommentRow, base: string) {
  const last = c.versions[c.versions.length - 1]!;
  return {
    comment_id: c.comment_id,
    value: c.value,
    rich_value: richValue(state, c.value),
    external_id: c.external_id,
    space_id: spaceOfRef(state, c.ref),
    created_on: c.created_on,
    last_edit_on: c.versions.length > 1 ? last.created_on : null,
    created_by: byLine(state.users.get(c.created_by)),
    created_via: CREATED_VIA,
    ref: { type: c.ref.type, id: c.ref.id },
    files: c.file_ids.map((id) => fileOut(state, id, base)).filter((f) => f !== null),
    embed: c.embed_id ? embedOut(state, c.embed_id) : null,
    embed_file: null,
    is_liked: false,
    like_count: 0,
    rights: ['view', 'update', 'delete'],
  };
}
