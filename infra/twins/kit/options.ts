import type { MiddlewareHandler } from 'hono';
import type { Clock } from './clock';
import { rateLimit, type RateLimitOptions } from './rate-limit';
import type { WebhookTargets } from './webhooks';

/** Requests per key per window. */
export interface RateWindow {
  limit: number;
  windowMs: number;
}

/**
 * The options every twin takes (the local server passes the same ones to each, infra/local/platforms.ts);
 * a twin adds its own on top (Tape's credits, Podio's hookFetch, …).
 */
export interface TwinOptions {
  /** The twin's clock (timestamps, expiries, rate-limit windows); default: real time, movable. */
  clock?: Clock;
  /** Milliseconds after which every answer leaves (at the earliest): network and server time in benchmarks. */
  latencyMs?: number;
  /** Requests per key per window; default: the vendor's published limit (each twin's http.ts). */
  rateLimit?: RateWindow;
  /** Webhook targets: 'public' (the vendor's rule; default) or 'any' (receivers on this machine); twins without webhooks ignore it. */
  hookTargets?: WebhookTargets;
  /**
   * Where links meant for people (downloads, share pages) point, e.g. `http://127.0.0.1:8787/twins/sharefile`
   * when the local server mounts the twin (a function: the server knows its port once it listens);
   * twins that hand out no links ignore it.
   */
  publicBase?: string | (() => string | undefined);
  /** How webhook POSTs leave the twin (default: the global fetch; tests may capture them). */
  hookFetch?: typeof fetch;
  /** Extra copies of every webhook POST: at-least-once delivery as vendors retry (kit/webhooks.ts). */
  hookRedeliver?: number;
  /** Access-token lifetime of the twin's OAuth flow in seconds; default: the vendor's (twins without OAuth ignore it). */
  oauthAccessSeconds?: number;
}

/** How a vendor answers at its rate limit: its headers on every response and its refusal. */
export type VendorRateLimit = Pick<RateLimitOptions, 'headers' | 'exceeded'>;

/** A twin's windowed rate limit: the caller's window, else the vendor's, answered as the vendor does. */
export function twinRateLimit(clock: Clock, window: RateWindow | undefined, vendorWindow: RateWindow, vendor: VendorRateLimit): MiddlewareHandler {
  return rateLimit({ clock, ...(window ?? vendorWindow), ...vendor });
}
