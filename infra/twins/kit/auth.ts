import type { Context, MiddlewareHandler } from 'hono';
import type { TwinHttpError } from './errors';

/** What the auth middleware leaves on the context: the caller and the key it used. */
export type KitEnv<U> = { Variables: { user: U; authKey: string } };

/**
 * Schemes of the Authorization header. `Basic` takes the key as the user name of `KEY:` (Tape's
 * `curl -u KEY:`); every other scheme takes the rest of the header (`Bearer <key>`, `OAuth2 <token>`).
 */
export type AuthScheme = 'Bearer' | 'Basic' | 'OAuth2';

/** The scheme and key of the Authorization header, if it uses one of `schemes` (case-insensitive). */
export function readKey(c: Context, schemes: readonly AuthScheme[]): { scheme: AuthScheme; key: string } | undefined {
  const header = c.req.header('authorization') ?? '';
  const space = header.indexOf(' ');
  if (space < 0) return undefined;
  const scheme = schemes.find((s) => s.toLowerCase() === header.slice(0, space).toLowerCase());
  if (!scheme) return undefined;
  const rest = header.slice(space + 1).trim();
  const key = scheme === 'Basic' ? (Buffer.from(rest, 'base64').toString('utf8').split(':')[0] ?? '') : rest;
  return { scheme, key };
}

export interface AuthOptions<U> {
  schemes: readonly AuthScheme[];
  /** The user a key belongs to; undefined when the key is unknown (or expired). */
  resolve(key: string, c: Context): U | undefined;
  /** No key in a known scheme. */
  missing(c: Context): TwinHttpError;
  /** The vendor's format check: an error for a malformed key, undefined when the shape is fine. */
  malformed?(key: string, c: Context): TwinHttpError | undefined;
  /** A well-formed key that belongs to nobody. */
  invalid(key: string, c: Context): TwinHttpError;
}

/** Token authentication: sets `user` and `authKey` on the context, or throws the dialect's error. */
export function auth<U>(opts: AuthOptions<U>): MiddlewareHandler<KitEnv<U>> {
  return async (c, next) => {
    const found = readKey(c, opts.schemes);
    if (!found || found.key === '') throw opts.missing(c);
    const bad = opts.malformed?.(found.key, c);
    if (bad) throw bad;
    const user = opts.resolve(found.key, c);
    if (user === undefined) throw opts.invalid(found.key, c);
    c.set('user', user);
    c.set('authKey', found.key);
    await next();
  };
}
