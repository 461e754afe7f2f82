import { Client, IssuerMismatchError, StreamableHTTPClientTransport, UnauthorizedError, type OAuthClientInformationContext, type OAuthClientProvider, type StoredOAuthClientInformation, type StoredOAuthTokens } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PkceHost, signInForm, signInServer } from './helpers';

/**
 * A host on the official client's new generation (@modelcontextprotocol/client 2.x), which follows
 * the 2026-07-28 authorization rules as a client: it keys its registration and tokens by the
 * authorization server's issuer, and checks `iss` in the authorization response (RFC 9207) before
 * it redeems the code. It signs in to the built-in server headlessly and lists tools.
 */
class IssuerKeyedHost extends PkceHost implements OAuthClientProvider {
  readonly clients = new Map<string, StoredOAuthClientInformation>();
  readonly saved = new Map<string, StoredOAuthTokens>();
  constructor(callback: string) {
    super(callback, 'Host on client 2.x');
  }
  clientInformation(ctx?: OAuthClientInformationContext) {
    return ctx && this.clients.get(ctx.issuer);
  }
  saveClientInformation(info: StoredOAuthClientInformation, ctx?: OAuthClientInformationContext) {
    this.clients.set(ctx!.issuer, info);
  }
  tokens(ctx?: OAuthClientInformationContext) {
    return ctx ? this.saved.get(ctx.issuer) : [...this.saved.values()][0];
  }
  saveTokens(tokens: StoredOAuthTokens, ctx?: OAuthClientInformationContext) {
    this.saved.set(ctx!.issuer, tokens);
  }
}

describe('sign-in from @modelcontextprotocol/client 2.x (2026-07-28 authorization)', () => {
  let f: Awaited<ReturnType<typeof signInServer>>;
  beforeAll(async () => void (f = await signInServer('tenant-v2')));
  afterAll(() => f.close());

  const client = () => new Client({ name: 'host-v2', version: '2.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });

  /** The first connection (401, discovery, registration), then the user's browser: sign-in and consent. Returns the callback URL. */
  async function authorize(host: IssuerKeyedHost, url: URL): Promise<URL> {
    await expect(client().connect(new StreamableHTTPClientTransport(url, { authProvider: host }))).rejects.toThrow(UnauthorizedError);
    const { browser, consent } = await signInForm(host.authorizationUrl!, f.key);
    return new URL((await browser.submit(consent, 'consent', { decision: 'allow' })).url);
  }

  it('signs in, keyed by the issuer, with iss checked before the code is redeemed; lists tools', async () => {
    const url = new URL(`${f.s.base}/v1/mcp/dbapp`);
    const host = new IssuerKeyedHost(`${f.s.base}/host-callback`);
    const back = await authorize(host, url);
    expect(back.searchParams.get('iss')).toBe(f.s.base);
    // Registered under the issuer, as a native app (its callback is a loopback one).
    expect([...host.clients.keys()]).toEqual([f.s.base]);
    expect(host.clients.get(f.s.base)).toMatchObject({ client_id: expect.stringMatching(/^mcp_/), application_type: 'native' });
    await new StreamableHTTPClientTransport(url, { authProvider: host }).finishAuth(back.searchParams);
    expect([...host.saved.keys()]).toEqual([f.s.base]);
    const signedIn = client();
    await signedIn.connect(new StreamableHTTPClientTransport(url, { authProvider: host }));
    f.clients.push(signedIn);
    expect((await signedIn.listTools()).tools.map((t) => t.name)).toContain('listWorkspaces');
  });

  it('refuses a response whose iss is not the issuer it discovered (a mix-up): the code is never sent', async () => {
    const url = new URL(`${f.s.base}/v1/mcp/dbapp`);
    const host = new IssuerKeyedHost(`${f.s.base}/host-callback`);
    const back = await authorize(host, url);
    back.searchParams.set('iss', 'https://attacker.example');
    await expect(new StreamableHTTPClientTransport(url, { authProvider: host }).finishAuth(back.searchParams)).rejects.toThrow(IssuerMismatchError);
    expect(host.saved.size).toBe(0);
    // The code was not redeemed: the host's honest retry with the real response still gets tokens.
    back.searchParams.set('iss', f.s.base);
    await new StreamableHTTPClientTransport(url, { authProvider: host }).finishAuth(back.searchParams);
    expect(host.saved.get(f.s.base)?.access_token).toMatch(/^tat_/);
  });
});
