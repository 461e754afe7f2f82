import { describe, expect, it } from 'vitest';
import { measureRealtyTokens } from '../bench/realty';

describe('realty: searchProperties text against BatchData raw JSON', () => {
  it('is at least 10× fewer tokens for 50 properties and shows every field a user filters on', async () => {
    const t = await measureRealtyTokens();
    expect(t.properties).toBe(50);
    expect(t.missing).toEqual([]);
    expect(t.ratio).toBeGreaterThanOrEqual(10);
  });
});
