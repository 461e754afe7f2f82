import { describe, expect, it } from 'vitest';
import { DEFAULT_RATE_LIMIT, loadConfig, rateLimitFor } from '../../shared/core/config';
import { platforms } from '../../infra/local/platforms';

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

describe('rate limits per platform', () => {
  const declared = Object.fromEntries(platforms.map((p) => [p.name, p.rateLimit]));
  const limitOf = (env: Record<string, string>, platform: string) => rateLimitFor(loadConfig(env), platform, declared[platform]);

  it('defaults to each vendor’s published limit', () => {
    const defaults = Object.fromEntries(platforms.map((p) => [p.name, limitOf({}, p.name)]));
    expect(defaults).toEqual({
      dbapp: { max: 200, windowSeconds: 60 }, // Tape: 2,000 credits a minute, 10 a call
      collab: { max: 1000, windowSeconds: 3600 }, // Podio: 1,000 an hour
      crm: { max: 100, windowSeconds: 10 }, // HubSpot: 100 per 10 s
      filebox: { max: 600, windowSeconds: 60 }, // ShareFile: none published
      realty: { max: 3000, windowSeconds: 60 }, // BatchData: 3,000 a minute
    });
  });

  it('a platform that declares none, and the tool search, get the service default', () => {
    expect(rateLimitFor(loadConfig({}), 'search')).toEqual(DEFAULT_RATE_LIMIT);
    expect(DEFAULT_RATE_LIMIT).toEqual({ max: 600, windowSeconds: 60 });
  });

  it('RATE_LIMIT_MAX / RATE_LIMIT_WINDOW_SECONDS override every platform, each on its own', () => {
    expect(limitOf({ RATE_LIMIT_MAX: '50' }, 'crm')).toEqual({ max: 50, windowSeconds: 10 });
    expect(limitOf({ RATE_LIMIT_MAX: '50' }, 'dbapp')).toEqual({ max: 50, windowSeconds: 60 });
    expect(limitOf({ RATE_LIMIT_WINDOW_SECONDS: '30' }, 'collab')).toEqual({ max: 1000, windowSeconds: 30 });
    expect(rateLimitFor(loadConfig({ RATE_LIMIT_MAX: '7' }), 'search')).toEqual({ max: 7, windowSeconds: 60 });
  });

  it('<PLATFORM>_RATE_LIMIT_MAX / _WINDOW_SECONDS override that platform only, over the global ones', () => {
    const env = { RATE_LIMIT_MAX: '50', CRM_RATE_LIMIT_MAX: '190', DBAPP_RATE_LIMIT_WINDOW_SECONDS: '120' };
    expect(limitOf(env, 'crm')).toEqual({ max: 190, windowSeconds: 10 });
    expect(limitOf(env, 'dbapp')).toEqual({ max: 50, windowSeconds: 120 });
    expect(limitOf(env, 'realty')).toEqual({ max: 50, windowSeconds: 60 });
    // Empty is unset, as for every variable here.
    expect(limitOf({ CRM_RATE_LIMIT_MAX: '', RATE_LIMIT_MAX: '' }, 'crm')).toEqual({ max: 100, windowSeconds: 10 });
  });

  it.each([
    ['RATE_LIMIT_MAX', '0'],
    ['RATE_LIMIT_MAX', 'many'],
    ['RATE_LIMIT_WINDOW_SECONDS', '1.5'],
    ['DBAPP_RATE_LIMIT_MAX', '-3'],
    ['CRM_RATE_LIMIT_WINDOW_SECONDS', '10s'],
  ])('refuses %s=%s at startup, naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(`${name} must be a positive integer, got "${value}"`);
  });
});
