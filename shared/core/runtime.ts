import type { ApprovalGate } from './approval';
import type { Callers } from './call';
import type { Config } from './config';
import type { Registry } from './registry';
import type { Store } from './store';
import type { BlobStore } from './blob';
import type { Platform, Resolver } from './tool';

/** What every call of a container shares: built once (createRuntime, shared/lambda/runtime.ts), passed to every surface. */
export interface Runtime {
  registry: Registry;
  /** Who presents a bearer (shared/identity, configured when createRuntime builds the runtime). */
  identity: Callers;
  /** Where held calls become approval requests and approvals are spent (shared/identity's Approvals over the runtime's identity, set by createRuntime). */
  approvals(): Promise<ApprovalGate>;
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
