/**
 * The automation data of one twin: definitions, revisions, runs and the captured side effects
 * (outbox, HTTP calls). Kept per TapeState, outside state.ts.
 */
import { randomUUID } from 'node:crypto';
import { TapeHttpError, tapeDateTime } from '../http';
import type { TapeState } from '../state';
import type { HttpCallRecord, OutboxEmail, Revision, Run, StoredAutomation } from './model';

export interface Weblink {
  automation_id: number;
  record_id: number;
  arguments: Record<string, unknown>;
  /** Epoch ms of the twin clock. */
  created_at: number;
  expires_at: number | null;
  /** Invalid after its first click. */
  once: boolean;
  clicks: number;
}

const DAY_MS = 86_400_000;
const WEBLINK_LIFE_MS: Record<string, number> = { one_day: DAY_MS, one_week: 7 * DAY_MS, one_month: 30 * DAY_MS, one_year: 365 * DAY_MS };

/** Revision ids are 64-bit values beyond JS number precision (docs/vendors/tape.md#automation-revisions shows 90071992547409929). */
const FIRST_REVISION_ID = 90071992547409929n;

export class AutomationStore {
  readonly automations = new Map<number, StoredAutomation>();
  readonly revisions = new Map<number, Revision[]>();
  readonly runs = new Map<string, Run>();
  readonly outbox: OutboxEmail[] = [];
  readonly httpCalls: HttpCallRecord[] = [];
  /** Weblinks minted by /v1/automation/weblink/generate or the generate-weblink action: token → what a click runs. */
  readonly weblinks = new Map<string, Weblink>();
  /** Where weblinks point: Tape's weblink client; the twin serves the same path, /trigger/<token>. */
  weblinkBase = 'https://weblink.tapeapp.com';
  private nextAutomation = 4021;
  private nextRevision = FIRST_REVISION_ID;
  private nextRun = 9001;

  constructor(readonly state: TapeState) {}

  newAutomationId(): number {
    while (this.automations.has(this.nextAutomation)) this.nextAutomation++;
    return this.nextAutomation++;
  }

  /**
   * Mints a weblink. `expiration` takes the action's lower-case tokens and the endpoint's upper-case
   * ones (never, on_click, one_day, one_week, one_month, one_year).
   */
  mintWeblink(o: { automation_id: number; record_id: number; arguments: Record<string, unknown>; expiration: string; once?: boolean; now: number }): { token: string; url: string } {
    const token = randomUUID();
    const kind = o.expiration.toLowerCase();
    const life = WEBLINK_LIFE_MS[kind];
    this.weblinks.set(token, {
      automation_id: o.automation_id,
      record_id: o.record_id,
      arguments: o.arguments,
      created_at: o.now,
      expires_at: life === undefined ? null : o.now + life,
      once: o.once === true || kind === 'on_click',
      clicks: 0,
    });
    return { token, url: `${this.weblinkBase}/trigger/${token}` };
  }

  newRunId(): string {
    return String(this.nextRun++);
  }

  /** The automation if it exists and is not deleted. */
  get(id: number): StoredAutomation | undefined {
    const a = this.automations.get(id);
    return a && !a.deleted ? a : undefined;
  }

  /** Appends an immutable snapshot of the definition (no description, no webhook_url). */
  snapshot(a: StoredAutomation, now: Date): Revision {
    const rev: Revision = {
      id: (this.nextRevision++).toString(),
      automation_id: a.id,
      created_at: tapeDateTime(now),
      name: a.name,
      paused: a.paused,
      broken: a.broken,
      trigger: a.trigger ? structuredClone(a.trigger) : null,
      filter: a.filter ? structuredClone(a.filter) : null,
      actions: structuredClone(a.actions),
    };
    const list = this.revisions.get(a.id) ?? [];
    list.push(rev);
    this.revisions.set(a.id, list);
    return rev;
  }

  latestRevisionId(id: number): string {
    return this.revisions.get(id)?.at(-1)?.id ?? '0';
  }

  webhookUrl(a: StoredAutomation): string {
    a.webhook_token ??= randomUUID();
    return `https://api.tapeapp.com/webhook/automation/${a.webhook_token}`;
  }

  /** The automation object of docs/vendors/tape.md#automation-object; an unserializable one is a 500. */
  wire(a: StoredAutomation) {
    if (a.unserializable) throw unserializable(a.id);
    const trigger = a.trigger ? structuredClone(a.trigger) : null;
    if (trigger?.type === 'webhook_received') trigger.config = { ...trigger.config, webhook_url: this.webhookUrl(a) };
    return {
      id: a.id,
      app_id: a.app_id,
      workspace_id: a.workspace_id,
      name: a.name,
      ...(a.description !== undefined ? { description: a.description } : {}),
      paused: a.paused,
      broken: a.broken,
      broken_reason: a.broken_reason,
      trigger,
      filter: a.filter,
      actions: a.actions,
      created_at: a.created_at,
      updated_at: a.updated_at,
    };
  }
}

/**
 * The answer for an automation whose stored definition can't be read. Tape's docs don't describe
 * it; the twin answers a plain server error naming the automation, as a serializer failure would.
 */
export function unserializable(id: number): TapeHttpError {
  return new TapeHttpError(500, 'internal_server_error', `Automation ${id} could not be serialized: its stored definition is unreadable. Replace its actions (PUT {"actions": []}) to repair it.`);
}

const stores = new WeakMap<TapeState, AutomationStore>();

export function automationStore(state: TapeState): AutomationStore {
  let s = stores.get(state);
  if (!s) stores.set(state, (s = new AutomationStore(state)));
  return s;
}

/** Test helper: makes an automation unreadable, like a pre-migration row (GET answers 500 until healed). */
export function brickAutomation(state: TapeState, id: number): void {
  const a = automationStore(state).get(id);
  if (!a) throw new Error(`No automation ${id}`);
  a.unserializable = true;
}
