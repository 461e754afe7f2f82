import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_KEYS } from '../../infra/twins/kit';
import { createApp } from '../../shared/http/app';
import type { MemoryStore } from '../../shared/store/memory';
import { Browser, localServer } from '../identity/helpers';
import { checkEnvelope, OracleError, type Answer } from './oracle';

/**
 * The fuzz suite's identity side: hostile requests to the identity, OAuth and receiver routes —
 * any method, path of theirs, query string, headers (bearers of every format, content types,
 * Origin) and body (JSON, forms, text, oversized streams). Oracle: never HTTP 500; an envelope
 * where the route answers JSON in the service's envelope (shared/core/errors.ts catalogue statuses), an
 * OAuth error object on the OAuth endpoints; every body read no further than its route's limit
 * (counted at the stream); no store item larger than a DynamoDB item may be (400 KB). FUZZ_SEED
 * reproduces a run; IDENTITY_FUZZ_RUNS sets the requests (modest by default: CI runs it on every push).
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261206);
const RUNS = Number(process.env.IDENTITY_FUZZ_RUNS ?? 250);
const CHUNK = 16 * 1024;
/** The largest limit among these routes (a delivery, EVENTS_MAX_BODY_BYTES' default) and a DynamoDB item's. */
const MAX_LIMIT = 1_000_000;
const ITEM_BYTES = 400 * 1024;

describe('fuzz: identity, OAuth and receiver routes', () => {
  let s: Awaited<ReturnType<typeof localServer>>;
  let app: ReturnType<typeof createApp>;
  const known: Record<string, string> = {};
  beforeAll(async () => {
    s = await localServer({ OAUTH_REGISTER_RATE_LIMIT: '100000/600' });
    app = createApp(s.rt);
    const { key, id } = await s.createKey('fuzz', { platforms: ['dbapp'] });
    known.key = key;
    known.keyId = id;
    const created = await s.api('POST', '/v1/connections', { key, body: { platform: 'dbapp', end_user: 'fuzz', auth: 'api_key' } });
    known.connection = created.body.data.connection.id;
    known.link = new URL(created.body.data.connect_url).pathname.split('/').pop()!;
    const other = await s.api('POST', '/v1/connections', { key, body: { platform: 'dbapp', end_user: 'fuzz-2', auth: 'api_key' } });
    await new Browser().connectKey(other.body.data.connect_url, SANDBOX_KEYS.owner);
    const reg = (await (await fetch(`${s.base}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [`${s.base}/cb`] }) })).json()) as { client_id: string };
    known.client = reg.client_id;
  });
  afterAll(() => s.close());

  const paths = () =>
    fc.oneof(
      fc.constantFrom(
        '/v1/admin/keys', `/v1/admin/keys/${known.keyId}`, `/v1/admin/keys/${known.keyId}/rotate`, '/v1/admin/keys/key_nope',
        '/v1/connections', `/v1/connections/${known.connection}`, `/v1/connections/${known.connection}/reconnect`, '/v1/connections/callback',
        `/v1/connect/${known.link}`, `/v1/connect/${known.link}/authorize`, '/v1/connect/x',
        '/oauth/register', `/oauth/register/${known.client}`, '/oauth/token', '/oauth/revoke', '/oauth/authorize',
        '/.well-known/oauth-authorization-server', '/.well-known/oauth-protected-resource/v1/mcp/dbapp',
        '/v1/events/dbapp/sub_AAAAAAAAAAAA', '/v1/events/crm/app', '/v1/events/filebox/sub_x', '/v1/events/nope/sub_x',
      ),
      fc.string({ maxLength: 40 }).map((x) => `/v1/connections/${encodeURIComponent(x)}`),
      fc.string({ maxLength: 40 }).map((x) => `/oauth/register/${encodeURIComponent(x)}`),
      fc.string({ maxLength: 40 }).map((x) => `/v1/events/dbapp/${encodeURIComponent(x)}`),
    );
  const bearer = () =>
    fc.oneof(
      fc.constant(undefined),
      fc.constantFrom('tes_', 'tat_', 'trt_', 'tra_', 'adm_', 'eyJ', '').chain((p) => fc.string({ maxLength: 60 }).map((x) => `Bearer ${p}${x}`)),
      fc.constant(`Bearer ${known.key}`),
      fc.constant('Bearer adm_test_credential'),
      fc.string({ maxLength: 200 }).map((x) => x.replace(/[\r\n\0]/g, '')),
    );
  const query = () => fc.dictionary(fc.constantFrom('client_id', 'redirect_uri', 'response_type', 'code_challenge', 'code_challenge_method', 'resource', 'scope', 'state', 'code', 'consent', 'platform', 'end_user', 'secret', 'tenant', 'x'), fc.string({ maxLength: 80 }), { maxKeys: 6 });
  const body = () =>
    fc.oneof(
      fc.constant(undefined),
      fc.json({ maxDepth: 4 }).map((b) => ({ type: 'application/json', text: b })),
      fc.dictionary(fc.string({ maxLength: 12 }), fc.string({ maxLength: 60 }), { maxKeys: 8 }).map((d) => ({ type: 'application/x-www-form-urlencoded', text: new URLSearchParams(d).toString() })),
      fc.record({ platform: fc.constantFrom('dbapp', 'crm', 'nope'), end_user: fc.string({ maxLength: 300 }), auth: fc.constantFrom('api_key', 'oauth', 'x') }).map((b) => ({ type: 'application/json', text: JSON.stringify(b) })),
      fc.record({ tenant: fc.string({ maxLength: 70 }), policy: fc.anything({ maxDepth: 3 }) }).map((b) => ({ type: 'application/json', text: JSON.stringify(b) })),
      fc.record({ redirect_uris: fc.array(fc.oneof(fc.webUrl({ withFragments: true, withQueryParameters: true }), fc.string({ maxLength: 3000 })), { maxLength: 12 }), client_name: fc.string({ maxLength: 300 }) }).map((b) => ({ type: 'application/json', text: JSON.stringify(b) })),
      fc.string({ maxLength: 500 }).map((t) => ({ type: 'text/plain', text: t })),
      // Past every limit, streamed without Content-Length.
      fc.constant({ type: 'application/json', stream: MAX_LIMIT * 2 }),
    );
  const request = () => fc.record({ method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'), path: paths(), query: query(), auth: bearer(), origin: fc.option(fc.constantFrom('https://evil.example', 'null'), { nil: undefined }), body: body() });

  it('never answers 500, answers in the route\'s own shape, and reads no body past its limit', async () => {
    let largest = 0;
    await fc.assert(
      fc.asyncProperty(request(), async (r) => {
        const headers: Record<string, string> = {};
        if (r.auth !== undefined) headers.authorization = r.auth;
        if (r.origin !== undefined) headers.origin = r.origin;
        const pulled = { bytes: 0 };
        let payload: ReadableStream<Uint8Array> | string | undefined;
        const b = r.body as { type: string; text?: string; stream?: number } | undefined;
        if (b && r.method !== 'GET') {
          headers['content-type'] = b.type;
          if (b.stream) {
            const chunk = new Uint8Array(CHUNK).fill(0x20);
            payload = new ReadableStream<Uint8Array>({
              pull(controller) {
                if (pulled.bytes >= b.stream!) return controller.close();
                pulled.bytes += CHUNK;
                controller.enqueue(chunk);
              },
            });
          } else payload = b.text!;
        }
        const qs = new URLSearchParams(r.query).toString();
        const res = await app.fetch(new Request(`${s.base}${r.path}${qs ? `?${qs}` : ''}`, { method: r.method, headers, ...(payload !== undefined ? { body: payload, duplex: 'half' } : {}) } as RequestInit));
        const text = await res.text();
        const answer: Answer = { status: res.status, body: text, vendorCalls: 0 };
        if (res.status >= 500) throw new OracleError(`HTTP ${res.status} for ${r.method} ${r.path}: ${text.slice(0, 400)}`);
        if (pulled.bytes > MAX_LIMIT + 2 * CHUNK) throw new OracleError(`${r.method} ${r.path} read ${pulled.bytes} bytes of a streamed body`);
        if (/json/.test(res.headers.get('content-type') ?? '')) {
          const json = JSON.parse(text) as Record<string, unknown>;
          // 405 (a method not taken) and 413 (a body past the limit) keep their HTTP meaning with INVALID_PARAMETER.
          const asCatalogue = [405, 413].includes(res.status) && (json.error as { code?: string } | undefined)?.code === 'INVALID_PARAMETER' ? 400 : res.status;
          if ('success' in json) checkEnvelope({ ...answer, status: asCatalogue, body: json });
          else if (r.path.startsWith('/oauth/') && !(res.status < 300) && typeof json.error !== 'string') throw new OracleError(`an OAuth refusal without "error": ${text.slice(0, 300)}`);
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
    // Nothing a request could send grew a store item past what one DynamoDB item holds.
    for (const [k, v] of ((s.rt.store as MemoryStore) as any).entries as Map<string, unknown>) largest = Math.max(largest, JSON.stringify([k, v]).length);
    expect(largest).toBeLessThan(ITEM_BYTES);
  }, 300_000);
});
