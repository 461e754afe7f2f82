import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PORTAL_ID, SANDBOX_KEYS, type HubSpotTwin } from '../../infra/twins/hubspot';
import { Browser, hostSignIn, leaveRefusedSignIn, localServer, submitRefusedKey } from './helpers';

/**
 * Signing in at the HubSpot endpoint by pasting a private app's access token, through HTTP against
 * the HubSpot twin: HubSpot's own sign-in stays the first way offered; a token HubSpot refuses
 * says so on the page and keeps nothing; one it accepts connects the portal and goes on to
 * consent. The token is never in a log line, a URL, a page or an answer.
 */

const mcp = (url: string, token: string, body: object) =>
  fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, ...body }) });

describe('a HubSpot private app token pasted on the sign-in page', () => {
  let s: Awaited<ReturnType<typeof localServer>>;
  const logged: string[] = [];
  const WRONG = 'pat-eu1-00000000-0000-4000-8000-000000000000';
  const crm = () => `${s.base}/v1/mcp/crm`;
  /** What the sign-in tenant (MCP_CONNECT_SIGN_IN's default, "mcp") has connected on crm, through the API. */
  const connected = async () => {
    const { key } = await s.createKey('mcp', { platforms: ['crm'] });
    return (await s.api('GET', '/v1/connections', { key })).body.data.connections as { kind: string; status: string; platform: string; account?: Record<string, string> }[];
  };

  /** A registered host's authorization request at the crm endpoint. */
  const authorizeUrl = async (state: string) => {
    const reg = (await (await fetch(`${s.base}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [`${s.base}/cb`], client_name: 'Token host' }) })).json()) as { client_id: string };
    return `${s.base}/oauth/authorize?${new URLSearchParams({ client_id: reg.client_id, redirect_uri: `${s.base}/cb`, response_type: 'code', state, resource: crm(), code_challenge: 'x'.repeat(43), code_challenge_method: 'S256' })}`;
  };

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

  it('offers HubSpot sign-in first, then the token, saying where HubSpot shows it', async () => {
    const form = await new Browser().request(await authorizeUrl('h1'));
    expect(form.status).toBe(200);
    const oauth = form.html.indexOf('<form id="connect-sign-in"');
    const token = form.html.indexOf('<form id="key-connect-crm"');
    expect(oauth).toBeGreaterThan(-1);
    expect(token).toBeGreaterThan(oauth);
    expect(form.html).toContain('name="connect" value="crm"');
    expect(form.html).toMatch(/<label for="vendor_key_crm">Your HubSpot private app access token \(pat-…\)<\/label><input id="vendor_key_crm" name="vendor_key" type="password"/);
    expect(form.html).toContain('Settings › Integrations › Private Apps');
    // The token is said to be the other way, after HubSpot's own sign-in.
    expect(form.html).toContain('Or sign in by pasting your HubSpot private app access token (pat-…) instead.');
  });

  it('a token HubSpot refuses is said so on the page, kept nowhere, and Back returns to the host', async () => {
    const twin = s.twins.crm as HubSpotTwin;
    twin.requests.clear();
    const browser = new Browser();
    const form = await browser.request(await authorizeUrl('h2'));
    const refused = await submitRefusedKey(browser, form, 'crm', 'HubSpot CRM', WRONG);
    // The field is offered again, empty.
    expect(refused.html).toMatch(/<input id="vendor_key_crm" name="vendor_key" type="password"[^>]*required/);
    // Checked with HubSpot itself: one read of the token's account.
    expect(twin.requests.find({ method: 'GET', path: '/account-info/v3/details' })).toHaveLength(1);
    expect(await connected()).toEqual([]);
    await leaveRefusedSignIn(browser, refused, 'h2', WRONG, logged);
  });

  it('a token HubSpot accepts connects the portal and goes on to consent; the sign-in calls HubSpot through it', async () => {
    const signedIn = await hostSignIn(s.base, crm(), async (b, form) => {
      const consent = await b.submit(form, 'key-connect-crm', { vendor_key: SANDBOX_KEYS.owner });
      expect(consent.status).toBe(200);
      return consent;
    });
    // The account as HubSpot names it for a private app: its portal.
    expect(signedIn.consent.html).toContain(`<span class="account">HubSpot CRM: portal ${PORTAL_ID}</span>`);
    expect(signedIn.consent.html).not.toContain(SANDBOX_KEYS.owner);
    expect(signedIn.tokens.scope.split(' ')).toContain('deals');
    const res = await mcp(crm(), signedIn.tokens.access_token, { method: 'tools/call', params: { name: 'getPipelines', arguments: { object_type: 'deals' } } });
    const body = (await res.json()) as { result: { isError?: boolean; content: { text: string }[] } };
    expect(body.result.isError, body.result.content[0]?.text).toBeFalsy();
    expect(body.result.content[0]!.text).toMatch(/pipeline/i);

    const accounts = await connected();
    expect(accounts).toHaveLength(1);
    expect(accounts[0]).toMatchObject({ platform: 'crm', kind: 'api_key', status: 'active', account: { portal: `portal ${PORTAL_ID}` } });
    expect(JSON.stringify(accounts)).not.toContain(SANDBOX_KEYS.owner);
    const admin = await s.api('GET', '/v1/admin/oauth/grants?tenant=mcp', { key: 'adm_test_credential' });
    expect(JSON.stringify(admin.body)).not.toContain(SANDBOX_KEYS.owner);
    expect(signedIn.browser.urls.join('\n')).not.toContain(SANDBOX_KEYS.owner);
    expect(logged.join('\n')).not.toContain(SANDBOX_KEYS.owner);
    expect(logged.join('\n')).toContain('mcp sign-in connected an account with its key');
  });
});
