import { checkTenant } from './keys';
import { parsePolicy, type Policy } from './policy';

type Env = Record<string, string | undefined>;

/** Who a token's tenant claim value signs in as: a tenant, the policy its calls pass, optionally its connection. */
export interface ExternalTenant {
  tenant: string;
  policy: Policy;
  connection?: string;
}

/**
 * An external identity provider in place of the built-in authorization server (README "Identity",
 * docs/identity.md): the MCP endpoints accept its JWT access tokens.
 */
export interface ExternalAuth {
  /** MCP_AUTH_ISSUER: the `iss` of its tokens, named in the protected-resource metadata. */
  issuer: string;
  /** MCP_AUTH_JWKS_URL (default: the issuer + /.well-known/jwks.json). */
  jwksUrl: string;
  /** MCP_AUTH_AUDIENCE: accepted audiences; empty = the MCP endpoint's own URL (RFC 8707). */
  audiences: string[];
  /** MCP_AUTH_AUDIENCE_CLAIM (default `aud`). */
  audienceClaim: string;
  /** MCP_AUTH_SCOPES: scopes every token must carry. */
  scopes: string[];
  /** MCP_AUTH_TENANT_CLAIM (default `sub`): whose value is looked up in `tenants`. */
  tenantClaim: string;
  /** MCP_AUTH_CONNECTION_CLAIM: a claim naming the connection, when the tenant entry names none. */
  connectionClaim?: string;
  /** MCP_AUTH_TENANTS: claim value → tenant, policy, connection. A value not listed is refused. */
  tenants: Record<string, ExternalTenant>;
}

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
  /** CORS_ALLOWED_ORIGINS: browser origins the MCP and OAuth endpoints answer (shared/http/cors.ts); none by default. */
  corsOrigins: string[];
  /**
   * MCP_CONNECT_SIGN_IN: the built-in server's sign-in page signs a user in by connecting a vendor
   * account (platforms of the policy: through the vendor's OAuth, or by pasting an API key the
   * descriptor can check); the connection is made in `tenant`, and the host's grant is bound to
   * it, under `policy`. Unset: on, in tenant "mcp" for every such platform (the page offers OAuth
   * ones with an OAuth app configured); "off": service keys only.
   */
  connectSignIn?: { tenant: string; policy: Policy };
  /** MCP_CONNECT_SIGN_IN unset: signing in by connecting is on, in tenant "mcp", for every platform with OAuth or a checkable key (Identity fills connectSignIn from the descriptors). */
  connectSignInDefault?: true;
  /** MCP_AUTH_SERVER=external: the external identity provider; absent = the built-in authorization server. */
  externalAuth?: ExternalAuth;
  /** OAUTH_REGISTER_RATE_LIMIT ("<max>/<seconds>"): dynamic client registrations per source address; default 20 per 600 s. */
  registerLimit?: { max: number; window_seconds: number };
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
    corsOrigins: corsOriginsOf(env.CORS_ALLOWED_ORIGINS),
    ...(env.OAUTH_REGISTER_RATE_LIMIT ? { registerLimit: rateOf(env.OAUTH_REGISTER_RATE_LIMIT, 'OAUTH_REGISTER_RATE_LIMIT') } : {}),
    ...(env.MCP_CONNECT_SIGN_IN === 'off' ? {} : env.MCP_CONNECT_SIGN_IN ? { connectSignIn: connectSignInOf(env.MCP_CONNECT_SIGN_IN) } : { connectSignInDefault: true }),
    ...externalAuthOf(env),
  };
}

function rateOf(raw: string, name: string): { max: number; window_seconds: number } {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(raw);
  if (!m || Number(m[1]) < 1 || Number(m[2]) < 1) throw new Error(`${name} must be "<max>/<seconds>", e.g. "20/600", got "${raw}"`);
  return { max: Number(m[1]), window_seconds: Number(m[2]) };
}

/** Each entry an origin as browsers send it (scheme://host[:port], no path), or "*" for any. */
export function corsOriginsOf(raw: string | undefined): string[] {
  const origins = (raw ?? '').split(',').map((o) => o.trim()).filter(Boolean);
  for (const o of origins) {
    if (o === '*') continue;
    let ok = false;
    try {
      const u = new URL(o);
      ok = (u.protocol === 'https:' || u.protocol === 'http:') && u.origin === o;
    } catch {
      ok = false;
    }
    if (!ok) throw new Error(`CORS_ALLOWED_ORIGINS: "${o}" is not an origin; write each as scheme://host[:port] without a path or trailing slash, e.g. https://app.example.com.`);
  }
  return origins;
}

function connectSignInOf(raw: string): { tenant: string; policy: Policy } {
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(raw) as Record<string, unknown>;
  } catch {
    parsed = {};
  }
  try {
    return { tenant: checkTenant(parsed?.tenant, 'MCP_CONNECT_SIGN_IN.tenant'), policy: parsePolicy(parsed?.policy, 'MCP_CONNECT_SIGN_IN.policy') };
  } catch (err) {
    throw new Error(`${err instanceof Error ? err.message : String(err)} MCP_CONNECT_SIGN_IN is JSON: {"tenant": "hosted", "policy": {"platforms": ["crm"]}}, or "off".`);
  }
}

const EXTERNAL_VARS = ['MCP_AUTH_ISSUER', 'MCP_AUTH_JWKS_URL', 'MCP_AUTH_AUDIENCE', 'MCP_AUTH_AUDIENCE_CLAIM', 'MCP_AUTH_SCOPES', 'MCP_AUTH_TENANT_CLAIM', 'MCP_AUTH_CONNECTION_CLAIM', 'MCP_AUTH_TENANTS'] as const;

/**
 * MCP_AUTH_SERVER (builtin | external) and the MCP_AUTH_* settings of an external provider. Never
 * half on: an external provider without its issuer or tenant mapping, or MCP_AUTH_* settings the
 * built-in server would silently ignore, stop the start with a sentence naming the variable.
 */
function externalAuthOf(env: Env): { externalAuth?: ExternalAuth } {
  const mode = env.MCP_AUTH_SERVER || 'builtin';
  const set = EXTERNAL_VARS.filter((v) => env[v]);
  if (mode === 'builtin') {
    if (set.length) throw new Error(`${set.join(', ')} ${set.length > 1 ? 'are' : 'is'} set but MCP_AUTH_SERVER is "builtin": set MCP_AUTH_SERVER=external to sign in through that provider, or remove the MCP_AUTH_* settings to keep the built-in authorization server.`);
    return {};
  }
  if (mode !== 'external') throw new Error(`MCP_AUTH_SERVER must be "builtin" (default) or "external", got "${mode}".`);
  const missing = (['MCP_AUTH_ISSUER', 'MCP_AUTH_TENANTS'] as const).filter((v) => !env[v]);
  if (missing.length) throw new Error(`MCP_AUTH_SERVER=external needs ${missing.join(' and ')} (docs/identity.md shows a setup).`);
  const issuer = env.MCP_AUTH_ISSUER!;
  const jwksUrl = env.MCP_AUTH_JWKS_URL || `${issuer.replace(/\/$/, '')}/.well-known/jwks.json`;
  for (const [name, value] of [['MCP_AUTH_ISSUER', issuer], ['MCP_AUTH_JWKS_URL', jwksUrl]] as const) {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new Error(`${name} must be an absolute URL, got "${value}".`);
    }
    const localHosts = (env.ALLOW_HTTP_HOSTS ?? '').split(',').map((h) => h.trim().toLowerCase());
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && localHosts.includes(url.hostname))) throw new Error(`${name} must be an https URL (http only for a host in ALLOW_HTTP_HOSTS), got "${value}".`);
  }
  const list = (raw: string | undefined) => (raw ?? '').split(/[\s,]+/).filter(Boolean);
  let raw: unknown;
  try {
    raw = JSON.parse(env.MCP_AUTH_TENANTS!);
  } catch {
    throw new Error('MCP_AUTH_TENANTS must be JSON: {"<tenant claim value>": {"tenant"?: "acme", "policy": {"platforms": ["crm"]}, "connection"?: "con_…"}}.');
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw) || Object.keys(raw).length === 0) throw new Error('MCP_AUTH_TENANTS must be a non-empty JSON object keyed by the tenant claim\'s values.');
  const tenants: Record<string, ExternalTenant> = {};
  for (const [value, entry] of Object.entries(raw as Record<string, unknown>)) {
    const e = (entry ?? {}) as Record<string, unknown>;
    let tenant: string;
    let policy: Policy;
    try {
      // The tenant defaults to the claim value itself (a claim such as custom:tenant names it).
      tenant = checkTenant(e.tenant ?? value, `MCP_AUTH_TENANTS["${value}"].tenant`);
      policy = parsePolicy(e.policy, `MCP_AUTH_TENANTS["${value}"].policy`);
    } catch (err) {
      throw new Error(err instanceof Error ? err.message : String(err));
    }
    if (e.connection !== undefined && typeof e.connection !== 'string') throw new Error(`MCP_AUTH_TENANTS["${value}"].connection must be a connection id (con_…).`);
    tenants[value] = { tenant, policy, ...(typeof e.connection === 'string' ? { connection: e.connection } : {}) };
  }
  return {
    externalAuth: {
      issuer,
      jwksUrl,
      audiences: list(env.MCP_AUTH_AUDIENCE),
      audienceClaim: env.MCP_AUTH_AUDIENCE_CLAIM || 'aud',
      scopes: list(env.MCP_AUTH_SCOPES),
      tenantClaim: env.MCP_AUTH_TENANT_CLAIM || 'sub',
      ...(env.MCP_AUTH_CONNECTION_CLAIM ? { connectionClaim: env.MCP_AUTH_CONNECTION_CLAIM } : {}),
      tenants,
    },
  };
}
