import { describe, expect, it } from 'vitest';
import { CHUNK_PARALLELISM } from '../../functions/dbapp/records/batch-write';
import { harness } from '../helpers/harness';
import { PODIO_DEMO, type PodioTwin } from '../../infra/twins/podio';

/**
 * End to end, per platform with a batch endpoint (Tape; Podio, ShareFile and HubSpot have no batch
 * tool on one): the chunks of a batch tool overlap — several vendor batch calls in flight at once,
 * never more than the platform's parallelism — while each call carries exactly one chunk and every
 * item keeps its index. Counted by a wrapped fetch, not timed.
 */

const DEALS = 902;
const json = { query: 'format=json' };
const tick = () => new Promise((r) => setTimeout(r, 2));

async function tapeWithCounter() {
  const h = await harness({ env: { RATE_LIMIT_MAX: '100000' }, twin: { credits: 1e9 } });
  const inner = h.rt.fetchFor!.dbapp!;
  const seen = { inFlight: 0, peak: 0, sizes: [] as number[], singles: 0 };
  h.rt.fetchFor!.dbapp = (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const path = new URL(String(input)).pathname;
    const single = init?.method === 'PUT' && /^\/v1\/record\/\d+$/.test(path);
    if (!path.startsWith('/v1/record/app/batch/') && !single) return inner(input, init);
    if (single) seen.singles++;
    else seen.sizes.push((JSON.parse(String(init?.body)) as { inputs: unknown[] }).inputs.length);
    seen.peak = Math.max(seen.peak, ++seen.inFlight);
    try {
      // The vendor takes a moment: what the service sends meanwhile is in flight alongside.
      await tick();
      return await inner(input, init);
    } finally {
      seen.inFlight--;
    }
  }) as typeof fetch;
  return { h, seen };
}

describe('dbapp (Tape batch endpoint): chunks in bounded parallel', () => {
  it(`batchCreateRecords: ${CHUNK_PARALLELISM} batch calls in flight, never more, one chunk each, every item at its index`, async () => {
    const { h, seen } = await tapeWithCounter();
    const inputs = Array.from({ length: 460 }, (_, i) => ({ fields: { deal_name: `Parallel deal ${i}`, stage: ['Discovery'], amount: i } }));
    const r = await h.call('dbapp/batchCreateRecords', { app_id: DEALS, inputs }, json);
    expect(r.status).toBe(200);
    expect(seen.peak).toBe(CHUNK_PARALLELISM);
    expect(seen.sizes.sort((a, b) => b - a)).toEqual([...Array(9).fill(50), 10]);
    const d = r.body.data;
    expect(d).toMatchObject({ total: 460, successful: 460, failed: 0 });
    // Each id is the record made of the input at that index.
    const records = h.tape.state.records;
    d.items.forEach((item: { index: number; record_id: number }, i: number) => {
      expect(item.index).toBe(i);
      expect(JSON.stringify(records.get(item.record_id))).toContain(`Parallel deal ${i}"`);
    });
  });

  it('batchUpdateRecords: chunks overlap the same way', async () => {
    const { h, seen } = await tapeWithCounter();
    const created = await h.call('dbapp/batchCreateRecords', { app_id: DEALS, inputs: Array.from({ length: 220 }, (_, i) => ({ fields: { deal_name: `Deal ${i}`, stage: ['Discovery'], amount: i } })) }, json);
    const ids = (created.body.data.items as { record_id: number }[]).map((i) => i.record_id);
    seen.peak = 0;
    seen.sizes = [];
    const r = await h.call('dbapp/batchUpdateRecords', { app_id: DEALS, updates: ids.map((record_id, i) => ({ record_id, fields: { deal_name: `Renamed ${i}` } })) }, json);
    expect(r.body.data).toMatchObject({ total: 220, successful: 220, failed: 0 });
    expect(seen.peak).toBe(CHUNK_PARALLELISM);
    expect(seen.sizes.sort((a, b) => b - a)).toEqual([50, 50, 50, 50, 20]);
    expect((r.body.data.items as { record_id: number }[]).map((i) => i.record_id)).toEqual(ids);
  });
});

describe('every batch tool: an item the vendor refuses fails alone, at its own index, with its own reason', () => {
  type Item = { index: number; success: boolean; record_id?: number; error?: { code: string; message: string; details?: Record<string, unknown> } };
  const seed = async (h: Awaited<ReturnType<typeof harness>>, n: number) => {
    const created = await h.call('dbapp/batchCreateRecords', { app_id: DEALS, inputs: Array.from({ length: n }, (_, i) => ({ fields: { deal_name: `Deal ${i}`, stage: ['Discovery'], amount: i } })) }, json);
    return (created.body.data.items as { record_id: number }[]).map((i) => i.record_id);
  };

  it('dbapp batchUpdateRecords: one missing id among 10 → 9 updated, that one NOT_FOUND at its index; the re-sends never exceed the batch\'s parallelism', async () => {
    const { h, seen } = await tapeWithCounter();
    const ids = await seed(h, 9);
    const missing = 987_654;
    const updates = [...ids.slice(0, 4), missing, ...ids.slice(4)].map((record_id, i) => ({ record_id, fields: { deal_name: `Renamed ${i}` } }));
    seen.peak = 0;
    const r = await h.call('dbapp/batchUpdateRecords', { app_id: DEALS, updates }, json);
    expect(r.status).toBe(200);
    const d = r.body.data as { successful: number; failed: number; items: Item[] };
    expect(d).toMatchObject({ total: 10, successful: 9, failed: 1 });
    expect(d.items[4]).toMatchObject({ index: 4, success: false, error: { code: 'NOT_FOUND' } });
    expect(d.items[4]!.error!.message).toContain(String(missing));
    d.items.forEach((it, i) => {
      if (i === 4) return;
      expect(it).toMatchObject({ index: i, success: true, record_id: updates[i]!.record_id });
      expect(JSON.stringify(h.tape.state.records.get(updates[i]!.record_id))).toContain(`Renamed ${i}"`);
    });
    expect(seen.peak).toBeLessThanOrEqual(CHUNK_PARALLELISM);
    // Halving, not one call per item: far fewer than 10 re-sends.
    expect(seen.sizes.length - 1 + seen.singles).toBeLessThan(10);
  });

  it('dbapp batchUpdateRecords: a chunk with two bad items (a deleted record, a missing one) — each its own reason, the rest written', async () => {
    const { h } = await tapeWithCounter();
    const ids = await seed(h, 8);
    await h.call('dbapp/deleteRecord', { record_id: ids[2]!, hook: false }, json);
    const updates = [...ids, 876_543].map((record_id, i) => ({ record_id, fields: { amount: 1000 + i } }));
    const r = await h.call('dbapp/batchUpdateRecords', { app_id: DEALS, updates }, json);
    const d = r.body.data as { successful: number; failed: number; items: Item[] };
    expect(d).toMatchObject({ total: 9, successful: 7, failed: 2 });
    const failed = d.items.filter((i) => !i.success);
    expect(failed.map((i) => i.index)).toEqual([2, 8]);
    expect(failed[0]!.error!.message).toContain(String(ids[2]));
    expect(failed[1]!.error!.message).toContain('876543');
    expect(failed[0]!.error!.message).not.toContain('876543');
  });

  it('collab batchDeleteItems (one call per item): two missing items among four each fail with their own NOT_FOUND, the others are done', async () => {
    const h = await harness();
    const deal = PODIO_DEMO.items.firstDeal;
    const gone = [deal + 1, 777_001];
    await h.call('collab/deleteItem', { item_id: gone[0] }, json);
    const r = await h.call('collab/batchDeleteItems', { items: [{ item_id: deal }, { item_id: gone[0] }, { item_id: deal + 2 }, { item_id: gone[1] }] }, json);
    const d = r.body.data as { successful: number; failed: number; items: (Item & { item_id: number })[] };
    expect(d).toMatchObject({ total: 4, successful: 2, failed: 2 });
    expect(d.items.filter((i) => i.success).map((i) => i.index)).toEqual([0, 2]);
    const [a, b] = d.items.filter((i) => !i.success);
    expect(a).toMatchObject({ index: 1, item_id: gone[0], error: { code: 'NOT_FOUND' } });
    expect(b).toMatchObject({ index: 3, item_id: gone[1], error: { code: 'NOT_FOUND' } });
    expect(h.twin<PodioTwin>('collab').state.items.has(deal + 2)).toBe(false);
  });
});
