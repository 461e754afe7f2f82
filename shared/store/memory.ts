import { admitted, refused, type Clock, type CounterResult, type Store } from '../core/store';

/** Writes between two sweeps of expired entries. */
const SWEEP_EVERY = 1024;

interface Entry {
  value: unknown;
  expiresAt: number;
}

/** In-process store: the local default, and the model the DynamoDB store is tested against. */
export class MemoryStore implements Store {
  private readonly entries = new Map<string, Entry>();
  /** Per counter key: the times (epoch ms) of the calls admitted in the last window, oldest first. */
  private readonly logs = new Map<string, { admitted: number[]; windowMs: number }>();

  /** Writes since the last sweep of expired entries (expireSome). */
  private writes = 0;

  constructor(private readonly now: Clock = Date.now) {}

  /** Entries held, live and expired ones not yet swept: a long-running local server's Store size. */
  get size(): number {
    return this.entries.size;
  }

  /**
   * What the store holds, for a long-running local server's soak (test/bench/soak.ts; on no route):
   * entries (live, and expired ones not yet swept), rate-limit logs, and — given `heapUsed`, a
   * process's live heap in bytes after a full collection — the heap they keep alive, measured as
   * the heap a copy of them takes (structured clones, as every entry itself is). Reads only.
   */
  stats(heapUsed?: () => number): { entries: number; counters: number; heapBytes?: number } {
    const counts = { entries: this.entries.size, counters: this.logs.size };
    if (!heapUsed) return counts;
    const before = heapUsed();
    const copy = structuredClone([this.entries, this.logs]);
    const heapBytes = heapUsed() - before;
    // Read after the measure: the copy stays alive through it.
    return copy.length === 2 ? { ...counts, heapBytes } : counts;
  }

  /**
   * An expired entry goes when it is read (get) — or here: every SWEEP_EVERY writes, every expired
   * entry is dropped, so keys written once and never read again (caches, claims, counters of
   * many keys) do not pile up in a long-running local server. Amortized over the writes.
   */
  private set(key: string, entry: Entry): void {
    this.entries.set(key, entry);
    if (++this.writes < SWEEP_EVERY) return;
    this.writes = 0;
    const now = this.now();
    for (const [k, e] of this.entries) if (e.expiresAt <= now) this.entries.delete(k);
  }

  async get<T>(key: string): Promise<T | undefined> {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    // Copies, as a remote store would: callers cannot mutate what is stored.
    return structuredClone(entry.value) as T;
  }

  async put(key: string, value: unknown, ttlSeconds: number): Promise<void> {
    this.set(key, { value: structuredClone(value), expiresAt: this.now() + ttlSeconds * 1000 });
  }

  async putIfAbsent(key: string, value: unknown, ttlSeconds: number): Promise<boolean> {
    // Check and write with no await between them: that is what makes it atomic in one process.
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt > this.now()) return false;
    this.set(key, { value: structuredClone(value), expiresAt: this.now() + ttlSeconds * 1000 });
    return true;
  }

  async add(key: string, by: number, ttlSeconds: number): Promise<number> {
    const current = this.number(key);
    this.set(key, { value: current + by, expiresAt: this.now() + ttlSeconds * 1000 });
    return current + by;
  }

  async count(key: string): Promise<number> {
    return this.number(key);
  }

  /** The live number at `key`, 0 when none; read with no await, so that add stays atomic. */
  private number(key: string): number {
    const entry = this.entries.get(key);
    return entry && entry.expiresAt > this.now() && typeof entry.value === 'number' ? entry.value : 0;
  }

  async putPairIfAbsent(key: string, value: unknown, ttlSeconds: number, pair: { key: string; value: unknown }): Promise<boolean> {
    // Both writes with no await between them: atomic in one process, as the transaction is on DynamoDB.
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt > this.now()) return false;
    const expiresAt = this.now() + ttlSeconds * 1000;
    this.set(key, { value: structuredClone(value), expiresAt });
    this.set(pair.key, { value: structuredClone(pair.value), expiresAt });
    return true;
  }

  async getMany<T>(keys: readonly string[]): Promise<(T | undefined)[]> {
    return Promise.all(keys.map((k) => this.get<T>(k)));
  }

  async delete(key: string): Promise<void> {
    this.entries.delete(key);
  }

  async increment(key: string, windowSeconds: number, limit: number): Promise<CounterResult> {
    // A sliding log, exact in one process: admitted iff fewer than `limit` admissions are younger
    // than one window. Check and write with no await between them: atomic here.
    const now = this.now();
    const windowMs = windowSeconds * 1000;
    this.sweep(now);
    const log = this.logs.get(key) ?? { admitted: [], windowMs };
    log.windowMs = windowMs;
    const live = log.admitted.findIndex((t) => t > now - windowMs);
    log.admitted.splice(0, live === -1 ? log.admitted.length : live);
    if (log.admitted.length >= limit) return refused(limit, log.admitted[log.admitted.length - limit]! + windowMs - now);
    log.admitted.push(now);
    this.logs.set(key, log);
    return admitted(log.admitted.length, limit, windowSeconds);
  }

  /** Drops logs with no live admission, so a long-running local server does not grow without bound. */
  private sweep(now: number): void {
    if (this.logs.size < 1000) return;
    for (const [key, log] of this.logs) if ((log.admitted.at(-1) ?? 0) <= now - log.windowMs) this.logs.delete(key);
  }
}
