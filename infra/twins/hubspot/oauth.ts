import { OAuthServer, SANDBOX_KEYS, type Clock, type OAuthDialect } from '../kit';
import { HubSpotHttpError, usersByKey } from './http';

/**
 * HubSpot's OAuth dialect (https://developers.hubspot.com/docs/api/oauth-quickstart-guide):
 * access tokens live 30 minutes, the refresh token stays the same across refreshes until the
 * app is uninstalled or it is revoked (DELETE /oauth/v1/refresh-tokens/{token}); refused grants
 * answer 400 {status: BAD_AUTH_CODE | BAD_REFRESH_TOKEN | BAD_CLIENT_ID, message}.
 */
export function hubspotOAuth(clock: Clock, accessSeconds?: number): OAuthServer {
  const users = usersByKey(SANDBOX_KEYS);
  const dialect: OAuthDialect = {
    vendor: 'HubSpot',
    accessSeconds: 1800,
    rotateRefresh: false,
    accounts: () => (['owner', 'member'] as const).map((id) => ({ id, label: users.get(SANDBOX_KEYS[id])!.name })),
    tokenError: (status, error, description, grant) => {
      const code = error === 'invalid_client' ? 'BAD_CLIENT_ID' : error === 'invalid_grant' ? (grant === 'refresh_token' ? 'BAD_REFRESH_TOKEN' : 'BAD_AUTH_CODE') : 'BAD_GRANT_TYPE';
      return new HubSpotHttpError(status === 401 ? 400 : status, code, description, { status: code });
    },
  };
  return new OAuthServer(dialect, clock, accessSeconds ? { accessSeconds } : {});
}
