import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE } from '../shared/core/errors';
import { harness } from './helpers/harness';

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

describe('one answer lists every problem of a request', () => {
  const LEADS = 901;
  const DEALS = 902;

  it('every unknown key, each with its nearest valid name, and every invalid parameter, in details.errors; the first also in details.parameter', async () => {
    const h = await harness();
    const log = h.recordRequests('dbapp');
    const r = await h.call('dbapp/listRecords', { app_idd: LEADS, limt: 5, verbose: 'yes', zzzzzz: 1 });
    expect(r.status).toBe(400);
    const { details, message } = r.body.error;
    expect(details.errors).toEqual([
      expect.objectContaining({ parameter: 'verbose', expected: 'boolean' }),
      expect.objectContaining({ parameter: 'app_idd', message: expect.stringContaining('Did you mean `app_id`?') }),
      expect.objectContaining({ parameter: 'limt', message: expect.stringContaining('Did you mean `limit`?') }),
      expect.objectContaining({ parameter: 'zzzzzz', expected: expect.stringMatching(/^one of the parameters app_id, view_id/) }),
    ]);
    expect(details.errors[3].message).not.toMatch(/Did you mean/);
    expect(details).toMatchObject({ parameter: 'verbose', expected: 'boolean' });
    expect(message).toMatch(/And 3 more problems: app_idd, limt, zzzzzz \(details.errors says each\)/);
    for (const e of details.errors) expect(Object.keys(e).sort()).toEqual(['expected', 'message', 'parameter']);
    expect(log).toEqual([]);
  });

  it('a record with several invalid fields: each field named, nothing sent', async () => {
    const h = await harness();
    const log = h.recordRequests('dbapp');
    const r = await h.call('dbapp/createRecord', { app_id: DEALS, fields: { deal_name: 'X', stage: [1], amount: 'lots', close_date: 'tomorrow', nosuchfield: 1 } });
    expect(r.status).toBe(400);
    expect(r.body.error.details.errors.map((e: { parameter: string }) => e.parameter)).toEqual(['fields.amount', 'fields.close_date', 'fields.nosuchfield']);
    expect(r.body.error.details.parameter).toBe('fields.amount');
    expect(log.filter((x) => x.method !== 'GET')).toEqual([]);
  });

  it('a batch: the invalid fields of every item, capped at 20 with the total count', async () => {
    const h = await harness();
    const inputs = Array.from({ length: 40 }, (_, i) => ({ fields: i % 3 === 0 ? { deal_name: `D${i}`, stage: [1] } : { deal_name: `D${i}`, stage: [1], amount: 'lots' } }));
    const r = await h.call('dbapp/batchCreateRecords', { app_id: DEALS, inputs });
    expect(r.status).toBe(400);
    const { details } = r.body.error;
    expect(details.errors).toHaveLength(20);
    expect(details.errors.slice(0, 3).map((e: { parameter: string }) => e.parameter)).toEqual(['inputs.1.fields.amount', 'inputs.2.fields.amount', 'inputs.4.fields.amount']);
    expect(details.more_errors).toBe(true);
    expect(r.body.error.message).toMatch(/, … \(details.errors says each\)\.$/);
  });
});
