import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_KEYS } from '../../infra/twins/kit';
import { RuntimeIdentity } from '../../shared/identity';
import { KEY_CACHE_SECONDS } from '../../shared/identity/keys';
import { loadIdentityConfig } from '../../shared/identity/config';
import { Browser, hostSignIn, localServer } from './helpers';

/**
 * A verified sign-in and the key behind it are cached per container (shared/identity/keys.ts,
 * KEY_CACHE_SECONDS), so a call reads the store for its caller at most once in that time; a
 * revocation in another container (another instance over the same store) is still refused within
 * that bound, one in this container at once (test/identity/mcp-revocation.test.ts).
 */
describe('the caller, resolved once: cached sign-ins and keys still see a revocation elsewhere within KEY_CACHE_SECONDS', () => {
  let clock = Date.now();
  const now = () => clock;
  let s: Awaited<ReturnType<typeof localServer>>;
  let key: string;
  let keyId: string;
  /** Another container over the same store: its own identity, its own caches. */
  let elsewhere: RuntimeIdentity;
  beforeAll(async () => {
    s = await localServer({}, { now });
    ({ key, id: keyId } = await s.createKey('tenant-cache', { platforms: ['dbapp'] }));
    const created = await s.api('POST', '/v1/connections', { key, body: { platform: 'dbapp', end_user: 'user-1', auth: 'api_key' } });
    await new Browser().connectKey(created.body.data.connect_url, SANDBOX_KEYS.owner);
    elsewhere = new RuntimeIdentity(s.rt, { now, vault: await (await (s.rt.identity as RuntimeIdentity).instance()).vault(), config: loadIdentityConfig({ VAULT_KEY: randomBytes(32).toString('base64') }) });
  });
  afterAll(() => s.close());

  const resource = () => `${s.base}/v1/mcp/dbapp`;
  const signIn = () => hostSignIn(s.base, resource(), (browser, form) => browser.submit(form, 'sign-in', { service_key: key }));
  const list = (token: string) => fetch(resource(), { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });

  it('an MCP tools/call reads its sign-in from the store once, and the next call of the container not at all', async () => {
    const { tokens } = await signIn();
    const store = s.rt.store;
    const read: string[] = [];
    const get = store.get.bind(store);
    store.get = ((k: string) => {
      read.push(k);
      return get(k);
    }) as typeof store.get;
    try {
      const call = () => fetch(resource(), { method: 'POST', headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"listWorkspaces","arguments":{}}}' });
      const first = (await (await call()).json()) as { result: { isError?: boolean } };
      expect(first.result.isError).toBeFalsy();
      // The access token's record and the key it was granted with: once for the route, execute and the MCP core together.
      expect(read.filter((k) => k.startsWith('idn#oaat#'))).toHaveLength(1);
      expect(read.filter((k) => k.startsWith('idn#keyid#'))).toHaveLength(1);
      read.length = 0;
      expect(((await (await call()).json()) as { result: { isError?: boolean } }).result.isError).toBeFalsy();
      expect(read.filter((k) => k.startsWith('idn#oaat#') || k.startsWith('idn#keyid#'))).toEqual([]);
    } finally {
      store.get = get;
    }
  });

  it('an access token revoked in another container is refused here once KEY_CACHE_SECONDS have passed', async () => {
    const { client, tokens } = await signIn();
    expect((await list(tokens.access_token)).status).toBe(200);
    await (await elsewhere.instance()).grants.revoke(tokens.access_token, client.client_id, s.base);
    // The bound is the documented one: at most a minute.
    expect(KEY_CACHE_SECONDS).toBeLessThanOrEqual(60);
    clock += KEY_CACHE_SECONDS * 1000;
    const after = await list(tokens.access_token);
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('the service key a sign-in was granted with, revoked in another container, takes the sign-in with it within the bound', async () => {
    const { tokens } = await signIn();
    expect((await list(tokens.access_token)).status).toBe(200);
    await (await elsewhere.instance()).keys.revoke(keyId);
    clock += KEY_CACHE_SECONDS * 1000;
    expect((await list(tokens.access_token)).status).toBe(401);
    // The key itself, on REST, alike.
    expect((await s.call(key, undefined, 'dbapp/listWorkspaces')).status).toBe(401);
  });
});
