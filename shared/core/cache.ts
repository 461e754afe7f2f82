import { scopedCache } from './store';
import type { ToolContext } from './tool';

/**
 * Get-or-load through the Store, scoped to the caller's key hash: what one key may see (an org's
 * URL, a catalog, an app's schema) never serves another key. Best-effort like scopedCache: a store
 * that fails counts as a miss (logged) and the value is loaded from the vendor.
 */
export async function cached<T>(ctx: Pick<ToolContext<unknown>, 'store' | 'keyHash'>, key: string, ttlSeconds: number, load: () => Promise<T>): Promise<T> {
  const cache = scopedCache(ctx.store, ctx.keyHash);
  const hit = await cache.get<T>(key);
  if (hit !== undefined && hit !== null) return hit;
  const value = await load();
  await cache.put(key, value, ttlSeconds);
  return value;
}
