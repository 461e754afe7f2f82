import { counterResult, windowStart, type Clock, type CounterResult, type Store } from './store';

interface Entry {
  value: unknown;
  expiresAt: number;
}

/** In-process store: the local default, and the model the DynamoDB store is tested against. */
export class MemoryStore implements Store {
  private readonly entries = new Map<string, Entry>();
  private readonly counters = new Map<string, { count: number; expiresAt: number }>();

  constructor(private readonly now: Clock = Date.now) {}

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
    this.entries.set(key, { value: structuredClone(value), expiresAt: this.now() + ttlSeconds * 1000 });
  }

  async putIfAbsent(key: string, value: unknown, ttlSeconds: number): Promise<boolean> {
    // Check and write with no await between them: that is what makes it atomic in one process.
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt > this.now()) return false;
    this.entries.set(key, { value: structuredClone(value), expiresAt: this.now() + ttlSeconds * 1000 });
    return true;
  }

  async delete(key: string): Promise<void> {
    this.entries.delete(key);
  }

  async increment(key: string, windowSeconds: number, limit: number): Promise<CounterResult> {
    const now = this.now();
    const start = windowStart(now, windowSeconds);
    const id = `${key}#${start}`;
    this.sweep(now);
    const counter = this.counters.get(id) ?? { count: 0, expiresAt: (start + windowSeconds) * 1000 };
    if (counter.count >= limit) return counterResult(false, counter.count, limit, now, windowSeconds);
    counter.count += 1;
    this.counters.set(id, counter);
    return counterResult(true, counter.count, limit, now, windowSeconds);
  }

  /** Drops expired counters so a long-running local server does not grow without bound. */
  private sweep(now: number): void {
    if (this.counters.size < 1000) return;
    for (const [id, c] of this.counters) if (c.expiresAt <= now) this.counters.delete(id);
  }
}
