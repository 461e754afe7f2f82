import type { Context, MiddlewareHandler } from 'hono';
import type { Clock } from './clock';
import type { TwinHttpError } from './errors';

/** The state of one key's window after a request was counted (or refused). */
export interface WindowState {
  limit: number;
  /** The window's length. */
  windowMs: number;
  /** What this request costs. */
  cost: number;
  /** Spent in the current window, this request included when it was allowed. */
  spent: number;
  /** limit - spent. */
  remaining: number;
  /** Epoch ms when the window started and when it ends. */
  windowStart: number;
  resetAt: number;
  /** Whole seconds until the window ends, at least 1. */
  retryAfter: number;
  /** True when the request was refused: spending `cost` would exceed `limit`. */
  over: boolean;
}

/**
 * A fixed window per key: the window opens at a key's first request and lasts `windowMs`; a
 * request that would spend more than `limit` in it is refused and spends nothing.
 */
export class WindowBudget {
  private readonly windows = new Map<string | number, { start: number; spent: number }>();

  constructor(private readonly opts: { limit: number; windowMs: number; clock: Clock }) {}

  take(key: string | number, cost = 1): WindowState {
    const now = this.opts.clock.now();
    let w = this.windows.get(key);
    if (!w || now - w.start >= this.opts.windowMs) this.windows.set(key, (w = { start: now, spent: 0 }));
    const over = w.spent + cost > this.opts.limit;
    if (!over) w.spent += cost;
    const resetAt = w.start + this.opts.windowMs;
    return {
      limit: this.opts.limit,
      windowMs: this.opts.windowMs,
      cost,
      spent: w.spent,
      remaining: this.opts.limit - w.spent,
      windowStart: w.start,
      resetAt,
      retryAfter: Math.max(1, Math.ceil((resetAt - now) / 1000)),
      over,
    };
  }
}

export interface RateLimitOptions {
  clock: Clock;
  /** Budget per key per window. */
  limit: number;
  windowMs: number;
  /** What a request costs (default 1). */
  cost?(c: Context): number;
  /** Whose budget a request spends (default: the raw Authorization header, i.e. the caller's key). */
  key?(c: Context): string;
  /** The vendor's rate-limit headers, set on every response (the refusal included). */
  headers(state: WindowState, c: Context): Record<string, string>;
  /** The vendor's refusal (Tape 429, Podio 420). */
  exceeded(state: WindowState, c: Context): TwinHttpError;
}

/** A windowed per-key budget with the vendor's headers on every response and its refusal when over. */
export function rateLimit(opts: RateLimitOptions): MiddlewareHandler {
  const budget = new WindowBudget(opts);
  return async (c, next) => {
    const key = opts.key ? opts.key(c) : (c.req.header('authorization') ?? '');
    const state = budget.take(key, opts.cost ? opts.cost(c) : 1);
    const headers = opts.headers(state, c);
    if (state.over) {
      const res = opts.exceeded(state, c).response(c);
      for (const [k, v] of Object.entries(headers)) if (!res.headers.has(k)) res.headers.set(k, v);
      return res;
    }
    await next();
    for (const [k, v] of Object.entries(headers)) c.res.headers.set(k, v);
  };
}
