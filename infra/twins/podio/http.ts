import type { Context, MiddlewareHandler } from 'hono';
import * as kit from '../kit';
import type { Clock } from '../kit';
import type { PodioState, PodioUser, TokenRow } from './state';

export type TwinEnv = kit.KitEnv<PodioUser> & { Variables: { token: TokenRow; base: string } };
export type TwinContext = Context<TwinEnv>;

/** Podio's error body (docs/vendors/podio.md#conventions): {error, error_description, error_detail, error_parameters, error_propagate, request}. */
export class PodioHttpError extends kit.TwinHttpError {
  constructor(status: number, readonly code: string, description: string, headers: Record<string, string> = {}) {
    super(
      status,
      (c: Context) => {
        const url = new URL(c.req.url);
        return {
          error: code,
          error_description: description,
          error_detail: null,
          error_parameters: {},
          error_propagate: false,
          request: { url: `${url.origin}${url.pathname}`, query_string: url.search.replace(/^\?/, ''), method: c.req.method },
        };
      },
      headers,
      description,
    );
  }
}

export const invalid = (message: string) => new PodioHttpError(400, 'invalid_value', message);
export const forbidden = (message: string) => new PodioHttpError(403, 'forbidden', message);
export const notFound = (message = 'Object not found') => new PodioHttpError(404, 'not_found', message);
export const conflict = (message: string) => new PodioHttpError(409, 'conflict', message);
export const alreadyAttached = (fileId: number) => new PodioHttpError(400, 'file.already_attached', `The file ${fileId} is already attached to another object; upload it again or copy it to attach it here.`);
export const gone = (message = 'Object has been deleted') => new PodioHttpError(410, 'gone', message);

/** Podio's answers to an unknown URL and to a bug of the twin. */
export const podioErrors: kit.ErrorDialect = {
  notFound: (c) => new PodioHttpError(404, 'not_found', `No matching operation could be found. The path '${c.req.path}' was not found for method ${c.req.method}.`),
  internal: () => new PodioHttpError(500, 'server_error', 'An unexpected error occurred, please try again later.'),
};

/**
 * `Authorization: OAuth2 <token>`. The sandbox keys and tokens of POST /oauth/token are valid; an
 * expired token answers `invalid_token`/`expired_token`, the pair podio-js refreshes on.
 */
export function authenticate(state: PodioState, clock: Clock, oauth?: kit.OAuthServer): MiddlewareHandler<TwinEnv> {
  const auth = kit.auth<PodioUser>({
    schemes: ['OAuth2'],
    resolve: (key, c) => {
      // An access token of the authorization-code flow (kit/oauth.ts), as a token row of its user.
      const grant = oauth?.resolve(key);
      if (grant === 'expired') return undefined;
      const token = grant ? { user_id: Number(grant.account), expires_at: grant.expiresAt, ref: { type: 'user' as const, id: Number(grant.account) } } : state.tokens.get(key);
      if (!token || (token.expires_at !== null && token.expires_at <= clock.now())) return undefined;
      c.set('token', token);
      return state.users.get(token.user_id);
    },
    missing: () => new PodioHttpError(401, 'unauthorized', 'This method requires a valid access token: send "Authorization: OAuth2 <access_token>".'),
    invalid: (key) => {
      const token = state.tokens.get(key) ?? oauth?.resolve(key);
      return new PodioHttpError(401, 'invalid_token', token ? 'expired_token' : 'invalid_token');
    },
  });
  return auth as unknown as MiddlewareHandler<TwinEnv>;
}

/** Podio's rate limit (docs/vendors/podio.md#conventions): X-Rate-Limit-Limit/Remaining on every answer, 420 when over. */
export const podioRateLimit: kit.VendorRateLimit = {
  headers: (s) => ({ 'X-Rate-Limit-Limit': String(s.limit), 'X-Rate-Limit-Remaining': String(Math.max(0, s.remaining)) }),
  exceeded: (s) => new PodioHttpError(420, 'rate_limit', `You have hit the rate limit. Please wait ${s.retryAfter} seconds before trying again`),
};

/** Podio: 1,000 calls an hour per token. */
export const PODIO_WINDOW: kit.RateWindow = { limit: 1000, windowMs: 3_600_000 };

export function jsonBody(c: Context): Promise<Record<string, unknown>> {
  return kit.jsonBody(c, invalid);
}

/** A JSON body of any shape (PUT /item/{id}/value/{field} takes a bare value or an array). */
export async function anyJsonBody(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === '') return undefined;
  return kit.parseJson(text, invalid);
}

export function idParam(c: Context, name: string): number {
  return kit.idParam(c, name, invalid);
}

/** `silent` (default false) and `hook` (default true) of writes (docs/vendors/podio.md#conventions). */
export function writeFlags(c: Context): { silent: boolean; hook: boolean } {
  return kit.flags(c, { silent: false, hook: true }, invalid);
}

/** Other boolean query flags of an endpoint (e.g. `alert_invite`). */
export function flagsOf<K extends string>(c: Context, defaults: Record<K, boolean>): Record<K, boolean> {
  return kit.flags(c, defaults, invalid);
}

export function paging(c: Context, opts: kit.PagingOptions): { limit: number; offset: number } {
  return kit.paging(c, opts, invalid);
}

/** The twin's own URL base (origin plus the mount path, e.g. `/twins/podio`), for links back into it. */
export function baseOf(c: Context): string {
  const url = new URL(c.req.url);
  // In a middleware of `app.use('*')`, routePath is `<mount>/*`: what precedes the twin's own paths.
  const mount = c.req.routePath.replace(/\/?\*$/, '');
  return `${url.origin}${mount}`;
}

