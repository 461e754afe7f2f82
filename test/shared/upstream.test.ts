import { describe, expect, it, vi } from 'vitest';
import { createUpstream, naming } from '../../shared/vendor/upstream';
import { ToolError } from '../../shared/core/errors';

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

  it('uses the standard Retry-After header when the vendor describes no delay, and 60 s when nothing says', async () => {
    const { request } = upstream([json(429, {}, { 'retry-after': '7' }), json(429, {})]);
    expect((await failure(request({ method: 'GET', path: '/x' }))).details.retry_after).toBe(7);
    expect((await failure(request({ method: 'GET', path: '/x' }))).details.retry_after).toBe(60);
  });

  it('reads a Retry-After header given as an HTTP date', async () => {
    const now = Date.parse('2025-03-01T12:00:00Z');
    const spy = vi.spyOn(Date, 'now').mockReturnValue(now);
    try {
      const { request: limited } = upstream([json(429, {}, { 'retry-after': 'Sat, 01 Mar 2025 12:02:00 GMT' })]);
      expect((await failure(limited({ method: 'POST', path: '/x', body: {} }))).details.retry_after).toBe(120);
    } finally {
      spy.mockRestore();
    }
  });

  it('never reads a vendor body field itself: a retry_after in the body is ignored unless the client describes it', async () => {
    const { request } = upstream([json(429, { retry_after: 5 })]);
    expect((await failure(request({ method: 'GET', path: '/x' }))).details.retry_after).toBe(60);
  });

  // A vendor that signals its rate limit with another status (Podio: 420) and gives the delay in the message text.
  function rateLimitVendor(replies: Reply[], describeError: Parameters<typeof createUpstream>[0]['describeError']) {
    const calls: string[] = [];
    const request = createUpstream({
      baseUrl: 'https://vendor.test',
      fetch: (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
        calls.push(`${init?.method} ${new URL(String(input)).pathname}`);
        return replies.shift()!();
      }) as typeof fetch,
      timeoutMs: 1000,
      headers: {},
      vendor: 'Vendor',
      retryDelayMs: 1,
      describeError,
    });
    return { request, calls };
  }

  it('lets a vendor describe a 420 as RATE_LIMITED with the seconds its message names, and never retries it', async () => {
    const { request, calls } = rateLimitVendor(
      [json(420, { error: 'rate_limit', error_description: 'You have hit the rate limit. Please wait 300 seconds before trying again' }, { 'x-rate-limit-limit': '1000', 'x-rate-limit-remaining': '0' })],
      (body, status) => {
        const b = body as { error?: string; error_description?: string };
        const wait = /wait (\d+) seconds/.exec(b.error_description ?? '');
        return { code: b.error, message: b.error_description, ...(status === 420 ? { as: 'RATE_LIMITED' as const } : {}), ...(wait ? { retryAfter: Number(wait[1]) } : {}) };
      },
    );
    const err = await failure(request({ method: 'GET', path: '/item/1' }));
    expect(err.code).toBe('RATE_LIMITED');
    expect(err.details).toMatchObject({ retry_after: 300, upstream_status: 420, upstream_code: 'rate_limit' });
    expect(err.headers['Retry-After']).toBe('300');
    expect(calls).toHaveLength(1);
  });

  it('lets a vendor take the delay from its own headers', async () => {
    const { request } = rateLimitVendor([json(429, {}, { 'x-ratelimit-reset-seconds': '12' })], (_body, _status, headers) => ({
      retryAfter: Number(headers.get('x-ratelimit-reset-seconds')),
    }));
    const err = await failure(request({ method: 'GET', path: '/x' }));
    expect(err.details.retry_after).toBe(12);
  });

  it('maps a 420 nobody describes to INTERNAL_ERROR, not retried even for a read', async () => {
    const { request, calls } = upstream([json(420, { msg: 'enhance your calm' }), json(200, {})]);
    const err = await failure(request({ method: 'GET', path: '/x' }));
    expect(err.code).toBe('INTERNAL_ERROR');
    expect(err.details.upstream_status).toBe(420);
    expect(calls).toHaveLength(1);
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

  it('answers INTERNAL_ERROR for a body that is not JSON (a read tries thrice, a write once)', async () => {
    const garbage = () => new Response('<html>gateway</html>', { status: 200 });
    const read = upstream([garbage, garbage, garbage]);
    const err = await failure(read.request({ method: 'GET', path: '/x' }));
    expect(err.code).toBe('INTERNAL_ERROR');
    expect(err.message).toMatch(/not JSON/);
    expect(read.calls).toHaveLength(3);
    const write = upstream([garbage]);
    expect((await failure(write.request({ method: 'POST', path: '/x', body: {} }))).details).toMatchObject({ upstream_status: 200, reason: 'invalid_body' });
    expect(write.calls).toHaveLength(1);
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


describe('naming: a vendor 400 names the tool parameter', () => {
  const refused = (status: number, msg: string) => upstream([json(status, { msg, code: 'bad' })]).request({ method: 'POST', path: '/users' });
  const sent = { '[Ee]mail': 'email', Password: 'password' };

  it('names the first parameter whose pattern the vendor message matches, keeping message and details', async () => {
    const err = await failure(naming(refused(409, 'A user with the email a@b.example already exists.'), sent));
    // The vendor's words and no vendor path in the message: the path is in details.upstream_path.
    expect(err).toMatchObject({ code: 'INVALID_PARAMETER', message: 'Vendor refused the request: A user with the email a@b.example already exists.' });
    expect(err.details).toEqual({
      parameter: 'email', expected: 'a request Vendor accepts (its message says what it refused)', upstream_status: 409, upstream_path: 'POST /users', upstream_code: 'bad',
      vendor_message: 'A user with the email a@b.example already exists.',
    });
    expect((await failure(naming(refused(400, 'Password must be at least 8 characters.'), sent))).details.parameter).toBe('password');
  });

  it('matches whole words of the message only, and falls back to `only` when nothing matches', async () => {
    // Unnamed, a vendor 400 still says which parameter: the request as a whole.
    expect((await failure(naming(refused(400, 'Emails are off today.'), sent))).details).toMatchObject({ parameter: '(body)', expected: expect.any(String) });
    expect((await failure(naming(refused(400, 'Unknown kind.'), {}, 'kind'))).details.parameter).toBe('kind');
  });

  it('leaves other errors, and a 400 that already names a parameter, as they are', async () => {
    expect((await failure(naming(refused(404, 'No email here.'), sent))).details.parameter).toBeUndefined();
    const named = new ToolError('INVALID_PARAMETER', 'x', { parameter: 'mine' });
    expect((await failure(naming(Promise.reject(named), sent))).details.parameter).toBe('mine');
  });
});
