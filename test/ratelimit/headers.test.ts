import { describe, expect, it } from 'vitest';
import { DEFAULT_RATE_LIMIT } from '../../shared/core/config';
import { MAX_BODY_BYTES } from '../../shared/http/app';
import { harness } from '../helpers/harness';
import { platformCases } from '../helpers/platforms';

/**
 * RateLimit-* on every answer that has a key on a known platform, with the platform's own default
 * limit (RATE_LIMIT_MAX: '' lifts the harness's generous override).
 */
describe.each(platformCases)('RateLimit-* on $name', (c) => {
  const limit = c.platform.rateLimit!;
  const auth = { authorization: `Bearer ${c.keys.owner}` };

  it('a tool answer, a refused body, a bad format, a body over 6 MB, an unknown tool and the listings all carry them, each counted', async () => {
    const h = await harness({ env: { RATE_LIMIT_MAX: '' } });
    const answers = [
      await h.call(`${c.name}/${c.probe.tool}`, c.probe.params),
      await h.call(`${c.name}/${c.probe.tool}`, undefined, { raw: '{not json' }),
      await h.call(`${c.name}/${c.probe.tool}`, c.probe.params, { query: 'format=xml' }),
      await h.call(`${c.name}/${c.probe.tool}`, undefined, { raw: JSON.stringify({ content: 'x'.repeat(MAX_BODY_BYTES) }) }),
      await h.call(`${c.name}/noSuchTool`),
      await h.app.request(`/v1/tools/${c.name}`, { headers: auth }),
      await h.app.request(`/v1/tools/${c.name}?read_only=true`, { headers: auth }),
      await h.app.request(`/v1/tools/search?query=list&platform=${c.name}`, { headers: auth }),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 400, 400, 400, 404, 200, 200, 200]);
    answers.forEach((a, i) => {
      expect(a.headers.get('ratelimit-limit'), `answer ${i}`).toBe(String(limit.max));
      expect(a.headers.get('ratelimit-remaining'), `answer ${i}`).toBe(String(limit.max - 1 - i));
      expect(a.headers.get('ratelimit-reset'), `answer ${i}`).toBe(String(limit.windowSeconds));
    });
  });

  it('an answer without a key has none: there is nothing to count', async () => {
    const h = await harness({ env: { RATE_LIMIT_MAX: '' } });
    const r = await h.call(`${c.name}/${c.probe.tool}`, c.probe.params, { key: null });
    expect(r.status).toBe(401);
    expect(r.headers.get('ratelimit-limit')).toBeNull();
  });
});

describe('tool search across platforms', () => {
  it('is counted on its own, with the service default', async () => {
    const h = await harness({ env: { RATE_LIMIT_MAX: '' } });
    const r = await h.app.request('/v1/tools/search?query=list', { headers: { authorization: `Bearer ${platformCases[0]!.keys.owner}` } });
    expect(r.status).toBe(200);
    expect(r.headers.get('ratelimit-limit')).toBe(String(DEFAULT_RATE_LIMIT.max));
  });
});
