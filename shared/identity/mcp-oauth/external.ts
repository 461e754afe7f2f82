import { createHash, createPublicKey, verify, type JsonWebKey, type KeyObject } from 'node:crypto';
import { ToolError } from '../../core/errors';
import { fetchUrl } from '../../vendor/fetch-url';
import type { ExternalAuth, ExternalTenant } from '../config';
import type { KeyRecord } from '../keys';
import { insufficientScope } from './resource';

/**
 * JWT access tokens of an external identity provider (MCP_AUTH_SERVER=external): signature checked
 * against the issuer's JWKS (RFC 7517), then `iss`, audience, `exp`/`nbf` and scope (RFC 9068's
 * checks), then the tenant claim mapped to a tenant and policy. Only RS256 and ES256 are accepted;
 * `alg` is taken from the key, never trusted from the token alone (RFC 8725 §3.1).
 */

/** Clock difference tolerated between the provider and this service. */
export const CLOCK_SKEW_SECONDS = 60;
/** How long a fetched JWKS is used before it is fetched again. */
export const JWKS_CACHE_MS = 10 * 60_000;
/** An unknown `kid` refetches the JWKS (the provider rotated its keys), at most this often: garbage kids cannot flood the provider. */
export const JWKS_REFETCH_MS = 30_000;

type Alg = 'RS256' | 'ES256';
interface SigningKey {
  alg: Alg;
  key: KeyObject;
}

// The signature part may be empty: an unsecured JWT (alg "none") is refused by name, not passed through.
const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

const invalid = (why: string) => new ToolError('UNAUTHORIZED', `${why} Sign in again from your MCP host.`, { header: 'Authorization', error: 'invalid_token' });

function part(segment: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8')) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The provider's keys, fetched over https (shared/vendor/fetch-url.ts), cached, refetched on an unknown kid. */
export class Jwks {
  private keys = new Map<string, SigningKey>();
  private fetchedAt = -Infinity;
  private pending: Promise<void> | undefined;
  /** How many times the JWKS was fetched (a test counts refetches). */
  fetches = 0;

  constructor(
    private readonly url: string,
    private readonly now: () => number,
    private readonly allowHttpHosts: readonly string[],
  ) {}

  async key(kid: string | undefined): Promise<SigningKey | undefined> {
    const now = this.now();
    if (now - this.fetchedAt > JWKS_CACHE_MS) await this.refetch();
    else if (!this.find(kid) && now - this.fetchedAt > JWKS_REFETCH_MS) await this.refetch();
    return this.find(kid);
  }

  /** By kid; a token without one only when the set has a single key. */
  private find(kid: string | undefined): SigningKey | undefined {
    if (kid !== undefined) return this.keys.get(kid);
    return this.keys.size === 1 ? [...this.keys.values()][0] : undefined;
  }

  private refetch(): Promise<void> {
    // One fetch for every request waiting on it.
    this.pending ??= this.load().finally(() => (this.pending = undefined));
    return this.pending;
  }

  private async load(): Promise<void> {
    this.fetches++;
    let doc: { keys?: unknown };
    try {
      const got = await fetchUrl(this.url, { parameter: 'MCP_AUTH_JWKS_URL', allowHttpHosts: this.allowHttpHosts, maxBytes: 256 * 1024, timeoutMs: 5000, maxRedirects: 2 });
      doc = JSON.parse(got.bytes.toString('utf8')) as { keys?: unknown };
    } catch (err) {
      // Keys fetched before stay usable while the provider is unreachable; without any, nothing can be verified.
      if (this.keys.size) return;
      throw new ToolError('INTERNAL_ERROR', `The identity provider's keys (MCP_AUTH_JWKS_URL) cannot be read: ${err instanceof Error ? err.message : 'unreadable'}. Retry in a minute.`, {});
    }
    const keys = new Map<string, SigningKey>();
    for (const jwk of Array.isArray(doc.keys) ? (doc.keys as Record<string, unknown>[]) : []) {
      const signing = signingKey(jwk);
      if (signing) keys.set(typeof jwk.kid === 'string' ? jwk.kid : '', signing);
    }
    this.keys = keys;
    this.fetchedAt = this.now();
  }
}

/** A JWK usable for RS256 or ES256 signatures; anything else (encryption keys, other curves) is skipped. */
function signingKey(jwk: Record<string, unknown>): SigningKey | undefined {
  if (jwk.use !== undefined && jwk.use !== 'sig') return undefined;
  const alg: Alg | undefined = jwk.kty === 'RSA' ? 'RS256' : jwk.kty === 'EC' && jwk.crv === 'P-256' ? 'ES256' : undefined;
  if (!alg || (jwk.alg !== undefined && jwk.alg !== alg)) return undefined;
  try {
    return { alg, key: createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' }) };
  } catch {
    return undefined;
  }
}

/** What a verified token signs in as. */
export interface ExternalPrincipal {
  /** A key record standing for the token's tenant entry: its calls run as a service key of that tenant with that policy. */
  key: KeyRecord;
  connection?: string;
  /** The token's `sub` claim: who signed in, whatever token they present (MCP tasks are theirs). */
  subject?: string;
}

/** The external provider of one identity: token verification and claim mapping. */
export class ExternalTokens {
  readonly jwks: Jwks;

  constructor(
    readonly config: ExternalAuth,
    private readonly now: () => number,
    allowHttpHosts: readonly string[],
  ) {
    this.jwks = new Jwks(config.jwksUrl, now, allowHttpHosts);
  }

  /**
   * Whether a bearer is to be verified here: any JWT (a header naming its `alg`). A JWT of another
   * issuer is refused by name rather than passed through to a vendor as if it were a vendor key.
   */
  owns(bearer: string): boolean {
    return JWT.test(bearer) && typeof part(bearer.split('.')[0]!)?.alg === 'string';
  }

  /** The principal of a token presented at `resource`, or UNAUTHORIZED (invalid_token) saying why. */
  async verify(token: string, resource: string | undefined): Promise<ExternalPrincipal> {
    const [h, p, s] = token.split('.') as [string, string, string];
    const header = part(h);
    const claims = part(p);
    if (!header || !claims) throw invalid('The access token is not a readable JWT.');
    const kid = typeof header.kid === 'string' ? header.kid : undefined;
    if (header.alg !== 'RS256' && header.alg !== 'ES256') throw invalid(`The access token is signed with "${String(header.alg)}"; only RS256 and ES256 are accepted.`);
    const signing = await this.jwks.key(kid);
    if (!signing) throw invalid(`The access token's signing key${kid ? ` "${kid.slice(0, 64)}"` : ''} is not among the identity provider's keys.`);
    if (signing.alg !== header.alg) throw invalid(`The access token claims ${header.alg}, but its key is for ${signing.alg}.`);
    const signature = Buffer.from(s, 'base64url');
    const ok = verify('sha256', Buffer.from(`${h}.${p}`), signing.alg === 'ES256' ? { key: signing.key, dsaEncoding: 'ieee-p1363' } : signing.key, signature);
    if (!ok) throw invalid('The access token signature does not verify.');
    const c = this.config;
    if (claims.iss !== c.issuer) throw invalid(`The access token was issued by ${String(claims.iss)}, not ${c.issuer}.`);
    const now = this.now() / 1000;
    if (typeof claims.exp !== 'number') throw invalid('The access token has no expiry ("exp").');
    if (claims.exp + CLOCK_SKEW_SECONDS <= now) throw invalid('The access token has expired; refresh it.');
    if (claims.nbf !== undefined && (typeof claims.nbf !== 'number' || claims.nbf - CLOCK_SKEW_SECONDS > now)) throw invalid('The access token is not valid yet ("nbf").');
    if (!resource) throw invalid('An access token of the identity provider is for the MCP endpoints only.');
    const audiences = c.audiences.length ? c.audiences : [resource];
    const raw = claims[c.audienceClaim];
    const aud = typeof raw === 'string' ? [raw] : Array.isArray(raw) ? raw.filter((a): a is string => typeof a === 'string') : [];
    if (!aud.some((a) => audiences.includes(a))) throw invalid(`The access token is for ${aud.join(', ') || 'no audience'}, not for ${audiences.join(' or ')} ("${c.audienceClaim}").`);
    const granted = scopesOf(claims);
    const lacking = c.scopes.filter((sc) => !granted.includes(sc));
    if (lacking.length) throw insufficientScope(`The access token lacks the scope ${lacking.join(' ')}; sign in again from your MCP host asking for the scope "${c.scopes.join(' ')}".`, c.scopes);
    // A string claim (sub, username, custom:tenant), or a list (cognito:groups): its first listed value.
    const tenantClaim = claims[c.tenantClaim];
    const candidates = typeof tenantClaim === 'string' ? [tenantClaim] : Array.isArray(tenantClaim) ? tenantClaim.filter((v): v is string => typeof v === 'string') : [];
    const value = candidates.find((v) => Object.hasOwn(c.tenants, v));
    const entry: ExternalTenant | undefined = value === undefined ? undefined : c.tenants[value];
    if (!entry || value === undefined) {
      throw new ToolError('FORBIDDEN', `The signed-in identity ("${c.tenantClaim}" = ${JSON.stringify(tenantClaim ?? null).slice(0, 80)}) is not mapped to a tenant of this service; ask your administrator to add it to MCP_AUTH_TENANTS.`, { claim: c.tenantClaim });
    }
    const claimed = c.connectionClaim ? claims[c.connectionClaim] : undefined;
    const connection = entry.connection ?? (typeof claimed === 'string' ? claimed : undefined);
    const id = `ext_${createHash('sha256').update(`${c.issuer}#${c.tenantClaim}#${value}`).digest('hex').slice(0, 24)}`;
    const key: KeyRecord = { id, tenant: entry.tenant, name: `${c.issuer} ${c.tenantClaim}=${value}`.slice(0, 200), policy: entry.policy, created_at: new Date(0).toISOString() };
    return { key, ...(connection ? { connection } : {}), ...(typeof claims.sub === 'string' ? { subject: claims.sub } : {}) };
  }
}

/** OAuth `scope` (space-separated, RFC 8693 §4.2) or `scp` (a list or a string, as some providers write it). */
function scopesOf(claims: Record<string, unknown>): string[] {
  const raw = claims.scope ?? claims.scp;
  if (typeof raw === 'string') return raw.split(' ').filter(Boolean);
  return Array.isArray(raw) ? raw.filter((x): x is string => typeof x === 'string') : [];
}
