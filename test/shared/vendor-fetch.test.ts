import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVendorFetch } from '../../shared/core/vendor-fetch';
import { createUpstream, downloadLink } from '../../shared/vendor/upstream';
import { ToolError } from '../../shared/core/errors';
import { loadConfig } from '../../shared/core/config';
import { createRuntime } from '../../shared/lambda/runtime';
import { createApp } from '../../shared/http/app';
import { MemoryStore } from '../../shared/store/memory';
import { dbapp } from '../../functions/dbapp';
import { createTapeTwin, SANDBOX_KEYS } from '../../infra/twins/tape';

const MB = 1024 * 1024;

/** What the test server saw: connections opened, requests per connection, the last request's parts. */
interface Seen {
  connections: number;
  open: number;
  maxOpen: number;
  requests: { method: string; url: string; headers: http.IncomingHttpHeaders; body: Buffer }[];
  /** Requests left hanging (answer never sent), released at the end of each test. */
  hanging: http.ServerResponse[];
}

const seen: Seen = { connections: 0, open: 0, maxOpen: 0, requests: [], hanging: [] };
let release: (() => void)[] = [];

/** A vendor stand-in on loopback: each path answers one way the client must handle. */
const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    seen.requests.push({ method: req.method!, url: req.url!, headers: req.headers, body });
    const url = new URL(req.url!, 'http://x');
    switch (url.pathname) {
      case '/json':
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, n: seen.requests.length }));
        return;
      case '/echo':
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ method: req.method, type: req.headers['content-type'] ?? null, length: req.headers['content-length'] ?? null, chunked: req.headers['transfer-encoding'] ?? null, body: body.toString('latin1') }));
        return;
      case '/gate': {
        // Answers when the test releases it: requests in flight at once, counted by the server.
        release.push(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
        return;
      }
      case '/hang':
        seen.hanging.push(res);
        return;
      case '/half':
        // Headers and part of the body, then nothing: the body never completes.
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        res.write('{"partial":');
        seen.hanging.push(res);
        return;
      case '/big': {
        // n MB in 64 KB writes, honouring back-pressure: a download that must not be held by the server.
        const total = Number(url.searchParams.get('mb')) * MB;
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(total) });
        const chunk = Buffer.alloc(64 * 1024, 7);
        let sent = 0;
        const pump = () => {
          while (sent < total) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        pump();
        return;
      }
      case '/gzip':
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(gzipSync(JSON.stringify({ zipped: 'yes' })));
        return;
      case '/redirect':
        res.writeHead(Number(url.searchParams.get('status') ?? 302), { location: url.searchParams.get('to')! }).end();
        return;
      case '/status':
        res.writeHead(Number(url.searchParams.get('code')), { 'content-type': 'application/json', 'retry-after': '7' }).end(JSON.stringify({ msg: 'vendor says no' }));
        return;
      default:
        res.writeHead(404).end();
    }
  });
});
server.on('connection', (socket: Socket) => {
  seen.connections += 1;
  seen.open += 1;
  seen.maxOpen = Math.max(seen.maxOpen, seen.open);
  socket.on('close', () => (seen.open -= 1));
});

let base = '';
/** A port nothing listens on: a connection there is refused. */
let refusedBase = '';
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const probe = http.createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  refusedBase = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
  await new Promise((r) => probe.close(r));
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

function reset(): void {
  for (const res of seen.hanging) res.destroy();
  for (const r of release) r();
  release = [];
  Object.assign(seen, { connections: 0, maxOpen: seen.open, requests: [], hanging: [] });
}

const upstreamOf = (f: typeof fetch, baseUrl: string, timeoutMs = 10_000, deadline?: number) =>
  createUpstream({ baseUrl, fetch: f, timeoutMs, ...(deadline !== undefined ? { deadline } : {}), headers: { authorization: 'Bearer k' }, vendor: 'Vendor', retries: 0, describeError: (body) => ({ message: (body as { msg?: string }).msg }) });

async function rejection(p: Promise<unknown>): Promise<ToolError> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(ToolError);
  return err as ToolError;
}

describe('vendor fetch (node:http with keep-alive)', () => {
  it('sends sequential calls over one kept-alive connection', async () => {
    reset();
    const f = createVendorFetch();
    for (let i = 0; i < 20; i++) expect(await (await f(`${base}/json`)).json()).toEqual({ ok: true, n: i + 1 });
    expect(seen.requests).toHaveLength(20);
    expect(seen.connections).toBe(1);
  });

  it('opens no more connections per host than its bound; the others wait for a free one', async () => {
    reset();
    const f = createVendorFetch({ maxSockets: 3 });
    const calls = Array.from({ length: 9 }, () => f(`${base}/gate`).then((r) => r.json()));
    // Each released answer frees a connection for a waiting request, until all nine are answered.
    let answered = 0;
    void Promise.all(calls).then(() => (answered = 9));
    while (answered < 9) {
      await new Promise((r) => setImmediate(r));
      for (const r of release.splice(0)) r();
    }
    expect(await Promise.all(calls)).toHaveLength(9);
    expect(seen.requests).toHaveLength(9);
    expect(seen.connections).toBe(3);
  });

  it('reads status, headers, JSON, text and bytes as fetch does; a gzip answer is decoded', async () => {
    reset();
    const f = createVendorFetch();
    const res = await f(`${base}/status?code=429`);
    expect([res.status, res.ok, res.headers.get('Retry-After'), res.headers.get('x-none'), res.headers.has('content-type')]).toEqual([429, false, '7', null, true]);
    expect(await res.text()).toBe('{"msg":"vendor says no"}');
    await expect(res.text()).rejects.toThrow(TypeError);
    expect(new Uint8Array(await (await f(`${base}/json`)).arrayBuffer())[0]).toBe('{'.charCodeAt(0));
    expect(await (await f(`${base}/gzip`)).json()).toEqual({ zipped: 'yes' });
    expect(seen.requests.at(-1)!.headers['accept-encoding']).toContain('gzip');
  });

  it('streams a big download piece by piece through body, and whole through downloadLink', async () => {
    reset();
    const f = createVendorFetch();
    const res = await f(`${base}/big?mb=30`);
    const reader = res.body!.getReader();
    let total = 0;
    let pieces = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      pieces += 1;
    }
    expect(total).toBe(30 * MB);
    expect(pieces).toBeGreaterThan(10);
    const bytes = await downloadLink(`${base}/big?mb=5`, { fetch: f, timeoutMs: 30_000, vendor: 'Vendor', describeError: () => ({}) });
    expect(bytes.byteLength).toBe(5 * MB);
    expect(bytes.every((b) => b === 7)).toBe(true);
  });

  it('sends JSON, bytes, a Blob and FormData with their length (never chunked) and type; the multipart parses', async () => {
    reset();
    const f = createVendorFetch();
    const echo = async (init: RequestInit) => (await (await f(`${base}/echo`, { method: 'POST', ...init })).json()) as Record<string, string | null>;
    expect(await echo({ body: '{"a":1}', headers: { 'content-type': 'application/json' } })).toMatchObject({ type: 'application/json', length: '7', chunked: null, body: '{"a":1}' });
    expect(await echo({ body: new Uint8Array([1, 2, 3]) })).toMatchObject({ type: null, length: '3', body: '\u0001\u0002\u0003' });
    expect(await echo({ body: new Blob(['%PDF'], { type: 'application/pdf' }) })).toMatchObject({ type: 'application/pdf', length: '4', body: '%PDF' });
    expect(await echo({})).toMatchObject({ method: 'POST', length: '0', chunked: null });

    const pdf = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0xff, 0x0d, 0x0a, 0x2d, 0x2d]);
    const form = new FormData();
    form.append('file', new Blob([pdf], { type: 'application/pdf' }), 'Q1 "report".pdf');
    form.append('file', new Blob(['a,b\n1,2\n']), 'data.csv');
    form.append('note', 'line one\nline two');
    const sent = await echo({ body: form });
    expect(sent.type).toMatch(/^multipart\/form-data; boundary=/);
    expect(Number(sent.length)).toBe(Buffer.from(sent.body!, 'latin1').length);
    // Parsed back by the platform's own multipart parser (fetch's), as a twin reads an upload.
    const parsed = await new Response(Buffer.from(sent.body!, 'latin1'), { headers: { 'content-type': sent.type! } }).formData();
    const files = parsed.getAll('file') as File[];
    expect(files.map((x) => [x.name, x.type, x.size])).toEqual([
      ['Q1 "report".pdf', 'application/pdf', pdf.length],
      ['data.csv', 'application/octet-stream', 8],
    ]);
    expect(Buffer.from(await files[0]!.arrayBuffer()).equals(pdf)).toBe(true);
    expect(parsed.get('note')).toBe('line one\r\nline two');
  });

  it('follows redirects as fetch does: a 303 goes on as a GET without the body; another origin gets no Authorization', async () => {
    reset();
    const f = createVendorFetch();
    const res = await f(`${base}/redirect?status=303&to=/echo`, { method: 'POST', body: 'x', headers: { authorization: 'Bearer k' } });
    expect(res.redirected).toBe(true);
    expect(await res.json()).toMatchObject({ method: 'GET', length: null, body: '' });
    expect(seen.requests.at(-1)!.headers.authorization).toBe('Bearer k');
    const other = base.replace('127.0.0.1', 'localhost');
    await (await f(`${base}/redirect?status=307&to=${encodeURIComponent(`${other}/echo`)}`, { method: 'PUT', body: 'y', headers: { authorization: 'Bearer k' } })).json();
    expect(seen.requests.at(-1)).toMatchObject({ method: 'PUT', body: Buffer.from('y') });
    expect(seen.requests.at(-1)!.headers.authorization).toBeUndefined();
  });

  it('gives up a request with no answer when the attempt\'s timer or the deadline runs out, closing its connection', async () => {
    reset();
    const f = createVendorFetch();
    const timedOut = await rejection(upstreamOf(f, base, 100)({ method: 'GET', path: '/hang' }));
    expect(timedOut.details).toMatchObject({ upstream_status: null, reason: 'timeout', timeout_ms: 100 });
    // The deadline caps the timer the same way (the reserve kept for the answer taken off).
    const capped = await rejection(upstreamOf(f, base, 60_000, Date.now() + 400)({ method: 'GET', path: '/hang' }));
    expect(capped.details).toMatchObject({ reason: 'timeout' });
    expect(capped.details.timeout_ms as number).toBeLessThanOrEqual(150);
    // A body that stops half-way is given up too, and told apart from no answer.
    const half = await rejection(upstreamOf(f, base, 200)({ method: 'GET', path: '/half' }));
    expect(half.message).toContain('answered 200 but did not send the whole body');
    expect(half.details).toMatchObject({ upstream_status: 200, reason: 'timeout' });
    // The abandoned connections are closed by the client, not returned to the pool (each server side sees its close).
    expect(seen.hanging).toHaveLength(3);
    await Promise.all(seen.hanging.map((res) => (res.socket === null || res.socket.destroyed ? undefined : new Promise((r) => res.socket!.once('close', r)))));
  });

  it('maps a refused connection, an answer and its error as upstream maps them with the global fetch', async () => {
    reset();
    const outcome = async (f: typeof fetch, baseUrl: string, path: string) => {
      const err = await rejection(upstreamOf(f, baseUrl)({ method: 'POST', path, body: {} }));
      return { code: err.code, message: err.message, details: err.details };
    };
    const f = createVendorFetch();
    const refused = await outcome(f, refusedBase, '/x');
    expect(refused).toMatchObject({ code: 'INTERNAL_ERROR', details: { upstream_status: null, reason: 'network' } });
    expect(refused).toEqual(await outcome(fetch, refusedBase, '/x'));
    const limited = await outcome(f, base, '/status?code=429');
    expect(limited).toMatchObject({ code: 'RATE_LIMITED', details: { retry_after: 7, vendor_message: 'vendor says no' } });
    expect(limited).toEqual(await outcome(fetch, base, '/status?code=429'));
  });

  it('hands what it does not send itself to the global fetch (a Request object, a stream body)', async () => {
    reset();
    const f = createVendorFetch();
    expect(await (await f(new Request(`${base}/json`))).json()).toMatchObject({ ok: true });
    const stream = new ReadableStream({ start: (c) => (c.enqueue(new TextEncoder().encode('streamed')), c.close()) });
    expect(await (await f(`${base}/echo`, { method: 'POST', body: stream, duplex: 'half' } as RequestInit)).json()).toMatchObject({ body: 'streamed', chunked: 'chunked' });
  });
});

describe('tool calls through the default vendor client, Tape twin over HTTP', () => {
  const twin = createTapeTwin({ publicBase: () => tape });
  let tape = '';
  let close: () => void = () => {};
  let connections = 0;
  beforeAll(async () => {
    const s = serve({ fetch: twin.app.fetch, port: 0, hostname: '127.0.0.1' });
    s.on('connection', () => (connections += 1));
    await new Promise<void>((r) => s.once('listening', r));
    tape = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
    close = () => {
      (s as http.Server).closeAllConnections();
      s.close();
    };
  });
  afterAll(() => close());

  it('reads and uploads a file as multipart over one kept-alive connection', async () => {
    const rt = await createRuntime({ platforms: [dbapp], store: new MemoryStore(), config: loadConfig({ DBAPP_BASE_URL: tape, RATE_LIMIT_MAX: '1000000' }) });
    const app = createApp(rt);
    const call = async (tool: string, params: unknown) => {
      const res = await app.request(`/v1/tools/dbapp/${tool}?format=json`, { method: 'POST', headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}`, 'content-type': 'application/json' }, body: JSON.stringify(params) });
      const body = (await res.json()) as { success: boolean; data: any; error?: unknown };
      expect(body.success, JSON.stringify(body.error)).toBe(true);
      return body.data;
    };
    for (let i = 0; i < 5; i++) expect((await call('getWorkspace', { workspace_id: 1 })).workspace_id).toBe(1);
    const csv = 'name,amount\nAcme,1200\n';
    const up = await call('uploadFiles', { files: [{ filename: 'totals.csv', content: Buffer.from(csv).toString('base64') }] });
    expect(up.files).toHaveLength(1);
    const stored = twin.state.files.get(up.files[0].file_id)!;
    expect([stored.name, stored.mimetype, Buffer.from(stored.content).toString()]).toEqual(['totals.csv', 'text/csv', csv]);
    // Sequential calls: one connection for all of them.
    expect(connections).toBe(1);
  });
});
