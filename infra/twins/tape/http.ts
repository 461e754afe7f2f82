import type { Context, MiddlewareHandler } from 'hono';
import * as kit from '../kit';
import type { Clock } from '../kit';
import type { TapeState, TapeUser } from './state';

export type TwinEnv = kit.KitEnv<TapeUser>;
export type TwinContext = Context<TwinEnv>;

/**
 * The path as Tape names it (`/v1/record/1`): the local server mounts the twin under
 * `/twins/tape`, which Tape's `endpoint`, its auth messages and its credit table never see.
 */
export function tapePath(c: Context): string {
  const path = c.req.path;
  const at = path.search(/\/(v1|_twin)(\/|$)/);
  return at > 0 ? path.slice(at) : path.replace(/^\/twins\/[^/]+(?=\/)/, '');
}

/** Tape's error body: {status_code, endpoint, error_code, error_message, …extra}. */
export class TapeHttpError extends kit.TwinHttpError {
  constructor(
    status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) {
    super(status, (c: Context) => ({ status_code: status, endpoint: tapePath(c), error_code: code, error_message: message, ...extra }), headers, message);
  }
}

export const validation = (message: string) => new TapeHttpError(400, 'validation_error', message);
export const notFound = (message: string) => new TapeHttpError(404, 'not_found', message);
export const restricted = (message: string) => new TapeHttpError(403, 'restricted_resource', message);
const invalidUrl = (message: string) => new TapeHttpError(400, 'invalid_request_url', `The request URL is not valid: ${message}`);

/** Tape's answers to an unknown URL and to a bug of the twin. */
export const tapeErrors: kit.ErrorDialect = {
  notFound: (c) => new TapeHttpError(400, 'invalid_request_url', `The request URL is not valid: ${c.req.method} ${tapePath(c)}`),
  internal: () => new TapeHttpError(500, 'internal_server_error', 'An unexpected error occurred.'),
};

/** Bearer or Basic (`-u KEY:`) authentication, with the messages of Tape's authentication page. */
export function authenticate(state: TapeState): MiddlewareHandler<TwinEnv> {
  return kit.auth<TapeUser>({
    schemes: ['Bearer', 'Basic'],
    resolve: (key) => {
      const userId = state.keys.get(key);
      return userId === undefined ? undefined : state.users.get(userId);
    },
    missing: (c) => new TapeHttpError(401, 'dev_api_authentication', `Missing authentication for Dev-API endpoint: '${tapePath(c)}' (no user API key provided)`),
    malformed: (key, c) => {
      if (!key.startsWith('user_key_')) return new TapeHttpError(400, 'validation', `Invalid user API key for accessing endpoint '${tapePath(c)}' (key has to start with 'user_key_')`);
      if (!/^user_key_[A-Za-z0-9]{16,}$/.test(key)) return new TapeHttpError(400, 'validation', `Invalid user API key for accessing endpoint '${tapePath(c)}' (signature check not passed, key is malformed)`);
      return undefined;
    },
    invalid: () => new TapeHttpError(401, 'unauthorized', 'The bearer token is not valid.'),
  });
}

export interface CreditOptions {
  /** Credits per key per interval (Tape: 2,000 per minute). */
  credits: number;
  intervalSeconds: number;
  /** Credits of one request (Tape's default is 10); may read the body (an email's recipients, an upload's size). */
  cost(c: Context): number | Promise<number>;
  clock: Clock;
}

/** Tape's credit-based rate limit, with its headers on every response and its 429 body. */
export function credits(opts: CreditOptions): MiddlewareHandler {
  const headers = (s: kit.WindowState): Record<string, string> => ({
    'Retry-After': String(s.retryAfter),
    'X-RateLimit-Limit': String(s.limit),
    'X-Retry-Remaining': String(s.remaining),
    'X-Retry-Cost': String(s.cost),
    'X-Retry-Reset': tapeDateTime(new Date(s.resetAt)),
  });
  // The kit's limiter asks the cost synchronously; a cost that reads the body is settled just before.
  const costs = new WeakMap<Request, number>();
  const limit = kit.rateLimit({
    clock: opts.clock,
    limit: opts.credits,
    windowMs: opts.intervalSeconds * 1000,
    cost: (c) => costs.get(c.req.raw) ?? BASE_CREDITS,
    headers,
    exceeded: (s) => {
      const reset = tapeDateTime(new Date(s.resetAt));
      return new TapeHttpError(
        429,
        'too_many_requests',
        `Too many requests (${s.remaining}/${s.limit} points left), retry after ${s.retryAfter} seconds (${reset}). Your current request costs ${s.cost} points. Check https://developers.tapeapp.com/ for more info`,
        { retry_after: s.retryAfter, rate_limit: s.limit, rate_limit_remaining: s.remaining, rate_limit_cost: s.cost, rate_limit_reset: reset },
        headers(s),
      );
    },
  });
  return async (c, next) => {
    costs.set(c.req.raw, await opts.cost(c));
    return limit(c, next);
  };
}

/** docs/vendors/tape.md#rate-limits: "By default, each request costs 10 credits." */
export const BASE_CREDITS = 10;

/** `YYYY-MM-DD HH:MM:SS` in UTC, Tape's datetime format. */
export function tapeDateTime(d: Date): string {
  return d.toISOString().slice(0, 19).replace('T', ' ');
}

/** Reads a JSON object body or throws Tape's invalid_json error. */
export function jsonBody(c: Context): Promise<Record<string, unknown>> {
  return kit.jsonBody(c, (message) => new TapeHttpError(400, 'invalid_json', message));
}

export function idParam(c: Context, name: string): number {
  return kit.idParam(c, name, invalidUrl);
}

/** A boolean query parameter (`true`/`false`/`1`/`0`), or Tape's 400. */
export function queryFlag(c: Context, name: string, fallback: boolean): boolean {
  return kit.flag(c, name, fallback, validation);
}

/** Several flags at once, checked in order: `queryFlags(c, { silent: false, hook: true })`. */
export function queryFlags<K extends string>(c: Context, defaults: Record<K, boolean>): Record<K, boolean> {
  return kit.flags(c, defaults, validation);
}

/** `limit` from the query (Tape pages by cursor, not offset): an integer min…max (min 0 unless given), default `fallback`. */
export function queryLimit(c: Context, fallback: number, max: number, min = 0): number {
  return kit.paging(c, { default: fallback, max, min, offset: false }, validation).limit;
}
