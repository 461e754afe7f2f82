import { loadConfig, type Config } from './config';
import { log } from './log';
import type { Runtime } from './execute';
import { createRegistry } from './registry';
import { createStore, type Store } from './store';
import { createBlobStore, type BlobStore } from './blob';
import type { Platform } from './tool';

export interface RuntimeOptions {
  platforms: readonly Platform<any>[];
  config?: Config;
  /** A ready store (tests, local server); otherwise the configured one is built. */
  store?: Store;
  fetchFor?: Runtime['fetchFor'];
  /** A ready Blob store (tests); otherwise the configured one (shared/blob). */
  blob?: BlobStore;
}

/**
 * Builds what every call shares. The configured store and Blob store are built side by side, and a
 * store that can warm up (DynamoDB: SDK loaded, credentials, connection) does so before this
 * resolves; a failed warm-up is only logged — the first call then pays for the connection itself.
 */
export async function createRuntime(opts: RuntimeOptions): Promise<Runtime> {
  const config = opts.config ?? loadConfig();
  const registry = createRegistry(opts.platforms);
  const [store, blob] = await Promise.all([opts.store ?? warmed(createStore(config.store)), opts.blob ?? createBlobStore()]);
  return { registry, config, store, ...(opts.fetchFor ? { fetchFor: opts.fetchFor } : {}), blob };
}

async function warmed(building: Promise<Store>): Promise<Store> {
  const store = await building;
  await store.warm?.().catch((err: unknown) => log('warn', 'store warm-up failed', { error: err instanceof Error ? err.name : 'unknown' }));
  return store;
}
