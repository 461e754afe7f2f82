import { OAuthServer, SANDBOX_KEYS, TwinHttpError, type Clock, type OAuthDialect } from '../kit';
import type { SfState } from './state';

/** The hosts a sandbox account's API and web app live under (https://{subdomain}.sf-api.com, .sharefile.com). */
const HOSTS = { apicp: 'sf-api.com', appcp: 'sharefile.com' };

/**
 * ShareFile's OAuth dialect (https://api.sharefile.com/docs/resource?name=Authentication): the
 * redirect back carries the account's `subdomain`, `apicp` and `appcp`, the token endpoint is the
 * account's own (https://{subdomain}.sharefile.com/oauth/token), access tokens live 8 hours and
 * each refresh answers a new refresh token; refusals are RFC 6749 {error, error_description}.
 */
export function sharefileOAuth(state: SfState, clock: Clock, accessSeconds?: number): OAuthServer {
  const account = (key: string) => state.users.get(state.tokens.get(key) ?? '');
  const extras = () => ({ subdomain: state.account.subdomain, ...HOSTS });
  const dialect: OAuthDialect = {
    vendor: 'ShareFile',
    accessSeconds: 28_800,
    rotateRefresh: true,
    accounts: () =>
      [SANDBOX_KEYS.owner, SANDBOX_KEYS.member].flatMap((key) => {
        const user = account(key);
        return user ? [{ id: user.id, label: `${user.firstName} ${user.lastName} <${user.email}>` }] : [];
      }),
    callbackExtras: extras,
    tokenExtras: extras,
    tokenError: (status, error, description) => new TwinHttpError(status, { error, error_description: description }),
  };
  return new OAuthServer(dialect, clock, accessSeconds ? { accessSeconds } : {});
}
