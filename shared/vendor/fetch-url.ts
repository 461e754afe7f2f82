import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { bareHost, checkUrl, defaultResolver, refuse, vet, type Resolver, type UrlRules, type Vetted } from './address-rules';
import { ToolError } from '../core/errors';
import { fileNameFrom } from '../core/file-name';

/**
 * SSRF-guarded download of a caller-supplied URL. The only way the service fetches a URL it was given:
 * - the URL and every address of its host pass the rules of shared/vendor/address-rules.ts;
 * - the connection goes to the vetted address (custom `lookup`), never to a second DNS answer, while
 *   SNI, certificate check and Host header keep the hostname: no DNS rebinding;
 * - redirects are followed by hand (at most 5) and every hop is checked again;
 * - size (25 MB) and total time (15 s) are capped; reading stops at the cap.
 * Every refusal is INVALID_PARAMETER naming the caller's parameter path and the rule that refused it.
 */

export interface FetchUrlOptions extends UrlRules {
  /** Largest body accepted, in bytes (default 25 MB). */
  maxBytes?: number;
  /** Time for the whole download, DNS and redirects included (default 15 s). */
  timeoutMs?: number;
  /** Redirects followed at most (default 5). */
  maxRedirects?: number;
  /** DNS resolution; default node:dns/promises lookup with all:true. */
  resolve?: Resolver;
  /** Extra trusted CA certificates (PEM) for https: a private CA, or a test's self-signed certificate. */
  ca?: string | Buffer;
  /** Bytes left for several downloads of one call together; decremented as data arrives. */
  budget?: { remaining: number; limit: number };
  /** Aborts the download (e.g. a sibling download of the same call failed). */
  signal?: AbortSignal;
  /** A POST instead of a GET (a notice the service sends, shared/identity/approvals.ts): its body and headers; redirects are not followed. */
  send?: { body: string; headers: Record<string, string> };
}

export interface FetchedFile {
  bytes: Buffer;
  /** Media type without parameters; application/octet-stream when the server sent none. */
  contentType: string;
  /** From Content-Disposition, else the last segment of the URL path, else "download". */
  fileName: string;
  /** The URL the bytes came from (after redirects). */
  url: string;
  /** The answer's caching headers (RFC 9111), for a caller that keeps the document: Cache-Control, Expires, Age. */
  caching?: { cacheControl?: string; expires?: string; age?: string };
}

export const FETCH_LIMITS = { maxBytes: 25 * 1024 * 1024, timeoutMs: 15_000, maxRedirects: 5 } as const;

const USER_AGENT = 'tool-execution-service (file fetch)';

function get(url: URL, to: Vetted, opts: FetchUrlOptions, signal: AbortSignal): Promise<IncomingMessage> {
  const host = bareHost(url.hostname);
  // Hands the connection the vetted address: no second DNS answer can redirect it elsewhere.
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: to.address, family: to.family }]);
    else callback(null, to.address, to.family);
  };
  const common = {
    hostname: host,
    port: url.port || undefined,
    path: `${url.pathname}${url.search}`,
    method: opts.send ? 'POST' : 'GET',
    headers: { 'user-agent': USER_AGENT, accept: '*/*', 'accept-encoding': 'identity', ...opts.send?.headers, ...(opts.send ? { 'content-length': String(Buffer.byteLength(opts.send.body)) } : {}) },
    lookup,
    family: to.family,
    agent: false as const,
    signal,
  };
  return new Promise((resolve, reject) => {
    const req =
      url.protocol === 'https:'
        ? https.request({ ...common, ...(isIP(host) ? {} : { servername: host }), ...(opts.ca ? { ca: opts.ca } : {}) }, resolve)
        : http.request(common, resolve);
    req.on('error', reject);
    req.end(opts.send?.body);
  });
}

function readBody(res: IncomingMessage, subject: string, opts: FetchUrlOptions, maxBytes: number): Promise<Buffer> {
  const mb = (n: number) => `${Math.round((n / (1024 * 1024)) * 10) / 10} MB`;
  const tooLarge = () => refuse(opts, 'too_large', `${subject} is larger than ${mb(maxBytes)}, the most fetched per file. Pass a smaller file.`, { max_bytes: maxBytes });
  const overBudget = (b: NonNullable<FetchUrlOptions['budget']>) =>
    refuse(opts, 'too_large', `${subject}: the files of this call together exceed ${mb(b.limit)}. Send fewer or smaller files per call.`, { max_total_bytes: b.limit });
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    res.destroy();
    return Promise.reject(tooLarge());
  }
  if (opts.budget && Number.isFinite(declared) && declared > opts.budget.remaining) {
    res.destroy();
    return Promise.reject(overBudget(opts.budget));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        res.destroy();
        reject(tooLarge());
        return;
      }
      if (opts.budget) {
        opts.budget.remaining -= chunk.length;
        if (opts.budget.remaining < 0) {
          res.destroy();
          reject(overBudget(opts.budget));
          return;
        }
      }
      chunks.push(chunk);
    });
    res.on('end', () => resolve(Buffer.concat(chunks, size)));
    res.on('error', reject);
    res.on('close', () => {
      if (!res.complete) reject(new Error('connection closed before the body ended'));
    });
  });
}

/** Downloads a caller-supplied URL under the rules above. */
export async function fetchUrl(raw: string, opts: FetchUrlOptions): Promise<FetchedFile> {
  const timeoutMs = opts.timeoutMs ?? FETCH_LIMITS.timeoutMs;
  const maxBytes = opts.maxBytes ?? FETCH_LIMITS.maxBytes;
  const maxRedirects = opts.maxRedirects ?? FETCH_LIMITS.maxRedirects;
  const resolve = opts.resolve ?? defaultResolver;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const aborted = new Promise<never>((_, reject) => {
    controller.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
  });
  aborted.catch(() => {});
  const onOuterAbort = () => controller.abort();
  if (opts.signal?.aborted) controller.abort();
  else opts.signal?.addEventListener('abort', onOuterAbort, { once: true });
  let subject = `"${raw}"`;
  try {
    let url = checkUrl(raw, opts, subject);
    for (let hop = 0; ; hop++) {
      const to = await Promise.race([vet(url, subject, opts, resolve), aborted]);
      const res = await Promise.race([get(url, to, opts, controller.signal), aborted]);
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (status >= 300 && status < 400 && location && !opts.send) {
        res.destroy();
        if (hop >= maxRedirects) {
          throw refuse(opts, 'redirects', `"${raw}" redirects more than ${maxRedirects} times. Pass the final URL of the file.`);
        }
        let next: URL;
        try {
          next = new URL(location, url);
        } catch {
          throw refuse(opts, 'redirects', `"${raw}" redirects to an invalid URL ("${location}").`);
        }
        subject = `"${raw}" redirects to "${next.href}", which`;
        url = checkUrl(next.href, opts, subject);
        subject = `"${raw}" (redirected to "${next.href}")`;
        continue;
      }
      if (status < 200 || status >= 300) {
        res.destroy();
        throw refuse(opts, 'http_status', `${subject} answered HTTP ${status}; the file could not be downloaded. Check that the URL is public and current.`, {
          http_status: status,
        });
      }
      const bytes = await Promise.race([readBody(res, subject, opts, maxBytes), aborted]);
      const contentType = (res.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase() || 'application/octet-stream';
      const h = res.headers;
      const caching = { ...(h['cache-control'] ? { cacheControl: h['cache-control'] } : {}), ...(h.expires ? { expires: h.expires } : {}), ...(h.age ? { age: String(h.age) } : {}) };
      return { bytes, contentType, fileName: fileNameFrom(res.headers['content-disposition'], url, contentType), url: url.href, caching };
    }
  } catch (err) {
    if (err instanceof ToolError) throw err;
    if (controller.signal.aborted && !opts.signal?.aborted) {
      throw refuse(opts, 'timeout', `${subject} did not finish downloading within ${timeoutMs / 1000} s. Pass a faster or smaller file.`, { timeout_ms: timeoutMs });
    }
    const code = (err as { code?: string }).code;
    throw refuse(opts, 'network', `${subject} could not be downloaded (${code ?? (err instanceof Error ? err.message : String(err))}). Check the URL.`);
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onOuterAbort);
  }
}
