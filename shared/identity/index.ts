import { ToolError } from '../core/errors';
import type { Runtime } from '../core/runtime';
import type { Acting, Caller, Callers, Resolved, ToolRef } from '../core/call';
import type { Config } from '../core/config';
import type { Registry } from '../core/registry';
import type { Store } from '../core/store';
import { groupOf, type KeptCredential, type Platform, type Tool } from '../core/tool';
import { loadIdentityConfig } from './config';
import { callScope, Identity, type DescribedPlatform, type IdentityOptions } from './identity';
import { isServiceKey, keyHash, type KeyRecord } from './keys';
import { isAccessToken, tokenKindOf } from './mcp-oauth/grants';
import { insufficientScope } from './mcp-oauth/resource';
import { allows, enforce, needsApproval, type Policy } from './policy';
import { Approvals } from './approvals';
import { createVault, type Vault } from './vault';

export { Identity } from './identity';
export type { Caller, CallerIds } from '../core/call';

/** How a runtime's identity is built (local server: its own address; tests: clock, vault): given to createRuntime. */
export type IdentitySetup = Partial<Pick<IdentityOptions, 'now' | 'publicBase' | 'config'>> & {
  /** The platforms it connects and signs in to, when not the runtime's registry's (the identity function: every platform's descriptor). */
  platforms?: readonly DescribedPlatform[];
  /** A ready vault (tests); otherwise createVault of `env` (default process.env), on first use. */
  vault?: Vault;
  env?: Record<string, string | undefined>;
};

/** What of the runtime the identity is built on (shared/lambda/runtime.ts hands it in). */
export interface IdentityHost {
  store: Store;
  config: Config;
  registry: Registry;
  fetchFor?: Runtime['fetchFor'];
}

/**
 * A runtime's identity (Runtime.identity): configured once, when createRuntime builds the runtime;
 * the Identity itself (keys, connections, grants, the vault) and the approval requests over it are
 * built on first use. A failed build is not kept: the next use builds again.
 */
export class RuntimeIdentity implements Callers {
  private pending: Promise<Identity> | undefined;
  private approvals_: Promise<Approvals> | undefined;

  constructor(
    private readonly host: IdentityHost,
    private readonly setup: IdentitySetup = {},
  ) {}

  /** The Identity, built on first use from the setup and the environment. */
  instance(): Promise<Identity> {
    if (!this.pending) {
      const { host, setup } = this;
      let vault: Promise<Vault> | undefined = setup.vault && Promise.resolve(setup.vault);
      const pending = (async () =>
        new Identity({
          store: host.store,
          platforms: setup.platforms ? new Map(setup.platforms.map((p) => [p.name, p])) : host.registry.platforms,
          vault: () =>
            (vault ??= createVault(setup.env ?? process.env).catch((err: unknown) => {
              vault = undefined;
              throw err;
            })),
          config: setup.config ?? loadIdentityConfig(setup.env ?? process.env),
          fetchFor: (platform) => host.fetchFor?.[platform] ?? fetch,
          baseUrlFor: (platform) => host.config.baseUrls[platform],
          timeoutMs: host.config.upstreamTimeoutMs,
          allowHttpHosts: host.config.allowHttpHosts,
          ...(setup.now ? { now: setup.now } : {}),
          ...(setup.publicBase ? { publicBase: setup.publicBase } : {}),
        }))();
      pending.catch(() => {
        if (this.pending === pending) this.pending = undefined;
      });
      this.pending = pending;
    }
    return this.pending;
  }

  /** The approval requests (shared/identity/approvals.ts), over the identity's vault, clock and public address. */
  approvals(): Promise<Approvals> {
    if (!this.approvals_) {
      const { config, store } = this.host;
      const pending = this.instance().then(
        (identity) =>
          new Approvals({
            store,
            vault: () => identity.vault(),
            base: () => identity.base(),
            config: config.approvals,
            audit: config.audit,
            now: identity.now,
            allowHttpHosts: config.allowHttpHosts,
          }),
      );
      pending.catch(() => {
        if (this.approvals_ === pending) this.approvals_ = undefined;
      });
      this.approvals_ = pending;
    }
    return this.approvals_;
  }

  /** Who presents `key` (at `resource`, an MCP endpoint): resolved once per request, at the edge; a refusal is the answer, never thrown. */
  async resolve(credential: { key: string; resource?: string | undefined }): Promise<Resolved> {
    try {
      return { ok: true, caller: await callerOf(this.host, await this.instance(), credential.key, credential.resource) };
    } catch (error) {
      return { ok: false, error };
    }
  }
}

/** The runtime's Identity (keys, connections, grants, the vault), for the identity routes and the vault's users. */
export function identityOf(rt: Runtime): Promise<Identity> {
  return runtimeIdentity(rt).instance();
}

/** The runtime's approval requests (shared/identity/approvals.ts), for the approval routes. */
export function approvalsOf(rt: Runtime): Promise<Approvals> {
  return runtimeIdentity(rt).approvals();
}

function runtimeIdentity(rt: Runtime): RuntimeIdentity {
  if (!(rt.identity instanceof RuntimeIdentity)) throw new Error('This runtime has no shared/identity: build it with createRuntime (shared/lambda/runtime.ts).');
  return rt.identity;
}

/** Who presents one of this service's credentials, and every policy the call must pass. */
interface Principal {
  key: KeyRecord;
  policies: Policy[];
  /** Set for an access token: the connection the user picked when signing the host in. */
  connection?: string;
  /** A sign-in covering several platforms at the combined endpoint: its account on each, by platform. */
  accounts?: Record<string, string>;
  /** Whose tasks these are, when not the bearer's own hash: a sign-in (its grant's family) or an external subject. */
  owner?: string;
  /** The policy a sign-in's grant carries (its toolsets: what the user shared on the consent page). */
  grant?: Policy;
}

/**
 * Whether a bearer is of one of this service's own formats (a service key, an access, refresh or
 * registration token of the built-in server, a JWT of the external one): such a bearer is
 * answered here, valid or not, and never passed to a vendor. Anything else is a vendor key.
 */
const ownCredential = (identity: Identity, key: string) => isServiceKey(key) || isAccessToken(key) || tokenKindOf(key) !== undefined || identity.external?.owns(key) === true;

/**
 * A service key, an external provider's JWT (shared/identity/mcp-oauth/external.ts: a tenant and
 * policy of MCP_AUTH_TENANTS, as a service key of that tenant would have), or an access token of
 * the built-in authorization server (shared/identity/mcp-oauth):
 * the token acts as the key it was granted with plus its connection, under the key's current policy
 * and the narrower one the user granted; a revoked or expired key takes its tokens with it (within
 * KEY_CACHE_SECONDS, as the key itself: keys.current).
 */
async function principalOf(identity: Identity, presented: string, resource: string | undefined): Promise<Principal> {
  if (identity.external?.owns(presented)) {
    const { key, connection, subject } = await identity.external.verify(presented, resource);
    // A host finds its tasks by its issuer and subject after its token rotates.
    const owner = subject !== undefined ? keyHash(`sub#${identity.external.config.issuer}#${subject}`) : undefined;
    return { key, policies: [key.policy], ...(connection ? { connection } : {}), ...(owner ? { owner } : {}) };
  }
  const kind = tokenKindOf(presented);
  if (kind) {
    throw new ToolError('UNAUTHORIZED', `This is a ${kind} of this service's sign-in, not a credential for calls: send the access token (tat_…) the token endpoint gave with it, or a service key (tes_…).`, { header: 'Authorization', error: 'invalid_token' });
  }
  if (!isAccessToken(presented)) {
    const key = await identity.keys.authenticate(presented);
    return { key, policies: [key.policy] };
  }
  const grant = await identity.grants.verify(presented, resource);
  // A host finds its tasks by its sign-in (the refresh-token family every refresh keeps) after its token rotates.
  const signedIn = { grant: grant.policy, ...(grant.family !== undefined ? { owner: keyHash(`grant#${grant.family}`) } : {}), ...(grant.accounts ? { accounts: grant.accounts } : {}) };
  if (grant.key_id === undefined) {
    // Signed in by connecting the account: the deployment's MCP_CONNECT_SIGN_IN policy stands in for a key's, as it is now.
    const signIn = identity.config.connectSignIn;
    if (!signIn || signIn.tenant !== grant.tenant) {
      throw new ToolError('UNAUTHORIZED', 'Signing in with a connected account is off on this deployment now. Sign in again from your MCP host.', { header: 'Authorization', error: 'invalid_token' });
    }
    const key: KeyRecord = { id: `csi_${grant.connection}`, tenant: grant.tenant, name: 'signed in with a connected account', policy: signIn.policy, created_at: new Date(0).toISOString() };
    return { key, policies: [signIn.policy, grant.policy], connection: grant.connection, ...signedIn };
  }
  const key = await identity.keys.current(grant.key_id);
  if (!key || key.status !== 'active') {
    throw new ToolError('UNAUTHORIZED', 'The service key this sign-in was granted with is no longer active. Sign in again from your MCP host.', { header: 'Authorization', error: 'invalid_token' });
  }
  const { status: _s, ...record } = key;
  return { key: record, policies: [record.policy, grant.policy], connection: grant.connection, ...signedIn };
}

/** The seal context of a vendor key kept for later: bound to what it was kept for (an event subscription). */
const keptContext = (bindTo: string) => ({ tenant: '(vendor key)', connection: bindTo });

/**
 * A kept credential as a vendor key again, for later work on the caller's behalf: the connection's
 * current credential (refreshed when due) with its account's API host, or the sealed vendor key.
 * UNAUTHORIZED when it can no longer be used (the connection is gone or needs reconnecting).
 */
export async function keptCredential(rt: Runtime, kept: KeptCredential, bindTo: string): Promise<{ vendorKey: string; baseUrl?: string }> {
  const identity = await identityOf(rt);
  if ('sealed' in kept) return { vendorKey: await (await identity.vault()).open(kept.sealed, keptContext(bindTo)) };
  const found = await identity.connections.require(kept.connection.tenant, kept.connection.id, 'connection_id', true);
  const { record, credential } = await identity.credential(found);
  return { vendorKey: credential.kind === 'oauth' ? credential.access_token : credential.api_key, ...(record.base_url ? { baseUrl: record.base_url } : {}) };
}

/**
 * The caller a bearer presents. A vendor key passes through (unless PASS_THROUGH_KEYS=off); a
 * service key, an access token or an external token is authenticated (service keys and verified
 * grants cached for KEY_CACHE_SECONDS: shared/identity/keys.ts), with every policy it must pass.
 * Acting for a tool (`act`), the policies are enforced (FORBIDDEN naming what they allow), the
 * key's own rate limit counted, and its connection's credential opened (refreshed when about to expire).
 */
async function callerOf({ registry, config }: IdentityHost, identity: Identity, key: string, resource: string | undefined): Promise<Caller> {
  if (!ownCredential(identity, key)) {
    if (!identity.config.passThrough) {
      throw new ToolError('UNAUTHORIZED', 'This deployment accepts service keys only (tes_…): vendor keys are not passed through. Ask your administrator for a service key and connect your account.', { header: 'Authorization' });
    }
    const scope = keyHash(key);
    const acting: Acting = {
      vendorKey: key,
      scope,
      env: (env) => env,
      run: (work) => work(),
      keep: async (bindTo) => ({ sealed: await (await identity.vault()).seal(key, keptContext(bindTo)) }),
    };
    return { key, owner: scope, act: async () => acting };
  }
  const who = await principalOf(identity, key, resource);
  return {
    key,
    tenant: who.key.tenant,
    keyId: who.key.id,
    ...(who.connection ? { connection: who.connection } : {}),
    owner: who.owner ?? keyHash(key),
    allows: (e: ToolRef) => {
      const platform = registry.platforms.get(e.platform);
      const tool = { platform: e.platform, name: e.name, group: e.group ?? (platform && groupOf(platform, e.name)), readOnly: e.annotations.readOnly };
      return who.policies.every((p) => allows(p, tool));
    },
    ...(who.grant?.toolsets ? { toolsets: { shared: who.grant.toolsets, platforms: who.grant.platforms } } : {}),
    // A base URL the deployment configures for the platform wins over the account's own API host.
    act: (platform, tool, connection) => actFor(identity, who, platform, tool, connection, Boolean(config.baseUrls[platform.name])),
  };
}

/** The caller acting for one tool call through a connection (its own, or the one the call names). */
async function actFor(identity: Identity, who: Principal, platform: Platform, tool: Tool, asked: string | undefined, pinned: boolean): Promise<Acting> {
  const key = who.key;
  const seen = { platform: platform.name, name: tool.name, group: groupOf(platform, tool.name), readOnly: tool.annotations.readOnly, destructive: tool.annotations.destructive };
  for (const policy of who.policies) enforce(policy, seen);
  await identity.countKey(key);
  // A sign-in's account on this tool's platform (one covering several platforms has one on each).
  const own = who.accounts?.[platform.name] ?? who.connection;
  if (own && asked && asked !== own) {
    throw new ToolError('FORBIDDEN', `This sign-in was granted for connection "${own}" only; leave out connection_id or sign in again to pick "${asked}".`, { connection_id: asked });
  }
  const connection = own ?? asked;
  if (!connection) {
    throw new ToolError('INVALID_PARAMETER', `A service key acts through a connected account: send its id as the X-Connection-Id header (MCP: "connection_id" in _meta or ?connection= on the endpoint URL). Create one with POST /v1/connections {"platform": "${platform.name}", "end_user": "…"}.`, {
      parameter: 'X-Connection-Id',
      expected: 'a connection id (con_…)',
    });
  }
  const found = await identity.connections.require(key.tenant, connection, 'connection_id', true);
  if (found.platform !== platform.name) {
    throw new ToolError('INVALID_PARAMETER', `Connection "${found.id}" is a ${found.platform} account; this tool is on ${platform.name}. Use a ${platform.name} connection.`, { parameter: 'X-Connection-Id', expected: `a ${platform.name} connection` });
  }
  let { record, credential } = await identity.credential(found);
  const tokenOf = (c: typeof credential) => (c.kind === 'oauth' ? c.access_token : c.api_key);
  /** Why the vendor's refusal of this call's credential stands (a refused refresh, a key marked needs_reauth): what a failed run answers. */
  let refused: unknown;
  return {
    vendorKey: tokenOf(credential),
    scope: callScope(key, record.id),
    principal: { tenant: key.tenant, keyId: key.id, connection: record.id, approval: who.policies.some((p) => needsApproval(p, seen)) },
    env: (env) => ({
      ...env,
      ...(record.base_url && !pinned ? { baseUrl: record.base_url } : {}),
      fetch: credential.kind === 'oauth' ? refreshingFetch(env.fetch) : keyFetch(env.fetch),
    }),
    keep: async () => ({ connection: { tenant: key.tenant, id: record.id } }),
    async run(work) {
      try {
        return await work();
      } catch (err) {
        throw refused ?? err;
      }
    },
  };

  /** A vendor 401 on an API-key connection: the key is marked needs_reauth, and the call answers with a reconnect link. */
  function keyFetch(inner: typeof fetch): typeof fetch {
    return (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
      const res = await inner(input, init);
      if (res.status === 401 && refused === undefined) refused = await identity.keyRefused(record);
      return res;
    }) as typeof fetch;
  }

  /**
   * A vendor 401 on an OAuth connection: refresh once (single-flight, identity.refresh), then send
   * the request again with the new token; later requests of the same call use it too.
   */
  function refreshingFetch(inner: typeof fetch): typeof fetch {
    const first = tokenOf(credential);
    let refreshed = false;
    const withToken = (init: RequestInit | undefined, token: string): RequestInit | undefined => {
      if (token === first) return init;
      const headers = new Headers(init?.headers);
      const auth = headers.get('authorization');
      if (auth?.includes(first)) headers.set('authorization', auth.replace(first, token));
      return { ...init, headers };
    };
    return (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
      const res = await inner(input, withToken(init, tokenOf(credential)));
      // A stream body cannot be sent twice: that answer stands.
      if (res.status !== 401 || refreshed || input instanceof Request || init?.body instanceof ReadableStream) return res;
      refreshed = true;
      try {
        ({ record, credential } = await identity.credential(await identity.refresh(record, record.version)));
      } catch (err) {
        // The vendor's 401 goes back to the tool (a thrown error would be taken for a network
        // failure and retried); the run then fails with this instead (run above).
        refused = err;
        return res;
      }
      await res.body?.cancel();
      return inner(input, withToken(init, tokenOf(credential)));
    }) as typeof fetch;
  }
}

/** A tool as a catalog lists it: what a policy decides on (not shared/core/listed.ts's Listed, a result's listed fields). */
export type CatalogTool = ToolRef;

/**
 * What a bearer may see in catalogs and search (GET /v1/tools/{platform}, tool search): undefined
 * for a vendor key (everything), the policies' predicate otherwise; an unusable credential is thrown.
 */
export async function catalogFilter(rt: Runtime, key: string, resource?: string): Promise<((entry: CatalogTool) => boolean) | undefined> {
  const resolved = await rt.identity.resolve({ key, resource });
  if (!resolved.ok) throw resolved.error;
  return resolved.caller.allows;
}

/**
 * An endpoint opened with ?toolsets= by a sign-in whose grant shares fewer toolsets (the user
 * picked them on the consent page): the token lacks scope, refused as insufficient_scope naming
 * the toolsets asked for, so the host signs in again and shares them. Other credentials see the
 * toolsets their policy allows, as before.
 */
export function requireGrantedToolsets(caller: Caller, requested: readonly string[]): void {
  if (!caller.toolsets) return;
  const { shared: granted, platforms } = caller.toolsets;
  const lacking = requested.filter((t) => !granted.includes(t) && !platforms.some((p) => granted.includes(`${p}:${t}`)));
  if (lacking.length) {
    throw insufficientScope(`This sign-in shares toolset(s) ${granted.join(', ')} only, not ${lacking.join(', ')}; sign in again from your MCP host and share ${lacking.join(', ')} on the consent page.`, requested);
  }
}
