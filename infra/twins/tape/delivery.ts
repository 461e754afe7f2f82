import type { TapeEvent } from './model';
import type { TapeState } from './state';

/**
 * Webhooks of the Tape twin and their delivery (vendor-docs/tape/resource/webhook.md):
 * the hooks themselves, the verification POST and the event POSTs to every active hook.
 */

/** webhook.md "Webhook types": one per hook. */
export const HOOK_TYPES = ['record.create', 'record.update', 'record.delete', 'record.restore', 'comment.create', 'comment.delete', 'app.update'] as const;
export type HookType = (typeof HOOK_TYPES)[number];

export interface TapeHook {
  hook_id: number;
  app_id: number;
  /** `inactive` = unverified: it receives nothing until verified. */
  status: 'active' | 'inactive';
  /** Consecutive failed executions (non-2xx, error or no answer in time); a success resets it. */
  num_failed_executions: number;
  type: HookType;
  url: string;
}

/**
 * Who may be a target. `public`: as Tape, ports 80/443 and no loopback/private/link-local host
 * (checked on the URL as written; the twin resolves no names). `any`: every http(s) URL, so tests
 * and the local server can use a receiver on 127.0.0.1:<port>.
 */
export type HookTargets = 'public' | 'any';

export interface HookDeliveryOptions {
  targets: HookTargets;
  /** webhook.md: the receiver must answer within 5 seconds. */
  timeoutMs: number;
  /** webhook.md: 100 webhook executions per minute per app. */
  perAppPerMinute: number;
  now(): number;
  /** How POSTs leave the twin: the global fetch unless a test captures them. */
  fetch: typeof fetch;
}

/** One attempted (or dropped) POST, for tests and a look at what the twin sent. */
export interface DeliveryRecord {
  hook_id: number;
  url: string;
  payload: Record<string, unknown>;
  /** HTTP status of the receiver's answer; null when it failed or was not sent. */
  status: number | null;
  ok: boolean;
  /** timeout, network error text, or rate_limited (dropped: over 100 executions/min of the app). */
  error?: string;
}

/** webhook.md "Error handling": more than 50 consecutive failures make the hook unverified again. */
export const MAX_CONSECUTIVE_FAILURES = 50;

/** The log keeps the latest entries only, so a long-running local server does not grow without end. */
const LOG_SIZE = 1000;

const HEADERS = {
  accept: 'application/json, text/plain, */*',
  'content-type': 'application/json;charset=utf-8',
  'user-agent': 'Tape Webhook',
};

/** The event payloads of webhook.md, keys in the documented order. */
export function eventPayload(hookId: number, e: TapeEvent): Record<string, unknown> {
  switch (e.type) {
    case 'record.create':
    case 'record.update':
    case 'record.delete':
    case 'record.restore':
      return { hook_id: hookId, record_id: e.record_id, revision_id: e.revision_id, type: e.type };
    case 'comment.create':
    case 'comment.delete':
      return { hook_id: hookId, record_id: e.record_id, comment_id: e.comment_id, type: e.type };
    case 'app.update':
      return { hook_id: hookId, app_id: e.app_id, type: e.type };
  }
}

/** A host Tape would refuse: loopback, private, link-local, unique-local, unspecified (literal check). */
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

/** Why Tape would refuse this target URL, or undefined when it is acceptable. */
export function targetProblem(raw: string, targets: HookTargets): string | undefined {
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

/** The hooks of the twin and the POSTs they cause; subscribes to the state's events. */
export class TapeHookDeliveries {
  readonly hooks = new Map<number, TapeHook>();
  /** hook id → the verification code last sent and not yet validated. */
  readonly codes = new Map<number, string>();
  readonly log: DeliveryRecord[] = [];
  private readonly pending = new Set<Promise<void>>();
  /** Per hook, the tail of its queue: one hook's POSTs go out one after another, in event order. */
  private readonly tails = new Map<number, Promise<void>>();
  private readonly windows = new Map<number, { start: number; count: number }>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly state: TapeState,
    readonly options: HookDeliveryOptions,
  ) {
    this.unsubscribe = state.events.on((e) => this.onEvent(e));
  }

  /** Resolves once every POST queued so far (and any queued meanwhile) has finished. */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  /** Stops listening to events (queued POSTs still finish). */
  close(): void {
    this.unsubscribe();
  }

  /** POSTs `{hook_id, type: "hook.verify", code}` to the hook's URL, without waiting for it. */
  sendVerification(hook: TapeHook, code: string): void {
    this.enqueue(hook.hook_id, { hook_id: hook.hook_id, type: 'hook.verify', code }, false);
  }

  private onEvent(e: TapeEvent): void {
    // hook=false on the write: "execute webhooks" off for this change. A deleted app sends nothing.
    if (!e.hook || !this.state.apps.has(e.app_id)) return;
    for (const hook of this.hooks.values()) {
      if (hook.app_id !== e.app_id || hook.type !== e.type || hook.status !== 'active') continue;
      const payload = eventPayload(hook.hook_id, e);
      if (!this.withinRate(e.app_id)) {
        this.record({ hook_id: hook.hook_id, url: hook.url, payload, status: null, ok: false, error: 'rate_limited' });
        continue;
      }
      this.enqueue(hook.hook_id, payload, true);
    }
  }

  private record(entry: DeliveryRecord): void {
    this.log.push(entry);
    if (this.log.length > LOG_SIZE) this.log.splice(0, this.log.length - LOG_SIZE);
  }

  /** A fixed one-minute window per app. */
  private withinRate(appId: number): boolean {
    const now = this.options.now();
    let w = this.windows.get(appId);
    if (!w || now - w.start >= 60_000) this.windows.set(appId, (w = { start: now, count: 0 }));
    if (w.count >= this.options.perAppPerMinute) return false;
    w.count++;
    return true;
  }

  private enqueue(hookId: number, payload: Record<string, unknown>, isEvent: boolean): void {
    const tail = (this.tails.get(hookId) ?? Promise.resolve()).then(() => this.send(hookId, payload, isEvent));
    this.tails.set(hookId, tail);
    this.pending.add(tail);
    void tail.finally(() => {
      this.pending.delete(tail);
      if (this.tails.get(hookId) === tail) this.tails.delete(hookId);
    });
  }

  private async send(hookId: number, payload: Record<string, unknown>, isEvent: boolean): Promise<void> {
    const hook = this.hooks.get(hookId);
    // Deleted hooks stop at once; a hook made inactive meanwhile gets no more events.
    if (!hook || (isEvent && hook.status !== 'active')) return;
    const record: DeliveryRecord = { hook_id: hookId, url: hook.url, payload, status: null, ok: false };
    try {
      const res = await this.options.fetch(hook.url, {
        method: 'POST',
        headers: HEADERS,
        body: JSON.stringify(payload),
        redirect: 'manual',
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      record.status = res.status;
      record.ok = res.status >= 200 && res.status < 300;
      await res.body?.cancel().catch(() => undefined);
    } catch (err) {
      const name = err instanceof Error ? err.name : '';
      record.error = name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : err instanceof Error ? err.message : String(err);
    }
    this.record(record);
    // The verification POST is not an execution of the hook: it counts toward nothing.
    if (!isEvent) return;
    if (record.ok) {
      hook.num_failed_executions = 0;
      return;
    }
    hook.num_failed_executions++;
    if (hook.num_failed_executions > MAX_CONSECUTIVE_FAILURES) {
      hook.status = 'inactive';
      this.codes.delete(hookId);
    }
  }
}
