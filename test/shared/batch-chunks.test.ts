import { describe, expect, it } from 'vitest';
import { runBatch } from '../../shared/batch';
import { chunkSender, coalesce, type ChunkWriter } from '../../shared/batch-chunks';
import { invalidParameter, rateLimited, ToolError } from '../../shared/errors';

/** A vendor batch endpoint that refuses the whole group when one input is negative (one transaction). */
function vendor(overrides: Partial<ChunkWriter<number>> = {}) {
  const calls: { batch: number[][]; single: number[] } = { batch: [], single: [] };
  const writer: ChunkWriter<number> = {
    vendor: 'Acme',
    noun: 'rows',
    unknown: 'Whether these rows were written is unknown.',
    deadline: Number.POSITIVE_INFINITY,
    async batch(group) {
      calls.batch.push([...group]);
      if (group.some((n) => n < 0)) throw invalidParameter('inputs', 'a positive number', 'Acme refused a negative number');
      return group.map((n) => n * 10);
    },
    async single(n) {
      calls.single.push(n);
      if (n < 0) throw invalidParameter('inputs', 'a positive number', `Acme refused ${n}`);
      return n * 10;
    },
    ...overrides,
  };
  const write = coalesce(chunkSender(writer));
  const run = (inputs: number[], chunkSize = 50, parallelism = 1) => runBatch(inputs, async (n, _i, chunk) => ({ id: await write(n, chunk) }), { chunkSize, parallelism });
  return { run, calls };
}

describe('coalesce + chunkSender', () => {
  it('sends the items runBatch starts together as one batch call per chunk, ids in input order', async () => {
    const { run, calls } = vendor();
    const result = await run([1, 2, 3, 4, 5], 2);
    expect(calls.batch).toEqual([[1, 2], [3, 4], [5]]);
    expect(result.items.map((i) => (i.success ? i.id : null))).toEqual([10, 20, 30, 40, 50]);
  });

  it('with several chunks in flight (started in the same pass), still one vendor call per chunk, overlapping', async () => {
    let inFlight = 0;
    let peak = 0;
    const groups: number[][] = [];
    const { run } = vendor({
      async batch(group) {
        groups.push([...group]);
        peak = Math.max(peak, ++inFlight);
        await new Promise((r) => setTimeout(r, 2));
        inFlight--;
        return group.map((n) => n * 10);
      },
    });
    const inputs = Array.from({ length: 23 }, (_, i) => i + 1);
    const result = await run(inputs, 5, 3);
    expect(peak).toBe(3);
    expect(result.items.map((i) => (i.success ? i.id : null))).toEqual(inputs.map((n) => n * 10));
    // Chunks 0-2 start in one pass: each still got its own call of exactly its items.
    expect(groups.sort((a, b) => a[0]! - b[0]!)).toEqual([[1, 2, 3, 4, 5], [6, 7, 8, 9, 10], [11, 12, 13, 14, 15], [16, 17, 18, 19, 20], [21, 22, 23]]);
  });

  it('when the vendor refuses the batch for one input, sends each alone: the others are written, that one fails', async () => {
    const { run, calls } = vendor();
    const result = await run([1, -2, 3]);
    expect(calls.single).toEqual([1, -2, 3]);
    expect(result.items[1]).toMatchObject({ success: false, error: { code: 'INVALID_PARAMETER', message: 'Acme refused -2' } });
    expect(result.successful).toBe(2);
  });

  it('does not fall back to single writes when the deadline is too close', async () => {
    const { run, calls } = vendor({ deadline: Date.now() + 1_000, fallbackReserveMs: 3_000 });
    const result = await run([1, -2]);
    expect(calls.single).toEqual([]);
    expect(result.failed).toBe(2);
  });

  it('gives every item of the chunk a rate limit unchanged', async () => {
    const { run } = vendor({ batch: async () => Promise.reject(rateLimited(30, 'Acme rate limit reached')) });
    const result = await run([1, 2]);
    expect(result.items.every((i) => !i.success && i.error.code === 'RATE_LIMITED' && i.error.details?.retry_after === 30)).toBe(true);
  });

  it('marks the outcome unknown on a vendor failure or an answer that misses inputs, in the vendor\'s words', async () => {
    const failing = vendor({ batch: async () => Promise.reject(new ToolError('INTERNAL_ERROR', 'Acme failed with HTTP 502.')) });
    const r1 = await failing.run([1, 2]);
    expect(r1.items[0]).toMatchObject({ error: { code: 'INTERNAL_ERROR', message: 'Acme failed with HTTP 502. Whether these rows were written is unknown.', details: { outcome: 'unknown' } } });
    const short = vendor({ batch: async (group) => group.slice(1).map((n) => n) });
    const r2 = await short.run([1, 2, 3]);
    expect(r2.items[2]).toMatchObject({ error: { code: 'INTERNAL_ERROR', message: 'Acme answered 2 rows for the 3 inputs of this chunk. Whether these rows were written is unknown.' } });
  });
});
