import { lookup as dnsLookup } from 'node:dns/promises';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { invalidParameter, ToolError } from './errors';

/**
 * SSRF-guarded download of a caller-supplied URL (docs/architecture.md#security). The only way the service fetches
 * a URL it was given:
 * - https only; plain http only for the hosts of `allowHttpHosts` (ALLOW_HTTP_HOSTS, local development),
 *   which also lifts the address check for exactly those hosts;
 * - the host is resolved once and EVERY address checked against the refused ranges (loopback, private,
 *   link-local and the metadata address, CGNAT, unique-local, multicast, reserved, IPv4-mapped forms);
 * - the connection goes to the vetted address (custom `lookup`), never to a second DNS answer, while
 *   SNI, certificate check and Host header keep the hostname: no DNS rebinding;
 * - redirects are followed by hand (at most 5) and every hop is checked again;
 * - size (25 MB) and total time (15 s) are capped; reading stops at the cap.
 * Every refusal is INVALID_PARAMETER naming the caller's parameter path and the rule that refused it.
 */

export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export interface FetchUrlOptions {
  /** Parameter path named in errors, e.g. `fields.attachments.0`. */
  parameter: string;
  /** Hosts for which http and non-public addresses are allowed (lowercase host names or IP literals). */
  allowHttpHosts?: readonly string[];
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
}

export interface FetchedFile {
  bytes: Buffer;
  /** Media type without parameters; application/octet-stream when the server sent none. */
  contentType: string;
  /** From Content-Disposition, else the last segment of the URL path, else "download". */
  fileName: string;
  /** The URL the bytes came from (after redirects). */
  url: string;
}

export const FETCH_LIMITS = { maxBytes: 25 * 1024 * 1024, timeoutMs: 15_000, maxRedirects: 5 } as const;

const EXPECTED = 'https URL of a file on the public internet';
const USER_AGENT = 'tool-execution-service (file fetch)';

const defaultResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

type Reason = 'invalid_url' | 'scheme' | 'credentials' | 'port' | 'dns' | 'address' | 'redirects' | 'http_status' | 'too_large' | 'timeout' | 'network';

/** What a refusal says is expected, and what the service does with the URL: a file it fetches, or a target a vendor calls. */
interface Words {
  expected: string;
  /** "fetched", "accepted as a webhook target" */
  done: string;
  /** "Only files on the public internet are fetched." */
  publicOnly: string;
}

const FETCHED: Words = { expected: EXPECTED, done: 'fetched', publicOnly: 'Only files on the public internet are fetched.' };

function refuse(opts: Pick<FetchUrlOptions, 'parameter'> & { words?: Words }, reason: Reason, message: string, extra: Record<string, unknown> = {}): ToolError {
  return invalidParameter(opts.parameter, (opts.words ?? FETCHED).expected, `Parameter "${opts.parameter}": ${message}`, { reason, ...extra });
}

/** URL.hostname without the brackets of an IPv6 literal and without a trailing dot. */
function bareHost(hostname: string): string {
  return hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
}

function isAllowedHost(host: string, opts: Pick<FetchUrlOptions, 'allowHttpHosts'>): boolean {
  return (opts.allowHttpHosts ?? []).some((h) => bareHost(h) === host);
}

/**
 * The checks that need no network: a parseable URL, https (or http for an allowed host), no
 * credentials. Call it over every URL of a request before downloading any of them.
 */
export function checkUrl(raw: string, opts: Pick<FetchUrlOptions, 'parameter' | 'allowHttpHosts'> & { words?: Words }, subject = `"${raw}"`): URL {
  const done = (opts.words ?? FETCHED).done;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse(opts, 'invalid_url', `${subject} is not a valid URL. Pass an absolute https URL such as "https://example.com/report.pdf".`);
  }
  const host = bareHost(url.hostname);
  if (url.protocol === 'http:' && !isAllowedHost(host, opts)) {
    throw refuse(opts, 'scheme', `${subject} uses http; only https URLs are ${done}. Use the https address${opts.words ? '' : ' of the file'}.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw refuse(opts, 'scheme', `${subject} uses ${url.protocol.replace(/:$/, '')}; only https URLs are ${done}.`);
  }
  if (url.username || url.password) {
    throw refuse(opts, 'credentials', `${subject} carries a user name or password; pass a URL without credentials (a pre-signed link works).`);
  }
  return url;
}

// ---------------------------------------------------------------------------------------------
// Address ranges

type V4Rule = [base: string, prefix: number, what: string];

const V4_RULES: V4Rule[] = [
  ['0.0.0.0', 8, 'a "this network" address (0.0.0.0/8)'],
  ['10.0.0.0', 8, 'a private address (10.0.0.0/8)'],
  ['100.64.0.0', 10, 'a carrier-grade NAT address (100.64.0.0/10)'],
  ['127.0.0.0', 8, 'a loopback address (127.0.0.0/8)'],
  ['169.254.169.254', 32, 'the cloud metadata address (169.254.169.254)'],
  ['169.254.0.0', 16, 'a link-local address (169.254.0.0/16)'],
  ['172.16.0.0', 12, 'a private address (172.16.0.0/12)'],
  ['192.0.0.0', 24, 'a reserved protocol address (192.0.0.0/24)'],
  ['192.0.2.0', 24, 'a documentation address (192.0.2.0/24)'],
  ['192.88.99.0', 24, 'a reserved relay address (192.88.99.0/24)'],
  ['192.168.0.0', 16, 'a private address (192.168.0.0/16)'],
  ['198.18.0.0', 15, 'a benchmarking address (198.18.0.0/15)'],
  ['198.51.100.0', 24, 'a documentation address (198.51.100.0/24)'],
  ['203.0.113.0', 24, 'a documentation address (203.0.113.0/24)'],
  ['224.0.0.0', 4, 'a multicast address (224.0.0.0/4)'],
  ['240.0.0.0', 4, 'a reserved address (240.0.0.0/4)'],
];

function v4ToInt(address: string): number {
  return address.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

function v4FromInt(n: number): string {
  return [24, 16, 8, 0].map((s) => (n >>> s) & 255).join('.');
}

function v4Blocked(n: number): string | undefined {
  for (const [base, prefix, what] of V4_RULES) {
    const shift = 32 - prefix;
    if (Math.floor(n / 2 ** shift) === Math.floor(v4ToInt(base) / 2 ** shift)) return what;
  }
  return undefined;
}

/** An IPv6 address as a 128-bit integer; undefined when it is not one. */
function v6ToBigInt(address: string): bigint | undefined {
  let text = address.replace(/%.*$/, '');
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const n = v4ToInt(dotted[1]!);
    text = `${text.slice(0, dotted.index)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  let n = 0n;
  for (const g of groups) {
    if (!/^[0-9a-f]{1,4}$/i.test(g)) return undefined;
    n = (n << 16n) | BigInt(parseInt(g, 16));
  }
  return n;
}

function inV6(n: bigint, base: string, prefix: number): boolean {
  const shift = BigInt(128 - prefix);
  return n >> shift === v6ToBigInt(base)! >> shift;
}

/** IPv6 ranges refused outright, checked in order after the forms that embed an IPv4 address. */
const V6_RULES: V4Rule[] = [
  ['::', 128, 'the unspecified address (::)'],
  ['::1', 128, 'the IPv6 loopback address (::1)'],
  ['::', 96, 'a deprecated IPv4-compatible IPv6 address (::/96)'],
  ['64:ff9b:1::', 48, 'a local-use NAT64 address (64:ff9b:1::/48)'],
  ['100::', 64, 'a discard-only address (100::/64)'],
  ['2001:db8::', 32, 'a documentation address (2001:db8::/32)'],
  ['2001::', 23, 'a special-purpose IPv6 address (2001::/23)'],
  ['fc00::', 7, 'a unique-local address (fc00::/7)'],
  ['fe80::', 10, 'a link-local address (fe80::/10)'],
  ['fec0::', 10, 'a site-local address (fec0::/10)'],
  ['ff00::', 8, 'a multicast address (ff00::/8)'],
];

/** IPv6 forms that carry an IPv4 address: [base, prefix, bit offset of the IPv4 address, what]. */
const V6_EMBEDDING: [string, number, number, string][] = [
  ['::ffff:0:0', 96, 0, 'an IPv4-mapped IPv6 form of'],
  ['64:ff9b::', 96, 0, 'a NAT64 IPv6 form of'],
  ['2002::', 16, 80, 'a 6to4 IPv6 form of'],
];

/**
 * Why an address must not be fetched from (e.g. "a private address (10.0.0.0/8)"), or undefined
 * for a public unicast address. Anything unparseable is refused.
 */
export function blockedAddress(address: string): string | undefined {
  const family = isIP(address.replace(/%.*$/, ''));
  if (family === 4) return v4Blocked(v4ToInt(address));
  if (family !== 6) return 'not an IP address';
  const n = v6ToBigInt(address);
  if (n === undefined) return 'not an IP address';
  for (const [base, prefix, offset, form] of V6_EMBEDDING) {
    if (!inV6(n, base, prefix)) continue;
    const v4 = Number((n >> BigInt(offset)) & 0xffffffffn);
    const inner = v4Blocked(v4);
    return inner ? `${form} ${v4FromInt(v4)}, ${inner}` : undefined;
  }
  for (const [base, prefix, what] of V6_RULES) if (inV6(n, base, prefix)) return what;
  if (!inV6(n, '2000::', 3)) return 'a reserved IPv6 address (outside 2000::/3)';
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// The download

interface Vetted {
  address: string;
  family: number;
}

async function vet(url: URL, subject: string, opts: Pick<FetchUrlOptions, 'parameter' | 'allowHttpHosts'> & { words?: Words }, resolve: Resolver): Promise<Vetted> {
  const host = bareHost(url.hostname);
  const literal = isIP(host);
  let addresses: { address: string; family: number }[];
  if (literal) addresses = [{ address: host, family: literal }];
  else {
    try {
      addresses = await resolve(host);
    } catch (err) {
      const code = (err as { code?: string }).code;
      throw refuse(opts, 'dns', `${subject}: the host "${host}" could not be resolved${code ? ` (${code})` : ''}. Check the URL.`);
    }
    if (addresses.length === 0) throw refuse(opts, 'dns', `${subject}: the host "${host}" has no address. Check the URL.`);
  }
  if (!isAllowedHost(host, opts)) {
    for (const a of addresses) {
      const why = blockedAddress(a.address);
      if (why) {
        throw refuse(
          opts,
          'address',
          `${subject} was refused: ${literal ? `${a.address} is` : `"${host}" resolves to ${a.address},`} ${why}. ${(opts.words ?? FETCHED).publicOnly}`,
          { address: a.address },
        );
      }
    }
  }
  return addresses[0]!;
}

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
    method: 'GET',
    headers: { 'user-agent': USER_AGENT, accept: '*/*', 'accept-encoding': 'identity' },
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
    req.end();
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
      if (status >= 300 && status < 400 && location) {
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
      return { bytes, contentType, fileName: fileNameFrom(res.headers['content-disposition'], url, contentType), url: url.href };
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

// ---------------------------------------------------------------------------------------------
// Targets a vendor calls (webhooks)

export interface TargetOptions {
  /** Parameter path named in errors (`url`). */
  parameter: string;
  /** The vendor that will call the URL, for messages ("Tape"). */
  vendor: string;
  /** Hosts let in with http, any port and a non-public address (ALLOW_HTTP_HOSTS: local receivers). */
  allowHttpHosts?: readonly string[];
  /** DNS resolution; default node:dns/promises lookup with all:true (tests inject one). */
  resolve?: Resolver;
}

const TARGET: Words = {
  expected: 'a publicly reachable https URL on port 443 (or 80), without credentials',
  done: 'accepted as webhook targets',
  publicOnly: 'Webhook targets must be publicly reachable.',
};

/**
 * A URL a vendor will POST to (a webhook target), held to the rules of fetched URLs although the
 * vendor, not the service, calls it: https (http only for ALLOW_HTTP_HOSTS), no user or password in
 * it, port 443 or 80 (what the vendors call), and the name resolved now with EVERY address checked
 * against the refused ranges (loopback, private, link-local, metadata …), so the service is never
 * the one that registers a private receiver. Listed local hosts skip the port and address checks.
 */
export async function checkTarget(raw: string, opts: TargetOptions): Promise<URL> {
  const rules = { ...opts, words: TARGET };
  const url = checkUrl(raw, rules);
  const host = bareHost(url.hostname);
  if (isAllowedHost(host, opts)) return url;
  if (url.port !== '' && url.port !== '80' && url.port !== '443') {
    throw refuse(rules, 'port', `${opts.vendor} delivers to ports 443 and 80 only, got port ${url.port}. Expose the receiver on the default https port.`, { port: Number(url.port) });
  }
  if (host === 'localhost' || host.endsWith('.localhost')) {
    throw refuse(rules, 'address', `"${host}" is a loopback name, not publicly reachable, so ${opts.vendor} cannot call it. Use a public hostname (e.g. a tunnel to your machine).`);
  }
  await vet(url, `"${raw}"`, rules, opts.resolve ?? defaultResolver);
  return url;
}

/** checkTarget for a tool's `url` parameter, with the call's ALLOW_HTTP_HOSTS and resolver: one line at every webhook tool. */
export function checkWebhookTarget(url: string, ctx: { config: { allowHttpHosts: readonly string[] }; resolve?: Resolver }, vendor: string): Promise<URL> {
  return checkTarget(url, { parameter: 'url', vendor, allowHttpHosts: ctx.config.allowHttpHosts, ...(ctx.resolve ? { resolve: ctx.resolve } : {}) });
}

// ---------------------------------------------------------------------------------------------
// File names

const EXTENSIONS: Record<string, string> = {
  'application/pdf': '.pdf',
  'application/json': '.json',
  'application/zip': '.zip',
  'text/plain': '.txt',
  'text/csv': '.csv',
  'text/html': '.html',
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/gif': '.gif',
  'image/webp': '.webp',
  'image/svg+xml': '.svg',
};

function cleanName(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  // eslint-disable-next-line no-control-regex
  const base = name.split(/[/\\]/).pop()!.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 255);
  return base === '' || base === '.' || base === '..' ? undefined : base;
}

function decode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** The file name a download should carry: Content-Disposition (filename* first), else the URL path. */
export function fileNameFrom(disposition: string | undefined, url: URL, contentType = 'application/octet-stream'): string {
  let name: string | undefined;
  if (disposition) {
    const star = /filename\*\s*=\s*([^';]*)'[^']*'([^;]+)/i.exec(disposition);
    if (star) name = cleanName(decode(star[2]!.trim().replace(/^"|"$/g, '')));
    if (!name) {
      const plain = /(?:^|;)\s*filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i.exec(disposition);
      if (plain) name = cleanName(plain[1] !== undefined ? plain[1].replace(/\\(.)/g, '$1') : plain[2]);
    }
  }
  if (!name) {
    const segment = url.pathname.split('/').filter(Boolean).pop();
    if (segment) name = cleanName(decode(segment) ?? segment);
  }
  return name ?? `download${EXTENSIONS[contentType] ?? ''}`;
}
