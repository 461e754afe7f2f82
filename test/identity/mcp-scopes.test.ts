import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { platforms } from '../../infra/local/platforms';
import { SANDBOX_KEYS } from '../../infra/twins/kit';
import { createRegistry } from '../../shared/core/registry';
import { catalog } from '../../shared/catalog/catalog';
import { Browser, checkedToolsets, localServer } from './helpers';

describe('scopes of the built-in authorization server: the toolsets', () => {
  let s: Awaited<ReturnType<typeof localServer>>;
  let key: string;
  let client: { client_id: string };
  const redirect = () => `${s.base}/host-callback`;
  const verifier = randomBytes(32).toString('base64url');
  beforeAll(async () => {
    s = await localServer();
    key = (await s.createKey('tenant-s', { platforms: ['dbapp'], toolsets: ['records', 'apps', 'views'], manage_connections: true })).key;
    const created = await s.api('POST', '/v1/connections', { key, body: { platform: 'dbapp', end_user: 'user-1', auth: 'api_key' } });
    await new Browser().connectKey(created.body.data.connect_url, SANDBOX_KEYS.owner);
    client = (await (await fetch(`${s.base}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [redirect()] }) })).json()) as { client_id: string };
  });
  afterAll(() => s.close());

  const authorize = (resource: string, scope?: string) =>
    `${s.base}/oauth/authorize?${new URLSearchParams({ client_id: client.client_id, redirect_uri: redirect(), response_type: 'code', state: 'st-1', resource, code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256', ...(scope !== undefined ? { scope } : {}) })}`;
  const json = async (path: string) => (await (await fetch(`${s.base}${path}`)).json()) as { scopes_supported?: string[] };

  it("lists every platform's toolsets exactly as the registry groups its tools", async () => {
    const entries = await catalog(createRegistry([...platforms]));
    const groups: Record<string, string[]> = {};
    for (const e of entries) if (e.group && !groups[e.platform]?.includes(e.group)) (groups[e.platform] ??= []).push(e.group);
    for (const p of platforms) {
      // The scopes of a platform's endpoint are its descriptor's toolsets: exactly its tools' groups, each marked as writing when one of its tools does.
      expect((await json(`/.well-known/oauth-protected-resource/v1/mcp/${p.name}`)).scopes_supported, p.name).toEqual((groups[p.name] ?? []).sort());
      for (const [name, set] of Object.entries(p.toolsets)) expect(set.writes, `${p.name} ${name}`).toBe(entries.some((e) => e.platform === p.name && e.group === name && !e.annotations.readOnly));
    }
  });

  it('advertises the toolsets as scopes_supported: per endpoint in its resource metadata, all of them in the authorization server metadata', async () => {
    const server = (await json('/.well-known/oauth-authorization-server')).scopes_supported!;
    expect((await json('/.well-known/oauth-protected-resource/v1/mcp/dbapp')).scopes_supported).toEqual(Object.keys(platforms.find((p) => p.name === 'dbapp')!.toolsets).sort());
    expect((await json('/.well-known/oauth-protected-resource/v1/mcp/realty')).scopes_supported).toEqual(['properties']);
    // The combined endpoint serves every platform: every toolset, bare and qualified; the same list as the server's.
    expect((await json('/.well-known/oauth-protected-resource/v1/mcp')).scopes_supported).toEqual(server);
    expect((await json('/.well-known/oauth-protected-resource')).scopes_supported).toEqual(server);
    expect(server).toEqual(expect.arrayContaining(['records', 'contacts', 'dbapp:records', 'crm:contacts', 'filebox:items', 'collab:items']));
    for (const p of platforms.map((x) => x.name)) expect(server).toEqual(expect.arrayContaining((await json(`/.well-known/oauth-protected-resource/v1/mcp/${p}`)).scopes_supported!));
    expect(new Set(server).size).toBe(server.length);
  });

  it('refuses an unknown scope with invalid_scope at the redirect URI, before any sign-in', async () => {
    for (const [resource, scope] of [
      ['/v1/mcp/dbapp', 'records nonsense'],
      // A toolset of another platform is unknown at a platform's endpoint.
      ['/v1/mcp/dbapp', 'crm:contacts'],
      ['/v1/mcp/dbapp', 'contacts'],
      ['/v1/mcp', 'dbapp:contacts'],
    ] as const) {
      const res = await fetch(authorize(`${s.base}${resource}`, scope), { redirect: 'manual' });
      expect(res.status, scope).toBe(302);
      const back = new URL(res.headers.get('location')!);
      expect(`${back.origin}${back.pathname}`).toBe(redirect());
      expect(back.searchParams.get('error')).toBe('invalid_scope');
      expect(back.searchParams.get('state')).toBe('st-1');
      expect(back.searchParams.get('error_description')).toContain('Unknown scope');
    }
  });

  it('pre-fills the consent page with the requested toolsets the key may share, names the others, and issues what the user allowed', async () => {
    const browser = new Browser();
    const form = await browser.request(authorize(`${s.base}/v1/mcp/dbapp`, 'records dbapp:apps webhooks'));
    expect(form.status).toBe(200);
    const consent = await browser.submit(form, 'sign-in', { service_key: key });
    expect(checkedToolsets(consent.html)).toEqual(['apps', 'records']);
    expect(consent.html).toMatch(/<span id="not-shareable">webhooks<\/span>/);
    // Each toolset of the account's platform as its descriptor describes it, and whether it writes.
    expect(consent.html).toMatch(/<strong>records<\/strong><span class="tag">reads and writes<\/span><span class="what">Records: read, filter, create, update, delete and restore, in batches; relations, revisions and comments<\/span>/);
    expect(consent.html).toMatch(/<strong>apps<\/strong><span class="tag">reads<\/span><span class="what">The organization, its users and the apps \(tables\) of a workspace<\/span>/);
    // The user allows the page as filled: the token's scope is those toolsets.
    const back = await browser.submit(consent, 'consent', { decision: 'allow' });
    const code = new URL(back.url).searchParams.get('code')!;
    const res = await fetch(`${s.base}/oauth/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: client.client_id, redirect_uri: redirect() }) });
    const tokens = (await res.json()) as { access_token: string; refresh_token: string; scope: string };
    expect(tokens.scope).toBe('apps records');
    const list = (query: string) => fetch(`${s.base}/v1/mcp/dbapp${query}`, { method: 'POST', headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
    expect((await list('?toolsets=records,apps')).status).toBe(200);
    expect((await list('?toolsets=views')).status).toBe(403);
    // A refresh keeps the grant, and says so.
    const refresh = (token: string, scope?: string) =>
      fetch(`${s.base}/oauth/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: token, client_id: client.client_id, ...(scope !== undefined ? { scope } : {}) }) });
    const refreshed = (await (await refresh(tokens.refresh_token)).json()) as { refresh_token: string; scope: string };
    expect(refreshed.scope).toBe('apps records');
    // A refresh may narrow the grant (RFC 6749 §6), never widen it; a refused one does not spend the refresh token.
    const wider = await refresh(refreshed.refresh_token, 'records views');
    expect(wider.status).toBe(400);
    expect(((await wider.json()) as { error: string }).error).toBe('invalid_scope');
    const narrower = (await (await refresh(refreshed.refresh_token, 'dbapp:records')).json()) as { access_token: string; scope: string };
    expect(narrower.scope).toBe('records');
    const narrowList = await fetch(`${s.base}/v1/mcp/dbapp?toolsets=apps`, { method: 'POST', headers: { authorization: `Bearer ${narrower.access_token}`, 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
    expect(narrowList.status).toBe(403);
  });

  it('at the combined endpoint, picks the account of the platform the scope names and grants its toolsets only', async () => {
    const both = (await s.createKey('tenant-both', { platforms: ['dbapp', 'crm'] })).key;
    const ids: Record<string, string> = {};
    for (const platform of ['dbapp', 'crm']) {
      const created = await s.api('POST', '/v1/connections', { key: both, body: { platform, end_user: `user-${platform}`, auth: 'api_key' } });
      await new Browser().connectKey(created.body.data.connect_url, SANDBOX_KEYS.owner);
      ids[platform] = created.body.data.connection.id;
    }
    const consentFor = async (scope: string) => {
      const browser = new Browser();
      return { browser, consent: await browser.submit(await browser.request(authorize(`${s.base}/v1/mcp`, scope)), 'sign-in', { service_key: both }) };
    };
    const named = await consentFor('crm:contacts crm:deals');
    expect(named.consent.html).toContain(`value="${ids.crm}" checked`);
    expect(checkedToolsets(named.consent.html)).toEqual(['crm:contacts', 'crm:deals']);
    const back = await named.browser.submit(named.consent, 'consent', { decision: 'allow' });
    const code = new URL(back.url).searchParams.get('code')!;
    const res = await fetch(`${s.base}/oauth/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: client.client_id, redirect_uri: redirect() }) });
    expect(((await res.json()) as { scope: string }).scope).toBe('contacts deals');
    // Toolsets of another platform than the chosen account's do not apply; choosing only those is refused.
    const other = await consentFor('crm:contacts');
    const refused = await other.browser.submit(other.consent, 'consent', { decision: 'allow', connection: ids.dbapp! });
    expect(refused.status).toBe(400);
    expect(refused.html).toContain('is on dbapp');
  });

  it('issues a narrower scope when the user narrows the page, and every toolset of the key when the request names none', async () => {
    const signIn = async (scope: string | undefined, toolsets?: string) => {
      const browser = new Browser();
      const consent = await browser.submit(await browser.request(authorize(`${s.base}/v1/mcp/dbapp`, scope)), 'sign-in', { service_key: key });
      if (scope === undefined) expect(checkedToolsets(consent.html)).toEqual(['apps', 'records', 'views']);
      const back = await browser.submit(consent, 'consent', { decision: 'allow', ...(toolsets !== undefined ? { toolsets } : {}) });
      const code = new URL(back.url).searchParams.get('code')!;
      const res = await fetch(`${s.base}/oauth/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: client.client_id, redirect_uri: redirect() }) });
      return ((await res.json()) as { scope: string }).scope;
    };
    expect(await signIn('records apps', 'records')).toBe('records');
    expect(await signIn(undefined)).toBe('apps records views');
  });
});
