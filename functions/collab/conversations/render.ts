/** Conversations and their events as the tools return them (docs/spec.md#collab-conversation), and their text. */
import { listFooter, plural, shortDate } from '../../../shared/core/render';
import { person } from '../render';
import type { PodioConversation, PodioConversationEvent, PodioConversationMessage, PodioEmbed, PodioFile } from '../wire';

export interface Participant {
  user_id: number;
  profile_id?: number | null;
  name: string;
  type?: string;
}

export interface MessageFile {
  file_id: number;
  name: string;
}

export interface Message {
  message_id: number;
  text: string;
  created_on: string;
  created_by: { user_id: number | null; name: string };
  files?: MessageFile[];
  embed?: { url: string; title?: string };
}

export interface Conversation {
  conversation_id: number;
  subject: string;
  type: string;
  excerpt: string | null;
  created_by: { user_id: number | null; name: string; type: string };
  created_on: string;
  last_event_on: string | null;
  participants: Participant[];
  starred: boolean;
  unread: boolean;
  unread_count: number;
  /** What it is about, when started on an object. */
  ref?: { type: string; id: number };
  /** Single fetch only (null when Podio gives none). */
  link?: string | null;
  messages?: Message[];
}

export interface ConversationEvent {
  event_id: number;
  action: string;
  created_on: string;
  created_by: { user_id: number | null; name: string };
  created_via: { id: number; name: string; url: string | null } | null;
  data: Record<string, unknown>;
}

const toFile = (f: PodioFile): MessageFile => ({ file_id: f.file_id, name: f.name });
const toEmbed = (e: PodioEmbed) => ({ url: e.url, ...(e.title ? { title: e.title } : {}) });

function toMessage(m: PodioConversationMessage): Message {
  return {
    message_id: m.message_id,
    text: m.text,
    created_on: m.created_on,
    created_by: person(m.created_by),
    ...(m.files?.length ? { files: m.files.map(toFile) } : {}),
    ...(m.embed ? { embed: toEmbed(m.embed) } : {}),
  };
}

/** Podio's conversation → docs/spec.md#collab-conversation; `full` (single fetch) keeps profile ids, the link and the messages. */
export function toConversation(c: PodioConversation, full: boolean): Conversation {
  const by = person(c.created_by);
  return {
    conversation_id: c.conversation_id,
    subject: c.subject,
    type: c.type ?? ((c.participants?.length ?? 0) > 2 ? 'group' : 'direct'),
    excerpt: c.excerpt || null,
    created_by: { ...by, type: c.created_by?.type ?? 'user' },
    created_on: c.created_on,
    last_event_on: c.last_event_on || null,
    participants: (c.participants ?? []).map((p) => (full ? { user_id: p.user_id, profile_id: p.profile_id ?? null, name: p.name, type: p.type ?? 'user' } : { user_id: p.user_id, name: p.name })),
    starred: c.starred === true,
    unread: c.unread === true,
    unread_count: c.unread_count ?? 0,
    ...(c.ref ? { ref: { type: c.ref.type, id: c.ref.id } } : {}),
    ...(full ? { link: c.link || null } : {}),
    ...(full ? { messages: (c.messages ?? []).map(toMessage) } : {}),
  };
}

/** Podio's event → docs/spec.md#collab-conversation: `data` of a message is {message_id, text, created_on, files, embed, embed_file}. */
export function toEvent(e: PodioConversationEvent): ConversationEvent {
  const d = e.data ?? {};
  let data: Record<string, unknown> = d;
  if (e.action === 'message') {
    data = {
      message_id: d.message_id,
      text: d.text,
      created_on: d.created_on ?? e.created_on,
      files: (d.files ?? []).map(toFile),
      embed: d.embed ? toEmbed(d.embed) : null,
      embed_file: d.embed_file ? toFile(d.embed_file) : null,
    };
  } else if (Array.isArray(d.participants)) {
    data = { participants: (d.participants as { user_id: number; name: string }[]).map((p) => ({ user_id: p.user_id, name: p.name })) };
  } else if (d.user && typeof d.user === 'object') {
    const u = d.user as { user_id: number; name: string };
    data = { user: { user_id: u.user_id, name: u.name } };
  }
  return {
    event_id: e.event_id,
    action: e.action,
    created_on: e.created_on,
    created_by: person(e.created_by),
    created_via: e.created_via ? { id: e.created_via.id, name: e.created_via.name, url: e.created_via.url ?? null } : null,
    data,
  };
}

/** Text on one line: line breaks as " / ", cut at 160 characters. */
export const snippet = (s: string, max = 160): string => {
  const one = s.trim().replace(/\s*\n\s*/g, ' / ');
  return one.length > max ? `${one.slice(0, max - 3)}...` : one;
};

const names = (ps: readonly Participant[]) => ps.map((p) => `${p.name} #${p.user_id}`).join(', ');
const unreadNote = (c: Conversation) => (c.unread ? ` [${c.unread_count ? plural(c.unread_count, 'unread message') : 'unread'}]` : '');
const refNote = (c: Conversation) => (c.ref ? ` on ${c.ref.type} #${c.ref.id}` : '');

/** `#56002 direct "Northwind pricing" with Ben Okafor #1002, Ann Becker #1001 — last 2025-12-04 08:00 Ben Okafor: Great… [1 unread message]` */
export function conversationLine(c: Conversation): string {
  const last = c.messages?.at(-1);
  const lastText = last ? `last ${shortDate(last.created_on)} ${last.created_by.name}: ${snippet(last.text)}` : c.last_event_on ? `last ${shortDate(c.last_event_on)}${c.excerpt ? `: ${snippet(c.excerpt)}` : ''}` : '';
  return `${conversationHead(c)}${lastText ? ` — ${lastText}` : ''}${unreadNote(c)}`;
}

const conversationHead = (c: Conversation) => `#${c.conversation_id} ${c.type} "${c.subject}"${refNote(c)} with ${names(c.participants)}`;

/** `2025-12-04 08:00 Ben Okafor: text [files: a.pdf #60031] [link: https://…]` */
export function messageLine(m: Message): string {
  const files = m.files?.length ? ` [files: ${m.files.map((f) => `${f.name} #${f.file_id}`).join(', ')}]` : '';
  return `${shortDate(m.created_on)} ${m.created_by.name}: ${snippet(m.text, 500)}${files}${m.embed ? ` [link: ${m.embed.url}]` : ''}`;
}

/** How many of the newest messages a single conversation's text shows. */
export const TEXT_MESSAGES = 10;

/** A conversation with its newest messages, oldest of them first, and where to read more. */
export function conversationText(c: Conversation): string {
  const messages = c.messages ?? [];
  const shown = messages.slice(-TEXT_MESSAGES);
  const lines = [`${conversationHead(c)}${unreadNote(c)}`, ...shown.map((m) => `  ${messageLine(m)}`)];
  if (messages.length > shown.length) lines.push(`  (${plural(messages.length - shown.length, 'older message')} — getConversationEvents with offset pages through them)`);
  if (c.link) lines.push(c.link);
  return lines.join('\n');
}

/** `#57003 2025-12-01 11:00 Ann Becker: message "text"` or `… added Ben Okafor #1002` / `… left`; `via <client>`. */
export function eventLine(e: ConversationEvent): string {
  const head = `#${e.event_id} ${shortDate(e.created_on)} ${e.created_by.name}`;
  const via = e.created_via ? ` (via ${e.created_via.name})` : '';
  if (e.action === 'message') {
    const files = Array.isArray(e.data.files) && e.data.files.length ? ` [files: ${(e.data.files as MessageFile[]).map((f) => `${f.name} #${f.file_id}`).join(', ')}]` : '';
    const embed = e.data.embed && typeof e.data.embed === 'object' ? ` [link: ${(e.data.embed as { url: string }).url}]` : '';
    return `${head}: ${snippet(String(e.data.text ?? ''), 500)}${files}${embed}${via}`;
  }
  if (Array.isArray(e.data.participants)) return `${head} added ${names(e.data.participants as Participant[])}${via}`;
  if (e.action === 'participant_leave') return `${head} left${via}`;
  return `${head} ${e.action}${via}`;
}

/** A page of conversations: a heading, one line each, and the footer (next offset when the page is full). */
export function conversationListText(list: readonly Conversation[], page: { limit?: number; offset?: number }, heading: string, empty: string): string {
  const full = page.limit !== undefined && list.length >= page.limit;
  const offset = page.offset ?? 0;
  return [
    ...(list.length ? [heading] : []),
    ...list.map(conversationLine),
    listFooter({ shown: list.length, noun: 'conversation', next: full ? { param: 'offset', value: offset + list.length } : undefined, empty: offset ? `${empty} past offset ${offset}` : empty }),
  ].join('\n');
}
