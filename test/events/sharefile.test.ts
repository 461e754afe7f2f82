import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsHarness, sfSigned, deliveryUrl } from './helpers';
import { SHAREFILE_DEMO, SHAREFILE_WEBHOOK_KEYS, type ShareFileTwin } from '../../infra/twins/sharefile';
import { SANDBOX_OAUTH_CLIENT } from '../../infra/twins/kit';
import { Inbox } from '../../shared/events/inbox';
import { eventsConfigOf } from '../../shared/events/receiver';
import { receiverCounts } from '../../shared/events/metrics';
import { SANDBOX_KEYS } from '../helpers/harness';

/**
 * ShareFile's payload signatures (functions/filebox/events/adapter.ts): the twin signs each POST
 * with its webhook client's keys as ShareFile does; the receiver refuses what does not match one
 * of the deployment's keys, a payload of another ShareFile subscription, and one too old to be
 * recognised as a repeat.
 */
type H = Awaited<ReturnType<typeof eventsHarness>>;
let h: H;
let sf: ShareFileTwin;
let sub: { id: string; url: string; vendorId: string };

beforeAll(async () => {
  h = await eventsHarness();
  sf = h.twin<ShareFileTwin>('filebox');
  const r = await h.json('filebox/subscribeEvents', { folder_id: SHAREFILE_DEMO.folders.oliviaHome, events: ['File.Upload', 'File.Delete'] });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const s = (await new Inbox(h.store, 3600).get(r.body.data.subscription_id))!;
  sub = { id: s.id, url: deliveryUrl(h.rt, s), vendorId: String(s.vendor.webhook_subscription_id) };
});
afterAll(() => h.close());

const events = async () => (await h.json('filebox/listEvents', { subscription_id: sub.id, include_acked: true, limit: 200 })).body.data.events as any[];
const payload = (o: { id?: string; at?: number; item?: string } = {}) =>
  JSON.stringify({
    WebhookSubscriptionId: o.id ?? sub.vendorId,
    AccountInfo: { AccountId: 'a0001', Subdomain: 'acme', AppControlPlane: 'sharefile.com', ApiControlPlane: 'sf-api.com' },
    Event: { Timestamp: new Date(o.at ?? Date.now()).toISOString(), OperationName: 'Upload', ResourceType: 'File', Resource: { Id: o.item ?? 'fi-sig-1', Parent: { Id: SHAREFILE_DEMO.folders.oliviaHome } } },
  });

async function refused(init: RequestInit, status: number, reason: string) {
  const before = receiverCounts.refused.get(`filebox/${reason}`) ?? 0;
  const count = (await events()).length;
  const res = await fetch(sub.url, { method: 'POST', ...init });
  expect(res.status).toBe(status);
  expect(((await res.json()) as any).error.details.reason).toBe(reason);
  expect(receiverCounts.refused.get(`filebox/${reason}`)).toBe(before + 1);
  expect((await events()).length).toBe(count);
}

describe('ShareFile webhook signatures', () => {
  it('a change in the twin arrives signed and is stored (this deployment takes no unsigned payload)', async () => {
    const touch = await h.json('filebox/createFolder', { parent_id: SHAREFILE_DEMO.folders.oliviaHome, name: 'signed' });
    expect(touch.status).toBe(200);
    const file = [...sf.state.items.values()].find((i) => i.kind === 'file' && !i.deleted)!;
    sf.state.items.set('fi-sig-upload', { ...file, id: 'fi-sig-upload', name: 'signed.txt', parentId: SHAREFILE_DEMO.folders.oliviaHome, streamId: 'st-sig', deleted: false });
    await h.json('filebox/createFolder', { parent_id: SHAREFILE_DEMO.folders.oliviaHome, name: 'signed again' });
    await sf.webhooks.idle();
    const post = sf.webhooks.log.find((d) => d.subscription === sub.vendorId && d.ok);
    expect(post).toBeDefined();
    expect((await events()).map((e) => e.data.Event.Resource.Id)).toContain('fi-sig-upload');
  });

  it('refuses unsigned, forged and altered payloads, storing nothing', async () => {
    const body = payload({ item: 'fi-forged' });
    await refused({ headers: { 'content-type': 'application/json' }, body }, 401, 'unsigned');
    await refused(sfSigned(body, { primary: 'not-the-key', secondary: 'nor-this' }), 401, 'bad_signature');
    // Signed, then altered in transit.
    const genuine = sfSigned(body);
    await refused({ ...genuine, body: body.replace('fi-forged', 'fi-altered') }, 401, 'bad_signature');
    // A genuine signature without the URL secret is still refused: the secret binds the delivery to the subscription.
    const before = receiverCounts.refused.get('filebox/bad_secret') ?? 0;
    expect((await fetch(sub.url.replace(/\?.*$/, ''), { method: 'POST', ...genuine })).status).toBe(401);
    expect(receiverCounts.refused.get('filebox/bad_secret')).toBe(before + 1);
  });

  it('refuses replays: of another subscription\'s payload, and of one older than the TTL; a retry within it is stored once', async () => {
    await refused(sfSigned(payload({ id: 'ws99999999', item: 'fi-elsewhere' })), 401, 'wrong_subscription');
    const ttl = eventsConfigOf(h.rt).ttlSeconds * 1000;
    await refused(sfSigned(payload({ at: Date.now() - ttl - 60_000, item: 'fi-old' })), 401, 'stale');
    await refused(sfSigned(payload({ at: Date.now() + 10 * 60_000, item: 'fi-future' })), 401, 'stale');
    const once = sfSigned(payload({ item: 'fi-retried' }));
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await (await fetch(sub.url, { method: 'POST', ...once })).json());
    expect(answers.map((a: any) => a.data)).toEqual([{ stored: 1, duplicates: 0 }, { stored: 0, duplicates: 1 }, { stored: 0, duplicates: 1 }]);
    expect((await events()).filter((e) => e.data.Event.Resource.Id === 'fi-retried')).toHaveLength(1);
  });

  it('a hex-encoded signature is the same digest and is taken', async () => {
    const body = payload({ item: 'fi-hex' });
    const { createHmac } = await import('node:crypto');
    const res = await fetch(sub.url, { method: 'POST', headers: { 'content-type': 'application/json', 'SF-WEBHOOK-PRIMARY-SIGNATURE': createHmac('sha256', SHAREFILE_WEBHOOK_KEYS.primary).update(body).digest('hex') }, body });
    expect(res.status).toBe(200);
  });

  it('key rotation: after the primary key is replaced at ShareFile, deliveries still verify through the secondary key', async () => {
    const rotated = await sf.fetch(`https://acme.sf-api.com/sf/v3/WebhookClients(${SANDBOX_OAUTH_CLIENT.id})/PrimarySignatureKey`, { method: 'POST', headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}` } });
    expect(rotated.status).toBe(200);
    const keys = ((await rotated.json()) as any).SignatureKeys;
    expect(keys.PrimaryKey).not.toBe(SHAREFILE_WEBHOOK_KEYS.primary);
    expect(keys.SecondaryKey).toBe(SHAREFILE_WEBHOOK_KEYS.secondary);
    // The deployment still holds the old primary: a delivery signed by the new primary alone is refused ...
    await refused(sfSigned(payload({ item: 'fi-new-primary' }), { primary: keys.PrimaryKey }), 401, 'bad_signature');
    // ... and once the deployment also names ShareFile's secondary key, the twin's own POSTs verify again.
    eventsConfigOf(h.rt).signatureKeys.filebox!.secondary = { value: SHAREFILE_WEBHOOK_KEYS.secondary };
    const file = [...sf.state.items.values()].find((i) => i.kind === 'file' && !i.deleted)!;
    sf.state.items.set('fi-after-rotation', { ...file, id: 'fi-after-rotation', name: 'rotated.txt', parentId: SHAREFILE_DEMO.folders.oliviaHome, streamId: 'st-rot', deleted: false });
    await h.json('filebox/createFolder', { parent_id: SHAREFILE_DEMO.folders.oliviaHome, name: 'after rotation' });
    await sf.webhooks.idle();
    expect((await events()).map((e) => e.data.Event.Resource.Id)).toContain('fi-after-rotation');
    // A member may not read or rotate the keys.
    const member = await sf.fetch(`https://acme.sf-api.com/sf/v3/WebhookClients(${SANDBOX_OAUTH_CLIENT.id})`, { headers: { authorization: `Bearer ${SANDBOX_KEYS.member}` } });
    expect(member.status).toBe(403);
  });
});
