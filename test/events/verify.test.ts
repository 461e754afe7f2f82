import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_KEYS } from '../helpers/harness';
import { Inbox } from '../../shared/events/inbox';
import { deliveryUrl, eventsHarness } from './helpers';

/**
 * Tape does not sign its deliveries, and anyone with access to the app can read the webhook URL
 * (listWebhooks): a delivery carrying the URL secret is only a hint. The receiver checks each event
 * with Tape, through the subscriber's own credential, and stores it as Tape confirms it, or drops it.
 */
describe('unsigned deliveries (Tape) are checked with the vendor before they are stored', () => {
  let h: Awaited<ReturnType<typeof eventsHarness>>;
  let url: string;
  let subId: string;
  let hookIds: number[];
  let watched: number;
  let other: number;
  let mine: { record_id: number };
  let foreign: { record_id: number };
  const tape = async (method: string, path: string, body?: unknown) =>
    (await (
      await h.tape.fetch(`https://api.tapeapp.com${path}`, { method, headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}`, 'content-type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) })
    ).json()) as any;
  const newApp = async (name: string) => (await tape('POST', '/v1/app', { workspace_id: 1, name, fields: [{ field_type: 'single_text', config: { label: 'Title' } }] })).app_id as number;

  beforeAll(async () => {
    h = await eventsHarness();
    watched = await newApp('Watched');
    other = await newApp('Elsewhere');
    const sub = await h.json('dbapp/subscribeEvents', { app_id: watched, event_types: ['record.create', 'record.update', 'record.delete'] });
    expect(sub.status, JSON.stringify(sub.body)).toBe(200);
    subId = sub.body.data.subscription_id;
    const stored = (await new Inbox(h.store, 3600).get(subId))!;
    url = deliveryUrl(h.rt, stored);
    hookIds = stored.vendor.hook_ids as number[];
    // Records made without webhooks: only the test's own (forged) deliveries name them.
    mine = await tape('POST', `/v1/record/app/${watched}?hook=false`, { fields: { title: 'Mine' } });
    foreign = await tape('POST', `/v1/record/app/${other}?hook=false`, { fields: { title: 'Not watched' } });
  });
  afterAll(() => h.close());

  const post = async (payload: Record<string, unknown>) => {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) });
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: { stored: number; dropped?: number } }).data;
  };
  const events = async () => (await h.json('dbapp/listEvents', { subscription_id: subId, include_acked: true })).body.data.events as { type: string; data: Record<string, unknown> }[];

  it('drops forged events that carry the URL secret: another app\'s record, a record that does not exist, a hook not the subscription\'s, a revision ahead of the record, a delete of a live record', async () => {
    const hook = hookIds[0]!;
    expect(await post({ hook_id: hook, record_id: foreign.record_id, revision_id: 0, type: 'record.create' })).toEqual({ stored: 0, duplicates: 0, dropped: 1 });
    expect(await post({ hook_id: hook, record_id: 987_654_321, revision_id: 0, type: 'record.create' })).toMatchObject({ stored: 0, dropped: 1 });
    expect(await post({ hook_id: 424_242, record_id: mine.record_id, revision_id: 0, type: 'record.create' })).toMatchObject({ stored: 0, dropped: 1 });
    expect(await post({ hook_id: hook, record_id: mine.record_id, revision_id: 99, type: 'record.update' })).toMatchObject({ stored: 0, dropped: 1 });
    expect(await post({ hook_id: hook, record_id: mine.record_id, type: 'record.delete' })).toMatchObject({ stored: 0, dropped: 1 });
    expect(await events()).toEqual([]);
  });

  it('stores what Tape confirms, as Tape says it, and a real change end to end', async () => {
    const forgedExtra = await post({ hook_id: hookIds[0], record_id: mine.record_id, revision_id: 0, type: 'record.create', app_id: other, injected: 'by the sender' });
    expect(forgedExtra).toMatchObject({ stored: 1 });
    const [first] = await events();
    // The stored data is what Tape confirmed: the watched app, nothing the sender added.
    expect(first!.data).toEqual({ hook_id: hookIds[0], type: 'record.create', record_id: mine.record_id, revision_id: 0, app_id: watched });
    const created = await h.json('dbapp/createRecord', { app_id: watched, fields: { title: 'Launch' } });
    await h.tape.deliveries.idle();
    await tape('DELETE', `/v1/record/${created.body.data.record_id}`);
    await h.tape.deliveries.idle();
    const all = await events();
    expect(all.map((e) => [e.type, e.data.record_id])).toEqual([
      ['record.create', mine.record_id],
      ['record.create', created.body.data.record_id],
      ['record.delete', created.body.data.record_id],
    ]);
  });
});
