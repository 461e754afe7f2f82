/**
 * Automation tools, through HTTP. These tests pin what the tools add over Tape (cache, scoped
 * cursors, pre-write validation, unreadable automations, 64-bit revision ids, run listings), so
 * the Tape answers they need are served as the docs show them (docs/vendors/tape.md#automations, #automation-runs)
 * by a layer in front of the twin; every other request (apps, fields) reaches the twin.
 * The twin's own automation engine is exercised in automations-twin.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { harness, SANDBOX_KEYS } from '../helpers/harness';

const json = { query: 'format=json' };
type H = Awaited<ReturnType<typeof harness>>;
type Seen = { method: string; path: string; query: URLSearchParams; body: any; raw: string };
type Route = (req: Seen) => { status?: number; body: unknown } | { status: number; text: string };

/** Serves the routes matching `METHOD /path` (regex) and records every request that leaves the service. */
function tape(h: H, routes: Record<string, Route>) {
  const seen: Seen[] = [];
  const twin = h.rt.fetchFor!.dbapp!;
  h.rt.fetchFor!.dbapp = (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const url = new URL(String(input));
    const raw = typeof init?.body === 'string' ? init.body : '';
    const req: Seen = { method: init?.method ?? 'GET', path: url.pathname, query: url.searchParams, body: raw ? JSON.parse(raw) : undefined, raw };
    seen.push(req);
    for (const [pattern, answer] of Object.entries(routes)) {
      if (!new RegExp(`^${pattern}$`).test(`${req.method} ${req.path}`)) continue;
      const a = answer(req);
      const text = 'text' in a ? a.text : JSON.stringify(a.body);
      return new Response(text, { status: a.status ?? 200, headers: { 'content-type': 'application/json' } });
    }
    return twin(input, init);
  }) as typeof fetch;
  return seen;
}

const automations = (path: RegExp | string, seen: Seen[]) => seen.filter((s) => (typeof path === 'string' ? s.path === path : path.test(s.path)));

function tapeAutomation(id: number, over: Record<string, unknown> = {}) {
  return {
    id,
    app_id: 87,
    workspace_id: 12,
    name: `Automation ${id}`,
    paused: true,
    broken: false,
    broken_reason: null,
    trigger: { type: 'record_created', config: {} },
    filter: null,
    actions: [{ id: 'a1', type: 'send_email', group: 'action', config: {} }],
    created_at: '2024-05-14 09:12:31',
    updated_at: '2024-05-20 16:03:08',
    ...over,
  };
}

const TRIGGERS = {
  triggers: [
    { type: 'record_created', label: 'Record created', description: 'Triggers when a record is created in the app.', config_schema: { type: 'object', properties: {}, additionalProperties: false } },
    { type: 'webhook_received', label: 'Webhook received', config_schema: { type: 'object', properties: { webhook_url: { type: 'string', readOnly: true } } } },
  ],
};
const ACTIONS = {
  actions: [
    { type: 'send_email', group: 'action', label: 'Send email', description: 'Sends an email.', config_schema: { type: 'object' } },
    { type: 'for_loop', group: 'control_flow', label: 'For loop', config_schema: { type: 'object' } },
  ],
};
const catalogRoutes: Record<string, Route> = {
  'GET /v1/automation/meta/trigger': () => ({ body: TRIGGERS }),
  'GET /v1/automation/meta/action': () => ({ body: ACTIONS }),
  'GET /v1/automation/meta/filter': (r) =>
    r.query.get('field_type') === 'number'
      ? { body: { field_type: 'number', operators: [{ operator: 'is', label: 'Is', value_arity: 'single' }, { operator: 'is_empty', label: 'Is empty', value_arity: 'none' }] } }
      : { status: 400, body: { status_code: 400, endpoint: r.path, error_code: 'validation', error_message: 'Unknown field_type.' } },
};

describe('getAutomationCatalog', () => {
  it('returns triggers and actions; config_schema only with detail; operators per field_type', async () => {
    const h = await harness();
    tape(h, catalogRoutes);
    const all = await h.call('dbapp/getAutomationCatalog', {}, json);
    expect(all.body.data.triggers[0]).toEqual({ type: 'record_created', label: 'Record created', description: 'Triggers when a record is created in the app.' });
    expect(all.body.data.actions[1]).toEqual({ type: 'for_loop', group: 'control_flow', label: 'For loop' });
    const detail = await h.call('dbapp/getAutomationCatalog', { section: 'triggers', detail: true }, json);
    expect(Object.keys(detail.body.data)).toEqual(['triggers']);
    expect(detail.body.data.triggers[1].config_schema.properties.webhook_url.readOnly).toBe(true);
    const ops = await h.call('dbapp/getAutomationCatalog', { field_type: 'number' }, json);
    expect(ops.body.data).toEqual({
      field_type: 'number',
      filter_operators: [{ operator: 'is', label: 'Is', value_arity: 'single' }, { operator: 'is_empty', label: 'Is empty', value_arity: 'none' }],
    });
    const text = await h.call('dbapp/getAutomationCatalog', { section: 'actions' });
    expect(text.body.data).toBe('actions (2):\nsend_email — Send email: Sends an email.\nfor_loop (control flow) — For loop\noperators per field type: pass field_type; config schemas: pass detail: true');
    const bad = await h.call('dbapp/getAutomationCatalog', { field_type: 'nonsense' });
    expect(bad.body.error.code).toBe('INVALID_PARAMETER');
  });

  it('is cached for one hour per key and arguments: the second call does not reach Tape, another key does', async () => {
    const h = await harness();
    const seen = tape(h, catalogRoutes);
    const first = await h.call('dbapp/getAutomationCatalog', {}, json);
    expect(automations(/^\/v1\/automation\/meta\//, seen)).toHaveLength(2);
    const second = await h.call('dbapp/getAutomationCatalog', {}, json);
    expect(second.body.data).toEqual(first.body.data);
    expect(automations(/^\/v1\/automation\/meta\//, seen)).toHaveLength(2);
    // Other arguments are another entry.
    await h.call('dbapp/getAutomationCatalog', { detail: true }, json);
    expect(automations(/^\/v1\/automation\/meta\//, seen)).toHaveLength(4);
    await h.call('dbapp/getAutomationCatalog', { field_type: 'number' }, json);
    await h.call('dbapp/getAutomationCatalog', { field_type: 'number' }, json);
    expect(automations('/v1/automation/meta/filter', seen)).toHaveLength(1);
    // Another key does not share the entry.
    expect(automations(/^\/v1\/automation\/meta\//, seen)).toHaveLength(5);
    await h.call('dbapp/getAutomationCatalog', {}, { ...json, key: SANDBOX_KEYS.member });
    expect(automations(/^\/v1\/automation\/meta\//, seen)).toHaveLength(7);
    // The entry is in the Store, under the caller's key hash.
    const keys = [...((h.store as any).entries as Map<string, unknown>).keys()].filter((k) => k.includes('automation-catalog'));
    expect(keys.length).toBe(4);
    expect(keys.every((k) => k.startsWith('cache#') && !k.includes(SANDBOX_KEYS.owner))).toBe(true);
  });

  it('expires after the hour', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const { MemoryStore } = await import('../../shared/store/memory');
    const store = new MemoryStore(() => now);
    const h = await harness({ store });
    const seen = tape(h, catalogRoutes);
    await h.call('dbapp/getAutomationCatalog', { section: 'triggers' });
    now += 3599_000;
    await h.call('dbapp/getAutomationCatalog', { section: 'triggers' });
    expect(automations('/v1/automation/meta/trigger', seen)).toHaveLength(1);
    now += 2_000;
    await h.call('dbapp/getAutomationCatalog', { section: 'triggers' });
    expect(automations('/v1/automation/meta/trigger', seen)).toHaveLength(2);
  });
});

describe('listAutomations', () => {
  const pages: Record<string, Route> = {
    'GET /v1/automation/(app|workspace)/\\d+|GET /v1/automation/org': (r) => {
      const limit = Number(r.query.get('limit'));
      const start = r.query.get('cursor') ? Number(r.query.get('cursor')!.replace('tape-', '')) : 4021;
      const ids = Array.from({ length: Math.min(limit, 4030 - start) }, (_, i) => start + i);
      return { body: { total: 9, automations: ids.map((id) => tapeAutomation(id)), cursor: start + limit < 4030 ? `tape-${start + limit}` : null } };
    },
  };

  it('lists by app, workspace (ignored when app_id is given) or organization, 50 by default', async () => {
    const h = await harness();
    const seen = tape(h, pages);
    await h.call('dbapp/listAutomations', { app_id: 87, workspace_id: 12 });
    await h.call('dbapp/listAutomations', { workspace_id: 12 });
    await h.call('dbapp/listAutomations', {});
    expect(seen.map((s) => `${s.path}?${s.query}`)).toEqual(['/v1/automation/app/87?limit=50', '/v1/automation/workspace/12?limit=50', '/v1/automation/org?limit=50']);
    const tooMany = await h.call('dbapp/listAutomations', { limit: 101 });
    expect(tooMany.body.error.details.parameter).toBe('limit');
    expect(seen).toHaveLength(3);
  });

  it('summaries by default, full definitions with verbose; one line per automation in text', async () => {
    const h = await harness();
    tape(h, pages);
    const r = await h.call('dbapp/listAutomations', { app_id: 87, limit: 2 }, json);
    expect(r.body.data.total).toBe(9);
    expect(r.body.data.automations[0]).toEqual({
      id: 4021, name: 'Automation 4021', app_id: 87, workspace_id: 12, paused: true, broken: false, trigger_type: 'record_created', has_filter: false,
      action_types: ['send_email'], action_count: 1, total_action_count: 1, created_at: '2024-05-14 09:12:31', updated_at: '2024-05-20 16:03:08',
    });
    const v = await h.call('dbapp/listAutomations', { app_id: 87, limit: 1, verbose: true }, json);
    expect(v.body.data.automations[0]).toMatchObject({ description: null, trigger: { type: 'record_created', config: {} }, filter: null, actions: [{ type: 'send_email' }] });
    const text = await h.call('dbapp/listAutomations', { app_id: 87, limit: 2 });
    const lines = text.body.data.split('\n');
    expect(lines[0]).toBe('#4021 Automation 4021 · record_created → send_email · paused');
    expect(lines[2]).toMatch(/^showing 2 of 9 automations — pass cursor "[^"]+" with app_id 87 for the next page$/);
    const verbose = await h.call('dbapp/listAutomations', { app_id: 87, limit: 1, verbose: true });
    expect(verbose.body.data).toContain('trigger: {"type":"record_created","config":{}}');
  });

  it('hands out a cursor tied to its scope: the same scope continues, another scope is refused before any request', async () => {
    const h = await harness();
    const seen = tape(h, pages);
    const first = await h.call('dbapp/listAutomations', { app_id: 87, limit: 4 }, json);
    const cursor = first.body.data.cursor as string;
    expect(cursor).not.toBe('tape-4025');
    const next = await h.call('dbapp/listAutomations', { app_id: 87, limit: 4, cursor }, json);
    expect(next.body.data.automations.map((a: { id: number }) => a.id)).toEqual([4025, 4026, 4027, 4028]);
    expect(seen[1]!.query.get('cursor')).toBe('tape-4025');
    for (const other of [{ workspace_id: 12 }, {}, { app_id: 88 }]) {
      const r = await h.call('dbapp/listAutomations', { ...other, cursor });
      expect(r.status).toBe(400);
      expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'cursor' } });
      expect(r.body.error.message).toContain('app 87');
    }
    const forged = await h.call('dbapp/listAutomations', { app_id: 87, cursor: 'tape-4025' });
    expect(forged.body.error.details.parameter).toBe('cursor');
    expect(seen).toHaveLength(2);
  });

  it('returns the readable prefix with readable_limit and a warning when the page holds an unreadable automation', async () => {
    const h = await harness();
    const seen = tape(h, {
      'GET /v1/automation/app/87': (r) => {
        const limit = Number(r.query.get('limit'));
        // The 4th automation (#4024) cannot be serialized: any page reaching it fails.
        if (limit >= 4) return { status: 500, body: { status_code: 500, endpoint: r.path, error_code: 'internal_server_error', error_message: 'Automation 4024 could not be serialized.' } };
        return { body: { total: 9, automations: Array.from({ length: limit }, (_, i) => tapeAutomation(4021 + i)), cursor: `tape-${4021 + limit}` } };
      },
    });
    const r = await h.call('dbapp/listAutomations', { app_id: 87, limit: 10 }, json);
    expect(r.status).toBe(200);
    expect(r.body.data.readable_limit).toBe(3);
    expect(r.body.data.automations.map((a: { id: number }) => a.id)).toEqual([4021, 4022, 4023]);
    expect(r.body.data.warning).toMatch(/first 3 .*after #4023.*updateAutomation/);
    expect(seen.length).toBeLessThanOrEqual(6);
    const text = await h.call('dbapp/listAutomations', { app_id: 87, limit: 10 });
    expect(text.body.data).toContain('WARNING: Only the first 3');
  });
});

describe('getAutomation', () => {
  it('answers the automation_unserializable object with the heal recipe instead of a server error', async () => {
    const h = await harness();
    tape(h, {
      'GET /v1/automation/4024': (r) => ({ status: 500, body: { status_code: 500, endpoint: r.path, error_code: 'internal_server_error', error_message: 'could not be serialized' } }),
      'GET /v1/automation/4021': () => ({ body: { automation: tapeAutomation(4021, { description: 'Hi', broken: true }) } }),
      'GET /v1/automation/404': (r) => ({ status: 404, body: { status_code: 404, endpoint: r.path, error_code: 'not_found', error_message: 'Not found.' } }),
    });
    const r = await h.call('dbapp/getAutomation', { automation_id: 4024 }, json);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({
      error: expect.any(String),
      error_code: 'automation_unserializable',
      automation_id: 4024,
      bricked: true,
      heal: { tool: 'updateAutomation', body: { actions: [] } },
    });
    expect((await h.call('dbapp/getAutomation', { automation_id: 4024 })).body.data).toContain('heal with updateAutomation {"automation_id": 4024, "actions": []}');
    const ok = await h.call('dbapp/getAutomation', { automation_id: 4021 });
    expect(ok.body.data).toBe('#4021 Automation 4021 · record_created → send_email · paused · BROKEN · app #87 · updated 2024-05-20 16:03:08');
    const full = await h.call('dbapp/getAutomation', { automation_id: 4021, verbose: true }, json);
    expect(full.body.data).toMatchObject({ description: 'Hi', trigger: { type: 'record_created' }, actions: [{ id: 'a1' }] });
    expect((await h.call('dbapp/getAutomation', { automation_id: 404 })).body.error.code).toBe('NOT_FOUND');
  });
});

describe('createAutomation / updateAutomation validate before sending', () => {
  const created: Record<string, Route> = {
    'POST /v1/automation/app/\\d+': (r) => ({ status: 201, body: { automation: tapeAutomation(4100, { trigger: null, actions: [], ...r.body, app_id: 87 }) } }),
    'PUT /v1/automation/\\d+': (r) => ({ body: { automation: tapeAutomation(4021, r.body) } }),
    'GET /v1/automation/4021': () => ({ body: { automation: tapeAutomation(4021, { app_id: leadsId }) } }),
  };
  let leadsId = 0;

  async function setup() {
    const h = await harness();
    const leads = [...h.tape.state.apps.values()].find((a) => a.name === 'Leads')!;
    leadsId = leads.app_id;
    const field = (label: string) => leads.fields.find((f) => f.config.label === label)!.field_id;
    const seen = tape(h, created);
    const writes = () => seen.filter((s) => s.path.startsWith('/v1/automation') && s.method !== 'GET');
    return { h, seen, writes, field, appId: leads.app_id };
  }
  const subject = (field_id: number, field_type?: string) => ({ kind: 'variable', source: 'field', field_id, ...(field_type ? { field_type } : {}) });

  it('requires the trigger key on create: null is manual-only, omitted is refused', async () => {
    const { h, writes, appId } = await setup();
    const missing = await h.call('dbapp/createAutomation', { app_id: appId, name: 'No trigger' });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details.parameter).toBe('trigger');
    expect(missing.body.error.message).toContain('null for a manual-only automation');
    expect(writes()).toHaveLength(0);
    const manual = await h.call('dbapp/createAutomation', { app_id: appId, name: 'Manual', trigger: null }, json);
    expect(manual.body.data).toMatchObject({ created: true, automation: { trigger_type: null } });
    expect(manual.body.data.note).toMatch(/paused.*validateAutomation.*simulateAutomation.*activateAutomation/);
    expect(writes()[0]!.body).toEqual({ name: 'Manual' });
  });

  it('checks that each filter value uses the channel of its field and operator', async () => {
    const { h, writes, appId, field } = await setup();
    const base = { app_id: appId, name: 'Big leads', trigger: { type: 'record_created', config: {} } };
    const value = field('Estimated value');
    const cases: [unknown, string, string][] = [
      [{ subject: subject(value), operator: 'greater_than', value: { type: 'text', text: ['1000'] } }, 'filter.rows.0.value.type', '"number"'],
      [{ subject: subject(field('Source')), operator: 'is_any_of', value: { type: 'text', text: ['Website'] } }, 'filter.rows.0.value.type', '"ids"'],
      [{ subject: subject(field('First contact')), operator: 'is_after', value: { type: 'number', number: ['1'] } }, 'filter.rows.0.value.type', '"date"'],
      [{ subject: subject(field('Company')), operator: 'contains', value: { type: 'ids', ids: [1] } }, 'filter.rows.0.value.type', '"text"'],
      // The channel follows the app's field, not a wrong field_type given with the subject.
      [{ subject: subject(value, 'single_text'), operator: 'is', value: { type: 'text', text: ['x'] } }, 'filter.rows.0.value.type', '"number"'],
      [{ subject: subject(value), operator: 'greater_than', value: { type: 'number', number: ['1'], text: ['1'] } }, 'filter.rows.0.value.text', 'only "type" and "number"'],
      [{ subject: subject(value), operator: 'is_empty', value: { type: 'number', number: ['1'] } }, 'filter.rows.0.value', 'no value'],
      [{ subject: subject(value), operator: 'greater_than' }, 'filter.rows.0.value', '{type:"text"'],
      [{ subject: subject(value), operator: 'bigger' }, 'filter.rows.0.operator', 'greater_than'],
      [{ subject: subject(field('First contact')), operator: 'is_after', value: { type: 'date', date: { operator: 'minus', unit: 'day', amount: 7 } } }, 'filter.rows.0.value.date.amount', 'array of strings'],
      [{ subject: subject(field('First contact')), operator: 'is_after', value: { type: 'date', date: { operator: 'minus', unit: 'year', amount: ['1'] } } }, 'filter.rows.0.value.date.unit', '"day"'],
      [{ subject: { kind: 'variable', source: 'meta', meta_type: 'record_url' }, operator: 'is', value: { type: 'text', text: ['x'] } }, 'filter.rows.0.subject.meta_type', 'app_record_id'],
      [{ subject: { kind: 'variable', source: 'field', field_id: 999999 }, operator: 'is', value: { type: 'text', text: ['x'] } }, 'filter.rows.0.subject.field_type', 'type'],
    ];
    for (const [row, parameter, expected] of cases) {
      const r = await h.call('dbapp/createAutomation', { ...base, filter: { operator: 'and', rows: [row] } });
      expect(r.status, JSON.stringify(row)).toBe(400);
      expect(r.body.error.details.parameter, JSON.stringify(row)).toBe(parameter);
      expect(r.body.error.details.expected, JSON.stringify(row)).toContain(expected);
    }
    expect(writes()).toHaveLength(0);
    // Right channels pass, with field_type filled from the app.
    const ok = await h.call(
      'dbapp/createAutomation',
      {
        ...base,
        filter: {
          operator: 'or',
          rows: [
            { subject: subject(value), operator: 'greater_or_equal_than', value: { type: 'number', number: ['1000'] } },
            { operator: 'and', rows: [{ subject: subject(field('Source')), operator: 'is_any_of', value: { type: 'ids', ids: [1] } }, { subject: subject(field('Company')), operator: 'is_not_empty' }] },
            { subject: subject(field('First contact')), operator: 'is_after', value: { type: 'date', date: { operator: 'minus', unit: 'day', amount: '7' } } },
          ],
        },
      },
      json,
    );
    expect(ok.status).toBe(200);
    expect(writes()[0]!.body.filter.rows[0].subject.field_type).toBe('number');
    // A wrong field_type given with the subject is corrected from the app, not held against the value.
    const corrected = await h.call('dbapp/createAutomation', { ...base, filter: { operator: 'and', rows: [{ subject: subject(field('Company'), 'number'), operator: 'contains', value: { type: 'text', text: ['Acme'] } }] } });
    expect(corrected.status).toBe(200);
    expect(writes()[1]!.body.filter.rows[0].subject.field_type).toBe('single_text');
    expect(writes()[0]!.body.filter.rows[1].rows[0].subject.field_type).toBe('single_category');
  });

  it('refuses empty-composed values and empty groups, in the filter and (values) in action conditions', async () => {
    const { h, writes, appId, field } = await setup();
    const base = { app_id: appId, name: 'X', trigger: { type: 'record_created', config: {} } };
    const company = field('Company');
    const cases: [Record<string, unknown>, string][] = [
      [{ filter: { operator: 'and', rows: [] } }, 'filter.rows'],
      [{ filter: { operator: 'and', rows: [{ operator: 'or', rows: [] }] } }, 'filter.rows.0.rows'],
      [{ filter: { operator: 'and', rows: [{ subject: subject(company), operator: 'contains', value: { type: 'text', text: ['  ', ''] } }] } }, 'filter.rows.0.value.text'],
      [{ filter: { operator: 'and', rows: [{ subject: subject(company), operator: 'contains', value: { type: 'text', text: '' } }] } }, 'filter.rows.0.value.text'],
      [{ filter: { operator: 'and', rows: [{ subject: subject(field('Source')), operator: 'is_any_of', value: { type: 'ids', ids: [] } }] } }, 'filter.rows.0.value.ids'],
      [{ filter: { operator: 'and', rows: [{ subject: subject(field('Estimated value')), operator: 'less_than', value: { type: 'number', number: [] } }] } }, 'filter.rows.0.value.number'],
      [
        { actions: [{ type: 'send_email', config: {} }, { type: 'conditional', config: { condition: { operator: 'and', rows: [{ subject: subject(company), operator: 'is', value: { type: 'text', text: [''] } }] } } }] },
        'actions.1.config.condition.rows.0.value.text',
      ],
    ];
    for (const [def, parameter] of cases) {
      const r = await h.call('dbapp/createAutomation', { ...base, ...def });
      expect(r.status, parameter).toBe(400);
      expect(r.body.error.details.parameter).toBe(parameter);
    }
    expect(writes()).toHaveLength(0);
    // An empty group inside an action is allowed (an always-true condition).
    const ok = await h.call('dbapp/createAutomation', { ...base, actions: [{ type: 'conditional', config: { condition: { operator: 'and', rows: [] }, action_rows: [] } }] });
    expect(ok.status).toBe(200);
  });

  it('refuses wrong shapes of trigger and actions with the path and the expected shape', async () => {
    const { h, writes, appId } = await setup();
    const base = { app_id: appId, name: 'X', trigger: { type: 'record_created', config: {} } };
    const cases: [Record<string, unknown>, string, string][] = [
      [{ trigger: { type: 'record_created' } }, 'trigger.config', 'object'],
      [{ trigger: 'record_created' }, 'trigger', 'object'],
      [{ trigger: { type: 'record_created', config: {}, app_id: 5 } }, 'trigger.app_id', 'only type and config'],
      [{ actions: [{ type: 'send_email' }] }, 'actions.0.config', 'object'],
      [{ actions: [{ type: 'send_email', config: {} }, { type: 'conditional', config: { condition: [] } }] }, 'actions.1.config.condition', '{operator: "and"|"or", rows'],
      [{ actions: [{ type: 'conditional', config: { action_rows: [{ type: 'send_email' }] } }] }, 'actions.0.config.action_rows.0.config', 'object'],
      [{ actions: [{ type: 'for_loop', condition: {}, config: {} }] }, 'actions.0.condition', 'only id, type'],
      [{ actions: [{ type: 'for_loop', config: { iterable: [] } }] }, 'actions.0.config.iterable', 'reference object'],
      [{ actions: { type: 'send_email', config: {} } }, 'actions', 'array'],
      [{ name: '' }, 'name', 'at least 1'],
      [{ name: 'x'.repeat(5001) }, 'name', 'at most 5000'],
      [{ description: 'x'.repeat(25_001) }, 'description', 'at most 25000'],
    ];
    for (const [def, parameter, expected] of cases) {
      const r = await h.call('dbapp/createAutomation', { ...base, ...def });
      expect(r.status, parameter).toBe(400);
      expect(r.body.error.details.parameter, JSON.stringify(def).slice(0, 80)).toBe(parameter);
      expect(r.body.error.details.expected, parameter).toContain(expected);
    }
    expect(writes()).toHaveLength(0);
    const ok = await h.call('dbapp/createAutomation', { ...base, name: 'x'.repeat(5000), description: 'd'.repeat(25_000) });
    expect(ok.status).toBe(200);
  });

  it('tells agents to write custom code multi-line, indented and commented', async () => {
    const { h } = await setup();
    const tools = h.rt.registry;
    const create = (tools as any).get?.('dbapp', 'createAutomation') ?? (await import('../../functions/dbapp/tools/automations/createAutomation')).createAutomation;
    expect(create.description).toMatch(/custom_code and custom_variable actions multi-line, indented and commented/);
  });

  it('sends only the keys given on update (null clears); a webhook trigger\'s read-only webhook_url is not sent', async () => {
    const { h, writes } = await setup();
    const r = await h.call('dbapp/updateAutomation', { automation_id: 4021, description: 'New' }, json);
    expect(r.body.data).toMatchObject({ updated: true, changed: ['description'], automation: { id: 4021 } });
    expect(writes()[0]!.body).toEqual({ description: 'New' });
    await h.call('dbapp/updateAutomation', { automation_id: 4021, filter: null, description: null });
    expect(writes()[1]!.body).toEqual({ description: null, filter: null });
    await h.call('dbapp/updateAutomation', { automation_id: 4021, trigger: { type: 'webhook_received', config: { webhook_url: 'https://api.tapeapp.com/v1/automation/webhook/abc' } } });
    expect(writes()[2]!.body).toEqual({ trigger: { type: 'webhook_received', config: {} } });
    const nothing = await h.call('dbapp/updateAutomation', { automation_id: 4021 });
    expect(nothing.body.error.code).toBe('INVALID_PARAMETER');
    const nullName = await h.call('dbapp/updateAutomation', { automation_id: 4021, name: null });
    expect(nullName.body.error.details.parameter).toBe('name');
    expect(writes()).toHaveLength(3);
    expect((await h.call('dbapp/updateAutomation', { automation_id: 4021, actions: [] })).body.data).toBe(
      'updated actions of #4021 Automation 4021 · record_created → no actions · paused (a revision was kept)',
    );
  });
});

describe('validateAutomation', () => {
  it('answers {valid, errors with remediation and nullable references, caveat}', async () => {
    const h = await harness();
    tape(h, {
      'GET /v1/automation/4021/validate': () => ({
        body: {
          valid: false,
          errors: [
            { code: 'filter_variable_missing', message: 'The filter refers to a field that no longer exists.', action_id: null, field_id: 513 },
            { code: 'action_app_missing', message: 'An action references an app that no longer exists.', action_id: 'a1b2c3', app_id: 42, deactivated: true },
          ],
        },
      }),
    });
    const r = await h.call('dbapp/validateAutomation', { automation_id: 4021 }, json);
    expect(r.body.data.valid).toBe(false);
    expect(r.body.data.errors[0]).toEqual({
      code: 'filter_variable_missing', message: 'The filter refers to a field that no longer exists.', remediation: expect.stringContaining('field 513'),
      deactivated: false, block_id: null, action_id: null, field_id: 513, app_id: null,
    });
    expect(r.body.data.errors[1]).toMatchObject({ deactivated: true, action_id: 'a1b2c3', app_id: 42 });
    expect(r.body.data.caveat).toMatch(/no reference dangles.*simulateAutomation/);
    const text = (await h.call('dbapp/validateAutomation', { automation_id: 4021 })).body.data;
    expect(text.split('\n')[0]).toBe('#4021 NOT valid (1 error(s))');
    expect(text).toContain('- action_app_missing (in a deactivated step) [action a1b2c3, app 42]');
  });
});

describe('getAutomationRevisions', () => {
  const rev = (id: string, name: string) => ({
    id, automation_id: 4021, created_at: '2024-05-20 16:03:08', name, paused: false, broken: false,
    trigger: { type: 'record_created', config: {} }, filter: null, actions: [{ id: 'a', type: 'send_email', group: 'action', config: {} }],
  });

  it('lists newest first with count, and fetches one snapshot by its 64-bit id kept as a string', async () => {
    const h = await harness();
    const seen = tape(h, {
      'GET /v1/automation/4021/revision': () => ({ body: { revisions: [rev('90071992547409931', 'v3'), rev('90071992547409930', 'v2'), rev('90071992547409929', 'v1')] } }),
      'GET /v1/automation/4021/revision/\\d+': (r) => ({ body: { revision: rev(r.path.split('/').pop()!, 'v1') } }),
    });
    const list = await h.call('dbapp/getAutomationRevisions', { automation_id: 4021 }, json);
    expect(list.body.data.count).toBe(3);
    expect(list.body.data.revisions.map((r: { id: string }) => r.id)).toEqual(['90071992547409931', '90071992547409930', '90071992547409929']);
    expect(list.body.data.revisions[0]).toEqual({
      id: '90071992547409931', automation_id: 4021, created_at: '2024-05-20 16:03:08', name: 'v3', paused: false, broken: false,
      trigger_type: 'record_created', has_filter: false, action_types: ['send_email'], action_count: 1,
    });
    // 90071992547409929 is beyond 2^53: as a JS number it would become …928.
    expect(Number('90071992547409929')).not.toBe(90071992547409929n as unknown as number);
    const one = await h.call('dbapp/getAutomationRevisions', { automation_id: 4021, revision_id: '90071992547409929' }, json);
    expect(seen.at(-1)!.path).toBe('/v1/automation/4021/revision/90071992547409929');
    expect(one.body.data).toEqual({ ...rev('90071992547409929', 'v1') });
    const asNumber = await h.call('dbapp/getAutomationRevisions', { automation_id: 4021, revision_id: 90071992547409929 });
    expect(asNumber.body.error.details.parameter).toBe('revision_id');
    const text = (await h.call('dbapp/getAutomationRevisions', { automation_id: 4021 })).body.data.split('\n');
    expect(text[0]).toBe('rev 90071992547409931 · 2024-05-20 16:03:08 · v3 · record_created → send_email · live');
    expect(text[3]).toBe('3 revision(s) of #4021, newest first — pass revision_id for a snapshot');
  });

  it('refuses a revision id Tape sent as a JSON number rather than rounding it', async () => {
    const h = await harness();
    tape(h, { 'GET /v1/automation/4021/revision': () => ({ status: 200, text: '{"revisions":[{"id":90071992547409929,"automation_id":4021,"created_at":"x","name":"n","paused":false,"broken":false,"trigger":null,"filter":null,"actions":[]}]}' }) });
    const r = await h.call('dbapp/getAutomationRevisions', { automation_id: 4021 });
    expect(r.body.error.code).toBe('INTERNAL_ERROR');
  });
});

describe('runs', () => {
  const RUN = {
    id: '9001', automation_id: 88, automation_name: 'Notify on new lead', automation_revision_id: '3', app_id: 42, app_name: 'Leads', workspace_id: 7,
    status: 'completed', type: 'regular', created_at: '2024-01-18 08:12:04', completed_at: '2024-01-18 08:12:09', num_consumed_actions: 2,
    failure_reason: null, error_message: null, triggered_on_record_id: 5001, triggered_on_record_revision_id: 4, triggered_by_automation_id: null,
  };
  const page = () => ({ body: { total: 3, automation_runs: [RUN], cursor: 'tape-cursor' } });

  it('lists by automation, app, workspace or organization; filters go to the general listing; a cursor goes back alone to its listing', async () => {
    const h = await harness();
    const seen = tape(h, { 'POST /v1/automation-run(/(app|workspace|automation)/\\d+)?': page });
    const r = await h.call('dbapp/listAutomationRuns', { automation_id: 88, limit: 1 }, json);
    expect(seen[0]).toMatchObject({ path: '/v1/automation-run/automation/88', body: { limit: 1 } });
    expect(r.body.data.runs[0]).toEqual(RUN);
    await h.call('dbapp/listAutomationRuns', { app_id: 42 });
    await h.call('dbapp/listAutomationRuns', { workspace_id: 7 });
    await h.call('dbapp/listAutomationRuns', {});
    await h.call('dbapp/listAutomationRuns', { app_id: 42, status: ['failed'], created_at_from: '2024-01-18 00:00:00', created_at_to: '2024-01-18 23:59:59' });
    expect(seen.slice(1).map((s) => [s.path, s.body])).toEqual([
      ['/v1/automation-run/app/42', { limit: 50 }],
      ['/v1/automation-run/workspace/7', { limit: 50 }],
      ['/v1/automation-run', { limit: 50 }],
      ['/v1/automation-run', { limit: 50, app_ids: [42], status: ['failed'], created_at_from: '2024-01-18 00:00:00', created_at_to: '2024-01-18 23:59:59' }],
    ]);
    await h.call('dbapp/listAutomationRuns', { cursor: r.body.data.cursor, limit: 5 });
    expect(seen.at(-1)).toMatchObject({ path: '/v1/automation-run/automation/88', body: { cursor: 'tape-cursor', limit: 5 } });
    const mixed = await h.call('dbapp/listAutomationRuns', { cursor: r.body.data.cursor, status: ['failed'] });
    expect(mixed.body.error.details.parameter).toBe('status');
    const twoScopes = await h.call('dbapp/listAutomationRuns', { app_id: 42, workspace_id: 7 });
    expect(twoScopes.body.error.code).toBe('INVALID_PARAMETER');
    const badDate = await h.call('dbapp/listAutomationRuns', { created_at_from: '2024-01-18T00:00:00Z' });
    expect(badDate.body.error.details.parameter).toBe('created_at_from');
    const reversed = await h.call('dbapp/listAutomationRuns', { created_at_from: '2024-01-19 00:00:00', created_at_to: '2024-01-18 00:00:00' });
    expect(reversed.body.error.details.parameter).toBe('created_at_from');
    expect(seen).toHaveLength(6);
    const text = (await h.call('dbapp/listAutomationRuns', { automation_id: 88 })).body.data.split('\n');
    expect(text[0]).toBe('run 9001 · #88 Notify on new lead · completed (regular) · record #5001 · 2024-01-18 08:12:04 · 2 actions');
    expect(text[1]).toMatch(/^showing 1 of 3 runs — pass cursor ".+" alone for the next page$/);
  });

  it('gets one run with its log', async () => {
    const h = await harness();
    tape(h, {
      'GET /v1/automation-run/9042': () => ({
        body: {
          automation_run: {
            ...RUN, id: '9042', status: 'failed', failure_reason: 'actions_failed', error_message: 'Required field "Name" is missing.',
            logs: [
              { id: '9042-trigger', type: 'trigger', status: 'success', label: 'Trigger', messages: [], action_id: null, record_id: 5001, logged_at: '2024-01-18 08:12:04' },
              { id: '9042-action-d4e5f6-1', type: 'action', status: 'failure', label: 'Create record', messages: [{ message: 'Required field "Name" is missing.', level: 'error' }], action_id: 'd4e5f6', record_id: null, logged_at: '2024-01-18 08:12:09' },
            ],
          },
        },
      }),
    });
    const r = await h.call('dbapp/getAutomationRun', { run_id: '9042' }, json);
    expect(r.body.data.run).toMatchObject({ id: '9042', status: 'failed' });
    expect(r.body.data.run.logs).toBeUndefined();
    expect(r.body.data.logs).toHaveLength(2);
    expect((await h.call('dbapp/getAutomationRun', { run_id: '9042' })).body.data).toBe(
      'run 9042 · #88 Notify on new lead · failed (regular) · record #5001 · 2024-01-18 08:12:04 · 2 actions · actions_failed: Required field "Name" is missing.\n' +
        '  2024-01-18 08:12:04 Trigger: success · record #5001\n' +
        '  2024-01-18 08:12:09 Create record [d4e5f6]: failure — Required field "Name" is missing.\n' +
        '2 log step(s)',
    );
  });

  it('runs, simulates and calls with the body the trigger expects', async () => {
    const h = await harness();
    const accepted = () => ({ status: 202, body: { message: 'Use the automation-run API to poll the run.' } });
    const seen = tape(h, {
      'POST /v1/automation/\\d+/(manual-run|simulate)': accepted,
      'POST /v1/automation/\\d+/trigger': () => ({ status: 202, body: {} }),
      'POST /v1/automation/\\d+/activate': (r) => ({ status: 409, body: { status_code: 409, endpoint: r.path, error_code: 'conflict', error_message: 'The automation is broken.' } }),
      'POST /v1/automation/weblink/generate': () => ({ status: 201, body: { trigger_token: 't-1', trigger_client_url: 'https://weblink.tapeapp.com/trigger/t-1' } }),
      'GET /v1/automation-usage-report': () => ({ body: { organization_id: 1337, usage_reports: [] } }),
    });
    expect((await h.call('dbapp/runAutomation', { automation_id: 1, record_id: 5001 }, json)).body.data).toMatchObject({ accepted: true, record_id: 5001 });
    await h.call('dbapp/simulateAutomation', { automation_id: 1, use_last_received_webhook_payload: true });
    await h.call('dbapp/simulateAutomation', { automation_id: 1 });
    expect(seen.map((s) => [s.path, s.body])).toEqual([
      ['/v1/automation/1/manual-run', { record_id: 5001 }],
      ['/v1/automation/1/simulate', { use_last_received_webhook_payload: true }],
      ['/v1/automation/1/simulate', {}],
    ]);
    const both = await h.call('dbapp/runAutomation', { automation_id: 1, record_id: 5, webhook_payload: { a: 1 } });
    expect(both.body.error.details.parameter).toBe('webhook_payload');
    await h.call('dbapp/callAutomation', { automation_id: 2, record_id: 5001, arguments: { 'My Variable': 1, ' My variable ': 2, var_note: 'x' } });
    expect(seen.at(-1)!.body).toEqual({ trigger_on_record_id: 5001, trigger_with_arguments: { var_my_variable: 1, var__my_variable_: 2, var_note: 'x' } });
    const link = await h.call('dbapp/generateAutomationWeblink', { automation_id: 3, record_id: 5001, expiration: 'one_week' }, json);
    expect(seen.at(-1)!.body).toEqual({ trigger_workflow_def_id: 3, trigger_on_record_id: 5001, expiration_type: 'ONE_WEEK' });
    expect(link.body.data.url).toBe('https://weblink.tapeapp.com/trigger/t-1');
    const broken = await h.call('dbapp/activateAutomation', { automation_id: 4 });
    expect(broken.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'automation_id', upstream_status: 409 } });
    expect(broken.body.error.message).toContain('validateAutomation');
    const usage = await h.call('dbapp/getAutomationUsageReport', {}, json);
    expect(usage.body.data).toEqual({ organization_id: 1337, usage_reports: [] });
    expect(seen.at(-1)!.query.toString()).toBe('limit=30&interval_resolution=daily');
  });
});
