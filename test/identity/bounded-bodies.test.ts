import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../shared/http/app';
import { localServer } from './helpers';

const CHUNK = 64 * 1024;

/** A chunked body without Content-Length that never ends before `total` bytes, counting what was pulled from it. */
function endless(total: number) {
  const pulled = { bytes: 0 };
  const chunk = new Uint8Array(CHUNK).fill(0x61);
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled.bytes >= total) return controller.close();
      pulled.bytes += CHUNK;
      controller.enqueue(chunk);
    },
  });
  return { body, pulled };
}

/**
 * Every route stops reading a body at its limit, streamed bodies too (shared/core/json-body.ts
 * readBounded): the app is called in-process, so what it pulled from the stream is exact.
 */
describe('bounded request bodies', () => {
  let s: Awaited<ReturnType<typeof localServer>>;
  let app: ReturnType<typeof createApp>;
  beforeAll(async () => {
    s = await localServer({ OAUTH_REGISTER_RATE_LIMIT: '3/600' });
    app = createApp(s.rt);
  });
  afterAll(() => s.close());

  const ROUTES = [
    { path: '/v1/events/dbapp/sub_unknown0000', limit: 1_000_000, answer: (b: any) => expect(b.error.code).toBe('INVALID_PARAMETER') },
    { path: '/oauth/register', limit: 32 * 1024, answer: (b: any) => expect(b.error).toBe('invalid_client_metadata') },
    { path: '/oauth/token', limit: 32 * 1024, answer: (b: any) => expect(b.error).toBe('invalid_request') },
    { path: '/oauth/revoke', limit: 32 * 1024, answer: (b: any) => expect(b.error).toBe('invalid_request') },
    { path: '/oauth/authorize', limit: 32 * 1024, answer: (b: string) => expect(b).toContain('id="refused"') },
    { path: '/v1/admin/keys', limit: 64 * 1024, answer: (b: any) => expect(b.error.details.parameter).toBe('(body)') },
    { path: '/v1/connections', limit: 64 * 1024, answer: (b: any) => expect(b.error.details.parameter).toBe('(body)') },
    { path: '/v1/connect/some-link-token', limit: 64 * 1024, answer: (b: any) => expect(b.error.details.parameter).toBe('(body)') },
    { path: '/v1/mcp/dbapp', limit: 6_000_000, answer: (b: any) => expect(b.error.code).toBe(-32600) },
    // A tool call's refusal goes through execute (after auth and the rate limit), as INVALID_PARAMETER's 400.
    { path: '/v1/tools/dbapp/listWorkspaces', limit: 6_000_000, status: 400, answer: (b: any) => expect(b.error.details.parameter).toBe('(body)') },
  ];

  it.each(ROUTES)('$path: a chunked body without Content-Length is read up to its limit, then refused', async (r) => {
    const { body, pulled } = endless(r.limit * 2 + 8 * CHUNK);
    const res = await app.fetch(new Request(`${s.base}${r.path}`, { method: 'POST', headers: { authorization: 'Bearer adm_test_credential', 'content-type': 'application/json' }, body, duplex: 'half' } as RequestInit));
    expect(res.status).toBe('status' in r ? r.status : 413);
    const text = await res.text();
    r.answer(res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text);
    // Not a chunk more than the limit was taken from the sender.
    expect(pulled.bytes).toBeLessThanOrEqual(r.limit + 2 * CHUNK);
  });

  it('a declared Content-Length over the limit is refused before the body is read', async () => {
    const res = await fetch(`${s.base}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [`https://x.example/${'a'.repeat(40_000)}`] }) });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: 'invalid_client_metadata' });
  });

  it('caps every client metadata field, so a registration always fits one store item', async () => {
    const register = async (meta: unknown) => {
      const res = await fetch(`${s.base}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(meta) });
      return { status: res.status, body: (await res.json()) as { error?: string } };
    };
    const long = await register({ redirect_uris: [`https://x.example/${'a'.repeat(3000)}`] });
    expect(long).toMatchObject({ status: 400, body: { error: 'invalid_redirect_uri' } });
    const many = await register({ redirect_uris: Array.from({ length: 11 }, (_, i) => `https://x.example/cb${i}`) });
    expect(many).toMatchObject({ status: 400, body: { error: 'invalid_redirect_uri' } });
    const name = await register({ redirect_uris: ['https://x.example/cb'], client_name: 'n'.repeat(201) });
    expect(name).toMatchObject({ status: 400, body: { error: 'invalid_client_metadata' } });
  });

  it('rate-limits registration per source address (429 with Retry-After)', async () => {
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 4; i++) {
      last = await fetch(`${s.base}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: ['https://x.example/cb'] }) });
      statuses.push(last.status);
    }
    // The refused ones of the cap test above counted too: the limit is on attempts.
    expect(statuses.filter((x) => x === 429).length).toBeGreaterThan(0);
    expect(statuses.at(-1)).toBe(429);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await last!.json()).toMatchObject({ error: 'temporarily_unavailable' });
  });
});
