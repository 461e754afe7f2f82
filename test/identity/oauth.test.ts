import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { OAuthServer, Twin } from '../../infra/twins/kit';
import { identityOf } from '../../shared/identity';
import type { MemoryStore } from '../../shared/store/memory';
import { Browser, localServer } from './helpers';

/** The OAuth platforms: the twin's mount, its token lifetime, a read-only probe and its answer. */
const OAUTH = [
  { platform: 'collab', mount: '/twins/podio', lifetime: 8 * 3600, tool: 'collab/getOrganizations', params: {}, answer: { orgs: [{ org_id: 7001 }] } },
  { platform: 'crm', mount: '/twins/hubspot', lifetime: 30 * 60, tool: 'crm/getPipelines', params: {}, answer: { objectType: 'deals' } },
  { platform: 'filebox', mount: '/twins/sharefile', lifetime: 8 * 3600, tool: 'filebox/getTopLevelFolders', params: {}, answer: { count: 4 } },
] as const;

type OAuthTwin = Twin & { oauth: OAuthServer };

describe.each(OAUTH)('OAuth connection: $platform', (p) => {
  let s: Awaited<ReturnType<typeof localServer>>;
  /** The service's clock runs ahead of real time by this much (the twin's is moved separately). */
  let ahead = 0;
  let key: string;
  let keyId: string;
  /** Creates and deletes the connections: the read-only key may not (shared/identity/policy.ts managesConnections). */
  let manager: string;
  let connection: string;
  let twin: OAuthTwin;
  const logged: string[] = [];
  beforeAll(async () => {
    s = await localServer({}, { now: () => Date.now() + ahead });
    twin = s.twins[p.platform] as OAuthTwin;
    ({ key, id: keyId } = await s.createKey('acme', { platforms: [p.platform], read_only: true }));
    manager = (await s.createKey('acme', { platforms: [p.platform] })).key;
    // Every log line of the flow, at info level: none may carry a token.
    vi.stubEnv('LOG_LEVEL', 'info');
    for (const stream of ['log', 'error', 'warn'] as const) vi.spyOn(console, stream).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' ')));
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
    await s.close();
  });
  afterEach(() => {
    ahead = 0;
  });

  it("connects through the twin's authorization page, driven headlessly", async () => {
    const created = await s.api('POST', '/v1/connections', { key: manager, body: { platform: p.platform, end_user: 'jane' } });
    expect(created.status).toBe(201);
    expect(created.body.data.connection).toMatchObject({ kind: 'oauth', status: 'pending' });
    connection = created.body.data.connection.id;
    const browser = new Browser();
    const done = await browser.connectOAuth(created.body.data.connect_url);
    expect(done.html).toContain('id="connected"');
    expect(browser.visited).toEqual([
      expect.stringMatching(/^GET \/v1\/connect\/[\w-]+$/),
      expect.stringMatching(/^GET \/v1\/connect\/[\w-]+\/authorize$/),
      `GET ${p.mount}/oauth/authorize`,
      `POST ${p.mount}/oauth/authorize`,
      'GET /v1/connections/callback',
    ]);
    expect(twin.oauth.counts).toMatchObject({ authorizations: 1, codes: 1, refreshes: 0 });
    const shown = (await s.api('GET', `/v1/connections/${connection}`, { key })).body.data;
    expect(shown).toMatchObject({ status: 'active', kind: 'oauth' });
    // The vendor's lifetime, as its token answer said.
    expect(Math.round((shown.access_expires_at - Date.parse(shown.updated_at)) / 1000)).toBe(p.lifetime);
    if (p.platform === 'filebox') expect(shown.base_url).toBe('https://acme.sf-api.com');
  });

  it('calls tools with key + connection', async () => {
    const res = await s.call(key, connection, p.tool, p.params);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject(p.answer);
  });

  it('refreshes once when the vendor says the token expired, and the call succeeds', async () => {
    twin.clock.advance((p.lifetime + 1) * 1000);
    const res = await s.call(key, connection, p.tool, p.params);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject(p.answer);
    expect(twin.oauth.counts.refreshes).toBe(1);
  });

  it('20 concurrent calls at expiry: exactly one refresh at the vendor, every call succeeds', async () => {
    twin.clock.advance((p.lifetime + 1) * 1000);
    const before = twin.oauth.counts.refreshes;
    const results = await Promise.all(Array.from({ length: 20 }, () => s.call(key, connection, p.tool, p.params)));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(twin.oauth.counts.refreshes - before).toBe(1);
  });

  it('refreshes before the call when the token is about to expire (no 401 at the vendor)', async () => {
    const record = (await s.api('GET', `/v1/connections/${connection}`, { key })).body.data;
    twin.clock.advance((p.lifetime + 1) * 1000);
    ahead = record.access_expires_at - Date.now() + 1000;
    const before = twin.oauth.counts.refreshes;
    const sent = twin.requests.entries.length;
    const results = await Promise.all(Array.from({ length: 20 }, () => s.call(key, connection, p.tool, p.params)));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(twin.oauth.counts.refreshes - before).toBe(1);
    expect(twin.requests.entries.slice(sent).filter((r) => r.status === 401)).toEqual([]);
  });

  it('keeps tokens out of the store and the logs', async () => {
    const identity = await identityOf(s.rt);
    const record = (await identity.connections.get('acme', connection))!;
    const credential = await identity.connections.open(record);
    if (credential.kind !== 'oauth') throw new Error('expected an OAuth credential');
    const raw = JSON.stringify([...((s.rt.store as MemoryStore) as any).entries.entries()]);
    for (const secret of [credential.access_token, credential.refresh_token!, key]) {
      expect(raw).not.toContain(secret);
      expect(logged.join('\n')).not.toContain(secret);
    }
    expect(logged.join('\n')).toContain('connection connected');
  });

  it('a refresh the vendor refuses marks the connection needs_reauth; reconnecting heals it', async () => {
    // The end user revoked the app at the vendor: its refresh grant is refused from now on.
    const identity = await identityOf(s.rt);
    const cred = await identity.connections.open((await identity.connections.get('acme', connection))!);
    if (cred.kind === 'oauth') twin.oauth.revokeRefresh(cred.refresh_token!);
    twin.clock.advance((p.lifetime + 1) * 1000);
    const res = await s.call(key, connection, p.tool, p.params);
    expect(res.status).toBe(401);
    expect(res.body.error.details).toMatchObject({ connection_id: connection, status: 'needs_reauth', reconnect_url: expect.stringContaining('/v1/connect/') });
    expect((await s.api('GET', `/v1/connections/${connection}`, { key })).body.data.status).toBe('needs_reauth');
    const healed = await new Browser().connectOAuth(res.body.error.details.reconnect_url);
    expect(healed.html).toContain('id="connected"');
    expect((await s.call(key, connection, p.tool, p.params)).status).toBe(200);
  });

  it('the OAuth callback is single use, bound to the browser that started it, and checks the state', async () => {
    const created = await s.api('POST', '/v1/connections', { key: manager, body: { platform: p.platform, end_user: 'mallory-target' } });
    const browser = new Browser();
    const ours = await browser.request(created.body.data.connect_url);
    const href = /<a id="authorize" href="([^"]+)"/.exec(ours.html)![1]!;
    const consent = await browser.request(new URL(href, s.base).toString());
    // Stop before the callback: capture where the vendor sends the browser.
    const form = /<form id="consent"[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/.exec(consent.html)!;
    const data = new URLSearchParams({ decision: 'allow' });
    for (const m of form[2]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) data.set(m[1]!, m[2]!.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n))));
    data.set('account', /<input type="radio" name="account" value="([^"]*)"/.exec(form[2]!)![1]!);
    const back = await fetch(new URL(form[1]!, consent.url), { method: 'POST', body: data, redirect: 'manual' });
    const callback = back.headers.get('location')!;
    expect(callback).toContain('/v1/connections/callback?');
    // Another browser (no cookie) cannot complete it, and that attempt used the state up.
    const stranger = await new Browser().request(callback);
    expect(stranger.status).toBe(400);
    expect(stranger.html).toContain('another browser');
    const replay = await browser.request(callback);
    expect(replay.status).toBe(400);
    expect(replay.html).toContain('already used');
    expect((await new Browser().request(`${s.base}/v1/connections/callback?state=forged&code=x`)).status).toBe(400);
  });

  it('deleting the connection revokes at the vendor where it can; revoking the key refuses its calls', async () => {
    const created = await s.api('POST', '/v1/connections', { key: manager, body: { platform: p.platform, end_user: 'bob' } });
    await new Browser().connectOAuth(created.body.data.connect_url);
    const id = created.body.data.connection.id;
    const del = await s.api('DELETE', `/v1/connections/${id}`, { key: manager });
    expect(del.body.data.vendor_revoked).toBe(p.platform === 'crm');
    if (p.platform === 'crm') expect(twin.oauth.counts.revocations).toBeGreaterThan(0);
    await s.api('DELETE', `/v1/admin/keys/${keyId}`, { key: 'adm_test_credential' });
    const refused = await s.call(key, connection, p.tool, p.params);
    expect(refused.status).toBe(401);
    expect(refused.body.error.message).toContain('revoked');
  });
});
