import type { PlatformEnv } from '../core/tool';
import { ToolError, rateLimited, type ErrorCode } from '../core/errors';
import { markRead } from '../core/dry-run';
import { isFormData } from '../core/vendor-fetch';

/**
 * What a vendor's error answer says, extracted by the platform client: each vendor puts its code,
 * message and retry delay somewhere else (body field, header, text of the message).
 */
export interface VendorError {
  code?: string;
  message?: string;
  /** Overrides the status-based mapping (e.g. a vendor 400 that really means a bad key, a rate limit sent as 420). */
  as?: ErrorCode;
  /** Seconds to wait before retrying, when the vendor says so (only used for RATE_LIMITED). */
  retryAfter?: number;
  /** The next step, when the client knows it better than the generic one (e.g. which kind of key an endpoint needs). */
  hint?: string;
  /** Details the vendor's answer tells (e.g. the parameter a NOT_FOUND is about), beside the upstream ones. */
  details?: Record<string, unknown>;
}

/** Used when a rate-limited vendor names no delay, in its body or in a Retry-After header. */
export const DEFAULT_RETRY_AFTER = 60;

/** The platform's env (base URL, fetch, timeout) spread in, plus the vendor's own parts. */
export interface UpstreamOptions extends PlatformEnv {
  headers: Record<string, string>;
  /** Reads the vendor's error answer (parsed JSON body, HTTP status, response headers). */
  describeError(body: unknown, status: number, headers: Headers): VendorError;
  /** Vendor name used in messages ("Tape"). */
  vendor: string;
  /** Retries of idempotent requests after a network error, timeout, 502/503/504 or a broken body. */
  retries?: number;
  retryDelayMs?: number;
}

export interface UpstreamRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  /** JSON-serialised, or sent as multipart when it is a FormData. */
  body?: unknown;
  /** Safe to send twice. Defaults to true for GET only: a repeated write may apply twice. */
  idempotent?: boolean;
  /**
   * Changes nothing at the vendor (a search sent as POST). Defaults to true for GET only. A dry run
   * (shared/core/dry-run.ts) sends reads and captures everything else, so an unmarked POST search is
   * shown as a planned write rather than sent. Not the same as `idempotent`: a PUT is idempotent.
   */
  read?: boolean;
  /**
   * 'bytes': the answer is a file, not JSON — the body comes back as a Uint8Array, under the same
   * deadline, retries and error mapping (an error answer is still read as the vendor's JSON).
   */
  response?: 'json' | 'bytes';
}

// What an idempotent request retries: a gateway failure. Not a 500: vendors answer it for requests
// that fail the same way every time (Tape, for an automation it cannot serialize). Nor a rate limit
// (429, or a vendor's own such as Podio's 420): the caller gets RATE_LIMITED with the vendor's delay.
const RETRYABLE = new Set([502, 503, 504]);

/** Time kept after the last vendor call for the answer itself, when the call has a deadline. */
export const DEADLINE_RESERVE_MS = 250;
/** A retry starts only with at least this much time left (and no less than the last attempt took). */
export const MIN_RETRY_MS = 500;

/** Why one attempt failed, and whether another may follow. */
type Failed = { error: ToolError; retryable: boolean };

/** The one fetch wrapper: timeout on every call, safe retries, vendor errors mapped to the catalogue. */
export function createUpstream(opts: UpstreamOptions) {
  const retries = opts.retries ?? 2;
  const delay = opts.retryDelayMs ?? 100;
  // The call's time budget (Lambda's remaining time): no vendor call may outlive it.
  const until = opts.deadline !== undefined && Number.isFinite(opts.deadline) ? opts.deadline - DEADLINE_RESERVE_MS : Number.POSITIVE_INFINITY;

  function request(req: UpstreamRequest & { response: 'bytes' }): Promise<Uint8Array>;
  function request<T>(req: UpstreamRequest): Promise<T>;
  async function request<T>(req: UpstreamRequest): Promise<T> {
    const url = new URL(opts.baseUrl.replace(/\/$/, '') + req.path);
    for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const idempotent = req.idempotent ?? req.method === 'GET';
    // A FormData body goes as multipart (fetch sets the boundary); anything else as JSON.
    const form = req.body !== undefined && isFormData(req.body);
    const init: RequestInit = {
      method: req.method,
      headers: { accept: req.response === 'bytes' ? '*/*' : 'application/json', ...(req.body !== undefined && !form ? { 'content-type': 'application/json' } : {}), ...opts.headers },
      ...(req.body !== undefined ? { body: form ? (req.body as FormData) : JSON.stringify(req.body) } : {}),
    };
    if (req.read ?? req.method === 'GET') markRead(init);
    const endpoint = `${req.method} ${url.pathname}`;

    if (until - Date.now() <= 0) {
      throw new ToolError('INTERNAL_ERROR', `The time budget of this call ran out before ${opts.vendor} was called (${endpoint}). Retry with fewer items or later.`, {
        upstream_status: null,
        reason: 'deadline',
      });
    }
    for (let attempt = 0; ; attempt++) {
      const started = Date.now();
      // The attempt's timer covers the answer and its body, and ends before the deadline.
      const timeoutMs = Math.max(1, Math.min(opts.timeoutMs, until - started));
      const outcome = await attemptOnce<T>(url, init, timeoutMs, endpoint, opts, req.response === 'bytes');
      if (!('error' in outcome)) return outcome.value;
      const wait = delay * 3 ** attempt;
      const left = until - Date.now() - wait;
      // A retry that could not finish before the deadline is not started.
      const canRetry = idempotent && outcome.retryable && attempt < retries && left >= Math.max(MIN_RETRY_MS, Date.now() - started);
      if (!canRetry) throw outcome.error;
      await sleep(wait);
    }
  }
  return request;
}

/**
 * The bytes behind a link the vendor handed out (a signed download URL on whatever host it names):
 * bytes mode with the platform's deadline, timeout, retries and error mapping, and no key sent
 * along — the link carries its own token, and a storage host must not see the caller's key.
 */
export function downloadLink(link: string, opts: Omit<UpstreamOptions, 'baseUrl' | 'headers'>): Promise<Uint8Array> {
  const url = new URL(link);
  return createUpstream({ ...opts, baseUrl: url.origin, headers: {} })({ method: 'GET', path: `${url.pathname}${url.search}`, response: 'bytes' });
}

/**
 * One request and its body, under one timer: the parsed body, or the mapped error. A plain timer,
 * not AbortSignal.timeout: Node drops the timer of a timeout signal nothing else references (a
 * request whose answer never comes), and the call would hang past its deadline.
 */
async function attemptOnce<T>(url: URL, init: RequestInit, timeoutMs: number, endpoint: string, opts: UpstreamOptions, bytes: boolean): Promise<{ value: T } | Failed> {
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(new DOMException(`timed out after ${timeoutMs} ms`, 'TimeoutError')), timeoutMs);
  try {
    return await exchange<T>(url, init, ctl.signal, timeoutMs, endpoint, opts, bytes);
  } finally {
    clearTimeout(timer);
  }
}

async function exchange<T>(url: URL, init: RequestInit, signal: AbortSignal, timeoutMs: number, endpoint: string, opts: UpstreamOptions, bytes: boolean): Promise<{ value: T } | Failed> {
  let res: Response;
  try {
    res = await opts.fetch(url, { ...init, signal });
  } catch (err) {
    return { error: unreachable(err, signal, null, timeoutMs, endpoint, opts), retryable: true };
  }
  if (RETRYABLE.has(res.status)) {
    // The body of a gateway failure is rarely the vendor's; read it (bounded by the timer) for a message.
    const text = await readText(res, signal).catch(() => '');
    return { error: mapError(res, parse(text) ?? {}, endpoint, opts), retryable: true };
  }
  if (bytes && res.ok) {
    try {
      return { value: (await readBody(res, signal, 'bytes')) as T };
    } catch (err) {
      return { error: unreachable(err, signal, res.status, timeoutMs, endpoint, opts), retryable: true };
    }
  }
  let text: string;
  try {
    text = await readText(res, signal);
  } catch (err) {
    // The headers came, the body did not (slow, dropped): as unknown as a timeout for a write.
    return { error: unreachable(err, signal, res.status, timeoutMs, endpoint, opts), retryable: true };
  }
  const body = text === '' ? {} : parse(text);
  // A file download's error page need not be JSON: its status still says what went wrong.
  if (body === undefined && bytes && !res.ok) return { error: mapError(res, {}, endpoint, opts), retryable: false };
  if (body === undefined) {
    const error = new ToolError('INTERNAL_ERROR', `${opts.vendor} answered ${res.status} with a body that is not JSON (${endpoint}).`, {
      upstream_status: res.status,
      reason: 'invalid_body',
    });
    return { error, retryable: true };
  }
  if (res.ok) return { value: body as T };
  return { error: mapError(res, body, endpoint, opts), retryable: false };
}

const readText = (res: Response, signal: AbortSignal) => readBody(res, signal, 'text') as Promise<string>;

/** The body as text or bytes, given up when the attempt's signal aborts (an in-process body ignores it otherwise). */
async function readBody(res: Response, signal: AbortSignal, as: 'text' | 'bytes'): Promise<string | Uint8Array> {
  if (signal.aborted) throw signal.reason;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => {
      void res.body?.cancel().catch(() => {});
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([as === 'text' ? res.text() : res.arrayBuffer().then((b) => new Uint8Array(b)), aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort!);
  }
}

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

/** No answer, or no whole body: timed out (the attempt's timer) or the connection failed. */
function unreachable(err: unknown, signal: AbortSignal, status: number | null, timeoutMs: number, endpoint: string, opts: UpstreamOptions): ToolError {
  const timedOut = signal.aborted || (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError'));
  const what = status === null ? 'did not answer' : `answered ${status} but did not send the whole body`;
  return new ToolError(
    'INTERNAL_ERROR',
    timedOut ? `${opts.vendor} ${what} within ${timeoutMs} ms (${endpoint}).` : `${opts.vendor} could not be reached (${endpoint}).`,
    timedOut ? { upstream_status: status, reason: 'timeout', timeout_ms: timeoutMs } : { upstream_status: status, reason: 'network' },
  );
}

/**
 * A vendor's 400 (or 409) names the vendor's own fields, or nothing; the client knows which tool
 * input it sent in each, so it names it (INVALID_PARAMETER with `details.parameter`, the vendor's
 * message kept). `sent`: a pattern of the vendor's message → the tool's parameter, first match
 * wins; `only`: the parameter named whatever the message says, when it is the only input the
 * request carried.
 */
export async function naming<T>(call: Promise<T>, sent: Record<string, string>, only?: string): Promise<T> {
  try {
    return await call;
  } catch (e) {
    if (!(e instanceof ToolError) || e.code !== 'INVALID_PARAMETER' || e.details.parameter !== UNNAMED) throw e;
    // Only the vendor's words (mapError below keeps them in details.vendor_message).
    const said = typeof e.details.vendor_message === 'string' ? e.details.vendor_message : '';
    const parameter = Object.entries(sent).find(([pattern]) => new RegExp(`\\b(${pattern})\\b`).test(said))?.[1] ?? only;
    if (parameter === undefined) throw e;
    throw new ToolError(e.code, e.message, { ...e.details, parameter }, e.headers);
  }
}

/** A vendor message may echo what was sent (a 1 MB value comes back as a 1 MB message): keep its start. */
export const MAX_VENDOR_MESSAGE = 500;
const capped = (message: string) => (message.length > MAX_VENDOR_MESSAGE ? `${message.slice(0, MAX_VENDOR_MESSAGE - 1)}…` : message);

/**
 * `details.parameter` of a vendor 400 no tool input could be named for: the request as a whole
 * (the word validation uses for the body). naming() replaces it when the vendor's words name an input.
 */
export const UNNAMED = '(body)';

/** "view 5", "deals 1361", "item 30062": the last `<word>/<id>` pair of a vendor path, what a refusal was about. */
function subjectOf(endpoint: string): string | undefined {
  const parts = endpoint.split(' ')[1]?.split('/').filter(Boolean) ?? [];
  for (let i = parts.length - 1; i > 0; i--) {
    if (/\d/.test(parts[i]!) && !/\d/.test(parts[i - 1]!)) return `${decodeURIComponent(parts[i - 1]!)} ${decodeURIComponent(parts[i]!)}`;
  }
  return undefined;
}

/**
 * A vendor's error answer as the catalogue's error. Messages carry the vendor's words and the next
 * step, never the vendor's URL path (an agent cannot call it): that goes to `details.upstream_path`.
 */
function mapError(res: Response, body: unknown, endpoint: string, opts: UpstreamOptions): ToolError {
  return vendorError(opts.vendor, res.status, res.headers, opts.describeError(body, res.status, res.headers), endpoint);
}

/**
 * The catalogue's error for a vendor's error answer (`status` the HTTP status, or the status a
 * vendor's envelope names on a 200), `endpoint` the call as "METHOD /path": the one mapping every
 * platform shares, also for clients that read errors out of a 200's body.
 */
export function vendorError(name: string, status: number, headers: Headers, vendor: VendorError, endpoint: string): ToolError {
  const opts = { vendor: name };
  const res = { status, headers };
  const words = vendor.message ? capped(vendor.message) : undefined;
  const said = words ? `: ${words.replace(/[.\s]+$/, '')}` : '';
  const details = { ...vendor.details, upstream_status: res.status, upstream_path: endpoint, ...(vendor.code ? { upstream_code: vendor.code } : {}), ...(words ? { vendor_message: words } : {}) };
  const code: ErrorCode | undefined = vendor.as ?? statusCode(res.status);
  const next = vendor.hint ? ` ${vendor.hint}` : '';
  if (code === 'RATE_LIMITED') return rateLimited(retryAfter(vendor, res.headers), `${opts.vendor} rate limit reached${said}`, details);
  if (code === 'FORBIDDEN') {
    // The same three facts on every platform: what is missing, on what, how to get it.
    const on = subjectOf(endpoint);
    const how = vendor.hint ?? `Ask an admin or the owner of ${on ?? 'it'} in ${opts.vendor} to grant this key's user access, or call with a key that has it.`;
    return new ToolError(code, `The key is valid but lacks the permission for this operation${on ? ` on ${on}` : ''} in ${opts.vendor}${said}. ${how}`, { ...details, ...(on ? { subject: on } : {}) });
  }
  if (code === 'INVALID_PARAMETER') {
    return new ToolError(code, `${opts.vendor} refused the request${said}.${next}`, { ...details, parameter: UNNAMED, expected: `a request ${opts.vendor} accepts (its message says what it refused)` });
  }
  if (code) return new ToolError(code, `${opts.vendor} refused the request${said}.${next}`, details);
  return new ToolError('INTERNAL_ERROR', `${opts.vendor} failed with HTTP ${res.status}${said}.`, details);
}

/** The vendor's own delay first, then the standard Retry-After header (seconds or an HTTP date), then the default. */
function retryAfter(vendor: VendorError, headers: Headers): number {
  if (vendor.retryAfter !== undefined && Number.isFinite(vendor.retryAfter) && vendor.retryAfter >= 0) return Math.ceil(vendor.retryAfter);
  const header = headers.get('retry-after')?.trim();
  if (header) {
    if (/^\d+(\.\d+)?$/.test(header)) return Math.ceil(Number(header));
    const at = Date.parse(header);
    if (Number.isFinite(at)) return Math.max(1, Math.ceil((at - Date.now()) / 1000));
  }
  return DEFAULT_RETRY_AFTER;
}

function statusCode(status: number): ErrorCode | undefined {
  if (status === 400 || status === 409 || status === 422) return 'INVALID_PARAMETER';
  if (status === 401) return 'UNAUTHORIZED';
  if (status === 403) return 'FORBIDDEN';
  if (status === 404) return 'NOT_FOUND';
  if (status === 429) return 'RATE_LIMITED';
  return undefined;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
