import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE } from '../shared/errors';

describe('error catalogue', () => {
  it('matches the README "Errors" table, code by code and status by status', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const section = readme.split(/^## Errors$/m)[1]?.split(/^## /m)[0] ?? '';
    const rows = [...section.matchAll(/^\| (\d{3}) \| `([A-Z_]+)` \|/gm)].map((m) => [m[2], Number(m[1])]);
    expect(rows).toEqual(Object.entries(ERROR_CATALOGUE).map(([code, e]) => [code, e.status]));
  });

  it('uses the HTTP statuses of the spec', () => {
    expect(Object.fromEntries(Object.entries(ERROR_CATALOGUE).map(([c, e]) => [c, e.status]))).toEqual({
      INVALID_PARAMETER: 400,
      UNAUTHORIZED: 401,
      FORBIDDEN: 403,
      NOT_FOUND: 404,
      RATE_LIMITED: 429,
      INTERNAL_ERROR: 500,
    });
  });
});
