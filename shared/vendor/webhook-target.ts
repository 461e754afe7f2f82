import { bareHost, checkUrl, defaultResolver, isAllowedHost, refuse, vet, type Resolver, type Words } from './address-rules';

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
