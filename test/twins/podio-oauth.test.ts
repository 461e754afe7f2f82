import { describe, expect, it } from 'vitest';
import { PODIO_DEMO } from '../../infra/twins/podio';
import { podioTwin } from './podio-call';

const D = PODIO_DEMO;

/** POST /oauth/token, form-encoded as Podio's clients send it. */
async function token(t: ReturnType<typeof podioTwin>, params: Record<string, string>) {
  const res = await t.fetch('https://api.podio.com/oauth/token', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: 'sandbox-client', client_secret: 'sandbox-secret', ...params }).toString(),
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe('Podio twin: POST /oauth/token', () => {
  it('password grant for owner@sandbox.test → an 8-hour access token, a refresh token, ref', async () => {
    const t = podioTwin();
    const r = await token(t, { grant_type: 'password', username: D.logins.owner, password: D.password });
    expect(r.body).toEqual({ access_token: expect.stringMatching(/^[0-9a-f]{32}$/), token_type: 'bearer', expires_in: 28800, refresh_token: expect.stringMatching(/^[0-9a-f]{32}$/), ref: { type: 'user', id: 1001 }, scope: 'global:all' });
    const status = await t.call('GET', '/user/status', undefined, r.body.access_token);
    expect(status.body.user.user_id).toBe(1001);
    const member = await token(t, { grant_type: 'password', username: D.users.member.mail, password: D.password });
    expect(member.body.ref).toEqual({ type: 'user', id: D.users.member.user_id });
  });

  it('the token expires on the twin clock (401 invalid_token / expired_token); the refresh token grants a new one, once', async () => {
    const t = podioTwin();
    const first = (await token(t, { grant_type: 'password', username: D.logins.member, password: D.password })).body;
    t.clock.advance(28_800 * 1000);
    const expired = await t.call('GET', '/user/status', undefined, first.access_token);
    expect(expired.status).toBe(401);
    expect(expired.body).toMatchObject({ error: 'invalid_token', error_description: 'expired_token' });
    const next = await token(t, { grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(next.status).toBe(200);
    expect(next.body.ref).toEqual({ type: 'user', id: D.users.member.user_id });
    expect((await t.call('GET', '/user/status', undefined, next.body.access_token)).status).toBe(200);
    expect((await token(t, { grant_type: 'refresh_token', refresh_token: first.refresh_token })).body.error).toBe('invalid_grant');
  });

  it('app grant with the app token; bad credentials, grants and clients are refused', async () => {
    const t = podioTwin();
    const app = await token(t, { grant_type: 'app', app_id: String(D.apps.deals), app_token: t.state.apps.get(D.apps.deals)!.token });
    expect(app.body.ref).toEqual({ type: 'app', id: D.apps.deals });
    expect((await token(t, { grant_type: 'app', app_id: String(D.apps.deals), app_token: 'nope' })).status).toBe(400);
    const wrong = await token(t, { grant_type: 'password', username: D.logins.owner, password: 'guess' });
    expect(wrong).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await token(t, { grant_type: 'implicit' })).body.error).toBe('unsupported_grant_type');
    expect((await token(t, { grant_type: 'password', username: D.logins.owner, password: D.password, client_secret: '' })).status).toBe(401);
  });
});
