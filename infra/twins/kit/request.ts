import type { Context } from 'hono';
import type { TwinHttpError } from './errors';

/**
 * Readers of request parts. Each takes `onInvalid(message)`: the kit writes the message (what was
 * wrong, what was expected), the twin wraps it in its vendor's error body.
 */
export type OnInvalid = (message: string) => TwinHttpError;

type Json = Record<string, unknown>;
/** A JSON object: not null, not an array. */
export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * How deep a request body's arrays and objects may nest. The vendors' JSON readers stop somewhere
 * (.NET's at 64, Jackson's at 1,000); the twins' handlers walk bodies recursively, so a bound keeps
 * any body from exhausting the stack. No request of any vendor's API nests a tenth as deep.
 */
export const MAX_BODY_DEPTH = 100;

/** The deepest nesting of arrays and objects in JSON text, counted in one pass (brackets inside strings skipped). */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c) i++; // a backslash escapes the next character
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) inString = true;
    else if (ch === 0x5b || ch === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (ch === 0x5d || ch === 0x7d) depth--;
  }
  return deepest;
}

/** The JSON object body; an empty body is `{}`; anything else (bad JSON, an array, a number, nesting beyond MAX_BODY_DEPTH) → onInvalid. */
export async function jsonBody(c: Context, onInvalid: OnInvalid): Promise<Json> {
  const text = await c.req.text();
  if (text.trim() === '') return {};
  const body = parseJson(text, onInvalid);
  if (isObject(body)) return body;
  throw onInvalid('The request body could not be decoded as JSON.');
}

/** JSON text of any shape; bad JSON or nesting beyond MAX_BODY_DEPTH → onInvalid. */
export function parseJson(text: string, onInvalid: OnInvalid): unknown {
  if (jsonDepth(text) > MAX_BODY_DEPTH) throw onInvalid(`The request body nests arrays and objects deeper than ${MAX_BODY_DEPTH} levels.`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw onInvalid('The request body could not be decoded as JSON.');
  }
}

/** A numeric id from the path (`/item/:id`). */
export function idParam(c: Context, name: string, onInvalid: OnInvalid): number {
  const raw = c.req.param(name) ?? '';
  if (!/^\d+$/.test(raw)) throw onInvalid(`"${name}" must be a numeric id, got "${raw}".`);
  return Number(raw);
}

/** One boolean query flag: `true`/`1`, `false`/`0`; absent or empty → `fallback`. */
export function flag(c: Context, name: string, fallback: boolean, onInvalid: OnInvalid): boolean {
  const raw = c.req.query(name);
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw onInvalid(`Query parameter "${name}" must be true or false, got "${raw}".`);
}

/** Several flags with their defaults at once: `flags(c, { silent: false, hook: true }, onInvalid)`. */
export function flags<K extends string>(c: Context, defaults: Record<K, boolean>, onInvalid: OnInvalid): Record<K, boolean> {
  const out = {} as Record<K, boolean>;
  for (const name of Object.keys(defaults) as K[]) out[name] = flag(c, name, defaults[name], onInvalid);
  return out;
}

export interface PagingOptions {
  /** `limit` when absent. */
  default: number;
  max: number;
  /** Smallest `limit` (default 0). */
  min?: number;
  /** Read `limit`/`offset` from this body (integers) instead of the query string (digits). */
  body?: Json;
  /** false: the endpoint takes no `offset` (it is neither read nor checked; 0 is returned). */
  offset?: boolean;
}

/** `limit` (min…max, default `default`) and `offset` (≥ 0, default 0), from the query string or a body. */
export function paging(c: Context, opts: PagingOptions, onInvalid: OnInvalid): { limit: number; offset: number } {
  const min = opts.min ?? 0;
  const read = (name: string): number | undefined => {
    if (opts.body) {
      const v = opts.body[name];
      if (v === undefined || v === null) return undefined;
      if (typeof v === 'number' && Number.isInteger(v)) return v;
      return NaN;
    }
    const raw = c.req.query(name);
    if (raw === undefined || raw === '') return undefined;
    return /^\d+$/.test(raw) ? Number(raw) : NaN;
  };
  const shown = (name: string) => (opts.body ? JSON.stringify(opts.body[name]) : `"${c.req.query(name)}"`);
  const limit = read('limit') ?? opts.default;
  if (!(limit >= min && limit <= opts.max)) throw onInvalid(`"limit" must be an integer between ${min} and ${opts.max}, got ${shown('limit')}.`);
  const offset = opts.offset === false ? 0 : (read('offset') ?? 0);
  if (!(offset >= 0)) throw onInvalid(`"offset" must be an integer of 0 or more, got ${shown('offset')}.`);
  return { limit, offset };
}

/** An opaque cursor: the object, as base64url JSON. Only the twin that made it reads it. */
export function encodeCursor(o: Json): string {
  return Buffer.from(JSON.stringify(o), 'utf8').toString('base64url');
}

/** The object inside a cursor of `encodeCursor`, or undefined for anything else. */
export function decodeCursor(raw: string): Json | undefined {
  try {
    const o = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as unknown;
    return isObject(o) ? o : undefined;
  } catch {
    return undefined;
  }
}
