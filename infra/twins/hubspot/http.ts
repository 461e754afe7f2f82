import type { Context, MiddlewareHandler } from 'hono';
import * as kit from '../kit';
import { OWNERS } from './model';

/** Who a key belongs to: the portal's owner (super admin) or a plain member without the schema scope. */
export interface HubSpotUser {
  ownerId: string;
  name: string;
  /** May change property definitions (crm.schemas.*.write). */
  schemaWrite: boolean;
}

export type TwinEnv = kit.KitEnv<HubSpotUser>;
export type TwinContext = Context<TwinEnv>;

/**
 * HubSpot's error body (the `Error` schema of its OpenAPI documents):
 * `{status: "error", message, correlationId, category, subCategory?, context?, errors?}`.
 */
export class HubSpotHttpError extends kit.TwinHttpError {
  constructor(status: number, category: string, message: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
    super(status, () => ({ status: 'error', message, correlationId: crypto.randomUUID(), category, ...extra }), headers, message);
  }
}

export const validationError = (message: string, extra: Record<string, unknown> = {}) => new HubSpotHttpError(400, 'VALIDATION_ERROR', message, extra);
export const objectNotFound = (id: string) =>
  new HubSpotHttpError(404, 'OBJECT_NOT_FOUND', 'Object not found.  objectId are usually numeric.', { context: { id: [id] } });
export const notFound = (message: string) => new HubSpotHttpError(404, 'OBJECT_NOT_FOUND', message);
export const conflict = (message: string, extra: Record<string, unknown> = {}) => new HubSpotHttpError(409, 'CONFLICT', message, extra);

/** HubSpot's answers to an unknown URL and to a bug of the twin. */
export const hubspotErrors: kit.ErrorDialect = {
  notFound: (c) => new HubSpotHttpError(404, 'OBJECT_NOT_FOUND', `Unable to find a resource for ${c.req.method} ${c.req.path}`),
  internal: () => new HubSpotHttpError(500, 'INTERNAL_ERROR', 'internal error'),
};

/** The sandbox keys: the owner key is Jane Sandbox (super admin), the member key Sam Member. */
export function usersByKey(keys: { owner: string; member: string }): Map<string, HubSpotUser> {
  return new Map([
    [keys.owner, { ownerId: OWNERS[0].id, name: OWNERS[0].name, schemaWrite: true }],
    [keys.member, { ownerId: OWNERS[1].id, name: OWNERS[1].name, schemaWrite: false }],
  ]);
}

/** `Authorization: Bearer <private app token>` only (HubSpot dropped API keys in the query string). */
export function authenticate(users: Map<string, HubSpotUser>, oauth?: kit.OAuthServer): MiddlewareHandler<TwinEnv> {
  return kit.auth<HubSpotUser>({
    schemes: ['Bearer'],
    // A private app token, or an OAuth access token of a sandbox user (kit/oauth.ts).
    resolve: (key) => {
      const grant = oauth?.resolve(key);
      return users.get(typeof grant === 'object' ? kit.SANDBOX_KEYS[grant.account as 'owner' | 'member'] : key);
    },
    missing: () =>
      new HubSpotHttpError(401, 'INVALID_AUTHENTICATION', 'Authentication credentials not found. This API supports OAuth 2.0 authentication and you can find more details at https://developers.hubspot.com/docs/methods/auth/oauth-overview'),
    invalid: () =>
      new HubSpotHttpError(401, 'INVALID_AUTHENTICATION', 'The OAuth token used to make this call expired 0 second(s) ago.', { subCategory: 'INVALID_AUTHENTICATION' }),
  }) as unknown as MiddlewareHandler<TwinEnv>;
}

/**
 * HubSpot's burst limit per token: `X-HubSpot-RateLimit-*` headers on every answer and, when
 * over, 429 with `policyName: TEN_SECONDLY_ROLLING` (the body the official client retries on).
 * The daily budget is reported, not enforced (HubSpot's is large: 250,000 and up).
 */
export function hubspotRateLimit(): kit.VendorRateLimit {
  const daily = 250_000;
  let spentToday = 0;
  return {
    headers: (s) => {
      if (!s.over) spentToday++;
      return {
        'X-HubSpot-RateLimit-Daily': String(daily),
        'X-HubSpot-RateLimit-Daily-Remaining': String(Math.max(0, daily - spentToday)),
        'X-HubSpot-RateLimit-Interval-Milliseconds': String(s.windowMs),
        'X-HubSpot-RateLimit-Max': String(s.limit),
        'X-HubSpot-RateLimit-Remaining': String(Math.max(0, s.remaining)),
      };
    },
    exceeded: () =>
      new HubSpotHttpError(429, 'RATE_LIMITS', 'You have reached your ten_secondly_rolling limit.', {
        errorType: 'RATE_LIMIT',
        policyName: 'TEN_SECONDLY_ROLLING',
        groupName: 'publicapi:private-app:sandbox',
      }),
  };
}

/** HubSpot (Professional/Enterprise private apps): 190 requests per 10 seconds per token. */
export const HUBSPOT_WINDOW: kit.RateWindow = { limit: 190, windowMs: 10_000 };

export function jsonBody(c: Context): Promise<Record<string, unknown>> {
  return kit.jsonBody(c, (m) => validationError(`Invalid input JSON on line 1: ${m}`));
}
