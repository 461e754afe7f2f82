import { log } from '../log';

/** The port every function uses for state: a TTL cache and an atomic windowed counter. */
export interface CounterResult {
  allowed: boolean;
  /** Requests counted in the current window (including this one when allowed). */
  count: number;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

export interface Store {
  get<T = unknown>(key: string): Promise<T | undefined>;
  put(key: string, value: unknown, ttlSeconds: number): Promise<void>;
  /**
   * Counts one request in the fixed window `windowSeconds` wide that holds now.
   * Atomic: of N concurrent calls at most `limit` are allowed per window.
   */
  increment(key: string, windowSeconds: number, limit: number): Promise<CounterResult>;
  /**
   * Writes `value` only when `key` holds no live (unexpired) value; true when this call wrote it.
   * Atomic: of N concurrent calls exactly one wins (idempotency claims, shared/idempotency.ts).
   * Optional so that partial test doubles still type; a store without it cannot guard a write.
   */
  putIfAbsent?(key: string, value: unknown, ttlSeconds: number): Promise<boolean>;
  /** Removes `key` (a claim given up); a missing key is no error. */
  delete?(key: string): Promise<void>;
}

export type Clock = () => number;

/** Start (epoch seconds) of the fixed window holding `nowMs`. */
export function windowStart(nowMs: number, windowSeconds: number): number {
  const now = Math.floor(nowMs / 1000);
  return now - (now % windowSeconds);
}

export function counterResult(allowed: boolean, count: number, limit: number, nowMs: number, windowSeconds: number): CounterResult {
  const resetSeconds = Math.max(1, windowStart(nowMs, windowSeconds) + windowSeconds - Math.floor(nowMs / 1000));
  return { allowed, count, limit, remaining: Math.max(0, limit - count), resetSeconds };
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
