import { describe, expect, it } from 'vitest';
import { PODIO_DEMO, type PodioTwin } from '../../infra/twins/podio';
import { harness } from '../helpers/harness';

/**
 * Batches under sparse vendor failures: every input index is answered exactly once,
 * every success is a record the vendor really holds, every failure carries a code and a reason,
 * and no vendor write is sent twice.
 */

type Item = { index: number; success: boolean; record_id?: number; item_id?: number; error?: { code: string; message: string; details?: Record<string, unknown> } };
type Batch = { total: number; successful: number; failed: number; items: Item[] };

const N = 300;

function accountsForEveryIndex(d: Batch) {
  expect(d.total).toBe(N);
  expect(d.items.map((i) => i.index)).toEqual(Array.from({ length: N }, (_, i) => i));
  expect(d.successful + d.failed).toBe(N);
  expect(d.items.filter((i) => i.success)).toHaveLength(d.successful);
  for (const f of d.items.filter((i) => !i.success)) {
    expect(f.error?.code).toMatch(/^[A-Z_]+$/);
    expect(f.error?.message.length).toBeGreaterThan(10);
  }
}

describe('batches with injected vendor failures', () => {
  it('collab batchCreateItems: a 503 on every 100th create call fails exactly those items; the rest are in Podio', async () => {
    const h = await harness({ env: { RATE_LIMIT_MAX: '100000' } });
    const twin = h.twin<PodioTwin>('collab');
    const app = PODIO_DEMO.apps.deals;
    const F = PODIO_DEMO.fields.deals;
    const before = twin.state.items.size;
    const route = { method: 'POST', path: new RegExp(`^/item/app/${app}/$`) };
    twin.faults.inject({ ...route, every: 100, fault: { status: 503, body: { error: 'unavailable', error_description: 'Try again later' } } });
    const items = Array.from({ length: N }, (_, i) => ({ fields: { [F.title]: `Fault batch ${i}`, [F.stage]: 'Lead' } }));
    const r = await h.call('collab/batchCreateItems', { app_id: app, items }, { query: 'format=json' });
    expect(r.status).toBe(200);
    const d = r.body.data as Batch;
    accountsForEveryIndex(d);
    // 1 % of the calls failed: three items, each with the vendor's status; a create is never resent.
    expect(d.failed).toBe(3);
    for (const f of d.items.filter((i) => !i.success)) expect(f.error).toMatchObject({ code: 'INTERNAL_ERROR', details: { upstream_status: 503 } });
    expect(twin.requests.find(route)).toHaveLength(N);
    const ids = d.items.filter((i) => i.success).map((i) => i.item_id!);
    expect(new Set(ids).size).toBe(N - 3);
    for (const id of ids) expect(twin.state.items.has(id)).toBe(true);
    expect(twin.state.items.size - before).toBe(N - 3);
  });

  it('dbapp batchCreateRecords: a 503 on every 3rd batch call fails exactly those chunks, as outcome unknown; the rest are in Tape', async () => {
    // Tape takes 50 records per batch call, so 300 records are 6 calls: every 3rd fails (2 chunks of 50).
    const h = await harness({ env: { RATE_LIMIT_MAX: '100000' } });
    const twin = h.tape;
    const DEALS = 902;
    const count = () => [...twin.state.records.values()].filter((rec) => rec.app_id === DEALS).length;
    const before = count();
    const route = { method: 'POST', path: new RegExp(`^/v1/record/app/batch/${DEALS}$`) };
    twin.faults.inject({ ...route, every: 3, fault: { status: 503, body: { error_code: 'service_unavailable', error_message: 'Try again later' } } });
    const inputs = Array.from({ length: N }, (_, i) => ({ fields: { deal_name: `Fault batch ${i}`, stage: ['Discovery'], amount: i } }));
    const r = await h.call('dbapp/batchCreateRecords', { app_id: DEALS, inputs }, { query: 'format=json' });
    expect(r.status).toBe(200);
    const d = r.body.data as Batch;
    accountsForEveryIndex(d);
    expect(d.failed).toBe(100);
    for (const f of d.items.filter((i) => !i.success)) {
      expect(f.error).toMatchObject({ code: 'INTERNAL_ERROR', details: { upstream_status: 503, outcome: 'unknown' } });
      expect(f.error!.message).toContain('check with listRecords');
    }
    // Failed items fail by whole chunks (the vendor runs a batch as one transaction).
    const failedChunks = new Set(d.items.filter((i) => !i.success).map((i) => Math.floor(i.index / 50)));
    expect(failedChunks.size).toBe(2);
    expect(twin.requests.find(route)).toHaveLength(N / 50);
    const ids = d.items.filter((i) => i.success).map((i) => i.record_id!);
    expect(new Set(ids).size).toBe(N - 100);
    for (const id of ids) expect(twin.state.records.get(id)?.app_id).toBe(DEALS);
    expect(count() - before).toBe(N - 100);
  });
});
