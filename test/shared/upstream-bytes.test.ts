import { describe, expect, it } from 'vitest';
import { createUpstream, DEADLINE_RESERVE_MS } from '../../shared/vendor/upstream';
import { ToolError } from '../../shared/core/errors';
import { PODIO_DEMO as D, type PodioTwin } from '../../infra/twins/podio';
import { harness } from '../helpers/harness';

type Reply = 'hang' | (() => Response);

/** A vendor answering each request with the next reply; `hang` never answers (the request ends when its signal aborts). */
function vendor(replies: Reply[], o: { deadline?: number; timeoutMs?: number } = {}) {
  const seen: { accept: string | null; signal: AbortSignal }[] = [];
  const request = createUpstream({
    baseUrl: 'https://vendor.test',
    fetch: ((_: unknown, init?: RequestInit) => {
      const signal = init!.signal!;
      seen.push({ accept: new Headers(init!.headers).get('accept'), signal });
      const reply = replies.shift() ?? 'hang';
      if (reply !== 'hang') return Promise.resolve(reply());
      return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
    }) as typeof fetch,
    timeoutMs: o.timeoutMs ?? 10_000,
    ...(o.deadline !== undefined ? { deadline: o.deadline } : {}),
    headers: {},
    vendor: 'Vendor',
    retryDelayMs: 1,
    describeError: (body) => ({ message: (body as { msg?: string }).msg }),
  });
  return { request, seen };
}

const bytes = (status: number, body: string | Uint8Array, type = 'application/octet-stream') => () => new Response(body, { status, headers: { 'content-type': type } });

async function rejection(p: Promise<unknown>): Promise<ToolError> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(ToolError);
  return err as ToolError;
}

describe('upstream bytes mode', () => {
  it('answers the body as bytes, any type (not parsed as JSON), asking for */*', async () => {
    const pdf = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0, 255]);
    const { request, seen } = vendor([bytes(200, pdf, 'application/pdf')]);
    const got = await request({ method: 'GET', path: '/file/1/raw', response: 'bytes' });
    expect(got).toBeInstanceOf(Uint8Array);
    expect([...got]).toEqual([...pdf]);
    expect(seen[0]!.accept).toBe('*/*');
  });

  it('maps error answers as JSON calls do: the vendor\'s JSON message, or the status alone for an HTML page; never retried', async () => {
    const a = vendor([() => new Response(JSON.stringify({ msg: 'no such file' }), { status: 404 })]);
    const notFound = await rejection(a.request({ method: 'GET', path: '/f', response: 'bytes' }));
    expect(notFound).toMatchObject({ code: 'NOT_FOUND', details: { upstream_status: 404 } });
    expect(notFound.message).toContain('no such file');
    const b = vendor([bytes(403, '<html>denied</html>', 'text/html')]);
    expect(await rejection(b.request({ method: 'GET', path: '/f', response: 'bytes' }))).toMatchObject({ code: 'FORBIDDEN', details: { upstream_status: 403 } });
    expect(b.seen).toHaveLength(1);
  });

  it('retries a gateway failure of a download, then answers the bytes', async () => {
    const { request, seen } = vendor([bytes(503, 'busy'), bytes(200, 'done')]);
    expect(Buffer.from(await request({ method: 'GET', path: '/f', response: 'bytes' })).toString()).toBe('done');
    expect(seen).toHaveLength(2);
  });

  it('a download that never answers ends at the call deadline, not the timeout; nothing is sent past it', async () => {
    const called = Date.now();
    const deadline = called + 800;
    const { request, seen } = vendor(['hang', 'hang'], { deadline });
    const err = await rejection(request({ method: 'GET', path: '/f', response: 'bytes' }));
    expect(err.details).toMatchObject({ upstream_status: null, reason: 'timeout' });
    expect(called + (err.details.timeout_ms as number)).toBeLessThanOrEqual(deadline - DEADLINE_RESERVE_MS);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.signal.aborted).toBe(true);
    const spent = vendor([bytes(200, 'x')], { deadline: Date.now() + DEADLINE_RESERVE_MS - 1 });
    expect((await rejection(spent.request({ method: 'GET', path: '/f', response: 'bytes' }))).details).toMatchObject({ reason: 'deadline' });
    expect(spent.seen).toHaveLength(0);
  });

  it('a body that stops halfway is a timeout of the attempt, retried for a read', async () => {
    let pulls = 0;
    const stalled = () =>
      new Response(new ReadableStream({ pull: (c) => (pulls++ === 0 ? c.enqueue(new Uint8Array([1, 2, 3])) : new Promise(() => {})) }), { status: 200 });
    const { request, seen } = vendor([stalled, bytes(200, 'whole')], { timeoutMs: 50 });
    expect(Buffer.from(await request({ method: 'GET', path: '/f', response: 'bytes' })).toString()).toBe('whole');
    expect(seen).toHaveLength(2);
    expect(seen[0]!.signal.aborted).toBe(true);
  });
});

describe('collab downloads go through upstream', () => {
  it('fileContent of a vendor that never answers ends with the upstream timeout, mapped like any call', async () => {
    const h = await harness({ env: { UPSTREAM_TIMEOUT_MS: '200' } });
    h.twin<PodioTwin>('collab').faults.inject({ method: 'GET', path: `/file/${D.firstIds.file}/raw`, fault: { kind: 'timeout' } });
    const r = await h.call('collab/downloadFile', { file_id: D.firstIds.file }, { query: 'format=json' });
    expect(r.status).toBe(500);
    expect(r.body.error).toMatchObject({ code: 'INTERNAL_ERROR', details: { reason: 'timeout', timeout_ms: 200 } });
    expect(r.body.error.message).toContain(`GET /file/${D.firstIds.file}/raw`);
  });

  it('a deleted file\'s bytes (Podio 410) are NOT_FOUND', async () => {
    const h = await harness();
    h.twin<PodioTwin>('collab').faults.inject({ method: 'GET', path: `/file/${D.firstIds.file}/raw`, fault: { status: 410, body: { error: 'gone', error_description: 'The file was deleted' } } });
    const r = await h.call('collab/fileToMarkdown', { file_id: D.firstIds.file }, { query: 'format=json' });
    expect(r.body.error).toMatchObject({ code: 'NOT_FOUND', details: { upstream_status: 410 } });
  });
});
