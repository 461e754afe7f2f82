import { DeliveryQueue, WindowBudget, type Clock, type Delivery, type WebhookTargets } from '../kit';
import type { TapeEvent } from './model';
import type { TapeState } from './state';

/**
 * Webhooks of the Tape twin and their delivery (docs/vendors/tape.md#webhooks):
 * the hooks themselves, the verification POST and the event POSTs to every active hook. Target
 * rules and the POST queue are the kit's (kit/webhooks.ts); Tape's payloads and rules stay here.
 */
export { targetProblem } from '../kit';

/** docs/vendors/tape.md#webhooks: one per hook. */
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

/** Who may be a target (kit/webhooks.ts): `public` as Tape (ports 80/443, public hosts), or `any`. */
export type HookTargets = WebhookTargets;

export interface HookDeliveryOptions {
  targets: HookTargets;
  /** docs/vendors/tape.md#webhooks: the receiver must answer within 5 seconds. */
  timeoutMs: number;
  /** docs/vendors/tape.md#webhooks: 100 webhook executions per minute per app. */
  perAppPerMinute: number;
  clock: Clock;
  /** How POSTs leave the twin: the global fetch unless a test captures them. */
  fetch: typeof fetch;
  /** Extra copies of every POST: at-least-once delivery (kit/webhooks.ts). */
  redeliver?: number;
}

/** One attempted (or dropped) POST; `error`: timeout, network error text, or rate_limited (dropped: over 100 executions/min of the app). */
export type DeliveryRecord = Delivery<{ hook_id: number }>;

/** docs/vendors/tape.md#webhooks: more than 50 consecutive failures make the hook unverified again. */
export const MAX_CONSECUTIVE_FAILURES = 50;

/** The log keeps the latest entries only, so a long-running local server does not grow without end. */
const LOG_SIZE = 1000;

const HEADERS = {
  accept: 'application/json, text/plain, */*',
  'content-type': 'application/json;charset=utf-8',
  'user-agent': 'Tape Webhook',
};

/** The event payloads of docs/vendors/tape.md#webhooks, keys in the documented order. */
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

/** The hooks of the twin and the POSTs they cause; subscribes to the state's events. */
export class TapeHookDeliveries {
  readonly hooks = new Map<number, TapeHook>();
  /** hook id → the verification code last sent and not yet validated. */
  readonly codes = new Map<number, string>();
  /** One hook's POSTs go out one after another, in event order (a lane per hook). */
  private readonly queue: DeliveryQueue<{ hook_id: number }>;
  /** docs/vendors/tape.md#webhooks: executions per minute per app. */
  private readonly perApp: WindowBudget;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly state: TapeState,
    readonly options: HookDeliveryOptions,
  ) {
    this.queue = new DeliveryQueue({ timeoutMs: options.timeoutMs, fetch: options.fetch, headers: HEADERS, logSize: LOG_SIZE, ...(options.redeliver ? { redeliver: options.redeliver } : {}) });
    this.perApp = new WindowBudget({ limit: options.perAppPerMinute, windowMs: 60_000, clock: options.clock });
    this.unsubscribe = state.events.on((e) => this.onEvent(e));
  }

  /** Every POST attempted (or dropped), latest LOG_SIZE only. */
  get log(): DeliveryRecord[] {
    return this.queue.log;
  }

  /** Resolves once every POST queued so far (and any queued meanwhile) has finished. */
  idle(): Promise<void> {
    return this.queue.idle();
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
      if (this.perApp.take(e.app_id).over) {
        this.queue.record({ hook_id: hook.hook_id, url: hook.url, payload, status: null, ok: false, error: 'rate_limited' });
        continue;
      }
      this.enqueue(hook.hook_id, payload, true);
    }
  }

  private enqueue(hookId: number, payload: Record<string, unknown>, isEvent: boolean): void {
    const job = () => {
      const hook = this.hooks.get(hookId);
      // Deleted hooks stop at once; a hook made inactive meanwhile gets no more events.
      if (!hook || (isEvent && hook.status !== 'active')) return undefined;
      return { url: hook.url, payload, extra: { hook_id: hookId } };
    };
    // The verification POST is not an execution of the hook: it counts toward nothing.
    this.queue.send(hookId, job, isEvent ? (d) => this.counted(hookId, d.ok) : undefined);
  }

  private counted(hookId: number, ok: boolean): void {
    const hook = this.hooks.get(hookId);
    if (!hook) return;
    if (ok) {
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
