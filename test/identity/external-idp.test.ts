import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadIdentityConfig } from '../../shared/identity/config';
import { ExternalTokens } from '../../shared/identity/mcp-oauth/external';
import { b64, connectedDbapp, externalIdpServer, jwksServer, jwt, localServer, providerKey } from './helpers';

const ISSUER = 'https://idp.test/pool-1';
const SCOPE = 'tes/mcp';

describe('MCP sign-in through an external identity provider (JWT access tokens)', () => {
  let s: Awaited<ReturnType<typeof localServer>>;
  let jwks: Awaited<ReturnType<typeof jwksServer>>;
  let clock = Date.now();
  let connection: string;
  const rsa = providerKey('RS256', 'rsa-1');
  const ec = providerKey('ES256', 'ec-1');
  const rotated = providerKey('RS256', 'rsa-2');
  const clients: Client[] = [];

  beforeAll(async () => {
    ({ s, jwks } = await externalIdpServer(ISSUER, [rsa, ec], { platforms: ['dbapp'], toolsets: ['workspaces', 'apps'], read_only: true }, { MCP_AUTH_SCOPES: SCOPE }, { now: () => clock }));
    ({ connection } = await connectedDbapp(s, 'acme'));
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await s?.close();
    await jwks?.close();
  });

  const now = () => Math.floor(clock / 1000);
  const claims = (extra: Record<string, unknown> = {}) => ({ iss: ISSUER, aud: `${s.base}/v1/mcp/dbapp`, sub: 'u-1', 'custom:tenant': 'acme', 'custom:connection': connection, scope: `openid ${SCOPE}`, iat: now(), exp: now() + 3600, ...extra });
  const post = (token: string, path = '/v1/mcp/dbapp', method = 'tools/list', params?: unknown) =>
    fetch(`${s.base}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, ...(params ? { params } : {}) }) });

  it("names the provider in the protected-resource metadata and turns the built-in server's endpoints off", async () => {
    const meta = (await (await fetch(`${s.base}/.well-known/oauth-protected-resource/v1/mcp/dbapp`)).json()) as Record<string, unknown>;
    expect(meta).toMatchObject({ resource: `${s.base}/v1/mcp/dbapp`, authorization_servers: [ISSUER], scopes_supported: [SCOPE] });
    const unauth = await fetch(`${s.base}/v1/mcp/dbapp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
    expect(unauth.status).toBe(401);
    expect(unauth.headers.get('www-authenticate')).toContain(`resource_metadata="${s.base}/.well-known/oauth-protected-resource/v1/mcp/dbapp"`);
    for (const path of ['/.well-known/oauth-authorization-server', '/oauth/register', '/oauth/token']) {
      const res = await fetch(`${s.base}${path}`, { method: path.startsWith('/.well') ? 'GET' : 'POST' });
      expect(res.status).toBe(404);
      expect(((await res.json()) as { error_description: string }).error_description).toContain(ISSUER);
    }
  });

  it("lets the official SDK client list and call tools with the provider's RS256 and ES256 tokens, as the tenant's policy allows", async () => {
    for (const key of [rsa, ec]) {
      const client = new Client({ name: 'host', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${s.base}/v1/mcp/dbapp`), { requestInit: { headers: { authorization: `Bearer ${jwt(key, claims())}` } } }));
      clients.push(client);
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toContain('listWorkspaces');
      // The mapped policy: read-only tools of the listed toolsets only.
      expect(names.some((n) => /^(create|update|delete)/.test(n))).toBe(false);
      const result = await client.callTool({ name: 'listWorkspaces', arguments: {} });
      expect(result.isError).toBeFalsy();
    }
  });

  it('refuses a token for another audience, expired, not yet valid, with a bad signature, another issuer or without the scope', async () => {
    const refused = async (token: string, why: RegExp, path?: string) => {
      const res = await post(token, path);
      expect(res.status).toBe(401);
      const challenge = res.headers.get('www-authenticate')!;
      expect(challenge).toContain('error="invalid_token"');
      expect(challenge).toMatch(why);
    };
    await refused(jwt(rsa, claims({ aud: `${s.base}/v1/mcp/crm` })), /not for .*\/v1\/mcp\/dbapp/);
    // A token for one endpoint is not good at another, nor over REST.
    await refused(jwt(rsa, claims()), /not for/, '/v1/mcp');
    const rest = await s.api('POST', '/v1/tools/dbapp/listWorkspaces', { key: jwt(rsa, claims()), body: {} });
    expect(rest.status).toBe(401);
    await refused(jwt(rsa, claims({ exp: now() - 120 })), /expired/);
    await refused(jwt(rsa, claims({ exp: undefined })), /no expiry/);
    await refused(jwt(rsa, claims({ nbf: now() + 600 })), /not valid yet/);
    // Within the tolerated clock skew a just-expired token still passes.
    expect((await post(jwt(rsa, claims({ exp: now() - 10 })))).status).toBe(200);
    // Signed by the other key under this key's kid, or altered after signing.
    await refused(jwt({ ...rsa, privateKey: rotated.privateKey }, claims()), /signature does not verify/);
    const [h, , sig] = jwt(rsa, claims()).split('.');
    await refused(`${h}.${b64(claims({ 'custom:tenant': 'other' }))}.${sig}`, /signature does not verify/);
    // An ES256 key presented as RS256, and alg "none", are refused before any signature check.
    await refused(jwt(ec, claims(), { alg: 'RS256' }), /claims RS256, but its key is for ES256/);
    await refused(`${b64({ alg: 'none', kid: 'rsa-1' })}.${b64(claims())}.`, /signed with 'none'/);
    // Another issuer's token is refused by name, never passed through to the vendor as a vendor key.
    await refused(jwt(rsa, claims({ iss: 'https://evil.example/pool' })), /issued by https:\/\/evil.example\/pool/);
  });

  it('answers a valid token lacking the scope with 403 insufficient_scope naming the scope, and the SDK client signs in again asking for it', async () => {
    const narrow = jwt(rsa, claims({ scope: 'openid' }));
    const res = await post(narrow);
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toMatch(
      new RegExp(`^Bearer error="insufficient_scope", scope="tes/mcp", resource_metadata="${s.base}/\\.well-known/oauth-protected-resource/v1/mcp/dbapp", error_description="[^"]*lacks the scope tes/mcp`),
    );
    const body = (await res.json()) as { error: { code: string; message: string; details: Record<string, unknown> } };
    expect(body.error).toMatchObject({ code: 'FORBIDDEN', details: { error: 'insufficient_scope', scope: SCOPE } });
    expect(body.error.message).toMatch(/sign in again from your MCP host asking for the scope "tes\/mcp"/);
    // The same token with the scope passes: the refusal is about the scope only.
    expect((await post(jwt(rsa, claims()))).status).toBe(200);

    // The SDK client on this 403 starts a new authorization at the provider asking for the named scope.
    const redirects: URL[] = [];
    const provider: OAuthClientProvider = {
      redirectUrl: `${s.base}/host-callback`,
      clientMetadata: { redirect_uris: [`${s.base}/host-callback`], token_endpoint_auth_method: 'none' },
      clientInformation: () => ({ client_id: 'host-app' }),
      tokens: () => ({ access_token: narrow, token_type: 'Bearer' }),
      saveTokens: () => {},
      redirectToAuthorization: (url) => void redirects.push(url),
      saveCodeVerifier: () => {},
      codeVerifier: () => '',
    };
    // The provider's authorization server metadata, as the SDK fetches it from the issuer.
    const viaProvider: typeof fetch = (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (!url.startsWith('https://idp.test/')) return fetch(input, init);
      if (!url.includes('/.well-known/oauth-authorization-server')) return Promise.resolve(new Response('not found', { status: 404 }));
      return Promise.resolve(Response.json({ issuer: ISSUER, authorization_endpoint: `${ISSUER}/authorize`, token_endpoint: `${ISSUER}/token`, response_types_supported: ['code'], code_challenge_methods_supported: ['S256'] }));
    };
    const transport = new StreamableHTTPClientTransport(new URL(`${s.base}/v1/mcp/dbapp`), { authProvider: provider, fetch: viaProvider });
    await expect(new Client({ name: 'host', version: '1.0.0' }).connect(transport)).rejects.toThrow(UnauthorizedError);
    expect(redirects).toHaveLength(1);
    expect(redirects[0]!.origin + redirects[0]!.pathname).toBe(`${ISSUER}/authorize`);
    expect(redirects[0]!.searchParams.get('scope')).toBe(SCOPE);
    expect(redirects[0]!.searchParams.get('resource')).toBe(`${s.base}/v1/mcp/dbapp`);
  });

  it('refuses an identity the tenant mapping does not list, and a connection the token does not name', async () => {
    const res = await post(jwt(rsa, claims({ 'custom:tenant': 'globex' })));
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain('MCP_AUTH_TENANTS');
    const other = await post(jwt(rsa, claims()), '/v1/mcp/dbapp?connection=con_other', 'tools/call', { name: 'listWorkspaces', arguments: {} });
    expect(JSON.stringify(await other.json())).toContain('granted for connection');
  });

  it('refetches the JWKS once for an unknown kid (rotation), and no more than once per interval for garbage kids', async () => {
    const before = jwks.state.hits;
    jwks.state.keys = [rotated, rsa];
    // Right after a fetch the cached set is trusted: a fresh kid waits for the refetch interval.
    clock += 31_000;
    expect((await post(jwt(rotated, claims()))).status).toBe(200);
    expect(jwks.state.hits).toBe(before + 1);
    // The old key still verifies from the cache; no further fetch.
    expect((await post(jwt(rsa, claims()))).status).toBe(200);
    expect(jwks.state.hits).toBe(before + 1);
    // A kid the provider never published: refused; one more fetch at most, then none within the interval.
    clock += 31_000;
    const ghost = { ...rotated, kid: 'ghost' };
    const first = await post(jwt(ghost, claims()));
    expect(first.status).toBe(401);
    expect(first.headers.get('www-authenticate')).toContain('signing key');
    expect(jwks.state.hits).toBe(before + 2);
    for (let i = 0; i < 5; i++) expect((await post(jwt({ ...ghost, kid: `ghost-${i}` }, claims()))).status).toBe(401);
    expect(jwks.state.hits).toBe(before + 2);
  });
});

describe('external identity provider configuration', () => {
  const base = { MCP_AUTH_SERVER: 'external', MCP_AUTH_ISSUER: ISSUER, MCP_AUTH_TENANTS: JSON.stringify({ acme: { policy: { platforms: ['crm'] } } }) };

  it('is never half on: each incomplete or stray setting stops the start with a sentence naming it', () => {
    expect(() => loadIdentityConfig({ MCP_AUTH_ISSUER: ISSUER })).toThrow(/MCP_AUTH_ISSUER is set but MCP_AUTH_SERVER is "builtin"/);
    expect(() => loadIdentityConfig({ MCP_AUTH_SERVER: 'external', MCP_AUTH_ISSUER: ISSUER })).toThrow(/needs MCP_AUTH_TENANTS/);
    expect(() => loadIdentityConfig({ MCP_AUTH_SERVER: 'external' })).toThrow(/needs MCP_AUTH_ISSUER and MCP_AUTH_TENANTS/);
    expect(() => loadIdentityConfig({ MCP_AUTH_SERVER: 'cognito' })).toThrow(/"builtin" \(default\) or "external"/);
    expect(() => loadIdentityConfig({ ...base, MCP_AUTH_ISSUER: 'http://idp.example/pool' })).toThrow(/MCP_AUTH_ISSUER must be an https URL/);
    expect(() => loadIdentityConfig({ ...base, MCP_AUTH_TENANTS: '{"acme": {"policy": {"platforms": []}}}' })).toThrow(/MCP_AUTH_TENANTS\["acme"\]\.policy\.platforms/);
    expect(() => loadIdentityConfig({ ...base, MCP_AUTH_TENANTS: 'acme' })).toThrow(/must be JSON/);
    expect(loadIdentityConfig({}).externalAuth).toBeUndefined();
    expect(loadIdentityConfig(base).externalAuth).toMatchObject({ issuer: ISSUER, jwksUrl: `${ISSUER}/.well-known/jwks.json`, audienceClaim: 'aud', tenantClaim: 'sub', tenants: { acme: { tenant: 'acme', policy: { platforms: ['crm'] } } } });
  });

  it('refuses to start the local server half on', async () => {
    await expect(localServer({ MCP_AUTH_ISSUER: ISSUER })).rejects.toThrow(/MCP_AUTH_SERVER/);
  });

  it('checks a configured audience claim instead of the endpoint URL (an access token naming its app client in client_id), and maps a list claim', async () => {
    const jwks = await jwksServer();
    try {
      const key = providerKey('RS256', 'k1');
      jwks.state.keys = [key];
      const config = loadIdentityConfig({ ...base, ALLOW_HTTP_HOSTS: '127.0.0.1', MCP_AUTH_JWKS_URL: jwks.url, MCP_AUTH_AUDIENCE: 'app-client-1', MCP_AUTH_AUDIENCE_CLAIM: 'client_id', MCP_AUTH_TENANT_CLAIM: 'sub' }).externalAuth!;
      const tokens = new ExternalTokens(config, Date.now, ['127.0.0.1']);
      const t = Math.floor(Date.now() / 1000);
      const resource = 'https://tes.example/v1/mcp/crm';
      const ok = await tokens.verify(jwt(key, { iss: ISSUER, client_id: 'app-client-1', sub: 'acme', exp: t + 60 }), resource);
      expect(ok.key).toMatchObject({ tenant: 'acme', policy: { platforms: ['crm'] } });
      expect(ok.key.id).toMatch(/^ext_/);
      await expect(tokens.verify(jwt(key, { iss: ISSUER, client_id: 'app-client-2', aud: resource, sub: 'acme', exp: t + 60 }), resource)).rejects.toThrow(/not for app-client-1/);
      // A list claim (a user's groups) maps through its first listed value.
      const groups = new ExternalTokens({ ...config, tenantClaim: 'cognito:groups' }, Date.now, ['127.0.0.1']);
      const byGroup = await groups.verify(jwt(key, { iss: ISSUER, client_id: 'app-client-1', 'cognito:groups': ['staff', 'acme'], exp: t + 60 }), resource);
      expect(byGroup.key.tenant).toBe('acme');
      await expect(groups.verify(jwt(key, { iss: ISSUER, client_id: 'app-client-1', 'cognito:groups': ['staff'], exp: t + 60 }), resource)).rejects.toThrow(/not mapped to a tenant/);
    } finally {
      await jwks.close();
    }
  });
});
