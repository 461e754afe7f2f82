import { describe, expect, it } from 'vitest';
import { batchProgress, batchText, isRateLimited, ranges, runBatch, type BatchProgress } from '../../shared/core/batch';
import { rateLimited } from '../../shared/core/errors';
import { ToolError } from '../../shared/core/errors';

/** Lets the event loop turn `n` times: items interleave by counted turns, not by wall-clock waits. */
const tick = async (n = 1) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

describe('runBatch', () => {
  it('splits into chunks of 50 run one after another by default', async () => {
    const started: number[][] = [];
    let chunkOfRunning = -1;
    const result = await runBatch(
      Array.from({ length: 120 }, (_, i) => i),
      async (n, _index, chunk) => {
        expect(chunk).toBe(Math.floor(n / 50));
        // A chunk never starts while an earlier one still runs.
        expect(chunk).toBeGreaterThanOrEqual(chunkOfRunning);
        chunkOfRunning = chunk;
        (started[chunk] ??= []).push(n);
        await tick();
        return { value: n * 2 };
      },
    );
    expect(started.map((c) => c.length)).toEqual([50, 50, 20]);
    expect(result).toMatchObject({ total: 120, successful: 120, failed: 0 });
    expect(result.items[119]).toEqual({ index: 119, success: true, value: 238 });
  });

  it('runs up to `parallelism` chunks at once, never more, each item in its own place', async () => {
    const running = new Map<number, number>();
    let peakChunks = 0;
    let peakItems = 0;
    let items = 0;
    const chunksSeen = new Set<number>();
    const result = await runBatch(
      Array.from({ length: 530 }, (_, i) => i),
      async (n, index, chunk) => {
        expect(index).toBe(n);
        chunksSeen.add(chunk);
        running.set(chunk, (running.get(chunk) ?? 0) + 1);
        peakChunks = Math.max(peakChunks, running.size);
        peakItems = Math.max(peakItems, ++items);
        // Later items finish first: results still land at their index.
        await tick(1 + ((529 - n) % 3));
        items--;
        const left = running.get(chunk)! - 1;
        if (left === 0) running.delete(chunk);
        else running.set(chunk, left);
        return { value: n };
      },
      { chunkSize: 50, parallelism: 3 },
    );
    expect(peakChunks).toBe(3);
    expect(peakItems).toBeLessThanOrEqual(150);
    expect(chunksSeen.size).toBe(11);
    expect(result).toMatchObject({ total: 530, successful: 530, failed: 0 });
    expect(result.items.map((i) => (i.success ? i.value : -1))).toEqual(Array.from({ length: 530 }, (_, i) => i));
    expect(result.items.every((item, i) => item.index === i)).toBe(true);
  });

  it('with chunks in flight, items not started before the deadline are NOT_ATTEMPTED', async () => {
    let clock = 0;
    const sent: number[] = [];
    const result = await runBatch(
      Array.from({ length: 300 }, (_, i) => i),
      async (n) => {
        sent.push(n);
        // The budget runs out while chunk 2 (items 100-149) runs; chunk 3 was not started yet.
        if (n === 149) clock = 10_000;
        await tick();
        return { n };
      },
      { deadline: 5000, reserveMs: 1000, now: () => clock, parallelism: 2 },
    );
    expect(sent.sort((a, b) => a - b)).toEqual(Array.from({ length: 150 }, (_, i) => i));
    expect(result).toMatchObject({ total: 300, successful: 150, failed: 150 });
    for (const i of [150, 250, 299]) expect(result.items[i]).toMatchObject({ index: i, success: false, error: { code: 'NOT_ATTEMPTED' } });
    expect(result.items.every((item, i) => item.index === i)).toBe(true);
  });

  it('with chunks in flight, stopOn starts no new chunk and no new item: the rest are NOT_ATTEMPTED', async () => {
    const sent: number[] = [];
    let item2Failed!: () => void;
    const failed = new Promise<void>((r) => (item2Failed = r));
    const result = await runBatch(
      Array.from({ length: 20 }, (_, i) => i),
      async (n) => {
        sent.push(n);
        if (n === 2) {
          item2Failed();
          throw rateLimited(60, 'slow down');
        }
        // The other items of chunks 0 and 1 are still running when item 2 fails: they end a turn after it.
        await failed;
        await tick();
        return {};
      },
      { chunkSize: 4, parallelism: 2, stopOn: isRateLimited },
    );
    // Chunks 0 and 1 were in flight when item 2 failed; nothing after them was started.
    expect(sent.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(result.items[2]).toMatchObject({ success: false, error: { code: 'RATE_LIMITED' } });
    for (let i = 8; i < 20; i++) expect(result.items[i]).toMatchObject({ index: i, success: false, error: { code: 'NOT_ATTEMPTED', details: { stopped_by: 2, retry_after: 60 } } });
    expect(result).toMatchObject({ total: 20, successful: 7, failed: 13 });
  });

  it('runs the items of a chunk in parallel, up to the bound', async () => {
    let running = 0;
    let peak = 0;
    await runBatch(
      Array.from({ length: 50 }, (_, i) => i),
      async () => {
        peak = Math.max(peak, ++running);
        await tick(5);
        running--;
        return {};
      },
      { concurrency: 8 },
    );
    expect(peak).toBe(8);

    peak = 0;
    await runBatch(Array.from({ length: 30 }, (_, i) => i), async () => {
      peak = Math.max(peak, ++running);
      await tick(5);
      running--;
      return {};
    });
    expect(peak).toBe(30);
  });

  it('reports each failure on its own item, in input order, and goes on', async () => {
    const result = await runBatch([1, 2, 3, 4], async (n) => {
      if (n === 2) throw new ToolError('INVALID_PARAMETER', 'bad two', { parameter: 'fields.x', expected: 'number' });
      if (n === 3) throw new Error('socket hang up');
      return { id: n };
    });
    expect(result).toMatchObject({ total: 4, successful: 2, failed: 2 });
    expect(result.items.map((i) => i.index)).toEqual([0, 1, 2, 3]);
    expect(result.items[1]).toEqual({
      index: 1,
      success: false,
      error: { code: 'INVALID_PARAMETER', message: 'bad two', details: { parameter: 'fields.x', expected: 'number' } },
    });
    // Unexpected errors keep their cause out of the answer.
    expect(result.items[2]).toMatchObject({ success: false, error: { code: 'INTERNAL_ERROR' } });
    expect(JSON.stringify(result.items[2])).not.toContain('socket');
  });

  it('reports items not started before the deadline as NOT_ATTEMPTED, never losing one', async () => {
    let clock = 0;
    const sent: number[] = [];
    const result = await runBatch(
      Array.from({ length: 120 }, (_, i) => i),
      async (n) => {
        sent.push(n);
        clock += 100; // each item takes 100 "ms" of budget
        return { n };
      },
      { deadline: 6000, reserveMs: 1000, now: () => clock, concurrency: 1 },
    );
    expect(sent.length).toBe(50);
    expect(result.total).toBe(120);
    expect(result.items).toHaveLength(120);
    expect(result.successful + result.failed).toBe(120);
    expect(result.successful).toBe(50);
    expect(result.items[50]).toMatchObject({ index: 50, success: false, error: { code: 'NOT_ATTEMPTED' } });
    expect(result.items.every((item, i) => item.index === i)).toBe(true);
  });

  it('tells its progress once per chunk as chunks end, to the option or else to the call\'s batchProgress listener', async () => {
    const given: BatchProgress[] = [];
    await runBatch(Array.from({ length: 120 }, (_, i) => i), async (n) => ({ n }), { progress: (p) => given.push(p) });
    expect(given).toEqual([
      { chunk: 1, chunks: 3, done: 50, total: 120 },
      { chunk: 2, chunks: 3, done: 100, total: 120 },
      { chunk: 3, chunks: 3, done: 120, total: 120 },
    ]);
    const heard: BatchProgress[] = [];
    await batchProgress.run((p) => heard.push(p), () => runBatch([1, 2, 3], async (n) => ({ n }), { chunkSize: 2, parallelism: 2 }));
    expect(heard.map((p) => p.chunk)).toEqual([1, 2]);
    expect(heard.at(-1)).toEqual({ chunk: 2, chunks: 2, done: 3, total: 3 });
    // Outside a listener's call, nothing is told.
    await runBatch([1], async (n) => ({ n }));
    expect(heard).toHaveLength(2);
  });

  it('handles an empty input', async () => {
    expect(await runBatch([], async () => ({}))).toEqual({ total: 0, successful: 0, failed: 0, items: [] });
  });

  it('with stopOn, a rate-limited item starts nothing new: the rest are NOT_ATTEMPTED with its retry_after', async () => {
    const sent: number[] = [];
    const result = await runBatch(
      Array.from({ length: 10 }, (_, i) => i),
      async (n) => {
        sent.push(n);
        await tick();
        if (n === 3) throw rateLimited(300, 'Vendor rate limit reached');
        return { id: n };
      },
      { concurrency: 2, stopOn: isRateLimited },
    );
    // Items 0-3 were started before 3 failed (2 in flight at a time); 4 may have been running alongside it.
    expect(sent).toEqual([0, 1, 2, 3, 4]);
    expect(result.items[3]).toMatchObject({ success: false, error: { code: 'RATE_LIMITED', details: { retry_after: 300 } } });
    for (const i of [5, 6, 7, 8, 9]) {
      expect(result.items[i]).toMatchObject({ index: i, success: false, error: { code: 'NOT_ATTEMPTED', details: { retry_after: 300, stopped_by: 3 } } });
    }
    expect(result).toMatchObject({ total: 10, successful: 4, failed: 6 });
  });

  it('without stopOn, goes on after a rate-limited item', async () => {
    const result = await runBatch([0, 1, 2], async (n) => {
      if (n === 0) throw rateLimited(10, 'slow down');
      return {};
    }, { concurrency: 1 });
    expect(result.successful).toBe(2);
  });

  it('stopOn also stops the chunks after the one that failed', async () => {
    const result = await runBatch(
      Array.from({ length: 5 }, (_, i) => i),
      async (n) => {
        if (n === 1) throw rateLimited(42, 'slow down');
        return {};
      },
      { chunkSize: 2, stopOn: isRateLimited },
    );
    expect(result.items.map((i) => (i.success ? 'ok' : i.error.code))).toEqual(['ok', 'RATE_LIMITED', 'NOT_ATTEMPTED', 'NOT_ATTEMPTED', 'NOT_ATTEMPTED']);
  });
});

describe('batchText', () => {
  const opts = {
    verb: 'created',
    noun: 'items',
    container: 'app #7',
    param: 'items',
    idLabel: 'item ids',
    id: (i: { item_id: number }) => `#${i.item_id}`,
    link: 'https://x.test/item/<item_id>',
  };

  it('says what was done, the ids by index, each failure, and what to resend', async () => {
    let clock = 0;
    const result = await runBatch(
      [0, 1, 2, 3, 4, 5],
      async (n) => {
        clock += 100;
        if (n === 1) throw new ToolError('INVALID_PARAMETER', 'bad value');
        return { item_id: 100 + n };
      },
      { concurrency: 1, deadline: 1400, reserveMs: 1000, now: () => clock },
    );
    expect(batchText(result, opts)).toBe(
      [
        'created 3 of 6 items in app #7 — 3 failed',
        'item ids by items index: 0→#100, 2→#102, 3→#103',
        'items.1 failed: INVALID_PARAMETER bad value',
        'not sent (the time budget ran out) — resend items 4-5',
        'open one at https://x.test/item/<item_id>',
      ].join('\n'),
    );
  });

  it('names the item that stopped the batch and when to resend the rest', async () => {
    const result = await runBatch([0, 1, 2, 3], async (n) => {
      if (n === 1) throw rateLimited(300, 'Vendor rate limit reached');
      return { item_id: n };
    }, { concurrency: 1, stopOn: isRateLimited });
    const text = batchText(result, { ...opts, link: undefined });
    expect(text).toContain('items.1 failed: RATE_LIMITED Vendor rate limit reached');
    expect(text).toContain('not sent (items.1 stopped the batch) — resend items 2-3 after 300 s');
    expect(text).not.toContain('open one at');
  });

  it('writes index ranges compactly', () => {
    expect(ranges([0, 1, 2, 5, 7, 8])).toBe('0-2, 5, 7-8');
    expect(ranges([])).toBe('');
  });
});
