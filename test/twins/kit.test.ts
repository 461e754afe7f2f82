import { Hono } from 'hono';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  auth,
  createClock,
  decodeCursor,
  DeliveryQueue,
  encodeCursor,
  flags,
  idParam,
  inProcessFetch,
  isPrivateHost,
  jsonBody,
  paging,
  rateLimit,
  SANDBOX_KEYS,
  targetProblem,
  TwinHttpError,
  useKit,
  WindowBudget,
  type KitEnv,
} from '../../infra/twins/kit';
import { SANDBOX_KEYS as TAPE_KEYS } from '../../infra/twins/tape';

/** A tiny vendor: errors `{error, message}`, `OAuth2 <key>` or Basic auth, `limit` requests per second per key. */
function tiny({ limit = 100, ...opts }: { latencyMs?: number; limit?: number } = {}) {
  const clock = createClock(Date.parse('2024-05-01T10:00:00Z'));
  const app = new Hono<KitEnv<{ name: string }>>();
  const fail = (status: number, error: string) => (message: string) => new TwinHttpError(status, { error, message });
  const kit = useKit(app, {
    clock,
    ...opts,
    errors: {
      notFound: (c) => new TwinHttpError(404, (cc: typeof c) => ({ error: 'no_route', message: `${cc.req.method} ${cc.req.path}` })),
      internal: () => new TwinHttpError(500, { error: 'oops', message: 'Internal error' }),
    },
  });
  app.use(
    '/api/*',
    rateLimit({
      clock,
      limit,
      windowMs: 1000,
      cost: (c) => (c.req.method === 'DELETE' ? 2 : 1),
      headers: (s) => ({ 'X-Limit': String(s.limit), 'X-Remaining': String(s.remaining) }),
      exceeded: (s) => new TwinHttpError(420, { error: 'rate_limit', message: `wait ${s.retryAfter} seconds` }),
    }),
  );
  app.use(
    '/api/*',
    auth({
      schemes: ['OAuth2', 'Basic'],
      resolve: (key) => (key === 'good-key' ? { name: 'Ann' } : undefined),
      missing: () => new TwinHttpError(401, { error: 'unauthorized', message: 'no token' }),
      malformed: (key) => (key.includes('!') ? new TwinHttpError(400, { error: 'malformed', message: 'bad token' }) : undefined),
      invalid: () => new TwinHttpError(401, { error: 'invalid_token', message: 'unknown token' }),
    }),
  );
  app.get('/api/me', (c) => c.json({ name: c.get('user').name, key_len: c.get('authKey').length }));
  app.post('/api/echo/:id', async (c) => {
    const invalid = fail(400, 'invalid');
    const body = await jsonBody(c, invalid);
    return c.json({ id: idParam(c, 'id', invalid), body, flags: flags(c, { silent: false, hook: true }, invalid), page: paging(c, { default: 10, max: 50 }, invalid) });
  });
  app.post('/api/page', async (c) => c.json(paging(c, { default: 20, max: 500, min: 1, body: await jsonBody(c, fail(400, 'invalid')) }, fail(400, 'invalid'))));
  app.delete('/api/thing', (c) => c.json({ deleted: true }));
  app.get('/api/boom', () => {
    throw new Error('bug');
  });
  app.get('/api/slow', async (c) => c.json({ at: clock.now() }));
  const call = async (method: string, path: string, o: { body?: string; auth?: string | null; signal?: AbortSignal } = {}) => {
    const res = await kit.fetch(`https://vendor.test${path}`, {
      method,
      headers: { ...(o.auth !== null ? { authorization: o.auth ?? 'OAuth2 good-key' } : {}), ...(o.body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(o.body !== undefined ? { body: o.body } : {}),
      ...(o.signal ? { signal: o.signal } : {}),
    });
    const text = await res.text();
    let body: any = text;
    try {
      body = JSON.parse(text);
    } catch {
      // kept as text
    }
    return { status: res.status, headers: res.headers, body };
  };
  return { app, ...kit, call };
}

describe('twin kit: keys and clock', () => {
  it('keeps the sandbox keys printed in the README, and Tape re-exports the same object', () => {
    expect(SANDBOX_KEYS.owner).toBe('user_key_sbx7Jd0e1Q2w3E4r5T6y7U8i9O0pAsDf');
    expect(SANDBOX_KEYS.member).toBe('user_key_sbx9Zm4x5C6v7B8n9M0qWeRtYuIoPlKj');
    expect(TAPE_KEYS).toBe(SANDBOX_KEYS);
  });

  it('a clock with a start stands still until moved; without one it follows real time', () => {
    const c = createClock(1000);
    expect(c.now()).toBe(1000);
    c.advance(500);
    expect(c.now()).toBe(1500);
    c.set(42);
    expect(c.now()).toBe(42);
    const live = createClock();
    const before = Date.now();
    live.advance(3_600_000);
    expect(live.now()).toBeGreaterThanOrEqual(before + 3_600_000);
    live.set(5);
    expect(live.now()).toBeLessThan(1_000_000);
  });
});

describe('twin kit: errors and auth', () => {
  it('answers unknown routes and bugs in the dialect, TwinHttpErrors as thrown', async () => {
    const t = tiny();
    expect(await t.call('GET', '/nothing')).toMatchObject({ status: 404, body: { error: 'no_route', message: 'GET /nothing' } });
    expect(await t.call('GET', '/api/boom')).toMatchObject({ status: 500, body: { error: 'oops', message: 'Internal error' } });
  });

  it('reads the key in each allowed scheme and refuses missing, malformed and unknown keys the dialect\'s way', async () => {
    const t = tiny();
    expect((await t.call('GET', '/api/me')).body).toEqual({ name: 'Ann', key_len: 8 });
    const basic = `Basic ${Buffer.from('good-key:').toString('base64')}`;
    expect((await t.call('GET', '/api/me', { auth: basic })).body.name).toBe('Ann');
    expect(await t.call('GET', '/api/me', { auth: null })).toMatchObject({ status: 401, body: { error: 'unauthorized' } });
    expect(await t.call('GET', '/api/me', { auth: 'Bearer good-key' })).toMatchObject({ status: 401, body: { error: 'unauthorized' } });
    expect(await t.call('GET', '/api/me', { auth: 'OAuth2 bad!' })).toMatchObject({ status: 400, body: { error: 'malformed' } });
    expect(await t.call('GET', '/api/me', { auth: 'oauth2 other-key' })).toMatchObject({ status: 401, body: { error: 'invalid_token' } });
  });
});

describe('twin kit: rate limit', () => {
  it('spends a per-key budget by cost, sends the headers on every answer, refuses in the dialect and refills on the clock', async () => {
    const t = tiny({ limit: 3 });
    const first = await t.call('GET', '/api/me');
    expect([first.headers.get('x-limit'), first.headers.get('x-remaining')]).toEqual(['3', '2']);
    // Another key has its own budget; errors carry the headers too.
    expect((await t.call('GET', '/api/me', { auth: 'OAuth2 other' })).headers.get('x-remaining')).toBe('2');
    const del = await t.call('DELETE', '/api/thing');
    expect(del.headers.get('x-remaining')).toBe('0');
    t.clock.advance(400);
    const over = await t.call('GET', '/api/me');
    expect(over).toMatchObject({ status: 420, body: { error: 'rate_limit', message: 'wait 1 seconds' } });
    expect(over.headers.get('x-remaining')).toBe('0');
    t.clock.advance(600);
    expect((await t.call('GET', '/api/me')).status).toBe(200);
  });

  it('WindowBudget: a refused request spends nothing; retryAfter counts whole seconds to the window end', () => {
    const clock = createClock(0);
    const b = new WindowBudget({ limit: 10, windowMs: 60_000, clock });
    expect(b.take('k', 8)).toMatchObject({ over: false, spent: 8, remaining: 2, resetAt: 60_000, retryAfter: 60 });
    clock.advance(2500);
    expect(b.take('k', 5)).toMatchObject({ over: true, spent: 8, remaining: 2, retryAfter: 58 });
    expect(b.take('k', 2)).toMatchObject({ over: false, remaining: 0 });
    clock.advance(57_500);
    expect(b.take('k', 5)).toMatchObject({ over: false, spent: 5, windowStart: 60_000 });
  });
});

describe('twin kit: request readers', () => {
  it('reads a JSON object body, a numeric id, boolean flags with defaults and paging', async () => {
    const t = tiny();
    const ok = await t.call('POST', '/api/echo/12?silent=1&hook=false&limit=5&offset=40', { body: '{"a":1}' });
    expect(ok.body).toEqual({ id: 12, body: { a: 1 }, flags: { silent: true, hook: false }, page: { limit: 5, offset: 40 } });
    const defaults = await t.call('POST', '/api/echo/3', { body: '' });
    expect(defaults.body).toEqual({ id: 3, body: {}, flags: { silent: false, hook: true }, page: { limit: 10, offset: 0 } });
  });

  it.each([
    ['/api/echo/1', '[1,2]', 'could not be decoded as JSON'],
    ['/api/echo/1', '{oops', 'could not be decoded as JSON'],
    ['/api/echo/abc', '{}', '"id" must be a numeric id, got "abc"'],
    ['/api/echo/1?hook=yes', '{}', 'Query parameter "hook" must be true or false, got "yes"'],
    ['/api/echo/1?limit=51', '{}', '"limit" must be an integer between 0 and 50, got "51"'],
    ['/api/echo/1?offset=-1', '{}', '"offset" must be an integer of 0 or more, got "-1"'],
  ])('%s %s → invalid', async (path, body, message) => {
    const r = await tiny().call('POST', path, { body });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: 'invalid', message: expect.stringContaining(message) });
  });

  it('reads paging from a body when asked, with its minimum', async () => {
    const t = tiny();
    expect((await t.call('POST', '/api/page', { body: '{"limit":100,"offset":30}' })).body).toEqual({ limit: 100, offset: 30 });
    expect((await t.call('POST', '/api/page', { body: '{}' })).body).toEqual({ limit: 20, offset: 0 });
    expect((await t.call('POST', '/api/page', { body: '{"limit":0}' })).body.message).toBe('"limit" must be an integer between 1 and 500, got 0.');
    expect((await t.call('POST', '/api/page', { body: '{"limit":"5"}' })).body.message).toBe('"limit" must be an integer between 1 and 500, got "5".');
  });

  it('cursors round-trip and anything else decodes to undefined', () => {
    const c = encodeCursor({ scope: 'app:1', after: 7 });
    expect(c).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(c)).toEqual({ scope: 'app:1', after: 7 });
    expect(decodeCursor('not a cursor')).toBeUndefined();
    expect(decodeCursor(Buffer.from('[1]').toString('base64url'))).toBeUndefined();
  });
});

describe('twin kit: request log', () => {
  it('logs method, path, query, JSON body, auth scheme and status, never the key', async () => {
    const t = tiny();
    await t.call('POST', '/api/echo/5?hook=false&oauth_token=secret-tok', { body: '{"x":[1]}' });
    await t.call('GET', '/api/me', { auth: 'good-key' });
    await t.call('GET', '/api/me', { auth: null });
    expect(t.requests.entries).toEqual([
      { method: 'POST', path: '/api/echo/5', query: { hook: 'false', oauth_token: '[redacted]' }, body: { x: [1] }, auth: 'OAuth2', at: t.clock.now(), status: 200 },
      { method: 'GET', path: '/api/me', query: {}, body: null, auth: 'unknown', at: t.clock.now(), status: 401 },
      { method: 'GET', path: '/api/me', query: {}, body: null, auth: null, at: t.clock.now(), status: 401 },
    ]);
    expect(JSON.stringify(t.requests.entries)).not.toMatch(/good-key|secret-tok/);
    expect(t.requests.find({ method: 'get', path: /^\/api\/me$/ })).toHaveLength(2);
    t.requests.clear();
    expect(t.requests.entries).toEqual([]);
  });

  it('keeps the latest entries only', async () => {
    const clock = createClock(0);
    const app = new Hono();
    const kit = useKit(app, { clock, requestLogSize: 3, errors: { notFound: () => new TwinHttpError(404, {}), internal: () => new TwinHttpError(500, {}) } });
    app.get('/n/:i', (c) => c.json({}));
    for (let i = 0; i < 5; i++) await kit.fetch(`http://x/n/${i}`);
    expect(kit.requests.entries.map((e) => e.path)).toEqual(['/n/2', '/n/3', '/n/4']);
  });
});

describe('twin kit: fault injection', () => {
  it('answers a status and vendor body on the matching route, `times` times, then clears', async () => {
    const t = tiny();
    const f = t.faults.inject({ method: 'GET', path: '/api/me', times: 2, fault: { status: 503, body: { error: 'unavailable' }, headers: { 'retry-after': '3' } } });
    const first = await t.call('GET', '/api/me');
    expect(first).toMatchObject({ status: 503, body: { error: 'unavailable' } });
    expect(first.headers.get('retry-after')).toBe('3');
    expect((await t.call('POST', '/api/echo/1', { body: '{}' })).status).toBe(200);
    expect((await t.call('GET', '/api/me')).status).toBe(503);
    expect((await t.call('GET', '/api/me')).status).toBe(200);
    expect(f.hits).toBe(2);
    t.faults.inject({ path: /^\/api\//, fault: { status: 429, body: (c) => ({ path: c.req.path }) } });
    expect((await t.call('DELETE', '/api/thing')).body).toEqual({ path: '/api/thing' });
    t.faults.clear();
    expect((await t.call('DELETE', '/api/thing')).status).toBe(200);
    // The faulted calls were still made: the log shows them.
    expect(t.requests.find({ path: '/api/thing' }).map((e) => e.status)).toEqual([429, 200]);
  });

  it('reset: the in-process fetch rejects as undici does on a dropped connection', async () => {
    const t = tiny();
    t.faults.inject({ path: '/api/me', times: 1, fault: { kind: 'reset' } });
    const err = await t.call('GET', '/api/me').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TypeError);
    expect(err).toMatchObject({ message: 'fetch failed', cause: { code: 'ECONNRESET' } });
    expect(t.requests.entries[0]!.status).toBeNull();
    expect((await t.call('GET', '/api/me')).status).toBe(200);
  });

  it('timeout: no answer until the caller gives up; with ms, a late normal answer', async () => {
    // The fault's delays are real time (a client's timer must fire): the test moves fake timers instead of waiting.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const t = tiny();
    t.faults.inject({ path: '/api/me', times: 1, fault: { kind: 'timeout' } });
    const ctl = new AbortController();
    const pending = t.call('GET', '/api/me', { signal: ctl.signal });
    let settled = false;
    void pending.finally(() => (settled = true)).catch(() => undefined);
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(settled).toBe(false);
    ctl.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
    await expect(pending).rejects.toMatchObject({ name: 'TimeoutError' });
    t.faults.inject({ path: '/api/me', times: 1, fault: { kind: 'timeout', ms: 5 } });
    let late: unknown;
    const slow = t.call('GET', '/api/me').then((r) => (late = r.body));
    await vi.advanceTimersByTimeAsync(4);
    expect(late).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    await slow;
    expect(late).toEqual({ name: 'Ann', key_len: 8 });
  });

  it('garbage: 200 with a body that is not JSON', async () => {
    const t = tiny();
    t.faults.inject({ path: '/api/me', fault: { kind: 'garbage' } });
    const res = await t.fetch('https://vendor.test/api/me', { headers: { authorization: 'OAuth2 good-key' } });
    expect(res.status).toBe(200);
    await expect(res.json()).rejects.toThrow(SyntaxError);
  });
});

afterEach(() => {
  vi.useRealTimers();
});

describe('twin kit: in-process fetch and latency', () => {
  it('rejects at once when the signal is already aborted', async () => {
    const app = new Hono();
    app.get('/', (c) => c.text('hi'));
    const f = inProcessFetch(app);
    expect(await (await f('http://x/')).text()).toBe('hi');
    await expect(f('http://x/', { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('latency: the answer leaves no earlier than latencyMs after the request', async () => {
    // Latency is real time on purpose (it stands in for the network): fake timers move it.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const t = tiny({ latencyMs: 30 });
    let answered = false;
    const pending = t.call('GET', '/api/me').then(() => (answered = true));
    await vi.advanceTimersByTimeAsync(29);
    expect(answered).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await pending;
    expect(answered).toBe(true);
  });
});

describe('twin kit: webhooks', () => {
  it('public targets: ports 80/443 and public hosts only; any: every http(s) URL', () => {
    expect(targetProblem('https://hooks.example.org/x', 'public')).toBeUndefined();
    expect(targetProblem('https://hooks.example.org:8443/x', 'public')).toMatch(/port 80 and 443/);
    for (const host of ['127.0.0.1', '10.1.2.3', '169.254.169.254', '[::1]', '[fd00::1]', 'localhost', '192.168.0.4', '[::ffff:127.0.0.1]']) {
      expect(targetProblem(`http://${host}/x`, 'public')).toMatch(/publicly reachable/);
    }
    expect(isPrivateHost('8.8.8.8')).toBe(false);
    expect(targetProblem('http://127.0.0.1:9999/x', 'any')).toBeUndefined();
    expect(targetProblem('ftp://example.org/x', 'any')).toMatch(/http or https/);
    expect(targetProblem('nope', 'any')).toMatch(/absolute/);
  });

  it('delivery queue: POSTs a lane in order, logs status, timeouts and errors, skips dropped jobs, bounds the log', async () => {
    const seen: string[] = [];
    let laneFourSent!: () => void;
    const laneFour = new Promise<void>((r) => (laneFourSent = r));
    const fetchStub = (async (url: string | URL | Request, init?: RequestInit) => {
      const u = String(url);
      seen.push(`${u} ${String(init?.body)} ${(init?.headers as Record<string, string>)['user-agent']}`);
      if (u.endsWith('/slow')) {
        await new Promise((_, reject) => init!.signal!.addEventListener('abort', () => reject(init!.signal!.reason)));
      }
      if (u.endsWith('/down')) {
        laneFourSent();
        throw new TypeError('fetch failed');
      }
      // The first POST of lane 1 answers only after lane 4 was sent (lanes run side by side): lane 1 still keeps its order.
      if (u.endsWith('/a1')) await laneFour;
      return new Response('ok', { status: u.endsWith('/bad') ? 500 : 200 });
    }) as typeof fetch;
    const q = new DeliveryQueue<{ hook_id: number }>({ timeoutMs: 20, fetch: fetchStub, headers: { 'user-agent': 'Vendor Hook' }, logSize: 5 });
    const outcomes: boolean[] = [];
    const job = (id: number, path: string) => () => ({ url: `https://r.test/${path}`, payload: { n: path }, extra: { hook_id: id } });
    q.send(1, job(1, 'a1'), (d) => outcomes.push(d.ok));
    q.send(1, job(1, 'a2'), (d) => outcomes.push(d.ok));
    q.send(2, job(2, 'bad'));
    q.send(3, job(3, 'slow'));
    q.send(4, job(4, 'down'));
    q.send(5, () => undefined);
    await q.idle();
    expect(outcomes).toEqual([true, true]);
    expect(seen.filter((s) => s.includes('/a')).map((s) => s.split(' ')[0])).toEqual(['https://r.test/a1', 'https://r.test/a2']);
    expect(seen[0]).toBe('https://r.test/a1 {"n":"a1"} Vendor Hook');
    const byHook = (id: number) => q.log.find((d) => d.hook_id === id);
    expect(byHook(2)).toMatchObject({ status: 500, ok: false });
    expect(byHook(3)).toMatchObject({ status: null, ok: false, error: 'timeout' });
    expect(byHook(4)).toMatchObject({ status: null, ok: false, error: 'fetch failed' });
    expect(q.log).toHaveLength(5);
    q.record({ hook_id: 9, url: 'https://r.test/x', payload: {}, status: null, ok: false, error: 'rate_limited' });
    expect(q.log).toHaveLength(5);
    expect(q.log.at(-1)).toMatchObject({ hook_id: 9, error: 'rate_limited' });
  });
});
