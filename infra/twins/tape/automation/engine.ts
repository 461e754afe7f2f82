/**
 * The twin's automation engine: it listens to the record events of the twin, starts the live
 * automations whose trigger and filter match, runs their actions for real (records through the
 * twin's own record functions, custom code in the QuickJS sandbox, emails into the outbox, HTTP
 * to allowed hosts only) and records every run with its per-step log (docs/vendors/tape.md#automation-runs).
 * A simulation evaluates the same definition with no side effects. The scheduled triggers
 * (periodic, date_field_arrived) are started by scheduler.ts; weblink clicks by routes.ts, which
 * answer with the page display_webpage / redirect_user compose here. A change an action makes
 * without author_id is credited to the automation (the `actor` of the record write).
 *
 * Re-triggering: a record written by a run raises its events like any other write (so other
 * automations may fire, unless the action sets trigger_other_flows: false), but never re-starts an
 * automation already in the chain of runs that wrote it; chains stop at MAX_CHAIN.
 */
import { tapeDateTime } from '../http';
import type { TapeApp, TapeAutomationActor, TapeEvent, TapeField, TapeRecordRow, TapeValue } from '../model';
import { getView } from '../routes/view';
import { recordMatches, type TapeFilter } from '../filter';
import {
  appRecords,
  createComment,
  deleteComment,
  deleteRecord,
  findComment,
  relatedRecords,
  sortRecords,
  insertRecord,
  prepareCreate,
  prepareUpdate,
  applyUpdate,
  recordRevisions,
  restoreRecord,
  type WriteOptions,
} from '../records';
import type { TapeState, TapeStoredFile, TapeUser } from '../state';
import { categoryOptions, FIELD_TYPES, valueText } from '../values';
import { ACTION_BY_TYPE, FIELD_FILTERS, OPERATORS } from './catalog';
import type { Action, DynamicValue, FailureReason, FilterNode, HttpCallRecord, Reference, Run, RunLog, RunType, StoredAutomation } from './model';
import { renderPdf } from './pdf';
import { nextSlot } from './schedule';
import { runInSandbox, SandboxError, variableName, type SandboxLimits } from './sandbox';
import type { AutomationStore } from './store';
import { activeErrors, brokenReasons } from './validate';
import { isObject } from '../../kit/request';

/** Longest chain of automations starting one another through record writes or calls. */
export const MAX_CHAIN = 10;
/** docs/vendors/tape.md#automation-runs / limitations: at most 1000 actions per run and 1000 records per collect. */
export const MAX_ACTIONS_PER_RUN = 1000;
export const MAX_COLLECT = 1000;
/** Limitations: a run may take at most 3 minutes (wall clock). */
export const MAX_RUN_MS = 3 * 60_000;

export interface EngineOptions {
  /** Hosts http_call may reach (exact host names, or "*.example.com"); everything else fails the action. */
  httpHosts: string[];
  /** How http_call requests leave the twin. */
  fetch: typeof fetch;
  codeLimits: Partial<SandboxLimits>;
  now: () => number;
  /** Authentication providers authenticated_http_call signs with (configured in Tape's UI, not through the API). */
  authProviders: Map<number, AuthProvider>;
}

/** A stored credential: the headers it adds to a request (never logged). */
export interface AuthProvider {
  id: number;
  name: string;
  headers: Record<string, string>;
}

/** What a weblink click answers (display_webpage / redirect_user fill it). */
export interface WeblinkPage {
  html: string[];
  redirect: string | null;
  fullscreen: boolean;
  removeBranding: boolean;
}

/** What starts a run. */
export interface RunStart {
  type: RunType;
  record?: TapeRecordRow;
  recordRevision?: number;
  /** Values before the triggering update (references with previous: true). */
  previous?: Map<number, TapeValue[]>;
  webhookPayload?: unknown;
  /** Arguments of an automation_called / weblink run, keyed by internal variable name. */
  args?: Record<string, unknown>;
  triggeredBy?: number | null;
  chain?: number[];
  commentId?: number;
  /** periodic: the slot this run fills and the next one (periodic_*_execution_datetime). */
  periodic?: { at: number; next: number | null };
  /** date_field_arrived: when the date (plus offset) arrived. */
  arrivedAt?: number;
  /** weblink_clicked: the link's creation and clicks so far, and the page the click is answered with. */
  weblink?: { created_at: number; click_count: number };
  page?: WeblinkPage;
}

interface Ctx {
  a: StoredAutomation;
  app: TapeApp;
  run: Run;
  simulate: boolean;
  record?: TapeRecordRow;
  previous?: Map<number, TapeValue[]>;
  webhookPayload?: unknown;
  commentId?: number;
  start: RunStart;
  vars: Record<string, unknown>;
  collections: { app_id: number; records: TapeRecordRow[] }[];
  created?: TapeRecordRow;
  loopItem?: unknown;
  executions: Map<string, number>;
  chain: number[];
  author: TapeUser;
  lastError: string | null;
  /** Wall-clock start of the run (Date.now()). */
  startedAt: number;
}

class RunFailure extends Error {
  constructor(readonly reason: FailureReason, message: string) {
    super(message);
  }
}
class ExitRun extends Error {
  constructor(readonly success: boolean) {
    super('exit');
  }
}


export class AutomationEngine {
  private readonly pending = new Set<Promise<unknown>>();
  /** The chain of the run whose record write is being emitted right now (events are synchronous). */
  private origin: { chain: number[]; workflow: boolean } | undefined;

  constructor(
    readonly state: TapeState,
    readonly store: AutomationStore,
    readonly opts: EngineOptions,
  ) {
    state.events.on((e) => this.onEvent(e));
  }

  /** Resolves when no run is pending, including runs those runs started. */
  async idle(): Promise<void> {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }

  private track<T>(p: Promise<T>): Promise<T> {
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p)).catch(() => undefined);
    return p;
  }

  private now(): Date {
    return new Date(this.opts.now());
  }

  /** Live = not paused, not broken, readable. */
  isLive(a: StoredAutomation): boolean {
    return this.live(a);
  }

  private live(a: StoredAutomation) {
    return !a.paused && !a.broken && !a.unserializable && !a.deleted;
  }

  private onEvent(e: TapeEvent): void {
    if (e.type !== 'record.create' && e.type !== 'record.update' && e.type !== 'record.delete' && e.type !== 'comment.create') return;
    const origin = this.origin;
    if ('workflow' in e && !e.workflow) return;
    if (origin && !origin.workflow) return;
    const chain = origin?.chain ?? [];
    if (chain.length >= MAX_CHAIN) return;
    const triggerType = { 'record.create': 'record_created', 'record.update': 'record_updated', 'record.delete': 'record_deleted', 'comment.create': 'record_comment_or_reply_created' }[e.type];
    const record = this.state.records.get(e.record_id);
    if (!record) return;
    for (const a of this.store.automations.values()) {
      if (a.app_id !== e.app_id || !this.live(a) || a.trigger?.type !== triggerType || chain.includes(a.id)) continue;
      const start: RunStart = { type: 'regular', record, chain };
      if (e.type === 'comment.create') start.commentId = e.comment_id;
      else if ('revision_id' in e) start.recordRevision = e.revision_id;
      if (e.type === 'record.update') {
        const deltas = recordRevisions(this.state, e.record_id)[start.recordRevision ?? -1]?.deltas ?? [];
        const watched = a.trigger.config.trigger_on_changes_field_ids;
        if (Array.isArray(watched) && !deltas.some((d) => (watched as number[]).includes(d.field_id))) continue;
        const previous = new Map(record.values);
        for (const d of deltas) previous.set(d.field_id, d.from);
        start.previous = previous;
      }
      void this.start(a, start);
    }
  }

  /**
   * Starts a run in the background and returns its promise: the run, or undefined when the filter
   * rejected the record (no run row, as docs/vendors/tape.md#automation-execution says). Simulations always produce a run.
   */
  start(a: StoredAutomation, s: RunStart): Promise<Run | undefined> {
    return this.track(this.execute(a, s));
  }

  private async execute(a: StoredAutomation, s: RunStart): Promise<Run | undefined> {
    await Promise.resolve();
    const app = this.state.apps.get(a.app_id);
    if (!app) return undefined;
    // A live automation whose definition no longer validates is invalidated at run time (docs/vendors/tape.md#automation-object).
    if (s.type === 'regular' && activeErrors(brokenReasons(this.store, a)).length) {
      a.broken = true;
      a.broken_reason = null;
      return undefined;
    }
    const def = { trigger: structuredClone(a.trigger), filter: structuredClone(a.filter), actions: structuredClone(a.actions) };
    // A manual run or simulation of a periodic automation fills the slot of "now".
    if (def.trigger?.type === 'periodic' && !s.periodic) s = { ...s, periodic: { at: this.opts.now(), next: nextSlot(def.trigger.config, this.opts.now()) } };
    const created = this.now();
    const run: Run = {
      id: '',
      automation_id: a.id,
      automation_name: a.name,
      automation_revision_id: this.store.latestRevisionId(a.id),
      app_id: a.app_id,
      app_name: app.name,
      workspace_id: a.workspace_id,
      status: 'pending',
      type: s.type,
      created_at: tapeDateTime(created),
      filtering_at: tapeDateTime(created),
      started_at: null,
      completed_at: null,
      execution_duration_ms: null,
      waiting_duration_ms: null,
      num_consumed_actions: 0,
      failure_reason: null,
      error_message: null,
      triggered_on_record_id: s.record?.record_id ?? null,
      triggered_on_record_revision_id: s.record ? (s.recordRevision ?? Math.max(0, recordRevisions(this.state, s.record.record_id).length - 1)) : null,
      triggered_by_automation_id: s.triggeredBy ?? null,
      logs: [],
    };
    const ctx: Ctx = {
      a,
      app,
      run,
      simulate: s.type === 'simulation',
      record: s.record,
      previous: s.previous,
      webhookPayload: s.webhookPayload,
      commentId: s.commentId,
      start: s,
      vars: { ...(s.args ?? {}) },
      collections: [],
      executions: new Map(),
      chain: [...(s.chain ?? []), a.id],
      author: this.state.users.get(a.author_id) ?? [...this.state.users.values()][0]!,
      lastError: null,
      startedAt: Date.now(),
    };
    // Filtering happens before the run row exists: a non-matching record produces no run.
    let matches = true;
    let filterError: string | undefined;
    try {
      matches = def.filter ? await this.evalGroup(def.filter, ctx, s.record) : true;
    } catch (e) {
      filterError = e instanceof Error ? e.message : String(e);
    }
    if (!matches && !ctx.simulate) return undefined;
    run.id = this.store.newRunId();
    this.store.runs.set(run.id, run);
    const log = (entry: Omit<RunLog, 'logged_at' | 'record_id'> & { record_id?: number | null }) =>
      run.logs.push({ record_id: s.record?.record_id ?? null, ...entry, logged_at: tapeDateTime(this.now()) });
    log({ id: `${run.id}-trigger`, type: 'trigger', status: s.type === 'regular' ? 'success' : 'skipped', label: 'Trigger', messages: triggerMessages(def.trigger, s), action_id: null });
    const started = this.now();
    run.status = 'running';
    run.started_at = tapeDateTime(started);
    run.waiting_duration_ms = started.getTime() - created.getTime();
    if (filterError !== undefined) {
      log({ id: `${run.id}-filter`, type: 'filter', status: 'failure', label: 'Filter', messages: [{ message: filterError, level: 'error' }], action_id: null });
      return this.finish(run, 'failed', 'filters_failed', filterError);
    }
    if (ctx.simulate) {
      const message = !def.filter ? 'No filter: every record runs.' : matches ? 'The record matches the filter: a real run would start.' : 'The record does not match the filter: a real run would not start.';
      log({ id: `${run.id}-filter`, type: 'filter', status: 'skipped', label: 'Filter', messages: [{ message, level: 'info' }], action_id: null });
      if (!matches) return this.finish(run, 'completed', null, null);
    } else {
      log({ id: `${run.id}-filter`, type: 'filter', status: 'success', label: 'Filter', messages: def.filter ? [{ message: 'The record matches the filter.', level: 'success' }] : [], action_id: null });
    }
    try {
      await this.runActions(def.actions, ctx);
      return this.finish(run, 'completed', null, null);
    } catch (e) {
      if (e instanceof ExitRun) return e.success ? this.finish(run, 'completed', null, null) : this.finish(run, 'failed', 'exit_on_purpose', 'The automation exited with a failure on purpose.');
      if (e instanceof RunFailure) return this.finish(run, 'failed', e.reason, e.message);
      const message = e instanceof Error ? e.message : String(e);
      log({ id: `${run.id}-exception`, type: 'exception', status: 'failure', label: 'Exception', messages: [{ message, level: 'error' }], action_id: null });
      return this.finish(run, 'failed', 'actions_failed', message);
    }
  }

  private finish(run: Run, status: 'completed' | 'failed', reason: FailureReason | null, message: string | null): Run {
    const done = this.now();
    run.status = status;
    run.failure_reason = reason;
    run.error_message = message;
    run.completed_at = tapeDateTime(done);
    run.execution_duration_ms = Math.max(0, done.getTime() - new Date(`${run.started_at!.replace(' ', 'T')}Z`).getTime());
    return run;
  }

  // --- actions ---

  private async runActions(actions: Action[], ctx: Ctx): Promise<void> {
    for (const action of actions) {
      if (action.deactivate) continue;
      if (Date.now() - ctx.startedAt > MAX_RUN_MS) throw new RunFailure('actions_timeout', `The run exceeded ${MAX_RUN_MS / 60_000} minutes.`);
      if (action.group === 'control_flow') {
        await this.controlFlow(action, ctx);
        continue;
      }
      const n = (ctx.executions.get(action.id) ?? 0) + 1;
      ctx.executions.set(action.id, n);
      if (!ctx.simulate && ++ctx.run.num_consumed_actions > MAX_ACTIONS_PER_RUN) {
        throw new RunFailure('actions_resource_limit_exceeded', `The run exceeded ${MAX_ACTIONS_PER_RUN} actions.`);
      }
      const entry: RunLog = {
        id: `${ctx.run.id}-action-${action.id}-${n}`,
        type: 'action',
        status: 'in_progress',
        label: action.custom_name ?? ACTION_BY_TYPE.get(action.type)?.label ?? action.type,
        messages: [],
        action_id: action.id,
        record_id: ctx.record?.record_id ?? null,
        logged_at: tapeDateTime(this.now()),
      };
      try {
        const out = await this.leaf(action, ctx);
        if (out === null) continue; // a silent no-op (custom_variable without declarations)
        entry.messages = out.messages;
        if (out.record_id !== undefined) entry.record_id = out.record_id;
        entry.status = ctx.simulate || out.skipped ? 'skipped' : 'success';
        entry.logged_at = tapeDateTime(this.now());
        ctx.run.logs.push(entry);
      } catch (e) {
        if (e instanceof ExitRun) {
          entry.status = 'success';
          entry.messages = [{ message: e.success ? 'Exited the run (success).' : 'Exited the run (failure).', level: e.success ? 'info' : 'warn' }];
          ctx.run.logs.push(entry);
          throw e;
        }
        const message = e instanceof Error ? e.message : String(e);
        ctx.lastError = message;
        entry.status = 'failure';
        entry.messages = [{ message, level: 'error' }];
        entry.logged_at = tapeDateTime(this.now());
        ctx.run.logs.push(entry);
        if (e instanceof SandboxError && e.kind !== 'error') {
          throw new RunFailure(e.kind === 'timeout' ? 'actions_timeout' : 'actions_resource_limit_exceeded', message);
        }
        if (!action.continue_on_error) throw new RunFailure('actions_failed', message);
      }
    }
  }

  private async controlFlow(action: Action, ctx: Ctx): Promise<void> {
    const c = action.config;
    if (action.type === 'conditional') {
      const holds = isObject(c.condition) ? await this.evalGroup(c.condition as FilterNode, ctx, ctx.record) : true;
      const branch = holds ? c.action_rows : c.else_action_rows;
      if (Array.isArray(branch)) await this.runActions(branch as Action[], ctx);
      return;
    }
    // for_loop: continue_condition before the body, break_condition after it (docs/vendors/tape.md#automation-actions).
    if (!c.iterable) return;
    const items = this.iterableItems(c.iterable as Reference, ctx);
    const saved = ctx.loopItem;
    try {
      for (const item of items) {
        ctx.loopItem = item;
        const rec = isRecord(item) ? item : ctx.record;
        if (isObject(c.continue_condition) && (await this.evalGroup(c.continue_condition as FilterNode, ctx, rec))) continue;
        if (Array.isArray(c.action_rows)) await this.runActions(c.action_rows as Action[], ctx);
        if (isObject(c.break_condition) && (await this.evalGroup(c.break_condition as FilterNode, ctx, rec))) break;
      }
    } finally {
      ctx.loopItem = saved;
    }
  }

  private iterableItems(ref: Reference, ctx: Ctx): unknown[] {
    if (ref.source === 'action' && ref.action_type === 'record_collection') return [...(this.collection(ref, ctx)?.records ?? [])];
    const v = this.resolve(ref, ctx, 'raw');
    if (v === null || v === undefined) return [];
    if (Array.isArray(v)) return v;
    throw new Error('The loop iterable is not a collection, a multi-value field or a list variable.');
  }

  /** The nearest upstream collection (for the app, when the reference names one). */
  private collection(ref: Reference, ctx: Ctx) {
    for (let i = ctx.collections.length - 1; i >= 0; i--) {
      const c = ctx.collections[i]!;
      if (ref.app_id === undefined || c.app_id === ref.app_id) return c;
    }
    return undefined;
  }

  /** Writes with the run's chain set, so the events they raise know where they came from. */
  private write<T>(ctx: Ctx, config: Record<string, unknown>, fn: (o: WriteOptions) => T): T {
    const saved = this.origin;
    this.origin = { chain: ctx.chain, workflow: config.trigger_other_flows !== false };
    try {
      // Without author_id the change is the automation's own (record history credits it, not a user).
      const actor: TapeAutomationActor | undefined = config.author_id === undefined || config.author_id === null ? { automation_id: ctx.a.id, name: ctx.a.name } : undefined;
      return fn({ user: this.author(ctx, config), ...(actor ? { actor } : {}), hook: config.trigger_webhooks !== false, workflow: config.trigger_other_flows !== false, now: this.now() });
    } finally {
      this.origin = saved;
    }
  }

  private author(ctx: Ctx, config: Record<string, unknown>): TapeUser {
    const a = config.author_id;
    if (typeof a === 'number') return this.state.users.get(a) ?? ctx.author;
    if (isObject(a)) {
      const id = this.ids(a as Reference, ctx)[0];
      if (id !== undefined) return this.state.users.get(id) ?? ctx.author;
    }
    return ctx.author;
  }

  private currentRecord(ctx: Ctx): TapeRecordRow {
    if (!ctx.record) throw new Error('This action needs a current record, and the run has none.');
    return ctx.record;
  }

  private async leaf(action: Action, ctx: Ctx): Promise<{ messages: RunLog['messages']; record_id?: number | null; skipped?: boolean } | null> {
    const c = action.config;
    const info = (message: string) => ({ message, level: 'info' as const });
    const ok = (message: string) => ({ message, level: 'success' as const });
    switch (action.type) {
      case 'current_record_update': {
        const row = this.currentRecord(ctx);
        const fields = await this.assignments(c.field_assignments, ctx, ctx.app);
        const next = prepareUpdate(this.state, ctx.app, row, fields, this.now());
        const names = labelsOf(ctx.app, Object.keys(fields));
        if (ctx.simulate) return { messages: [info(names.length ? `Would update record ${row.record_id}: ${names.join(', ')}.` : `Would update record ${row.record_id} (no field changes).`)] };
        this.write(ctx, c, (o) => applyUpdate(this.state, ctx.app, row, next, o));
        return { messages: [ok(names.length ? `Record ${row.record_id} updated: ${names.join(', ')}.` : `Record ${row.record_id} updated (no field changes).`)] };
      }
      case 'record_create': {
        const appId = typeof c.app_id === 'number' ? c.app_id : ctx.app.app_id;
        const target = this.state.apps.get(appId);
        if (!target) throw new Error(`App ${appId} does not exist.`);
        const fields = await this.assignments(c.field_assignments, ctx, target);
        const values = prepareCreate(this.state, target, fields, this.now());
        if (ctx.simulate) return { messages: [info(`Would create a record in app ${target.app_id} (${target.name}).`)], record_id: null };
        const row = this.write(ctx, c, (o) => insertRecord(this.state, target, values, o));
        ctx.created = row;
        return { messages: [ok(`Record ${row.record_id} created in app ${target.app_id} (${target.name}).`)], record_id: row.record_id };
      }
      case 'current_record_delete': {
        const row = this.currentRecord(ctx);
        if (ctx.simulate) return { messages: [info(`Would delete record ${row.record_id}.`)] };
        this.write(ctx, c, (o) => deleteRecord(this.state, row, o));
        return { messages: [ok(`Record ${row.record_id} deleted.`)] };
      }
      case 'current_record_restore': {
        const row = this.currentRecord(ctx);
        if (ctx.simulate) return { messages: [info(`Would restore record ${row.record_id}.`)] };
        this.write(ctx, c, (o) => restoreRecord(this.state, row, o));
        return { messages: [ok(`Record ${row.record_id} restored.`)] };
      }
      case 'current_record_comment_create': {
        const row = this.currentRecord(ctx);
        const text = await this.template(c.comment_content, ctx);
        if (ctx.simulate) return { messages: [info(`Would comment on record ${row.record_id}: ${text}`)] };
        this.write(ctx, c, (o) => createComment(this.state, row, { value: text }, o));
        return { messages: [ok(`Comment added to record ${row.record_id}.`)] };
      }
      case 'custom_variable': {
        const defs = (c.custom_variable_defs as { label: string }[] | undefined) ?? [];
        if (!defs.length) return null;
        const code = await this.code(c.assignment_code, ctx);
        const out = await runInSandbox(code, { expression: true, globals: this.globals(ctx), limits: this.opts.codeLimits });
        for (const d of defs) ctx.vars[variableName(d.label)] = out.result;
        return { messages: [ok(`Set ${defs.map((d) => d.label).join(', ')} = ${short(out.result)}.`)] };
      }
      case 'custom_code': {
        const code = await this.code(c.code, ctx);
        const defs = (c.custom_variable_defs as { label: string }[] | undefined) ?? [];
        const vars: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(ctx.vars)) if (/^var_[0-9a-zA-Z_$]*$/.test(k)) vars[k] = v;
        for (const d of defs) vars[variableName(d.label)] ??= null;
        const out = await runInSandbox(code, { globals: this.globals(ctx), vars, limits: this.opts.codeLimits });
        Object.assign(ctx.vars, out.vars);
        if (defs.length === 1 && out.result !== null && out.vars[variableName(defs[0]!.label)] === null) ctx.vars[variableName(defs[0]!.label)] = out.result;
        return { messages: [...out.logs.map((l) => info(l)), ok(out.result === null ? 'Code ran.' : `Code ran and returned ${short(out.result)}.`)] };
      }
      case 'send_email':
        return this.sendEmail(action, ctx, ctx.record);
      case 'collected_records_send_email': {
        const col = this.collection((c.record_collection as Reference) ?? { kind: 'variable' }, ctx);
        const messages: RunLog['messages'] = [];
        for (const r of col?.records ?? []) messages.push(...(await this.sendEmail(action, { ...ctx, record: r }, r)).messages);
        return { messages: messages.length ? messages : [info('The collection is empty: no email sent.')] };
      }
      case 'http_call':
        return this.httpCall(action, ctx);
      case 'collect_app_records': {
        const appId = typeof c.app_id === 'number' ? c.app_id : ctx.app.app_id;
        const target = this.state.apps.get(appId);
        if (!target) throw new Error(`App ${appId} does not exist.`);
        const limit = collectLimit(c);
        const records: TapeRecordRow[] = [];
        for (const r of [...appRecords(this.state, appId)].reverse()) {
          if (records.length >= limit) break;
          if (!isObject(c.match_condition) || (await this.evalGroup(c.match_condition as FilterNode, ctx, r))) records.push(r);
        }
        ctx.collections.push({ app_id: appId, records });
        return { messages: [ok(`Collected ${records.length} record${records.length === 1 ? '' : 's'} from app ${appId} (${target.name}).`)] };
      }
      case 'filter_record_collection': {
        const col = this.collection((c.record_collection as Reference) ?? { kind: 'variable' }, ctx);
        if (!col) throw new Error('No upstream collection to filter.');
        const kept: TapeRecordRow[] = [];
        for (const r of col.records) if (!isObject(c.match_condition) || (await this.evalGroup(c.match_condition as FilterNode, ctx, r))) kept.push(r);
        col.records = kept;
        return { messages: [ok(`${kept.length} record${kept.length === 1 ? '' : 's'} kept.`)] };
      }
      case 'clear_record_collection': {
        const col = this.collection((c.record_collection as Reference) ?? { kind: 'variable' }, ctx);
        if (col) col.records = [];
        return { messages: [ok('Collection cleared.')] };
      }
      case 'sort_record_collection': {
        const col = this.collection((c.record_collection as Reference) ?? { kind: 'variable' }, ctx);
        if (!col) throw new Error('No upstream collection to sort.');
        const app = this.state.apps.get(col.app_id)!;
        const sorts = (Array.isArray(c.sorts) ? c.sorts : []) as { variable_def?: Reference; direction?: string }[];
        const key = (r: TapeRecordRow, ref: Reference | undefined): string | number | null => {
          if (ref?.source === 'meta') return ref.meta_type === 'created_at' ? r.created_on : ref.meta_type === 'last_modified_at' ? r.last_modified_on : r.app_record_id;
          const f = app.fields.find((x) => x.field_id === ref?.field_id);
          if (!f) return null;
          const raw = fieldRaw(f, r.values.get(f.field_id) ?? []);
          return typeof raw === 'number' ? raw : raw === null ? null : toText(raw).toLowerCase();
        };
        col.records = [...col.records].sort((x, y) => {
          for (const s2 of sorts) {
            const [a, b] = [key(x, s2.variable_def), key(y, s2.variable_def)];
            if (a === b) continue;
            if (a === null) return 1;
            if (b === null) return -1;
            return (a < b ? -1 : 1) * (s2.direction === 'desc' ? -1 : 1);
          }
          return 0;
        });
        return { messages: [ok(`Sorted ${col.records.length} records.`)] };
      }
      case 'collected_records_comment_create': {
        const col = this.collection((c.record_collection as Reference) ?? { kind: 'variable' }, ctx);
        const records = col?.records ?? [];
        if (ctx.simulate) return { messages: [info(`Would comment on ${records.length} records.`)] };
        for (const r of records) {
          const text = await this.template(c.comment_content, { ...ctx, loopItem: r });
          this.write(ctx, c, (o) => createComment(this.state, r, { value: text }, o));
        }
        return { messages: [ok(`Commented on ${records.length} records.`)] };
      }
      case 'rollup_iterable_values': {
        const ref = c.rollup_variable_def as Reference | undefined;
        const out = (c.custom_variable_def as { label?: string } | undefined)?.label ?? 'Rollup';
        let values: unknown[] = [];
        if (ref?.source === 'field') {
          const col = [...ctx.collections].reverse().find((x) => this.state.apps.get(x.app_id)?.fields.some((f) => f.field_id === ref.field_id));
          const f = col ? this.state.apps.get(col.app_id)!.fields.find((x) => x.field_id === ref.field_id)! : undefined;
          values = col && f ? col.records.map((r) => fieldRaw(f, r.values.get(f.field_id) ?? [])) : [];
        } else if (ref) {
          const raw = this.resolve(ref, ctx, 'raw');
          values = Array.isArray(raw) ? raw : [raw];
        }
        const empty = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && !v.length);
        const nums = values.filter((v) => !empty(v)).map(Number).filter((n) => !Number.isNaN(n)).sort((a, b) => a - b);
        const pct = (n: number) => (values.length ? (100 * n) / values.length : 0);
        const filled = values.filter((v) => !empty(v)).length;
        const result = ((): number | null => {
          switch (c.rollup_type) {
            case 'count_all': return values.length;
            case 'count_empty': return values.length - filled;
            case 'count_not_empty': return filled;
            case 'percent_empty': return pct(values.length - filled);
            case 'percent_not_empty': return pct(filled);
            case 'sum': return nums.reduce((a, b) => a + b, 0);
            case 'average': return nums.length ? nums.reduce((a, b) => a + b, 0) / nums.length : null;
            case 'median': return nums.length ? (nums.length % 2 ? nums[(nums.length - 1) / 2]! : (nums[nums.length / 2 - 1]! + nums[nums.length / 2]!) / 2) : null;
            case 'min': return nums.length ? nums[0]! : null;
            case 'max': return nums.length ? nums.at(-1)! : null;
            default: return null;
          }
        })();
        ctx.vars[variableName(out)] = result;
        return { messages: [ok(`${out} = ${String(result)} (${String(c.rollup_type)} of ${values.length} values).`)] };
      }
      case 'collected_records_update': {
        const col = this.collection((c.record_collection as Reference) ?? { kind: 'variable' }, ctx);
        if (!col) throw new Error('No upstream collection to update.');
        const n = await this.updateEach(col.records, this.state.apps.get(col.app_id)!, c, ctx);
        return { messages: [ctx.simulate ? info(`Would update ${n} records.`) : ok(`${n} records updated.`)] };
      }
      case 'referenced_records_update': {
        // The records the current record references, or that reference it, in app_id (its relation-edge apps).
        const row = this.currentRecord(ctx);
        const target = typeof c.app_id === 'number' ? this.state.apps.get(c.app_id) : undefined;
        if (!target) throw new Error(`App ${String(c.app_id ?? '(none)')} does not exist: referenced_records_update needs the app of the referenced records.`);
        const records = relatedRecords(this.state, [row], { direction: 'both', appId: target.app_id });
        const n = await this.updateEach(records, target, c, ctx);
        return { messages: [ctx.simulate ? info(`Would update ${n} referenced records in app ${target.app_id}.`) : ok(`${n} referenced records updated in app ${target.app_id} (${target.name}).`)] };
      }
      case 'collect_app_view_records': {
        const view = typeof c.app_view_id === 'number' ? getView(this.state, c.app_view_id) : undefined;
        if (!view || (typeof c.app_id === 'number' && view.app_id !== c.app_id)) throw new Error(`App view ${String(c.app_view_id ?? '(none)')} does not exist${typeof c.app_id === 'number' ? ` in app ${c.app_id}` : ''}.`);
        const app = this.state.apps.get(view.app_id);
        if (!app) throw new Error(`App ${view.app_id} does not exist.`);
        // The view's own filters and sort order, as GET /v1/record/view/{id} applies them.
        const fctx = { userId: ctx.author.user_id, now: this.now() };
        const matching = appRecords(this.state, app.app_id).filter((r) => recordMatches(r, app, view.filters as TapeFilter[], fctx));
        const sortBy = view.sort_by === null ? undefined : app.fields.find((f) => f.field_id === view.sort_by)?.external_id;
        const records = sortRecords(matching, app, sortBy, view.sort_desc).slice(0, collectLimit(c));
        ctx.collections.push({ app_id: app.app_id, records });
        return { messages: [ok(`Collected ${records.length} record${records.length === 1 ? '' : 's'} from view ${view.view_id} of app ${app.app_id} (${app.name}).`)] };
      }
      case 'collect_referenced_records':
      case 'collected_records_collect_referenced_records': {
        const sources =
          action.type === 'collect_referenced_records' ? (ctx.record ? [ctx.record] : []) : c.record_collection ? (this.collection(c.record_collection as Reference, ctx)?.records ?? []) : [];
        const n = await this.collectReferenced(c.ref_collection_defs, sources, ctx);
        return { messages: [ok(`Collected ${n} referenced record${n === 1 ? '' : 's'} from ${sources.length} source record${sources.length === 1 ? '' : 's'}.`)] };
      }
      case 'current_record_get_previous_revision': {
        // Values of the revision before the latest: later references with previous: true read them.
        const row = this.currentRecord(ctx);
        const revisions = recordRevisions(this.state, row.record_id);
        const latest = revisions.at(-1);
        const previous = new Map(row.values);
        for (const d of latest?.deltas ?? []) {
          if (d.from.length) previous.set(d.field_id, d.from);
          else previous.delete(d.field_id);
        }
        ctx.previous = previous;
        const n = Math.max(0, revisions.length - 2);
        return { messages: [revisions.length > 1 ? ok(`Loaded revision ${n} of record ${row.record_id}.`) : info(`Record ${row.record_id} has only its creation revision: previous values are empty.`)] };
      }
      case 'current_record_comment_or_reply_reply_create': {
        const row = this.currentRecord(ctx);
        const parent = this.triggeringComment(ctx);
        const text = await this.template(c.reply_content, ctx);
        if (ctx.simulate) return { messages: [info(`Would reply to comment ${parent.comment_id}: ${text}`)] };
        // Replies form one thread under the top comment.
        const reply = this.write(ctx, c, (o) => createComment(this.state, row, { value: text, reply_to: parent.reply_to ?? parent.comment_id }, o));
        return { messages: [ok(`Reply ${reply.comment_id} added to comment ${parent.comment_id}.`)] };
      }
      case 'current_record_comment_or_reply_delete': {
        const comment = this.triggeringComment(ctx);
        if (ctx.simulate) return { messages: [info(`Would delete comment ${comment.comment_id}.`)] };
        this.write(ctx, c, (o) => deleteComment(this.state, comment, o));
        return { messages: [ok(`Comment ${comment.comment_id} deleted.`)] };
      }
      case 'current_record_generate_automation_weblink': {
        const row = this.currentRecord(ctx);
        const target = typeof c.automation_id === 'number' ? this.store.get(c.automation_id) : undefined;
        if (!target || target.trigger?.type !== 'weblink_clicked' || target.app_id !== ctx.a.app_id) {
          throw new Error(`Automation ${String(c.automation_id ?? '(none)')} is not a weblink_clicked automation of app ${ctx.a.app_id}.`);
        }
        const args = await this.callArguments(c.call_arguments, ctx);
        const label = (c.custom_variable_def as { label?: string } | undefined)?.label ?? 'Weblink';
        if (ctx.simulate) return { messages: [info(`Would generate a weblink to automation ${target.id} for record ${row.record_id}.`)] };
        const link = this.store.mintWeblink({ automation_id: target.id, record_id: row.record_id, arguments: args, expiration: String(c.weblink_expiration ?? 'never'), now: this.opts.now() });
        ctx.vars[variableName(label)] = link.url;
        return { messages: [ok(`Weblink to automation ${target.id} generated: ${label}.`)] };
      }
      case 'display_webpage': {
        const body = await this.template(c.webpage_body, ctx);
        const page = ctx.start.page;
        if (!page) return { messages: [info('No weblink click waits for an answer in this run: the webpage is not shown.')] };
        if (c.join_type === 'replace_previous') page.html = [body];
        else if (c.join_type === 'add_above') page.html.unshift(body);
        else page.html.push(body);
        if (c.fullscreen === true) page.fullscreen = true;
        if (c.remove_branding === true) page.removeBranding = true;
        return { messages: [ok(`Webpage shown (${body.length} characters).`)] };
      }
      case 'redirect_user': {
        const url = await this.template(c.redirect_url, ctx);
        let parsed: URL;
        try {
          parsed = new URL(url);
        } catch {
          throw new Error(`"${url}" is not a valid URL to redirect to.`);
        }
        if (!/^https?:$/.test(parsed.protocol)) throw new Error(`"${url}" is not an http(s) URL to redirect to.`);
        const page = ctx.start.page;
        if (!page) return { messages: [info(`No weblink click waits for an answer in this run: no redirect to ${url}.`)] };
        page.redirect = parsed.href;
        return { messages: [ok(`User redirected to ${parsed.href}.`)] };
      }
      case 'create_pdf':
        return this.createPdf(c, ctx);
      case 'authenticated_http_call': {
        if (typeof c.authentication_provider_id !== 'number') {
          // docs/vendors/tape.md#automation-actions: without a provider the action is skipped at run time.
          return { messages: [{ message: 'No authentication_provider_id: the authenticated request is skipped, as Tape does.', level: 'warn' }], skipped: true };
        }
        const provider = this.opts.authProviders.get(c.authentication_provider_id);
        if (!provider) throw new Error(`Authentication provider ${c.authentication_provider_id} does not exist.`);
        return this.httpCall(action, ctx, provider);
      }
      case 'current_record_call_automation':
      case 'collected_records_call_automation': {
        const target = typeof c.automation_id === 'number' ? this.store.get(c.automation_id) : undefined;
        if (!target) throw new Error(`Automation ${String(c.automation_id)} does not exist.`);
        const args = await this.callArguments(c.call_arguments, ctx);
        const records = action.type === 'current_record_call_automation' ? [this.currentRecord(ctx)] : (this.collection((c.record_collection as Reference) ?? { kind: 'variable' }, ctx)?.records ?? []);
        if (ctx.simulate) return { messages: [info(`Would call automation ${target.id} for ${records.length} record(s).`)] };
        for (const r of records) this.call(target, r, args, ctx.a.id, ctx.chain);
        return { messages: [ok(`Called automation ${target.id} for ${records.length} record(s).`)] };
      }
      case 'exit':
        if (ctx.simulate) return { messages: [info(`Would exit the run (${String(c.exit_type ?? 'success')}).`)] };
        throw new ExitRun(c.exit_type !== 'failure');
      case 'delay':
        return { messages: [info(`Delay of ${String(c.delay_ms ?? 0)} ms (not waited in the twin).`)] };
      default:
        throw new Error(`Unknown action type ${action.type}.`);
    }
  }

  /** Applies field_assignments to each record (the value references read that record); the count. */
  private async updateEach(records: TapeRecordRow[], target: TapeApp, c: Record<string, unknown>, ctx: Ctx): Promise<number> {
    let n = 0;
    for (const r of records) {
      const fields = await this.assignments(c.field_assignments, { ...ctx, loopItem: r }, target, r);
      const next = prepareUpdate(this.state, target, r, fields, this.now());
      if (!ctx.simulate) this.write(ctx, c, (o) => applyUpdate(this.state, target, r, next, o));
      n++;
    }
    return n;
  }

  /** Follows ref_collection_defs from `sources`; the records found become collections (one per app). */
  private async collectReferenced(defs: unknown, sources: TapeRecordRow[], ctx: Ctx): Promise<number> {
    const found = new Map<number, TapeRecordRow>();
    const apps: number[] = [];
    for (const def of Array.isArray(defs) ? (defs as Record<string, unknown>[]) : []) {
      const direction = def.direction === 'incoming' || def.direction === 'both' ? def.direction : 'outgoing';
      const appId = typeof def.app_id === 'number' ? def.app_id : undefined;
      if (appId !== undefined) apps.push(appId);
      const fieldIds = Array.isArray(def.via_field_ids) ? new Set(def.via_field_ids as number[]) : undefined;
      for (const r of relatedRecords(this.state, sources, { direction, ...(appId !== undefined ? { appId } : {}), ...(fieldIds ? { fieldIds } : {}) })) {
        if (def.match_type === 'filtered' && isObject(def.match_condition) && !(await this.evalGroup(def.match_condition as FilterNode, ctx, r))) continue;
        found.set(r.record_id, r);
      }
    }
    const byApp = new Map<number, TapeRecordRow[]>(apps.map((id) => [id, []]));
    for (const r of found.values()) byApp.set(r.app_id, [...(byApp.get(r.app_id) ?? []), r]);
    for (const [app_id, records] of byApp) ctx.collections.push({ app_id, records: records.slice(0, MAX_COLLECT) });
    return found.size;
  }

  /** The comment or reply that started a record_comment_or_reply_created run. */
  private triggeringComment(ctx: Ctx) {
    const comment = ctx.commentId !== undefined ? findComment(this.state, ctx.commentId) : undefined;
    if (!comment) throw new Error(ctx.commentId === undefined ? 'This action needs the comment or reply that triggered the run, and the run has none.' : `Comment ${ctx.commentId} no longer exists.`);
    return comment;
  }

  /** create_pdf: the rendered PDF is kept like an upload (a temporary file) and is the action's output variable. */
  private async createPdf(c: Record<string, unknown>, ctx: Ctx) {
    const num = async (v: unknown, fallback: number) => {
      const n = Number(await this.evalCode(v, ctx));
      return v === undefined || v === null || Number.isNaN(n) || n <= 0 ? fallback : n;
    };
    const following = async (enabled: unknown, v: unknown) => (enabled === true ? this.template(v, ctx) : null);
    const name = (await this.template(c.filename, ctx)).trim() || 'document';
    const filename = /\.pdf$/i.test(name) ? name : `${name}.pdf`;
    const label = (c.custom_variable_def as { label?: string } | undefined)?.label ?? 'PDF';
    if (ctx.simulate) return { messages: [{ message: `Would create ${filename}.`, level: 'info' as const }] };
    const customMargins = c.page_margins === 'custom_margins'
      ? { top: await num(c.page_custom_margin_top, 72), right: await num(c.page_custom_margin_right, 72), bottom: await num(c.page_custom_margin_bottom, 72), left: await num(c.page_custom_margin_left, 72) }
      : null;
    const header = c.header_and_footer_enabled === true;
    const bytes = await renderPdf({
      title: filename,
      body: await this.template(c.pdf_body, ctx),
      header: header ? await this.template(c.pdf_header, ctx) : '',
      headerFollowing: header ? await following(c.pdf_header_following_pages_enabled, c.pdf_header_following_pages) : null,
      footer: header ? await this.template(c.pdf_footer, ctx) : '',
      footerFollowing: header ? await following(c.pdf_footer_following_pages_enabled, c.pdf_footer_following_pages) : null,
      pageSize: String(c.page_size ?? 'a4'),
      customSize: c.page_size === 'custom_size' ? [await num(c.page_custom_width, 595), await num(c.page_custom_height, 842)] : null,
      orientation: String(c.page_orientation ?? 'portrait'),
      margins: String(c.page_margins ?? 'normal'),
      customMargins,
      pageNumbers: c.page_numbers_enabled === true,
      pageNumberStyle: String(c.page_number_style ?? 'decimal'),
      pageNumberStart: await num(c.page_number_start, 1),
    });
    const file: TapeStoredFile = {
      file_id: `temporary-file-${this.state.nextId.file++}`,
      name: filename,
      size: bytes.length,
      mimetype: 'application/pdf',
      created_on: tapeDateTime(this.now()),
      link: `https://s3.eu-central-1.amazonaws.com/tape-attachments/automation-${ctx.run.id}-${encodeURIComponent(filename)}`,
      content: bytes,
      uploaded_by: ctx.author.user_id,
    };
    this.state.files.set(file.file_id, file);
    ctx.vars[variableName(label)] = { file_id: file.file_id, name: file.name, size: file.size, mimetype: file.mimetype };
    return { messages: [{ message: `${filename} created (${bytes.length} bytes) as ${label}.`, level: 'success' as const }] };
  }

  /** Starts an automation_called automation (call endpoint and call actions): a paused, broken or non-matching target yields no run. */
  call(target: StoredAutomation, record: TapeRecordRow, args: Record<string, unknown>, by: number | null, chain: number[] = [], type: RunType = 'regular'): Promise<Run | undefined> | undefined {
    if (target.trigger?.type !== 'automation_called') return undefined;
    if (type === 'regular' && !this.live(target)) return undefined;
    if (chain.includes(target.id) || chain.length >= MAX_CHAIN) return undefined;
    return this.start(target, { type, record, args, triggeredBy: by, chain });
  }

  private async callArguments(v: unknown, ctx: Ctx): Promise<Record<string, unknown>> {
    const out: Record<string, unknown> = {};
    for (const arg of Array.isArray(v) ? v : []) {
      if (!isObject(arg) || !isObject(arg.variable_def)) continue;
      const name = variableName(String(arg.variable_def.label));
      out[name] = arg.assignment_type === 'set_code' ? await this.evalCode(arg.code, ctx) : await this.template(arg.value, ctx);
    }
    return out;
  }

  private async sendEmail(action: Action, ctx: Ctx, record: TapeRecordRow | undefined) {
    const c = action.config;
    const local = { ...ctx, record };
    const list = async (v: unknown) => (await this.template(v, local)).split(/[,;\s]+/).filter(Boolean);
    const to = await list(c.to_address);
    if (!to.length) throw new Error('The email has no recipient: to_address resolved to nothing.');
    const subject = await this.template(c.subject, local);
    const body = await this.template(c.message_body, local);
    if (ctx.simulate) return { messages: [{ message: `Would send email to ${to.join(', ')}: "${subject}".`, level: 'info' as const }] };
    const reply = await this.template(c.reply_address, local);
    const from = await this.template(c.from_address, local);
    const fromName = await this.template(c.from_name, local);
    this.store.outbox.push({
      source: 'automation',
      run_id: ctx.run.id,
      automation_id: ctx.a.id,
      action_id: action.id,
      record_id: record?.record_id ?? null,
      to,
      cc: await list(c.cc_address),
      bcc: await list(c.bcc_address),
      reply_to: reply || null,
      from_address: from || null,
      from_name: fromName || null,
      subject,
      body,
      smtp_account_id: typeof c.smtp_account_id === 'number' ? c.smtp_account_id : null,
      sent_at: tapeDateTime(this.now()),
    });
    return { messages: [{ message: `Email sent to ${to.join(', ')}`, level: 'success' as const }] };
  }

  /** GET of a page the twin may reach (an allow-listed host, http or https), or undefined: the twin has no internet of its own. */
  async reach(url: string): Promise<Response | undefined> {
    const parsed = new URL(url);
    if (!/^https?:$/.test(parsed.protocol) || !this.hostAllowed(parsed.hostname.toLowerCase())) return undefined;
    return this.opts.fetch(url, { redirect: 'follow', signal: AbortSignal.timeout(10_000) });
  }

  private hostAllowed(host: string): boolean {
    return this.opts.httpHosts.some((h) => (h.startsWith('*.') ? host.endsWith(h.slice(1)) : host === h.toLowerCase()));
  }

  /** http_call, and authenticated_http_call with its provider's headers (kept out of logs and the call record). */
  private async httpCall(action: Action, ctx: Ctx, provider?: AuthProvider) {
    const c = action.config;
    const method = String(c.http_call_type ?? 'get').toUpperCase();
    const url = await this.template(c.http_call_url, ctx);
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new Error(`"${url}" is not a valid URL.`);
    }
    const headers: Record<string, string> = {};
    for (const h of (c.http_call_headers as { key: string; value: unknown }[] | undefined) ?? []) headers[h.key] = await this.template(h.value, ctx);
    const body = method === 'GET' || method === 'DELETE' ? '' : await this.template(c.http_call_body, ctx);
    const record: HttpCallRecord = { run_id: ctx.run.id, action_id: action.id, method, url, headers: { ...headers }, body, allowed: false, status: null };
    if (provider) {
      record.authentication_provider_id = provider.id;
      for (const [k, v] of Object.entries(provider.headers)) {
        headers[k] = v;
        record.headers[k] = `[authentication provider ${provider.id}]`;
      }
    }
    if (!/^https?:$/.test(parsed.protocol) || !this.hostAllowed(parsed.hostname.toLowerCase())) {
      if (ctx.simulate) return { messages: [{ message: `Would send ${method} ${url}, but host ${parsed.hostname} is not allowed: the request would be refused.`, level: 'warn' as const }] };
      this.store.httpCalls.push(record);
      throw new Error(`HTTP request refused: host ${parsed.hostname} is not an allowed host for automation HTTP requests (allowed: ${this.opts.httpHosts.join(', ') || 'none'}).`);
    }
    if (ctx.simulate) return { messages: [{ message: `Would send ${method} ${url}.`, level: 'info' as const }] };
    record.allowed = true;
    this.store.httpCalls.push(record);
    const res = await this.opts.fetch(url, { method, headers, ...(body ? { body } : {}), redirect: c.http_call_follow_redirects === true ? 'follow' : 'manual', signal: AbortSignal.timeout(30_000) });
    record.status = res.status;
    const text = await res.text();
    let data: unknown = text;
    try {
      data = JSON.parse(text);
    } catch {
      // not JSON: kept as text
    }
    const defs = (c.custom_variable_defs as { label: string }[] | undefined) ?? [];
    for (const d of defs) ctx.vars[variableName(d.label)] = { status: res.status, headers: Object.fromEntries(res.headers.entries()), body: data };
    const signed = provider ? ` (signed by authentication provider ${provider.id}, ${provider.name})` : '';
    return { messages: [{ message: `${method} ${url}${signed} answered ${res.status}.`, level: res.ok ? ('success' as const) : ('warn' as const) }] };
  }

  /** field_assignments → the `fields` input of the record API (only set / set_code / clear). */
  private async assignments(v: unknown, ctx: Ctx, app: TapeApp, _row?: TapeRecordRow): Promise<Record<string, unknown>> {
    const fields: Record<string, unknown> = {};
    for (const fa of Array.isArray(v) ? (v as Record<string, unknown>[]) : []) {
      const ref = fa.variable_def as Reference;
      const field = app.fields.find((f) => f.field_id === ref?.field_id);
      if (!field) throw new Error(`Field ${String(ref?.field_id)} does not exist in app ${app.app_id}.`);
      const key = String(field.field_id);
      if (fa.assignment_type === 'clear') fields[key] = null;
      else if (fa.assignment_type === 'set_code') fields[key] = await this.evalCode(fa.code, ctx);
      else if (Array.isArray(fa.ids)) {
        const ids: number[] = [];
        for (const x of fa.ids) ids.push(...(typeof x === 'number' ? [x] : this.ids(x as Reference, ctx)));
        fields[key] = ids;
      } else if (FIELD_TYPES[field.field_type]?.valueType === 'attachment' && Array.isArray(fa.field_value)) {
        // A file field takes the files its references hold (e.g. the PDF of create_pdf).
        const ids = (fa.field_value as unknown[]).flatMap((p) => (isObject(p) ? fileIds(this.resolve(p as Reference, ctx, 'raw')) : []));
        fields[key] = ids.length ? ids : null;
      } else {
        const text = await this.template(fa.field_value, ctx);
        fields[key] = text === '' ? null : FIELD_TYPES[field.field_type]?.valueType === 'number' ? Number(text) : text;
      }
    }
    return fields;
  }

  // --- dynamic values ---

  private globals(ctx: Ctx): Record<string, unknown> {
    return {
      record: ctx.record ? { record_id: ctx.record.record_id, app_record_id: ctx.record.app_record_id, title: ctx.record.title, fields: this.recordFields(ctx.record) } : null,
      automation: { automation_id: ctx.a.id, run_id: ctx.run.id, app_id: ctx.a.app_id },
      webhook_payload: ctx.webhookPayload ?? null,
    };
  }

  /** A record's values by external id, as plain data for code. */
  private recordFields(row: TapeRecordRow): Record<string, unknown> {
    const app = this.state.apps.get(row.app_id);
    const out: Record<string, unknown> = {};
    for (const f of app?.fields ?? []) out[f.external_id] = fieldRaw(f, row.values.get(f.field_id) ?? []);
    return out;
  }

  async template(v: unknown, ctx: Ctx): Promise<string> {
    if (v === undefined || v === null) return '';
    const parts = typeof v === 'string' ? [v] : (v as DynamicValue);
    return parts.map((p) => (typeof p === 'string' ? p : toText(this.resolve(p, ctx, 'text')))).join('');
  }

  async code(v: unknown, ctx: Ctx): Promise<string> {
    if (v === undefined || v === null) return '';
    const parts = typeof v === 'string' ? [v] : (v as DynamicValue);
    return parts.map((p) => (typeof p === 'string' ? p : JSON.stringify(this.resolve(p, ctx, 'raw') ?? null))).join('');
  }

  /** A code value's result: a number literal directly, anything else evaluated in the sandbox. */
  private async evalCode(v: unknown, ctx: Ctx): Promise<unknown> {
    const src = (await this.code(v, ctx)).trim();
    if (src === '') return null;
    if (/^-?\d+(\.\d+)?$/.test(src)) return Number(src);
    return (await runInSandbox(src, { expression: true, globals: this.globals(ctx), limits: this.opts.codeLimits })).result;
  }

  /** Resolves a reference to text (templates) or raw data (code, iterables). */
  resolve(ref: Reference, ctx: Ctx, mode: 'text' | 'raw'): unknown {
    if (ref.kind === 'value') return this.resolveValue(ref, ctx, mode);
    const loopRecord = isRecord(ctx.loopItem) ? ctx.loopItem : undefined;
    const row = ref.collection && loopRecord ? loopRecord : ctx.record;
    switch (ref.source) {
      case 'field': {
        if (!row) return null;
        const app = this.state.apps.get(row.app_id);
        const field = app?.fields.find((f) => f.field_id === ref.field_id);
        if (!field) return null;
        const values = (ref.previous && ctx.previous && row === ctx.record ? ctx.previous : row.values).get(field.field_id) ?? [];
        if (ref.property) return propertyOf(values, ref.property);
        return mode === 'text' ? valueText(field, values) : fieldRaw(field, values);
      }
      case 'meta': {
        if (!row) return null;
        const user = (id: number) => this.state.users.get(id);
        switch (ref.meta_type) {
          case 'record_id':
            return row.record_id;
          case 'app_record_id':
            return row.app_record_id;
          case 'record_url':
            return `https://tapeapp.com/${this.state.org.slug}/record/${row.record_id}`;
          case 'revision':
            return Math.max(0, recordRevisions(this.state, row.record_id).length - 1);
          case 'created_at':
            return row.created_on;
          case 'last_modified_at':
            return row.last_modified_on;
          case 'created_by':
            return ref.property === 'email' ? user(row.created_by)?.email : mode === 'raw' && ref.property === 'user_id' ? row.created_by : user(row.created_by)?.name;
          case 'last_modified_by':
            return ref.property === 'email' ? user(row.last_modified_by)?.email : user(row.last_modified_by)?.name;
          default:
            return null;
        }
      }
      case 'global': {
        const now = this.now();
        switch (ref.global_type) {
          case 'current_date':
            return tapeDateTime(now).slice(0, 10);
          case 'current_datetime':
            return tapeDateTime(now);
          case 'current_time':
            return tapeDateTime(now).slice(11, 16);
          case 'current_automation':
            return ctx.a.id;
          case 'current_automation_run':
            return ctx.run.id;
          case 'actions_left_in_hour':
            return MAX_ACTIONS_PER_RUN - ctx.run.num_consumed_actions;
          case 'most_recent_error':
            return ctx.lastError;
          default:
            return null;
        }
      }
      case 'trigger': {
        if (ref.trigger_type === 'webhook_payload') return mode === 'text' && typeof ctx.webhookPayload !== 'string' ? JSON.stringify(ctx.webhookPayload ?? null) : (ctx.webhookPayload ?? null);
        if (ref.trigger_type === 'webhook_payload_property') return keyPath(ctx.webhookPayload, ref.key_path);
        if (ref.trigger_type === 'record_comment_or_reply_id') return ctx.commentId ?? null;
        const at = (ms: number | null | undefined) => (typeof ms === 'number' ? tapeDateTime(new Date(ms)) : null);
        switch (ref.trigger_type) {
          case 'periodic_execution_datetime':
            return at(ctx.start.periodic?.at);
          case 'periodic_next_execution_datetime':
            return at(ctx.start.periodic?.next);
          case 'weblink_click_count':
            return ctx.start.weblink?.click_count ?? null;
          case 'weblink_created_at':
            return at(ctx.start.weblink?.created_at);
        }
        const comment = ctx.commentId !== undefined ? findComment(this.state, ctx.commentId) : undefined;
        if (!comment) return null;
        switch (ref.trigger_type) {
          case 'record_comment_or_reply_content':
            return comment.value;
          case 'record_comment_or_reply_created_by':
            return comment.actor ? comment.actor.name : ref.property === 'email' ? (this.state.users.get(comment.created_by)?.email ?? null) : mode === 'raw' ? comment.created_by : (this.state.users.get(comment.created_by)?.name ?? null);
          case 'record_comment_or_reply_entity_type':
            return comment.reply_to === undefined ? 'comment' : 'reply';
          case 'record_comment_or_reply_attachments':
            return mode === 'text' ? comment.files.map((f) => f.name).join(', ') : comment.files;
          default:
            return null;
        }
      }
      case 'action': {
        if (ref.action_type === 'created_record') return ctx.created ? (mode === 'text' ? ctx.created.title : ctx.created.record_id) : null;
        if (ref.action_type === 'record_collection') {
          const col = this.collection(ref, ctx);
          if (!col) return null;
          return mode === 'text' ? col.records.map((r) => r.title).join(', ') : col.records.map((r) => r.record_id);
        }
        return null;
      }
      case 'custom':
        return ctx.vars[variableName(String(ref.label))] ?? null;
      default:
        return null;
    }
  }

  private resolveValue(ref: Reference, _ctx: Ctx, mode: 'text' | 'raw'): unknown {
    switch (ref.value_type) {
      case 'option': {
        for (const app of this.state.apps.values()) {
          const f = app.fields.find((x) => x.field_id === ref.field_id);
          const o = f ? categoryOptions(f).find((x) => x.id === ref.option_id) : undefined;
          if (o) return mode === 'text' ? o.text : o.id;
        }
        return null;
      }
      case 'user': {
        const u = this.state.users.get(ref.user_id as number);
        return !u ? null : ref.property === 'email' ? u.email : mode === 'text' ? u.name : u.user_id;
      }
      case 'record': {
        const r = this.state.records.get(ref.record_id as number);
        return !r ? null : mode === 'text' ? r.title : r.record_id;
      }
      case 'date':
        return ref.property === 'current_datetime' ? tapeDateTime(this.now()) : tapeDateTime(this.now()).slice(0, 10);
      case 'time':
        return tapeDateTime(this.now()).slice(11, 16);
      default:
        return null;
    }
  }

  /** Ids a reference stands for (option / user / record ids). */
  private ids(ref: Reference, ctx: Ctx): number[] {
    if (ref.kind === 'value') {
      const id = ref.value_type === 'option' ? ref.option_id : ref.value_type === 'user' ? ref.user_id : ref.record_id;
      return typeof id === 'number' ? [id] : [];
    }
    if (ref.source === 'field') {
      const row = ref.collection && isRecord(ctx.loopItem) ? ctx.loopItem : ctx.record;
      const field = row ? this.state.apps.get(row.app_id)?.fields.find((f) => f.field_id === ref.field_id) : undefined;
      return row && field ? fieldIds(field, row.values.get(field.field_id) ?? []) : [];
    }
    if (ref.source === 'meta' && ctx.record) {
      if (ref.meta_type === 'created_by') return [ctx.record.created_by];
      if (ref.meta_type === 'last_modified_by') return [ctx.record.last_modified_by];
      if (ref.meta_type === 'record_id') return [ctx.record.record_id];
    }
    const raw = this.resolve(ref, ctx, 'raw');
    return (Array.isArray(raw) ? raw : [raw]).map(Number).filter((n) => Number.isInteger(n));
  }

  // --- filters (docs/vendors/tape.md#automation-filters) ---

  /** Evaluates a filter group against `row` (the triggering record, or a candidate of a collection). */
  async evalGroup(node: FilterNode, ctx: Ctx, row: TapeRecordRow | undefined): Promise<boolean> {
    if (node.rows) {
      if (!node.rows.length) return true;
      if (node.operator === 'or') {
        for (const r of node.rows) if (await this.evalGroup(r, ctx, row)) return true;
        return false;
      }
      for (const r of node.rows) if (!(await this.evalGroup(r, ctx, row))) return false;
      return true;
    }
    const local: Ctx = row === ctx.record ? ctx : { ...ctx, record: row, loopItem: row };
    if (node.code) return Boolean(await this.evalCode(node.code, local));
    return this.evalCondition(node, local);
  }

  private async evalCondition(node: FilterNode, ctx: Ctx): Promise<boolean> {
    const subject = node.subject!;
    const op = node.operator!;
    const arity = OPERATORS[op]?.arity;
    let field: TapeField | undefined;
    let values: TapeValue[] = [];
    let channel: string;
    const row = subject.collection && isRecord(ctx.loopItem) ? ctx.loopItem : ctx.record;
    if (subject.source === 'field') {
      if (!row) return false;
      field = this.state.apps.get(row.app_id)?.fields.find((f) => f.field_id === subject.field_id);
      if (!field) return false;
      values = (subject.previous && ctx.previous && row === ctx.record ? ctx.previous : row.values).get(field.field_id) ?? [];
      channel = FIELD_FILTERS[field.field_type]?.channel ?? 'text';
      if (!FIELD_FILTERS[field.field_type]?.operators.includes(op)) return false; // outside the field's channel: never matches
    } else {
      const raw = this.resolve(subject, ctx, 'raw');
      channel = node.value?.type as string ?? 'text';
      if (arity === 'none') {
        const empty = raw === null || raw === undefined || raw === '' || (Array.isArray(raw) && !raw.length);
        return op === 'is_empty' ? empty : op === 'is_not_empty' ? !empty : false;
      }
      return this.compare(channel, op, raw === null || raw === undefined ? [] : Array.isArray(raw) ? raw : [raw], node, ctx, subject);
    }
    if (arity === 'none') {
      if (op === 'is_empty') return values.length === 0;
      if (op === 'is_not_empty') return values.length > 0;
      const completed = field.field_type === 'status' ? (values[0]?.value as { means_completed?: boolean } | undefined)?.means_completed === true : values.length > 0 && values.every((v) => v.completed === true);
      return op === 'is_completed' ? completed : !completed;
    }
    const subjectValues = channel === 'ids' ? fieldIds(field, values) : channel === 'number' ? values.map((v) => Number(v.value)) : channel === 'date' ? values.map((v) => String(v.start_utc ?? v.start ?? v.start_date ?? '')) : [valueText(field, values)].filter((s) => s !== '');
    return this.compare(channel, op, subjectValues, node, ctx, subject);
  }

  private async compare(channel: string, op: string, subject: unknown[], node: FilterNode, ctx: Ctx, _s: Reference): Promise<boolean> {
    const v = node.value ?? {};
    if (v.type !== channel && !(channel === 'text' && v.type === 'text')) {
      if (!(channel === 'boolean' || channel === 'entity_type')) return false;
    }
    switch (v.type) {
      case 'text': {
        const want = (await this.template(v.text, ctx)).toLowerCase();
        if (want === '') return true; // an empty composed value matches every record (docs/vendors/tape.md#automation-filters)
        const have = subject.map((x) => String(x).toLowerCase());
        const s = have.join(', ');
        switch (op) {
          case 'is': return have.some((h) => h === want);
          case 'is_not': return !have.some((h) => h === want);
          case 'contains': return s.includes(want);
          case 'does_not_contain': return !s.includes(want);
          case 'starts_with': return s.startsWith(want);
          case 'ends_with': return s.endsWith(want);
          default: return false;
        }
      }
      case 'number': {
        const raw = await this.evalCode(v.number, ctx);
        if (raw === null || raw === '') return true;
        const want = Number(raw);
        const have = subject.map(Number).filter((n) => !Number.isNaN(n));
        if (!have.length) return op === 'is_not';
        const h = have[0]!;
        switch (op) {
          case 'is': return h === want;
          case 'is_not': return h !== want;
          case 'greater_than': return h > want;
          case 'greater_or_equal_than': return h >= want;
          case 'less_than': return h < want;
          case 'less_or_equal_than': return h <= want;
          default: return false;
        }
      }
      case 'ids': {
        const want = new Set<number>();
        for (const x of v.ids as unknown[]) for (const id of typeof x === 'number' ? [x] : this.ids(x as Reference, ctx)) want.add(id);
        if (!want.size) return true;
        const have = new Set(subject.map(Number));
        const anyOf = [...have].some((h) => want.has(h));
        switch (op) {
          case 'is':
          case 'is_any_of':
          case 'has_any_of': return anyOf;
          case 'is_not':
          case 'is_none_of':
          case 'has_none_of': return !anyOf;
          case 'has_all_of': return [...want].every((w) => have.has(w));
          case 'is_exactly': return have.size === want.size && [...want].every((w) => have.has(w));
          default: return false;
        }
      }
      case 'date': {
        const d = v.date as { base?: Reference; operator: string; unit: string; amount: DynamicValue };
        const baseRaw = d.base ? this.resolve(d.base, ctx, 'raw') : tapeDateTime(this.now()).slice(0, 10);
        if (baseRaw === null || baseRaw === undefined || baseRaw === '') return true;
        const amount = Number(await this.evalCode(d.amount, ctx)) * (d.operator === 'minus' ? -1 : 1);
        const target = shiftDate(String(baseRaw), d.unit, amount);
        const have = subject.map((x) => String(x)).filter(Boolean);
        if (!have.length || !target) return false;
        const day = (s: string) => s.slice(0, 10);
        switch (op) {
          case 'is': return have.some((h) => day(h) === day(target));
          case 'is_before': return have.some((h) => day(h) < day(target));
          case 'is_after': return have.some((h) => day(h) > day(target));
          default: return false;
        }
      }
      case 'boolean': {
        const have = subject[0] === true || subject[0] === 'true';
        return op === 'is_not' ? have !== v.boolean : have === v.boolean;
      }
      case 'entity_type':
        return op === 'is_not' ? String(subject[0]) !== v.entity_type : String(subject[0]) === v.entity_type;
      default:
        return false;
    }
  }
}

// --- helpers ---

/** docs/vendors/tape.md#automation-actions: `limit` when enabled, and never above 1000. */
function collectLimit(c: Record<string, unknown>): number {
  return Math.min(c.limit_enabled === true && typeof c.limit === 'number' ? c.limit : MAX_COLLECT, MAX_COLLECT);
}

/** Ids of the files among a resolved value (create_pdf outputs, file variables). */
function fileIds(v: unknown): string[] {
  const list = Array.isArray(v) ? v : [v];
  return list.filter((x): x is { file_id: string } => isObject(x) && typeof x.file_id === 'string').map((x) => x.file_id);
}

function isRecord(v: unknown): v is TapeRecordRow {
  return isObject(v) && typeof v.record_id === 'number' && v.values instanceof Map;
}

function labelsOf(app: TapeApp, keys: string[]): string[] {
  return keys.map((k) => app.fields.find((f) => String(f.field_id) === k)?.label ?? k);
}

function short(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 200 ? `${s.slice(0, 197)}...` : s;
}

function toText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.map(toText).join(', ');
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

function keyPath(payload: unknown, path: unknown): unknown {
  const keys = Array.isArray(path) ? path.map(String) : String(path ?? '').split('.').filter(Boolean);
  let cur: unknown = payload;
  for (const k of keys) {
    if (!isObject(cur) && !Array.isArray(cur)) return null;
    cur = (cur as Record<string, unknown>)[k];
  }
  return cur ?? null;
}

function propertyOf(values: TapeValue[], property: string): unknown {
  const v0 = values[0];
  if (!v0) return null;
  if (property in v0) return v0[property];
  const inner = v0.value;
  if (isObject(inner) && property in inner) return inner[property];
  if (property === 'email' && isObject(inner) && Array.isArray(inner.mail)) return inner.mail[0] ?? null;
  return null;
}

/** A field's values as plain data: scalars for single values, arrays for multiple. */
export function fieldRaw(field: TapeField, values: TapeValue[]): unknown {
  const kind = FIELD_TYPES[field.field_type];
  const one = (v: TapeValue): unknown => {
    switch (kind?.valueType) {
      case 'number':
      case 'calculation':
      case 'unique_id':
        return typeof v.value === 'number' ? v.value : Number(v.value);
      case 'category':
      case 'status':
        return (v.value as { text: string }).text;
      case 'relation':
        return (v.value as { record_id: number }).record_id;
      case 'user':
        return (v.value as { name: string }).name;
      case 'date':
        return v.end ? { start: v.start, end: v.end } : (v.start ?? null);
      case 'link':
        return v.url ?? null;
      case 'checklist':
        return { title: v.title, completed: v.completed === true };
      case 'attachment':
      case 'image':
        return (v.value as { filename?: string })?.filename ?? null;
      default:
        return typeof v.value === 'string' ? v.value.replace(/<[^>]*>/g, '') : (v.value ?? null);
    }
  };
  const multiple = kind?.multiple === true || ['multi_email', 'multi_phone', 'multi_link', 'checklist', 'multi_image'].includes(field.field_type);
  if (!values.length) return multiple ? [] : null;
  return multiple ? values.map(one) : one(values[0]!);
}

/** Ids of an ids-channel field: option ids, record ids, user ids. */
function fieldIds(field: TapeField, values: TapeValue[]): number[] {
  return values
    .map((v) => {
      const inner = v.value as { id?: number; record_id?: number; user_id?: number } | undefined;
      return inner?.id ?? inner?.record_id ?? inner?.user_id;
    })
    .filter((n): n is number => typeof n === 'number');
}

function shiftDate(base: string, unit: string, amount: number): string | undefined {
  const iso = base.length <= 10 ? `${base}T00:00:00Z` : `${base.replace(' ', 'T')}Z`;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return undefined;
  if (unit === 'hour') d.setUTCHours(d.getUTCHours() + amount);
  else if (unit === 'week') d.setUTCDate(d.getUTCDate() + 7 * amount);
  else if (unit === 'month') d.setUTCMonth(d.getUTCMonth() + amount);
  else d.setUTCDate(d.getUTCDate() + amount);
  return tapeDateTime(d);
}

function triggerMessages(trigger: { type: string } | null, s: RunStart): RunLog['messages'] {
  if (s.type === 'manual') return [{ message: 'Started manually.', level: 'info' }];
  if (s.type === 'simulation') return [{ message: 'Simulation: no side effects.', level: 'info' }];
  if (s.triggeredBy) return [{ message: `Called by automation ${s.triggeredBy}.`, level: 'info' }];
  if (s.periodic) return [{ message: `Triggered by periodic: the slot of ${tapeDateTime(new Date(s.periodic.at))} (UTC).`, level: 'info' }];
  if (s.arrivedAt !== undefined && s.record) return [{ message: `Triggered by date_field_arrived on record ${s.record.record_id}: due ${tapeDateTime(new Date(s.arrivedAt))} (UTC).`, level: 'info' }];
  return trigger ? [{ message: `Triggered by ${trigger.type}${s.record ? ` on record ${s.record.record_id}` : ''}.`, level: 'info' }] : [];
}

