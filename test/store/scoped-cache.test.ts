import { describe, expect, it, vi } from 'vitest';
import { scopedCache, type Store } from '../../shared/core/store';

describe('scopedCache', () => {
  it('treats a failing store as a cache miss and logs it without the value', async () => {
    const broken: Store = {
      get: () => Promise.reject(Object.assign(new Error('Rate exceeded'), { name: 'ProvisionedThroughputExceededException' })),
      put: () => Promise.reject(Object.assign(new Error('Item size has exceeded the maximum allowed size'), { name: 'ValidationException' })),
      increment: () => Promise.reject(new Error('unused')),
    };
    const warn = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      const cache = scopedCache(broken, 'hash');
      await expect(cache.put('catalog', { secret: 'payload' }, 60)).resolves.toBeUndefined();
      await expect(cache.get('catalog')).resolves.toBeUndefined();
      const logged = warn.mock.calls.flat().join('\n');
      expect(logged).toContain('ValidationException');
      expect(logged).toContain('ProvisionedThroughputExceededException');
      expect(logged).not.toContain('payload');
    } finally {
      warn.mockRestore();
    }
  });
});
