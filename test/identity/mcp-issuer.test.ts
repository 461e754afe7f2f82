import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_KEYS } from '../../infra/twins/kit';
import { Browser, localServer } from './helpers';

/**
 * The built-in authorization server's updates of MCP 2026-07-28: `iss` in every authorization
 * response (RFC 9207), `application_type` and its redirect URI rules in dynamic registration,
 * and credentials bound to the issuer that made them. Two deployments on one store are the local
 * server answering as its own URL, then as another (`deployment`, its PUBLIC_BASE_URL).
 */
describe('the authorization server of MCP 2026-07-28: iss, application_type, issuer binding', () => {
  let s: Awaited<ReturnType<typeof localServer>>;
  let key: string;
  /** The public URL the deployment answers as (PUBLIC_BASE_URL): switched to `other` to act as a second deployment on the same store. */
  let deployment: string | undefined;
  const other = 'https://tes-b.example';
  const verifier = randomBytes(32).toString('base64url');
  beforeAll(async () => {
    s = await localServer({}, { publicBase: () => deployment });
    deployment = s.base;
    key = (await s.createKey('tenant-i', { platforms: ['dbapp'] })).key;
    const created = await s.api('POST', '/v1/connections', { key, body: { platform: 'dbapp', end_user: 'user-1', auth: 'api_key' } });
    await new Browser().connectKey(created.body.data.connect_url, SANDBOX_KEYS.owner);
  });
  afterAll(() => s.close());

  /** What a host does at the deployment that answers as `issuer`. */
  async function at<T>(issuer: string, run: () => Promise<T>): Promise<T> {
    deployment = issuer;
    try {
      return await run();
    } finally {
      deployment = s.base;
    }
  }
  const register = async (meta: Record<string, unknown>) => {
    const res = await fetch(`${s.base}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(meta) });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };
  const authorize = (base: string, clientId: string, redirect: string, extra: Record<string, string> = {}) =>
    `${s.base}/oauth/authorize?${new URLSearchParams({ client_id: clientId, redirect_uri: redirect, response_type: 'code', state: 'st-9', resource: `${base}/v1/mcp/dbapp`, code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256', ...extra })}`;
  const token = (form: Record<string, string>) => fetch(`${s.base}/oauth/token`, { method: 'POST', body: new URLSearchParams(form) }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, any> }));

  /** The user signs in with the service key and allows; the redirect back to the host. */
  async function consent(url: string, decision = 'allow') {
    const browser = new Browser();
    const form = await browser.request(url);
    const page = await browser.submit(form, 'sign-in', { service_key: key });
    return new URL((await browser.submit(page, 'consent', { decision })).url);
  }

  it('names the issuer in every authorization response, and says so in its metadata (RFC 9207)', async () => {
    const meta = (await (await fetch(`${s.base}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(meta).toMatchObject({ issuer: s.base, authorization_response_iss_parameter_supported: true, client_id_metadata_document_supported: true, registration_endpoint: `${s.base}/oauth/register` });
    const redirect = `${s.base}/host-callback`;
    const { body: client } = await register({ redirect_uris: [redirect] });
    const granted = await consent(authorize(s.base, client.client_id, redirect));
    expect(Object.fromEntries(granted.searchParams)).toMatchObject({ state: 'st-9', iss: s.base, code: expect.any(String) });
    const denied = await consent(authorize(s.base, client.client_id, redirect), 'deny');
    expect(Object.fromEntries(denied.searchParams)).toMatchObject({ error: 'access_denied', state: 'st-9', iss: s.base });
    // An error before any sign-in (an unknown scope) goes back with iss too.
    const refused = await fetch(authorize(s.base, client.client_id, redirect, { scope: 'nonsense' }), { redirect: 'manual' });
    expect(Object.fromEntries(new URL(refused.headers.get('location')!).searchParams)).toMatchObject({ error: 'invalid_scope', state: 'st-9', iss: s.base });
    // Another deployment on the same store names itself: the issuer the host discovered there.
    const viaOther = await at(other, async () => {
      const { body: there } = await register({ redirect_uris: [redirect] });
      return fetch(authorize(other, there.client_id, redirect, { scope: 'nonsense' }), { redirect: 'manual' });
    });
    expect(new URL(viaOther.headers.get('location')!).searchParams.get('iss')).toBe(other);
  });

  it('records application_type and holds the redirect URIs to its rules', async () => {
    // Left out: web (OIDC's default) for https URIs, native when a URI is a loopback one (older hosts send none).
    expect((await register({ redirect_uris: ['https://host.example/callback'] })).body).toMatchObject({ application_type: 'web' });
    expect((await register({ redirect_uris: ['http://127.0.0.1:33418/callback', 'http://localhost/cb'] })).body).toMatchObject({ application_type: 'native' });
    // VS Code's registration: native, a claimed https redirect beside its loopback ones (RFC 8252 §7.2).
    const vscode = ['https://insiders.vscode.dev/redirect', 'https://vscode.dev/redirect', 'http://127.0.0.1/', 'http://127.0.0.1:33418/'];
    expect((await register({ application_type: 'native', redirect_uris: vscode })).body).toMatchObject({ application_type: 'native', redirect_uris: vscode });
    expect((await register({ redirect_uris: vscode })).body).toMatchObject({ application_type: 'native' });
    const app = await register({ application_type: 'native', redirect_uris: ['com.example.desktop:/oauth/callback'] });
    expect(app).toMatchObject({ status: 201, body: { application_type: 'native', redirect_uris: ['com.example.desktop:/oauth/callback'] } });
    for (const [meta, error] of [
      [{ application_type: 'web', redirect_uris: ['http://127.0.0.1:33418/callback'] }, 'invalid_redirect_uri'],
      [{ application_type: 'web', redirect_uris: ['https://localhost/callback'] }, 'invalid_redirect_uri'],
      [{ application_type: 'web', redirect_uris: ['com.example.desktop:/cb'] }, 'invalid_redirect_uri'],
      [{ application_type: 'web', redirect_uris: ['https://host.example/callback', 'http://127.0.0.1/cb'] }, 'invalid_redirect_uri'],
      [{ application_type: 'native', redirect_uris: ['http://host.example/callback'] }, 'invalid_redirect_uri'],
      [{ application_type: 'native', redirect_uris: ['javascript:alert(1)'] }, 'invalid_redirect_uri'],
      [{ application_type: 'native', redirect_uris: ['myapp:/cb'] }, 'invalid_redirect_uri'],
      [{ application_type: 'service', redirect_uris: ['https://host.example/callback'] }, 'invalid_client_metadata'],
    ] as const) {
      const res = await register(meta);
      expect(res, JSON.stringify(meta)).toMatchObject({ status: 400, body: { error: error, error_description: expect.stringMatching(/application_type|redirect_uris/) } });
    }
    // A registration update (RFC 7592) follows the same rules, and the type it states is kept.
    const { body: web } = await register({ redirect_uris: ['https://host.example/callback'] });
    const put = (meta: Record<string, unknown>) => fetch(web.registration_client_uri, { method: 'PUT', headers: { 'content-type': 'application/json', authorization: `Bearer ${web.registration_access_token}` }, body: JSON.stringify({ client_id: web.client_id, ...meta }) });
    expect((await put({ application_type: 'web', redirect_uris: ['http://127.0.0.1/cb'] })).status).toBe(400);
    expect(await (await put({ application_type: 'native', redirect_uris: ['http://127.0.0.1/cb'] })).json()).toMatchObject({ application_type: 'native', redirect_uris: ['http://127.0.0.1/cb'] });
    // A native app's private-use scheme receives its code there.
    const back = await consent(authorize(s.base, app.body.client_id, 'com.example.desktop:/oauth/callback'));
    expect(back.protocol).toBe('com.example.desktop:');
    expect(back.searchParams.get('iss')).toBe(s.base);
  });

  it('holds a Client ID Metadata Document to the same rules, to a URL with a path and to a client_name', async () => {
    const docs = new Map<string, unknown>();
    const server: Server = createServer((req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(docs.get(req.url ?? '') ?? {})));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const redirect = `${s.base}/host-callback`;
      docs.set('/web.json', { client_id: `${origin}/web.json`, client_name: 'Says web', application_type: 'web', redirect_uris: [redirect] });
      docs.set('/', { client_id: `${origin}/`, client_name: 'At the root', redirect_uris: [redirect] });
      const refused = await new Browser().request(authorize(s.base, `${origin}/web.json`, redirect));
      expect(refused.status).toBe(400);
      expect(refused.html).toContain('A web client may only use https redirect URIs');
      expect((await new Browser().request(authorize(s.base, `${origin}/`, redirect))).html).toContain('must name the document with a path');
      docs.set('/nameless.json', { client_id: `${origin}/nameless.json`, redirect_uris: [redirect] });
      expect((await new Browser().request(authorize(s.base, `${origin}/nameless.json`, redirect))).html).toContain('it names no &#34;client_name&#34;');
      // A document is portable: another deployment on the same store accepts it as it is.
      docs.set('/native.json', { client_id: `${origin}/native.json`, client_name: 'Native host', redirect_uris: [redirect] });
      expect((await at(other, () => new Browser().request(authorize(other, `${origin}/native.json`, redirect)))).html).toContain('Native host');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('binds registrations, codes and tokens to their issuer: another deployment on the same store refuses them', async () => {
    const redirect = `${s.base}/host-callback`;
    const { body: client } = await register({ redirect_uris: [redirect], client_name: 'Bound host' });
    // The registration is unknown at the other issuer: its sign-in page says to register there.
    const elsewhere = await at(other, () => new Browser().request(authorize(other, client.client_id, redirect)));
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.html).toContain(`register again here (POST ${other}/oauth/register)`);
    const read = () => fetch(client.registration_client_uri, { headers: { authorization: `Bearer ${client.registration_access_token}` } }).then((r) => r.status);
    expect(await at(other, read)).toBe(401);
    expect(await read()).toBe(200);

    const code = (await consent(authorize(s.base, client.client_id, redirect))).searchParams.get('code')!;
    const exchange = { grant_type: 'authorization_code', code, code_verifier: verifier, client_id: client.client_id, redirect_uri: redirect };
    expect(await at(other, () => token(exchange))).toMatchObject({ status: 400, body: { error: 'invalid_grant', error_description: `The authorization code was issued by ${s.base}; redeem it there.` } });
    // Refused at the other issuer, the code is spent all the same: authorize again.
    expect((await token(exchange)).body.error).toBe('invalid_grant');

    const fresh = (await consent(authorize(s.base, client.client_id, redirect))).searchParams.get('code')!;
    const tokens = await token({ ...exchange, code: fresh });
    expect(tokens.status).toBe(200);
    const list = () => fetch(`${s.base}/v1/mcp/dbapp`, { method: 'POST', headers: { authorization: `Bearer ${tokens.body.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
    expect((await list()).status).toBe(200);
    const foreign = await at(other, list);
    expect(foreign.status).toBe(401);
    expect(foreign.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(await at(other, () => token({ grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token, client_id: client.client_id }))).toMatchObject({ status: 400, body: { error: 'invalid_grant', error_description: `The refresh token was issued by ${s.base}; refresh it there.` } });
    // Revoked at the other deployment: answered as an unknown token is, and left alone.
    const revoke = () => fetch(`${s.base}/oauth/revoke`, { method: 'POST', body: new URLSearchParams({ token: tokens.body.refresh_token, client_id: client.client_id }) }).then((r) => r.status);
    expect(await at(other, revoke)).toBe(200);
    // Neither spent it: its own issuer still refreshes it.
    expect((await token({ grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token, client_id: client.client_id })).status).toBe(200);
  });
});
