import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_KEYS } from '../../infra/twins/kit';
import { Browser, hostSignIn, localServer } from './helpers';

describe('token revocation (RFC 7009) and client registration management (RFC 7592)', () => {
  let s: Awaited<ReturnType<typeof localServer>>;
  let key: string;
  beforeAll(async () => {
    s = await localServer();
    key = (await s.createKey('tenant-r', { platforms: ['dbapp'] })).key;
    const created = await s.api('POST', '/v1/connections', { key, body: { platform: 'dbapp', end_user: 'user-1', auth: 'api_key' } });
    await new Browser().connectKey(created.body.data.connect_url, SANDBOX_KEYS.owner);
  });
  afterAll(() => s.close());

  const resource = () => `${s.base}/v1/mcp/dbapp`;
  const signIn = () => hostSignIn(s.base, resource(), (browser, form) => browser.submit(form, 'sign-in', { service_key: key }));
  const list = (token: string) => fetch(resource(), { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
  const revoke = (form: Record<string, string>) => fetch(`${s.base}/oauth/revoke`, { method: 'POST', body: new URLSearchParams(form) });
  const refresh = (token: string, clientId: string) => fetch(`${s.base}/oauth/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: token, client_id: clientId }) });

  it('advertises the revocation endpoint in the authorization server metadata', async () => {
    const meta = (await (await fetch(`${s.base}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(meta).toMatchObject({ revocation_endpoint: `${s.base}/oauth/revoke`, revocation_endpoint_auth_methods_supported: ['none'] });
  });

  it('revokes an access token alone; its refresh token still works', async () => {
    const { client, tokens } = await signIn();
    expect((await list(tokens.access_token)).status).toBe(200);
    const res = await revoke({ token: tokens.access_token, token_type_hint: 'access_token', client_id: client.client_id });
    expect(res.status).toBe(200);
    const after = await list(tokens.access_token);
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect((await refresh(tokens.refresh_token, client.client_id)).status).toBe(200);
  });

  it('a replayed authorization code revokes every token issued from it (RFC 6749 §4.1.2)', async () => {
    const { client, tokens, code, verifier, redirect } = await signIn();
    expect((await list(tokens.access_token)).status).toBe(200);
    const again = await fetch(`${s.base}/oauth/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: client.client_id, redirect_uri: redirect, resource: resource() }) });
    expect(again.status).toBe(400);
    expect(((await again.json()) as { error: string }).error).toBe('invalid_grant');
    expect((await list(tokens.access_token)).status).toBe(401);
    expect((await refresh(tokens.refresh_token, client.client_id)).status).toBe(400);
  });

  it('revokes a refresh token and every token of its sign-in', async () => {
    const { client, tokens } = await signIn();
    // The hint is only a hint: a refresh token sent as "access_token" is found all the same.
    expect((await revoke({ token: tokens.refresh_token, token_type_hint: 'access_token', client_id: client.client_id })).status).toBe(200);
    expect((await refresh(tokens.refresh_token, client.client_id)).status).toBe(400);
    expect((await list(tokens.access_token)).status).toBe(401);
  });

  it("answers 200 for an unknown token, and refuses another client's token without revoking it", async () => {
    const { client, tokens } = await signIn();
    expect((await revoke({ token: 'tat_unknown', client_id: client.client_id })).status).toBe(200);
    const other = await revoke({ token: tokens.access_token, client_id: 'mcp_someone_else' });
    expect(other.status).toBe(401);
    expect(((await other.json()) as { error: string }).error).toBe('invalid_client');
    expect((await list(tokens.access_token)).status).toBe(200);
    const missing = await revoke({ client_id: client.client_id });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: string }).error).toBe('invalid_request');
  });

  it('lets a registered client read and delete its registration with its registration access token only', async () => {
    const { client, tokens } = await signIn();
    expect((await list(tokens.access_token)).status).toBe(200);
    expect(client.registration_client_uri).toBe(`${s.base}/oauth/register/${client.client_id}`);
    const read = (token?: string, method = 'GET') => fetch(client.registration_client_uri, { method, headers: token ? { authorization: `Bearer ${token}` } : {} });
    const mine = await read(client.registration_access_token);
    expect(mine.status).toBe(200);
    const body = (await mine.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ client_id: client.client_id, client_name: 'Test host' });
    expect(JSON.stringify(body)).not.toContain('registration_hash');
    expect((await read('tra_wrong')).status).toBe(401);
    expect((await read(undefined, 'DELETE')).status).toBe(401);
    expect((await read(client.registration_access_token, 'DELETE')).status).toBe(204);
    expect((await read(client.registration_access_token)).status).toBe(401);
    // A deleted client cannot sign in again.
    const page = await fetch(`${s.base}/oauth/authorize?${new URLSearchParams({ client_id: client.client_id, redirect_uri: `${s.base}/host-callback`, response_type: 'code', code_challenge: 'x', code_challenge_method: 'S256' })}`);
    expect(page.status).toBe(400);
    expect(await page.text()).toContain('Unknown client');
    // ...and the tokens issued to it stop working (RFC 7592 §2.3).
    expect((await list(tokens.access_token)).status).toBe(401);
    expect((await refresh(tokens.refresh_token, client.client_id)).status).toBe(400);
  });

  it('lets a registered client replace its metadata (PUT) with its registration access token, which rotates', async () => {
    const { client } = await signIn();
    const put = (token: string | undefined, body: unknown) =>
      fetch(client.registration_client_uri, { method: 'PUT', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
    const read = async (token: string) => (await fetch(client.registration_client_uri, { headers: { authorization: `Bearer ${token}` } })).json() as Promise<Record<string, unknown>>;
    const error = async (res: Response) => ((await res.json()) as { error: string }).error;
    const moved = [`${s.base}/new-callback`, 'http://127.0.0.1:8123/cb'];

    expect((await put(undefined, { client_id: client.client_id, redirect_uris: moved })).status).toBe(401);
    expect((await put('tra_wrong', { client_id: client.client_id, redirect_uris: moved })).status).toBe(401);
    // Checked as a registration is, and nothing changes when refused.
    const refusals: [unknown, number, string][] = [
      [{ client_id: 'mcp_other', redirect_uris: moved }, 400, 'invalid_client_metadata'],
      [{ client_id: client.client_id, redirect_uris: ['http://evil.example/cb'] }, 400, 'invalid_redirect_uri'],
      [{ client_id: client.client_id }, 400, 'invalid_redirect_uri'],
      [{ redirect_uris: moved }, 400, 'invalid_client_metadata'],
      [{ client_id: client.client_id, redirect_uris: moved, token_endpoint_auth_method: 'client_secret_basic' }, 400, 'invalid_client_metadata'],
      [{ client_id: client.client_id, redirect_uris: moved, grant_types: ['client_credentials'] }, 400, 'invalid_client_metadata'],
      [['not', 'an', 'object'], 400, 'invalid_client_metadata'],
    ];
    for (const [body, status, code] of refusals) {
      const res = await put(client.registration_access_token, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(await error(res)).toBe(code);
    }
    expect(await read(client.registration_access_token)).toMatchObject({ redirect_uris: [`${s.base}/host-callback`], client_name: 'Test host' });

    // The full metadata, as a read answers it, replaces the old: client_name left out is gone.
    const { client_name: _n, ...current } = await read(client.registration_access_token);
    const res = await put(client.registration_access_token, { ...current, redirect_uris: moved });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const updated = (await res.json()) as Record<string, unknown>;
    expect(updated).toMatchObject({ client_id: client.client_id, redirect_uris: moved, token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], registration_client_uri: client.registration_client_uri });
    expect(updated).not.toHaveProperty('client_name');
    const rotated = updated.registration_access_token as string;
    expect(rotated).toMatch(/^tra_/);
    expect(rotated).not.toBe(client.registration_access_token);
    // The old registration token is spent; the new one reads the new metadata.
    expect((await fetch(client.registration_client_uri, { headers: { authorization: `Bearer ${client.registration_access_token}` } })).status).toBe(401);
    expect(await read(rotated)).toMatchObject({ client_id: client.client_id, redirect_uris: moved });
    expect(await (await put(rotated, { client_id: client.client_id, redirect_uris: [moved[0]], client_name: 'Renamed host' })).json()).toMatchObject({ redirect_uris: [moved[0]], client_name: 'Renamed host' });
  });

  it('refuses at the token endpoint a pending code sent to a redirect URI the client no longer registers', async () => {
    const redirect = `${s.base}/host-callback`;
    const reg = (await (await fetch(`${s.base}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [redirect, `${s.base}/kept-callback`] }) })).json()) as {
      client_id: string;
      registration_access_token: string;
      registration_client_uri: string;
    };
    const code = async (uri: string) => {
      const verifier = randomBytes(32).toString('base64url');
      const q = new URLSearchParams({ client_id: reg.client_id, redirect_uri: uri, response_type: 'code', resource: resource(), code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256' });
      const browser = new Browser();
      const consent = await browser.submit(await browser.request(`${s.base}/oauth/authorize?${q}`), 'sign-in', { service_key: key });
      const back = await browser.submit(consent, 'consent', { decision: 'allow' });
      return { code: new URL(back.url).searchParams.get('code')!, verifier, uri };
    };
    const exchange = (c: { code: string; verifier: string; uri: string }) =>
      fetch(`${s.base}/oauth/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'authorization_code', code: c.code, code_verifier: c.verifier, client_id: reg.client_id, redirect_uri: c.uri }) });
    const dropped = await code(redirect);
    const kept = await code(`${s.base}/kept-callback`);
    const put = await fetch(reg.registration_client_uri, { method: 'PUT', headers: { 'content-type': 'application/json', authorization: `Bearer ${reg.registration_access_token}` }, body: JSON.stringify({ client_id: reg.client_id, redirect_uris: [`${s.base}/kept-callback`] }) });
    expect(put.status).toBe(200);
    const refused = await exchange(dropped);
    expect(refused.status).toBe(400);
    expect((await refused.json()) as Record<string, string>).toMatchObject({ error: 'invalid_grant', error_description: expect.stringContaining('no longer registers') });
    const ok = await exchange(kept);
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { access_token: string }).access_token).toMatch(/^tat_/);
  });
});
