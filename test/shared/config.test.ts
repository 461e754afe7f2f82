import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../shared/config';

describe('loadConfig base URLs', () => {
  it('reads <PLATFORM>_BASE_URL for any platform, with no list to keep', () => {
    const c = loadConfig({ DBAPP_BASE_URL: 'http://127.0.0.1:9001', COLLAB_BASE_URL: 'http://127.0.0.1:9002', CRM_BASE_URL: '' });
    expect(c.baseUrls).toEqual({ dbapp: 'http://127.0.0.1:9001', collab: 'http://127.0.0.1:9002' });
  });

  it('has none when nothing is set: every platform talks to its real vendor', () => {
    expect(loadConfig({}).baseUrls).toEqual({});
  });
});

describe('loadConfig rate-limit store policy', () => {
  it('fails open unless RATE_LIMIT_ON_STORE_ERROR=closed, and refuses anything else', () => {
    expect(loadConfig({}).rateLimit.onStoreError).toBe('open');
    expect(loadConfig({ RATE_LIMIT_ON_STORE_ERROR: 'closed' }).rateLimit.onStoreError).toBe('closed');
    expect(() => loadConfig({ RATE_LIMIT_ON_STORE_ERROR: 'maybe' })).toThrow(/must be "open" or "closed"/);
  });
});
