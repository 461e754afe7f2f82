import { loadConfig } from '../core/config';
import { log } from '../core/log';
import { createRegistry } from '../core/registry';
import type { Runtime, RuntimeOptions } from '../core/runtime';
import type { Store } from '../core/store';
import { createStore } from '../store';
import { createBlobStore } from '../blob';
import { approvalsOf, resolveCaller } from '../identity';

export type { Runtime, RuntimeOptions } from '../core/runtime';

/**
 * Builds what every call shares. The configured store and Blob store are built side by side, and a
 * store that can warm up (DynamoDB: SDK loaded, credentials, connection) does so before this
 * resolves; a failed warm-up is only logged — the first call then pays for the connection itself.
 */
export async function createRuntime(opts: RuntimeOptions): Promise<Runtime> {
  const config = opts.config ?? loadConfig();
  const registry = createRegistry(opts.platforms);
  const [store, blob] = await Promise.all([opts.store ?? warmed(createStore(config.store)), opts.blob ?? createBlobStore()]);
  return { registry, config, store, resolveCaller, approvals: approvalsOf, ...(opts.fetchFor ? { fetchFor: opts.fetchFor } : {}), blob };
}

async function warmed(building: Promise<Store>): Promise<Store> {
  const store = await building;
  await store.warm?.().catch((err: unknown) => log('warn', 'store warm-up failed', { error: err instanceof Error ? err.name : 'unknown' }));
  return store;
}
