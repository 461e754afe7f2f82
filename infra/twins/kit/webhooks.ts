/**
 * Webhook plumbing every twin shares: who may be a target, and a queue that POSTs payloads with a
 * timeout and keeps a bounded log. What is sent, when, and what a failure means stay in the twin.
 */

/**
 * Who may be a target. `public`: as the vendors, ports 80/443 and no loopback/private/link-local
 * host (checked on the URL as written; the twin resolves no names). `any`: every http(s) URL, so
 * tests and the local server can use a receiver on 127.0.0.1:<port>.
 */
export type WebhookTargets = 'public' | 'any';

/** A host a vendor would refuse: loopback, private, link-local, unique-local, unspecified (literal check). */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost') || host === '') return true;
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127);
  }
  if (host.includes(':')) {
    if (host === '::' || host === '::1') return true;
    const mapped = /^::ffff:(.+)$/.exec(host);
    if (mapped) return mapped[1]!.includes('.') ? isPrivateHost(mapped[1]!) : true;
    return /^f[cd]/.test(host) || /^fe[89ab]/.test(host);
  }
  return false;
}

/** Why this target URL is refused (a sentence naming "url"), or undefined when it is acceptable. */
export function targetProblem(raw: string, targets: WebhookTargets): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `"url" must be an absolute http or https URL, got "${raw}".`;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `"url" must use http or https, got "${url.protocol.slice(0, -1)}".`;
  if (targets === 'any') return undefined;
  if (url.port !== '' && url.port !== '80' && url.port !== '443') return `Only hooks on port 80 and 443 are supported, got port ${url.port}.`;
  if (isPrivateHost(url.hostname)) return `"url" must point to a publicly reachable host, got "${url.hostname}".`;
  return undefined;
}

/** One attempted (or dropped) POST. `E` is what the twin adds (e.g. `{hook_id}`). */
export type Delivery<E extends object = object> = E & {
  url: string;
  payload: Record<string, unknown>;
  /** HTTP status of the receiver's answer; null when it failed or was not sent. */
  status: number | null;
  ok: boolean;
  /** `timeout`, the network error's text, or the twin's reason for dropping it. */
  error?: string;
};

export interface DeliveryQueueOptions<E extends object = object> {
  /** How long a receiver may take to answer. */
  timeoutMs: number;
  /** How POSTs leave the twin (tests capture them). */
  fetch: typeof fetch;
  /** Headers of every POST (content-type, user-agent of the vendor). */
  headers: Record<string, string>;
  /** Entries kept in `log` (default 1000). */
  logSize?: number;
  /** How a payload becomes the POST body (default JSON; Podio sends form fields). */
  encode?: (payload: Record<string, unknown>) => string;
  /** Headers computed per POST from its URL, body and the job's extra (HubSpot's signature and timestamp, ShareFile's per-client signatures). */
  sign?: (url: string, body: string, extra: E) => Record<string, string>;
  /**
   * Extra copies of every POST, sent right after it (default 0): at-least-once delivery, as a
   * vendor retrying after an answer it did not get. Each copy is logged like any attempt.
   */
  redeliver?: number;
}

/** What to POST when a job's turn comes, or undefined to send nothing (e.g. the hook was deleted meanwhile). */
export type DeliveryJob<E extends object> = () => { url: string; payload: Record<string, unknown>; extra: E } | undefined;

/**
 * POSTs in lanes: one lane's POSTs (a hook's) leave one after another in order, lanes run side by
 * side. Every attempt lands in `log`; `idle()` waits for the pending ones.
 */
export class DeliveryQueue<E extends object = object> {
  readonly log: Delivery<E>[] = [];
  private readonly pending = new Set<Promise<void>>();
  private readonly tails = new Map<string | number, Promise<void>>();

  constructor(readonly options: DeliveryQueueOptions<E>) {}

  /** Queues a POST on `lane`; `done` hears the outcome once it is logged. */
  send(lane: string | number, job: DeliveryJob<E>, done?: (d: Delivery<E>) => void): void {
    const tail = (this.tails.get(lane) ?? Promise.resolve()).then(async () => {
      const next = job();
      if (!next) return;
      for (let copy = 0; copy <= (this.options.redeliver ?? 0); copy++) {
        const d = await this.post(next.url, next.payload, next.extra);
        this.record(d);
        if (copy === 0) done?.(d);
      }
    });
    this.tails.set(lane, tail);
    this.pending.add(tail);
    void tail.finally(() => {
      this.pending.delete(tail);
      if (this.tails.get(lane) === tail) this.tails.delete(lane);
    });
  }

  /** Logs an entry that was not sent (e.g. dropped by the twin's own rate). */
  record(entry: Delivery<E>): void {
    this.log.push(entry);
    const size = this.options.logSize ?? 1000;
    if (this.log.length > size) this.log.splice(0, this.log.length - size);
  }

  /** Resolves once every POST queued so far (and any queued meanwhile) has finished. */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  private async post(url: string, payload: Record<string, unknown>, extra: E): Promise<Delivery<E>> {
    const d = { ...extra, url, payload, status: null, ok: false } as Delivery<E>;
    const body = this.options.encode ? this.options.encode(payload) : JSON.stringify(payload);
    try {
      const res = await this.options.fetch(url, {
        method: 'POST',
        headers: { ...this.options.headers, ...this.options.sign?.(url, body, extra) },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      d.status = res.status;
      d.ok = res.status >= 200 && res.status < 300;
      await res.body?.cancel().catch(() => undefined);
    } catch (err) {
      const name = err instanceof Error ? err.name : '';
      d.error = name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : err instanceof Error ? err.message : String(err);
    }
    return d;
  }
}
