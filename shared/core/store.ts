import { log } from './log';

/** Which store a deployment uses (README "Configuration"): built by shared/store/index.ts. */
export interface StoreConfig {
  kind: 'memory' | 'dynamodb';
  table?: string;
  endpoint?: string;
  region?: string;
}

/** The port every function uses for state: a TTL cache and an atomic sliding-window counter. */
export interface CounterResult {
  allowed: boolean;
  /** Calls admitted in the last window, this one included when allowed (an estimate on DynamoDB). */
  count: number;
  limit: number;
  remaining: number;
  /**
   * Refused: seconds until a retry can be admitted (the true wait: the oldest admission of the
   * window leaves it). Allowed: seconds until the whole limit is available again, with no more calls.
   */
  resetSeconds: number;
}

export interface Store {
  get<T = unknown>(key: string): Promise<T | undefined>;
  put(key: string, value: unknown, ttlSeconds: number): Promise<void>;
  /**
   * Admits one call when fewer than `limit` calls were admitted in the `windowSeconds` before now
   * (a sliding window: no span of that width ever admits more than `limit`). Atomic: of N
   * concurrent calls on an idle key exactly min(N, limit) are admitted.
   */
  increment(key: string, windowSeconds: number, limit: number): Promise<CounterResult>;
  /**
   * Writes `value` only when `key` holds no live (unexpired) value; true when this call wrote it.
   * Atomic: of N concurrent calls exactly one wins (idempotency claims, shared/core/idempotency.ts).
   * Optional so that partial test doubles still type; a store without it cannot guard a write.
   */
  putIfAbsent?(key: string, value: unknown, ttlSeconds: number): Promise<boolean>;
  /** Removes `key` (a claim given up); a missing key is no error. */
  delete?(key: string): Promise<void>;
  /**
   * Adds `by` to the number kept at `key` (0 when absent or expired) and answers the sum; atomic,
   * so N concurrent adds answer N distinct sums. The key lives `ttlSeconds` after the last add.
   * Event inbox sequences (shared/events/inbox.ts); optional, as above.
   */
  add?(key: string, by: number, ttlSeconds: number): Promise<number>;
  /** The number `add` keeps at `key` — what `add(key, 0, …)` would answer — read without writing (nor keeping the key longer). */
  count?(key: string): Promise<number>;
  /**
   * Writes `value` at `key` and `pair.value` at `pair.key` in one transaction, only when `key`
   * holds no live value; true when this call wrote both. Of N concurrent calls exactly one wins
   * (an inbox's deduplication claim and the event it stores: shared/events/inbox.ts).
   */
  putPairIfAbsent?(key: string, value: unknown, ttlSeconds: number, pair: { key: string; value: unknown }): Promise<boolean>;
  /** The live values of many keys at once, in the order asked (undefined where none). */
  getMany?<T = unknown>(keys: readonly string[]): Promise<(T | undefined)[]>;
  /** Opens the store's connection ahead of the first call (Lambda's init phase); optional, as above. */
  warm?(): Promise<void>;
}

export type Clock = () => number;

/** An admitted call: `count` admitted in the window; the whole limit is back one window after it. */
export function admitted(count: number, limit: number, windowSeconds: number): CounterResult {
  const used = Math.min(limit, Math.max(1, count));
  return { allowed: true, count: used, limit, remaining: limit - used, resetSeconds: windowSeconds };
}

/** A refused call: `waitMs` until the oldest admission of the window leaves it. */
export function refused(limit: number, waitMs: number): CounterResult {
  return { allowed: false, count: limit, limit, remaining: 0, resetSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
}

export interface ScopedCache {
  get<T = unknown>(name: string): Promise<T | undefined>;
  put(name: string, value: unknown, ttlSeconds: number): Promise<void>;
}

/**
 * A cache view scoped to one caller: keys are prefixed by the caller's key hash. The cache is an
 * optimisation: a store that fails to read or write (throttling, an item too large) counts as a
 * miss and is logged, never failing the call that uses it.
 */
export function scopedCache(store: Store, keyHash: string): ScopedCache {
  const full = (name: string) => `cache#${keyHash}#${name}`;
  return {
    get: <T>(name: string) =>
      store.get<T>(full(name)).catch((err: unknown): T | undefined => {
        log('warn', 'cache read failed', { entry: name, error: err instanceof Error ? err.name : 'unknown' });
        return undefined;
      }),
    put: (name, value, ttl) =>
      store.put(full(name), value, ttl).catch((err: unknown) => {
        log('warn', 'cache write failed', { entry: name, error: err instanceof Error ? err.name : 'unknown' });
      }),
  };
}
