import { describe, expect, it } from 'vitest';
import { runBatch } from '../../shared/batch';
import { ToolError } from '../../shared/errors';

const tick = (ms = 1) => new Promise((r) => setTimeout(r, ms));

describe('runBatch', () => {
  it('splits into chunks of 50 run one after another', async () => {
    const started: number[][] = [];
    let chunkOfRunning = -1;
    const result = await runBatch(
      Array.from({ length: 120 }, (_, i) => i),
      async (n) => {
        const chunk = Math.floor(n / 50);
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

  it('handles an empty input', async () => {
    expect(await runBatch([], async () => ({}))).toEqual({ total: 0, successful: 0, failed: 0, items: [] });
  });
});
