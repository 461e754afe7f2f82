import { describe, expect, it } from 'vitest';
import { createUpstream } from '../../shared/upstream';
import { ToolError } from '../../shared/errors';

type Reply = () => Response | Promise<Response>;

function upstream(replies: Reply[], timeoutMs = 1000) {
  const calls: string[] = [];
  const fetchFn = (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    calls.push(`${init?.method} ${new URL(String(input)).pathname}`);
    const reply = replies.shift();
    if (!reply) throw new Error('no reply left');
    return reply();
  }) as typeof fetch;
  const request = createUpstream({
    baseUrl: 'https://vendor.test',
    fetch: fetchFn,
    timeoutMs,
    headers: {},
    vendor: 'Vendor',
    retryDelayMs: 1,
    describeError: (body) => ({ message: (body as { msg?: string }).msg, code: (body as { code?: string }).code }),
  });
  return { request, calls };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) => () =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

async function failure(p: Promise<unknown>): Promise<ToolError> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(ToolError);
  return err as ToolError;
}

describe('upstream', () => {
  it.each([
    [400, 'INVALID_PARAMETER'],
    [401, 'UNAUTHORIZED'],
    [403, 'FORBIDDEN'],
    [404, 'NOT_FOUND'],
    [409, 'INVALID_PARAMETER'],
    [500, 'INTERNAL_ERROR'],
  ] as const)('maps a vendor %i to %s, keeping the vendor message and status', async (status, code) => {
    const { request } = upstream([json(status, { msg: 'vendor says no', code: 'some_code' })]);
    const err = await failure(request({ method: 'POST', path: '/x', body: {} }));
    expect(err.code).toBe(code);
    expect(err.message).toContain('vendor says no');
    expect(err.details).toMatchObject({ upstream_status: status, upstream_code: 'some_code' });
  });

  it('maps 429 to RATE_LIMITED with the vendor\'s Retry-After', async () => {
    const { request } = upstream([json(429, { msg: 'slow down' }, { 'retry-after': '42' })]);
    const err = await failure(request({ method: 'GET', path: '/x' }));
    expect(err.code).toBe('RATE_LIMITED');
    expect(err.details.retry_after).toBe(42);
    expect(err.headers['Retry-After']).toBe('42');
  });

  it('retries an idempotent request after 502/503/504 and network errors, then succeeds', async () => {
    const { request, calls } = upstream([json(503, {}), () => Promise.reject(new TypeError('fetch failed')), json(200, { ok: 1 })]);
    expect(await request({ method: 'GET', path: '/x' })).toEqual({ ok: 1 });
    expect(calls).toHaveLength(3);
  });

  it('never retries a write that is not idempotent', async () => {
    const { request, calls } = upstream([json(503, { msg: 'unavailable' }), json(200, {})]);
    const err = await failure(request({ method: 'POST', path: '/x', body: {} }));
    expect(err.code).toBe('INTERNAL_ERROR');
    expect(err.details.upstream_status).toBe(503);
    expect(calls).toHaveLength(1);
  });

  it('gives up after the retries with INTERNAL_ERROR', async () => {
    const { request, calls } = upstream([json(502, {}), json(502, {}), json(502, {})]);
    const err = await failure(request({ method: 'GET', path: '/x' }));
    expect(err.details.upstream_status).toBe(502);
    expect(calls).toHaveLength(3);
  });

  it('times out every call', async () => {
    const slow = (async (_i: unknown, init?: RequestInit) =>
      new Promise<Response>((_, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)))) as typeof fetch;
    const request = createUpstream({ baseUrl: 'https://v.test', fetch: slow, timeoutMs: 30, headers: {}, vendor: 'Vendor', retries: 0, describeError: () => ({}) });
    const err = await failure(request({ method: 'GET', path: '/x' }));
    expect(err.code).toBe('INTERNAL_ERROR');
    expect(err.details.reason).toBe('timeout');
    expect(err.message).toContain('30 ms');
  });

  it('answers INTERNAL_ERROR for a body that is not JSON', async () => {
    const { request } = upstream([() => new Response('<html>gateway</html>', { status: 200 })]);
    const err = await failure(request({ method: 'GET', path: '/x' }));
    expect(err.code).toBe('INTERNAL_ERROR');
    expect(err.message).toMatch(/not JSON/);
  });

  it('builds the URL with the query and sends JSON bodies', async () => {
    let seen: { url: string; init?: RequestInit } | undefined;
    const request = createUpstream({
      baseUrl: 'https://v.test/',
      fetch: (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
        seen = { url: String(input), init };
        return new Response('{}');
      }) as typeof fetch,
      timeoutMs: 100,
      headers: { authorization: 'Bearer k' },
      vendor: 'V',
      describeError: () => ({}),
    });
    await request({ method: 'POST', path: '/v1/a', query: { limit: 5, cursor: undefined, x: true }, body: { a: 1 } });
    expect(seen!.url).toBe('https://v.test/v1/a?limit=5&x=true');
    expect(seen!.init!.body).toBe('{"a":1}');
    expect((seen!.init!.headers as Record<string, string>)['content-type']).toBe('application/json');
  });

  it('sends a FormData body as multipart, without a JSON content type', async () => {
    let seen: RequestInit | undefined;
    const request = createUpstream({
      baseUrl: 'https://v.test',
      fetch: (async (_input: Parameters<typeof fetch>[0], init?: RequestInit) => {
        seen = init;
        return new Response('{"id": 1}');
      }) as typeof fetch,
      timeoutMs: 100,
      headers: {},
      vendor: 'V',
      describeError: () => ({}),
    });
    const form = new FormData();
    form.append('file', new Blob(['hello'], { type: 'text/plain' }), 'a.txt');
    expect(await request({ method: 'POST', path: '/upload', body: form })).toEqual({ id: 1 });
    expect(seen!.body).toBe(form);
    expect((seen!.headers as Record<string, string>)['content-type']).toBeUndefined();
  });
});

