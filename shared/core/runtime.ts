import { loadConfig, type Config } from './config';
import { log } from './log';
import { createRegistry, type Registry } from './registry';
import { createStore, type Store } from '../store';
import { createBlobStore, type BlobStore } from '../blob';
import type { Resolver } from '../vendor/address-rules';
import type { Platform } from './tool';

/** What every call of a container shares: built once (createRuntime), passed to every surface. */
export interface Runtime {
  registry: Registry;
  store: Store;
  config: Config;
  /** Per-platform fetch override (local twins in-process); the global fetch otherwise. */
  fetchFor?: Record<string, typeof fetch | undefined>;
  /** Where tools put files they hand out by link (shared/blob). */
  blob?: BlobStore;
  /** DNS for checking caller URLs (webhook targets); absent: the system resolver. */
  resolve?: Resolver;
}

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
