import { createHash, randomBytes } from 'node:crypto';
import { ToolError, rateLimited } from '../core/errors';
import type { Store } from '../store';
import type { IdentityConfig } from './config';
import { Connections, type ConnectionRecord, type Credential } from './connections';
import { ServiceKeys, type KeyRecord } from './keys';
import { parsePolicy } from './policy';
import { clientSecret, TokenError, tokenRequest } from './oauth';
import { fillUrl, type OAuthProvider, type VendorAccount } from './providers';
import type { Platform } from '../core/tool';
import { K, secretHash, withLease } from './records';
import { Grants } from './mcp-oauth/grants';
import { Scopes } from './mcp-oauth/scopes';
import { ExternalTokens } from './mcp-oauth/external';
import type { Vault } from './vault';

/** A connect link (and the OAuth state derived from it) is good for ten minutes. */
export const LINK_SECONDS = 600;

/** An access token this close to its expiry is refreshed before the call, not after a 401. */
export const REFRESH_SKEW_MS = 60_000;

/** What a connect link lets its holder do: attach credentials to one pending connection. */
export interface LinkRecord {
  tenant: string;
  connection: string;
  platform: string;
  expires_at: number;
  /** Where the browser goes once the account is connected (a path of this service: the MCP consent page). */
  then?: string;
}

/**
 * What identity reads of a platform's descriptor: the vendor's name, how users connect it, its
 * toolsets (the sign-in scopes), and its client and API base, with which a pasted key is checked
 * (auth.checkKey).
 */
export type DescribedPlatform = Pick<Platform<any>, 'name' | 'vendor' | 'auth' | 'toolsets' | 'client' | 'defaultBaseUrl'>;

/** What checking a pasted API key found: the account it is, refused by the vendor, or not known (the vendor could not be asked). */
export type KeyCheck = { ok: true; account?: VendorAccount } | { ok: false; refused: boolean };

export interface IdentityOptions {
  store: Store;
  /**
   * Every platform this deployment connects and signs in to, by name: the runtime's registry, or
   * for the identity function (which serves no tools) every platform's descriptor.
   */
  platforms: ReadonlyMap<string, DescribedPlatform>;
  vault: () => Promise<Vault>;
  config: IdentityConfig;
  /** The fetch that reaches each platform's vendor (twins in-process locally). */
  fetchFor: (platform: string) => typeof fetch;
  /** The API base a deployment sets for a platform (<PLATFORM>_BASE_URL), else its descriptor's default. */
  baseUrlFor?: (platform: string) => string | undefined;
  timeoutMs: number;
  now?: () => number;
  /** This service's public origin, when PUBLIC_BASE_URL is not set (the local server's address). */
  publicBase?: () => string | undefined;
  /** Hosts a fetched URL may reach over http or on a private address (ALLOW_HTTP_HOSTS): client metadata documents. */
  allowHttpHosts?: readonly string[];
}

/** Service keys, connections, their vault and the vendors' token endpoints: one per runtime. */
export class Identity {
  readonly keys: ServiceKeys;
  readonly connections: Connections;
  readonly store: Store;
  readonly config: IdentityConfig;
  readonly now: () => number;
  /** The built-in authorization server of the MCP endpoints (shared/identity/mcp-oauth). */
  readonly grants: Grants;
  readonly allowHttpHosts: readonly string[];
  /** The external identity provider whose JWTs the MCP endpoints accept instead (MCP_AUTH_SERVER=external). */
  readonly external: ExternalTokens | undefined;
  /** The platforms' descriptors by name (IdentityOptions.platforms). */
  readonly platforms: ReadonlyMap<string, DescribedPlatform>;
  /** The MCP sign-in scopes: the platforms' toolsets. */
  readonly scopes: Scopes;

  constructor(private readonly opts: IdentityOptions) {
    this.store = opts.store;
    // MCP_CONNECT_SIGN_IN unset: signing in by connecting, in tenant "mcp", for every platform a
    // person can connect from the sign-in page: through the vendor's OAuth, or with a key it can check.
    const connectable = [...opts.platforms.values()].filter((p) => p.auth.oauth || (p.auth.kinds.includes('api_key') && p.auth.checkKey)).map((p) => p.name);
    this.config = opts.config.connectSignInDefault && !opts.config.connectSignIn && connectable.length
      ? { ...opts.config, connectSignIn: { tenant: 'mcp', policy: parsePolicy({ platforms: connectable }, 'MCP_CONNECT_SIGN_IN.policy') } }
      : opts.config;
    this.platforms = opts.platforms;
    this.scopes = new Scopes(opts.platforms.values());
    this.now = opts.now ?? Date.now;
    this.keys = new ServiceKeys(opts.store, this.now, new Map([...opts.platforms].map(([name, p]) => [name, Object.keys(p.toolsets)])));
    this.connections = new Connections(opts.store, opts.vault, this.now);
    this.allowHttpHosts = opts.allowHttpHosts ?? [];
    this.grants = new Grants(this);
    this.external = opts.config.externalAuth && new ExternalTokens(opts.config.externalAuth, this.now, this.allowHttpHosts);
  }

  /** The vault connections' credentials are sealed with; also MCP tasks' keys kept for their worker (shared/mcp/task-worker.ts). */
  vault(): Promise<Vault> {
    return this.opts.vault();
  }

  base(): string {
    const base = this.config.publicBaseUrl ?? this.opts.publicBase?.();
    if (!base) throw new ToolError('INTERNAL_ERROR', 'This deployment does not know its public address: set PUBLIC_BASE_URL.', {});
    return base;
  }

  /** The public origin, or (no PUBLIC_BASE_URL, e.g. a test app) the origin the request came to. */
  baseOr(requestUrl: string): string {
    return this.config.publicBaseUrl ?? this.opts.publicBase?.() ?? new URL(requestUrl).origin;
  }

  redirectUri(): string {
    return `${this.base()}/v1/connections/callback`;
  }

  provider(platform: string): OAuthProvider {
    const p = this.platforms.get(platform)?.auth.oauth;
    if (!p) throw new ToolError('INVALID_PARAMETER', `Platform "${platform}" has no OAuth flow; connect it with an API key.`, { parameter: 'auth', expected: '"api_key"' });
    return p;
  }

  authorizeBase(platform: string): string {
    return this.config.authorizeUrls[platform] ?? this.provider(platform).authorizeUrl;
  }

  client(platform: string) {
    const c = this.config.oauthClients[platform];
    if (!c) throw new ToolError('INTERNAL_ERROR', `This deployment has no OAuth app for "${platform}": set ${platform.toUpperCase()}_OAUTH_CLIENT_ID and its secret.`, {});
    return c;
  }

  fetchFor(platform: string): typeof fetch {
    return this.opts.fetchFor(platform);
  }

  /**
   * Whether an API key pasted for `platform` works, by the descriptor's checkKey through the
   * platform's client. The key goes to the vendor only; no answer of theirs is kept or shown
   * beyond the account's name.
   */
  async checkKey(platform: string, apiKey: string): Promise<KeyCheck> {
    const described = this.platforms.get(platform);
    const check = described?.auth.checkKey;
    if (!described || !check) return { ok: false, refused: false };
    const client = described.client(apiKey, { baseUrl: this.opts.baseUrlFor?.(platform) ?? described.defaultBaseUrl, fetch: this.fetchFor(platform), timeoutMs: this.opts.timeoutMs });
    try {
      const account = await check(client);
      // Short strings only: what a page shows in a line.
      const kept = Object.fromEntries(Object.entries(account ?? {}).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1].length > 0).map(([k, v]) => [k, v.slice(0, 200)]));
      return { ok: true, ...(Object.keys(kept).length ? { account: kept } : {}) };
    } catch (err) {
      // A key the vendor knows but that may not read this (FORBIDDEN) is still its key; only UNAUTHORIZED is a wrong one.
      if (err instanceof ToolError && err.code === 'FORBIDDEN') return { ok: true };
      return { ok: false, refused: err instanceof ToolError && err.code === 'UNAUTHORIZED' };
    }
  }

  /** A fresh connect link for a connection (new, or one that needs reauthorising). */
  async link(record: ConnectionRecord, then?: string): Promise<{ connect_url: string; expires_at: string }> {
    const token = randomBytes(32).toString('base64url');
    const expires = this.now() + LINK_SECONDS * 1000;
    const link: LinkRecord = { tenant: record.tenant, connection: record.id, platform: record.platform, expires_at: expires, ...(then ? { then } : {}) };
    await this.store.put(K.link(secretHash(token)), link, LINK_SECONDS);
    return { connect_url: `${this.base()}/v1/connect/${token}`, expires_at: new Date(expires).toISOString() };
  }

  /** The key's own rate limit (policy.rate_limit), across its platforms. */
  async countKey(key: KeyRecord): Promise<void> {
    const limit = key.policy.rate_limit;
    if (!limit) return;
    const counter = await this.store.increment(`rl#key#${key.id}`, limit.window_seconds, limit.max);
    if (!counter.allowed) {
      throw rateLimited(counter.resetSeconds, `This service key's own limit of ${limit.max} calls per ${limit.window_seconds} s is reached; retry after ${counter.resetSeconds} s.`, { limit: limit.max, window_seconds: limit.window_seconds });
    }
  }

  /** UNAUTHORIZED for a connection that cannot be used, with a link that fixes it. */
  private async unusable(record: ConnectionRecord): Promise<ToolError> {
    const { connect_url } = await this.link(record);
    const why = record.status === 'pending' ? 'is not connected yet' : 'needs its end user to reconnect (the vendor refused its refresh)';
    return new ToolError('UNAUTHORIZED', `Connection "${record.id}" ${why}. Open the reconnect link: ${connect_url}`, { connection_id: record.id, status: record.status, reconnect_url: connect_url });
  }

  /**
   * The vendor answered 401 to a connection's API key: there is no refresh for a key, so the
   * connection needs its end user to connect it again (as an OAuth connection whose refresh is
   * refused). Only the version that was refused is marked: a key replaced meanwhile stays active.
   */
  async keyRefused(record: ConnectionRecord): Promise<ToolError> {
    const current = await this.connections.require(record.tenant, record.id);
    if (current.status === 'active' && current.version !== record.version) {
      return new ToolError('UNAUTHORIZED', `The vendor refused the API key of connection "${record.id}", which was replaced meanwhile; retry the call.`, { connection_id: record.id });
    }
    return this.unusable(current.status === 'active' ? await this.connections.setStatus(current, 'needs_reauth') : current);
  }

  /** The usable credential of a connection, refreshed first when its access token is about to expire. */
  async credential(record: ConnectionRecord): Promise<{ record: ConnectionRecord; credential: Credential }> {
    if (record.status !== 'active') throw await this.unusable(record);
    const credential = await this.connections.open(record);
    if (credential.kind === 'oauth' && credential.expires_at !== undefined && credential.expires_at - this.now() < REFRESH_SKEW_MS) {
      const fresh = await this.refresh(record, record.version);
      return { record: fresh, credential: await this.connections.open(fresh) };
    }
    return { record, credential };
  }

  /**
   * Refreshes the connection's tokens unless someone already did since `seenVersion`. Single-flight
   * across processes: the refresh runs under a lease in the Store (a conditional write), and a
   * waiter that finds a newer version uses it, so a refresh token (single-use at Podio) is never
   * spent twice. A grant the vendor refuses marks the connection needs_reauth.
   */
  async refresh(record: ConnectionRecord, seenVersion: number): Promise<ConnectionRecord> {
    return withLease(this.store, `refresh#${record.id}`, async () => {
      const current = await this.connections.require(record.tenant, record.id);
      if (current.version > seenVersion && current.status === 'active') return current;
      if (current.status !== 'active') throw await this.unusable(current);
      const old = await this.connections.open(current);
      if (old.kind !== 'oauth' || !old.refresh_token) {
        throw await this.unusable(await this.connections.setStatus(current, 'needs_reauth'));
      }
      const provider = this.provider(current.platform);
      const client = this.client(current.platform);
      let tokens;
      try {
        tokens = await tokenRequest(this.fetchFor(current.platform), fillUrl(this.config.tokenUrls[current.platform] ?? provider.tokenUrl, current.vendor ?? {}), {
          grant_type: 'refresh_token',
          refresh_token: old.refresh_token,
          client_id: client.id,
          client_secret: await clientSecret(client),
          redirect_uri: this.redirectUri(),
        }, this.opts.timeoutMs, this.now());
      } catch (err) {
        if (err instanceof TokenError && err.refused) throw await this.unusable(await this.connections.setStatus(current, 'needs_reauth'));
        throw new ToolError('INTERNAL_ERROR', `Refreshing connection "${current.id}" failed: ${err instanceof Error ? err.message : 'unknown error'} Retry in a minute.`, { connection_id: current.id });
      }
      // A vendor that keeps its refresh token (HubSpot) leaves it out of the answer.
      return this.connections.saveCredential(current, { ...tokens, refresh_token: tokens.refresh_token ?? old.refresh_token });
    }, {
      ttlSeconds: 30,
      waitMs: 30_000,
      settled: async () => {
        const now = await this.connections.get(record.tenant, record.id);
        return now && now.version > seenVersion && now.status === 'active' ? now : undefined;
      },
    });
  }
}

/** A per-call scope for caches and idempotency claims: one key acting through one connection. */
export const callScope = (key: KeyRecord, connection: string) => createHash('sha256').update(`${key.id}#${connection}`).digest('hex');
