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
