import { describe, expect, it } from 'vitest';
import { CHUNK_PARALLELISM } from '../../functions/dbapp/records/batch-write';
import { harness } from '../helpers/harness';

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
  const seen = { inFlight: 0, peak: 0, sizes: [] as number[] };
  h.rt.fetchFor!.dbapp = (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    if (!new URL(String(input)).pathname.startsWith('/v1/record/app/batch/')) return inner(input, init);
    seen.sizes.push((JSON.parse(String(init?.body)) as { inputs: unknown[] }).inputs.length);
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
