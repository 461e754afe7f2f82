import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import type { Clock, OAuthServer } from '../../kit';
import { PODIO_DEMO } from '../demo';
import { jsonBody, PodioHttpError, type TwinContext, type TwinEnv } from '../http';
import type { PodioState, TokenRow } from '../state';

/** Access tokens live 8 hours, refresh tokens 28 days (docs/vendors/podio.md#conventions). */
export const ACCESS_TOKEN_SECONDS = 28_800;
export const REFRESH_TOKEN_MS = 28 * 24 * 3_600_000;

const GRANTS = ['authorization_code', 'password', 'refresh_token', 'app'];

/**
 * `POST /oauth/token` (form-encoded as Podio and podio-js send it; JSON also read): grant types
 * password (the demo users' mail, or owner@sandbox.test / member@sandbox.test, with the password
 * "sandbox"), refresh_token, and app (app_id + the app's token). Any non-empty client_id and
 * client_secret pass: the twin keeps no API clients. The authorization-code flow, and the refresh
 * of its tokens, is the kit's OAuth server (`oauth`, podio/oauth.ts), which checks the client.
 */
export function oauthRoutes(state: PodioState, clock: Clock, oauth?: OAuthServer) {
  const r = new Hono<TwinEnv>();
  const bad = (code: string, message: string, status = 400) => new PodioHttpError(status, code, message);

  async function params(c: TwinContext): Promise<Record<string, string>> {
    const type = c.req.header('content-type') ?? '';
    const raw = /json/i.test(type) ? await jsonBody(c) : /form/i.test(type) ? await c.req.parseBody() : {};
    return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '']));
  }

  function grant(p: Record<string, string>): TokenRow['ref'] & { user_id: number } {
    switch (p.grant_type) {
      case 'password': {
        const name = (p.username ?? '').toLowerCase();
        const L = PODIO_DEMO.logins;
        const user = name === L.owner ? state.users.get(PODIO_DEMO.users.owner.user_id) : name === L.member ? state.users.get(PODIO_DEMO.users.member.user_id) : [...state.users.values()].find((u) => u.mail.toLowerCase() === name);
        if (!user || p.password !== PODIO_DEMO.password) throw bad('invalid_grant', 'Invalid user name or password');
        return { type: 'user', id: user.user_id, user_id: user.user_id };
      }
      case 'refresh_token': {
        const row = state.refreshTokens.get(p.refresh_token ?? '');
        if (!row || (row.expires_at !== null && row.expires_at <= clock.now())) throw bad('invalid_grant', 'The refresh token is not valid or has expired');
        // A refresh token is used once: the answer carries its successor.
        state.refreshTokens.delete(p.refresh_token!);
        return { ...row.ref, user_id: row.user_id };
      }
      case 'app': {
        const app = state.apps.get(Number(p.app_id));
        if (!app || p.app_token !== app.token) throw bad('invalid_grant', 'Invalid app_id or app_token');
        // App authentication acts for the app; the twin lets it act as the org's demo owner.
        return { type: 'app', id: app.app_id, user_id: PODIO_DEMO.users.owner.user_id };
      }
    }
    throw bad('unsupported_grant_type', `"grant_type" must be one of ${GRANTS.join(', ')} in this sandbox, got "${p.grant_type ?? ''}".`);
  }

  const token = async (c: TwinContext) => {
    const p = await params(c);
    if (!p.grant_type) throw bad('invalid_request', 'Missing parameter "grant_type"');
    if (!p.client_id || !p.client_secret) throw bad('invalid_client', 'Missing or invalid "client_id" / "client_secret"', 401);
    if (oauth && (p.grant_type === 'authorization_code' || (p.grant_type === 'refresh_token' && oauth.knowsRefresh(p.refresh_token)))) return c.json(oauth.grant(p));
    const who = grant(p);
    const access_token = randomBytes(16).toString('hex');
    const refresh_token = randomBytes(16).toString('hex');
    const ref = { type: who.type, id: who.id };
    state.tokens.set(access_token, { user_id: who.user_id, expires_at: clock.now() + ACCESS_TOKEN_SECONDS * 1000, ref });
    state.refreshTokens.set(refresh_token, { user_id: who.user_id, expires_at: clock.now() + REFRESH_TOKEN_MS, ref });
    return c.json({ access_token, token_type: 'bearer', expires_in: ACCESS_TOKEN_SECONDS, refresh_token, ref, scope: 'global:all' });
  };

  r.post('/oauth/token', token);
  r.post('/oauth/token/v2', token);
  return r;
}
