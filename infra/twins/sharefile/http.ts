import type { Context, Hono, MiddlewareHandler } from 'hono';
import * as kit from '../kit';
import { badRequest, notFound, SfHttpError } from './errors';
import { applyOptions, queryOptions } from './odata';
import type { SfState, SfUser } from './state';

export type Json = Record<string, unknown>;
/** `base`: the origin and mount a request came through; `links`: where links for people point (base, or the twin's publicBase). */
export type SfEnv = kit.KitEnv<SfUser> & { Variables: { base: string; links: string } };
export type SfContext = Context<SfEnv>;

export const API = '/sf/v3';
export const MODELS = 'ShareFile.Api.Models';

export { badRequest, conflict, forbidden, notFound, SfHttpError } from './errors';

export const sfErrors: kit.ErrorDialect = {
  notFound: (c) => notFound(`No resource matches ${c.req.method} ${new URL(c.req.url).pathname}.`),
  internal: () => new SfHttpError(500, 'An unexpected error occurred.', 'Internal error'),
};

/** `Authorization: Bearer <token>`; a disabled user's token is refused. */
export function authenticate(state: SfState, oauth?: kit.OAuthServer): MiddlewareHandler<SfEnv> {
  return kit.auth<SfUser>({
    schemes: ['Bearer'],
    // A sandbox key, or an OAuth access token (kit/oauth.ts) of a user.
    resolve: (key) => {
      const grant = oauth?.resolve(key);
      const user = state.users.get(typeof grant === 'object' ? grant.account : (state.tokens.get(key) ?? ''));
      return user && !user.disabled ? user : undefined;
    },
    missing: () => new SfHttpError(401, 'Authorization required: send "Authorization: Bearer <access_token>".', 'Unauthorized'),
    invalid: () => new SfHttpError(401, 'The access token is invalid or expired.', 'Unauthorized'),
  }) as unknown as MiddlewareHandler<SfEnv>;
}

/** ShareFile publishes no rate limit; the twin answers 429 with Retry-After past a generous window. */
export const sfRateLimit: kit.VendorRateLimit = {
  headers: () => ({}),
  exceeded: (s) => new SfHttpError(429, 'Too many requests.', 'Rate limit', { 'Retry-After': String(s.retryAfter) }),
};

/** ShareFile publishes no limit ("excessive usage will be curtailed"): 6,000 calls a minute per token. */
export const SF_WINDOW: kit.RateWindow = { limit: 6000, windowMs: 60_000 };

/** The twin's own origin and mount (`https://acme.sf-api.com`, or `http://127.0.0.1:8787/twins/sharefile`). */
export function baseOf(c: Context): string {
  const url = new URL(c.req.url);
  const mount = c.req.routePath.replace(/\/?\*$/, '').replace(/\/sf\/v3$/, '');
  return `${url.origin}${mount}`;
}

/**
 * The API host the twin's entities name in `url` and `odata.metadata`, as ShareFile names its own
 * (https://{subdomain}.sf-api.com) whatever address the request came through. Links meant for a
 * person (download links, upload ChunkUris, share pages) use the request's own origin instead.
 */
export const SF_HOST = 'https://acme.sf-api.com';

export const entityUrl = (_c: SfContext, set: string, id: string) => `${SF_HOST}${API}/${set}(${id})`;

/** An entity answer: `odata.metadata` for `set`/`type`, then the entity (which carries odata.type). */
export function entity(c: SfContext, set: string, body: Json, status = 200): Response {
  const type = String(body['odata.type'] ?? `${MODELS}.${set}`);
  return c.json({ 'odata.metadata': `${SF_HOST}${API}/$metadata#${set}/${type}@Element`, ...body }, status as 200);
}

/** A feed answer over rendered entities, with the request's $filter/$orderby/$skip/$top/$select applied. */
export function feed(c: SfContext, set: string, entities: Json[], known?: readonly string[]): Response {
  const o = queryOptions((n) => c.req.query(n), known);
  const { page, count, more } = applyOptions(entities, o);
  const out: Json = { 'odata.metadata': `${SF_HOST}${API}/$metadata#${set}`, 'odata.count': count, value: page };
  if (more) {
    const url = new URL(c.req.url);
    const next = new URL(`${SF_HOST}${url.pathname.slice(url.pathname.indexOf(API))}${url.search}`);
    next.searchParams.set('$skip', String(o.skip + (o.top ?? 0)));
    out['odata.nextLink'] = next.toString();
  }
  return c.json(out);
}

export function jsonBody(c: Context): Promise<Json> {
  return kit.jsonBody(c, badRequest);
}

/** A JSON array body (Contacts lists, BulkDelete). */
export async function arrayBody(c: Context): Promise<unknown[]> {
  const v = kit.parseJson(await c.req.text(), () => badRequest('The request body must be a JSON array.'));
  if (Array.isArray(v)) return v;
  throw badRequest('The request body must be a JSON array.');
}

export function flag(c: Context, name: string, fallback: boolean): boolean {
  // ShareFile's query names are case-insensitive in practice (includeDeleted / includedeleted).
  const key = Object.keys(c.req.queries()).find((k) => k.toLowerCase() === name.toLowerCase());
  const raw = key ? c.req.query(key) : undefined;
  if (raw === undefined || raw === '') return fallback;
  if (/^(true|1)$/i.test(raw)) return true;
  if (/^(false|0)$/i.test(raw)) return false;
  throw badRequest(`Query parameter "${name}" must be true or false, got "${raw}".`);
}

/** A boolean field of a body, when present. */
export function bool(body: Json, name: string): boolean | undefined {
  const v = body[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw badRequest(`${name} must be true or false.`);
  return v;
}

/** A string field of a body, when present. */
export function str(body: Json, name: string): string | undefined {
  const v = body[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw badRequest(`${name} must be a string.`);
  return v;
}

// --- OData paths: `Items(fo123)/Children`, `AccessControls(principalid=u,itemid=fo1)` ---

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
export type RouteHandler = (c: SfContext, keys: string[]) => Response | Promise<Response>;
export interface Route {
  method: Method;
  /** Segments with `(*)` where a key goes: `Items(*)/Children`. */
  pattern: string;
  handler: RouteHandler;
}

function segments(path: string): { name: string; key?: string }[] | undefined {
  const out: { name: string; key?: string }[] = [];
  for (const raw of path.split('/').filter(Boolean)) {
    const m = /^([A-Za-z0-9$]+)(?:\((.*)\))?$/.exec(decodeURIComponent(raw));
    if (!m) return undefined;
    out.push({ name: m[1]!, ...(m[2] !== undefined ? { key: m[2].replace(/^'(.*)'$/, '$1') } : {}) });
  }
  return out;
}

/**
 * Mounts a table of OData routes under /sf/v3. A POST with `X-Http-Method-Override: PATCH|DELETE`
 * runs as that method (the SDK sends it so, docs/vendors/sharefile.md#conventions).
 */
export function odataRoutes(app: Hono<SfEnv>, routes: Route[]): void {
  const compiled = routes.map((r) => ({ ...r, segs: segments(r.pattern)! }));
  app.all(`${API}/*`, async (c) => {
    const url = new URL(c.req.url);
    const at = url.pathname.indexOf(`${API}/`);
    const segs = segments(url.pathname.slice(at + API.length + 1));
    const override = c.req.header('x-http-method-override')?.toUpperCase();
    const method = (c.req.method === 'POST' && override ? override : c.req.method) as Method;
    if (segs) {
      for (const r of compiled) {
        if (r.method !== method || r.segs.length !== segs.length) continue;
        const keys: string[] = [];
        const ok = r.segs.every((s, i) => {
          const got = segs[i]!;
          if (s.name.toLowerCase() !== got.name.toLowerCase() || (s.key !== undefined) !== (got.key !== undefined)) return false;
          if (got.key !== undefined) keys.push(got.key);
          return true;
        });
        if (ok) return r.handler(c, keys);
      }
    }
    throw sfErrors.notFound(c);
  });
}
