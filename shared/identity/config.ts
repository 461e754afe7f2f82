type Env = Record<string, string | undefined>;

/** The app a deployment registered with a vendor (README "Connected accounts"). */
export interface OAuthClient {
  id: string;
  /** The secret itself (local), or the name of the SSM SecureString holding it (deployment). */
  secret?: string;
  secretParameter?: string;
}

/** Identity settings, from the environment (README "Service keys and connected accounts"). */
export interface IdentityConfig {
  /** PASS_THROUGH_KEYS=off: only service keys are accepted; vendor keys sent as bearer are refused. */
  passThrough: boolean;
  /** PUBLIC_BASE_URL: where end users reach this service (connect links, the OAuth redirect URL). */
  publicBaseUrl?: string;
  /** ADMIN_TOKEN (local) or ADMIN_TOKEN_PARAMETER (an SSM SecureString's name, deployed). */
  adminToken?: string;
  adminTokenParameter?: string;
  /** <PLATFORM>_OAUTH_CLIENT_ID with _OAUTH_CLIENT_SECRET or _OAUTH_CLIENT_SECRET_PARAMETER. */
  oauthClients: Record<string, OAuthClient>;
  /** <PLATFORM>_OAUTH_AUTHORIZE_URL / _OAUTH_TOKEN_URL: the vendor's endpoints elsewhere (twins). */
  authorizeUrls: Record<string, string>;
  tokenUrls: Record<string, string>;
}

export function loadIdentityConfig(env: Env = process.env): IdentityConfig {
  const pass = env.PASS_THROUGH_KEYS ?? 'on';
  if (pass !== 'on' && pass !== 'off') throw new Error(`PASS_THROUGH_KEYS must be "on" or "off", got "${pass}"`);
  const oauthClients: Record<string, OAuthClient> = {};
  const authorizeUrls: Record<string, string> = {};
  const tokenUrls: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    const m = /^([A-Z][A-Z0-9]*)_OAUTH_(CLIENT_ID|AUTHORIZE_URL|TOKEN_URL)$/.exec(name);
    if (!m || !value) continue;
    const platform = m[1]!.toLowerCase();
    if (m[2] === 'AUTHORIZE_URL') authorizeUrls[platform] = value;
    else if (m[2] === 'TOKEN_URL') tokenUrls[platform] = value;
    else {
      const secret = env[`${m[1]}_OAUTH_CLIENT_SECRET`];
      const secretParameter = env[`${m[1]}_OAUTH_CLIENT_SECRET_PARAMETER`];
      oauthClients[platform] = { id: value, ...(secret ? { secret } : {}), ...(secretParameter ? { secretParameter } : {}) };
    }
  }
  return {
    passThrough: pass === 'on',
    ...(env.PUBLIC_BASE_URL ? { publicBaseUrl: env.PUBLIC_BASE_URL.replace(/\/$/, '') } : {}),
    ...(env.ADMIN_TOKEN ? { adminToken: env.ADMIN_TOKEN } : {}),
    ...(env.ADMIN_TOKEN_PARAMETER ? { adminTokenParameter: env.ADMIN_TOKEN_PARAMETER } : {}),
    oauthClients,
    authorizeUrls,
    tokenUrls,
  };
}
