import { describe, expect, it } from 'vitest';
import { eachBounded } from '../../shared/core/pool';

const tick = (ms = 1) => new Promise((r) => setTimeout(r, ms));

describe('eachBounded', () => {
  it('returns the results in input order, with at most `limit` running at once', async () => {
    let running = 0;
    let peak = 0;
    const out = await eachBounded([5, 1, 4, 2, 3, 1, 2], 3, async (n) => {
      peak = Math.max(peak, ++running);
      await tick(n);
      running--;
      return n * 10;
    });
    expect(out).toEqual([50, 10, 40, 20, 30, 10, 20]);
    expect(peak).toBe(3);
  });

  it('starts the first `limit` items in one synchronous pass', () => {
    const started: number[] = [];
    const done = eachBounded([0, 1, 2, 3], 3, async (n) => {
      started.push(n);
      await tick();
    });
    expect(started).toEqual([0, 1, 2]);
    return done;
  });

  it('on the first failure starts nothing new, aborts the signal of the running ones, and throws that failure after they settle', async () => {
    const started: number[] = [];
    let slowSettled = false;
    const err = await eachBounded([0, 1, 2, 3, 4, 5], 2, async (n, _i, signal) => {
      started.push(n);
      if (n === 0) {
        // Settles only once aborted: proves the failure is thrown after it, not before.
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
        slowSettled = true;
        throw new Error('aborted because of item 1');
      }
      await tick();
      throw new Error(`item ${n} failed`);
    }).catch((e: unknown) => e);
    expect((err as Error).message).toBe('item 1 failed');
    expect(slowSettled).toBe(true);
    expect(started).toEqual([0, 1]);
  });

  it('stops new work when the caller\'s signal aborts, throwing its reason', async () => {
    const outer = new AbortController();
    const started: number[] = [];
    const err = await eachBounded([0, 1, 2, 3], 1, async (n) => {
      started.push(n);
      if (n === 1) outer.abort(new Error('call cancelled'));
      return n;
    }, { signal: outer.signal }).catch((e: unknown) => e);
    expect((err as Error).message).toBe('call cancelled');
    expect(started).toEqual([0, 1]);
  });

  it("with afterFailure: 'continue' runs every item after a failure, then throws the first failure", async () => {
    const done: number[] = [];
    let aborted = false;
    const err = await eachBounded([0, 1, 2, 3, 4], 2, async (n, _i, signal) => {
      await tick();
      if (n === 1) throw new Error('item 1 failed');
      if (n === 3) throw new Error('item 3 failed');
      aborted ||= signal.aborted;
      done.push(n);
      return n;
    }, { afterFailure: 'continue' }).catch((e: unknown) => e);
    expect((err as Error).message).toBe('item 1 failed');
    expect(done.sort()).toEqual([0, 2, 4]);
    expect(aborted).toBe(false);
  });

  it('handles no items', async () => {
    expect(await eachBounded([], 4, async () => 1)).toEqual([]);
  });
});
