import { describe, expect, it, vi } from 'vitest';
import { harness, HARNESS_RATE_LIMIT, SANDBOX_KEYS } from '../helpers/harness';
import { platformCases } from '../helpers/platforms';
import type { Store } from '../../shared/store';
import { MemoryStore } from '../../shared/store/memory';

describe('authentication', () => {
  it.each([
    ['missing', null],
    ['not bearer', 'Basic dXNlcjpwYXNz'],
    ['empty bearer', 'Bearer '],
    ['two tokens', 'Bearer abc def'],
    ['bad characters', 'Bearer key"with;quotes'],
  ])('answers 401 UNAUTHORIZED when the header is %s, before anything else runs', async (_case, header) => {
    const h = await harness();
    const seen = platformCases.flatMap((c) => h.recordRequests(c.name)); // nothing may reach any vendor
    const res = await h.app.request('/v1/tools/nosuch/tool?format=xml', {
      method: 'POST',
      headers: header === null ? {} : { authorization: header },
      body: 'not json',
    });
    expect(res.status).toBe(401);
    const body = (await res.json()) as any;
    expect(body).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED' } });
    expect(body.error.message).toMatch(/Authorization/);
    expect(seen).toEqual([]);
  });

  it('passes the key to Tape as its bearer key; Tape rejecting the key is UNAUTHORIZED', async () => {
    const h = await harness();
    const unknown = await h.call('dbapp/listWorkspaces', {}, { key: 'user_key_unknownButWellFormed0001' });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error).toMatchObject({ code: 'UNAUTHORIZED', details: { upstream_status: 401 } });
    // Tape answers a key without the user_key_ prefix with a 400 "Invalid user API key".
    const wrongShape = await h.call('dbapp/listWorkspaces', {}, { key: 'sk_live_123' });
    expect(wrongShape.status).toBe(401);
    expect(wrongShape.body.error.message).toMatch(/user_key_/);
  });
});

describe('routing', () => {
  it('answers NOT_FOUND for an unknown platform or tool, naming what exists', async () => {
    const h = await harness();
    const platform = await h.call('nosuch/listWorkspaces');
    expect(platform.status).toBe(404);
    expect(platform.body.error).toMatchObject({ code: 'NOT_FOUND', details: { platform: 'nosuch' } });
    expect(platform.body.error.message).toContain('dbapp');
    const tool = await h.call('dbapp/listEverything');
    expect(tool.status).toBe(404);
    expect(tool.body.error).toMatchObject({ code: 'NOT_FOUND', details: { platform: 'dbapp', tool: 'listEverything' } });
    // Prototype names are not tools.
    expect((await h.call('dbapp/constructor')).status).toBe(404);
    expect((await h.call('dbapp/__proto__')).status).toBe(404);
  });

  it('answers other routes with the error envelope', async () => {
    const h = await harness();
    const res = await h.app.request('/v1/tools/dbapp/listWorkspaces', { method: 'GET' });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
  });

  it('lists a platform\'s tools with JSON Schemas', async () => {
    const h = await harness();
    const res = await h.app.request('/v1/tools/dbapp', { headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}` } });
    const body = (await res.json()) as any;
    expect(res.status).toBe(200);
    const get = body.data.tools.find((t: { name: string }) => t.name === 'getWorkspace');
    expect(get.input_schema).toMatchObject({ type: 'object', required: ['workspace_id'], properties: { workspace_id: { anyOf: [{ type: 'integer' }, { type: 'string' }] } } });
    expect(get.annotations).toEqual({ readOnly: true, destructive: false, idempotent: true });
    expect((await h.app.request('/v1/tools/dbapp')).status).toBe(401);
  });
});

describe('body and validation', () => {
  it.each([
    ['not JSON', '{"workspace_id": 1', /not valid JSON/],
    ['an array', '[1]', /JSON object/],
    ['null', 'null', /JSON object/],
    ['a string', '"hello"', /JSON object/],
  ])('rejects a body that is %s with INVALID_PARAMETER', async (_case, raw, message) => {
    const h = await harness();
    const seen = h.recordRequests('dbapp'); // invalid input must never reach Tape
    const r = await h.call('dbapp/getWorkspace', undefined, { raw });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: '(body)', expected: 'JSON object' } });
    expect(r.body.error.message).toMatch(message);
    expect(seen).toEqual([]);
  });

  it('takes an empty body as no parameters', async () => {
    const h = await harness();
    const r = await h.call('dbapp/listWorkspaces', undefined, { raw: '' });
    expect(r.body.success).toBe(true);
  });

  it.each([
    [{}, 'workspace_id', 'number', /is required/],
    [{ workspace_id: 'one' }, 'workspace_id', 'a positive integer id: 123, "123" or "#123"', /must be a positive integer id: 123, "123" or "#123", got "one"/],
    [{ workspace_id: true }, 'workspace_id', 'number', /must be a number, got true/],
    [{ workspace_id: 1.5 }, 'workspace_id', 'integer', /must be an integer/],
    [{ workspace_id: -3 }, 'workspace_id', 'number more than 0', /more than 0/],
    [{ workspace_id: 1, workspaceId: 1 }, 'workspaceId', 'one of the parameters workspace_id', /not a parameter/],
  ])('names the parameter and the expected shape for %j, before any upstream call', async (params, parameter, expected, message) => {
    const h = await harness();
    const seen = h.recordRequests('dbapp'); // invalid input must never reach Tape
    const r = await h.call('dbapp/getWorkspace', params);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter, expected } });
    expect(r.body.error.message).toMatch(message);
    expect(r.body.error.message).toContain(`"${parameter}"`);
    expect(seen).toEqual([]);
  });

  it('explains enum values', async () => {
    const h = await harness();
    const r = await h.call('dbapp/createWorkspace', { name: 'X', type: 'secret' });
    expect(r.body.error.details).toEqual({ parameter: 'type', expected: 'one of "private", "open", "default", "closed"' });
    expect(r.body.error.message).toMatch(/invite-only/); // the parameter's description says how to choose
  });
});

describe('envelope', () => {
  it('answers text by default and the structured result with format=json', async () => {
    const h = await harness();
    const text = await h.call('dbapp/getWorkspace', { workspace_id: 2 });
    expect(text.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(text.body).toEqual({ success: true, data: '#2 Contact directory (default, slug contact-directory) — Keep track of our contacts here. · org 1337' });
    const json = await h.call('dbapp/getWorkspace', { workspace_id: 2 }, { query: 'format=json' });
    expect(json.body).toEqual({
      success: true,
      data: { workspace_id: 2, org_id: 1337, name: 'Contact directory', description: 'Keep track of our contacts here.', slug: 'contact-directory', type: 'default' },
    });
    expect((await h.call('dbapp/getWorkspace', { workspace_id: 2 }, { query: 'format=text' })).body).toEqual(text.body);
  });

  it('rejects an unknown format', async () => {
    const h = await harness();
    const r = await h.call('dbapp/listWorkspaces', {}, { query: 'format=xml' });
    expect(r.status).toBe(400);
    expect(r.body.error.details).toEqual({ parameter: 'format', expected: '"json" or "text"' });
  });

  it('encodes the whole envelope in base64 as text/plain with base64=true, errors included', async () => {
    const h = await harness();
    const ok = await h.call('dbapp/getWorkspace', { workspace_id: 1 }, { query: 'format=json&base64=true' });
    expect(ok.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(ok.text).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(ok.body).toMatchObject({ success: true, data: { workspace_id: 1, name: 'Task management' } });
    const err = await h.call('dbapp/getWorkspace', { workspace_id: 999 }, { query: 'base64=true' });
    expect(err.status).toBe(404);
    expect(err.body).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    const unauth = await h.call('dbapp/getWorkspace', {}, { query: 'base64=true', key: null });
    expect(unauth.status).toBe(401);
    expect(unauth.body.error.code).toBe('UNAUTHORIZED');
  });

  it('keeps non-ASCII text intact through base64', async () => {
    const h = await harness();
    await h.call('dbapp/createWorkspace', { name: 'Überblick 📞', type: 'open' });
    const r = await h.call('dbapp/listWorkspaces', {}, { query: 'base64=true' });
    expect(r.body.data).toContain('Überblick 📞');
  });
});

describe('rate limit', () => {
  it('counts per key and platform in a window and answers 429 with Retry-After and RateLimit headers', async () => {
    // A clock that stays at the start of a window: a slow run must not cross into the next one.
    const h = await harness({ env: { RATE_LIMIT_MAX: '2', RATE_LIMIT_WINDOW_SECONDS: '60' }, store: new MemoryStore(() => Date.UTC(2026, 0, 1, 12, 0, 5)) });
    const first = await h.call('dbapp/listWorkspaces');
    expect(first.headers.get('ratelimit-limit')).toBe('2');
    expect(first.headers.get('ratelimit-remaining')).toBe('1');
    const reset = Number(first.headers.get('ratelimit-reset'));
    expect(reset).toBeGreaterThanOrEqual(1);
    expect(reset).toBeLessThanOrEqual(60);
    await h.call('dbapp/listWorkspaces');
    const third = await h.call('dbapp/listWorkspaces');
    expect(third.status).toBe(429);
    expect(third.body.error.code).toBe('RATE_LIMITED');
    expect(third.body.error.details.retry_after).toBeGreaterThanOrEqual(1);
    expect(third.headers.get('retry-after')).toBe(String(third.body.error.details.retry_after));
    expect(third.headers.get('ratelimit-remaining')).toBe('0');
    // Another key has its own budget.
    expect((await h.call('dbapp/listWorkspaces', {}, { key: SANDBOX_KEYS.member })).status).toBe(200);
  });
});

describe('rate-limit headers on every keyed answer of a known platform', () => {
  it('an unknown tool and the tool listing are counted and carry RateLimit-*', async () => {
    const h = await harness({ env: { RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_SECONDS: '60' }, store: new MemoryStore(() => Date.UTC(2026, 0, 1, 12, 0, 5)) });
    const unknown = await h.call('dbapp/noSuchTool');
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('ratelimit-remaining')).toBe('2');
    const list = await h.app.request('/v1/tools/dbapp', { headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}` } });
    expect(list.status).toBe(200);
    expect(list.headers.get('ratelimit-limit')).toBe('3');
    expect(list.headers.get('ratelimit-remaining')).toBe('1');
    await h.call('dbapp/listWorkspaces');
    const over = await h.app.request('/v1/tools/dbapp', { headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}` } });
    expect(over.status).toBe(429);
    expect(((await over.json()) as { error: { code: string } }).error.code).toBe('RATE_LIMITED');
  });
});

describe('store outage', () => {
  // DynamoDB down or credentials missing: every store call fails.
  const down: Store = {
    get: () => Promise.reject(new Error('ECONNREFUSED')),
    put: () => Promise.reject(new Error('ECONNREFUSED')),
    increment: () => Promise.reject(Object.assign(new Error('ECONNREFUSED'), { name: 'NetworkingError' })),
  };

  it('fails open by default: the call goes through uncounted and the failure is logged', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const h = await harness({ store: down });
    const r = await h.call('dbapp/listWorkspaces', {}, { query: 'format=json' });
    expect(r.status).toBe(200);
    expect(r.headers.get('ratelimit-limit')).toBeNull();
    expect(errors.mock.calls.map((c) => String(c[0])).join('\n')).toMatch(/rate-limit store unavailable.*"policy":"open".*NetworkingError/);
    errors.mockRestore();
  });

  it('with RATE_LIMIT_ON_STORE_ERROR=closed the call fails with INTERNAL_ERROR and nothing reaches the vendor', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const h = await harness({ store: down, env: { RATE_LIMIT_ON_STORE_ERROR: 'closed' } });
    const seen = h.recordRequests('dbapp');
    const r = await h.call('dbapp/listWorkspaces');
    expect(r.status).toBe(500);
    expect(r.body.error.code).toBe('INTERNAL_ERROR');
    expect(r.body.error.message).toMatch(/RATE_LIMIT_ON_STORE_ERROR=closed/);
    expect(seen).toEqual([]);
    errors.mockRestore();
  });
});

describe('unexpected errors', () => {
  it('answers INTERNAL_ERROR with a generic message and logs the cause without the key', async () => {
    const h = await harness();
    h.rt.fetchFor!.dbapp = (async () => {
      throw new TypeError('boom inside fetch');
    }) as unknown as typeof fetch;
    // A thrown fetch is a network failure: retried for GET, then INTERNAL_ERROR.
    const r = await h.call('dbapp/listWorkspaces');
    expect(r.status).toBe(500);
    expect(r.body.error).toMatchObject({ code: 'INTERNAL_ERROR', details: { reason: 'network' } });

    const tool = (await h.rt.registry.find('dbapp', 'listWorkspaces'))!.tool;
    const run = tool.run;
    tool.run = async () => {
      throw new Error('bug in a tool');
    };
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const bug = await h.call('dbapp/listWorkspaces');
      expect(bug.status).toBe(500);
      expect(bug.body.error.message).not.toContain('bug in a tool');
      const logged = spy.mock.calls.flat().join('\n');
      expect(logged).toContain('bug in a tool');
      expect(logged).not.toContain(SANDBOX_KEYS.owner);
    } finally {
      tool.run = run;
      spy.mockRestore();
    }
  });
});

/** The protocol as every platform serves it, checked with each platform's read-only probe. */
describe.each(platformCases)('protocol on $name', (c) => {
  const path = `${c.name}/${c.probe.tool}`;

  it('answers the probe in text, JSON and base64, with rate-limit headers', async () => {
    const h = await harness();
    const text = await h.call(path, c.probe.params);
    expect(text.status).toBe(200);
    expect(text.body.data).toMatch(c.answer.text);
    expect(text.headers.get('ratelimit-limit')).toBe(HARNESS_RATE_LIMIT);
    const json = await h.call(path, c.probe.params, { query: 'format=json' });
    expect(json.body).toMatchObject({ success: true, data: c.answer.json });
    const b64 = await h.call(path, c.probe.params, { query: 'format=json&base64=true' });
    expect(b64.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(b64.body).toEqual(json.body);
  });

  it('answers 401 without a key and NOT_FOUND for an unknown tool, naming the platform', async () => {
    const h = await harness();
    const seen = h.recordRequests(c.name);
    expect((await h.call(path, c.probe.params, { key: null })).status).toBe(401);
    const tool = await h.call(`${c.name}/noSuchTool`);
    expect(tool.body.error).toMatchObject({ code: 'NOT_FOUND', details: { platform: c.name, tool: 'noSuchTool' } });
    expect(seen).toEqual([]);
  });

  it('lists every tool with a description, annotations and an object JSON Schema', async () => {
    const h = await harness();
    const res = await h.app.request(`/v1/tools/${c.name}`, { headers: { authorization: `Bearer ${c.keys.owner}` } });
    const body = (await res.json()) as { data: { tools: { name: string; description: string; annotations: object; input_schema: { type: string } }[] } };
    expect(body.data.tools.map((t) => t.name)).toContain(c.probe.tool);
    for (const t of body.data.tools) {
      expect(t.description.length).toBeGreaterThan(10);
      expect(t.annotations).toHaveProperty('readOnly');
      expect(t.input_schema.type).toBe('object');
    }
  });

  it('refuses a body that is not a JSON object and an unknown parameter, before reaching the vendor', async () => {
    const h = await harness();
    const seen = h.recordRequests(c.name);
    for (const raw of ['{"a": ', '[1]', 'null']) {
      const r = await h.call(path, undefined, { raw });
      expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: '(body)' } });
    }
    const typo = await h.call(path, { ...c.probe.params, no_such_parameter: 1 });
    expect(typo.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'no_such_parameter' } });
    expect(seen).toEqual([]);
  });

  it.each([
    ['arrays', (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`],
    ['objects', (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`],
  ])('refuses parameters nested 10,000 deep in %s with INVALID_PARAMETER naming the parameter, not a 500', async (_kind, nest) => {
    const h = await harness();
    const seen = h.recordRequests(c.name);
    const r = await h.call(path, undefined, { raw: `{"deep": ${nest(10_000)}}` });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('INVALID_PARAMETER');
    expect(r.body.error.details.parameter).toMatch(/^deep\./);
    expect(r.body.error.details.expected).toBe('at most 64 levels of nested arrays and objects');
    expect(r.body.error.message).toContain('"deep"');
    expect(seen).toEqual([]);
  });

  it('refuses a very long string and a huge array as the unknown parameters they are, not a 500', async () => {
    const h = await harness();
    const long = await h.call(path, { ...c.probe.params, note: 'x'.repeat(2_000_000) });
    expect(long.status).toBe(400);
    expect(long.body.error.details.parameter).toBe('note');
    expect(long.text.length).toBeLessThan(10_000); // the value is not echoed back
    const huge = await h.call(path, { ...c.probe.params, ids: Array.from({ length: 200_000 }, (_, i) => i) });
    expect(huge.status).toBe(400);
    expect(huge.body.error.details.parameter).toBe('ids');
  });
});

describe('nesting limits on real parameters', () => {
  it('lets the documented depth through to the tool\'s own checks: 64 levels are validated, 65 are refused', async () => {
    const h = await harness();
    const nest = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    // workspace_id at depth 64 (the body is level 1) reaches zod, which names the wrong type.
    const within = await h.call('dbapp/getWorkspace', undefined, { raw: `{"workspace_id": ${nest(63)}}` });
    expect(within.body.error.details).toMatchObject({ parameter: 'workspace_id', expected: 'number' });
    const beyond = await h.call('dbapp/getWorkspace', undefined, { raw: `{"workspace_id": ${nest(64)}}` });
    expect(beyond.body.error.details.expected).toBe('at most 64 levels of nested arrays and objects');
  });

  it('refuses deep values inside record fields, before the field rules walk them', async () => {
    const h = await harness();
    const seen = h.recordRequests('dbapp');
    const deep = await h.call('dbapp/createRecord', undefined, { raw: `{"app_id": 901, "fields": {"name": ${'['.repeat(5000)}${']'.repeat(5000)}}}` });
    expect(deep.status).toBe(400);
    expect(deep.body.error.details.parameter).toMatch(/^fields\.name\./);
    expect(seen).toEqual([]);
  });
});

describe('inputs no schema should have to catch', () => {
  it('refuses a "__proto__" key inside fields like any other unknown key, not silently dropped', async () => {
    const h = await harness();
    const seen = h.recordRequests('dbapp');
    const r = await h.call('dbapp/createRecord', undefined, { raw: '{"app_id": 901, "fields": {"name": "Acme", "__proto__": {"polluted": true}}}' });
    expect(r.status).toBe(400);
    expect(r.body.error.details).toMatchObject({ parameter: 'fields.__proto__', expected: 'no "__proto__" key' });
    expect(seen).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    ['only control characters', '\u0001\u0002'],
    ['a NUL inside', 'Sales\u0000team'],
    ['an unpaired surrogate', 'Sales \ud800 team'],
  ])('refuses text with %s, naming the parameter', async (_case, name) => {
    const h = await harness();
    const seen = h.recordRequests('dbapp');
    const r = await h.call('dbapp/createWorkspace', { name });
    expect(r.status).toBe(400);
    expect(r.body.error.details).toMatchObject({ parameter: 'name', expected: 'text without control characters or unpaired surrogates' });
    expect(seen).toEqual([]);
  });

  it('keeps tabs, line breaks and paired surrogates (emoji)', async () => {
    const h = await harness();
    const r = await h.call('dbapp/createWorkspace', { name: 'Sales\tteam 🚀', type: 'open', description: 'line one\r\nline two' }, { query: 'format=json' });
    expect(r.body.success).toBe(true);
  });

  it('refuses a body over 6 MB before reading it, with the envelope', async () => {
    const h = await harness();
    const seen = h.recordRequests('dbapp');
    const r = await h.call('dbapp/createWorkspace', undefined, { raw: JSON.stringify({ name: 'x'.repeat(6_000_001) }) });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: '(body)', expected: 'at most 6000000 bytes' } });
    expect(seen).toEqual([]);
  });

  it('caps a vendor message that echoes a huge value', async () => {
    const h = await harness();
    const r = await h.call('dbapp/getAutomationCatalog', { field_type: 'x'.repeat(100_000) });
    expect(JSON.stringify(r.body).length).toBeLessThan(2_000);
  });
});

describe('access log', () => {
  it('writes one JSON line per call with ids, codes and timings, never the key or a parameter value', async () => {
    vi.stubEnv('LOG_LEVEL', 'info');
    const lines: string[] = [];
    const out = vi.spyOn(console, 'log').mockImplementation((line: unknown) => void lines.push(String(line)));
    try {
      const h = await harness();
      await h.app.request('/v1/tools/dbapp/getWorkspace', {
        method: 'POST',
        headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}`, 'content-type': 'application/json', 'x-request-id': 'req-123' },
        body: JSON.stringify({ workspace_id: 1 }),
      });
      await h.call('dbapp/createWorkspace', { name: 'Secret project name', type: 'sideways' });
      const calls = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.message === 'call');
      expect(calls).toHaveLength(2);
      expect(calls[0]).toMatchObject({ level: 'info', request_id: 'req-123', platform: 'dbapp', tool: 'getWorkspace', status: 200, vendor_calls: 1 });
      expect(calls[0]!.duration_ms).toEqual(expect.any(Number));
      expect(calls[0]!.vendor_ms).toEqual(expect.any(Number));
      expect(typeof calls[0]!.cold_start).toBe('boolean');
      expect(calls[1]).toMatchObject({ tool: 'createWorkspace', status: 400, code: 'INVALID_PARAMETER', vendor_calls: 0 });
      const all = lines.join('\n');
      expect(all).not.toContain(SANDBOX_KEYS.owner);
      expect(all).not.toContain('Secret project name');
      expect(all).not.toContain('sideways');
    } finally {
      out.mockRestore();
      vi.unstubAllEnvs();
    }
  });
});
