import type { PlatformEnv } from './tool';
import { ToolError, rateLimited, type ErrorCode } from './errors';
import { markRead } from './dry-run';

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
  /** Retries of idempotent requests after a network error, timeout or 502/503/504. */
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
   * (shared/dry-run.ts) sends reads and captures everything else, so an unmarked POST search is
   * shown as a planned write rather than sent. Not the same as `idempotent`: a PUT is idempotent.
   */
  read?: boolean;
}

// Only gateway failures are retried; a rate limit (429, or a vendor's own such as Podio's 420)
// never is: the caller gets RATE_LIMITED with the vendor's delay instead.
const RETRYABLE = new Set([502, 503, 504]);

/** The one fetch wrapper: timeout on every call, safe retries, vendor errors mapped to the catalogue. */
export function createUpstream(opts: UpstreamOptions) {
  const retries = opts.retries ?? 2;
  const delay = opts.retryDelayMs ?? 100;

  return async function request<T>(req: UpstreamRequest): Promise<T> {
    const url = new URL(opts.baseUrl.replace(/\/$/, '') + req.path);
    for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const idempotent = req.idempotent ?? req.method === 'GET';
    // A FormData body goes as multipart (fetch sets the boundary); anything else as JSON.
    const form = req.body instanceof FormData;
    const init: RequestInit = {
      method: req.method,
      headers: { accept: 'application/json', ...(req.body !== undefined && !form ? { 'content-type': 'application/json' } : {}), ...opts.headers },
      ...(req.body !== undefined ? { body: form ? (req.body as FormData) : JSON.stringify(req.body) } : {}),
    };
    if (req.read ?? req.method === 'GET') markRead(init);
    const endpoint = `${req.method} ${url.pathname}`;

    for (let attempt = 0; ; attempt++) {
      const canRetry = idempotent && attempt < retries;
      let res: Response;
      try {
        res = await opts.fetch(url, { ...init, signal: AbortSignal.timeout(opts.timeoutMs) });
      } catch (err) {
        if (canRetry) {
          await sleep(delay * 3 ** attempt);
          continue;
        }
        const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
        throw new ToolError(
          'INTERNAL_ERROR',
          timedOut ? `${opts.vendor} did not answer within ${opts.timeoutMs} ms (${endpoint}).` : `${opts.vendor} could not be reached (${endpoint}).`,
          { upstream_status: null, reason: timedOut ? 'timeout' : 'network' },
        );
      }
      if (RETRYABLE.has(res.status) && canRetry) {
        await res.body?.cancel();
        await sleep(delay * 3 ** attempt);
        continue;
      }
      const text = await res.text();
      let body: unknown;
      try {
        body = text === '' ? {} : JSON.parse(text);
      } catch {
        throw new ToolError('INTERNAL_ERROR', `${opts.vendor} answered ${res.status} with a body that is not JSON (${endpoint}).`, {
          upstream_status: res.status,
        });
      }
      if (res.ok) return body as T;
      throw mapError(res, body, endpoint, opts);
    }
  };
}

/** A vendor message may echo what was sent (a 1 MB value comes back as a 1 MB message): keep its start. */
export const MAX_VENDOR_MESSAGE = 500;
const capped = (message: string) => (message.length > MAX_VENDOR_MESSAGE ? `${message.slice(0, MAX_VENDOR_MESSAGE - 1)}…` : message);

function mapError(res: Response, body: unknown, endpoint: string, opts: UpstreamOptions): ToolError {
  const vendor = opts.describeError(body, res.status, res.headers);
  const said = vendor.message ? `: ${capped(vendor.message)}` : '';
  const details = { upstream_status: res.status, ...(vendor.code ? { upstream_code: vendor.code } : {}) };
  const code: ErrorCode | undefined = vendor.as ?? statusCode(res.status);
  if (code === 'RATE_LIMITED') return rateLimited(retryAfter(vendor, res.headers), `${opts.vendor} rate limit reached${said}`, details);
  if (code) return new ToolError(code, `${opts.vendor} rejected ${endpoint}${said}`, details);
  return new ToolError('INTERNAL_ERROR', `${opts.vendor} failed on ${endpoint} with HTTP ${res.status}${said}`, details);
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
