import { createHash } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createClock, SANDBOX_OAUTH_CLIENT, type OAuthServer, type Twin } from '../../infra/twins/kit';
import { createHubSpotTwin } from '../../infra/twins/hubspot';
import { createPodioTwin } from '../../infra/twins/podio';
import { createShareFileTwin } from '../../infra/twins/sharefile';
import { crm } from '../../functions/crm';
import { Browser, localServer } from './helpers';

type OAuthTwin = Twin & { oauth: OAuthServer };

/** Each OAuth twin with its token path, its vendor's refusal shape and refresh-token rule. */
const TWINS = [
  { vendor: 'Podio', make: () => createPodioTwin({ clock: createClock(Date.UTC(2026, 0, 1)) }), token: '/oauth/token', lifetime: 28_800, rotates: true, refusal: { error: 'invalid_grant' } },
  { vendor: 'HubSpot', make: () => createHubSpotTwin({ clock: createClock(Date.UTC(2026, 0, 1)) }), token: '/oauth/v1/token', lifetime: 1800, rotates: false, refusal: { status: 'BAD_AUTH_CODE' } },
  { vendor: 'ShareFile', make: () => createShareFileTwin({ clock: createClock(Date.UTC(2026, 0, 1)) }), token: '/oauth/token', lifetime: 28_800, rotates: true, refusal: { error: 'invalid_grant' } },
] as const;

const REDIRECT = 'https://app.example/callback';

/** Through the twin's page: a code for the first account. */
async function authorize(twin: OAuthTwin, extra: Record<string, string> = {}): Promise<URL> {
  const q = new URLSearchParams({ response_type: 'code', client_id: SANDBOX_OAUTH_CLIENT.id, redirect_uri: REDIRECT, state: 's1', ...extra });
  const page = await (await twin.fetch(`https://twin.local/oauth/authorize?${q}`)).text();
  const account = /name="account" value="([^"]+)"/.exec(page)![1]!;
  const res = await twin.fetch('https://twin.local/oauth/authorize', { method: 'POST', body: new URLSearchParams({ ...Object.fromEntries(q), account, decision: 'allow' }) });
  expect(res.status).toBe(302);
  return new URL(res.headers.get('location')!);
}

const token = (twin: OAuthTwin, path: string, form: Record<string, string>) =>
  twin.fetch(`https://twin.local${path}`, { method: 'POST', body: new URLSearchParams({ client_id: SANDBOX_OAUTH_CLIENT.id, client_secret: SANDBOX_OAUTH_CLIENT.secret, redirect_uri: REDIRECT, ...form }) });

describe.each(TWINS)('$vendor twin: OAuth authorization server', (t) => {
  it("issues a code once, for its redirect URI and client, and tokens with the vendor's lifetime", async () => {
    const twin = t.make() as OAuthTwin;
    const back = await authorize(twin);
    expect(back.searchParams.get('state')).toBe('s1');
    const code = back.searchParams.get('code')!;
    if (t.vendor === 'ShareFile') expect(Object.fromEntries(back.searchParams)).toMatchObject({ subdomain: 'acme', apicp: 'sf-api.com', appcp: 'sharefile.com' });
    expect((await token(twin, t.token, { grant_type: 'authorization_code', code, redirect_uri: 'https://evil.example/cb' })).status).toBe(400);
    const second = await authorize(twin);
    const wrongSecret = await token(twin, t.token, { grant_type: 'authorization_code', code: second.searchParams.get('code')!, client_secret: 'nope' });
    expect(wrongSecret.status).toBeGreaterThanOrEqual(400);
    const ok = await token(twin, t.token, { grant_type: 'authorization_code', code: second.searchParams.get('code')! });
    const tokens = (await ok.json()) as { access_token: string; refresh_token: string; expires_in: number };
    expect(ok.status).toBe(200);
    expect(tokens.expires_in).toBe(t.lifetime);
    const replay = await token(twin, t.token, { grant_type: 'authorization_code', code: second.searchParams.get('code')! });
    expect(replay.status).toBe(400);
    expect(await replay.json()).toMatchObject(t.refusal);
    // The refresh grant: a new access token; Podio and ShareFile rotate the refresh token (the old one is spent).
    const refreshed = (await (await token(twin, t.token, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token })).json()) as { access_token: string; refresh_token: string };
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(refreshed.refresh_token === tokens.refresh_token).toBe(!t.rotates);
    const again = await token(twin, t.token, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect(again.status).toBe(t.rotates ? 400 : 200);
    expect(twin.oauth.resolve(tokens.access_token)).toMatchObject({ account: expect.any(String) });
    twin.clock.advance(t.lifetime * 1000);
    expect(twin.oauth.resolve(refreshed.access_token)).toBe('expired');
  });

  it('checks a PKCE challenge (S256) when the client sends one', async () => {
    const twin = t.make() as OAuthTwin;
    const verifier = 'v'.repeat(50);
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const code = (await authorize(twin, { code_challenge: challenge, code_challenge_method: 'S256' })).searchParams.get('code')!;
    expect((await token(twin, t.token, { grant_type: 'authorization_code', code, code_verifier: 'w'.repeat(50) })).status).toBe(400);
    const code2 = (await authorize(twin, { code_challenge: challenge, code_challenge_method: 'S256' })).searchParams.get('code')!;
    expect((await token(twin, t.token, { grant_type: 'authorization_code', code: code2, code_verifier: verifier })).status).toBe(200);
  });

  it('refuses an unknown client on the authorization page itself (no redirect)', async () => {
    const twin = t.make() as OAuthTwin;
    const res = await twin.fetch(`https://twin.local/oauth/authorize?client_id=stranger&redirect_uri=${encodeURIComponent(REDIRECT)}&state=x`);
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
  });
});

describe('the local server with short twin lifetimes and PKCE on', () => {
  const pkce = crm.auth.oauth!;
  let s: Awaited<ReturnType<typeof localServer>>;
  afterAll(async () => {
    (pkce as { pkce: boolean }).pkce = false;
    await s?.close();
  });

  it('sends a PKCE challenge where the provider says so, and TWIN_OAUTH_ACCESS_SECONDS shortens the tokens', async () => {
    (pkce as { pkce: boolean }).pkce = true;
    s = await localServer({ TWIN_OAUTH_ACCESS_SECONDS: '120' });
    const { key } = await s.createKey('acme', { platforms: ['crm'] });
    const created = await s.api('POST', '/v1/connections', { key, body: { platform: 'crm', end_user: 'jane' } });
    const browser = new Browser();
    const page = await browser.request(created.body.data.connect_url);
    const href = /<a id="authorize" href="([^"]+)"/.exec(page.html)![1]!;
    const consent = await browser.request(new URL(href, s.base).toString());
    expect(new URL(consent.url).searchParams.get('code_challenge_method')).toBe('S256');
    expect((await browser.submit(consent, 'consent', { decision: 'allow' })).html).toContain('id="connected"');
    const shown = (await s.api('GET', `/v1/connections/${created.body.data.connection.id}`, { key })).body.data;
    expect(Math.round((shown.access_expires_at - Date.parse(shown.updated_at)) / 1000)).toBe(120);
    expect((await s.call(key, shown.id, 'crm/getPipelines')).status).toBe(200);
  });
});
