import { attachFile, checkedFileIds, createEmbed } from './files';
import { forbidden, invalid, notFound } from './http';
import { itemFor } from './items';
import { byLine, CREATED_VIA, podioDateTime, type ConversationEventRow, type PodioConversationRow, type PodioState, type PodioUser } from './state';
import { taskFor } from './tasks';
import { embedOut, fileOut } from './values';

/**
 * Conversations (docs/vendors/podio.md#conversations): private threads between users. Only participants see or write in
 * one (403 for anyone else, as Podio answers). A conversation of two people is `direct`: Podio keeps
 * one such thread per pair, so a new conversation with a single participant continues the existing
 * direct thread. Each participant has an unread state: the messages of others after the last one
 * they read (writing in it reads it; POST /conversation/{id}/read marks it read).
 */

type Json = Record<string, unknown>;

export function conversationFor(state: PodioState, user: PodioUser, id: number): PodioConversationRow {
  const c = state.conversations.rows.get(id);
  if (!c) throw notFound();
  if (!c.participants.includes(user.user_id)) throw forbidden(`The user ${user.user_id} is not a participant of conversation ${id} and has no right to "view" it`);
  return c;
}

const messagesOf = (c: PodioConversationRow) => c.events.filter((e) => e.action === 'message');
const lastEvent = (c: PodioConversationRow) => c.events[c.events.length - 1]!;

function unreadCount(c: PodioConversationRow, user: PodioUser): number {
  const read = c.readUpTo.get(user.user_id) ?? 0;
  return messagesOf(c).filter((e) => e.event_id > read && e.created_by !== user.user_id).length;
}

function participantOut(state: PodioState, id: number) {
  const u = state.users.get(id);
  return u ? { user_id: u.user_id, profile_id: u.profile_id, name: u.name, type: 'user', avatar: null, url: `https://podio.com/users/${u.user_id}` } : { user_id: id, name: 'Unknown', type: 'user' };
}

function messageOut(state: PodioState, e: ConversationEventRow, base: string) {
  const m = e.message!;
  return {
    message_id: m.message_id,
    text: m.text,
    created_on: e.created_on,
    created_by: byLine(state.users.get(e.created_by)),
    files: m.file_ids.map((id) => fileOut(state, id, base)).filter((f) => f !== null),
    embed: m.embed_id ? embedOut(state, m.embed_id) : null,
    embed_file: null,
  };
}

/** A conversation as Podio lists it (NET Conversation.cs); `full` adds the link and the messages (GET /conversation/{id}). */
export function conversationOut(state: PodioState, c: PodioConversationRow, user: PodioUser, base: string, full: boolean): Json {
  const last = messagesOf(c).at(-1)?.message;
  const unread = unreadCount(c, user);
  return {
    conversation_id: c.conversation_id,
    type: c.type,
    subject: c.subject,
    excerpt: last ? last.text.slice(0, 200) : '',
    starred: c.starred.has(user.user_id),
    unread: unread > 0,
    unread_count: unread,
    created_on: c.created_on,
    last_event_on: lastEvent(c).created_on,
    created_by: byLine(state.users.get(c.created_by)),
    participants: c.participants.map((id) => participantOut(state, id)),
    ref: c.ref ? { ...c.ref } : null,
    ...(full ? { link: `https://podio.com/conversations/${c.conversation_id}`, messages: messagesOf(c).map((e) => messageOut(state, e, base)) } : {}),
  };
}

/** `GET /conversation/{id}/event/` entries and the answer of reply/v2. */
export function eventOut(state: PodioState, c: PodioConversationRow, e: ConversationEventRow, base: string): Json {
  let data: Json;
  if (e.action === 'message') data = messageOut(state, e, base);
  else if (e.action === 'participant_add') data = { participants: e.user_ids!.map((id) => participantOut(state, id)) };
  else data = { user: participantOut(state, e.created_by) };
  return { event_id: e.event_id, conversation_id: c.conversation_id, action: e.action, created_on: e.created_on, created_by: byLine(state.users.get(e.created_by)), created_via: CREATED_VIA, data };
}

// --- writes ---

/** `participants`: user ids of the org (a profile id or an unknown id is 400), the sender left out. */
export function participantIds(state: PodioState, user: PodioUser, raw: unknown): number[] {
  if (!Array.isArray(raw) || !raw.length) throw invalid('"participants" must be a non-empty list of user ids.');
  const ids: number[] = [];
  for (const v of raw) {
    const id = typeof v === 'object' && v !== null && (v as Json).type === 'user' ? (v as Json).id : v;
    if (!(Number.isInteger(id) && state.users.has(id as number))) throw invalid(`"participants": ${JSON.stringify(v)} is not the user id of a user.`);
    if (id !== user.user_id && !ids.includes(id as number)) ids.push(id as number);
  }
  if (!ids.length) throw invalid('"participants" must name someone besides the sender.');
  return ids;
}

export interface MessageInput {
  text: string;
  file_ids: number[];
  embed_id: number | null;
  embed_url: string | null;
}

/** `{text, file_ids, embed_id, embed_url}` of a create or reply, checked before anything changes. */
export function messageInput(state: PodioState, body: Json): MessageInput {
  if (typeof body.text !== 'string' || body.text.trim() === '') throw invalid('"text" (the message) is required.');
  const file_ids = checkedFileIds(state, body.file_ids, { type: 'conversation', id: null }) ?? [];
  let embed_id: number | null = null;
  if (body.embed_id !== undefined && body.embed_id !== null) {
    if (!(Number.isInteger(body.embed_id) && state.embeds.has(body.embed_id as number))) throw notFound();
    embed_id = body.embed_id as number;
  }
  const embed_url = typeof body.embed_url === 'string' ? body.embed_url : null;
  return { text: body.text, file_ids, embed_id, embed_url };
}

function addEvent(state: PodioState, c: PodioConversationRow, e: Omit<ConversationEventRow, 'event_id'>): ConversationEventRow {
  const event = { event_id: state.conversations.next.event++, ...e };
  c.events.push(event);
  return event;
}

/** A message from `user`: files attached to the conversation, an embed made from embed_url; the sender has read it. */
export function postMessage(state: PodioState, c: PodioConversationRow, user: PodioUser, m: MessageInput, now: number): ConversationEventRow {
  const embed_id = m.embed_url !== null ? createEmbed(state, m.embed_url, now).embed_id : m.embed_id;
  for (const id of m.file_ids) attachFile(state, id, { type: 'conversation', id: c.conversation_id });
  const message = { message_id: state.conversations.next.message++, text: m.text, file_ids: m.file_ids, embed_id };
  const event = addEvent(state, c, { action: 'message', created_on: podioDateTime(now), created_by: user.user_id, message });
  c.readUpTo.set(user.user_id, event.event_id);
  return event;
}

/** The direct conversation of two users, if any (without a ref: one on an object is its own thread). */
export function directBetween(state: PodioState, a: number, b: number): PodioConversationRow | undefined {
  return [...state.conversations.rows.values()].find((c) => c.type === 'direct' && c.ref === null && c.participants.includes(a) && c.participants.includes(b));
}

/** The object a conversation is started on: an item or a task the user sees. */
export function conversationRef(state: PodioState, user: PodioUser, type: string, id: number): PodioConversationRow['ref'] {
  if (type === 'item') itemFor(state, user, id);
  else if (type === 'task') taskFor(state, user, id);
  else throw invalid(`A conversation can be started on an "item" or a "task", not on "${type}".`);
  return { type, id };
}

/** A new conversation with its first message; one participant besides the sender continues their direct thread. */
export function startConversation(state: PodioState, user: PodioUser, subject: string, participants: number[], m: MessageInput, ref: PodioConversationRow['ref'], now: number) {
  const existing = !ref && participants.length === 1 ? directBetween(state, user.user_id, participants[0]!) : undefined;
  const c: PodioConversationRow = existing ?? {
    conversation_id: state.conversations.next.conversation++,
    type: participants.length === 1 ? 'direct' : 'group',
    subject,
    created_on: podioDateTime(now),
    created_by: user.user_id,
    ref,
    participants: [user.user_id, ...participants],
    events: [],
    readUpTo: new Map(),
    starred: new Set(),
  };
  if (!existing) state.conversations.rows.set(c.conversation_id, c);
  const event = postMessage(state, c, user, m, now);
  return { conversation: c, event };
}

export function addParticipants(state: PodioState, c: PodioConversationRow, user: PodioUser, ids: number[], now: number): ConversationEventRow | null {
  if (c.type === 'direct') throw invalid('Participants cannot be added to a direct conversation: start a group conversation with everyone instead.');
  const fresh = ids.filter((id) => !c.participants.includes(id));
  if (!fresh.length) return null;
  c.participants.push(...fresh);
  return addEvent(state, c, { action: 'participant_add', created_on: podioDateTime(now), created_by: user.user_id, user_ids: fresh });
}

export function leave(state: PodioState, c: PodioConversationRow, user: PodioUser, now: number): void {
  c.participants = c.participants.filter((id) => id !== user.user_id);
  addEvent(state, c, { action: 'participant_leave', created_on: podioDateTime(now), created_by: user.user_id });
}

/** Most recent activity first (ties: the newer conversation first). */
export const byActivity = (a: PodioConversationRow, b: PodioConversationRow) => lastEvent(b).event_id - lastEvent(a).event_id;

/** `GET /conversation/search/`: subjects and message texts, or with `participants` the names and emails of participants (case-insensitive). */
export function searchConversations(state: PodioState, user: PodioUser, text: string, participants: boolean): PodioConversationRow[] {
  const needle = text.toLowerCase();
  const hit = (s: string) => s.toLowerCase().includes(needle);
  return [...state.conversations.rows.values()]
    .filter((c) => c.participants.includes(user.user_id))
    .filter((c) =>
      participants
        ? c.participants.some((id) => id !== user.user_id && [state.users.get(id)?.name ?? '', state.users.get(id)?.mail ?? ''].some(hit))
        : hit(c.subject) || messagesOf(c).some((e) => hit(e.message!.text)),
    )
    .sort(byActivity);
}

// --- seed ---

/** A few conversations of the demo users (ids from 56001): direct and group, one on a deal, one unread for the owner; dates moved by `shift` ms. */
export function seedConversations(state: PodioState, shift = 0): void {
  state.conversations = { rows: new Map(), next: { conversation: 56001, event: 57001, message: 58001 } };
  const u = (id: number) => state.users.get(id)!;
  const msg = (text: string): MessageInput => ({ text, file_ids: [], embed_id: null, embed_url: null });
  const at = (iso: string) => Date.parse(iso) + shift;
  const [ann, ben, chloe, david, , felix] = [1001, 1002, 1003, 1004, 1005, 1006].map(u);

  const kickoff = startConversation(state, ann!, 'Q1 kickoff agenda', [ben!.user_id, chloe!.user_id, david!.user_id], msg('Draft agenda attached next week — add your topics here.'), null, at('2025-12-01T09:00:00Z')).conversation;
  postMessage(state, kickoff, ben!, msg('Pipeline review should come first.'), at('2025-12-01T10:30:00Z'));
  postMessage(state, kickoff, ann!, msg('Agreed, I moved it up.'), at('2025-12-01T11:00:00Z'));

  const direct = startConversation(state, ben!, 'Northwind pricing', [ann!.user_id], msg('Can we offer 10% on the support package?'), null, at('2025-12-03T14:00:00Z')).conversation;
  postMessage(state, direct, ann!, msg('Yes, up to 10% is fine.'), at('2025-12-03T15:00:00Z'));
  // Unread for Ann: Ben wrote after her last message.
  postMessage(state, direct, ben!, msg('Great, sending the offer today.'), at('2025-12-04T08:00:00Z'));

  startConversation(state, chloe!, 'Contract questions', [ann!.user_id, felix!.user_id], msg('Legal asked about the liability clause on this deal.'), { type: 'item', id: 30061 }, at('2025-12-05T09:00:00Z'));
  // Not Ann's: she sees neither it nor its messages.
  startConversation(state, felix!, 'Call list for January', [chloe!.user_id], msg('Here are my calls for next week.'), null, at('2025-12-06T09:00:00Z'));
}
