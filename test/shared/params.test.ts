import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { cursor, id, offset, page } from '../../shared/core/params';

describe('param fragments', () => {
  it('id takes positive integers, also as text ("7") or printed ("#7"), and carries its description', () => {
    const s = id('Numeric id of the app (from listApps).');
    for (const ok of [7, '7', '#7']) expect(s.parse(ok)).toBe(7);
    for (const bad of [0, -1, 1.5, '7a', '0', true]) expect(s.safeParse(bad).success).toBe(false);
    expect(z.toJSONSchema(s, { io: 'input' })).toMatchObject({ anyOf: [{ type: 'integer' }, { type: 'string' }], description: 'Numeric id of the app (from listApps).' });
  });

  it('page bounds the size, fills the default and says both', () => {
    const s = page({ default: 30, max: 500, what: 'Items per page' });
    expect(s.parse(undefined)).toBe(30);
    expect(s.parse(500)).toBe(500);
    expect(s.safeParse(501).success).toBe(false);
    expect(s.safeParse(0).success).toBe(false);
    expect(s.description).toBe('Items per page, 1-500 (default 30).');
    expect(page({ default: 50, max: 100 }).description).toBe('Page size, 1-100 (default 50).');
  });

  it('cursor is an optional non-empty string', () => {
    const s = cursor();
    expect(s.parse(undefined)).toBeUndefined();
    expect(s.safeParse('').success).toBe(false);
    expect(cursor('Passed alone.').description).toBe('Passed alone.');
  });

  it('offset defaults to 0 and is bounded where the vendor bounds it', () => {
    expect(offset().parse(undefined)).toBe(0);
    expect(offset().safeParse(-1).success).toBe(false);
    expect(offset({ max: 100 }).safeParse(101).success).toBe(false);
  });
});
