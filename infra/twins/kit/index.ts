/**
 * The twin kit: the plumbing every sandbox twin shares (docs/architecture.md#twins "Twins are one kit, five
 * dialects"). A twin keeps only its vendor's dialect: routes, data model, validation, seed, and the
 * shapes of its errors and headers, which it hands to the kit as small functions.
 *
 *   const app = new Hono<KitEnv<User>>();
 *   const kit = useKit(app, { clock: options.clock, latencyMs: options.latencyMs, errors: { notFound, internal } });
 *   app.use('/v1/*', rateLimit({ clock: kit.clock, … }), auth({ schemes: ['Bearer'], … }));
 *   app.route('/v1', routes(state, kit.clock));
 *   return { app, ...kit, state };   // a Twin: app, fetch, clock, requests, faults
 */
import type { Hono } from 'hono';
import { createClock, type Clock } from './clock';
import { twinErrors, type ErrorDialect } from './errors';
import { faultInjection, Faults } from './faults';
import { inProcessFetch } from './fetch';
import { latency } from './latency';
import { RequestLog, requestLog } from './request-log';

export { auth, readKey, type AuthOptions, type AuthScheme, type KitEnv } from './auth';
export { createClock, type Clock } from './clock';
export { downloadLink, downloadRoutes, downloadToken, type Downloadable } from './downloads';
export { twinErrors, TwinHttpError, type ErrorBody, type ErrorDialect } from './errors';
export { faultInjection, Faults, isReset, resetError, type Fault, type FaultRule, type InjectedFault } from './faults';
export { inProcessFetch, publicBaseOf, publicLinkFetch, type FetchApp, type Twin } from './fetch';
export { SANDBOX_KEYS } from './keys';
export { seedShift, seedsByShift } from './seed-day';
export { latency } from './latency';
export { OAuthServer, oauthLifetime, SANDBOX_OAUTH_CLIENT, type Grant, type OAuthAccount, type OAuthDialect } from './oauth';
export { twinRateLimit, type RateWindow, type TwinOptions, type VendorRateLimit } from './options';
export { prng } from './prng';
export { rateLimit, WindowBudget, type RateLimitOptions, type WindowState } from './rate-limit';
export { decodeCursor, encodeCursor, flag, flags, idParam, jsonBody, jsonDepth, MAX_BODY_DEPTH, paging, parseJson, type OnInvalid, type PagingOptions } from './request';
export { requestLog, RequestLog, type LoggedRequest } from './request-log';
export { DeliveryQueue, isPrivateHost, targetProblem, type Delivery, type DeliveryJob, type DeliveryQueueOptions, type WebhookTargets } from './webhooks';

export interface KitOptions {
  /** The twin's clock (default: real time, movable). */
  clock?: Clock;
  /** Minimum time before every answer leaves (benchmarks); 0 or absent: none. */
  latencyMs?: number;
  /** The vendor's answers to an unknown URL and to a bug of the twin. */
  errors: ErrorDialect;
  /** Entries kept in the request log (default 1000). */
  requestLogSize?: number;
}

/** The common parts of a Twin that useKit makes. */
export interface KitParts {
  clock: Clock;
  fetch: typeof fetch;
  requests: RequestLog;
  faults: Faults;
}

/**
 * Installs the common middleware on every path, in this order: latency (outermost, so it covers
 * everything), request log (a faulted request was still made), fault injection; and the error
 * dialect. Call it before the twin's own middleware and routes.
 */
export function useKit(app: Hono<any>, options: KitOptions): KitParts {
  const clock = options.clock ?? createClock();
  const requests = new RequestLog(options.requestLogSize);
  const faults = new Faults();
  if (options.latencyMs && options.latencyMs > 0) app.use('*', latency(options.latencyMs));
  app.use('*', requestLog(requests, clock));
  app.use('*', faultInjection(faults));
  twinErrors(app, options.errors);
  return { clock, fetch: inProcessFetch(app), requests, faults };
}
