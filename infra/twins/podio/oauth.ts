import { OAuthServer, type Clock, type OAuthDialect } from '../kit';
import { PODIO_DEMO } from './demo';
import { PodioHttpError } from './http';
import { ACCESS_TOKEN_SECONDS, REFRESH_TOKEN_MS } from './routes/auth';
import type { PodioState } from './state';

/**
 * Podio's server-side flow (https://developers.podio.com/authentication/server_side): the user
 * approves at podio.com/oauth/authorize, the code is exchanged at POST /oauth/token, access tokens
 * live 8 hours and a refresh token works once (its answer carries the next). Refusals are Podio's
 * error body with RFC 6749 codes (invalid_grant, invalid_client).
 */
export function podioOAuth(state: PodioState, clock: Clock, accessSeconds?: number): OAuthServer {
  const dialect: OAuthDialect = {
    vendor: 'Podio',
    accessSeconds: ACCESS_TOKEN_SECONDS,
    refreshSeconds: REFRESH_TOKEN_MS / 1000,
    rotateRefresh: true,
    accounts: () =>
      [PODIO_DEMO.users.owner.user_id, PODIO_DEMO.users.member.user_id].flatMap((id) => {
        const user = state.users.get(id);
        return user ? [{ id: String(id), label: `${user.name} <${user.mail}>` }] : [];
      }),
    tokenExtras: (account) => ({ ref: { type: 'user', id: Number(account) }, scope: 'global:all' }),
    tokenError: (status, error, description) => new PodioHttpError(status, error, description),
  };
  return new OAuthServer(dialect, clock, accessSeconds ? { accessSeconds } : {});
}
