/**
 * How a platform's end users connect it, as its descriptor (functions/<platform>/index.ts) states
 * it: with an API key they paste, or through the vendor's OAuth 2 authorization-code flow. The
 * identity layer (shared/identity) runs the flows from this data and names no vendor itself. A
 * deployment registers an app with each OAuth vendor (client id, secret, redirect URL
 * `<PUBLIC_BASE_URL>/v1/connections/callback`) and sets them as <PLATFORM>_OAUTH_CLIENT_ID / _SECRET.
 */
export interface OAuthProvider {
  /** Where the end user approves the app (a browser page). */
  authorizeUrl: string;
  /** Where codes and refresh tokens are exchanged; `{name}` placeholders are filled from callbackParams. */
  tokenUrl: string;
  scopes: string[];
  /** Scope list separator in the authorization URL. */
  scopeSeparator: string;
  /** RFC 7636 S256 challenge: only where the vendor documents it. */
  pkce: boolean;
  /**
   * Query parameters of the callback kept for the token URL and the API host (an account's own
   * host), each with the values it may take: the client secret is sent to that host, so a forged
   * callback must not be able to name another.
   */
  callbackParams: Record<string, RegExp>;
  /** The API base of the account, from the token answer and callback parameters; absent: the platform's default. */
  apiBase?: (p: Record<string, string>) => string | undefined;
  /** Revokes a refresh token at the vendor when the connection is deleted. */
  revoke?: { method: 'DELETE'; url: (refreshToken: string) => string };
  /**
   * Who the account is, for the pages (consent, connected, console): a GET with the new access
   * token (in the URL or as `Authorization: <scheme> <token>`), read into a name, e-mail or portal.
   * `apiBase` is the account's own host where the vendor has one.
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

export interface PlatformAuth<C = unknown> {
  /** How a connection may be made; the first is the default of POST /v1/connections. */
  kinds: readonly AuthKind[];
  /** What the connect page asks for when it takes a key. */
  keyLabel?: string;
  /** Where the vendor shows the key, in one line: the pages that ask for it say so. */
  keyWhere?: string;
  /**
   * Whether a pasted key works, before anything is kept: one cheap read with the platform's client
   * bound to the key (its vendor calls stay in client.ts), and who the account is as far as that
   * read tells. The vendor refusing the key is the client's UNAUTHORIZED. Absent: the MCP sign-in
   * page does not offer to connect the platform with a key (a connect link still does).
   */
  checkKey?: (client: C) => Promise<VendorAccount | undefined>;
  oauth?: OAuthProvider;
}
