import type { Context, MiddlewareHandler } from 'hono';
import * as kit from '../kit';

/** What a token may call: BatchData's tokens carry per-endpoint permissions (docs/vendors/batchdata.md#conventions). */
export interface TwinUser {
  name: string;
  permissions: ReadonlySet<'property-search' | 'property-lookup'>;
}

export type TwinEnv = kit.KitEnv<TwinUser>;

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
};

/** BatchData's error envelope (docs/vendors/batchdata.md#conventions): `{"status":{"code":403,"text":"Forbidden","message":"…"}}`, same HTTP status. */
export class BatchDataHttpError extends kit.TwinHttpError {
  constructor(status: number, message: string, headers: Record<string, string> = {}) {
    super(status, { status: { code: status, text: STATUS_TEXT[status] ?? 'Error', message } }, headers, message);
  }
}

export const badRequest = (message: string) => new BatchDataHttpError(400, message);
export const notFound = (message: string) => new BatchDataHttpError(404, message);

export const batchDataErrors: kit.ErrorDialect = {
  notFound: (c) => new BatchDataHttpError(404, `Cannot ${c.req.method} ${c.req.path}`),
  internal: () => new BatchDataHttpError(500, 'An unexpected error occurred. Please try again later.'),
};

/** `Authorization: Bearer <token>`; the sandbox owner may call everything, the member only the property search. */
export function authenticate(users: ReadonlyMap<string, TwinUser>): MiddlewareHandler<TwinEnv> {
  return kit.auth<TwinUser>({
    schemes: ['Bearer'],
    resolve: (key) => users.get(key),
    missing: () => new BatchDataHttpError(401, 'No API token provided. Send "Authorization: Bearer <API token>".'),
    invalid: () => new BatchDataHttpError(401, 'Invalid API token.'),
  });
}

/** 403 unless the caller's token carries the endpoint's permission (the observed message, docs/vendors/batchdata.md#conventions). */
export function requirePermission(c: Context<TwinEnv>, permission: 'property-search' | 'property-lookup'): void {
  if (!c.get('user').permissions.has(permission)) throw new BatchDataHttpError(403, 'Provided token does not have permission to access this API.');
}

/**
 * 3,000 requests a minute per token (docs/vendors/batchdata.md#conventions HELP "API Rate Limits"), then HTTP 429 in the
 * status envelope. BatchData documents no rate-limit headers; the twin sends Retry-After on the 429
 * only (a guess: the standard header a client honours).
 */
export const batchDataRateLimit: kit.VendorRateLimit = {
  headers: () => ({}),
  exceeded: (s) => new BatchDataHttpError(429, `Rate limit exceeded: ${s.limit} requests per ${Math.round(s.windowMs / 1000)} seconds. Retry later with exponential backoff.`, { 'Retry-After': String(s.retryAfter) }),
};

/** BatchData: 3,000 requests a minute per token. */
export const BATCHDATA_WINDOW: kit.RateWindow = { limit: 3000, windowMs: 60_000 };

export function jsonBody(c: Context): Promise<Record<string, unknown>> {
  return kit.jsonBody(c, badRequest);
}
