import type { Context, MiddlewareHandler } from 'hono';
import type { TapeState, TapeUser } from './state';

export type TwinEnv = { Variables: { user: TapeUser } };
export type TwinContext = Context<TwinEnv>;

/** Tape's error body: {status_code, endpoint, error_code, error_message}. */
export class TapeHttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export function errorResponse(c: Context, err: TapeHttpError): Response {
  return c.json(
    { status_code: err.status, endpoint: c.req.path, error_code: err.code, error_message: err.message, ...err.extra },
    err.status as 400,
    err.headers,
  );
}

export const validation = (message: string) => new TapeHttpError(400, 'validation_error', message);
export const notFound = (message: string) => new TapeHttpError(404, 'not_found', message);
export const restricted = (message: string) => new TapeHttpError(403, 'restricted_resource', message);

/** Bearer or Basic (`-u KEY:`) authentication, with the messages of Tape's authentication page. */
export function authenticate(state: TapeState): MiddlewareHandler<TwinEnv> {
  return async (c, next) => {
    const endpoint = c.req.path;
    const header = c.req.header('authorization') ?? '';
    let key: string | undefined;
    if (/^Bearer /i.test(header)) key = header.slice(7).trim();
    else if (/^Basic /i.test(header)) key = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8').split(':')[0];
    if (!key) {
      throw new TapeHttpError(401, 'dev_api_authentication', `Missing authentication for Dev-API endpoint: '${endpoint}' (no user API key provided)`);
    }
    if (!key.startsWith('user_key_')) {
      throw new TapeHttpError(400, 'validation', `Invalid user API key for accessing endpoint '${endpoint}' (key has to start with 'user_key_')`);
    }
    if (!/^user_key_[A-Za-z0-9]{16,}$/.test(key)) {
      throw new TapeHttpError(400, 'validation', `Invalid user API key for accessing endpoint '${endpoint}' (signature check not passed, key is malformed)`);
    }
    const userId = state.keys.get(key);
    const user = userId === undefined ? undefined : state.users.get(userId);
    if (!user) throw new TapeHttpError(401, 'unauthorized', 'The bearer token is not valid.');
    c.set('user', user);
    await next();
  };
}

export interface CreditOptions {
  /** Credits per key per interval (Tape: 2,000 per minute). */
  credits: number;
  intervalSeconds: number;
  /** Credits of one request by method and path; Tape's default is 10. */
  cost(method: string, path: string): number;
  now(): number;
}

/** Tape's credit-based rate limit, with its headers on every response and its 429 body. */
export function credits(opts: CreditOptions): MiddlewareHandler<TwinEnv> {
  const used = new Map<string, { windowStart: number; spent: number }>();
  return async (c, next) => {
    const key = c.req.header('authorization') ?? '';
    const now = opts.now();
    const interval = opts.intervalSeconds * 1000;
    let entry = used.get(key);
    if (!entry || now - entry.windowStart >= interval) {
      entry = { windowStart: now, spent: 0 };
      used.set(key, entry);
    }
    const cost = opts.cost(c.req.method, c.req.path);
    const resetAt = entry.windowStart + interval;
    const retryAfter = Math.max(1, Math.ceil((resetAt - now) / 1000));
    const reset = tapeDateTime(new Date(resetAt));
    const over = entry.spent + cost > opts.credits;
    if (!over) entry.spent += cost;
    const headers = {
      'Retry-After': String(retryAfter),
      'X-RateLimit-Limit': String(opts.credits),
      'X-Retry-Remaining': String(opts.credits - entry.spent),
      'X-Retry-Cost': String(cost),
      'X-Retry-Reset': reset,
    };
    if (over) {
      const left = opts.credits - entry.spent;
      throw new TapeHttpError(
        429,
        'too_many_requests',
        `Too many requests (${left}/${opts.credits} points left), retry after ${retryAfter} seconds (${reset}). Your current request costs ${cost} points. Check https://developers.tapeapp.com/ for more info`,
        { retry_after: retryAfter, rate_limit: opts.credits, rate_limit_remaining: left, rate_limit_cost: cost, rate_limit_reset: reset },
        headers,
      );
    }
    await next();
    for (const [k, v] of Object.entries(headers)) c.res.headers.set(k, v);
  };
}

/** `YYYY-MM-DD HH:MM:SS` in UTC, Tape's datetime format. */
export function tapeDateTime(d: Date): string {
  return d.toISOString().slice(0, 19).replace('T', ' ');
}

/** Reads a JSON object body or throws Tape's invalid_json error. */
export async function jsonBody(c: Context): Promise<Record<string, unknown>> {
  const text = await c.req.text();
  if (text.trim() === '') return {};
  try {
    const body = JSON.parse(text) as unknown;
    if (body && typeof body === 'object' && !Array.isArray(body)) return body as Record<string, unknown>;
  } catch {
    // falls through to the error below
  }
  throw new TapeHttpError(400, 'invalid_json', 'The request body could not be decoded as JSON.');
}

export function idParam(c: Context, name: string): number {
  const raw = c.req.param(name) ?? '';
  if (!/^\d+$/.test(raw)) throw new TapeHttpError(400, 'invalid_request_url', `The request URL is not valid: "${name}" must be a numeric id, got "${raw}".`);
  return Number(raw);
}
