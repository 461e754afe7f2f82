import { callScope, type Identity } from './identity';
import { keyHash, type KeyRecord } from './keys';
import { K } from './records';

/**
 * Whose records a tenant holds, for the admin API's listings: records of other layers are kept
 * by an opaque owner (event subscriptions by the call's scope, MCP tasks by the bearer's
 * owner), never by tenant, and only identity knows which owners are the tenant's.
 */

/** Every tenant: those with service keys, and the tenant of sign-ins made by connecting an account (MCP_CONNECT_SIGN_IN). */
export async function tenantsOf(id: Identity): Promise<string[]> {
  const listed = (await id.store.get<string[]>(K.tenants())) ?? [];
  const signIn = id.config.connectSignIn?.tenant;
  return [...new Set([...listed, ...(signIn ? [signIn] : [])])].sort();
}

/** The tenant's service key ids. */
export const keyIdsOf = async (id: Identity, tenant: string): Promise<string[]> => (await id.store.get<string[]>(K.keysOf(tenant))) ?? [];

/**
 * The scopes the tenant's calls act under (shared/identity/identity.ts callScope: one key through
 * one connection), with the platform of the connection: every key of the tenant with every
 * connection of it, and a connected account's own sign-in (its key id `csi_<connection>`).
 */
export async function callScopesOf(id: Identity, tenant: string): Promise<{ scope: string; key_id: string; connection: string; platform: string }[]> {
  const [keys, connections] = await Promise.all([keyIdsOf(id, tenant), id.connections.list(tenant)]);
  return connections.flatMap((con) => [...keys, `csi_${con.id}`].map((keyId) => ({ scope: callScope({ id: keyId } as KeyRecord, con.id), key_id: keyId, connection: con.id, platform: con.platform })));
}

/** The owner of an MCP sign-in's tasks (shared/identity/index.ts taskOwnerOf): its grant's family. */
export const grantTaskOwner = (family: string) => keyHash(`grant#${family}`);

/** The owners of the tenant's MCP tasks: each service key (its hash) and each live sign-in (its family), with who it is. */
export async function taskOwnersOf(id: Identity, tenant: string): Promise<{ owner: string; key_id?: string; sign_in?: string }[]> {
  const keyIds = await keyIdsOf(id, tenant);
  const refs = await Promise.all(keyIds.map((k) => id.store.get<{ hash: string }>(K.keyById(k))));
  const keys = keyIds.flatMap((k, i) => (refs[i] ? [{ owner: refs[i]!.hash, key_id: k }] : []));
  const signIns = (await id.grants.signIns.ofTenant(tenant)).map((s) => ({ owner: grantTaskOwner(s.id.slice(4)), ...(s.key_id ? { key_id: s.key_id } : {}), sign_in: s.id }));
  return [...keys, ...signIns];
}
