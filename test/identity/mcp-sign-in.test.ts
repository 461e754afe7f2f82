import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_KEYS } from '../../infra/twins/kit';
import type { MemoryStore } from '../../shared/store/memory';
import { Scopes } from '../../shared/identity/mcp-oauth/scopes';
import { platforms } from '../../functions/platforms';
import { Browser, checkedToolsets, PkceHost, signInForm, signInServer } from './helpers';

/** A host as Claude or ChatGPT connectors are: it knows only the URL, and keeps what the SDK hands it. */
class HeadlessHost extends PkceHost implements OAuthClientProvider {
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  constructor(callback: string) {
    super(callback, 'Headless test host');
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
}

/**
 * A host that keeps access tokens only (no refresh token): on a 403 insufficient_scope the SDK has
 * nothing to refresh, so it goes straight to a new authorization asking for the challenge's scope.
 * (Holding a refresh token, the SDK refreshes first — the same grant — and stops at the second 403.)
 */
class AccessOnlyHost extends HeadlessHost {
  override saveTokens({ refresh_token: _r, ...tokens }: OAuthTokens) {
    super.saveTokens(tokens);
  }
}

const text = (r: unknown) => (r as { content: { type: string; text: string }[] }).content[0]!.text;

describe('MCP sign-in through the built-in authorization server', () => {
  let f: Awaited<ReturnType<typeof signInServer>>;
  let s: typeof f.s;
  let clock = Date.now();
  let key: string;
  let connection: string;
  beforeAll(async () => {
    f = await signInServer('tenant-a', { platforms: ['dbapp', 'crm'], toolsets: ['workspaces', 'records', 'apps'], manage_connections: true }, { now: () => clock });
    ({ s, key, connection } = f);
  });
  afterAll(() => f.close());

  /** The whole sign-in as a host does it: 401, discovery, registration, the consent page, PKCE and the token. */
  async function signIn(path: string, choice: { toolsets?: string; read_only?: string } = {}, serviceKey = key, host = new HeadlessHost(`${s.base}/host-callback`)) {
    const url = new URL(`${s.base}${path}`);
    const first = new Client({ name: 'host', version: '1.0.0' });
    await expect(first.connect(new StreamableHTTPClientTransport(url, { authProvider: host }))).rejects.toThrow(UnauthorizedError);
    expect(host.info?.client_id).toMatch(/^mcp_/);
    const authorizationUrl = host.authorizationUrl!;
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizationUrl.searchParams.get('resource')).toBe(`${s.base}${path}`);
    // No challenge names a scope yet: the SDK asks for the endpoint's scopes_supported, its toolsets.
    expect(authorizationUrl.searchParams.get('scope')).toBe(path === '/v1/mcp' ? new Scopes(platforms).supported().join(' ') : new Scopes(platforms).supported(path.split('/')[3]).join(' '));
    // The user's browser: the sign-in form (service key), then the consent form (connection, toolsets).
    const { browser, consent } = await signInForm(authorizationUrl, serviceKey);
    expect(consent.html).toContain(connection);
    const back = await browser.submit(consent, 'consent', { decision: 'allow', ...(choice.toolsets !== undefined ? { toolsets: choice.toolsets } : {}), ...(choice.read_only ? { read_only: choice.read_only } : {}) });
    const code = new URL(back.url).searchParams.get('code');
    expect(new URL(back.url).pathname).toBe('/host-callback');
    expect(new URL(back.url).searchParams.get('state')).toBe(authorizationUrl.searchParams.get('state'));
    const transport = new StreamableHTTPClientTransport(url, { authProvider: host });
    await transport.finishAuth(code!);
    const client = new Client({ name: 'host', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url, { authProvider: host }));
    f.clients.push(client);
    return { host, client, code: code! };
  }

  it('answers 401 naming the resource metadata, which names this authorization server', async () => {
    for (const path of ['/v1/mcp', '/v1/mcp/dbapp']) {
      const res = await fetch(`${s.base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe(`Bearer realm="MCP: sign in with OAuth, or Authorization: Bearer <service key or API key>", resource_metadata="${s.base}/.well-known/oauth-protected-resource${path}"`);
      // The body says both ways in: OAuth from the metadata, or the header.
      const body = (await res.json()) as { error: { message: string; details: Record<string, unknown> } };
      expect(body.error.message).toContain(`OAuth 2.1: its sign-in starts from ${s.base}/.well-known/oauth-protected-resource${path}`);
      expect(body.error.message).toContain('"Authorization: Bearer <key>" with a service key (tes_…)');
      expect(body.error.details).toMatchObject({ header: 'Authorization', resource_metadata: `${s.base}/.well-known/oauth-protected-resource${path}`, sign_in: 'oauth' });
      const meta = (await (await fetch(`${s.base}/.well-known/oauth-protected-resource${path}`)).json()) as Record<string, unknown>;
      expect(meta).toMatchObject({ resource: `${s.base}${path}`, authorization_servers: [s.base] });
    }
    const as = (await (await fetch(`${s.base}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(as).toMatchObject({ issuer: s.base, code_challenge_methods_supported: ['S256'], registration_endpoint: `${s.base}/oauth/register`, client_id_metadata_document_supported: true });
  });

  it('signs the official SDK client in headlessly; it lists and calls tools through the picked connection; refresh rotates', async () => {
    const { host, client, code } = await signIn('/v1/mcp/dbapp');
    const first = host.saved!;
    expect(first.access_token).toMatch(/^tat_/);
    expect(first.expires_in).toBe(3600);
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toContain('listWorkspaces');
    // Only what the key allows: no tool of a toolset outside its policy.
    expect(names.every((n) => !/webhook/i.test(n))).toBe(true);
    const result = await client.callTool({ name: 'listWorkspaces', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(text(result).length).toBeGreaterThan(0);

    // An hour later the access token has expired: the SDK refreshes on the 401 and the call goes through.
    clock += 3601_000;
    const expired = await fetch(`${s.base}/v1/mcp/dbapp`, { method: 'POST', headers: { authorization: `Bearer ${first.access_token}`, 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toContain('error="invalid_token"');
    const later = await client.callTool({ name: 'listWorkspaces', arguments: {} });
    expect(later.isError).toBeFalsy();
    expect(host.saved!.access_token).not.toBe(first.access_token);
    expect(host.saved!.refresh_token).not.toBe(first.refresh_token);
    // The spent refresh token is refused.
    const reuse = await fetch(`${s.base}/oauth/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: first.refresh_token!, client_id: host.info!.client_id }) });
    expect(reuse.status).toBe(400);
    expect(((await reuse.json()) as { error: string }).error).toBe('invalid_grant');
    // ...and, as a leaked copy, it revokes every token of that sign-in: the current ones too.
    const current = await fetch(`${s.base}/v1/mcp/dbapp`, { method: 'POST', headers: { authorization: `Bearer ${host.saved!.access_token}`, 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
    expect(current.status).toBe(401);
    const currentRefresh = await fetch(`${s.base}/oauth/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: host.saved!.refresh_token!, client_id: host.info!.client_id }) });
    expect(currentRefresh.status).toBe(400);

    // The code works once (a replay also revokes what it issued: test/identity/mcp-revocation.test.ts).
    const again = await fetch(`${s.base}/oauth/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: host.verifier, client_id: host.info!.client_id }) });
    expect(again.status).toBe(400);
    expect(((await again.json()) as { error: string }).error).toBe('invalid_grant');

    // Tokens are stored hashed only.
    const raw = JSON.stringify([...((s.rt.store as MemoryStore) as any).entries.entries()]);
    for (const t of [first.access_token, first.refresh_token!, host.saved!.access_token, host.saved!.refresh_token!, code]) expect(raw).not.toContain(t);
  });

  it('refuses a token at another resource, over REST, and after its key is revoked', async () => {
    const other = await s.createKey('tenant-a', { platforms: ['dbapp'] });
    const { host } = await signIn('/v1/mcp/dbapp', {}, other.key);
    const token = host.saved!.access_token;
    const list = (path: string) => fetch(`${s.base}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
    for (const path of ['/v1/mcp', '/v1/mcp/crm']) {
      const res = await list(path);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toContain(`resource_metadata="${s.base}/.well-known/oauth-protected-resource${path}"`);
      expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
    }
    const rest = await s.api('POST', '/v1/tools/dbapp/listWorkspaces', { key: token, body: {} });
    expect(rest.status).toBe(401);
    expect((await list('/v1/mcp/dbapp')).status).toBe(200);
    expect((await s.api('DELETE', `/v1/admin/keys/${other.id}`, { key: 'adm_test_credential' })).status).toBe(200);
    const revoked = await list('/v1/mcp/dbapp');
    expect(revoked.status).toBe(401);
    expect(revoked.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('serves only the narrower scope the user granted', async () => {
    const { client } = await signIn('/v1/mcp/dbapp', { toolsets: 'records' });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).not.toContain('listWorkspaces');
    // Called anyway, it says why, as REST does: FORBIDDEN naming the policy, not an unknown tool.
    const hidden = (await client.callTool({ name: 'listWorkspaces', arguments: {} })) as { isError?: boolean; content: { text: string }[] };
    expect(hidden.isError).toBe(true);
    expect(JSON.parse(hidden.content[0]!.text).error).toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('toolset "workspaces" of "listWorkspaces" is not allowed') });
    // Wider than the key: refused on the consent page.
    const host = new HeadlessHost(`${s.base}/host-callback`);
    await expect(new Client({ name: 'h', version: '1' }).connect(new StreamableHTTPClientTransport(new URL(`${s.base}/v1/mcp/dbapp`), { authProvider: host }))).rejects.toThrow(UnauthorizedError);
    const { browser, consent } = await signInForm(host.authorizationUrl!, key);
    const refused = await browser.submit(consent, 'consent', { decision: 'allow', toolsets: 'webhooks' });
    expect(refused.status).toBe(400);
    expect(refused.html).toContain('does not allow toolset(s) webhooks');
  });

  it('answers an endpoint asking for toolsets the sign-in did not share with 403 insufficient_scope naming them', async () => {
    const { host } = await signIn('/v1/mcp/dbapp', { toolsets: 'records' });
    const post = (query: string) =>
      fetch(`${s.base}/v1/mcp/dbapp${query}`, { method: 'POST', headers: { authorization: `Bearer ${host.saved!.access_token}`, 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
    const res = await post('?toolsets=records,apps');
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toMatch(
      new RegExp(`^Bearer error="insufficient_scope", scope="records apps", resource_metadata="${s.base}/\\.well-known/oauth-protected-resource/v1/mcp/dbapp", error_description="[^"]*shares toolset\\(s\\) records only, not apps`),
    );
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('FORBIDDEN');
    // What it shared stays open.
    expect((await post('?toolsets=records')).status).toBe(200);
    expect((await post('')).status).toBe(200);

    // The SDK client holding a refresh token first refreshes (the same grant, the same toolsets), retries once,
    // and stops with the 403 rather than looping.
    const before = host.saved!.refresh_token;
    const client = new Client({ name: 'host', version: '1.0.0' });
    await expect(client.connect(new StreamableHTTPClientTransport(new URL(`${s.base}/v1/mcp/dbapp?toolsets=records,apps`), { authProvider: host }))).rejects.toThrow(/403 after trying upscoping/);
    expect(host.saved!.refresh_token).not.toBe(before);
  });

  it("steps up: the SDK client's 403 insufficient_scope re-authorizes with the wider scope, on a page pre-filled with it, and the new token carries it", async () => {
    const host = new AccessOnlyHost(`${s.base}/host-callback`);
    await signIn('/v1/mcp/dbapp', { toolsets: 'records' }, key, host);
    expect(host.saved!.scope).toBe('records');
    expect(host.saved!.refresh_token).toBeUndefined();
    const wide = new URL(`${s.base}/v1/mcp/dbapp?toolsets=records,apps`);
    await expect(new Client({ name: 'host', version: '1.0.0' }).connect(new StreamableHTTPClientTransport(wide, { authProvider: host }))).rejects.toThrow(UnauthorizedError);
    const again = host.authorizationUrl!;
    expect(again.searchParams.get('scope')).toBe('records apps');
    expect(again.searchParams.get('resource')).toBe(`${s.base}/v1/mcp/dbapp`);
    const { browser, consent } = await signInForm(again, key);
    expect(checkedToolsets(consent.html)).toEqual(['apps', 'records']);
    expect(consent.html).toContain(`value="${connection}" checked`);
    // The user allows the page as it is.
    const back = await browser.submit(consent, 'consent', { decision: 'allow' });
    const code = new URL(back.url).searchParams.get('code')!;
    await new StreamableHTTPClientTransport(wide, { authProvider: host }).finishAuth(code);
    expect(host.saved!.scope).toBe('apps records');
    const client = new Client({ name: 'host', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(wide, { authProvider: host }));
    f.clients.push(client);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['listApps', 'getRecord']));
    expect(names).not.toContain('listWorkspaces');
  });

  it('refuses an authorization request without S256 PKCE, and an unregistered redirect URI', async () => {
    const reg = (await (await fetch(`${s.base}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [`${s.base}/cb`] }) })).json()) as { client_id: string };
    const q = (extra: Record<string, string>) => `${s.base}/oauth/authorize?${new URLSearchParams({ client_id: reg.client_id, redirect_uri: `${s.base}/cb`, response_type: 'code', state: 'st', ...extra })}`;
    const plain = await fetch(q({ code_challenge: 'abc', code_challenge_method: 'plain' }), { redirect: 'manual' });
    expect(plain.status).toBe(302);
    expect(new URL(plain.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
    const missing = await fetch(q({}), { redirect: 'manual' });
    expect(new URL(missing.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
    const elsewhere = await fetch(q({ code_challenge: 'abc', code_challenge_method: 'S256', redirect_uri: 'https://evil.example/cb' }), { redirect: 'manual' });
    expect(elsewhere.status).toBe(400);
    const badReg = await fetch(`${s.base}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: ['http://evil.example/cb'] }) });
    expect(badReg.status).toBe(400);
  });

  it('keeps service keys and vendor keys working on the same endpoint', async () => {
    const byKey = await fetch(`${s.base}/v1/mcp/dbapp?connection=${connection}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"listWorkspaces","arguments":{}}}' });
    expect(byKey.status).toBe(200);
    expect(((await byKey.json()) as { result: { isError?: boolean } }).result.isError).toBeFalsy();
    const byVendor = await fetch(`${s.base}/v1/mcp/dbapp`, { method: 'POST', headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}`, 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"listWorkspaces","arguments":{}}}' });
    expect(byVendor.status).toBe(200);
    expect(((await byVendor.json()) as { result: { isError?: boolean } }).result.isError).toBeFalsy();
  });

  it('accepts a Client ID Metadata Document: the client id is the URL of its JSON', async () => {
    const docs = new Map<string, unknown>();
    const server: Server = createServer((req, res) => {
      const doc = docs.get(req.url ?? '');
      res.writeHead(doc ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify(doc ?? {}));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const clientId = `${origin}/client.json`;
      const redirect = `${s.base}/host-callback`;
      docs.set('/client.json', { client_id: clientId, client_name: 'Metadata host', redirect_uris: [redirect] });
      docs.set('/liar.json', { client_id: `${origin}/other.json`, redirect_uris: [redirect] });
      const verifier = randomBytes(32).toString('base64url');
      const authorize = (id: string) => `${s.base}/oauth/authorize?${new URLSearchParams({ client_id: id, redirect_uri: redirect, response_type: 'code', state: 'st', resource: `${s.base}/v1/mcp/dbapp`, code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256' })}`;
      const browser = new Browser();
      const form = await browser.request(authorize(clientId));
      expect(form.html).toContain('Metadata host');
      const consent = await browser.submit(form, 'sign-in', { service_key: key });
      const back = await browser.submit(consent, 'consent', { decision: 'allow' });
      const code = new URL(back.url).searchParams.get('code')!;
      const token = async (id: string) => fetch(`${s.base}/oauth/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: id, redirect_uri: redirect, resource: `${s.base}/v1/mcp/dbapp` }) });
      const tokens = (await (await token(clientId)).json()) as { access_token: string };
      const listed = await fetch(`${s.base}/v1/mcp/dbapp`, { method: 'POST', headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
      expect(listed.status).toBe(200);
      expect(JSON.stringify(await listed.json())).toContain('listWorkspaces');
      // A document that names another client id, or one on an address the guard refuses, is not a client.
      expect((await browser.request(authorize(`${origin}/liar.json`))).html).toContain('is not its own URL');
      const blocked = await browser.request(authorize('http://10.1.2.3/client.json'));
      expect(blocked.status).toBe(400);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
