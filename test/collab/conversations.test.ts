import { describe, expect, it } from 'vitest';
import { harness, SANDBOX_KEYS } from '../helpers/harness';
import { loopbackServer } from '../helpers/loopback';
import { createClock } from '../../infra/twins/kit';
import { PODIO_DEMO, type PodioTwin } from '../../infra/twins/podio';
import { TEST_NOW } from '../twins/podio-call';

const json = { query: 'format=json' };
const U = PODIO_DEMO.users;
const deal = PODIO_DEMO.items.firstDeal;
/** Seeded: the owner's group conversation (Ann, Ben, Chloé, David), the Ben–Ann direct one, one on a deal, one the owner is not in. */
const C = { kickoff: 56001, direct: 56002, onDeal: 56003, notMine: 56004 };

const base = loopbackServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/pdf' });
  res.end(Buffer.from('%PDF-1.4 offer'));
});

const fixed = (env: Record<string, string> = {}) => harness({ env, twins: { collab: { clock: createClock(TEST_NOW) } } });
const writes = (sent: { method: string; path: string }[]) => sent.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);

describe('createConversation', () => {
  it('starts a group conversation with user ids, leaving the sender out of what is sent, and answers with its messages', async () => {
    const h = await fixed();
    const sent = h.recordRequests('collab');
    const r = await h.call('collab/createConversation', { subject: 'Renewal plan', participants: [U.owner.user_id, U.ben.user_id, U.chloe.user_id], text: 'Can we close this week?' }, json);
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      subject: 'Renewal plan',
      type: 'group',
      created_by: { user_id: U.owner.user_id, name: U.owner.name, type: 'user' },
      participants: [
        { user_id: U.owner.user_id, profile_id: U.owner.profile_id, name: U.owner.name },
        { user_id: U.ben.user_id, profile_id: U.ben.profile_id },
        { user_id: U.chloe.user_id },
      ],
      messages: [{ text: 'Can we close this week?', created_by: { user_id: U.owner.user_id, name: U.owner.name } }],
      unread: false,
    });
    const post = sent.find((s) => s.method === 'POST')!;
    expect(post.path).toBe('/conversation/v2/');
    expect(post.body).toEqual({ subject: 'Renewal plan', participants: [U.ben.user_id, U.chloe.user_id], text: 'Can we close this week?' });

    const text = await h.call('collab/createConversation', { subject: 'Lunch', participants: [U.ben.user_id, U.david.user_id], text: 'Friday?' });
    expect(text.body.data).toMatch(/^started #\d+ group "Lunch" with Ann Becker #1001, Ben Okafor #1002, David Kim #1004\n  2026-01-15 10:00 Ann Becker: Friday\?\nhttps:\/\/podio\.com\/conversations\/\d+$/);
  });

  it('refuses a profile id with the right user id, and an unknown id, before anything is sent', async () => {
    const h = await fixed();
    const sent = h.recordRequests('collab');
    const r = await h.call('collab/createConversation', { subject: 'x', participants: [U.ben.user_id, U.chloe.profile_id], text: 'hi' });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('INVALID_PARAMETER');
    expect(r.body.error.details).toMatchObject({ parameter: 'participants.1', expected: 'a user_id, not a profile_id' });
    expect(r.body.error.message).toContain(`${U.chloe.profile_id} is the profile id of ${U.chloe.name}`);
    expect(r.body.error.message).toContain(`use ${U.chloe.user_id}`);
    const unknown = await h.call('collab/createConversation', { subject: 'x', participants: [424242], text: 'hi' });
    expect(unknown.body.error.details.parameter).toBe('participants.0');
    expect(unknown.body.error.message).toContain('no member of your organization has user id 424242');
    const self = await h.call('collab/createConversation', { subject: 'x', participants: [U.owner.user_id], text: 'hi' });
    expect(self.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'participants' } });
    expect(writes(sent)).toEqual([]);
  });

  it('one participant continues the direct conversation of the pair', async () => {
    const h = await fixed();
    const r = await h.call('collab/createConversation', { subject: 'Another subject', participants: [U.ben.user_id], text: 'One more thing.' }, json);
    expect(r.body.data).toMatchObject({ conversation_id: C.direct, type: 'direct', subject: 'Northwind pricing' });
    expect(r.body.data.messages.at(-1)).toMatchObject({ text: 'One more thing.' });
  });

  it('uploads https URLs in file_ids and attaches them to the message', async () => {
    const h = await fixed({ ALLOW_HTTP_HOSTS: '127.0.0.1' });
    const sent = h.recordRequests('collab');
    const r = await h.call('collab/createConversation', { subject: 'Offer', participants: [U.ben.user_id, U.chloe.user_id], text: 'See attached.', file_ids: [`${base()}/offers/northwind.pdf`] }, json);
    expect(r.status).toBe(200);
    expect(r.body.data.messages[0].files).toEqual([{ file_id: expect.any(Number), name: 'northwind.pdf' }]);
    expect(writes(sent)).toEqual(['POST /file/', 'POST /conversation/v2/']);
    const bad = await h.call('collab/createConversation', { subject: 'Offer', participants: [U.ben.user_id], text: 'x', file_ids: ['not a file'] });
    expect(bad.body.error.details.parameter).toBe('file_ids.0');
  });
});

describe('createConversationOnObject and getConversationsOnObject', () => {
  it('starts a conversation on an item; the item lists the conversations the key is in', async () => {
    const h = await fixed();
    const r = await h.call('collab/createConversationOnObject', { ref_type: 'item', ref_id: deal, subject: 'Discount?', participants: [U.ben.user_id], text: 'Is 5% fine?' }, json);
    expect(r.body.data).toEqual({ conversation_id: expect.any(Number), message_id: expect.any(Number), embed_id: null, embed_file_id: null });
    const text = await h.call('collab/createConversationOnObject', { ref_type: 'item', ref_id: deal, subject: 'Timing', participants: [U.chloe.user_id], text: 'When?' });
    expect(text.body.data).toMatch(new RegExp(`^started conversation #\\d+ "Timing" on item #${deal} \\(message #\\d+\\) — getConversation \\d+ reads it$`));

    const list = await h.call('collab/getConversationsOnObject', { ref_type: 'item', ref_id: deal }, json);
    expect(list.body.data.map((c: any) => c.subject)).toEqual(['Timing', 'Discount?', 'Contract questions']);
    expect(list.body.data[2]).toMatchObject({ conversation_id: C.onDeal, ref: { type: 'item', id: deal }, participants: [{ user_id: U.chloe.user_id, name: U.chloe.name }, { user_id: U.owner.user_id, name: U.owner.name }, { user_id: U.member.user_id, name: U.member.name }] });
    const none = await h.call('collab/getConversationsOnObject', { ref_type: 'item', ref_id: deal + 5 });
    expect(none.body.data).toBe(`none of your conversations is on item #${deal + 5}`);
    const profile = await h.call('collab/createConversationOnObject', { ref_type: 'item', ref_id: deal, subject: 'x', participants: [U.ben.profile_id], text: 'x' });
    expect(profile.body.error.details.parameter).toBe('participants.0');
  });
});

describe('getConversation', () => {
  it('reads a conversation as subject, participants, last event, then its messages', async () => {
    const h = await fixed();
    const r = await h.call('collab/getConversation', { conversation_id: C.direct }, json);
    expect(r.body.data).toMatchObject({ conversation_id: C.direct, type: 'direct', unread: true, unread_count: 1, link: `https://podio.com/conversations/${C.direct}` });
    expect(r.body.data.messages).toHaveLength(3);
    const text = await h.call('collab/getConversation', { conversation_id: C.direct });
    expect(text.body.data).toBe(
      `#${C.direct} direct "Northwind pricing" with Ben Okafor #1002, Ann Becker #1001 [1 unread message]\n` +
        '  2025-12-03 14:00 Ben Okafor: Can we offer 10% on the support package?\n' +
        '  2025-12-03 15:00 Ann Becker: Yes, up to 10% is fine.\n' +
        '  2025-12-04 08:00 Ben Okafor: Great, sending the offer today.\n' +
        `https://podio.com/conversations/${C.direct}`,
    );
  });

  it('shows the newest 10 messages in the text and says how to read the older ones', async () => {
    const h = await fixed();
    for (let i = 1; i <= 9; i++) await h.call('collab/replyToConversation', { conversation_id: C.kickoff, text: `Point ${i}` });
    const lines = (await h.call('collab/getConversation', { conversation_id: C.kickoff })).body.data.split('\n');
    expect(lines).toHaveLength(13);
    expect(lines[1]).toBe('  2025-12-01 11:00 Ann Becker: Agreed, I moved it up.');
    expect(lines[10]).toBe('  2026-01-15 10:00 Ann Becker: Point 9');
    expect(lines[11]).toBe('  (2 older messages — getConversationEvents with offset pages through them)');
    expect((await h.call('collab/getConversation', { conversation_id: C.kickoff }, json)).body.data.messages).toHaveLength(12);
  });

  it('answers FORBIDDEN with the way in when the key is no participant', async () => {
    const h = await fixed();
    const r = await h.call('collab/getConversation', { conversation_id: C.kickoff }, { key: SANDBOX_KEYS.member });
    expect(r.status).toBe(403);
    expect(r.body.error).toMatchObject({ code: 'FORBIDDEN', details: { conversation_id: C.kickoff, upstream_status: 403 } });
    expect(r.body.error.message).toContain('Only participants can read or write');
    expect(r.body.error.message).toContain('addConversationParticipants');
    expect((await h.call('collab/getConversation', { conversation_id: 99999 })).body.error.code).toBe('NOT_FOUND');
  });
});

describe('getConversationEvents', () => {
  it('pages events newest first (default 10) with created_via, and only for participants', async () => {
    const h = await fixed();
    const sent = h.recordRequests('collab');
    const r = await h.call('collab/getConversationEvents', { conversation_id: C.kickoff }, json);
    expect(sent[0]!.query.get('limit')).toBe('10');
    expect(sent[0]!.query.get('offset')).toBe('0');
    expect(r.body.data.map((e: any) => e.data.text)).toEqual(['Agreed, I moved it up.', 'Pipeline review should come first.', 'Draft agenda attached next week — add your topics here.']);
    expect(r.body.data[0]).toMatchObject({ action: 'message', created_by: { user_id: U.owner.user_id }, created_via: { id: 1, name: 'Podio' }, data: { message_id: expect.any(Number), files: [], embed: null, embed_file: null } });
    const page = await h.call('collab/getConversationEvents', { conversation_id: C.kickoff, limit: 1, offset: 1 });
    expect(page.body.data).toMatch(/^events of conversation #56001, newest first:\n#\d+ 2025-12-01 10:30 Ben Okafor: Pipeline review should come first\. \(via Podio\)\nshowing 1 — pass offset 2 for the next page$/);
    expect((await h.call('collab/getConversationEvents', { conversation_id: C.kickoff, limit: 101 })).body.error.details.parameter).toBe('limit');
    expect((await h.call('collab/getConversationEvents', { conversation_id: C.kickoff }, { key: SANDBOX_KEYS.member })).body.error.code).toBe('FORBIDDEN');
  });
});

describe('getConversations and searchConversations', () => {
  it("lists the key's conversations by recent activity, default 10 a page", async () => {
    const h = await fixed();
    const sent = h.recordRequests('collab');
    const r = await h.call('collab/getConversations', {}, json);
    expect(sent[0]!.query.get('limit')).toBe('10');
    expect(r.body.data.map((c: any) => c.conversation_id)).toEqual([C.onDeal, C.direct, C.kickoff]);
    expect(r.body.data[1]).toEqual({
      conversation_id: C.direct,
      subject: 'Northwind pricing',
      type: 'direct',
      excerpt: 'Great, sending the offer today.',
      created_by: { user_id: U.ben.user_id, name: U.ben.name, type: 'user' },
      created_on: '2025-12-03 14:00:00',
      last_event_on: '2025-12-04 08:00:00',
      participants: [
        { user_id: U.ben.user_id, name: U.ben.name },
        { user_id: U.owner.user_id, name: U.owner.name },
      ],
      starred: false,
      unread: true,
      unread_count: 1,
    });
    const text = await h.call('collab/getConversations', { limit: 2 });
    expect(text.body.data.split('\n')).toEqual([
      'your conversations, most recent first:',
      `#${C.onDeal} group "Contract questions" on item #${deal} with Chloé Martin #1003, Ann Becker #1001, Felix Wagner #1006 — last 2025-12-05 09:00: Legal asked about the liability clause on this deal. [1 unread message]`,
      `#${C.direct} direct "Northwind pricing" with Ben Okafor #1002, Ann Becker #1001 — last 2025-12-04 08:00: Great, sending the offer today. [1 unread message]`,
      'showing 2 — pass offset 2 for the next page',
    ]);
  });

  it('searches subjects and messages, or participant names and emails with participants: true', async () => {
    const h = await fixed();
    const byText = await h.call('collab/searchConversations', { text: 'PIPELINE' }, json);
    expect(byText.body.data.map((c: any) => c.conversation_id)).toEqual([C.kickoff]);
    const byPerson = await h.call('collab/searchConversations', { text: 'felix.wagner@', participants: true }, json);
    expect(byPerson.body.data.map((c: any) => c.conversation_id)).toEqual([C.onDeal]);
    const sent = h.recordRequests('collab');
    const none = await h.call('collab/searchConversations', { text: 'zebra', participants: true, limit: 5, offset: 0 });
    expect(none.body.data).toBe('no conversations with a participant matching "zebra"');
    expect(Object.fromEntries(sent[0]!.query)).toEqual({ text: 'zebra', participants: 'true', limit: '5', offset: '0' });
    expect((await h.call('collab/searchConversations', { text: '  ' })).body.error.details.parameter).toBe('text');
  });
});

describe('getDirectConversation', () => {
  it('reads the direct conversation with a user', async () => {
    const h = await fixed();
    const r = await h.call('collab/getDirectConversation', { user_id: U.ben.user_id }, json);
    expect(r.body.data).toMatchObject({ conversation_id: C.direct, type: 'direct' });
  });

  it('answers NOT_FOUND with the next step when there is none; a profile id is named as such', async () => {
    const h = await fixed();
    const r = await h.call('collab/getDirectConversation', { user_id: U.david.user_id });
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe('NOT_FOUND');
    expect(r.body.error.message).toBe(`You have no direct conversation with user ${U.david.user_id} yet. To start one, call createConversation with participants [${U.david.user_id}], a subject and a text.`);
    expect(r.body.error.details.next_step).toEqual({ tool: 'createConversation', params: { participants: [U.david.user_id] } });
    const profile = await h.call('collab/getDirectConversation', { user_id: U.david.profile_id });
    expect(profile.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'user_id' } });
    expect(profile.body.error.message).toContain(`use ${U.david.user_id}`);
  });
});

describe('replyToConversation', () => {
  it('posts a message and answers the event; the other participants then have it unread', async () => {
    const h = await fixed();
    const r = await h.call('collab/replyToConversation', { conversation_id: C.kickoff, text: 'Final agenda is up.', embed_url: 'https://example.com/agenda' }, json);
    expect(r.body.data).toMatchObject({
      action: 'message',
      created_by: { user_id: U.owner.user_id, name: U.owner.name },
      created_via: { id: 1, name: 'Podio' },
      data: { text: 'Final agenda is up.', files: [], embed: { url: 'https://example.com/agenda' } },
    });
    const twin = h.twin<PodioTwin>('collab');
    const conv = twin.state.conversations.rows.get(C.kickoff)!;
    expect(conv.events.at(-1)!.message!.text).toBe('Final agenda is up.');
    const text = await h.call('collab/replyToConversation', { conversation_id: C.kickoff, text: 'Thanks!' });
    expect(text.body.data).toMatch(/^replied in conversation #56001: #\d+ 2026-01-15 10:00 Ann Becker: Thanks! \(via Podio\)$/);
  });

  it('is FORBIDDEN for someone not in the conversation, with nothing posted', async () => {
    const h = await fixed();
    const r = await h.call('collab/replyToConversation', { conversation_id: C.kickoff, text: 'Me too' }, { key: SANDBOX_KEYS.member });
    expect(r.body.error.code).toBe('FORBIDDEN');
    expect(h.twin<PodioTwin>('collab').state.conversations.rows.get(C.kickoff)!.events).toHaveLength(3);
  });
});

describe('addConversationParticipants and leaveConversation', () => {
  it('adds people by user id and answers everyone; a profile id is refused first; a direct conversation takes nobody', async () => {
    const h = await fixed();
    const r = await h.call('collab/addConversationParticipants', { conversation_id: C.kickoff, participants: [U.elena.user_id] }, json);
    expect(r.body.data.map((p: any) => p.user_id)).toEqual([U.owner.user_id, U.ben.user_id, U.chloe.user_id, U.david.user_id, U.elena.user_id]);
    const again = await h.call('collab/addConversationParticipants', { conversation_id: C.kickoff, participants: [U.elena.user_id] });
    expect(again.body.data).toBe('conversation #56001 now has 5 participants: Ann Becker #1001, Ben Okafor #1002, Chloé Martin #1003, David Kim #1004, Elena Rossi #1005');
    const sent = h.recordRequests('collab');
    const profile = await h.call('collab/addConversationParticipants', { conversation_id: C.kickoff, participants: [U.member.profile_id] });
    expect(profile.body.error.details.parameter).toBe('participants.0');
    expect(writes(sent)).toEqual([]);
    const direct = await h.call('collab/addConversationParticipants', { conversation_id: C.direct, participants: [U.chloe.user_id] });
    expect(direct.body.error.code).toBe('INVALID_PARAMETER');
    expect(direct.body.error.message).toContain('direct conversation');
  });

  it('leaving removes the caller: the conversation is then closed to them', async () => {
    const h = await fixed();
    const r = await h.call('collab/leaveConversation', { conversation_id: C.kickoff }, json);
    expect(r.body.data).toEqual({ left: true, conversation_id: C.kickoff });
    expect(h.twin<PodioTwin>('collab').state.conversations.rows.get(C.kickoff)!.participants).not.toContain(U.owner.user_id);
    expect((await h.call('collab/getConversation', { conversation_id: C.kickoff })).body.error.code).toBe('FORBIDDEN');
    const twice = await h.call('collab/leaveConversation', { conversation_id: C.kickoff });
    expect(twice.body.error.code).toBe('FORBIDDEN');
    expect((await h.call('collab/getConversations', {}, json)).body.data.map((c: any) => c.conversation_id)).toEqual([C.onDeal, C.direct]);
  });
});
