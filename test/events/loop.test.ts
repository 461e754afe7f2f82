import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsHarness } from './helpers';
import { MemoryStore } from '../../shared/store/memory';
import { DynamoStore } from '../../shared/store/dynamodb';
import type { Store } from '../../shared/store';
import { startDynamoDbLocal, type DynamoDbLocal } from '../helpers/dynamodb-local';
import { PODIO_DEMO, type PodioTwin } from '../../infra/twins/podio';
import type { HubSpotTwin } from '../../infra/twins/hubspot';
import { SHAREFILE_DEMO, type ShareFileTwin } from '../../infra/twins/sharefile';
import { SANDBOX_KEYS } from '../helpers/harness';

type H = Awaited<ReturnType<typeof eventsHarness>>;

/** Per platform: what to watch, a change through a tool, the wait for the twin's POSTs, what must arrive. */
interface Case {
  platform: string;
  watch: Record<string, unknown>;
  change(h: H): Promise<{ type: string; id: number | string }>;
  idle(h: H): Promise<void>;
  /** The id of the changed object in the stored event's data. */
  idOf(data: Record<string, any>): number | string;
  /** The vendor webhooks behind a subscription, from the twin. */
  vendorHooks(h: H): Promise<number>;
}

const cases: Case[] = [
  {
    platform: 'dbapp',
    watch: { app_id: 1, event_types: ['record.create', 'record.update'] },
    async change(h) {
      const r = await h.json('dbapp/createRecord', { app_id: 1, fields: { title: 'Launch' } });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return { type: 'record.create', id: r.body.data.record_id };
    },
    idle: (h) => h.tape.deliveries.idle(),
    idOf: (d) => d.record_id,
    vendorHooks: async (h) => [...h.tape.deliveries.hooks.values()].filter((w) => w.app_id === 1).length,
  },
  {
    platform: 'collab',
    watch: { ref_type: 'app', ref_id: PODIO_DEMO.apps.companies, event_types: ['item.create', 'item.update'] },
    async change(h) {
      const r = await h.json('collab/createItem', { app_id: PODIO_DEMO.apps.companies, fields: { [PODIO_DEMO.fields.companies.name]: 'Kestrel Labs' } });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return { type: 'item.create', id: r.body.data.item_id };
    },
    idle: (h) => h.twin<PodioTwin>('collab').hooks.idle(),
    idOf: (d) => d.item_id,
    vendorHooks: async (h) => [...h.twin<PodioTwin>('collab').state.hooks.values()].filter((x) => x.ref_id === PODIO_DEMO.apps.companies).length,
  },
  {
    platform: 'crm',
    watch: { object_types: ['deals'], events: ['creation', 'propertyChange'], properties: ['dealstage'] },
    async change(h) {
      const r = await h.json('crm/createDeal', { values: { dealname: 'Inbox deal', amount: '1200' } });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return { type: 'deal.creation', id: Number(r.body.data.id) };
    },
    idle: (h) => h.twin<HubSpotTwin>('crm').webhooks.idle(),
    idOf: (d) => d.objectId,
    vendorHooks: async (h) => h.twin<HubSpotTwin>('crm').webhooks.subscriptions.size,
  },
  {
    platform: 'filebox',
    watch: { folder_id: SHAREFILE_DEMO.folders.oliviaHome, events: ['File.Upload'] },
    async change(h) {
      uploads++;
      const r = await h.json('filebox/uploadFile', { folder_id: SHAREFILE_DEMO.folders.oliviaHome, content_base64: 'SGVsbG8=', file_name: `inbox-${uploads}.txt` });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return { type: 'File.Upload', id: r.body.data.item.Id };
    },
    idle: (h) => h.twin<ShareFileTwin>('filebox').webhooks.idle(),
    idOf: (d) => d.Event.Resource.Id,
    vendorHooks: async (h) => h.twin<ShareFileTwin>('filebox').webhooks.subscriptions.size,
  },
];
let uploads = 0;

/** The loop on one store, every platform. */
function loop(storeName: string, makeStore: () => Store) {
  describe.each(cases)(`${storeName}: %s`, (c) => {
    let h: H;
    beforeAll(async () => {
      h = await eventsHarness({ store: makeStore() });
      if (c.platform === 'dbapp') {
        const res = await h.tape.fetch('https://api.tapeapp.com/v1/app', {
          method: 'POST',
          headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}`, 'content-type': 'application/json' },
          body: JSON.stringify({ workspace_id: 1, name: 'Projects', fields: [{ field_type: 'single_text', config: { label: 'Title' } }] }),
        });
        expect(res.status).toBe(200);
      }
    });
    afterAll(() => h?.close());

    it('subscribe → a change → listEvents → ackEvents → gone; delete removes the vendor webhooks', async () => {
      const sub = await h.json(`${c.platform}/subscribeEvents`, c.watch);
      expect(sub.status, JSON.stringify(sub.body)).toBe(200);
      expect(sub.body.data.status).toBe('active');
      const id = sub.body.data.subscription_id as string;
      expect(await c.vendorHooks(h)).toBeGreaterThan(0);

      const changed = await c.change(h);
      await c.idle(h);
      const listed = await h.json(`${c.platform}/listEvents`, { subscription_id: id });
      expect(listed.status, JSON.stringify(listed.body)).toBe(200);
      const events = listed.body.data.events as { id: string; type: string; data: Record<string, any> }[];
      expect(events.map((e) => [e.type, c.idOf(e.data)])).toContainEqual([changed.type, changed.id]);

      const all = await h.json(`${c.platform}/listEvents`, {});
      expect(all.body.data.events.map((e: any) => e.id)).toEqual(events.map((e) => e.id));
      const ack = await h.json(`${c.platform}/ackEvents`, { up_to_cursor: listed.body.data.next_cursor });
      expect(ack.body.data.acknowledged).toBe(events.length);
      expect((await h.json(`${c.platform}/listEvents`, { subscription_id: id })).body.data.events).toEqual([]);
      expect((await h.json(`${c.platform}/getSubscription`, { subscription_id: id })).body.data.unacknowledged).toBe(0);

      // A second change after the acknowledgement is listed alone.
      const again = await c.change(h);
      await c.idle(h);
      const next = await h.json(`${c.platform}/listEvents`, { subscription_id: id });
      expect(next.body.data.events.map((e: any) => c.idOf(e.data))).toContain(again.id);
      expect(next.body.data.events.map((e: any) => c.idOf(e.data))).not.toContain(changed.id);
      const byId = await h.json(`${c.platform}/ackEvents`, { event_ids: next.body.data.events.map((e: any) => e.id) });
      expect(byId.body.data.acknowledged).toBe(next.body.data.events.length);
      expect((await h.json(`${c.platform}/listEvents`, { subscription_id: id })).body.data.events).toEqual([]);

      const mine = await h.json(`${c.platform}/listSubscriptions`, {});
      expect(mine.body.data.subscriptions.map((s: any) => s.subscription_id)).toEqual([id]);
      const other = await h.call(`${c.platform}/listSubscriptions`, {}, { key: SANDBOX_KEYS.member, query: 'format=json' });
      expect(other.body.data.subscriptions).toEqual([]);
      expect((await h.call(`${c.platform}/listEvents`, { subscription_id: id }, { key: SANDBOX_KEYS.member })).status).toBe(404);

      expect((await h.json(`${c.platform}/deleteSubscription`, { subscription_id: id })).body.data.deleted).toBe(true);
      expect(await c.vendorHooks(h)).toBe(0);
      expect((await h.json(`${c.platform}/listSubscriptions`, {})).body.data.subscriptions).toEqual([]);
    });
  });
}

loop('memory store', () => new MemoryStore());

let ddb: DynamoDbLocal | undefined;
beforeAll(async () => {
  ddb = await startDynamoDbLocal({ table: 'events-loop' });
}, 90_000);
afterAll(() => ddb?.stop());
loop('DynamoDB Local', () => new DynamoStore(ddb!.client, ddb!.table));
