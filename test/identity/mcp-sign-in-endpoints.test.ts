import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SANDBOX_KEYS } from '../../infra/twins/kit';
import { Browser, connectedDbapp, hostSignIn, leaveRefusedSignIn, localServer, submitRefusedKey } from './helpers';

/**
 * One sign-in covering several MCP endpoints of the deployment (the consent page's "Use this
 * sign-in for"), its tokens still bound to one endpoint each (RFC 8707); and an API-key account
 * connected from the sign-in page itself — both through HTTP against the twins.
 */

const mcp = (url: string, token: string, body: object) =>
  fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, ...body }) });
const call = async (url: string, token: string, name: string, args: object = {}) => {
  const res = await mcp(url, token, { method: 'tools/call', params: { name, arguments: args } });
  return { status: res.status, body: res.status === 200 ? ((await res.json()) as { result?: { isError?: boolean; content: { text: string }[] }; error?: unknown }) : undefined };
};
const token = (base: string, form: Record<string, string>) => fetch(`${base}/oauth/token`, { method: 'POST', body: new URLSearchParams(form) }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, string> }));

describe('one sign-in for several endpoints', () => {
  let s: Awaited<ReturnType<typeof localServer>>;
  let key: string;
  let dbappAccount: string;
  let crmAccount: string;
  beforeAll(async () => {
    s = await localServer();
    // A tenant with an account on crm (through the HubSpot twin's OAuth), dbapp (a Tape key) and collab (the Podio twin's OAuth).
    ({ key, connection: dbappAccount } = await connectedDbapp(s, 'tenant-multi', { platforms: ['crm', 'dbapp', 'collab'], manage_connections: true }));
    const connect = async (platform: string) => {
      const created = await s.api('POST', '/v1/connections', { key, body: { platform, end_user: 'jane', auth: 'oauth' } });
      expect((await new Browser().connectOAuth(created.body.data.connect_url)).html).toContain('id="connected"');
      return created.body.data.connection.id as string;
    };
    crmAccount = await connect('crm');
    await connect('collab');
  }, 60_000);
  afterAll(() => s.close());

  const crm = () => `${s.base}/v1/mcp/crm`;
  const dbapp = () => `${s.base}/v1/mcp/dbapp`;
  const collab = () => `${s.base}/v1/mcp/collab`;
  const withKey = (b: Browser, form: { url: string; status: number; html: string }) => b.submit(form, 'sign-in', { service_key: key });

  it('offers the other endpoints whose platform the key has an account on, none chosen by default', async () => {
    const signedIn = await hostSignIn(s.base, crm(), withKey);
    const html = signedIn.consent.html;
    expect(html).toContain('Use this sign-in for');
    for (const r of [`${s.base}/v1/mcp`, dbapp(), collab()]) expect(html).toContain(`name="also" value="${r}"`);
    expect(html).not.toContain(`name="also" value="${crm()}"`);
    expect(html).not.toMatch(/name="also" value="[^"]*" checked/);
    // The default: this endpoint only. A refresh for another endpoint is refused.
    const other = await token(s.base, { grant_type: 'refresh_token', refresh_token: signedIn.tokens.refresh_token, client_id: signedIn.client.client_id, resource: dbapp() });
    expect(other.status).toBe(400);
    expect(other.body.error).toBe('invalid_target');
  });

  it('signed in at crm choosing dbapp too: a refresh with resource= gives a dbapp token that works there; collab (not chosen) is refused; revoking ends all', async () => {
    const signedIn = await hostSignIn(s.base, crm(), withKey, undefined, { also: dbapp() });
    const { client, tokens } = signedIn;
    expect(tokens.scope).toContain('deals');
    // The crm token works at crm, through the crm account, and nowhere else.
    const atCrm = await call(crm(), tokens.access_token, 'getPipelines', { object_type: 'deals' });
    expect(atCrm.body?.result?.isError).toBeFalsy();
    expect((await mcp(dbapp(), tokens.access_token, { method: 'tools/list' })).status).toBe(401);

    // One covered endpoint at a time: a refresh naming dbapp gives a dbapp token (its scope dbapp's).
    const refreshed = await token(s.base, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: client.client_id, resource: dbapp() });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.scope!.split(' ')).toContain('records');
    expect(refreshed.body.scope).not.toContain('deals');
    const atDbapp = await call(dbapp(), refreshed.body.access_token!, 'listWorkspaces');
    expect(atDbapp.status).toBe(200);
    expect(atDbapp.body?.result?.isError).toBeFalsy();
    expect(atDbapp.body?.result?.content[0]!.text).toMatch(/workspace/i);
    // …and it is for dbapp only.
    expect((await mcp(crm(), refreshed.body.access_token!, { method: 'tools/list' })).status).toBe(401);

    // collab was offered and not chosen: no token for it, by refresh or by presenting one.
    const toCollab = await token(s.base, { grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token!, client_id: client.client_id, resource: collab() });
    expect(toCollab.status).toBe(400);
    expect(toCollab.body).toMatchObject({ error: 'invalid_target' });
    expect(toCollab.body.error_description).toContain(dbapp());
    expect((await mcp(collab(), refreshed.body.access_token!, { method: 'tools/list' })).status).toBe(401);

    // The refused refresh spent nothing: the same refresh token goes back to crm.
    const back = await token(s.base, { grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token!, client_id: client.client_id, resource: crm() });
    expect(back.status).toBe(200);
    expect((await call(crm(), back.body.access_token!, 'getPipelines', { object_type: 'deals' })).body?.result?.isError).toBeFalsy();

    // The admin API lists one sign-in covering both.
    const listed = await s.api('GET', '/v1/admin/oauth/grants?tenant=tenant-multi', { key: 'adm_test_credential' });
    const mine = (listed.body.data.grants ?? listed.body.data.items ?? listed.body.data).find((g: { client_id: string }) => g.client_id === client.client_id);
    expect(mine).toMatchObject({ resource: crm(), resources: [crm(), dbapp()], platforms: ['crm', 'dbapp'], connection: crmAccount });

    // Signing out (RFC 7009, the refresh token) ends every token of the sign-in, at every endpoint.
    const revoked = await fetch(`${s.base}/oauth/revoke`, { method: 'POST', body: new URLSearchParams({ token: back.body.refresh_token!, client_id: client.client_id }) });
    expect(revoked.status).toBe(200);
    expect((await mcp(crm(), back.body.access_token!, { method: 'tools/list' })).status).toBe(401);
    expect((await mcp(dbapp(), refreshed.body.access_token!, { method: 'tools/list' })).status).toBe(401);
  });

  it('the combined endpoint chosen with crm and dbapp acts through each platform\'s own account', async () => {
    const signedIn = await hostSignIn(s.base, crm(), withKey, undefined, { also: `${s.base}/v1/mcp` });
    const { client, tokens } = signedIn;
    // Chosen as the form sends two boxes: crm here, plus dbapp and the combined endpoint.
    const both = await hostSignIn(s.base, crm(), async (b, form) => {
      const consent = await withKey(b, form);
      return { ...consent, html: consent.html.replace(`name="also" value="${dbapp()}"`, `name="also" value="${dbapp()}" checked`).replace(`name="also" value="${s.base}/v1/mcp"`, `name="also" value="${s.base}/v1/mcp" checked`) };
    });
    const combined = await token(s.base, { grant_type: 'refresh_token', refresh_token: both.tokens.refresh_token, client_id: both.client.client_id, resource: `${s.base}/v1/mcp` });
    expect(combined.status).toBe(200);
    expect(combined.body.scope!.split(' ')).toEqual(expect.arrayContaining(['crm:deals', 'dbapp:records']));
    const names = ((await (await mcp(`${s.base}/v1/mcp`, combined.body.access_token!, { method: 'tools/list' })).json()) as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['dbapp_listWorkspaces', 'crm_getPipelines']));
    // collab was not chosen: none of its tools.
    expect(names.some((n) => n.startsWith('collab_'))).toBe(false);
    for (const [name, args] of [['dbapp_listWorkspaces', {}], ['crm_getPipelines', { object_type: 'deals' }]] as const) {
      const r = await call(`${s.base}/v1/mcp`, combined.body.access_token!, name, args);
      expect(r.body?.result?.isError, `${name}: ${r.body?.result?.content[0]?.text}`).toBeFalsy();
    }
    // The first sign-in chose only the combined endpoint beside crm: its combined token acts on crm only.
    const crmOnly = await token(s.base, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: client.client_id, resource: `${s.base}/v1/mcp` });
    expect(crmOnly.body.scope).toContain('deals');
    expect(crmOnly.body.scope).not.toContain('records');
  });

  it('refuses an endpoint the sign-in may not cover, named in a forged form', async () => {
    const { key: crmOnlyKey } = await s.createKey('tenant-multi', { platforms: ['crm'] });
    const forged = await hostSignIn(s.base, crm(), (b, form) => b.submit(form, 'sign-in', { service_key: crmOnlyKey }), undefined, { also: dbapp() }).catch((err: Error) => err);
    expect(forged).toBeInstanceOf(Error);
    expect(String(forged)).toContain('cannot cover');
  });
});

describe('connecting an API-key account from the sign-in page', () => {
  let s: Awaited<ReturnType<typeof localServer>>;
  const logged: string[] = [];
  beforeAll(async () => {
    process.env.LOG_LEVEL = 'info';
    vi.spyOn(console, 'log').mockImplementation((line: unknown) => void logged.push(String(line)));
    vi.spyOn(console, 'error').mockImplementation((line: unknown) => void logged.push(String(line)));
    s = await localServer();
  });
  afterAll(async () => {
    delete process.env.LOG_LEVEL;
    vi.restoreAllMocks();
    await s.close();
  });

  const dbapp = () => `${s.base}/v1/mcp/dbapp`;
  const WRONG = 'user_key_notARealKeyAtAll0000000000000';

  it('offers "paste your Tape API key" with where Tape shows it; a wrong key is refused on the page, kept nowhere, and Back returns to the host', async () => {
    const browser = new Browser();
    const reg = (await (await fetch(`${s.base}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [`${s.base}/cb`], client_name: 'Key host' }) })).json()) as { client_id: string };
    const q = new URLSearchParams({ client_id: reg.client_id, redirect_uri: `${s.base}/cb`, response_type: 'code', state: 'k1', resource: dbapp(), code_challenge: 'x'.repeat(43), code_challenge_method: 'S256' });
    const form = await browser.request(`${s.base}/oauth/authorize?${q}`);
    expect(form.html).toContain('id="key-connect-dbapp"');
    expect(form.html).toMatch(/<label for="vendor_key_dbapp">Your Tape API key \(user_key_…\)<\/label><input id="vendor_key_dbapp" name="vendor_key" type="password"/);
    expect(form.html).toContain('open Preferences, then API');
    // The service key is the operator's alternative, folded away.
    expect(form.html).toContain('Use a service key instead');
    expect(form.html).not.toContain('id="key-only"');

    const refused = await submitRefusedKey(browser, form, 'dbapp', 'Tape', WRONG);
    // Nothing was kept: the sign-in tenant has no connection.
    const { key: mcpKey } = await s.createKey('mcp', { platforms: ['dbapp'] });
    expect((await s.api('GET', '/v1/connections', { key: mcpKey })).body.data.connections).toEqual([]);
    await leaveRefusedSignIn(browser, refused, 'k1', WRONG, logged);
  });

  it('a key Tape accepts connects the account (sealed) and goes on to consent; the token calls Tape through it', async () => {
    const signedIn = await hostSignIn(s.base, dbapp(), async (b, form) => {
      const consent = await b.submit(form, 'key-connect-dbapp', { vendor_key: SANDBOX_KEYS.owner });
      expect(consent.status).toBe(200);
      return consent;
    });
    // The consent page names the account as Tape knows it.
    expect(signedIn.consent.html).toMatch(/<span class="account">Tape: John Doe · [^<]*@[^<]* · [^<]+<\/span>/);
    expect(signedIn.consent.html).not.toContain(SANDBOX_KEYS.owner);
    const listed = await call(dbapp(), signedIn.tokens.access_token, 'listWorkspaces');
    expect(listed.body?.result?.isError).toBeFalsy();
    // The connection is in the sign-in tenant, active, its key sealed: never in the API's answer.
    const { key: mcpKey } = await s.createKey('mcp', { platforms: ['dbapp'] });
    const connections = (await s.api('GET', '/v1/connections', { key: mcpKey })).body.data.connections as { kind: string; status: string; account?: { name?: string } }[];
    expect(connections).toHaveLength(1);
    expect(connections[0]).toMatchObject({ kind: 'api_key', status: 'active', account: { name: 'John Doe' } });
    expect(JSON.stringify(connections)).not.toContain(SANDBOX_KEYS.owner);
    expect(signedIn.browser.urls.join('\n')).not.toContain(SANDBOX_KEYS.owner);
    expect(logged.join('\n')).not.toContain(SANDBOX_KEYS.owner);
    expect(logged.join('\n')).toContain('mcp sign-in connected an account with its key');
  });

  it('a BatchData token connects the realty account the same way', async () => {
    const realty = `${s.base}/v1/mcp/realty`;
    const signedIn = await hostSignIn(s.base, realty, async (b, form) => {
      expect(form.html).toContain('Your BatchData API token');
      const wrong = await b.submit(form, 'key-connect-realty', { vendor_key: 'not-a-batchdata-token' });
      expect(wrong.html).toContain('BatchData did not accept this key');
      return b.submit(wrong, 'key-connect-realty', { vendor_key: SANDBOX_KEYS.owner });
    });
    expect(signedIn.tokens.access_token).toMatch(/^tat_/);
    const tools = ((await (await mcp(realty, signedIn.tokens.access_token, { method: 'tools/list' })).json()) as { result: { tools: { name: string }[] } }).result.tools;
    expect(tools.length).toBeGreaterThan(0);
  });

  it('an empty or spaced key is refused before anything reaches the vendor', async () => {
    const signedIn = hostSignIn(s.base, dbapp(), async (b, form) => {
      const bad = await b.submit(form, 'key-connect-dbapp', { vendor_key: 'two words' });
      expect(bad.status).toBe(400);
      expect(bad.html).toContain('one token, no spaces');
      return bad;
    });
    await expect(signedIn).rejects.toThrow(/no form #consent/);
  });
});
