import { describe, expect, it } from 'vitest';
import { runBatch } from '../../shared/core/batch';
import { chunkSender, coalesce, type ChunkWriter } from '../../shared/core/batch-chunks';
import { invalidParameter, rateLimited, ToolError } from '../../shared/core/errors';

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
      concurrency: 3,
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

  it('when the vendor refuses the batch for one input, re-sends the others in halves: they are written, that one fails with its own reason', async () => {
    const { run, calls } = vendor();
    const result = await run([1, -2, 3]);
    // [1,-2,3] refused → [1,-2] refused, [3] written alone → 1 and -2 alone.
    expect(calls.batch).toEqual([[1, -2, 3], [1, -2]]);
    expect(calls.single.sort()).toEqual([-2, 1, 3]);
    expect(result.items[1]).toMatchObject({ success: false, error: { code: 'INVALID_PARAMETER', message: 'Acme refused -2' } });
    expect(result.items.filter((i) => i.success).map((i) => i.index)).toEqual([0, 2]);
  });

  it('one bad input among 50 costs a handful of re-sends, not 50; two bad inputs each keep their own reason', async () => {
    const one = vendor();
    const inputs = Array.from({ length: 50 }, (_, i) => (i === 37 ? -37 : i + 1));
    const r1 = await one.run(inputs);
    expect(r1.successful).toBe(49);
    expect(r1.items[37]).toMatchObject({ success: false, error: { message: 'Acme refused -37' } });
    const calls = one.calls.batch.length + one.calls.single.length;
    expect(calls).toBeLessThanOrEqual(1 + 2 * Math.ceil(Math.log2(50)));

    const two = vendor();
    const r2 = await two.run([1, -2, 3, 4, 5, 6, -7, 8]);
    expect(r2.items.filter((i) => !i.success).map((i) => [i.index, !i.success && i.error.message])).toEqual([
      [1, 'Acme refused -2'],
      [6, 'Acme refused -7'],
    ]);
    expect(r2.successful).toBe(6);
  });

  it('a refusal both halves repeat word for word is the whole group\'s: every item carries it, no further calls', async () => {
    const { run, calls } = vendor({
      batch: async (group) => {
        calls.batch.push([...group]);
        throw new ToolError('FORBIDDEN', 'Acme: this key may not write rows.');
      },
    });
    const result = await run(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(calls.batch.length).toBe(3);
    expect(result.items.every((i) => !i.success && i.error.code === 'FORBIDDEN')).toBe(true);
  });

  it('re-sends share the batch\'s slots with the chunk calls: never more vendor calls in flight than its concurrency', async () => {
    let inFlight = 0;
    let peak = 0;
    const slow = async <R>(fn: () => R) => {
      peak = Math.max(peak, ++inFlight);
      await new Promise((r) => setTimeout(r, 1));
      inFlight--;
      return fn();
    };
    const writer: ChunkWriter<number> = {
      vendor: 'Acme',
      noun: 'rows',
      unknown: '',
      deadline: Number.POSITIVE_INFINITY,
      concurrency: 3,
      batch: (group) =>
        slow(() => {
          if (group.some((n) => n < 0)) throw invalidParameter('inputs', 'a positive number', 'Acme refused a negative number');
          return group.map((n) => n * 10);
        }),
      single: (n) =>
        slow(() => {
          if (n < 0) throw invalidParameter('inputs', 'a positive number', `Acme refused ${n}`);
          return n * 10;
        }),
    };
    const write = coalesce(chunkSender(writer));
    // Every chunk holds bad inputs, so every chunk splits: many re-sends want to run at once.
    const inputs = Array.from({ length: 60 }, (_, i) => (i % 7 === 3 ? -i : i + 1));
    const result = await runBatch(inputs, async (n, _i, chunk) => ({ id: await write(n, chunk) }), { chunkSize: 10, parallelism: 3 });
    expect(peak).toBe(3);
    expect(result.failed).toBe(inputs.filter((n) => n < 0).length);
    result.items.forEach((it, i) => expect(it.success).toBe(inputs[i]! > 0));
  });

  it('does not re-send when the deadline is too close: the items are NOT_ATTEMPTED, to be resent', async () => {
    const { run, calls } = vendor({ deadline: Date.now() + 1_000, fallbackReserveMs: 3_000 });
    const result = await run([1, -2]);
    expect(calls.single).toEqual([]);
    expect(result.failed).toBe(2);
    expect(result.items[0]).toMatchObject({ success: false, error: { code: 'NOT_ATTEMPTED', details: { refused_with: 'INVALID_PARAMETER' } } });
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
