import { loadConfig, type Config } from './config';
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

export async function createRuntime(opts: RuntimeOptions): Promise<Runtime> {
  const config = opts.config ?? loadConfig();
  return {
    registry: createRegistry(opts.platforms),
    config,
    store: opts.store ?? (await createStore(config.store)),
    ...(opts.fetchFor ? { fetchFor: opts.fetchFor } : {}),
    blob: opts.blob ?? (await createBlobStore()),
  };
}
