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
});
