import { describe, expect, it } from 'vitest';
import { harness } from '../helpers/harness';
import { duplicateKeyPath, MAX_ITEMS, MAX_TEXT, parseInput } from '../../shared/core/validate';
import { nestedTooDeep } from '../../shared/core/json-body';
import { fileEntryInput } from '../../shared/files/entries';
import { localServer } from '../identity/helpers';

/** Each a failure the fuzz suite (test/fuzz/tools-*.test.ts) found, pinned by a focused case. */
describe('found by the fuzz suite', () => {
  it.each(['constructor', 'prototype'])('refuses a "%s" key inside fields by name, before any vendor call', async (key) => {
    const h = await harness();
    const seen = h.recordRequests('dbapp');
    // Was: the key passed validation as a field name and the tool fetched the app to check it.
    const r = await h.call('dbapp/updateRecord', undefined, { raw: `{"record_id": 1, "fields": {"name": "Acme", "${key}": 1}}` });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: `fields.${key}`, expected: `no "${key}" key` } });
    expect(seen).toEqual([]);
  });

  it('refuses reserved keys at any depth of a free-form value', async () => {
    const h = await harness();
    const seen = h.recordRequests('dbapp');
    const r = await h.call('dbapp/createRecord', undefined, { raw: '{"app_id": 1, "fields": {"notes": {"prototype": 1}}}' });
    expect(r.body.error.details.parameter).toBe('fields.notes.prototype');
    expect(seen).toEqual([]);
  });

  it('refuses a key with a control character, naming it', async () => {
    const h = await harness();
    const seen = h.recordRequests('crm');
    const r = await h.call('crm/createDeal', { values: { 'deal\u0000name': 'x' } });
    expect(r.status).toBe(400);
    expect(r.body.error.details).toMatchObject({ parameter: 'values.deal\u0000name', expected: 'keys without control characters or unpaired surrogates' });
    expect(seen).toEqual([]);
  });

  it(`refuses text over ${MAX_TEXT} characters where the schema sets no bound, without echoing it`, async () => {
    const h = await harness();
    const seen = h.recordRequests('crm');
    // Was: a 1 MB property value was sent to the vendor.
    const r = await h.call('crm/createDeal', { values: { dealname: 'x'.repeat(1 << 20) } });
    expect(r.status).toBe(400);
    expect(r.body.error.details).toMatchObject({ parameter: 'values.dealname', expected: `at most ${MAX_TEXT} characters` });
    expect(r.text.length).toBeLessThan(2_000);
    expect(seen).toEqual([]);
  });

  it('lets a schema\'s own larger bound stand: base64 file content up to its max', () => {
    const content = 'QUJD'.repeat(50_000); // 200,000 characters
    expect(parseInput(fileEntryInput, { filename: 'a.txt', content })).toMatchObject({ filename: 'a.txt' });
    // collab's content had no bound: a 1 MB value was sent to the vendor; now capped at 8,000,000 like filebox's.
    expect(() => parseInput(fileEntryInput, { filename: 'a.txt', content: 'A'.repeat(8_000_004) })).toThrow(/at most 8000000/);
  });

  it(`refuses a list over ${MAX_ITEMS} items where the schema sets no bound`, async () => {
    const h = await harness();
    const seen = h.recordRequests('dbapp');
    // Was: 100,000 field ids went to the vendor.
    const r = await h.call('dbapp/getRecord', { record_id: 1, field_ids: Array.from({ length: 100_000 }, (_, i) => i + 1) });
    expect(r.status).toBe(400);
    expect(r.body.error.details).toMatchObject({ parameter: 'field_ids', expected: `at most ${MAX_ITEMS} items` });
    expect(seen).toEqual([]);
  });

  it('refuses a body with a key given twice, naming it (JSON.parse would keep the last one silently)', async () => {
    const h = await harness();
    const seen = h.recordRequests('dbapp');
    const r = await h.call('dbapp/getWorkspace', undefined, { raw: '{"workspace_id": 1, "workspace_id": 2}' });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'workspace_id', expected: 'each key once per object' } });
    expect(seen).toEqual([]);
  });

  it('finds duplicate keys at any depth, written with escapes or not, and nothing else', () => {
    expect(duplicateKeyPath('{"a": 1, "b": {"c": [1, {"d": 1, "\\u0064": 2}]}}')).toEqual(['b', 'c', '1', 'd']);
    expect(duplicateKeyPath('{"a": "x\\"", "b": ["a", "a"], "c": {"a": 1}, "d": [{"a": 1}, {"a": 2}]}')).toBeUndefined();
    expect(duplicateKeyPath('{"a": {"k": 1}, "a": 2}')).toEqual(['a']);
    expect(duplicateKeyPath(`{"deep": ${'['.repeat(10_000)}${']'.repeat(10_000)}, "deep": 1}`)).toEqual(['deep']);
  });

  it('reads the depth past strings whatever their escapes: brackets inside a string never count, a backslash run closes it or not by its length', () => {
    // Keys and values: "a\\" ends after an even run of backslashes; "x\"[[[" holds an escaped quote and brackets; "b\\\"x" an odd run before a quote that does not close it.
    const deep = '{"a\\\\": "x\\"[[[", "b\\\\\\"x": 1, "c": [[1]]}';
    const flat = '{"a\\\\": "x\\"[[[", "b\\\\\\"x": "]]]", "c": [1]}';
    expect(Object.keys(JSON.parse(deep) as object)).toEqual(['a\\', 'b\\"x', 'c']);
    expect(nestedTooDeep(deep, 2)).toEqual(['c', '0']);
    expect(nestedTooDeep(flat, 2)).toBeUndefined();
  });

  it.each(['__proto__', 'constructor', 'toString'])('answers an unknown field_type "%s" with the vendor\'s 400, not a 500 (Tape twin looked it up on a plain object)', async (fieldType) => {
    const h = await harness();
    const r = await h.call('dbapp/getAutomationCatalog', { field_type: fieldType });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { upstream_status: 400 } });
  });

  it("an API-key connection's link sent to the OAuth start answers 400, not 500 (test/fuzz/identity.test.ts)", async () => {
    const s = await localServer();
    try {
      const { key } = await s.createKey('t', { platforms: ['dbapp'] });
      const created = await s.api('POST', '/v1/connections', { key, body: { platform: 'dbapp', end_user: 'u', auth: 'api_key' } });
      const res = await fetch(`${created.body.data.connect_url}/authorize`, { redirect: 'manual' });
      expect(res.status).toBe(400);
      // A receiver refusal that is INVALID_PARAMETER names what is wrong.
      const get = await fetch(`${s.base}/v1/events/dbapp/sub_x`);
      expect(((await get.json()) as { error: { details: unknown } }).error.details).toEqual({ reason: 'wrong_method', parameter: '(method)' });
    } finally {
      await s.close();
    }
  });
});
