import { describe, expect, it } from 'vitest';
import { harness } from '../helpers/harness';
import { localPlatforms } from '../../infra/local/platforms';

/**
 * Every read tool of every platform, called through HTTP with its own example input against its
 * twin: no answer is refused as a vendor-contract breach (details.reason "vendor_contract"), so the
 * zod contracts the clients check vendor answers against (shared/vendor/vendor-contract.ts) fit what the
 * twins answer. Most of the examples name demo data the twins hold, so calls succeed and the
 * contracts of their answers are really exercised (counted below).
 */
const UNLIMITED = { credits: 1e12, rateLimit: { limit: 1e12, windowMs: 60_000 } };

describe('vendor contracts fit the twins: every read tool with its example input', () => {
  for (const lp of localPlatforms) {
    const platform = lp.platform.name;
    it(`${platform}: no read tool answers vendor_contract`, async () => {
      const h = await harness({ env: { RATE_LIMIT_MAX: '1000000000' }, twins: { [platform]: UNLIMITED } });
      const breaches: string[] = [];
      const outcomes: Record<string, string> = {};
      for (const name of Object.keys(lp.platform.tools)) {
        const { tool } = (await h.rt.registry.find(platform, name))!;
        if (!tool.annotations.readOnly) continue;
        const r = await h.call(`${platform}/${name}`, tool.example.input, { query: 'format=json' });
        outcomes[name] = r.body.success ? 'ok' : String(r.body.error?.code);
        if (r.body.error?.details?.reason === 'vendor_contract') breaches.push(`${name}: ${r.body.error.message}`);
      }
      expect(breaches).toEqual([]);
      const read = Object.keys(outcomes).length;
      const ok = Object.values(outcomes).filter((o) => o === 'ok').length;
      expect(read).toBeGreaterThan(0);
      // The walk reads real answers, not only NOT_FOUNDs: examples find their demo data.
      expect(ok, JSON.stringify(outcomes)).toBeGreaterThanOrEqual(Math.ceil(read / 3));
    }, 120_000);
  }
});
