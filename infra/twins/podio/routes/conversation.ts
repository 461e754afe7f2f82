import { Hono } from 'hono';
import type { Clock } from '../../kit';
import {
  addParticipants, byActivity, conversationFor, conversationOut, conversationRef, directBetween, eventOut, leave, messageInput, participantIds, postMessage,
  searchConversations, startConversation,
} from '../conversations';
import { flagsOf, idParam, invalid, jsonBody, notFound, paging, type TwinContext, type TwinEnv } from '../http';
import type { PodioState } from '../state';
import { slashAware } from './both';

/** Conversations (docs/vendors/podio.md#conversations). Static paths (`search`, `direct`) are registered before `/conversation/{id}`. */
export function conversationRoutes(state: PodioState, clock: Clock) {
  const r = new Hono<TwinEnv>();
  const route = slashAware(r);
  const user = (c: TwinContext) => c.get('user');
  const mine = (c: TwinContext) => [...state.conversations.rows.values()].filter((x) => x.participants.includes(user(c).user_id)).sort(byActivity);
  const subjectOf = (body: Record<string, unknown>) => {
    if (typeof body.subject !== 'string' || body.subject.trim() === '') throw invalid('"subject" is required.');
    return body.subject.trim();
  };

  route.get('/conversation/', (c) => {
    const { limit, offset } = paging(c, { default: 10, max: 200 });
    return c.json(mine(c).slice(offset, offset + limit).map((x) => conversationOut(state, x, user(c), c.get('base'), false)));
  });

  // NET's form (GET with query); docs/vendors/podio.md#conversations notes a POST form in a third-party client: both are read.
  const search = (c: TwinContext) => {
    const text = c.req.query('text');
    if (!text || !text.trim()) throw invalid('"text" (what to search for) is required.');
    const { participants } = flagsOf(c, { participants: false });
    const { limit, offset } = paging(c, { default: 10, max: 200 });
    return c.json(searchConversations(state, user(c), text.trim(), participants).slice(offset, offset + limit).map((x) => conversationOut(state, x, user(c), c.get('base'), false)));
  };
  route.get('/conversation/search/', search);
  route.post('/conversation/search/', search);

  route.get('/conversation/direct/:user_id', (c) => {
    const other = idParam(c, 'user_id');
    const found = directBetween(state, user(c).user_id, other);
    if (!found) throw notFound('No direct conversation with that user');
    return c.json(conversationOut(state, found, user(c), c.get('base'), true));
  });

  route.post('/conversation/v2/', async (c) => {
    const body = await jsonBody(c);
    const subject = subjectOf(body);
    const participants = participantIds(state, user(c), body.participants);
    const m = messageInput(state, body);
    const { conversation } = startConversation(state, user(c), subject, participants, m, null, clock.now());
    return c.json(conversationOut(state, conversation, user(c), c.get('base'), true));
  });

  route.get('/conversation/:conversation_id', (c) => c.json(conversationOut(state, conversationFor(state, user(c), idParam(c, 'conversation_id')), user(c), c.get('base'), true)));

  /** Newest first. */
  route.get('/conversation/:conversation_id/event/', (c) => {
    const conv = conversationFor(state, user(c), idParam(c, 'conversation_id'));
    const { limit, offset } = paging(c, { default: 10, max: 100 });
    return c.json([...conv.events].reverse().slice(offset, offset + limit).map((e) => eventOut(state, conv, e, c.get('base'))));
  });

  route.post('/conversation/:conversation_id/reply/v2', async (c) => {
    const conv = conversationFor(state, user(c), idParam(c, 'conversation_id'));
    const event = postMessage(state, conv, user(c), messageInput(state, await jsonBody(c)), clock.now());
    return c.json(eventOut(state, conv, event, c.get('base')));
  });

  /** Answers the new participant_add event (none when everyone named was in already: 204). */
  route.post('/conversation/:conversation_id/participant/v2/', async (c) => {
    const conv = conversationFor(state, user(c), idParam(c, 'conversation_id'));
    const ids = participantIds(state, user(c), (await jsonBody(c)).participants);
    const event = addParticipants(state, conv, user(c), ids, clock.now());
    return event ? c.json(eventOut(state, conv, event, c.get('base'))) : c.body(null, 204);
  });

  route.post('/conversation/:conversation_id/leave', (c) => {
    leave(state, conversationFor(state, user(c), idParam(c, 'conversation_id')), user(c), clock.now());
    return c.body(null, 204);
  });

  route.post('/conversation/:conversation_id/read', (c) => {
    const conv = conversationFor(state, user(c), idParam(c, 'conversation_id'));
    conv.readUpTo.set(user(c).user_id, conv.events.at(-1)!.event_id);
    return c.body(null, 204);
  });

  route.post('/conversation/:conversation_id/star', (c) => {
    conversationFor(state, user(c), idParam(c, 'conversation_id')).starred.add(user(c).user_id);
    return c.body(null, 204);
  });

  /** On an object: the conversations on it the user is part of, and a new one (answered {conversation_id, message_id}, Podio's legacy form). */
  route.get('/conversation/:ref_type/:ref_id/', (c) => {
    const ref = conversationRef(state, user(c), c.req.param('ref_type')!, idParam(c, 'ref_id'));
    const on = mine(c).filter((x) => x.ref?.type === ref!.type && x.ref.id === ref!.id);
    return c.json(on.map((x) => conversationOut(state, x, user(c), c.get('base'), false)));
  });

  route.post('/conversation/:ref_type/:ref_id/', async (c) => {
    const ref = conversationRef(state, user(c), c.req.param('ref_type')!, idParam(c, 'ref_id'));
    const body = await jsonBody(c);
    const subject = subjectOf(body);
    const participants = participantIds(state, user(c), body.participants);
    const m = messageInput(state, body);
    const { conversation, event } = startConversation(state, user(c), subject, participants, m, ref, clock.now());
    return c.json({ conversation_id: conversation.conversation_id, message_id: event.message!.message_id, embed_id: event.message!.embed_id, embed_file_id: null });
  });

  return r;
}
