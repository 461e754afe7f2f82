import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsHarness, deliveryUrl, withoutVendorCheck } from './helpers';
import { PODIO_DEMO, type PodioTwin } from '../../infra/twins/podio';
import type { HubSpotTwin } from '../../infra/twins/hubspot';
import { SHAREFILE_DEMO, type ShareFileTwin } from '../../infra/twins/sharefile';
import { DynamoStore } from '../../shared/store/dynamodb';
import { startDynamoDbLocal, type DynamoDbLocal } from '../helpers/dynamodb-local';
import { SANDBOX_KEYS } from '../helpers/harness';

type H = Awaited<ReturnType<typeof eventsHarness>>;

/** Every event of a subscription, paging through listEvents (acknowledged ones too). */
async function everyEvent(h: H, platform: string, subscription_id: string) {
  const events: any[] = [];
  let cursor: string | undefined;
  for (;;) {
    const r = await h.json(`${platform}/listEvents`, { subscription_id, limit: 200, ...(cursor ? { cursor } : {}) });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    events.push(...r.body.data.events);
    if (!r.body.data.more) return events;
    cursor = r.body.data.next_cursor;
  }
}

const N = 1000;

describe('a burst of 1,000 deliveries, each POSTed three times (at-least-once), memory store', () => {
  let h: H;
  beforeAll(async () => {
    h = await eventsHarness({
      twins: {
        dbapp: { hookRedeliver: 2 },
        collab: { hookRedeliver: 2, rateLimit: { limit: 1_000_000, windowMs: 3_600_000 } },
        crm: { hookRedeliver: 2, rateLimit: { limit: 1_000_000, windowMs: 10_000 } },
        filebox: { hookRedeliver: 2 },
      },
    });
  });
  afterAll(() => h.close());

  it('Tape: all 1,000 stored, none twice, none lost', async () => {
    const app = await h.tape.fetch('https://api.tapeapp.com/v1/app', {
      method: 'POST',
      headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}`, 'content-type': 'application/json' },
      body: JSON.stringify({ workspace_id: 1, name: 'Burst', fields: [{ field_type: 'single_text', config: { label: 'Title' } }] }),
    });
    const { app_id } = (await app.json()) as { app_id: number };
    const sub = await h.json('dbapp/subscribeEvents', { app_id, event_types: ['record.create'] });
    expect(sub.status, JSON.stringify(sub.body)).toBe(200);
    await withoutVendorCheck(h.store, sub.body.data.subscription_id);
    for (let i = 1; i <= N; i++) {
      h.tape.state.events.emit({ type: 'record.create', app_id, record_id: 100_000 + i, revision_id: 0, hook: true, workflow: false, user_id: 10000 } as never);
      // Tape executes at most 100 webhooks per app and minute: the twin's clock moves a minute every 100.
      if (i % 100 === 0) h.tape.clock.advance(60_000);
    }
    await h.tape.deliveries.idle();
    const posts = h.tape.deliveries.log.filter((d) => d.payload.type === 'record.create');
    expect(posts.length).toBe(Math.min(3 * N, 1000)); // the twin's log keeps its latest 1,000 attempts
    expect(posts.every((d) => d.ok)).toBe(true);
    const events = await everyEvent(h, 'dbapp', sub.body.data.subscription_id);
    const ids = events.map((e) => e.data.record_id);
    expect(new Set(ids).size).toBe(N);
    expect(ids).toHaveLength(N);
    expect(ids).toEqual(Array.from({ length: N }, (_, i) => 100_001 + i));
  }, 240_000);

  it('Podio: all 1,000 stored, none twice, none lost', async () => {
    const podio = h.twin<PodioTwin>('collab');
    const sub = await h.json('collab/subscribeEvents', { ref_type: 'app', ref_id: PODIO_DEMO.apps.deals, event_types: ['item.update'] });
    expect(sub.status, JSON.stringify(sub.body)).toBe(200);
    // Synthetic revisions of one item: stored as they come, without asking the twin (test/events/verify-collab.test.ts checks that).
    await withoutVendorCheck(h.store, sub.body.data.subscription_id);
    for (let i = 1; i <= N; i++) podio.hooks.emit({ type: 'item.update', ref: { type: 'app', id: PODIO_DEMO.apps.deals }, params: { item_id: 500, item_revision_id: i, external_id: '' } });
    await podio.hooks.idle();
    const events = await everyEvent(h, 'collab', sub.body.data.subscription_id);
    const revisions = events.map((e) => e.data.item_revision_id);
    expect(revisions).toEqual(Array.from({ length: N }, (_, i) => i + 1));
  }, 240_000);

  it('HubSpot: all 1,000 stored, none twice, none lost (signed batches, each POSTed three times)', async () => {
    const hubspot = h.twin<HubSpotTwin>('crm');
    const sub = await h.json('crm/subscribeEvents', { object_types: ['contacts'], events: ['creation'] });
    expect(sub.status, JSON.stringify(sub.body)).toBe(200);
    const made: number[] = [];
    for (let i = 1; i <= N; i++) {
      const res = await hubspot.fetch('https://api.hubapi.com/crm/v3/objects/contacts', {
        method: 'POST',
        headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}`, 'content-type': 'application/json' },
        body: JSON.stringify({ properties: { email: `burst${i}@example.com` } }),
      });
      expect(res.status).toBe(201);
      made.push(Number(((await res.json()) as { id: string }).id));
    }
    await hubspot.webhooks.idle();
    const events = await everyEvent(h, 'crm', sub.body.data.subscription_id);
    expect(events.map((e) => e.data.objectId)).toEqual(made);
    expect(new Set(events.map((e) => e.vendor_event_id)).size).toBe(N);
  }, 240_000);
});

describe('a burst from the ShareFile twin', () => {
  let h: H;
  beforeAll(async () => {
    h = await eventsHarness({ twins: { filebox: { hookRedeliver: 2 } } });
  });
  afterAll(() => h.close());

  it('ShareFile: 1,000 uploads seen in one write, each POSTed three times: all stored once', async () => {
    const sf = h.twin<ShareFileTwin>('filebox');
    const folder = SHAREFILE_DEMO.folders.oliviaHome;
    const sub = await h.json('filebox/subscribeEvents', { folder_id: folder, events: ['File.Upload'] });
    expect(sub.status, JSON.stringify(sub.body)).toBe(200);
    // 1,000 files arrive at once (as a sync client's upload would); the twin reports them after the next write.
    const model = [...sf.state.items.values()].find((i) => i.kind === 'file')!;
    const ids = Array.from({ length: N }, (_, i) => `fi-burst-${String(i).padStart(4, '0')}`);
    for (const id of ids) sf.state.items.set(id, { ...model, id, name: `${id}.txt`, parentId: folder, streamId: `st-${id}`, deleted: false });
    const touch = await h.json('filebox/createFolder', { parent_id: folder, name: 'after the burst' });
    expect(touch.status, JSON.stringify(touch.body)).toBe(200);
    await sf.webhooks.idle();
    const events = await everyEvent(h, 'filebox', sub.body.data.subscription_id);
    expect(events.map((e) => e.data.Event.Resource.Id)).toEqual(ids);
  }, 240_000);
});

describe('concurrent copies of each delivery on DynamoDB Local: one kept (copies racing from other processes: dedupe.test.ts)', () => {
  let ddb: DynamoDbLocal;
  let h: H;
  beforeAll(async () => {
    ddb = await startDynamoDbLocal({ table: 'events-burst' });
    h = await eventsHarness({ store: new DynamoStore(ddb.client, ddb.table) });
  }, 90_000);
  afterAll(async () => {
    await h?.close();
    await ddb?.stop();
  });

  it('200 deliveries, three copies of each at once: 200 stored, in one sequence without duplicates', async () => {
    const app = await h.tape.fetch('https://api.tapeapp.com/v1/app', {
      method: 'POST',
      headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}`, 'content-type': 'application/json' },
      body: JSON.stringify({ workspace_id: 1, name: 'Race', fields: [{ field_type: 'single_text', config: { label: 'Title' } }] }),
    });
    const { app_id } = (await app.json()) as { app_id: number };
    const sub = await h.json('dbapp/subscribeEvents', { app_id, event_types: ['record.update'] });
    const id = sub.body.data.subscription_id as string;
    const stored = await withoutVendorCheck(h.store, id);
    const url = deliveryUrl(h.rt, stored);
    const post = (n: number) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ hook_id: 1, record_id: 7, revision_id: n, type: 'record.update' }) });
    const answers = await Promise.all(Array.from({ length: 200 }, (_, n) => [post(n), post(n), post(n)]).flat());
    expect(answers.every((r) => r.status === 200)).toBe(true);
    const events = await everyEvent(h, 'dbapp', id);
    expect(events.map((e) => e.data.revision_id).sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, n) => n));
  }, 240_000);
});
