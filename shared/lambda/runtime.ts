import { loadConfig } from '../core/config';
import { log } from '../core/log';
import { createRegistry } from '../core/registry';
import type { Runtime, RuntimeOptions as CoreOptions } from '../core/runtime';
import type { Store } from '../core/store';
import { createStore } from '../store';
import { createBlobStore } from '../blob';
import { RuntimeIdentity, type IdentitySetup } from '../identity';

export type { Runtime } from '../core/runtime';

/** What a runtime is built from: the core's options, and how its identity is set up (local server: its address; tests: clock, vault). */
export interface RuntimeOptions extends CoreOptions {
  identity?: IdentitySetup;
}

/**
 * Builds what every call shares. The configured store and Blob store are built side by side, and a
 * store that can warm up (DynamoDB: SDK loaded, credentials, connection) does so before this
 * resolves; a failed warm-up is only logged — the first call then pays for the connection itself.
 * The identity is configured here, once: nothing changes it after the runtime starts.
 */
export async function createRuntime(opts: RuntimeOptions): Promise<Runtime> {
  const config = opts.config ?? loadConfig();
  // The service's own tools beside the platforms' (shared/catalog/search-tool.ts), loaded on first use.
  const registry = createRegistry(opts.platforms, { search_tools: () => import('../catalog/search-tool').then((m) => m.searchTool as never) });
  const [store, blob] = await Promise.all([opts.store ?? warmed(createStore(config.store)), opts.blob ?? createBlobStore()]);
  const identity = new RuntimeIdentity({ registry, config, store, ...(opts.fetchFor ? { fetchFor: opts.fetchFor } : {}) }, opts.identity);
  return { registry, config, store, identity, approvals: () => identity.approvals(), ...(opts.fetchFor ? { fetchFor: opts.fetchFor } : {}), blob };
}

async function warmed(building: Promise<Store>): Promise<Store> {
  const store = await building;
  await store.warm?.().catch((err: unknown) => log('warn', 'store warm-up failed', { error: err instanceof Error ? err.name : 'unknown' }));
  return store;
}
