/**
 * The automation side of a twin as tests and benchmarks see it: `idle()` to await the runs in
 * flight, the outbox of emails send_email actions "sent", the HTTP requests http_call made (or
 * was refused), the runs, `brick(id)` to make an automation unreadable, and the scheduler of the
 * periodic / date_field_arrived automations (`tick()`, `close()`).
 */
import type { TapeState } from '../state';
import { AutomationEngine, type AuthProvider, type EngineOptions } from './engine';
import { AutomationScheduler } from './scheduler';
import type { HttpCallRecord, OutboxEmail, Run } from './model';
import { automationStore, brickAutomation, type AutomationStore } from './store';

export interface TapeAutomationOptions {
  /** Hosts http_call actions may reach: exact host names or "*.example.com" (default: none). */
  httpHosts?: string[];
  /** How allowed http_call requests leave the twin (default: the global fetch). */
  fetch?: typeof fetch;
  /** Limits of one custom code evaluation (default 1000 ms, 32 MB). */
  codeTimeoutMs?: number;
  codeMemoryBytes?: number;
  now?: () => number;
  /**
   * Authentication providers authenticated_http_call may name (in Tape they are set up in the UI).
   * Default: provider 1, "Sandbox API", sending `Authorization: Bearer sandbox-provider-token`.
   */
  authProviders?: AuthProvider[];
  /** Where weblinks point (default Tape's https://weblink.tapeapp.com); the twin serves /trigger/<token> itself. */
  weblinkBase?: string;
}

const SANDBOX_PROVIDERS: AuthProvider[] = [{ id: 1, name: 'Sandbox API', headers: { Authorization: 'Bearer sandbox-provider-token' } }];

export class TapeAutomations {
  readonly store: AutomationStore;
  readonly engine: AutomationEngine;
  readonly scheduler: AutomationScheduler;

  constructor(readonly state: TapeState, opts: TapeAutomationOptions = {}) {
    this.store = automationStore(state);
    const engineOpts: EngineOptions = {
      httpHosts: (opts.httpHosts ?? []).map((h) => h.toLowerCase()),
      fetch: opts.fetch ?? ((input, init) => fetch(input, init)),
      codeLimits: {
        ...(opts.codeTimeoutMs !== undefined ? { timeoutMs: opts.codeTimeoutMs } : {}),
        ...(opts.codeMemoryBytes !== undefined ? { memoryBytes: opts.codeMemoryBytes } : {}),
      },
      now: opts.now ?? Date.now,
      authProviders: new Map((opts.authProviders ?? SANDBOX_PROVIDERS).map((p) => [p.id, p])),
    };
    if (opts.weblinkBase) this.store.weblinkBase = opts.weblinkBase.replace(/\/+$/, '');
    this.engine = new AutomationEngine(state, this.store, engineOpts);
    this.scheduler = new AutomationScheduler(state, this.store, this.engine, engineOpts.now);
  }

  /** Fires the periodic and date_field_arrived automations that fell due by the twin clock. */
  tick(): void {
    this.scheduler.tick();
  }

  /** Stops the scheduler's timer (the twin is done). */
  close(): void {
    this.scheduler.close();
  }

  /** Resolves once every started run (and the runs they started) has finished. */
  idle(): Promise<void> {
    return this.engine.idle();
  }

  /** Emails "sent" by send_email actions, oldest first (never delivered). */
  get outbox(): readonly OutboxEmail[] {
    return this.store.outbox;
  }

  /** Requests http_call actions made or were refused. */
  get httpCalls(): readonly HttpCallRecord[] {
    return this.store.httpCalls;
  }

  /** Every run, oldest first. */
  get runs(): Run[] {
    return [...this.store.runs.values()];
  }

  /** Makes an automation's stored definition unreadable (GET answers 500 until a PUT replaces its actions). */
  brick(id: number): void {
    brickAutomation(this.state, id);
  }
}
