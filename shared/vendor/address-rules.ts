import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { invalidParameter, type ToolError } from '../core/errors';

/**
 * The rules a caller-supplied URL must pass before the service fetches it (shared/vendor/fetch-url.ts) or
 * lets a vendor call it (shared/vendor/webhook-target.ts):
 * - https only; plain http only for the hosts of `allowHttpHosts` (ALLOW_HTTP_HOSTS, local development),
 *   which also lifts the address check for exactly those hosts;
 * - no user name or password in the URL;
 * - the host is resolved once and EVERY address checked against the refused ranges (loopback, private,
 *   link-local and the metadata address, CGNAT, unique-local, multicast, reserved, IPv4-mapped forms).
 * Every refusal is INVALID_PARAMETER naming the caller's parameter path and the rule that refused it.
 */

import type { Resolver } from '../core/tool';

export type { Resolver };

export interface UrlRules {
  /** Parameter path named in errors, e.g. `fields.attachments.0`. */
  parameter: string;
  /** Hosts for which http and non-public addresses are allowed (lowercase host names or IP literals). */
  allowHttpHosts?: readonly string[];
}

export const defaultResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export type Reason = 'invalid_url' | 'scheme' | 'credentials' | 'port' | 'dns' | 'address' | 'redirects' | 'http_status' | 'too_large' | 'timeout' | 'network';

/** What a refusal says is expected, and what the service does with the URL: a file it fetches, or a target a vendor calls. */
export interface Words {
  expected: string;
  /** "fetched", "accepted as a webhook target" */
  done: string;
  /** "Only files on the public internet are fetched." */
  publicOnly: string;
}

const FETCHED: Words = { expected: 'https URL of a file on the public internet', done: 'fetched', publicOnly: 'Only files on the public internet are fetched.' };

export function refuse(opts: Pick<UrlRules, 'parameter'> & { words?: Words }, reason: Reason, message: string, extra: Record<string, unknown> = {}): ToolError {
  return invalidParameter(opts.parameter, (opts.words ?? FETCHED).expected, `Parameter "${opts.parameter}": ${message}`, { reason, ...extra });
}

/** URL.hostname without the brackets of an IPv6 literal and without a trailing dot. */
export function bareHost(hostname: string): string {
  return hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
}

export function isAllowedHost(host: string, opts: Pick<UrlRules, 'allowHttpHosts'>): boolean {
  return (opts.allowHttpHosts ?? []).some((h) => bareHost(h) === host);
}

/**
 * The checks that need no network: a parseable URL, https (or http for an allowed host), no
 * credentials. Call it over every URL of a request before downloading any of them.
 */
export function checkUrl(raw: string, opts: UrlRules & { words?: Words }, subject = `"${raw}"`): URL {
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

export interface Vetted {
  address: string;
  family: number;
}

/** Resolves the host once and checks every address; the connection then goes to the address returned. */
export async function vet(url: URL, subject: string, opts: UrlRules & { words?: Words }, resolve: Resolver): Promise<Vetted> {
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
