/**
 * How each platform's end users connect: with an API key they paste, or through the vendor's
 * OAuth 2 authorization-code flow. Endpoints and grant parameters are the vendors' public ones:
 *   Podio    https://developers.podio.com/authentication/server_side (tokens 8 h, refresh tokens single-use)
 *   HubSpot  https://developers.hubspot.com/docs/api/oauth-quickstart-guide (tokens 30 min)
 *   ShareFile https://api.sharefile.com/docs/resource?name=Authentication (tokens 8 h; per-account host)
 * A deployment registers an app with each vendor (client id, secret, redirect URL
 * `<PUBLIC_BASE_URL>/v1/connections/callback`) and sets them as <PLATFORM>_OAUTH_CLIENT_ID / _SECRET.
 */
export interface OAuthProvider {
  /** Where the end user approves the app (a browser page). */
  authorizeUrl: string;
  /** Where codes and refresh tokens are exchanged; `{subdomain}`/`{apicp}` come from the callback (ShareFile). */
  tokenUrl: string;
  scopes: string[];
  /** Scope list separator in the authorization URL. */
  scopeSeparator: string;
  /** RFC 7636 S256 challenge: only where the vendor documents it. */
  pkce: boolean;
  /**
   * Query parameters of the callback kept for the token URL and the API host (ShareFile's
   * account), each with the values it may take: the client secret is sent to that host, so a
   * forged callback must not be able to name another.
   */
  callbackParams: Record<string, RegExp>;
  /** The API base of the account, from the token answer and callback parameters; absent: the platform's default. */
  apiBase?: (p: Record<string, string>) => string | undefined;
  /** Revokes a refresh token at the vendor when the connection is deleted. */
  revoke?: { method: 'DELETE'; url: (refreshToken: string) => string };
  /**
   * Who the account is, for the pages (consent, connected, console): a GET with the new access
   * token (in the URL or as `Authorization: <scheme> <token>`), read into a name, e-mail or portal.
   * `apiBase` is the account's own host where the vendor has one (ShareFile).
   */
  account?: { url: (token: string, apiBase: string | undefined) => string | undefined; scheme?: string; read: (body: any) => VendorAccount };
}

/** The vendor's own name for a connected account, as far as it tells. */
export interface VendorAccount {
  name?: string;
  email?: string;
  portal?: string;
}

export type AuthKind = 'api_key' | 'oauth';

export interface PlatformAuth {
  /** The vendor, as the connect page names it. */
  vendor: string;
  kinds: readonly AuthKind[];
  /** What the connect page asks for when it takes a key. */
  keyLabel?: string;
  oauth?: OAuthProvider;
}

export const PLATFORM_AUTH: Readonly<Record<string, PlatformAuth>> = {
  dbapp: { vendor: 'Tape', kinds: ['api_key'], keyLabel: 'Tape API key (user_key_…)' },
  realty: { vendor: 'BatchData', kinds: ['api_key'], keyLabel: 'BatchData API token' },
  crm: {
    vendor: 'HubSpot',
    kinds: ['oauth', 'api_key'],
    keyLabel: 'HubSpot private app access token',
    oauth: {
      authorizeUrl: 'https://app.hubspot.com/oauth/authorize',
      tokenUrl: 'https://api.hubapi.com/oauth/v1/token',
      scopes: ['oauth', 'crm.objects.contacts.read', 'crm.objects.contacts.write', 'crm.objects.companies.read', 'crm.objects.companies.write', 'crm.objects.deals.read', 'crm.objects.deals.write', 'tickets', 'crm.schemas.contacts.read'],
      scopeSeparator: ' ',
      pkce: false,
      callbackParams: {},
      revoke: { method: 'DELETE', url: (t) => `https://api.hubapi.com/oauth/v1/refresh-tokens/${encodeURIComponent(t)}` },
      // https://developers.hubspot.com/docs/api/oauth/tokens: the installing user and the portal.
      account: { url: (t) => `https://api.hubapi.com/oauth/v1/access-tokens/${encodeURIComponent(t)}`, read: (b) => ({ email: b?.user, portal: b?.hub_domain ?? (b?.hub_id !== undefined ? `portal ${b.hub_id}` : undefined) }) },
    },
  },
  collab: {
    vendor: 'Podio',
    kinds: ['oauth'],
    oauth: {
      authorizeUrl: 'https://podio.com/oauth/authorize',
      tokenUrl: 'https://api.podio.com/oauth/token/v2',
      scopes: [],
      scopeSeparator: ' ',
      pkce: false,
      callbackParams: {},
      // https://developers.podio.com/doc/users/get-user-status-20490: the user and their profile.
      account: { url: () => 'https://api.podio.com/user/status', scheme: 'OAuth2', read: (b) => ({ name: b?.profile?.name, email: b?.user?.mail }) },
    },
  },
  filebox: {
    vendor: 'ShareFile',
    kinds: ['oauth'],
    oauth: {
      authorizeUrl: 'https://secure.sharefile.com/oauth/authorize',
      tokenUrl: 'https://{subdomain}.{appcp}/oauth/token',
      scopes: [],
      scopeSeparator: ' ',
      pkce: false,
      callbackParams: { subdomain: /^[a-z0-9][a-z0-9-]{0,62}$/i, apicp: /^sf-api\.(com|eu)$/, appcp: /^sharefile\.(com|eu)$/ },
      apiBase: (p) => (p.subdomain && p.apicp ? `https://${p.subdomain}.${p.apicp}` : undefined),
      // https://api.sharefile.com/docs/resource?name=Users: the signed-in user, on the account's host.
      account: { url: (_t, base) => (base ? `${base}/sf/v3/Users` : undefined), scheme: 'Bearer', read: (b) => ({ name: b?.FullName, email: b?.Email, portal: b?.Company }) },
    },
  },
};

/** The provider's callback parameters from a callback query; undefined when one is missing or not allowed. */
export function callbackValues(provider: OAuthProvider, query: Record<string, string | undefined>): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const [name, allowed] of Object.entries(provider.callbackParams)) {
    const v = query[name];
    if (v === undefined || !allowed.test(v)) return undefined;
    out[name] = v;
  }
  return out;
}

/** Fills `{name}` placeholders of a vendor URL from checked callback values (callbackValues). */
export const fillUrl = (template: string, values: Record<string, string>) => template.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? '');
