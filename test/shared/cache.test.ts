import { describe, expect, it, vi } from 'vitest';
import { cached } from '../../shared/core/cache';
import { MemoryStore } from '../../shared/store/memory';
import type { Store } from '../../shared/core/store';

describe('cached', () => {
  it('loads once, then serves the value from the store for the same key hash only', async () => {
    const store = new MemoryStore();
    const load = vi.fn(async () => ({ url: 'https://example.test/org' }));
    expect(await cached({ store, keyHash: 'a' }, 'org_url', 60, load)).toEqual({ url: 'https://example.test/org' });
    expect(await cached({ store, keyHash: 'a' }, 'org_url', 60, load)).toEqual({ url: 'https://example.test/org' });
    expect(load).toHaveBeenCalledTimes(1);
    // Another key never sees what the first one loaded.
    await cached({ store, keyHash: 'b' }, 'org_url', 60, async () => ({ url: 'other' }));
    expect(await cached({ store, keyHash: 'b' }, 'org_url', 60, load)).toEqual({ url: 'other' });
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('loads again once the entry has expired', async () => {
    let now = 1_000_000;
    const store = new MemoryStore(() => now);
    const load = vi.fn(async () => now);
    await cached({ store, keyHash: 'a' }, 'k', 10, load);
    now += 11_000;
    expect(await cached({ store, keyHash: 'a' }, 'k', 10, load)).toBe(now);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('counts a failing store as a miss: the value is loaded and returned', async () => {
    const broken: Store = {
      get: () => Promise.reject(new Error('throttled')),
      put: () => Promise.reject(new Error('too large')),
      increment: () => Promise.reject(new Error('unused')),
    };
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      expect(await cached({ store: broken, keyHash: 'a' }, 'k', 60, async () => 'fresh')).toBe('fresh');
      expect(log).toHaveBeenCalled();
    } finally {
      log.mockRestore();
    }
  });

  it('does not cache a failed load', async () => {
    const store = new MemoryStore();
    await expect(cached({ store, keyHash: 'a' }, 'k', 60, async () => Promise.reject(new Error('vendor down')))).rejects.toThrow('vendor down');
    expect(await cached({ store, keyHash: 'a' }, 'k', 60, async () => 'ok')).toBe('ok');
  });
});
