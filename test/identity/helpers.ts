import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startLocal } from '../../infra/local/server';
import { SANDBOX_KEYS } from '../../infra/twins/kit';
import { expect } from 'vitest';
import type { Policy } from '../../shared/identity/policy';

/** The local server (memory store, twins in-process) on an ephemeral port, with identity on. */
export async function localServer(env: Record<string, string> = {}, opts: { now?: () => number; publicBase?: () => string | undefined } = {}) {
  // The identity's clock and address, set when the runtime is built (tests move the clock past a token's expiry).
  const local = await startLocal({ PORT: '0', VAULT_KEY: randomBytes(32).toString('base64'), RATE_LIMIT_MAX: '1000000', ADMIN_TOKEN: 'adm_test_credential', ...env }, opts);
  const base = local.base;

  /** One JSON request: status, envelope and headers. */
  async function api(method: string, path: string, o: { key?: string; body?: unknown; connection?: string } = {}) {
    const headers: Record<string, string> = {};
    if (o.key) headers.authorization = `Bearer ${o.key}`;
    if (o.connection) headers['x-connection-id'] = o.connection;
    if (o.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${base}${path}`, { method, headers, ...(o.body !== undefined ? { body: JSON.stringify(o.body) } : {}) });
    return { status: res.status, headers: res.headers, body: (await res.json()) as any };
  }

  /** A service key made through the admin API. */
  async function createKey(tenant: string, policy: Partial<Policy> & { platforms: string[] }, extra: Record<string, unknown> = {}) {
    const res = await api('POST', '/v1/admin/keys', { key: 'adm_test_credential', body: { tenant, policy, ...extra } });
    if (res.status !== 201) throw new Error(`key creation failed: ${JSON.stringify(res.body)}`);
    return res.body.data as { key: string; id: string; tenant: string };
  }

  /** A tool call with a service key and a connection. */
  const call = (key: string, connection: string | undefined, platformTool: string, params: unknown = {}) =>
    api('POST', `/v1/tools/${platformTool}?format=json`, { key, body: params, ...(connection ? { connection } : {}) });

  const close = () => new Promise<void>((resolve) => local.server.close(() => resolve()));
  return { ...local, api, createKey, call, close };
}

/**
 * A headless browser: a cookie jar (name=value per path) and redirects followed by hand, so a
 * test sees each hop of the connect flow (our page → the twin's authorization page → callback).
 */
export class Browser {
  private readonly cookies: { name: string; value: string; path: string }[] = [];
  readonly visited: string[] = [];
  /** Every URL requested, query included (a test looks for the secrets a flow carried). */
  readonly urls: string[] = [];

  private cookieHeader(url: URL): string {
    return this.cookies.filter((c) => url.pathname.startsWith(c.path)).map((c) => `${c.name}=${c.value}`).join('; ');
  }

  async request(url: string, init: RequestInit = {}): Promise<{ url: string; status: number; html: string }> {
    let target = new URL(url);
    let method = init.method ?? 'GET';
    let body = init.body;
    for (let hop = 0; hop < 10; hop++) {
      this.visited.push(`${method} ${target.pathname}`);
      this.urls.push(target.toString());
      const headers = new Headers(init.headers);
      const cookie = this.cookieHeader(target);
      if (cookie) headers.set('cookie', cookie);
      const res = await fetch(target, { method, headers, ...(body ? { body } : {}), redirect: 'manual' });
      for (const line of res.headers.getSetCookie()) {
        const [pair, ...attrs] = line.split(';');
        const [name, value] = pair!.split('=');
        const path = attrs.map((a) => a.trim()).find((a) => a.toLowerCase().startsWith('path='))?.slice(5) ?? '/';
        this.cookies.push({ name: name!.trim(), value: value!.trim(), path });
      }
      const location = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && location) {
        await res.body?.cancel();
        target = new URL(location, target);
        // A private-use scheme (a native app's redirect URI, RFC 8252 §7.1): the browser hands it to the app.
        if (!['http:', 'https:'].includes(target.protocol)) return { url: target.toString(), status: res.status, html: '' };
        method = 'GET';
        body = undefined;
        continue;
      }
      return { url: target.toString(), status: res.status, html: await res.text() };
    }
    throw new Error('too many redirects');
  }

  /** Submits the form with `id` on `page`: its hidden and filled text fields, the first checked radio, and `fields`. */
  async submit(page: { url: string; html: string }, id: string, fields: Record<string, string>): Promise<{ url: string; status: number; html: string }> {
    const form = new RegExp(`<form id="${id}"[^>]*action="([^"]*)"[^>]*>([\\s\\S]*?)</form>`).exec(page.html);
    if (!form) throw new Error(`no form #${id} on ${page.url}`);
    const data = new URLSearchParams();
    for (const m of form[2]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) data.set(m[1]!, decode(m[2]!));
    // Text fields as the page fills them (the consent page's toolsets), unless `fields` says otherwise.
    for (const m of form[2]!.matchAll(/<input name="([^"]+)" value="([^"]*)">/g)) data.set(m[1]!, decode(m[2]!));
    const checked = /<input type="radio" name="([^"]+)" value="([^"]*)" checked>/.exec(form[2]!);
    if (checked) data.set(checked[1]!, decode(checked[2]!));
    // Checked boxes (the consent page's toolsets), each sent as a browser sends it; disabled ones are not sent.
    for (const m of form[2]!.matchAll(/<input type="checkbox" name="([^"]+)" value="([^"]*)" checked>/g)) data.append(m[1]!, decode(m[2]!));
    for (const [k, v] of Object.entries(fields)) data.set(k, v);
    return this.request(new URL(decode(form[1]!), page.url).toString(), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: data.toString() });
  }

  /** Connects an OAuth account from a connect link: our page, the vendor's consent page (Allow), the callback. */
  async connectOAuth(connectUrl: string, account?: string): Promise<{ url: string; status: number; html: string }> {
    const ours = await this.request(connectUrl);
    const href = /<a id="authorize" href="([^"]+)"/.exec(ours.html);
    if (!href) throw new Error(`no authorize link on the connect page: ${ours.html}`);
    const consent = await this.request(new URL(decode(href[1]!), connectUrl).toString());
    return this.submit(consent, 'consent', { decision: 'allow', ...(account ? { account } : {}) });
  }

  /** Connects an API-key account from a connect link: the page's form. */
  async connectKey(connectUrl: string, apiKey: string) {
    const page = await this.request(connectUrl);
    return this.submit(page, 'api-key', { api_key: apiKey });
  }
}

/** The toolsets a consent page starts with chosen (its checked boxes), sorted. */
export const checkedToolsets = (html: string) => [...html.matchAll(/<input type="checkbox" name="toolsets" value="([^"]*)" checked>/g)].map((m) => decode(m[1]!)).sort();

const decode = (s: string) => s.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n))).replace(/&amp;/g, '&');

/**
 * The built-in authorization server's flow by hand, as a host drives it: registration (RFC 7591),
 * the consent page in a headless browser (`signIn` fills its first form), PKCE and the token.
 * With a `scope`, the user allows the consent page as it is pre-filled; without, every toolset.
 */
export async function hostSignIn(base: string, resource: string, signIn: (browser: Browser, form: { url: string; status: number; html: string }) => Promise<{ url: string; status: number; html: string }>, scope?: string, consentFields: Record<string, string> = {}) {
  const redirect = `${base}/host-callback`;
  const reg = (await (await fetch(`${base}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [redirect], client_name: 'Test host' }) })).json()) as {
    client_id: string;
    registration_access_token: string;
    registration_client_uri: string;
  };
  const verifier = randomBytes(32).toString('base64url');
  const q = new URLSearchParams({ client_id: reg.client_id, redirect_uri: redirect, response_type: 'code', state: 'st', resource, code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256', ...(scope !== undefined ? { scope } : {}) });
  const browser = new Browser();
  const consent = await signIn(browser, await browser.request(`${base}/oauth/authorize?${q}`));
  const back = await browser.submit(consent, 'consent', { decision: 'allow', ...consentFields });
  const code = new URL(back.url).searchParams.get('code');
  if (!code) throw new Error(`no code: ${back.url} ${back.html}`);
  const res = await fetch(`${base}/oauth/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: reg.client_id, redirect_uri: redirect, resource }) });
  const tokens = (await res.json()) as { access_token: string; refresh_token: string; scope: string };
  return { client: reg, tokens, browser, consent, code, verifier, redirect };
}

/** A signing key of the test's identity provider: RS256 or ES256, published under `kid`. */
export function providerKey(alg: 'RS256' | 'ES256', kid: string) {
  const { privateKey, publicKey } = alg === 'RS256' ? generateKeyPairSync('rsa', { modulusLength: 2048 }) : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { alg, kid, privateKey, jwk: { ...publicKey.export({ format: 'jwk' }), kid, use: 'sig', alg } };
}
type ProviderKey = ReturnType<typeof providerKey>;

export const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

/** A JWT as the provider signs it (the header's kid and alg may be overridden to forge one). */
export function jwt(key: { alg: string; kid: string; privateKey: KeyObject }, claims: Record<string, unknown>, header: Record<string, unknown> = {}): string {
  const input = `${b64({ alg: key.alg, kid: key.kid, typ: 'at+jwt', ...header })}.${b64(claims)}`;
  const sig = sign('sha256', Buffer.from(input), key.alg === 'ES256' ? { key: key.privateKey, dsaEncoding: 'ieee-p1363' } : key.privateKey);
  return `${input}.${sig.toString('base64url')}`;
}

/** The provider's JWKS endpoint on an ephemeral port; the test swaps its keys (rotation) and counts requests. */
export async function jwksServer() {
  const state = { keys: [] as ProviderKey[], hits: 0 };
  const server: Server = createServer((req, res) => {
    state.hits++;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: state.keys.map((k) => k.jwk) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/pool/.well-known/jwks.json`;
  return { state, url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/**
 * A tenant's dbapp account connected with the sandbox key, made with an admin-issued service key
 * (of `policy`, which must allow managing connections) as a user would: the key and the connection's id.
 */
export async function connectedDbapp(s: Awaited<ReturnType<typeof localServer>>, tenant: string, policy: Partial<Policy> & { platforms: string[] } = { platforms: ['dbapp'] }) {
  const { key } = await s.createKey(tenant, policy);
  const created = await s.api('POST', '/v1/connections', { key, body: { platform: 'dbapp', end_user: 'user-1', auth: 'api_key' } });
  await new Browser().connectKey(created.body.data.connect_url, SANDBOX_KEYS.owner);
  return { key, connection: created.body.data.connection.id as string };
}

/**
 * The local server signing MCP hosts in through an external provider (MCP_AUTH_SERVER=external)
 * whose JWKS serves `keys`; the tenant `acme` maps to `policy`, its connection and tenant read from
 * the `custom:` claims.
 */
export async function externalIdpServer(issuer: string, keys: ProviderKey[], policy: Partial<Policy>, env: Record<string, string> = {}, opts: { now?: () => number } = {}) {
  const jwks = await jwksServer();
  jwks.state.keys = keys;
  const s = await localServer(
    {
      // The JWKS is fetched over https unless its host is one of these (the test's provider is local).
      ALLOW_HTTP_HOSTS: '127.0.0.1,localhost',
      MCP_AUTH_SERVER: 'external',
      MCP_AUTH_ISSUER: issuer,
      MCP_AUTH_JWKS_URL: jwks.url,
      MCP_AUTH_TENANT_CLAIM: 'custom:tenant',
      MCP_AUTH_CONNECTION_CLAIM: 'custom:connection',
      MCP_AUTH_TENANTS: JSON.stringify({ acme: { policy } }),
      ...env,
    },
    opts,
  );
  return { s, jwks };
}

/**
 * What the MCP sign-in tests start from: the local server, one tenant's key and its dbapp account
 * connected, and the MCP clients a test opens — `close` closes them, then the server.
 */
export async function signInServer(tenant: string, policy?: Partial<Policy> & { platforms: string[] }, opts: { now?: () => number } = {}) {
  const s = await localServer({}, opts);
  const { key, connection } = await connectedDbapp(s, tenant, policy);
  const clients: { close(): Promise<void> }[] = [];
  const close = async () => {
    await Promise.all(clients.map((c) => c.close()));
    await s.close();
  };
  return { s, key, connection, clients, close };
}

/**
 * The parts of an MCP host's OAuth provider that every SDK generation shares: its loopback
 * callback, its registration metadata, and the PKCE verifier and authorization URL the SDK hands
 * it. Each test's host adds how it keeps its registration and tokens.
 */
export class PkceHost {
  verifier = '';
  authorizationUrl?: URL;
  constructor(
    private readonly callback: string,
    private readonly name: string,
  ) {}
  get redirectUrl() {
    return this.callback;
  }
  get clientMetadata() {
    return { redirect_uris: [this.callback], client_name: this.name, token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] };
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** The user's browser at an authorization URL: the sign-in form (200) filled with the service key; answers the browser and the consent page. */
export async function signInForm(authorizationUrl: URL | string, serviceKey: string) {
  const browser = new Browser();
  const form = await browser.request(authorizationUrl.toString());
  if (form.status !== 200) throw new Error(`the sign-in form answered ${form.status}: ${form.html}`);
  return { browser, consent: await browser.submit(form, 'sign-in', { service_key: serviceKey }) };
}

type Page = { url: string; status: number; html: string };

/**
 * The sign-in page's key form for `platform` sent a key its vendor refuses: 401, said on the page in
 * the vendor's name, the key not echoed back. Answers the refused page.
 */
export async function submitRefusedKey(browser: Browser, form: Page, platform: string, vendor: string, wrong: string): Promise<Page> {
  const refused = await browser.submit(form, `key-connect-${platform}`, { vendor_key: wrong });
  expect(refused.status).toBe(401);
  expect(refused.html).toContain('id="key-refused"');
  expect(refused.html).toContain(`${vendor} did not accept this key`);
  expect(refused.html).not.toContain(wrong);
  return refused;
}

/** Leaves a refused sign-in by its back button: the host gets access_denied with its `state`; the key is in no URL and no log line. */
export async function leaveRefusedSignIn(browser: Browser, refused: Page, state: string, wrong: string, logged: readonly string[]): Promise<void> {
  const back = await browser.submit(refused, 'back', {});
  expect(Object.fromEntries(new URL(back.url).searchParams)).toMatchObject({ error: 'access_denied', state });
  expect(browser.urls.join('\n')).not.toContain(wrong);
  expect(logged.join('\n')).not.toContain(wrong);
}
