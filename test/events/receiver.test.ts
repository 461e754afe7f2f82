import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRM_APP_ENV, eventsHarness, sfSigned, deliveryUrl } from './helpers';
import { PODIO_DEMO, type PodioTwin } from '../../infra/twins/podio';
import { SHAREFILE_DEMO } from '../../infra/twins/sharefile';
import { HUBSPOT_APP, PORTAL_ID, signV3 } from '../../infra/twins/hubspot';
import { Inbox } from '../../shared/events/inbox';
import { eventsConfigOf } from '../../shared/events/receiver';
import { receiverCounts } from '../../shared/events/metrics';
import { harness, SANDBOX_KEYS } from '../helpers/harness';

type H = Awaited<ReturnType<typeof eventsHarness>>;
let h: H;
const subs: Record<string, { id: string; url: string; vendorId: unknown }> = {};

beforeAll(async () => {
  // A receiver that never hears the vendor gives up after this (the last test).
  h = await eventsHarness({ env: { EVENTS_VERIFY_WAIT_MS: '1000' } });
  const app = await h.tape.fetch('https://api.tapeapp.com/v1/app', {
    method: 'POST',
    headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}`, 'content-type': 'application/json' },
    body: JSON.stringify({ workspace_id: 1, name: 'Guarded', fields: [{ field_type: 'single_text', config: { label: 'Title' } }] }),
  });
  const { app_id } = (await app.json()) as { app_id: number };
  const watches: Record<string, unknown> = {
    dbapp: { app_id, event_types: ['record.create'] },
    collab: { ref_type: 'app', ref_id: PODIO_DEMO.apps.companies, event_types: ['item.create'] },
    crm: { object_types: ['deals'], events: ['creation'] },
    filebox: { folder_id: SHAREFILE_DEMO.folders.oliviaHome, events: ['File.Upload'] },
  };
  for (const [platform, watch] of Object.entries(watches)) {
    const r = await h.json(`${platform}/subscribeEvents`, watch);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const sub = (await new Inbox(h.store, 3600).get(r.body.data.subscription_id))!;
    subs[platform] = { id: sub.id, url: deliveryUrl(h.rt, sub), vendorId: sub.vendor.webhook_subscription_id };
  }
  // A record made without webhooks (hook=false): the genuine Tape delivery the test posts names it,
  // on the subscription's own hook, as Tape would (the receiver checks it with Tape).
  const record = await h.tape.fetch(`https://api.tapeapp.com/v1/record/app/${app_id}?hook=false`, {
    method: 'POST',
    headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}`, 'content-type': 'application/json' },
    body: JSON.stringify({ fields: { title: 'Guarded record' } }),
  });
  const dbappSub = (await new Inbox(h.store, 3600).get(subs.dbapp!.id))!;
  tapeCreate = { hook_id: (dbappSub.vendor.hook_ids as number[])[0]!, record_id: ((await record.json()) as { record_id: number }).record_id, revision_id: 0, type: 'record.create' };
  // Likewise a Podio item, and the delivery Podio would send for its creation.
  const podio = async (method: string, path: string, body?: unknown) =>
    (await (await h.twin<PodioTwin>('collab').fetch(`https://api.podio.com${path}`, { method, headers: { authorization: `OAuth2 ${SANDBOX_KEYS.owner}`, 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) })).json()) as any;
  const { item_id } = await podio('POST', `/item/app/${PODIO_DEMO.apps.companies}/?hook=false`, { fields: { [PODIO_DEMO.fields.companies.name]: 'Guarded company' } });
  const item = await podio('GET', `/item/${item_id}`);
  const collabSub = (await new Inbox(h.store, 3600).get(subs.collab!.id))!;
  podioCreate = { type: 'item.create', hook_id: String((collabSub.vendor.hook_ids as number[])[0]), item_id: String(item_id), item_revision_id: String(item.initial_revision.item_revision_id), external_id: '' };
});
let tapeCreate: Record<string, unknown> = {};
let podioCreate: Record<string, string> = {};
afterAll(() => h.close());

/** Unacknowledged events of a platform's subscription now. */
const stored = async (platform: string) => (await h.json(`${platform}/listEvents`, { subscription_id: subs[platform]!.id })).body.data.events.length as number;
const refusedCount = (platform: string, reason: string) => receiverCounts.refused.get(`${platform}/${reason}`) ?? 0;

/** POSTs to the receiver and checks: refused with `status`, nothing stored, the refusal counted under `reason`. */
async function refused(platform: string, url: string, init: RequestInit, status: number, reason: string) {
  const before = refusedCount(platform, reason);
  const res = await fetch(url, { method: 'POST', ...init });
  expect(res.status).toBe(status);
  const body = (await res.json()) as { success: boolean; error: { details: { reason: string } } };
  expect(body.success).toBe(false);
  expect(body.error.details.reason).toBe(reason);
  expect(refusedCount(platform, reason)).toBe(before + 1);
  expect(await stored(platform)).toBe(0);
}

const json = (body: unknown) => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const form = (fields: Record<string, string>) => ({ headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });

/** A ShareFile payload of the filebox subscription's own ShareFile webhook subscription, signed as the twin signs. */
const sfEvent = (operation: string) => sfSigned(JSON.stringify({ WebhookSubscriptionId: subs.filebox!.vendorId, Event: { Timestamp: new Date().toISOString(), OperationName: operation, ResourceType: 'File', Resource: { Id: 'fi0001', Parent: { Id: 'fo0001' } } } }));

describe('secret-in-URL vendors (Tape, Podio, ShareFile): anything but the subscription\'s own URL is refused, nothing stored', () => {
  it.each([
    ['dbapp', () => json(tapeCreate), json('not an object'), json({ hook_id: 1, type: 'record.explode' })],
    ['collab', () => form(podioCreate), form({ hook_id: '1' }), form({ type: 'item.explode', hook_id: '1' })],
    ['filebox', () => sfEvent('Upload'), () => sfSigned(JSON.stringify(['not', 'an', 'object'])), () => sfEvent('Explode')],
  ] as const)('%s', async (platform, goodOf, malformedOf, unknownTypeOf) => {
    const [good, malformed, unknownType] = [goodOf, malformedOf, unknownTypeOf].map((x): RequestInit => (typeof x === 'function' ? x() : x)) as [RequestInit, RequestInit, RequestInit];
    const { id, url } = subs[platform]!;
    const bare = url.replace(/\?.*$/, '');
    await refused(platform, bare, good, 401, 'bad_secret');
    await refused(platform, `${bare}?secret=${'x'.repeat(32)}`, good, 401, 'bad_secret');
    await refused(platform, url.replace(id, 'sub_doesNotExist0000'), good, 404, 'unknown_subscription');
    await refused(platform, url, malformed, 400, 'malformed');
    await refused(platform, url, unknownType, 400, 'malformed');
    await refused(platform, url, { ...good, body: 'x'.repeat(1_000_001) }, 413, 'too_large');
    // Another platform's subscription id under this platform's path is unknown here.
    const other = platform === 'dbapp' ? subs.collab! : subs.dbapp!;
    await refused(platform, url.replace(id, other.id), good, 404, 'unknown_subscription');
    const get = await fetch(url);
    expect(get.status).toBe(405);

    // The genuine delivery, twice (a retry): stored once.
    for (let i = 0; i < 2; i++) expect((await fetch(url, { method: 'POST', ...good })).status).toBe(200);
    expect(await stored(platform)).toBe(1);
    const listed = await h.json(`${platform}/listEvents`, { subscription_id: id });
    await h.json(`${platform}/ackEvents`, { up_to_cursor: listed.body.data.next_cursor });
  });
});

describe('HubSpot v3 signatures: forged, tampered, replayed, stale and unsigned deliveries refused, nothing stored', () => {
  const url = () => `${h.base}/v1/events/crm/app`;
  const batch = (eventId: number) => JSON.stringify([{ eventId, subscriptionId: 1, portalId: PORTAL_ID, appId: Number(HUBSPOT_APP.appId), occurredAt: Date.now(), subscriptionType: 'deal.creation', attemptNumber: 0, objectId: 9000 + eventId, changeSource: 'API' }]);
  const signed = (body: string, o: { secret?: string; at?: number; uri?: string } = {}) => {
    const ts = String(o.at ?? Date.now());
    return { headers: { 'content-type': 'application/json', 'X-HubSpot-Signature-v3': signV3(o.secret ?? HUBSPOT_APP.clientSecret, 'POST', o.uri ?? url(), body, ts), 'X-HubSpot-Request-Timestamp': ts }, body };
  };

  it('refuses each forgery and stores the genuine delivery once', async () => {
    expect(CRM_APP_ENV.CRM_EVENTS_CLIENT_SECRET).toBe(HUBSPOT_APP.clientSecret);
    await refused('crm', url(), { headers: { 'content-type': 'application/json' }, body: batch(1) }, 401, 'unsigned');
    await refused('crm', url(), signed(batch(1), { secret: 'not-the-client-secret' }), 401, 'bad_signature');
    const genuine = signed(batch(1));
    await refused('crm', url(), { ...genuine, body: batch(2) }, 401, 'bad_signature');
    await refused('crm', url(), signed(batch(1), { uri: `${h.base}/v1/events/crm/other` }), 401, 'bad_signature');
    await refused('crm', url(), signed(batch(1), { at: Date.now() - 5 * 60_000 - 1_000 }), 401, 'stale');
    await refused('crm', url(), signed(batch(1), { at: Date.now() + 6 * 60_000 }), 401, 'stale');
    await refused('crm', url(), signed('[{"eventId":"x"}]'), 400, 'malformed');

    // Genuine: stored; the same delivery replayed within the window is a duplicate, stored once.
    expect((await fetch(url(), { method: 'POST', ...genuine })).status).toBe(200);
    const replay = await fetch(url(), { method: 'POST', ...genuine });
    expect(replay.status).toBe(200);
    expect(((await replay.json()) as any).data).toEqual({ stored: 0, duplicates: 1 });
    expect(await stored('crm')).toBe(1);
  });

  it('a portal no subscription watches, or an event type it does not watch, stores nothing', async () => {
    const other = JSON.stringify([{ eventId: 77, portalId: 1, appId: 1, occurredAt: Date.now(), subscriptionType: 'deal.creation', objectId: 1 }]);
    const res = await fetch(url(), { method: 'POST', ...signed(other) });
    expect(((await res.json()) as any).data.stored).toBe(0);
    const unwatched = JSON.stringify([{ eventId: 78, portalId: PORTAL_ID, appId: 1, occurredAt: Date.now(), subscriptionType: 'contact.creation', objectId: 1 }]);
    expect(((await (await fetch(url(), { method: 'POST', ...signed(unwatched) })).json()) as any).data.stored).toBe(0);
  });
});

describe('the tools refuse what they cannot do', () => {
  it('bad parameters name the parameter; another key sees no subscription; no dry run', async () => {
    const bad = await h.json('dbapp/subscribeEvents', { app_id: 1, event_types: ['record.explode'] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.parameter).toMatch(/event_types/);
    const wrongKind = await h.json('collab/subscribeEvents', { ref_type: 'space', ref_id: PODIO_DEMO.spaces.sales, event_types: ['item.create'] });
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.body.error.details.parameter).toMatch(/event_types/);
    const noProps = await h.json('crm/subscribeEvents', { object_types: ['deals'], events: ['propertyChange'] });
    expect(noProps.status).toBe(400);
    expect(noProps.body.error.details.parameter).toMatch(/properties/);
    const cursor = await h.json('dbapp/listEvents', { cursor: 'garbage' });
    expect(cursor.body.error.details.parameter).toBe('cursor');
    const both = await h.json('dbapp/ackEvents', {});
    expect(both.body.error.details.parameter).toBe('event_ids');
    const foreign = await h.call('dbapp/ackEvents', { event_ids: [`${subs.dbapp!.id}.1`] }, { key: SANDBOX_KEYS.member, query: 'format=json' });
    expect(foreign.status).toBe(404);
    const dry = await h.call('dbapp/subscribeEvents', { app_id: 1 }, { query: 'format=json&dry_run=true' });
    expect(dry.status).toBe(400);
    expect(dry.body.error.details.parameter).toBe('dry_run');
  });

  it('an unreachable receiver: the subscription is not made and the vendor webhook is removed again', async () => {
    const config = eventsConfigOf(h.rt);
    const base = config.baseUrl;
    config.baseUrl = 'http://127.0.0.1:9'; // discard port: nothing listens
    try {
      const before = h.tape.deliveries.hooks.size;
      const r = await h.json('dbapp/subscribeEvents', { app_id: 1, event_types: ['record.create'] });
      expect(r.status).toBe(500);
      expect(r.body.error.message).toMatch(/within 1 s.*EVENTS_BASE_URL/);
      expect(h.tape.deliveries.hooks.size).toBe(before);
    } finally {
      config.baseUrl = base;
    }
  });
});

describe('a deployment that has not configured the inbox', () => {
  it('answers FORBIDDEN naming the setting, and asks no vendor', async () => {
    const bare = await harness();
    const tape = bare.recordRequests('dbapp');
    const r = await bare.call('dbapp/subscribeEvents', { app_id: 1 }, { query: 'format=json' });
    expect(r.status).toBe(403);
    expect(r.body.error.message).toContain('EVENTS_BASE_URL');
    expect(tape).toEqual([]);
    const noApp = await harness({ env: { EVENTS_BASE_URL: 'https://api.example.com' } });
    const crm = await noApp.call('crm/subscribeEvents', { object_types: ['deals'] }, { query: 'format=json' });
    expect(crm.status).toBe(403);
    expect(crm.body.error.message).toContain('CRM_EVENTS_APP_ID');
  });
});
