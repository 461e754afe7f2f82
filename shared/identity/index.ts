import { ToolError } from '../core/errors';
import type { Runtime } from '../core/runtime';
import type { Caller, CallerIds } from '../core/call';
import { groupOf, type KeptCredential, type Platform, type PlatformEnv, type Tool } from '../core/tool';
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

type Setup = Partial<Pick<IdentityOptions, 'now' | 'publicBase' | 'config'>> & {
  /** The platforms it connects and signs in to, when not the runtime's registry's (the identity function: every platform's descriptor). */
  platforms?: readonly DescribedPlatform[];
  /** A ready vault (tests); otherwise createVault of `env` (default process.env), on first use. */
  vault?: Vault;
  env?: Record<string, string | undefined>;
};

const identities = new WeakMap<Runtime, Promise<Identity>>();
const setups = new WeakMap<Runtime, Setup>();

/** Sets how a runtime's identity is built (local server: its own address; tests: clock, vault). Before first use. */
export function configureIdentity(rt: Runtime, setup: Setup): void {
  setups.set(rt, { ...setups.get(rt), ...setup });
}

/** The runtime's identity, built on first use from the environment (and configureIdentity). */
export function identityOf(rt: Runtime): Promise<Identity> {
  let pending = identities.get(rt);
  if (!pending) {
    const setup = setups.get(rt) ?? {};
    let vault: Promise<Vault> | undefined = setup.vault && Promise.resolve(setup.vault);
    pending = (async () =>
      new Identity({
        store: rt.store,
        platforms: setup.platforms ? new Map(setup.platforms.map((p) => [p.name, p])) : rt.registry.platforms,
        vault: () =>
          (vault ??= createVault(setup.env ?? process.env).catch((err: unknown) => {
            vault = undefined;
            throw err;
          })),
        config: setup.config ?? loadIdentityConfig(setup.env ?? process.env),
        fetchFor: (platform) => rt.fetchFor?.[platform] ?? fetch,
        timeoutMs: rt.config.upstreamTimeoutMs,
        allowHttpHosts: rt.config.allowHttpHosts,
        ...(setup.now ? { now: setup.now } : {}),
        ...(setup.publicBase ? { publicBase: setup.publicBase } : {}),
      }))();
    pending.catch(() => identities.delete(rt));
    identities.set(rt, pending);
  }
  return pending;
}

const approvalStores = new WeakMap<Runtime, Promise<Approvals>>();

/** The runtime's approval requests (shared/identity/approvals.ts), over its identity's vault, clock and public address. */
export function approvalsOf(rt: Runtime): Promise<Approvals> {
  let pending = approvalStores.get(rt);
  if (!pending) {
    pending = identityOf(rt).then(
      (identity) =>
        new Approvals({
          store: rt.store,
          vault: () => identity.vault(),
          base: () => identity.base(),
          config: rt.config.approvals,
          audit: rt.config.audit,
          now: identity.now,
          allowHttpHosts: rt.config.allowHttpHosts,
        }),
    );
    pending.catch(() => approvalStores.delete(rt));
    approvalStores.set(rt, pending);
  }
  return pending;
}

/** Who presents one of this service's credentials, and every policy the call must pass. */
interface Principal {
  key: KeyRecord;
  policies: Policy[];
  /** Set for an access token: the connection the user picked when signing the host in. */
  connection?: string;
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
 * and the narrower one the user granted; a revoked or expired key takes its tokens with it.
 */
async function principalOf(identity: Identity, presented: string, resource: string | undefined): Promise<Principal> {
  if (identity.external?.owns(presented)) {
    const { key, connection } = await identity.external.verify(presented, resource);
    return { key, policies: [key.policy], ...(connection ? { connection } : {}) };
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
  if (grant.key_id === undefined) {
    // Signed in by connecting the account: the deployment's MCP_CONNECT_SIGN_IN policy stands in for a key's, as it is now.
    const signIn = identity.config.connectSignIn;
    if (!signIn || signIn.tenant !== grant.tenant) {
      throw new ToolError('UNAUTHORIZED', 'Signing in with a connected account is off on this deployment now. Sign in again from your MCP host.', { header: 'Authorization', error: 'invalid_token' });
    }
    const key: KeyRecord = { id: `csi_${grant.connection}`, tenant: grant.tenant, name: 'signed in with a connected account', policy: signIn.policy, created_at: new Date(0).toISOString() };
    return { key, policies: [signIn.policy, grant.policy], connection: grant.connection };
  }
  const key = await identity.keys.get(grant.key_id);
  if (!key || key.status !== 'active') {
    throw new ToolError('UNAUTHORIZED', 'The service key this sign-in was granted with is no longer active. Sign in again from your MCP host.', { header: 'Authorization', error: 'invalid_token' });
  }
  const { status: _s, ...record } = key;
  return { key: record, policies: [record.policy, grant.policy], connection: grant.connection };
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
 * The seam of the call path: resolves the caller of a tool call before anything reaches the
 * vendor. A vendor key passes through (unless PASS_THROUGH_KEYS=off); a service key is
 * authenticated, its policy enforced (FORBIDDEN naming what it allows), its own rate limit
 * counted, and its connection's credential opened (refreshed when about to expire).
 */
export async function resolveCaller(rt: Runtime, call: { key: string; connection?: string | undefined; resource?: string | undefined }, platform: Platform, tool: Tool, ids: CallerIds = {}): Promise<Caller> {
  const identity = await identityOf(rt);
  if (!ownCredential(identity, call.key)) {
    if (!identity.config.passThrough) {
      throw new ToolError('UNAUTHORIZED', 'This deployment accepts service keys only (tes_…): vendor keys are not passed through. Ask your administrator for a service key and connect your account.', { header: 'Authorization' });
    }
    return { vendorKey: call.key, scope: keyHash(call.key), env: (env) => env, keep: async (bindTo) => ({ sealed: await (await identity.vault()).seal(call.key, keptContext(bindTo)) }) };
  }
  const who = await principalOf(identity, call.key, call.resource);
  const key = who.key;
  ids.tenant = key.tenant;
  ids.keyId = key.id;
  const seen = { platform: platform.name, name: tool.name, group: groupOf(platform, tool.name), readOnly: tool.annotations.readOnly, destructive: tool.annotations.destructive };
  for (const policy of who.policies) enforce(policy, seen);
  await identity.countKey(key);
  if (who.connection && call.connection && call.connection !== who.connection) {
    throw new ToolError('FORBIDDEN', `This sign-in was granted for connection "${who.connection}" only; leave out connection_id or sign in again to pick "${call.connection}".`, { connection_id: call.connection });
  }
  const connection = who.connection ?? call.connection;
  if (connection) ids.connection = connection;
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
  const caller: Caller = {
    vendorKey: tokenOf(credential),
    scope: callScope(key, record.id),
    principal: { tenant: key.tenant, keyId: key.id, connection: record.id, approval: who.policies.some((p) => needsApproval(p, seen)) },
    env: (env) => ({
      ...env,
      ...(record.base_url && !rt.config.baseUrls[platform.name] ? { baseUrl: record.base_url } : {}),
      fetch: credential.kind === 'oauth' ? refreshingFetch(env.fetch) : keyFetch(env.fetch),
    }),
    keep: async () => ({ connection: { tenant: key.tenant, id: record.id } }),
  };
  return caller;

  /** A vendor 401 on an API-key connection: the key is marked needs_reauth, and the call answers with a reconnect link. */
  function keyFetch(inner: typeof fetch): typeof fetch {
    return (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
      const res = await inner(input, init);
      if (res.status === 401 && !caller.failure) caller.failure = await identity.keyRefused(record);
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
        // failure and retried); the call then answers this failure instead (execute).
        caller.failure = err;
        return res;
      }
      await res.body?.cancel();
      return inner(input, withToken(init, tokenOf(credential)));
    }) as typeof fetch;
  }
}

/** A tool as a catalog lists it: what a policy decides on (not shared/core/listed.ts's Listed, a result's listed fields). */
export interface CatalogTool {
  platform: string;
  name: string;
  group?: string | undefined;
  annotations: { readOnly: boolean };
}

/**
 * What a caller may see in catalogs and search: undefined for a vendor key (everything), the
 * policy's predicate for a service key, UNAUTHORIZED for an unusable service key.
 */
export async function catalogFilter(rt: Runtime, key: string, resource?: string): Promise<((entry: CatalogTool) => boolean) | undefined> {
  const identity = await identityOf(rt);
  if (!ownCredential(identity, key)) {
    if (!identity.config.passThrough) {
      throw new ToolError('UNAUTHORIZED', 'This deployment accepts service keys only (tes_…).', { header: 'Authorization' });
    }
    return undefined;
  }
  const { policies } = await principalOf(identity, key, resource);
  return (e) => {
    const platform = rt.registry.platforms.get(e.platform);
    const tool = { platform: e.platform, name: e.name, group: e.group ?? (platform && groupOf(platform, e.name)), readOnly: e.annotations.readOnly };
    return policies.every((p) => allows(p, tool));
  };
}

/**
 * An endpoint opened with ?toolsets= by an access token of the built-in server whose grant shares
 * fewer toolsets (the user picked them on the consent page): the token lacks scope, refused as
 * insufficient_scope naming the toolsets asked for, so the host signs in again and shares them.
 * Other credentials see the toolsets their policy allows, as before.
 */
export async function requireGrantedToolsets(rt: Runtime, key: string, resource: string, requested: readonly string[]): Promise<void> {
  if (!isAccessToken(key)) return;
  const grant = await (await identityOf(rt)).grants.verify(key, resource);
  const granted = grant.policy.toolsets;
  if (!granted) return;
  const lacking = requested.filter((t) => !granted.includes(t) && !grant.policy.platforms.some((p) => granted.includes(`${p}:${t}`)));
  if (lacking.length) {
    throw insufficientScope(`This sign-in shares toolset(s) ${granted.join(', ')} only, not ${lacking.join(', ')}; sign in again from your MCP host and share ${lacking.join(', ')} on the consent page.`, requested);
  }
}

/**
 * Whose MCP tasks a bearer sees (shared/mcp/tasks.ts): an access token of the built-in server
 * is its sign-in (the grant's refresh-token family, which every refresh keeps), a token of an
 * external provider its issuer and subject, so a host still finds its tasks after its token
 * rotates; a service key or vendor key is its own hash. An opaque id, never the credential.
 */
export async function taskOwnerOf(rt: Runtime, key: string, resource: string | undefined): Promise<string> {
  const identity = await identityOf(rt);
  if (isAccessToken(key)) {
    const grant = await identity.grants.verify(key, resource);
    if (grant.family !== undefined) return keyHash(`grant#${grant.family}`);
  } else if (identity.external?.owns(key)) {
    const { subject } = await identity.external.verify(key, resource);
    if (subject !== undefined) return keyHash(`sub#${identity.external.config.issuer}#${subject}`);
  }
  return keyHash(key);
}
