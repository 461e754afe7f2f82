import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_KEYS } from '../../infra/twins/kit';
import { Browser, hostSignIn, localServer } from './helpers';

/** The built-in authorization server's finer points (docs/identity.md), each as a host or an attacker meets it. */
describe('OAuth details of the built-in authorization server', () => {
  let s: Awaited<ReturnType<typeof localServer>>;
  let key: string;
  // A client metadata document server: what it serves, and how often it was asked.
  const doc = { body: '', cacheControl: '', hits: 0 };
  let docServer: Server;
  let docBase = '';
  beforeAll(async () => {
    // localhost is not an allowed http host here: a client_id on it resolves to a loopback address and is refused.
    s = await localServer({ ALLOW_HTTP_HOSTS: '127.0.0.1', OAUTH_REGISTER_RATE_LIMIT: '1000/600' });
    ({ key } = await s.createKey('acme', { platforms: ['dbapp'] }));
    const created = await s.api('POST', '/v1/connections', { key, body: { platform: 'dbapp', end_user: 'u', auth: 'api_key' } });
    await new Browser().connectKey(created.body.data.connect_url, SANDBOX_KEYS.owner);
    docServer = createServer((req, res) => {
      doc.hits++;
      res.writeHead(200, { 'content-type': 'application/json', ...(doc.cacheControl ? { 'cache-control': doc.cacheControl } : {}) }).end(doc.body);
    });
    await new Promise<void>((resolve) => docServer.listen(0, '127.0.0.1', resolve));
    docBase = `http://127.0.0.1:${(docServer.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => docServer.close(() => resolve()));
    await s.close();
  });

  const resource = () => `${s.base}/v1/mcp/dbapp`;
  const register = async (uris: string[]) => {
    const res = await fetch(`${s.base}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: uris }) });
    return { status: res.status, body: (await res.json()) as { client_id: string; error?: string } };
  };
  const authorize = (clientId: string, redirect: string) => {
    const verifier = randomBytes(32).toString('base64url');
    const q = new URLSearchParams({ client_id: clientId, redirect_uri: redirect, response_type: 'code', resource: resource(), code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256' });
    return { url: `${s.base}/oauth/authorize?${q}`, verifier };
  };

  it('a loopback redirect URI matches on any port (RFC 8252 §7.3); other hosts only exactly', async () => {
    const { body: client } = await register(['http://127.0.0.1/callback', 'https://host.example/cb']);
    const page = async (redirect: string) => (await new Browser().request(authorize(client.client_id, redirect).url)).html;
    expect(await page('http://127.0.0.1:54321/callback')).toContain('id="sign-in"');
    expect(await page('http://127.0.0.1:54321/other')).toContain('not one the client registered');
    expect(await page('https://host.example:8443/cb')).toContain('not one the client registered');
  });

  it('registration refuses redirect URIs with a fragment (even empty) or userinfo', async () => {
    for (const uri of ['https://host.example/cb#', 'https://host.example/cb#x', 'https://user:pw@host.example/cb', 'https://@host.example/cb', 'https://evil.example@host.example/cb']) {
      expect(await register([uri]), uri).toMatchObject({ status: 400, body: { error: 'invalid_redirect_uri' } });
    }
  });

  it('redirect_uri is required at the token endpoint, as it was sent to authorize', async () => {
    const { body: client } = await register([`${s.base}/host-callback`]);
    const { url, verifier } = authorize(client.client_id, `${s.base}/host-callback`);
    const browser = new Browser();
    const consent = await browser.submit(await browser.request(url), 'sign-in', { service_key: key });
    const back = await browser.submit(consent, 'consent', { decision: 'allow' });
    const code = new URL(back.url).searchParams.get('code')!;
    const res = await fetch(`${s.base}/oauth/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: client.client_id, resource: resource() }) });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_request', error_description: expect.stringContaining('redirect_uri') });
  });

  it('a refresh after the key behind the grant was revoked is refused', async () => {
    const { key: other, id: otherId } = await s.createKey('acme', { platforms: ['dbapp'] });
    const { client, tokens } = await hostSignIn(s.base, resource(), (b, form) => b.submit(form, 'sign-in', { service_key: other }));
    expect((await s.api('DELETE', `/v1/admin/keys/${otherId}`, { key: 'adm_test_credential' })).status).toBe(200);
    const res = await fetch(`${s.base}/oauth/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: client.client_id }) });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('client metadata documents are cached as their HTTP caching headers say', async () => {
    const clientId = `${docBase}/client-cached.json`;
    doc.body = JSON.stringify({ client_id: clientId, redirect_uris: [`${s.base}/host-callback`], client_name: 'Doc host' });
    doc.cacheControl = 'public, max-age=300';
    doc.hits = 0;
    for (let i = 0; i < 3; i++) expect((await new Browser().request(authorize(clientId, `${s.base}/host-callback`).url)).html).toContain('Doc host');
    expect(doc.hits).toBe(1);
    const fresh = `${docBase}/client-nostore.json`;
    doc.body = JSON.stringify({ client_id: fresh, redirect_uris: [`${s.base}/host-callback`], client_name: 'Doc host' });
    doc.cacheControl = 'no-store';
    doc.hits = 0;
    for (let i = 0; i < 2; i++) await new Browser().request(authorize(fresh, `${s.base}/host-callback`).url);
    expect(doc.hits).toBe(2);
  });

  it('a client metadata document that cannot be used is refused without echoing resolved addresses or its content', async () => {
    const port = (docServer.address() as AddressInfo).port;
    const local = await new Browser().request(authorize(`https://localhost:${port}/client.json`, `${s.base}/host-callback`).url);
    expect(local.status).toBe(400);
    expect(local.html).not.toMatch(/127\.0\.0\.1|::1/);
    const notJson = `${docBase}/client-broken.json`;
    doc.body = 'SECRET-FRAGMENT-OF-THE-DOCUMENT <html>';
    doc.cacheControl = '';
    const broken = await new Browser().request(authorize(notJson, `${s.base}/host-callback`).url);
    expect(broken.html).toContain('not JSON');
    expect(broken.html).not.toContain('SECRET-FRAGMENT');
  });

  it('the admin API refuses unknown platforms and toolsets in a policy', async () => {
    const make = (policy: unknown) => s.api('POST', '/v1/admin/keys', { key: 'adm_test_credential', body: { tenant: 'acme', policy } });
    expect((await make({ platforms: ['dbapp', 'nope'] })).body.error.details.parameter).toBe('policy.platforms');
    expect((await make({ platforms: ['dbapp'], toolsets: ['records', 'objects'] })).body.error.details.parameter).toBe('policy.toolsets');
    expect((await make({ platforms: ['dbapp'], toolsets: ['crm:deals'] })).body.error.details.parameter).toBe('policy.toolsets');
    expect((await make({ platforms: ['dbapp', 'crm'], toolsets: ['records', 'crm:deals'] })).status).toBe(201);
  });

  it('the sign-in form carries a CSRF token and checks Origin; pages send a CSP with frame-ancestors none', async () => {
    const { body: client } = await register([`${s.base}/host-callback`]);
    const { url } = authorize(client.client_id, `${s.base}/host-callback`);
    const res = await fetch(url);
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const html = await res.text();
    expect(html).toMatch(/<input type="hidden" name="csrf" value="[\w-]{32}">/);
    // The service-key form's own fields (the page has other forms: connect, back to the host).
    const form = html.slice(html.indexOf('<form id="sign-in"'), html.indexOf('</form>', html.indexOf('<form id="sign-in"')));
    const fields = Object.fromEntries([...form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)))]));
    const post = (form: Record<string, string>, headers: Record<string, string> = {}) =>
      fetch(`${s.base}/oauth/authorize`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams({ ...form, service_key: key }), redirect: 'manual' });
    // The form posted from another page: no cookie, so its token proves nothing.
    expect((await post(fields)).status).toBe(403);
    // With the cookie and token, but from another site.
    const cookie = `tes_csrf=${fields.csrf}`;
    expect((await post(fields, { cookie, origin: 'https://evil.example' })).status).toBe(403);
    const ok = await post(fields, { cookie, origin: s.base });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('id="consent"');
    const connect = await s.api('POST', '/v1/connections', { key, body: { platform: 'dbapp', end_user: 'csp', auth: 'api_key' } });
    expect((await fetch(connect.body.data.connect_url)).headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });
});
