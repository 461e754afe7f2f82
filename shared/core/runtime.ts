import type { ApprovalGate } from './approval';
import type { Caller, CallerIds } from './call';
import type { Config } from './config';
import type { Registry } from './registry';
import type { Store } from './store';
import type { BlobStore } from './blob';
import type { Platform, Resolver, Tool } from './tool';

/** What every call of a container shares: built once (createRuntime, shared/lambda/runtime.ts), passed to every surface. */
export interface Runtime {
  registry: Registry;
  /** Who a call acts as (shared/identity's resolveCaller, set by createRuntime). */
  resolveCaller: CallerResolver;
  /** Where held calls become approval requests and approvals are spent (shared/identity's approvalsOf, set by createRuntime). */
  approvals: (rt: Runtime) => Promise<ApprovalGate>;
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
 * Resolves who a tool call acts as, before anything reaches the vendor (shared/identity builds it;
 * the runtime carries it so the core names no layer above it, docs/architecture.md#layers).
 */
export type CallerResolver = (rt: Runtime, call: { key: string; connection?: string | undefined; resource?: string | undefined }, platform: Platform, tool: Tool, ids?: CallerIds) => Promise<Caller>;
