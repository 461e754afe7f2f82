import { describe, expect, it } from 'vitest';
import { PODIO_DEMO, SANDBOX_KEYS } from '../../infra/twins/podio';
import { podioError, podioTwin } from './podio-call';

const U = PODIO_DEMO.users;
const C = { kickoff: 56001, direct: 56002, onDeal: 56003, notMine: 56004 };
const member = SANDBOX_KEYS.member;

describe('Podio twin: conversations', () => {
  it('POST /conversation/v2/ → the conversation with its first message; the sender is a participant once', async () => {
    const t = podioTwin();
    const r = await t.call('POST', '/conversation/v2/', { subject: 'Plan', text: 'Hello', participants: [U.ben.user_id, U.chloe.user_id, U.owner.user_id] });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      type: 'group',
      subject: 'Plan',
      excerpt: 'Hello',
      unread: false,
      unread_count: 0,
      created_on: '2026-01-15 10:00:00',
      participants: [{ user_id: U.owner.user_id, profile_id: U.owner.profile_id }, { user_id: U.ben.user_id }, { user_id: U.chloe.user_id }],
      messages: [{ text: 'Hello', created_by: { user_id: U.owner.user_id } }],
      link: `https://podio.com/conversations/${r.body.conversation_id}`,
    });
    // Profile ids and unknown ids are no user ids; a body without text or subject is refused.
    expect((await t.call('POST', '/conversation/v2/', { subject: 'x', text: 'x', participants: [U.ben.profile_id] })).status).toBe(400);
    expect((await t.call('POST', '/conversation/v2/', { subject: 'x', text: 'x', participants: [U.owner.user_id] })).status).toBe(400);
    expect((await t.call('POST', '/conversation/v2/', { subject: 'x', participants: [U.ben.user_id] })).status).toBe(400);
    expect((await t.call('POST', '/conversation/v2/', { text: 'x', participants: [U.ben.user_id] })).status).toBe(400);
  });

  it('a conversation with one other person continues their direct thread; GET /conversation/direct/{user_id} finds it or is 404', async () => {
    const t = podioTwin();
    const r = await t.call('POST', '/conversation/v2/', { subject: 'New?', text: 'Still here', participants: [U.ben.user_id] });
    expect(r.body).toMatchObject({ conversation_id: C.direct, type: 'direct', subject: 'Northwind pricing' });
    expect((await t.call('GET', `/conversation/direct/${U.ben.user_id}`)).body.messages.at(-1).text).toBe('Still here');
    const none = await t.call('GET', `/conversation/direct/${U.david.user_id}`);
    expect(none.status).toBe(404);
    expect(none.body).toEqual(podioError('not_found', 'GET', `/conversation/direct/${U.david.user_id}`));
    const fresh = await t.call('POST', '/conversation/v2/', { subject: 'Hi David', text: 'Hi', participants: [U.david.user_id] });
    expect(fresh.body.type).toBe('direct');
    expect((await t.call('GET', `/conversation/direct/${U.david.user_id}`)).body.conversation_id).toBe(fresh.body.conversation_id);
  });

  it('only participants read, list events, reply: others get 403', async () => {
    const t = podioTwin();
    for (const [method, path, body] of [
      ['GET', `/conversation/${C.kickoff}`],
      ['GET', `/conversation/${C.kickoff}/event/`],
      ['POST', `/conversation/${C.kickoff}/reply/v2`, { text: 'x' }],
      ['POST', `/conversation/${C.kickoff}/participant/v2/`, { participants: [U.elena.user_id] }],
      ['POST', `/conversation/${C.kickoff}/leave`],
    ] as const) {
      const r = await t.call(method, path, body, member);
      expect(r.status, path).toBe(403);
      expect(r.body.error).toBe('forbidden');
    }
    expect((await t.call('GET', '/conversation/99999')).status).toBe(404);
  });

  it('GET /conversation/ lists the user\'s own by recent activity with limit/offset; unread state per user', async () => {
    const t = podioTwin();
    const list = await t.call('GET', '/conversation/');
    expect(list.body.map((c: any) => [c.conversation_id, c.unread_count])).toEqual([[C.onDeal, 1], [C.direct, 1], [C.kickoff, 0]]);
    expect(list.body[0]).not.toHaveProperty('messages');
    expect((await t.call('GET', '/conversation/?limit=1&offset=1')).body.map((c: any) => c.conversation_id)).toEqual([C.direct]);
    expect((await t.call('GET', '/conversation/', undefined, member)).body.map((c: any) => c.conversation_id)).toEqual([C.notMine, C.onDeal]);
    // Reading marks it read; a reply from another makes it unread again.
    expect((await t.call('POST', `/conversation/${C.direct}/read`)).status).toBe(204);
    expect((await t.call('GET', `/conversation/${C.direct}`)).body).toMatchObject({ unread: false, unread_count: 0 });
    t.state.tokens.set('tok-ben', { user_id: U.ben.user_id, expires_at: null, ref: { type: 'user', id: U.ben.user_id } });
    await t.call('POST', `/conversation/${C.direct}/reply/v2`, { text: 'Sent.' }, 'tok-ben');
    expect((await t.call('GET', `/conversation/${C.direct}`)).body).toMatchObject({ unread: true, unread_count: 1, excerpt: 'Sent.' });
    expect((await t.call('GET', '/conversation/')).body[0].conversation_id).toBe(C.direct);
  });

  it('events newest first, each with created_via; reply/v2 answers the event; participant add and leave are events', async () => {
    const t = podioTwin();
    const reply = await t.call('POST', `/conversation/${C.kickoff}/reply/v2`, { text: 'See link', embed_url: 'https://example.com/agenda' });
    expect(reply.body).toMatchObject({ action: 'message', created_via: { id: 1, name: 'Podio' }, data: { text: 'See link', embed: { url: 'https://example.com/agenda' } } });
    const added = await t.call('POST', `/conversation/${C.kickoff}/participant/v2/`, { participants: [U.elena.user_id] });
    expect(added.body).toMatchObject({ action: 'participant_add', data: { participants: [{ user_id: U.elena.user_id }] } });
    expect((await t.call('POST', `/conversation/${C.kickoff}/participant/v2/`, { participants: [U.elena.user_id] })).status).toBe(204);
    expect((await t.call('POST', `/conversation/${C.kickoff}/leave`)).status).toBe(204);
    t.state.tokens.set('tok-ben', { user_id: U.ben.user_id, expires_at: null, ref: { type: 'user', id: U.ben.user_id } });
    const events = await t.call('GET', `/conversation/${C.kickoff}/event/?limit=3`, undefined, 'tok-ben');
    expect(events.body.map((e: any) => e.action)).toEqual(['participant_leave', 'participant_add', 'message']);
    expect(events.body[0]).toMatchObject({ created_by: { user_id: U.owner.user_id }, data: { user: { user_id: U.owner.user_id } } });
    expect((await t.call('GET', `/conversation/${C.kickoff}`)).status).toBe(403);
    expect((await t.call('POST', `/conversation/${C.direct}/participant/v2/`, { participants: [U.chloe.user_id] })).status).toBe(400);
  });

  it('GET /conversation/search/ matches subjects and messages, or with participants=true names and emails', async () => {
    const t = podioTwin();
    const ids = async (q: string) => (await t.call('GET', `/conversation/search/?${q}`)).body.map((c: any) => c.conversation_id);
    expect(await ids('text=liability')).toEqual([C.onDeal]);
    expect(await ids('text=northwind')).toEqual([C.direct]);
    expect(await ids('text=okafor&participants=true')).toEqual([C.direct, C.kickoff]);
    expect(await ids('text=Ann&participants=true')).toEqual([]);
    expect(await ids('text=call list')).toEqual([]);
    expect((await t.call('GET', '/conversation/search/')).status).toBe(400);
  });

  it('on an object: POST /conversation/item/{id}/ answers {conversation_id, message_id}; GET lists those the user is in', async () => {
    const t = podioTwin();
    const r = await t.call('POST', `/conversation/item/${PODIO_DEMO.items.firstDeal}/`, { subject: 'Q', text: 'Q?', participants: [U.ben.user_id] });
    expect(r.body).toEqual({ conversation_id: expect.any(Number), message_id: expect.any(Number), embed_id: null, embed_file_id: null });
    expect((await t.call('GET', `/conversation/${r.body.conversation_id}`)).body).toMatchObject({ type: 'direct', ref: { type: 'item', id: PODIO_DEMO.items.firstDeal } });
    const on = await t.call('GET', `/conversation/item/${PODIO_DEMO.items.firstDeal}/`);
    expect(on.body.map((c: any) => c.conversation_id)).toEqual([r.body.conversation_id, C.onDeal]);
    expect((await t.call('GET', '/conversation/item/39999/')).status).toBe(404);
    expect((await t.call('POST', `/conversation/task/40001/`, { subject: 'On a task', text: 'x', participants: [U.ben.user_id] })).status).toBe(200);
    expect((await t.call('POST', `/conversation/space/7101/`, { subject: 'x', text: 'x', participants: [U.ben.user_id] })).status).toBe(400);
  });
});
