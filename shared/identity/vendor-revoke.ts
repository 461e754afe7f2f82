import { log } from '../core/log';
import type { ConnectionRecord } from './connections';
import type { Identity } from './identity';

/**
 * Revokes a connection's refresh token at the vendor where its descriptor names an endpoint;
 * false elsewhere or on failure. Both deletions of a connection use it: the tenant's own
 * (DELETE /v1/connections/{id}) and the admin API's.
 */
export async function revokeAtVendor(id: Identity, record: ConnectionRecord): Promise<boolean> {
  const revoke = id.platforms.get(record.platform)?.auth.oauth?.revoke;
  if (!revoke || record.kind !== 'oauth' || !record.sealed) return false;
  try {
    const credential = await id.connections.open(record);
    if (credential.kind !== 'oauth' || !credential.refresh_token) return false;
    const res = await id.fetchFor(record.platform)(revoke.url(credential.refresh_token), { method: revoke.method, signal: AbortSignal.timeout(10_000) });
    await res.body?.cancel();
    return res.ok;
  } catch (err) {
    log('warn', 'vendor revocation failed', { connection_id: record.id, error: err instanceof Error ? err.name : 'unknown' });
    return false;
  }
}
