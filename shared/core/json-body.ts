import type { Context, MiddlewareHandler } from 'hono';
import { ToolError, invalidParameter } from './errors';
import { duplicateKeyError, duplicateKeyPath, MAX_NESTING } from './validate';

/**
 * Reading a JSON request body. V8's JSON.parse is not recursive, but deep nesting costs it
 * seconds (a 6 MB body of nested arrays: ~4 s of CPU) before validation could refuse it; the
 * depth is therefore checked first, by one linear scan of the text that stops at the first
 * bracket too deep. A flat body costs that scan plus the parse; a hostile one less than either.
 */

/** The index of the quote closing the JSON string opened at `open` (escapes skipped), or the text's end. */
export function stringEnd(text: string, open: number): number {
  // The next quote by indexOf (native, not a character loop: strings are most of a body); it closes
  // the string unless an odd run of backslashes stands right before it.
  for (let i = text.indexOf('"', open + 1); i >= 0; i = text.indexOf('"', i + 1)) {
    let slashes = 0;
    for (let k = i - 1; k > open && text.charCodeAt(k) === 0x5c /* \ */; k--) slashes++;
    if (slashes % 2 === 0) return i;
  }
  return text.length;
}

/**
 * The path (keys and array indexes from the root) of the first array or object that opens more
 * than `max` levels deep, in one pass over `text` (strings skipped, escapes honoured); undefined
 * when there is none. Only brackets, commas and keys are read: text that is not JSON is the
 * parser's to refuse. The path is as deep as `max` at most, so the scan stays linear in the text.
 */
export function nestedTooDeep(text: string, max: number): string[] | undefined {
  // Per open level: an object's key being read (as text offsets) or an array's index.
  const isObject: boolean[] = [];
  const keyAt: [number, number][] = [];
  const index: number[] = [];
  let expectKey = false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const start = i;
      i = stringEnd(text, i);
      if (expectKey) {
        keyAt[depth - 1] = [start, i];
        expectKey = false;
      }
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (depth === max) return pathOf(text, depth, isObject, keyAt, index);
      isObject[depth] = c === 0x7b;
      index[depth] = 0;
      expectKey = c === 0x7b;
      depth++;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      if (depth > 0) depth--;
      expectKey = false;
    } else if (c === 0x2c /* , */ && depth > 0) {
      if (isObject[depth - 1]) expectKey = true;
      else index[depth - 1]! += 1;
    }
  }
  return undefined;
}

function pathOf(text: string, depth: number, isObject: boolean[], keyAt: [number, number][], index: number[]): string[] {
  const path: string[] = [];
  for (let l = 0; l < depth; l++) {
    if (!isObject[l]) path.push(String(index[l]));
    else {
      const [start, end] = keyAt[l] ?? [0, -1];
      let key = '';
      try {
        key = String(JSON.parse(text.slice(start, end + 1)));
      } catch {
        key = text.slice(start + 1, end);
      }
      path.push(key);
    }
  }
  return path;
}

const at = (path: readonly string[]) => {
  const p = path.join('.') || '(body)';
  return p.length > 80 ? `${p.slice(0, 77)}...` : p;
};

/** INVALID_PARAMETER for parameters nested deeper than `max` levels, at `path` (as validation words it). */
export function tooDeepError(path: readonly string[], max: number): ToolError {
  return invalidParameter(
    at(path),
    `at most ${max} levels of nested arrays and objects`,
    `Parameter "${path[0] ?? '(body)'}" is nested deeper than ${max} levels of arrays and objects (at "${at(path)}"). No parameter of this tool nests that deep: send the shape its description shows.`,
  );
}

/** What a body that is not JSON is told: a JSON object of the tool's parameters, like the tool's own example. */
export function notJsonError(example: unknown = {}): ToolError {
  let shown = JSON.stringify(example) ?? '{}';
  if (shown.length > 300) shown = '{}';
  return new ToolError('INVALID_PARAMETER', `The request body is not valid JSON. Send a JSON object of the tool parameters, e.g. ${shown}.`, {
    parameter: '(body)',
    expected: 'JSON object',
  });
}

/** The outcome of reading a body: the value, or why it was refused (`not_json`: the tool's example is added by execute). */
export type BodyRead = { ok: true; value: unknown } | { ok: false; refused: ToolError | 'not_json' };

/**
 * A JSON text as a value: depth checked before parsing (at most `maxDepth` levels), then parsed,
 * then each key once per object (a duplicate is refused by name: shared/core/validate.ts).
 */
export function readJson(text: string, maxDepth = MAX_NESTING): BodyRead {
  const deep = nestedTooDeep(text, maxDepth);
  // Parameters are an object: under any other root the body itself is what is wrong.
  if (deep) return { ok: false, refused: tooDeepError(text.trimStart().startsWith('{') ? deep : [], maxDepth) };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, refused: 'not_json' };
  }
  const duplicate = duplicateKeyPath(text);
  return duplicate ? { ok: false, refused: duplicateKeyError(duplicate) } : { ok: true, value };
}

/**
 * A body read up to `maxBytes`, or undefined once it is larger. A declared Content-Length over the
 * limit is refused before a byte is read; a streamed (chunked) body is read chunk by chunk and the
 * stream cancelled at the first byte past the limit, so no route ever holds more than `maxBytes` of
 * a body, whatever the sender says or leaves out. The one bounded reader: of every route's request
 * body, and of the few vendor answers read outside a platform's client (shared/identity/oauth.ts).
 */
export async function readBounded(message: Pick<Request | Response, 'headers' | 'body'>, maxBytes: number): Promise<Uint8Array | undefined> {
  const declared = message.headers.get('content-length');
  if (declared !== null && Number(declared) > maxBytes) {
    await message.body?.cancel().catch(() => undefined);
    return undefined;
  }
  if (!message.body) return new Uint8Array(0);
  const reader = message.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}

/**
 * Hono middleware bounding a route's body (readBounded): larger → the route's own refusal
 * (`tooLarge`); otherwise the request goes on with its body in memory, read as usual (text, json, form).
 */
export function boundedBody<C extends Context>(maxBytes: number | ((c: C) => number), tooLarge: (c: C) => Response | Promise<Response>): MiddlewareHandler {
  return async (c, next) => {
    const ctx = c as C;
    if (!c.req.raw.body) return next();
    const bytes = await readBounded(c.req.raw, typeof maxBytes === 'function' ? maxBytes(ctx) : maxBytes);
    if (!bytes) return tooLarge(ctx);
    c.req.raw = new Request(c.req.raw, { body: bytes });
    return next();
  };
}
