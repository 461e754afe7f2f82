/**
 * The automation API of the Tape twin: /v1/automation… (overview, manage, discovery, execution,
 * revisions, advanced), /v1/automation-run… (docs/vendors/tape.md#automation-runs) and
 * /v1/automation-usage-report (docs/vendors/tape.md#automation-usage-report), plus the public webhook URL of
 * webhook_received automations.
 */
import { Hono, type Context } from 'hono';
import { decodeCursor, encodeCursor, paging, parseJson } from '../../kit';
import { idParam, jsonBody, notFound, queryLimit, TapeHttpError, tapeDateTime, validation, type TwinEnv } from '../http';
import type { TapeApp } from '../model';
import { recordComments } from '../records';
import type { TapeState, TapeUser } from '../state';
import { ACTION_TYPES, filterOperators, RECORD_TRIGGERS, TRIGGER_TYPES } from './catalog';
import type { AutomationEngine, WeblinkPage } from './engine';
import type { Run, StoredAutomation } from './model';
import type { AutomationStore } from './store';
import { activeErrors, brokenReasons, parseDefinition, parseTrigger } from './validate';
import { isObject } from '../../kit/request';

/** docs/vendors/tape.md#automation-management: "An app can hold at most 500 automations". */
export const MAX_AUTOMATIONS_PER_APP = 500;
const RUN_STATUSES = ['pending', 'running', 'completed', 'failed', 'cancelled'];
/** A datetime that exists: Date.parse takes February 31st (as March 3rd); Tape does not. */
const realDateTime = (v: string) => {
  const d = new Date(`${v.replace(' ', 'T')}Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 19) === v.replace(' ', 'T');
};

const RUN_FILTERS = ['app_ids', 'automation_ids', 'workspace_ids', 'status', 'created_at_from', 'created_at_to'];
const DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const RETENTION_MS = 30 * 24 * 3600 * 1000;

const isOrgAdmin = (u: TapeUser) => u.role === 'owner' || u.role === 'admin';

export function automationRoutes(state: TapeState, store: AutomationStore, engine: AutomationEngine, now: () => number) {
  const r = new Hono<TwinEnv>();
  const date = () => new Date(now());

  /** Every endpoint but discovery and the sandbox ones needs a user API key (docs/vendors/tape.md#automations). */
  function userKey(c: Context<TwinEnv>): TapeUser {
    if (state.automationKeys.has(c.get('authKey'))) {
      throw new TapeHttpError(401, 'unauthorized', 'This endpoint requires a user API key; an automation API key authenticates an automation, not a person.');
    }
    return c.get('user');
  }

  /** Administrators of the workspace (and org owners/admins) manage its automations. */
  const administrates = (u: TapeUser, wsId: number) => {
    const ws = state.workspaces.get(wsId);
    return !!ws && ws.org_id === u.org_id && (isOrgAdmin(u) || state.members.get(wsId)?.get(u.user_id) === 'admin');
  };

  const automationNotFound = (id: number) => notFound(`Automation does not exist(${id})!`);

  function findAutomation(c: Context<TwinEnv>, param = 'id'): StoredAutomation {
    const u = userKey(c);
    const id = idParam(c, param);
    const a = store.get(id);
    if (!a || !administrates(u, a.workspace_id)) throw automationNotFound(id);
    return a;
  }

  function adminApp(u: TapeUser, appId: number): TapeApp {
    const app = state.apps.get(appId);
    if (!app || !administrates(u, app.workspace_id)) throw notFound(`App does not exist(${appId})!`);
    return app;
  }

  function databaseApp(app: TapeApp): TapeApp {
    if (app.type !== 'database') throw validation(`App ${app.app_id} is not a database app; only database apps can have automations.`);
    return app;
  }

  const wire = (a: StoredAutomation) => store.wire(a);
  const touch = (a: StoredAutomation) => (a.updated_at = tapeDateTime(date()));

  // --- discovery (docs/vendors/tape.md#automation-discovery) ---

  const cacheable = { 'Cache-Control': 'public, max-age=3600' };
  r.get('/automation/meta/trigger', (c) => c.json({ triggers: TRIGGER_TYPES }, 200, cacheable));
  r.get('/automation/meta/action', (c) => c.json({ actions: ACTION_TYPES }, 200, cacheable));
  r.get('/automation/meta/filter', (c) => {
    const fieldType = c.req.query('field_type');
    if (!fieldType) throw validation('Query param "field_type" is required, e.g. ?field_type=number.');
    const body = filterOperators(fieldType);
    if (!body) throw validation(`Unknown field_type "${fieldType}".`);
    return c.json(body, 200, cacheable);
  });

  // --- run history (docs/vendors/tape.md#automation-runs) ---

  function runWire(run: Run, withLogs: boolean) {
    const { logs, ...rest } = run;
    return withLogs ? { ...rest, logs } : rest;
  }

  const retained = (run: Run) => now() - Date.parse(`${run.created_at.replace(' ', 'T')}Z`) <= RETENTION_MS;
  /** Runs the caller may see: of live automations in workspaces they administrate, within retention. */
  const visibleRuns = (u: TapeUser) =>
    [...store.runs.values()].filter((run) => store.get(run.automation_id) && administrates(u, run.workspace_id) && retained(run));

  function inputError(message: string) {
    return new TapeHttpError(400, 'input_validation', message);
  }

  const pageLimit = (c: Context<TwinEnv>, body: Record<string, unknown>) =>
    paging(c, { default: 50, min: 1, max: 500, body, offset: false }, (message) => inputError(`Invalid input: ${message}`)).limit;

  /** One page of runs, newest first; the cursor carries the scope, the filters and the first page's total. */
  function runPage(c: Context<TwinEnv>, scope: string, rows: Run[], body: Record<string, unknown>, filters: Record<string, unknown>) {
    const limit = pageLimit(c, body);
    let before = Infinity;
    let total: number | undefined;
    if (body.cursor !== undefined) {
      const cur = typeof body.cursor === 'string' ? decodeCursor(body.cursor) : undefined;
      if (!cur || cur.scope !== scope || typeof cur.before !== 'number') throw inputError('Invalid input: "cursor" is not a cursor of this listing.');
      before = cur.before;
      total = cur.total as number;
      filters = (cur.filters as Record<string, unknown>) ?? {};
    }
    const all = applyRunFilters(rows, filters).sort((a, b) => Number(b.id) - Number(a.id));
    total ??= all.length;
    const rest = all.filter((run) => Number(run.id) < before);
    const page = rest.slice(0, limit);
    const cursor = rest.length > limit ? encodeCursor({ scope, before: Number(page.at(-1)!.id), total, filters }) : null;
    return c.json({ total, automation_runs: page.map((run) => runWire(run, false)), cursor });
  }

  function applyRunFilters(rows: Run[], f: Record<string, unknown>): Run[] {
    const inList = (key: string, v: unknown) => !Array.isArray(f[key]) || (f[key] as unknown[]).includes(v);
    return rows.filter(
      (run) =>
        inList('app_ids', run.app_id) &&
        inList('automation_ids', run.automation_id) &&
        inList('workspace_ids', run.workspace_id) &&
        inList('status', run.status) &&
        (typeof f.created_at_from !== 'string' || run.created_at >= f.created_at_from) &&
        (typeof f.created_at_to !== 'string' || run.created_at <= f.created_at_to),
    );
  }

  function paginationOnly(body: Record<string, unknown>) {
    const stray = Object.keys(body).filter((k) => k !== 'cursor' && k !== 'limit');
    if (stray.length) throw inputError(`Invalid input: this listing takes only "cursor" and "limit"; unexpected ${stray.join(', ')}.`);
  }

  r.post('/automation-run', async (c) => {
    const u = userKey(c);
    const body = await jsonBody(c);
    const stray = Object.keys(body).filter((k) => !['cursor', 'limit', ...RUN_FILTERS].includes(k));
    if (stray.length) throw inputError(`Invalid input: unknown body properties ${stray.join(', ')}.`);
    if (body.cursor !== undefined && RUN_FILTERS.some((k) => body[k] !== undefined)) {
      throw inputError('Invalid input: data must match exactly one schema in oneOf ([{cursor, limit}, {limit, app_ids, automation_ids, workspace_ids, status, created_at_from, created_at_to}])');
    }
    const filters: Record<string, unknown> = {};
    for (const key of ['app_ids', 'automation_ids', 'workspace_ids']) {
      const v = body[key];
      if (v === undefined) continue;
      if (!Array.isArray(v) || !v.every((x) => Number.isInteger(x)) || v.length > 100) throw inputError(`Invalid input: "${key}" must be an array of at most 100 integer ids.`);
      filters[key] = v;
    }
    for (const id of (filters.app_ids as number[] | undefined) ?? []) databaseApp(adminApp(u, id));
    for (const id of (filters.workspace_ids as number[] | undefined) ?? []) if (!administrates(u, id)) throw notFound(`Workspace does not exist(${id})!`);
    for (const id of (filters.automation_ids as number[] | undefined) ?? []) {
      const a = store.automations.get(id);
      if (a && !a.deleted && !administrates(u, a.workspace_id)) throw automationNotFound(id);
    }
    if (body.status !== undefined) {
      if (!Array.isArray(body.status) || !body.status.length || !body.status.every((s) => RUN_STATUSES.includes(s as string))) {
        throw inputError(`Invalid input: "status" must be a non-empty array of ${RUN_STATUSES.join(', ')}.`);
      }
      filters.status = body.status;
    }
    for (const key of ['created_at_from', 'created_at_to']) {
      const v = body[key];
      if (v === undefined) continue;
      if (typeof v !== 'string' || !DATETIME.test(v) || !realDateTime(v)) throw inputError(`Invalid input: "${key}" must be a datetime "YYYY-MM-DD HH:mm:ss" (UTC).`);
      filters[key] = v;
    }
    if (typeof filters.created_at_from === 'string' && typeof filters.created_at_to === 'string' && filters.created_at_from > filters.created_at_to) {
      throw new TapeHttpError(400, 'validation', '"created_at_from" must be before or equal to "created_at_to".');
    }
    return runPage(c, 'all', visibleRuns(u).filter((run) => run.type !== 'simulation'), body, filters);
  });

  r.post('/automation-run/app/:id', async (c) => {
    const u = userKey(c);
    const app = databaseApp(adminApp(u, idParam(c, 'id')));
    const body = await jsonBody(c);
    paginationOnly(body);
    return runPage(c, `app:${app.app_id}`, visibleRuns(u).filter((run) => run.app_id === app.app_id && run.type !== 'simulation'), body, {});
  });

  r.post('/automation-run/workspace/:id', async (c) => {
    const u = userKey(c);
    const id = idParam(c, 'id');
    if (!administrates(u, id)) throw notFound(`Workspace does not exist(${id})!`);
    const body = await jsonBody(c);
    paginationOnly(body);
    return runPage(c, `workspace:${id}`, visibleRuns(u).filter((run) => run.workspace_id === id && run.type !== 'simulation'), body, {});
  });

  r.post('/automation-run/automation/:id', async (c) => {
    const a = findAutomation(c);
    const body = await jsonBody(c);
    paginationOnly(body);
    return runPage(c, `automation:${a.id}`, visibleRuns(c.get('user')).filter((run) => run.automation_id === a.id), body, {});
  });

  r.get('/automation-run/:id', (c) => {
    const u = userKey(c);
    const id = c.req.param('id');
    if (!/^\d+$/.test(id)) throw validation(`The request URL is not valid: "automation_run_id" must be an integer, got "${id}".`);
    const run = store.runs.get(id);
    if (!run || !store.get(run.automation_id) || !administrates(u, run.workspace_id) || !retained(run)) throw notFound(`Automation run does not exist(${id})!`);
    return c.json({ automation_run: runWire(run, true) });
  });

  // --- usage report (docs/vendors/tape.md#automation-usage-report) ---

  r.get('/automation-usage-report', (c) => {
    const u = userKey(c);
    const rawLimit = c.req.query('limit');
    const resolution = c.req.query('interval_resolution');
    if (rawLimit === undefined || !/^\d+$/.test(rawLimit)) throw new TapeHttpError(400, 'validation', `Query param "limit" is required and must be an integer between 0 and 100, got ${rawLimit ?? 'nothing'}.`);
    const limit = Number(rawLimit);
    if (limit > 100) throw new TapeHttpError(400, 'validation', `Query param "limit" must be between 0 and 100, got ${limit}.`);
    const resolutions = ['hourly', 'daily', 'weekly', 'monthly', 'yearly'];
    if (!resolution || !resolutions.includes(resolution)) throw new TapeHttpError(400, 'validation', `Query param "interval_resolution" must be one of ${resolutions.join(', ')}, got ${resolution ?? 'nothing'}.`);
    const bucketOf = (dt: string) => {
      switch (resolution) {
        case 'hourly': return dt.slice(0, 13);
        case 'daily': return dt.slice(0, 10);
        case 'monthly': return dt.slice(0, 7);
        case 'yearly': return dt.slice(0, 4);
        default: {
          const d = new Date(`${dt.slice(0, 10)}T00:00:00Z`);
          d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
          return d.toISOString().slice(0, 10);
        }
      }
    };
    const buckets = new Map<string, { from: string; to: string; num_consumed_actions: number; num_succeeded_runs: number; num_failed_runs: number; num_cancelled_runs: number }>();
    for (const run of store.runs.values()) {
      const ws = state.workspaces.get(run.workspace_id);
      if (run.type === 'simulation' || ws?.org_id !== u.org_id) continue;
      const key = bucketOf(run.created_at);
      const b = buckets.get(key) ?? { from: run.created_at, to: run.created_at, num_consumed_actions: 0, num_succeeded_runs: 0, num_failed_runs: 0, num_cancelled_runs: 0 };
      if (run.created_at < b.from) b.from = run.created_at;
      if (run.created_at > b.to) b.to = run.created_at;
      b.num_consumed_actions += run.num_consumed_actions;
      if (run.status === 'completed') b.num_succeeded_runs++;
      if (run.status === 'failed') b.num_failed_runs++;
      if (run.status === 'cancelled') b.num_cancelled_runs++;
      buckets.set(key, b);
    }
    const usage_reports = [...buckets.entries()]
      .sort(([a], [b]) => (a < b ? 1 : -1))
      .slice(0, limit)
      .map(([, b]) => ({ organization_id: u.org_id, ...b }));
    return c.json({ organization_id: u.org_id, usage_reports });
  });

  // --- sandbox endpoints (docs/vendors/tape.md#automation-advanced): either key kind, problems are 400s ---

  r.post('/automation/weblink/generate', (c) => generateWeblink(c));
  /** docs/vendors/tape.md#automation-advanced: the deprecated /v1/workflow aliases of the two sandbox endpoints. */
  r.post('/workflow/weblink/generate', (c) => generateWeblink(c));
  r.post('/workflow/:id/trigger', (c) => callAutomation(c));

  async function generateWeblink(c: Context<TwinEnv>) {
    const u = c.get('user');
    const body = await jsonBody(c);
    const allowed = ['trigger_workflow_def_id', 'trigger_on_record_id', 'triggered_by_record_id', 'triggered_by_workflow_def_id', 'trigger_with_arguments', 'expiration_type', 'expire_after_first_click', 'is_manual_run', 'is_simulation'];
    const stray = Object.keys(body).filter((k) => !allowed.includes(k));
    if (stray.length) throw validation(`Unknown properties: ${stray.join(', ')}.`);
    if (!Number.isInteger(body.trigger_workflow_def_id) || !Number.isInteger(body.trigger_on_record_id)) throw validation('"trigger_workflow_def_id" and "trigger_on_record_id" are required integers.');
    if (body.expiration_type !== undefined && !['NEVER', 'ONE_DAY', 'ONE_WEEK', 'ONE_MONTH', 'ONE_YEAR'].includes(body.expiration_type as string)) throw validation('"expiration_type" must be one of NEVER, ONE_DAY, ONE_WEEK, ONE_MONTH, ONE_YEAR.');
    const a = store.get(body.trigger_workflow_def_id as number);
    if (!a || !administrates(u, a.workspace_id) || a.trigger?.type !== 'weblink_clicked') throw validation(`Automation ${String(body.trigger_workflow_def_id)} is not an available weblink_clicked automation.`);
    const rec = state.records.get(body.trigger_on_record_id as number);
    if (!rec || rec.deleted_on || rec.app_id !== a.app_id) throw validation(`Record ${String(body.trigger_on_record_id)} is not available in the automation's app.`);
    const link = store.mintWeblink({
      automation_id: a.id,
      record_id: rec.record_id,
      arguments: isObject(body.trigger_with_arguments) ? body.trigger_with_arguments : {},
      expiration: typeof body.expiration_type === 'string' ? body.expiration_type : 'NEVER',
      once: body.expire_after_first_click === true,
      now: now(),
    });
    return c.json({ trigger_token: link.token, trigger_client_url: link.url }, 201);
  }

  // --- list and create (docs/vendors/tape.md#automation-management) ---

  function listPage(c: Context<TwinEnv>, scope: string, rows: StoredAutomation[]) {
    const limit = queryLimit(c, 50, 100, 1);
    let after = 0;
    let total: number | undefined;
    const rawCursor = c.req.query('cursor');
    if (rawCursor) {
      const cur = decodeCursor(rawCursor);
      if (!cur || typeof cur.after !== 'number') throw validation('"cursor" is not a valid cursor.');
      if (cur.scope !== scope) throw validation(`"cursor" was issued for another list scope (${String(cur.scope)}); pass it back only to the list call that produced it.`);
      after = cur.after;
      total = cur.total as number;
    }
    const sorted = rows.sort((a, b) => a.id - b.id);
    total ??= sorted.length;
    const rest = sorted.filter((a) => a.id > after);
    const page = rest.slice(0, limit);
    const automations = page.map(wire); // an unreadable automation on the page fails the whole page
    const cursor = rest.length > limit ? encodeCursor({ scope, after: page.at(-1)!.id, total }) : null;
    return c.json({ total, automations, cursor });
  }

  const live = () => [...store.automations.values()].filter((a) => !a.deleted);

  r.get('/automation/org', (c) => {
    const u = userKey(c);
    return listPage(c, `org:${u.org_id}`, live().filter((a) => administrates(u, a.workspace_id)));
  });

  r.get('/automation/workspace/:id', (c) => {
    const u = userKey(c);
    const id = idParam(c, 'id');
    if (!administrates(u, id)) throw notFound(`Workspace does not exist(${id})!`);
    return listPage(c, `workspace:${id}`, live().filter((a) => a.workspace_id === id));
  });

  r.get('/automation/app/:id', (c) => {
    const u = userKey(c);
    const app = adminApp(u, idParam(c, 'id'));
    return listPage(c, `app:${app.app_id}`, live().filter((a) => a.app_id === app.app_id));
  });

  r.post('/automation/app/:id', async (c) => {
    const u = userKey(c);
    const app = databaseApp(adminApp(u, idParam(c, 'id')));
    const def = parseDefinition(await jsonBody(c), app, true);
    if (live().filter((a) => a.app_id === app.app_id).length >= MAX_AUTOMATIONS_PER_APP) {
      throw validation(`App ${app.app_id} holds ${MAX_AUTOMATIONS_PER_APP} automations, the maximum. Delete one first.`);
    }
    const at = tapeDateTime(date());
    const a: StoredAutomation = {
      id: store.newAutomationId(),
      app_id: app.app_id,
      workspace_id: app.workspace_id,
      name: def.name!,
      ...(typeof def.description === 'string' ? { description: def.description } : {}),
      paused: true,
      broken: false,
      broken_reason: null,
      trigger: def.trigger ?? null,
      filter: def.filter ?? null,
      actions: def.actions ?? [],
      created_at: at,
      updated_at: at,
      deleted: false,
      author_id: u.user_id,
      unserializable: false,
    };
    store.automations.set(a.id, a);
    store.snapshot(a, date());
    return c.json({ automation: wire(a) }, 201);
  });

  // --- one automation ---

  r.get('/automation/:id', (c) => c.json({ automation: wire(findAutomation(c)) }));

  r.put('/automation/:id', async (c) => {
    const a = findAutomation(c);
    const body = await jsonBody(c);
    const def = parseDefinition(body, state.apps.get(a.app_id), false);
    // An unreadable automation can only be repaired by replacing its actions.
    if (a.unserializable && def.actions === undefined) wire(a);
    if (def.name !== undefined) a.name = def.name;
    if (def.description === null) delete a.description;
    else if (def.description !== undefined) a.description = def.description;
    if (def.trigger !== undefined) a.trigger = def.trigger;
    if (def.filter !== undefined) a.filter = def.filter;
    if (def.actions !== undefined) {
      a.actions = def.actions;
      a.unserializable = false;
    }
    touch(a);
    store.snapshot(a, date());
    return c.json({ automation: wire(a) });
  });

  r.delete('/automation/:id', (c) => {
    const a = findAutomation(c);
    const out = wire(a);
    a.deleted = true;
    touch(a);
    return c.json({ automation: { ...out, updated_at: a.updated_at } });
  });

  r.put('/automation/:id/trigger', async (c) => {
    const a = findAutomation(c);
    wire(a);
    a.trigger = parseTrigger(await jsonBody(c), 'body');
    touch(a);
    store.snapshot(a, date());
    return c.json({ automation: wire(a) });
  });

  r.post('/automation/:id/activate', (c) => {
    const a = findAutomation(c);
    wire(a);
    const errors = activeErrors(brokenReasons(store, a));
    if (errors.length) {
      throw new TapeHttpError(409, 'conflict', `Automation ${a.id} is broken and cannot be activated: ${errors.map((e) => e.code).join(', ')}. Call GET /v1/automation/${a.id}/validate for the reasons.`);
    }
    if (a.paused || a.broken) {
      a.paused = false;
      a.broken = false;
      a.broken_reason = null;
      touch(a);
      store.snapshot(a, date());
    }
    return c.json({ automation: wire(a) });
  });

  r.post('/automation/:id/pause', (c) => {
    const a = findAutomation(c);
    wire(a);
    if (!a.paused) {
      a.paused = true;
      touch(a);
      store.snapshot(a, date());
    }
    return c.json({ automation: wire(a) });
  });

  r.get('/automation/:id/validate', (c) => {
    const a = findAutomation(c);
    wire(a);
    const errors = brokenReasons(store, a);
    return c.json({ valid: activeErrors(errors).length === 0, errors });
  });

  r.get('/automation/:id/revision', (c) => {
    const a = findAutomation(c);
    return c.json({ revisions: [...(store.revisions.get(a.id) ?? [])].reverse() });
  });

  r.get('/automation/:id/revision/:rev', (c) => {
    const a = findAutomation(c);
    const rev = (store.revisions.get(a.id) ?? []).find((x) => x.id === c.req.param('rev'));
    if (!rev) throw notFound(`Revision does not exist(${c.req.param('rev')})!`);
    return c.json({ revision: rev });
  });

  // --- execution (docs/vendors/tape.md#automation-execution) ---

  const ACCEPTED = { message: 'Use the automation-run API to poll the run. Based on queueing and limitations, this may be delayed.' };

  async function runBody(c: Context<TwinEnv>, a: StoredAutomation) {
    const body = await jsonBody(c);
    const t = a.trigger?.type;
    const keys = Object.keys(body);
    if (t && RECORD_TRIGGERS.has(t)) {
      if (keys.some((k) => k !== 'record_id') || !Number.isInteger(body.record_id)) {
        throw validation(`A ${t} automation runs on a record: send {"record_id": <id>}.`);
      }
      const rec = state.records.get(body.record_id as number);
      if (!rec || rec.purged || rec.deleted_on || rec.app_id !== a.app_id) throw notFound(`Record does not exist(${String(body.record_id)})!`);
      if (t === 'record_comment_or_reply_created') {
        // docs/vendors/tape.md#automation-execution: the record's most recent comment is the trigger's comment; none = no run.
        const latest = recordComments(state, rec.record_id).at(-1);
        return { record: rec, commentId: latest?.comment_id, noRun: !latest };
      }
      return { record: rec };
    }
    if (t === 'webhook_received') {
      if (keys.length === 1 && 'webhook_payload' in body && (typeof body.webhook_payload === 'string' || isObject(body.webhook_payload))) return { webhookPayload: body.webhook_payload };
      if (keys.length === 1 && body.use_last_received_webhook_payload === true) return { webhookPayload: a.last_webhook_payload ?? null };
      throw validation('A webhook_received automation runs on {"webhook_payload": <object or string>} or {"use_last_received_webhook_payload": true}.');
    }
    if (keys.length) throw validation(`A ${t ?? 'trigger-less'} automation runs on an empty body {}.`);
    return {};
  }

  function refuseBroken(a: StoredAutomation) {
    wire(a);
    const errors = activeErrors(brokenReasons(store, a));
    if (a.broken || errors.length) throw new TapeHttpError(409, 'conflict', `Automation ${a.id} is broken and cannot run${errors.length ? `: ${errors.map((e) => e.code).join(', ')}` : ''}.`);
  }

  r.post('/automation/:id/manual-run', async (c) => {
    const a = findAutomation(c);
    const start = await runBody(c, a);
    refuseBroken(a);
    const { noRun, ...rest } = start as typeof start & { noRun?: boolean };
    if (!noRun) void engine.start(a, { type: 'manual', ...rest });
    return c.json(ACCEPTED, 202);
  });

  r.post('/automation/:id/simulate', async (c) => {
    const a = findAutomation(c);
    const start = await runBody(c, a);
    refuseBroken(a);
    const { noRun, ...rest } = start as typeof start & { noRun?: boolean };
    if (!noRun) void engine.start(a, { type: 'simulation', ...rest });
    return c.json(ACCEPTED, 202);
  });

  /** Call an automation (docs/vendors/tape.md#automation-advanced): either key kind; every problem is a 400; a target that does not fire yields no run. */
  r.post('/automation/:id/trigger', (c) => callAutomation(c));

  async function callAutomation(c: Context<TwinEnv>) {
    const u = c.get('user');
    const raw = c.req.param('id') ?? '';
    if (!/^\d+$/.test(raw)) throw validation(`"automation_id" must be an integer, got "${raw}".`);
    const body = await jsonBody(c);
    const allowed = ['trigger_on_record_id', 'triggered_by_record_id', 'triggered_by_workflow_def_id', 'trigger_with_arguments', 'is_manual_run', 'is_simulation'];
    const stray = Object.keys(body).filter((k) => !allowed.includes(k));
    if (stray.length) throw validation(`Unknown properties: ${stray.join(', ')}.`);
    if (!Number.isInteger(body.trigger_on_record_id)) throw validation('"trigger_on_record_id" is required: the id of the record to run the automation on.');
    if (body.trigger_with_arguments !== undefined && !isObject(body.trigger_with_arguments)) throw validation('"trigger_with_arguments" must be an object keyed by internal variable name (var_<label>).');
    const a = store.get(Number(raw));
    if (!a || !administrates(u, a.workspace_id) || a.unserializable) throw validation(`Automation ${raw} does not exist or is not available.`);
    const rec = state.records.get(body.trigger_on_record_id as number);
    if (!rec || rec.purged || rec.deleted_on || rec.app_id !== a.app_id) throw validation(`Record ${String(body.trigger_on_record_id)} does not exist or does not belong to the automation's app.`);
    const type = body.is_simulation === true ? 'simulation' : body.is_manual_run === true ? 'manual' : 'regular';
    engine.call(a, rec, (body.trigger_with_arguments as Record<string, unknown>) ?? {}, typeof body.triggered_by_workflow_def_id === 'number' ? body.triggered_by_workflow_def_id : null, [], type);
    return c.json({}, 202);
  }

  return r;
}

/** The public webhook URL of webhook_received automations (no API key: the URL is the secret). */
export function automationWebhookRoutes(store: AutomationStore, engine: AutomationEngine, now: () => number) {
  const r = new Hono();
  r.post('/webhook/automation/:token', async (c) => {
    const token = c.req.param('token');
    const a = [...store.automations.values()].find((x) => x.webhook_token === token && !x.deleted && x.trigger?.type === 'webhook_received');
    if (!a) throw notFound('No automation listens at this webhook URL.');
    const text = await c.req.text();
    let payload: unknown = text;
    try {
      // Nesting beyond what any handler walks counts as unreadable: the text is passed on as is.
      payload = text === '' ? {} : parseJson(text, () => validation('not JSON'));
    } catch {
      // a non-JSON body is passed on as a string
    }
    a.last_webhook_payload = payload;
    if (!a.paused && !a.broken && !a.unserializable) void engine.start(a, { type: 'regular', webhookPayload: payload });
    return c.json({ message: 'Webhook received.' }, 202);
  });
  /**
   * A weblink click (trigger_client_url of /v1/automation/weblink/generate, or the Weblink variable of
   * the generate-weblink action): runs the weblink_clicked automation on its record and answers with
   * what its display_webpage / redirect_user actions composed (a redirect wins), else a plain thanks.
   */
  r.get('/trigger/:token', async (c) => {
    const token = c.req.param('token');
    const link = store.weblinks.get(token);
    const a = link ? store.get(link.automation_id) : undefined;
    const record = link ? store.state.records.get(link.record_id) : undefined;
    if (!link || !a || !record || record.deleted_on || a.trigger?.type !== 'weblink_clicked') return c.text('This weblink is not valid.', 404);
    if (link.expires_at !== null && now() >= link.expires_at) return c.text('This weblink has expired.', 410);
    link.clicks++;
    if (link.once) store.weblinks.delete(token);
    if (!engine.isLive(a)) return c.text('Thanks, your request was received.');
    const page: WeblinkPage = { html: [], redirect: null, fullscreen: false, removeBranding: false };
    const run = await engine.start(a, { type: 'regular', record, args: link.arguments, weblink: { created_at: link.created_at, click_count: link.clicks }, page });
    if (page.redirect) return c.redirect(page.redirect, 302);
    if (page.html.length) return c.html(webpage(a.name, page));
    if (run?.status === 'failed') return c.text(`The automation could not complete: ${run.error_message ?? 'it failed'}.`, 500);
    return c.text('Thanks, your request was received.');
  });
  return r;
}

const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[ch]!);

/** The page a weblink click shows: the display_webpage bodies in order, with Tape's branding unless removed. */
function webpage(title: string, page: WeblinkPage): string {
  const style = page.fullscreen ? 'margin:0' : 'max-width:720px;margin:2rem auto;font-family:sans-serif';
  const brand = page.removeBranding ? '' : '\n<footer><small>Powered by Tape</small></footer>';
  return `<!doctype html>\n<html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>\n<body style="${style}">\n${page.html.join('\n')}${brand}\n</body></html>`;
}

/** Credits (docs/vendors/tape.md#automations, #automation-runs, usage report): the list endpoints cost 2x, the rest the default. */
export function automationCost(method: string, path: string): number | undefined {
  if (method === 'GET' && /^\/v1\/automation\/(app\/\d+|workspace\/\d+|org)$/.test(path)) return 20;
  if (method === 'POST' && /^\/v1\/automation-run(\/(app|workspace|automation)\/\d+)?$/.test(path)) return 20;
  if (method === 'GET' && path === '/v1/automation-usage-report') return 20;
  return undefined;
}
