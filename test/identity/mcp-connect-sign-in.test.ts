import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, checkedToolsets, hostSignIn, localServer } from './helpers';

/**
 * The consent page's second way in: the user signs in by connecting a vendor account through the
 * identity layer's OAuth flow — here against the HubSpot twin's authorization server — and the
 * host's grant is bound to that new connection.
 */
describe('MCP sign-in by connecting a vendor account on the consent page', () => {
  let s: Awaited<ReturnType<typeof localServer>>;
  beforeAll(async () => {
    s = await localServer({ MCP_CONNECT_SIGN_IN: JSON.stringify({ tenant: 'hosted', policy: { platforms: ['crm', 'collab'], read_only: true } }) });
  });
  afterAll(() => s.close());

  const resource = () => `${s.base}/v1/mcp/crm`;
  /** The sign-in page's vendor button, the twin's consent page (Allow), the callback, and back on our consent page. */
  const viaHubSpot = (scope?: string) =>
    hostSignIn(
      s.base,
      resource(),
      async (browser, form) => {
        expect(form.html).toContain('id="connect-sign-in"');
        const vendorPage = await browser.submit(form, 'connect-sign-in', { connect: 'crm' });
        expect(vendorPage.url).toContain('/oauth/authorize');
        expect(vendorPage.html).toContain('HubSpot');
        return browser.submit(vendorPage, 'consent', { decision: 'allow' });
      },
      scope,
    );
  const rpc = (token: string, body: unknown, query = '') =>
    fetch(`${resource()}${query}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, ...body as object }) });

  it('offers the OAuth platforms of the setting that the endpoint serves, and none elsewhere', async () => {
    const reg = (await (await fetch(`${s.base}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [`${s.base}/cb`] }) })).json()) as { client_id: string };
    const pageFor = async (res: string) => (await new Browser().request(`${s.base}/oauth/authorize?${new URLSearchParams({ client_id: reg.client_id, redirect_uri: `${s.base}/cb`, response_type: 'code', resource: res, code_challenge: 'x'.repeat(43), code_challenge_method: 'S256' })}`)).html;
    const crm = await pageFor(`${s.base}/v1/mcp/crm`);
    expect(crm).toContain('name="connect" value="crm"');
    expect(crm).not.toContain('value="collab"');
    const all = await pageFor(`${s.base}/v1/mcp`);
    expect(all).toContain('value="crm"');
    expect(all).toContain('value="collab"');
    // dbapp is outside the setting's policy (and has no OAuth flow): a service key only.
    expect(await pageFor(`${s.base}/v1/mcp/dbapp`)).not.toContain('connect-sign-in');
  });

  it('connects the account through the twin, binds the grant to that connection, and serves its tools under the setting', async () => {
    const { tokens, browser, client } = await viaHubSpot();
    expect(tokens.access_token).toMatch(/^tat_/);
    expect(browser.visited.some((v) => v.startsWith('GET /v1/connections/callback'))).toBe(true);
    const listed = (await (await rpc(tokens.access_token, { method: 'tools/list' })).json()) as { result: { tools: { name: string; annotations?: { readOnlyHint?: boolean } }[] } };
    const tools = listed.result.tools;
    expect(tools.map((t) => t.name)).toContain('getPipelines');
    // The setting is read-only: no writing tool is listed.
    expect(tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);
    const called = (await (await rpc(tokens.access_token, { method: 'tools/call', params: { name: 'getPipelines', arguments: {} } })).json()) as { result: { isError?: boolean } };
    expect(called.result.isError).toBeFalsy();
    // The connection exists in the configured tenant, active, and the grant names it alone.
    const { key } = await s.createKey('hosted', { platforms: ['crm'] });
    const conns = (await s.api('GET', '/v1/connections?platform=crm', { key })).body.data.connections as { id: string; status: string; kind: string }[];
    expect(conns).toHaveLength(1);
    expect(conns[0]).toMatchObject({ status: 'active', kind: 'oauth' });
    const other = (await (await rpc(tokens.access_token, { method: 'tools/call', params: { name: 'getPipelines', arguments: {} } }, '?connection=con_000000000000000000000000')).json()) as unknown;
    expect(JSON.stringify(other)).toContain('granted for connection');
    // Signing out (revoking the refresh token) ends this sign-in as any other.
    expect((await fetch(`${s.base}/oauth/revoke`, { method: 'POST', body: new URLSearchParams({ token: tokens.refresh_token, client_id: client.client_id }) })).status).toBe(200);
    expect((await rpc(tokens.access_token, { method: 'tools/list' })).status).toBe(401);
  });

  it('ends without a code, and says why, when the user denies at the vendor', async () => {
    let ended: { url: string; status: number; html: string } | undefined;
    await expect(
      hostSignIn(s.base, resource(), async (browser, form) => {
        const vendorPage = await browser.submit(form, 'connect-sign-in', { connect: 'crm' });
        ended = await browser.submit(vendorPage, 'consent', { decision: 'deny' });
        return ended;
      }),
    ).rejects.toThrow(/no form #consent/);
    expect(ended!.status).toBe(400);
    expect(new URL(ended!.url).pathname).toBe('/v1/connections/callback');
    expect(ended!.html).toContain('did not grant access');
  });

  it('refuses a consent that names another connection than the one connected', async () => {
    let consentPage: { url: string; status: number; html: string } | undefined;
    await hostSignIn(s.base, resource(), async (browser, form) => {
      const vendorPage = await browser.submit(form, 'connect-sign-in', { connect: 'crm' });
      consentPage = await browser.submit(vendorPage, 'consent', { decision: 'allow' });
      expect(consentPage.html).toContain('id="consent"');
      // The user's form, altered to name another connection of the tenant.
      return { ...consentPage, html: consentPage.html.replace(/value="(con_[0-9a-f]{24})" checked/, 'value="con_111111111111111111111111" checked') };
    }).then(
      () => {
        throw new Error('signed in');
      },
      (err: Error) => expect(err.message).toContain('no longer usable'),
    );
  });

  it("comes back from connecting the account to a consent page pre-filled with the host's scope, and grants it", async () => {
    const { tokens, consent } = await viaHubSpot('deals crm:contacts');
    expect(checkedToolsets(consent.html)).toEqual(['contacts', 'deals']);
    expect(tokens.scope).toBe('contacts deals');
    const listed = (await (await rpc(tokens.access_token, { method: 'tools/list' })).json()) as { result: { tools: { name: string }[] } };
    expect(listed.result.tools.map((t) => t.name)).toContain('getPipelines');
    expect((await rpc(tokens.access_token, { method: 'tools/list' }, '?toolsets=tickets')).status).toBe(403);
  });
});
