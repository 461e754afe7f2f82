import type { APIGatewayProxyEvent, APIGatewayProxyEventV2 } from 'aws-lambda';
import type { WrittenEnvelope } from '../core/envelope';
import { ToolError } from '../core/errors';
import { textOf } from '../http/text-body';

/** An API Gateway proxy event: REST API (payload 1.0) or HTTP API (payload 2.0). */
export type HttpEvent = APIGatewayProxyEvent | APIGatewayProxyEventV2;

/** What API Gateway takes back from a proxy integration (both payload versions). */
export interface HttpResult {
  statusCode: number;
  body: string;
  isBase64Encoded: boolean;
  headers?: Record<string, string>;
  multiValueHeaders?: Record<string, string[]>;
  /** Payload 2.0: each Set-Cookie header on its own. */
  cookies?: string[];
}

/** The Hono app's entry, as `app.fetch` takes it: the Lambda bindings are in `env`. */
export type FetchApp = { fetch(request: Request, env: Record<string, unknown>): Response | Promise<Response> };

/** Payload 2.0 carries rawPath and requestContext.http (the AWS developer guide's "payload format version"). */
export const isV2 = (e: HttpEvent): e is APIGatewayProxyEventV2 => 'rawPath' in e && typeof (e.requestContext as { http?: unknown } | null)?.http === 'object';

const NON_ASCII = /[^\x00-\x7F]/;
/** A header value with non-ASCII characters, percent-encoded: what Headers would otherwise refuse (as hono's Lambda adapter does). */
const headerValue = (v: string): string => (NON_ASCII.test(v) ? encodeURIComponent(v) : v);

/**
 * The request's headers by lower-case name, as the Headers of a Request would give them: a 2.0
 * event's are lower-case and joined already; a 1.0 event's multi-value headers are joined with ", "
 * and its single-value map fills only the names they lack. Payload 2.0 sends cookies apart.
 */
export function eventHeaders(event: HttpEvent): Map<string, string> {
  const out = new Map<string, string>();
  const put = (k: string, v: string) => {
    const name = k.toLowerCase();
    const had = out.get(name);
    out.set(name, had === undefined ? headerValue(v) : `${had}, ${headerValue(v)}`);
  };
  if (isV2(event)) {
    if (Array.isArray(event.cookies) && event.cookies.length) out.set('cookie', event.cookies.join('; '));
    for (const k in event.headers) {
      const v = event.headers[k];
      if (v) out.set(k.toLowerCase(), headerValue(v));
    }
    return out;
  }
  const multi = event.multiValueHeaders;
  if (multi) for (const k in multi) for (const v of multi[k] ?? []) put(k, v);
  const single = event.headers;
  if (single) for (const k in single) if (single[k] && !out.has(k.toLowerCase())) out.set(k.toLowerCase(), headerValue(single[k]!));
  return out;
}

/** The query string: a 2.0 event's as sent; a 1.0 event's rebuilt from its maps, every value of a repeated key kept. */
export function eventQuery(event: HttpEvent): string {
  if (isV2(event)) return event.rawQueryString ?? '';
  const e = encodeURIComponent;
  if (event.multiValueQueryStringParameters) {
    return Object.entries(event.multiValueQueryStringParameters)
      .flatMap(([k, vs]) => (vs ?? []).map((v) => `${e(k)}=${e(v)}`))
      .join('&');
  }
  return Object.entries(event.queryStringParameters ?? {})
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${e(k)}=${e(v ?? '')}`)
    .join('&');
}

/** The method and the path (without the REST API's stage: `path` is the resource path, rawPath the HTTP API's). */
export const eventMethod = (event: HttpEvent): string => (isV2(event) ? event.requestContext.http.method : event.httpMethod);
export const eventPath = (event: HttpEvent): string => (isV2(event) ? event.rawPath : event.path);

/** The body as bytes: base64-decoded when the event says so (API Gateway's binary media types). */
export function eventBody(event: HttpEvent): Buffer | undefined {
  if (!event.body) return undefined;
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64') : Buffer.from(event.body, 'utf8');
}

/**
 * The body as text, as Request.text() decodes it (https://encoding.spec.whatwg.org/#utf-8-decode):
 * UTF-8 with a leading byte-order mark dropped and malformed sequences as U+FFFD.
 */
export function eventText(event: HttpEvent): string {
  const raw = event.body;
  if (!raw) return '';
  const text = event.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : (raw as WellFormed).toWellFormed();
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** String.prototype.toWellFormed (ES2024; Node 20+): lone surrogates as U+FFFD, as a UTF-8 round trip leaves them. */
type WellFormed = string & { toWellFormed(): string };

/** The body's size in bytes, without decoding it (base64: 3 bytes per 4 characters, less the padding). */
export function eventBodyBytes(event: HttpEvent): number {
  const raw = event.body;
  if (!raw) return 0;
  if (!event.isBase64Encoded) return Buffer.byteLength(raw, 'utf8');
  const pad = raw.endsWith('==') ? 2 : raw.endsWith('=') ? 1 : 0;
  return (raw.length / 4) * 3 - pad;
}

/** The event as a WHATWG Request for the Hono app (routes other than a tool call). */
export function toRequest(event: HttpEvent): Request {
  const headers = eventHeaders(event);
  const host = (event.requestContext as { domainName?: string }).domainName ?? headers.get('host') ?? 'localhost';
  const query = eventQuery(event);
  const url = `https://${host}${eventPath(event)}${query ? `?${query}` : ''}`;
  const body = eventBody(event);
  if (body) headers.set('content-length', String(body.length));
  return new Request(url, { method: eventMethod(event), headers: [...headers], ...(body ? { body } : {}) });
}

/** Content types API Gateway must receive base64 (anything not text, JSON or XML), as hono's Lambda adapter decides. */
const TEXT_TYPE = /^text\/(?:plain|html|css|javascript|csv)|(?:\/|\+)(?:json|xml)\s*(?:;|$)/i;
const BINARY_XML = /^application\/vnd\.(?:apple\.installer|mozilla\.xul)\+xml\s*(?:;|$)/i;
export const isBinaryType = (contentType: string): boolean => BINARY_XML.test(contentType) || !TEXT_TYPE.test(contentType);

/**
 * A Response as API Gateway's proxy result: binary bodies (by content type, or any content
 * encoding but identity) in base64; a 1.0 event's headers as multiValueHeaders when it came with
 * them; Set-Cookie headers each on their own (2.0: `cookies`; 1.0: multiValueHeaders).
 */
export async function toResult(event: HttpEvent, res: Response): Promise<HttpResult> {
  const type = res.headers.get('content-type');
  const encoding = res.headers.get('content-encoding');
  const binary = (type !== null && isBinaryType(type)) || (encoding !== null && !/^identity$/i.test(encoding));
  // The text our code made the answer with (shared/http/text-body.ts), as it is: no copy read back.
  const made = binary ? undefined : textOf(res);
  let body: string;
  if (made !== undefined) body = made.charCodeAt(0) === 0xfeff ? made.slice(1) : made;
  else {
    const bytes = Buffer.from(await res.arrayBuffer());
    // Text as Response.text() decodes it (UTF-8, a leading byte-order mark dropped), by Buffer's
    // decoder: several times faster than the TextDecoder text() uses, on lists of hundreds of KB.
    const text = binary ? '' : bytes.toString('utf8');
    body = binary ? bytes.toString('base64') : text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  }
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  return resultOf(event, { status: res.status, headers, body }, binary, res.headers.getSetCookie());
}

/** Headers (names in lower case, as a Response gives them) and cookies into the result shape of the event's payload version. */
export function resultOf(event: HttpEvent, written: WrittenEnvelope, isBase64Encoded = false, cookies: string[] = []): HttpResult {
  const headers: Record<string, string> = {};
  for (const k in written.headers) headers[k.toLowerCase()] = written.headers[k]!;
  const result: HttpResult = { body: written.body, statusCode: written.status, isBase64Encoded };
  if (!isV2(event) && event.multiValueHeaders) {
    const multi: Record<string, string[]> = {};
    for (const k in headers) multi[k] = [headers[k]!];
    if (cookies.length) multi['set-cookie'] = cookies;
    result.multiValueHeaders = multi;
  } else {
    result.headers = headers;
    if (cookies.length) {
      if (isV2(event)) result.cookies = cookies;
      else result.multiValueHeaders = { 'set-cookie': cookies };
    }
  }
  return result;
}

/** The Hono app as a Lambda handler for API Gateway events (in place of hono/aws-lambda's, which builds the same Request). */
export function httpAdapter(app: FetchApp) {
  return async (event: HttpEvent, lambdaContext: unknown): Promise<HttpResult> =>
    toResult(event, await app.fetch(requestOf(event), { event, requestContext: event.requestContext, lambdaContext }));
}

/** An event no API Gateway sends: answered INVALID_PARAMETER (event), never a bare text answer or a thrown error. */
export const badEvent = (problem: string) => new ToolError('INVALID_PARAMETER', `Malformed API Gateway event: ${problem}.`, { parameter: '(event)', expected: 'an API Gateway HTTP API (2.0) or REST (1.0) proxy event' });

/** The event as a Request; one Request refuses (a header value with a line break) is a malformed event. */
function requestOf(event: HttpEvent): Request {
  try {
    return toRequest(event);
  } catch (err) {
    if (err instanceof TypeError) throw badEvent(`it makes no valid HTTP request (${err.message})`);
    throw err;
  }
}
