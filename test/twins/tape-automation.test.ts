import { describe, expect, it } from 'vitest';
import { createTapeTwin, SANDBOX_KEYS, type TapeTwinOptions } from '../../infra/twins/tape';
import { DEMO_LEADS_APP_ID } from '../../infra/twins/tape/demo';
import { brickAutomation } from '../../infra/twins/tape/automation/store';

/** The twin with the demo apps; `call` speaks HTTP to it with the owner's key. */
function twin(opts: TapeTwinOptions = {}) {
  const t = createTapeTwin(opts);
  const call = async (method: string, path: string, body?: unknown, key: string = SANDBOX_KEYS.owner) => {
    const res = await t.fetch(`https://api.tapeapp.com${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as any };
  };
  const leads = t.state.apps.get(DEMO_LEADS_APP_ID)!;
  const field = (label: string) => leads.fields.find((f) => f.label === label)!;
  const option = (label: string, text: string) => (field(label).config.settings.options as { id: number; text: string }[]).find((o) => o.text === text)!.id;
  const ref = (label: string) => ({ kind: 'variable', source: 'field', field_id: field(label).field_id, field_type: field(label).field_type, previous: false, collection: false, triggering: false });
  const createLead = async (fields: Record<string, unknown>, query = '') => {
    const res = await call('POST', `/v1/record/app/${DEMO_LEADS_APP_ID}${query}`, { fields });
    expect(res.status).toBe(200);
    return res.body.record_id as number;
  };
  const create = async (body: Record<string, unknown>) => {
    const res = await call('POST', `/v1/automation/app/${DEMO_LEADS_APP_ID}`, body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.automation;
  };
  const runsOf = async (id: number) => (await call('POST', `/v1/automation-run/automation/${id}`, {})).body.automation_runs as any[];
  const run = async (id: string) => (await call('GET', `/v1/automation-run/${id}`)).body.automation_run;
  return { t, call, leads, field, option, ref, createLead, create, runsOf, run };
}

const email = (subject: unknown[], to = ['owner@example.com']) => ({ type: 'send_email', config: { to_address: to, subject } });

describe('Tape twin: automation discovery (discovery.md)', () => {
  it('serves the 9 triggers, the 35 actions with config schemas, and operators per field type, cacheable for an hour', async () => {
    const { call } = twin({ demo: false });
    const triggers = await call('GET', '/v1/automation/meta/trigger');
    expect(triggers.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(triggers.body.triggers).toHaveLength(9);
    expect(triggers.body.triggers[0]).toEqual({
      type: 'record_created',
      label: 'Record created',
      description: 'Triggers when a record is created in the app.',
      config_schema: { type: 'object', properties: {}, additionalProperties: false },
    });
    const webhook = triggers.body.triggers.find((t: any) => t.type === 'webhook_received');
    expect(webhook.config_schema.properties.webhook_url.readOnly).toBe(true);

    const actions = (await call('GET', '/v1/automation/meta/action')).body.actions;
    expect(actions).toHaveLength(35);
    expect(actions.filter((a: any) => a.group === 'control_flow').map((a: any) => a.type).sort()).toEqual(['conditional', 'for_loop']);
    const http = actions.find((a: any) => a.type === 'http_call');
    expect(http.label).toBe('HTTP request');
    expect(http.config_schema.required).toEqual(['http_call_type', 'http_call_url']);
    expect(http.config_schema.properties.http_call_type.enum).toEqual(['get', 'post', 'put', 'patch', 'delete']);

    const number = await call('GET', '/v1/automation/meta/filter?field_type=number');
    expect(number.body.field_type).toBe('number');
    expect(number.body.operators).toEqual(expect.arrayContaining([
      { operator: 'is', label: 'Is', value_arity: 'single' },
      { operator: 'greater_than', label: 'Greater than', value_arity: 'single' },
      { operator: 'is_empty', label: 'Is empty', value_arity: 'none' },
    ]));
    expect((await call('GET', '/v1/automation/meta/filter?field_type=single_text')).body.operators.map((o: any) => o.operator)).toContain('contains');
    expect((await call('GET', '/v1/automation/meta/filter')).status).toBe(400);
    expect((await call('GET', '/v1/automation/meta/filter?field_type=nope')).status).toBe(400);
    // Discovery accepts an automation key; the rest of the resource does not.
    expect((await call('GET', '/v1/automation/meta/trigger', undefined, SANDBOX_KEYS.automation)).status).toBe(200);
    expect((await call('GET', '/v1/automation/org', undefined, SANDBOX_KEYS.automation)).status).toBe(401);
  });
});

describe('Tape twin: managing automations (manage.md, reference/object.md)', () => {
  it('creates paused and not broken, in the documented envelope', async () => {
    const { call, leads } = twin();
    const res = await call('POST', `/v1/automation/app/${leads.app_id}`, { name: 'Email the owner on a new high-priority lead', trigger: { type: 'record_created', config: {} } });
    expect(res.status).toBe(201);
    expect(res.body.automation).toEqual({
      id: expect.any(Number),
      app_id: leads.app_id,
      workspace_id: leads.workspace_id,
      name: 'Email the owner on a new high-priority lead',
      paused: true,
      broken: false,
      broken_reason: null,
      trigger: { type: 'record_created', config: {} },
      filter: null,
      actions: [],
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      updated_at: expect.any(String),
    });
    const got = await call('GET', `/v1/automation/${res.body.automation.id}`);
    expect(got.body.automation).toEqual(res.body.automation);
    expect((await call('GET', '/v1/automation/999999')).status).toBe(404);
    expect((await call('GET', '/v1/automation/abc')).status).toBe(400);
    // A workspace member who does not administrate it sees the same 404.
    expect((await call('GET', `/v1/automation/${res.body.automation.id}`, undefined, SANDBOX_KEYS.member)).status).toBe(404);
  });

  it('rejects malformed bodies with a 400 naming the problem', async () => {
    const { call, leads } = twin();
    const post = (body: unknown) => call('POST', `/v1/automation/app/${leads.app_id}`, body);
    expect((await post({ name: '' })).status).toBe(400);
    expect((await post({ name: 'x'.repeat(5001) })).status).toBe(400);
    expect((await post({ name: 'ok', description: 'd'.repeat(25001) })).status).toBe(400);
    expect((await post({ name: 'ok', status: 'live' })).body.error_message).toContain('status');
    expect((await post({ name: 'ok', trigger: null })).status).toBe(400);
    expect((await post({ name: 'ok', trigger: { type: 'record_exploded', config: {} } })).status).toBe(400);
    expect((await post({ name: 'ok', trigger: { type: 'record_created', config: { colour: 1 } } })).status).toBe(400);
    const ro = await post({ name: 'ok', trigger: { type: 'webhook_received', config: { webhook_url: 'https://x' } } });
    expect(ro.status).toBe(400);
    expect(ro.body.error_message).toContain('read-only');
    // The legacy app_id is accepted and dropped, but type-checked.
    expect((await post({ name: 'ok', trigger: { type: 'record_created', config: { app_id: 5 } } })).body.automation.trigger.config).toEqual({});
    expect((await post({ name: 'ok', trigger: { type: 'record_created', config: { app_id: 'x' } } })).status).toBe(400);
    const noConfig = await post({ name: 'ok', actions: [{ type: 'send_email' }] });
    expect(noConfig.status).toBe(400);
    expect(noConfig.body).toMatchObject({ status_code: 400, endpoint: `/v1/automation/app/${leads.app_id}`, error_code: 'validation_error' });
    expect(noConfig.body.error_message).toContain('actions[0].config');
    expect((await post({ name: 'ok', actions: [{ type: 'http_call', config: { http_call_type: 'POST', http_call_url: ['https://x'] } }] })).status).toBe(400);
    expect((await post({ name: 'ok', actions: [{ type: 'send_email', config: { subject: [{ kind: 'variable', source: 'nowhere' }] } }] })).status).toBe(400);
    expect((await post({ name: 'ok', actions: [{ type: 'send_email', config: { subject: [{ kind: 'variable', source: 'field', field_id: 1 }] } }] })).body.error_message).toContain('field_type');
  });

  it('checks filter values against the field channel, empty values, arity and empty groups', async () => {
    const { call, leads, ref, option } = twin();
    const post = (filter: unknown) => call('POST', `/v1/automation/app/${leads.app_id}`, { name: 'f', trigger: { type: 'record_created', config: {} }, filter });
    const wrong = await post({ operator: 'and', rows: [{ subject: ref('Estimated value'), operator: 'greater_than', value: { type: 'text', text: ['1000'] } }] });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error_message).toContain('filter.rows[0].value');
    expect(wrong.body.error_message).toContain('"number"');
    const nested = await post({ operator: 'or', rows: [{ operator: 'and', rows: [{ id: 'deep', subject: ref('Source'), operator: 'is_any_of', value: { type: 'number', number: ['1'] } }] }] });
    expect(nested.status).toBe(400);
    expect(nested.body.error_message).toContain('filter.rows[0].rows[0] (condition deep)');
    expect((await post({ operator: 'and', rows: [{ subject: ref('Name'), operator: 'contains', value: { type: 'text', text: [''] } }] })).status).toBe(400);
    expect((await post({ operator: 'and', rows: [{ subject: ref('Source'), operator: 'is_any_of', value: { type: 'ids', ids: [] } }] })).status).toBe(400);
    expect((await post({ operator: 'and', rows: [] })).body.error_message).toContain('filter: null');
    expect((await post({ operator: 'and', rows: [{ subject: ref('Name'), operator: 'is_empty', value: { type: 'text', text: ['x'] } }] })).status).toBe(400);
    expect((await post({ operator: 'and', rows: [{ subject: ref('Name'), operator: 'contains' }] })).status).toBe(400);
    expect((await post({ operator: 'and', rows: [{ subject: ref('Name'), operator: 'contains', value: { type: 'text', text: ['x'], ids: [1] } }] })).status).toBe(400);
    expect((await post({ operator: 'and', rows: [{ subject: ref('First contact'), operator: 'is_after', value: { type: 'date', date: { amount: 1 } } }] })).status).toBe(400);
    expect((await post({ operator: 'and', rows: [{ subject: ref('First contact'), operator: 'is_after', value: { type: 'date', date: { unit: 'year', amount: ['1'] } } }] })).status).toBe(400);
    const ok = await post({ operator: 'and', rows: [
      { subject: ref('Source'), operator: 'is_any_of', value: { type: 'ids', ids: [option('Source', 'Referral')] } },
      { subject: ref('First contact'), operator: 'is_after', value: { type: 'date', date: { operator: 'minus', amount: '7' } } },
    ] });
    expect(ok.status).toBe(201);
    // Nested ids are minted, the root has none, the date value reads back normalized.
    expect(ok.body.automation.filter.id).toBeUndefined();
    expect(ok.body.automation.filter.rows[0].id).toEqual(expect.any(String));
    expect(ok.body.automation.filter.rows[1].value.date).toEqual({ base: { kind: 'variable', source: 'global', global_type: 'current_date' }, operator: 'minus', unit: 'day', amount: ['7'] });
    // Inside an action an empty group is fine (an always-true condition).
    const inAction = await call('POST', `/v1/automation/app/${leads.app_id}`, { name: 'c', actions: [{ type: 'conditional', config: { condition: { operator: 'and', rows: [] }, action_rows: [] } }] });
    expect(inAction.status).toBe(201);
    expect(inAction.body.automation.actions[0].group).toBe('control_flow');
  });

  it('updates partially, lists oldest-first with a scope-pinned cursor, deletes softly', async () => {
    const { call, create, leads } = twin();
    const ids: number[] = [];
    for (const name of ['a', 'b', 'c']) ids.push((await create({ name, description: 'first' })).id);
    const upd = await call('PUT', `/v1/automation/${ids[0]}`, { description: 'Notifies the owner of new leads.' });
    expect(upd.body.automation).toMatchObject({ name: 'a', description: 'Notifies the owner of new leads.', paused: true });
    expect((await call('PUT', `/v1/automation/${ids[0]}`, { description: null })).body.automation.description).toBeUndefined();
    expect((await call('PUT', `/v1/automation/${ids[0]}`, { name: null })).status).toBe(400);
    expect((await call('PUT', `/v1/automation/${ids[0]}`, { paused: false })).status).toBe(400);

    const p1 = await call('GET', `/v1/automation/app/${leads.app_id}?limit=2`);
    expect(p1.body.total).toBe(3);
    expect(p1.body.automations.map((a: any) => a.id)).toEqual(ids.slice(0, 2));
    const p2 = await call('GET', `/v1/automation/app/${leads.app_id}?limit=2&cursor=${p1.body.cursor}`);
    expect(p2.body.automations.map((a: any) => a.id)).toEqual([ids[2]]);
    expect(p2.body.cursor).toBeNull();
    const foreign = await call('GET', `/v1/automation/workspace/${leads.workspace_id}?cursor=${p1.body.cursor}`);
    expect(foreign.status).toBe(400);
    expect((await call('GET', `/v1/automation/app/${leads.app_id}?limit=101`)).status).toBe(400);
    expect((await call('GET', '/v1/automation/org')).body.total).toBe(3);
    expect((await call('GET', '/v1/automation/org', undefined, SANDBOX_KEYS.member)).body).toEqual({ total: 0, automations: [], cursor: null });

    const del = await call('DELETE', `/v1/automation/${ids[1]}`);
    expect(del.status).toBe(200);
    expect(del.body.automation.id).toBe(ids[1]);
    expect((await call('GET', `/v1/automation/${ids[1]}`)).status).toBe(404);
    expect((await call('GET', `/v1/automation/workspace/${leads.workspace_id}`)).body.total).toBe(2);

    const trig = await call('PUT', `/v1/automation/${ids[0]}/trigger`, { type: 'record_updated', config: {} });
    expect(trig.body.automation.trigger).toEqual({ type: 'record_updated', config: {} });
  });

  it('keeps a revision per change, newest first, with 64-bit string ids', async () => {
    const { call, create } = twin();
    const a = await create({ name: 'v1', description: 'kept out of revisions', trigger: { type: 'record_created', config: {} } });
    await call('PUT', `/v1/automation/${a.id}`, { name: 'v2' });
    await call('PUT', `/v1/automation/${a.id}/trigger`, { type: 'record_updated', config: { trigger_on_changes_field_ids: null } });
    const list = await call('GET', `/v1/automation/${a.id}/revision`);
    expect(list.body.revisions.map((r: any) => r.name)).toEqual(['v2', 'v2', 'v1']);
    expect(list.body.revisions[2]).toEqual({
      id: '90071992547409929',
      automation_id: a.id,
      created_at: expect.any(String),
      name: 'v1',
      paused: true,
      broken: false,
      trigger: { type: 'record_created', config: {} },
      filter: null,
      actions: [],
    });
    expect(list.body.revisions[0].id).toBe('90071992547409931'); // beyond 2^53: exact only as a string
    expect(list.body.cursor).toBeUndefined();
    const one = await call('GET', `/v1/automation/${a.id}/revision/90071992547409929`);
    expect(one.body.revision.name).toBe('v1');
    expect((await call('GET', `/v1/automation/${a.id}/revision/90071992547409928`)).status).toBe(404);
    expect((await call('GET', `/v1/automation/${a.id}/revision/abc`)).status).toBe(404);
  });

  it('validate reports broken reasons; activate refuses a broken definition with 409', async () => {
    const { call, create, ref } = twin();
    const a = await create({
      name: 'broken',
      trigger: { type: 'record_updated', config: { trigger_on_changes_field_ids: [] } },
      filter: { operator: 'and', rows: [{ subject: { ...ref('Name'), field_id: 424242 }, operator: 'is_not_empty' }] },
      actions: [{ id: 'off', type: 'record_create', deactivate: true, config: { app_id: 777777 } }],
    });
    expect(a.broken).toBe(false); // create never writes the verdict
    const v = await call('GET', `/v1/automation/${a.id}/validate`);
    expect(v.body.valid).toBe(false);
    expect(v.body.errors.map((e: any) => e.code)).toEqual(['trigger_updated_fields_empty', 'filter_variable_missing', 'action_app_missing']);
    expect(v.body.errors[1]).toMatchObject({ field_id: 424242, action_id: null });
    expect(v.body.errors[2]).toMatchObject({ action_id: 'off', app_id: 777777, deactivated: true });
    expect(v.body.errors[0].deactivated).toBeUndefined();
    const act = await call('POST', `/v1/automation/${a.id}/activate`);
    expect(act.status).toBe(409);
    expect((await call('GET', `/v1/automation/${a.id}`)).body.automation.paused).toBe(true);
    await call('PUT', `/v1/automation/${a.id}`, { trigger: { type: 'record_updated', config: {} }, filter: null });
    const ok = await call('GET', `/v1/automation/${a.id}/validate`);
    expect(ok.body.valid).toBe(true); // only the deactivated fault is left
    expect((await call('POST', `/v1/automation/${a.id}/activate`)).body.automation.paused).toBe(false);
    expect((await call('POST', `/v1/automation/${a.id}/activate`)).status).toBe(200); // idempotent
    expect((await call('POST', `/v1/automation/${a.id}/pause`)).body.automation.paused).toBe(true);
  });

  it('an unreadable (bricked) automation answers a server error until PUT {actions: []} heals it', async () => {
    const { t, call, create, leads } = twin();
    const a = await create({ name: 'old', actions: [email(['hi'])] });
    const b = await create({ name: 'fine' });
    brickAutomation(t.state, a.id);
    const got = await call('GET', `/v1/automation/${a.id}`);
    expect(got.status).toBe(500);
    expect(got.body).toMatchObject({ status_code: 500, endpoint: `/v1/automation/${a.id}`, error_code: 'internal_server_error' });
    expect(got.body.error_message).toContain('could not be serialized');
    expect((await call('GET', `/v1/automation/app/${leads.app_id}`)).status).toBe(500);
    // A page that stops before it is readable.
    expect((await call('GET', `/v1/automation/app/${leads.app_id}?limit=0`)).status).toBe(400);
    expect((await call('PUT', `/v1/automation/${a.id}`, { name: 'renamed' })).status).toBe(500);
    const healed = await call('PUT', `/v1/automation/${a.id}`, { actions: [] });
    expect(healed.status).toBe(200);
    expect(healed.body.automation).toMatchObject({ id: a.id, name: 'old', actions: [] });
    expect((await call('GET', `/v1/automation/app/${leads.app_id}`)).body.automations.map((x: any) => x.id)).toEqual([a.id, b.id]);
    t.automations.brick(b.id);
    expect((await call('GET', `/v1/automation/${b.id}`)).status).toBe(500);
    // The readable prefix of a page is still served with a smaller limit.
    const prefix = await call('GET', `/v1/automation/app/${leads.app_id}?limit=1`);
    expect(prefix.status).toBe(200);
    expect(prefix.body.automations.map((x: any) => x.id)).toEqual([a.id]);
    expect((await call('GET', `/v1/automation/app/${leads.app_id}?limit=1&cursor=${prefix.body.cursor}`)).status).toBe(500);
  });
});

describe('Tape twin: the action examples of the docs are accepted verbatim (docs/vendors/tape.md#automation-actions)', () => {
  const field = (field_id: number, field_type: string) => ({ kind: 'variable', source: 'field', field_id, field_type, previous: false, collection: false, triggering: false });
  const examples: Record<string, unknown>[] = [
    { type: 'current_record_update', config: { field_assignments: [{ field_type: 'single_text', variable_def: field(4021, 'single_text'), assignment_type: 'set', field_value: ['Processed by automation'] }], silent: true } },
    { type: 'record_create', config: { app_id: 4021, field_assignments: [], author_id: { kind: 'variable', source: 'meta', meta_type: 'created_by' }, silent: true } },
    { type: 'custom_code', config: { code: ["return { greeting: 'Hello ' + ", { kind: 'variable', source: 'meta', meta_type: 'app_record_id', app_id: 1234 }, ' };'], custom_variable_defs: [{ custom_type: 'any', label: 'result' }] } },
    { type: 'custom_variable', config: { assignment_code: ['({ total: ', { kind: 'variable', source: 'meta', meta_type: 'app_record_id', app_id: 1234 }, ' })'], custom_variable_defs: [{ custom_type: 'any', label: 'Total' }] } },
    { type: 'send_email', config: { to_address: ['someone@example.com'], subject: ['New record: ', { kind: 'variable', source: 'meta', meta_type: 'app_record_id' }], message_body: ['<p>A record was created.</p>'], smtp_account_id: 812 } },
    { type: 'http_call', config: { http_call_type: 'post', http_call_url: ['https://api.example.com/records/', { kind: 'variable', source: 'meta', meta_type: 'app_record_id' }], http_call_headers: [{ key: 'Content-Type', value: ['application/json'] }], http_call_body: ['{"status":"created"}'], http_call_follow_redirects: false } },
    { type: 'collect_app_records', config: { app_id: 4821, match_condition: { operator: 'and', rows: [{ subject: field(55012, 'single_text'), operator: 'is_not_empty' }] }, limit: 100, limit_enabled: true } },
    { type: 'for_loop', config: { iterable: { kind: 'variable', source: 'action', action_type: 'record_collection', app_id: 12345 }, action_rows: [{ type: 'send_email', config: { to_address: ['someone@example.com'], subject: ['Processing item'] } }] } },
    { type: 'conditional', config: { condition: { operator: 'and', rows: [{ subject: field(512, 'status'), operator: 'is_any_of', value: { type: 'ids', ids: [9001] } }] }, action_rows: [{ type: 'send_email', config: { to_address: ['owner@example.com'], subject: ['Still open'] } }], else_action_rows: [{ type: 'current_record_delete', config: {} }] } },
    { type: 'conditional', group: 'control_flow', config: { condition: { operator: 'and', rows: [{ id: 'cond-leaf', code: ['true'] }] }, action_rows: [{ id: 'then-1', type: 'custom_code', group: 'action', config: { code: ['const a = 1;'] } }] } },
    { type: 'http_call', group: 'action', config: { http_call_type: 'get', http_call_url: ['https://tapeapp.com/'] } },
  ];

  it('stores each example, minting ids, deriving group and defaulting reference flags', async () => {
    const { call, leads } = twin();
    for (const action of examples) {
      const res = await call('POST', `/v1/automation/app/${leads.app_id}`, { name: String(action.type), trigger: { type: 'record_created', config: {} }, actions: [action] });
      expect(res.status, `${String(action.type)}: ${JSON.stringify(res.body)}`).toBe(201);
      const stored = res.body.automation.actions[0];
      expect(stored).toMatchObject({ id: expect.any(String), type: action.type, group: ['conditional', 'for_loop'].includes(String(action.type)) ? 'control_flow' : 'action' });
    }
    const verbatim = await call('POST', `/v1/automation/app/${leads.app_id}`, { name: 'ids', actions: [examples[9]] });
    expect(verbatim.body.automation.actions[0].config.condition.rows[0].id).toBe('cond-leaf');
    expect(verbatim.body.automation.actions[0].config.action_rows[0].id).toBe('then-1');
    // Bare strings read back array-wrapped; a bare meta reference keeps no false flags.
    const bare = await call('POST', `/v1/automation/app/${leads.app_id}`, { name: 'bare', actions: [{ type: 'send_email', config: { to_address: 'a@b.c', subject: ['x'] } }] });
    expect(bare.body.automation.actions[0].config.to_address).toEqual(['a@b.c']);
    const meta = await call('POST', `/v1/automation/app/${leads.app_id}`, { name: 'meta', actions: [{ type: 'send_email', config: { to_address: ['a@b.c'], subject: [{ kind: 'variable', source: 'meta', meta_type: 'created_by', previous: false }] } }] });
    expect(meta.body.automation.actions[0].config.subject[0]).toEqual({ kind: 'variable', source: 'meta', meta_type: 'created_by' });
  });
});

describe('Tape twin: automations run for real (execution.md, automation-run.md)', () => {
  it('end to end: filter, update + email, simulate, activate, one run with its log, revisions and rollback', async () => {
    const { t, call, create, field, option, ref, createLead, runsOf, run } = twin();
    const referral = option('Source', 'Referral');
    const a = await create({ name: 'Tag referrals', trigger: { type: 'record_created', config: {} } });
    const put = await call('PUT', `/v1/automation/${a.id}`, {
      filter: { operator: 'and', rows: [{ subject: ref('Source'), operator: 'is_any_of', value: { type: 'ids', ids: [referral] } }] },
      actions: [
        { id: 'upd', type: 'current_record_update', config: { field_assignments: [{ field_type: 'single_text', variable_def: ref('Company'), assignment_type: 'set', field_value: ['Referred: ', ref('Name')] }] } },
        { id: 'mail', type: 'send_email', config: { to_address: ['owner@example.com'], subject: ['New referral: ', ref('Name'), ' (#', { kind: 'variable', source: 'meta', meta_type: 'app_record_id' }, ')'], message_body: ['<p>', ref('Name'), '</p>'] } },
      ],
    });
    expect(put.status).toBe(200);
    expect((await call('GET', `/v1/automation/${a.id}/validate`)).body).toEqual({ valid: true, errors: [] });

    // Simulate on a matching record: a simulation run, skipped steps, no side effects.
    const probe = await createLead({ [field('Name').external_id]: 'Probe Person', [field('Status').external_id]: 'New', [field('Source').external_id]: 'Referral' });
    const sim = await call('POST', `/v1/automation/${a.id}/simulate`, { record_id: probe });
    expect(sim.status).toBe(202);
    expect(sim.body).toEqual({ message: 'Use the automation-run API to poll the run. Based on queueing and limitations, this may be delayed.' });
    await t.automations.idle();
    const simRuns = await runsOf(a.id);
    expect(simRuns).toHaveLength(1);
    const simRun = await run(simRuns[0].id);
    expect(simRun).toMatchObject({ type: 'simulation', status: 'completed', triggered_on_record_id: probe, num_consumed_actions: 0 });
    expect(simRun.logs.map((l: any) => [l.type, l.status])).toEqual([['trigger', 'skipped'], ['filter', 'skipped'], ['action', 'skipped'], ['action', 'skipped']]);
    expect(simRun.logs[2].messages[0].message).toContain('Would update record');
    expect(simRun.logs[3].messages[0].message).toContain('Would send email to owner@example.com');
    expect(t.automations.outbox).toHaveLength(0);
    expect(t.state.records.get(probe)!.values.get(field('Company').field_id)).toBeUndefined();
    // Simulations are only in the per-automation listing.
    expect((await call('POST', '/v1/automation-run', {})).body.total).toBe(0);

    // Paused: nothing fires.
    await createLead({ [field('Name').external_id]: 'Paused Time', [field('Status').external_id]: 'New', [field('Source').external_id]: 'Referral' });
    await t.automations.idle();
    expect(await runsOf(a.id)).toHaveLength(1);

    expect((await call('POST', `/v1/automation/${a.id}/activate`)).body.automation.paused).toBe(false);
    const match = await createLead({ [field('Name').external_id]: 'Ada Lovelace', [field('Status').external_id]: 'New', [field('Source').external_id]: 'Referral' });
    await createLead({ [field('Name').external_id]: 'Bob Other', [field('Status').external_id]: 'New', [field('Source').external_id]: 'Website' });
    await t.automations.idle();

    const regular = (await call('POST', '/v1/automation-run', {})).body;
    expect(regular.total).toBe(1);
    const only = regular.automation_runs[0];
    expect(only).toMatchObject({ automation_id: a.id, automation_name: 'Tag referrals', app_name: 'Leads', status: 'completed', type: 'regular', triggered_on_record_id: match, num_consumed_actions: 2, failure_reason: null, error_message: null, triggered_by_automation_id: null });
    expect(only.id).toEqual(expect.any(String));
    expect(only.automation_revision_id).toEqual(expect.any(String));
    expect(only.logs).toBeUndefined();
    const detail = await run(only.id);
    expect(detail.logs.map((l: any) => l.id)).toEqual([`${only.id}-trigger`, `${only.id}-filter`, `${only.id}-action-upd-1`, `${only.id}-action-mail-1`]);
    expect(detail.logs.every((l: any) => l.status === 'success')).toBe(true);
    expect(detail.logs[3]).toMatchObject({ type: 'action', label: 'Send email', action_id: 'mail', record_id: match, messages: [{ message: 'Email sent to owner@example.com', level: 'success' }] });

    const record = await call('GET', `/v1/record/${match}`);
    expect(record.body.fields.find((f: any) => f.label === 'Company').values[0].value).toBe('Referred: Ada Lovelace');
    expect(t.automations.outbox).toHaveLength(1);
    expect(t.automations.outbox[0]).toMatchObject({ to: ['owner@example.com'], subject: expect.stringMatching(/^New referral: Ada Lovelace \(#\d+\)$/), body: '<p>Ada Lovelace</p>', record_id: match, run_id: only.id });

    // Update, list revisions, roll back to the definition before the update.
    await call('PUT', `/v1/automation/${a.id}`, { name: 'Tag referrals v2', actions: [] });
    const revs = (await call('GET', `/v1/automation/${a.id}/revision`)).body.revisions;
    expect(revs[0]).toMatchObject({ name: 'Tag referrals v2', actions: [] });
    const before = revs.find((r: any) => r.actions.length === 2 && r.paused === false);
    const rollback = await call('PUT', `/v1/automation/${a.id}`, { name: before.name, trigger: before.trigger, filter: before.filter, actions: before.actions });
    expect(rollback.status).toBe(200);
    expect(rollback.body.automation).toMatchObject({ name: 'Tag referrals', actions: before.actions, filter: before.filter });
    await createLead({ [field('Name').external_id]: 'Grace Hopper', [field('Status').external_id]: 'New', [field('Source').external_id]: 'Referral' });
    await t.automations.idle();
    expect(t.automations.outbox.map((m) => m.subject)).toContainEqual(expect.stringContaining('Grace Hopper'));
  });

  it('record_updated: null fires on any field, a list on those fields, [] never; workflow=false and its own writes do not re-trigger', async () => {
    const { t, call, create, field, ref, createLead, runsOf } = twin();
    const lead = await createLead({ [field('Name').external_id]: 'Watch Me', [field('Status').external_id]: 'New' });
    const any = await create({ name: 'any', trigger: { type: 'record_updated', config: { trigger_on_changes_field_ids: null } }, actions: [
      { type: 'current_record_update', config: { field_assignments: [{ field_type: 'number', variable_def: ref('Estimated value'), assignment_type: 'set_code', code: ['40 + 2'] }] } },
    ] });
    const onName = await create({ name: 'name only', trigger: { type: 'record_updated', config: { trigger_on_changes_field_ids: [field('Name').field_id] } } });
    const never = await create({ name: 'never', trigger: { type: 'record_updated', config: { trigger_on_changes_field_ids: [] } } });
    for (const a of [any, onName]) expect((await call('POST', `/v1/automation/${a.id}/activate`)).status).toBe(200);
    t.automations.store.get(never.id)!.paused = false; // live despite validating as broken
    await call('PUT', `/v1/record/${lead}`, { fields: { [field('Company').external_id]: 'Acme' } });
    await t.automations.idle();
    expect(await runsOf(any.id)).toHaveLength(1); // its own update of Estimated value did not start it again
    expect(await runsOf(onName.id)).toHaveLength(0);
    expect(await runsOf(never.id)).toHaveLength(0);
    expect(t.state.records.get(lead)!.values.get(field('Estimated value').field_id)![0]!.value).toBe(42);
    await call('PUT', `/v1/record/${lead}`, { fields: { [field('Name').external_id]: 'Renamed' } });
    await t.automations.idle();
    expect(await runsOf(onName.id)).toHaveLength(1);
    expect(await runsOf(any.id)).toHaveLength(2);
    await call('PUT', `/v1/record/${lead}?workflow=false`, { fields: { [field('Name').external_id]: 'Quiet' } });
    await t.automations.idle();
    expect(await runsOf(any.id)).toHaveLength(2);
  });

  it('record_deleted and comment triggers fire; a filter on the Status decides', async () => {
    const { t, call, create, createLead, field, ref, option, runsOf } = twin();
    const gone = await create({ name: 'gone', trigger: { type: 'record_deleted', config: {} }, filter: { operator: 'and', rows: [{ subject: ref('Status'), operator: 'is_incomplete' }] }, actions: [email(['Deleted ', ref('Name')])] });
    const said = await create({ name: 'said', trigger: { type: 'record_comment_or_reply_created', config: {} }, filter: { operator: 'or', rows: [{ subject: ref('Status'), operator: 'is_any_of', value: { type: 'ids', ids: [option('Status', 'Working')] } }] }, actions: [email(['Comment on ', ref('Name')])] });
    for (const a of [gone, said]) await call('POST', `/v1/automation/${a.id}/activate`);
    const open = await createLead({ [field('Name').external_id]: 'Open', [field('Status').external_id]: 'Working' });
    const done = await createLead({ [field('Name').external_id]: 'Done', [field('Status').external_id]: 'Converted' });
    await call('POST', `/v1/comment/record/${open}`, { value: 'hello' });
    await call('POST', `/v1/comment/record/${done}`, { value: 'hello' });
    await call('DELETE', `/v1/record/${open}`);
    await call('DELETE', `/v1/record/${done}`);
    await t.automations.idle();
    expect(t.automations.outbox.map((m) => m.subject).sort()).toEqual(['Comment on Open', 'Deleted Open']);
    expect(await runsOf(gone.id)).toHaveLength(1);
    expect(await runsOf(said.id)).toHaveLength(1);
    // A manual run of a comment automation needs a comment on the record: none, no run.
    const silent = await createLead({ [field('Name').external_id]: 'Silent', [field('Status').external_id]: 'Working' });
    expect((await call('POST', `/v1/automation/${said.id}/manual-run`, { record_id: silent })).status).toBe(202);
    await t.automations.idle();
    expect(await runsOf(said.id)).toHaveLength(1);
    await call('POST', `/v1/comment/record/${silent}`, { value: 'now there is one' });
    await t.automations.idle();
    expect(await runsOf(said.id)).toHaveLength(2);
    await call('POST', `/v1/automation/${said.id}/manual-run`, { record_id: silent });
    await t.automations.idle();
    expect((await runsOf(said.id))[0].type).toBe('manual');
  });

  it('custom code runs in a sandbox: no host access, a time limit and a memory limit', async () => {
    const { t, call, create, createLead, field, runsOf, run } = twin({ automations: { codeTimeoutMs: 200, codeMemoryBytes: 8 * 1024 * 1024 } });
    const probe = await create({ name: 'probe', trigger: { type: 'record_created', config: {} }, actions: [
      { id: 'code', type: 'custom_code', config: { custom_variable_defs: [{ custom_type: 'any', label: 'Globals' }], code: [
        '// What can the guest reach?\n',
        'var_globals = [typeof fetch, typeof require, typeof process, typeof setTimeout, typeof globalThis.XMLHttpRequest].join(",");\n',
        'console.log("name is", record.fields.name);\n',
        'return var_globals;',
      ] } },
      email(['Globals: ', { kind: 'variable', source: 'custom', custom_type: 'any', label: 'Globals' }]),
    ] });
    const spin = await create({ name: 'spin', trigger: { type: 'record_created', config: {} }, actions: [{ id: 'loop', type: 'custom_code', config: { code: ['while (true) {}'] } }, email(['never'])] });
    for (const a of [probe, spin]) await call('POST', `/v1/automation/${a.id}/activate`);
    await createLead({ [field('Name').external_id]: 'Sandbox', [field('Status').external_id]: 'New' });
    await t.automations.idle();

    expect(t.automations.outbox.map((m) => m.subject)).toEqual(['Globals: undefined,undefined,undefined,undefined,undefined']);
    const probeRun = await run((await runsOf(probe.id))[0].id);
    expect(probeRun.logs[2].messages).toEqual([{ message: 'name is Sandbox', level: 'info' }, { message: 'Code ran and returned "undefined,undefined,undefined,undefined,undefined".', level: 'success' }]);

    const spun = await run((await runsOf(spin.id))[0].id);
    expect(spun).toMatchObject({ status: 'failed', failure_reason: 'actions_timeout' });
    expect(spun.error_message).toContain('200 ms');
    expect(spun.logs.filter((l: any) => l.type === 'action').map((l: any) => [l.action_id, l.status])).toEqual([['loop', 'failure']]);

    // The memory limit, with time to spare so only memory can stop it.
    const m = twin({ automations: { codeTimeoutMs: 10_000, codeMemoryBytes: 4 * 1024 * 1024 } });
    const hog = await m.create({ name: 'hog', trigger: { type: 'record_created', config: {} }, actions: [{ id: 'hog', type: 'custom_code', config: { code: ['const a = [];\nfor (let i = 0; ; i++) a.push({ i, s: "y" + i });'] } }] });
    await m.call('POST', `/v1/automation/${hog.id}/activate`);
    await m.createLead({ [m.field('Name').external_id]: 'Hog', [m.field('Status').external_id]: 'New' });
    await m.t.automations.idle();
    const hogged = await m.run((await m.runsOf(hog.id))[0].id);
    expect(hogged).toMatchObject({ status: 'failed', failure_reason: 'actions_resource_limit_exceeded' });
    expect(hogged.error_message).toContain('memory');
  }, 20_000);

  it('http_call reaches allowed hosts only; others fail the action with a clear log line', async () => {
    const sent: string[] = [];
    const fetchStub = (async (input: Parameters<typeof fetch>[0]) => {
      sent.push(String(input));
      return new Response(JSON.stringify({ ok: true, id: 7 }), { status: 200, headers: { 'content-type': 'application/json' } });
    }) as typeof fetch;
    const { t, call, create, createLead, field, ref, runsOf, run } = twin({ automations: { httpHosts: ['api.example.com'], fetch: fetchStub } });
    const allowed = await create({ name: 'allowed', trigger: { type: 'record_created', config: {} }, actions: [
      { id: 'call', type: 'http_call', config: { http_call_type: 'post', http_call_url: ['https://api.example.com/records/', ref('Name')], http_call_body: '{"a":1}', custom_variable_defs: [{ custom_type: 'any', label: 'Response' }] } },
      { id: 'use', type: 'custom_variable', config: { custom_variable_defs: [{ custom_type: 'any', label: 'Remote id' }], assignment_code: [{ kind: 'variable', source: 'custom', custom_type: 'any', label: 'Response' }, '.body.id'] } },
      email(['Remote ', { kind: 'variable', source: 'custom', custom_type: 'any', label: 'Remote id' }]),
    ] });
    const refused = await create({ name: 'refused', trigger: { type: 'record_created', config: {} }, actions: [
      { id: 'evil', type: 'http_call', config: { http_call_type: 'get', http_call_url: ['https://evil.example.org/steal'] } },
      email(['not sent']),
    ] });
    const lenient = await create({ name: 'lenient', trigger: { type: 'record_created', config: {} }, actions: [
      { id: 'try', type: 'http_call', continue_on_error: true, config: { http_call_type: 'get', http_call_url: ['http://169.254.169.254/latest/meta-data'] } },
      email(['Carried on after: ', { kind: 'variable', source: 'global', global_type: 'most_recent_error' }]),
    ] });
    for (const a of [allowed, refused, lenient]) await call('POST', `/v1/automation/${a.id}/activate`);
    await createLead({ [field('Name').external_id]: 'Net', [field('Status').external_id]: 'New' });
    await t.automations.idle();
    expect(sent).toEqual(['https://api.example.com/records/Net']);
    expect(t.automations.outbox.map((m) => m.subject).sort()).toEqual(['Carried on after: HTTP request refused: host 169.254.169.254 is not an allowed host for automation HTTP requests (allowed: api.example.com).', 'Remote 7']);
    expect((await run((await runsOf(lenient.id))[0].id)).status).toBe('completed');
    const bad = await run((await runsOf(refused.id))[0].id);
    expect(bad).toMatchObject({ status: 'failed', failure_reason: 'actions_failed' });
    const step = bad.logs.find((l: any) => l.action_id === 'evil');
    expect(step.status).toBe('failure');
    expect(step.messages[0].message).toContain('host evil.example.org is not an allowed host');
    expect(t.automations.httpCalls.map((h) => [h.url, h.allowed]).sort()).toEqual([['http://169.254.169.254/latest/meta-data', false], ['https://api.example.com/records/Net', true], ['https://evil.example.org/steal', false]]);
  });

  it('webhook_received: a stable webhook_url starts the automation with the posted body', async () => {
    const { t, call, create, runsOf, run } = twin();
    const a = await create({ name: 'hook', trigger: { type: 'webhook_received', config: {} }, actions: [
      email(['Order ', { kind: 'variable', source: 'trigger', trigger_type: 'webhook_payload_property', key_path: 'order.id', data_type: 'number' }]),
    ] });
    const url = a.trigger.config.webhook_url as string;
    expect(url).toMatch(/^https:\/\/api\.tapeapp\.com\/webhook\/automation\/[0-9a-f-]{36}$/);
    // The URL survives trigger replacement and does not enter revisions.
    const again = await call('PUT', `/v1/automation/${a.id}/trigger`, { type: 'webhook_received', config: {} });
    expect(again.body.automation.trigger.config.webhook_url).toBe(url);
    expect((await call('GET', `/v1/automation/${a.id}/revision`)).body.revisions[0].trigger).toEqual({ type: 'webhook_received', config: {} });
    // Paused: received, not run.
    expect((await t.fetch(url, { method: 'POST', body: JSON.stringify({ order: { id: 1 } }) })).status).toBe(202);
    await call('POST', `/v1/automation/${a.id}/activate`);
    await t.fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ order: { id: 99 } }) });
    await t.automations.idle();
    expect(t.automations.outbox.map((m) => m.subject)).toEqual(['Order 99']);
    const runs = await runsOf(a.id);
    expect(runs).toHaveLength(1);
    expect((await run(runs[0].id)).triggered_on_record_id).toBeNull();
    // Manual runs take the webhook body or the last one received.
    expect((await call('POST', `/v1/automation/${a.id}/manual-run`, { record_id: 1 })).status).toBe(400);
    await call('POST', `/v1/automation/${a.id}/manual-run`, { use_last_received_webhook_payload: true });
    await call('POST', `/v1/automation/${a.id}/manual-run`, { webhook_payload: { order: { id: 5 } } });
    await t.automations.idle();
    expect(t.automations.outbox.map((m) => m.subject)).toEqual(['Order 99', 'Order 99', 'Order 5']);
    expect((await t.fetch('https://api.tapeapp.com/webhook/automation/nope', { method: 'POST' })).status).toBe(404);
  });

  it('automation_called: the call endpoint passes arguments by internal variable name; paused targets produce no run', async () => {
    const { t, call, create, createLead, field, runsOf, run } = twin();
    const lead = await createLead({ [field('Name').external_id]: 'Callee', [field('Status').external_id]: 'New' });
    const a = await create({ name: 'called', trigger: { type: 'automation_called', config: { custom_variable_defs_enabled: true, custom_variable_defs: [{ custom_type: 'any', label: 'My Note' }] } }, actions: [
      email(['Note: ', { kind: 'variable', source: 'custom', custom_type: 'any', label: 'My Note' }]),
    ] });
    const body = { trigger_on_record_id: lead, trigger_with_arguments: { var_my_note: 'hello' } };
    expect((await call('POST', `/v1/automation/${a.id}/trigger`, body)).status).toBe(202);
    await t.automations.idle();
    expect(await runsOf(a.id)).toHaveLength(0); // paused
    await call('POST', `/v1/automation/${a.id}/activate`);
    const accepted = await call('POST', `/v1/automation/${a.id}/trigger`, body, SANDBOX_KEYS.automation);
    expect(accepted).toMatchObject({ status: 202, body: {} });
    await t.automations.idle();
    expect(t.automations.outbox.map((m) => m.subject)).toEqual(['Note: hello']);
    expect((await run((await runsOf(a.id))[0].id)).triggered_on_record_id).toBe(lead);
    expect((await call('POST', `/v1/workflow/${a.id}/trigger`, { ...body, trigger_with_arguments: { var_my_note: 'via alias' } })).status).toBe(202);
    await t.automations.idle();
    expect(t.automations.outbox.map((m) => m.subject)).toEqual(['Note: hello', 'Note: via alias']);
    expect((await call('POST', `/v1/automation/${a.id}/trigger`, {})).status).toBe(400);
    expect((await call('POST', '/v1/automation/999999/trigger', body)).status).toBe(400);

    // A current_record_call_automation action reaches it too.
    const caller = await create({ name: 'caller', trigger: { type: 'record_created', config: {} }, actions: [
      { type: 'current_record_call_automation', config: { automation_id: a.id, call_arguments: [{ variable_def: { custom_type: 'any', label: 'My Note' }, assignment_type: 'set', value: ['from ', { kind: 'variable', source: 'field', field_id: field('Name').field_id, field_type: 'single_text' }] }] } },
    ] });
    expect((await call('GET', `/v1/automation/${caller.id}/validate`)).body.valid).toBe(true);
    await call('POST', `/v1/automation/${caller.id}/activate`);
    await createLead({ [field('Name').external_id]: 'Chained', [field('Status').external_id]: 'New' });
    await t.automations.idle();
    expect(t.automations.outbox.map((m) => m.subject)).toContain('Note: from Chained');
    const called = (await runsOf(a.id))[0];
    expect(called.triggered_by_automation_id).toBe(caller.id);
  });

  it('collect_app_records, for_loop, conditional, record_create and custom_variable work together', async () => {
    const { t, call, create, createLead, field, ref, option, runsOf, run, leads } = twin();
    const deals = t.state.apps.get(902)!;
    const dealName = deals.fields.find((f) => f.label === 'Deal name')!;
    const a = await create({ name: 'roll', trigger: { type: 'record_created', config: {} }, actions: [
      { id: 'collect', type: 'collect_app_records', config: { app_id: leads.app_id, match_condition: { operator: 'and', rows: [{ subject: ref('Name'), operator: 'starts_with', value: { type: 'text', text: ['Loop '] } }] } } },
      { id: 'count', type: 'custom_variable', config: { custom_variable_defs: [{ custom_type: 'any', label: 'Count' }], assignment_code: ['0'] } },
      { id: 'each', type: 'for_loop', config: {
        iterable: { kind: 'variable', source: 'action', action_type: 'record_collection', app_id: leads.app_id },
        continue_condition: { operator: 'and', rows: [{ subject: { ...ref('Source'), collection: true }, operator: 'is_any_of', value: { type: 'ids', ids: [option('Source', 'Event')] } }] },
        action_rows: [
          { id: 'inc', type: 'custom_code', config: { code: ['var_count = var_count + 1;'] } },
          { id: 'mk', type: 'record_create', config: { app_id: deals.app_id, trigger_other_flows: false, field_assignments: [{ field_type: 'single_text', variable_def: { kind: 'variable', source: 'field', field_id: dealName.field_id, field_type: 'single_text' }, assignment_type: 'set', field_value: ['Deal for ', { ...ref('Name'), collection: true }] }] } },
        ],
      } },
      { id: 'if', type: 'conditional', config: {
        condition: { operator: 'and', rows: [{ code: [{ kind: 'variable', source: 'custom', custom_type: 'any', label: 'Count' }, ' >= 2'] }] },
        action_rows: [email(['Made ', { kind: 'variable', source: 'custom', custom_type: 'any', label: 'Count' }, ' deals'])],
        else_action_rows: [email(['Too few'])],
      } },
    ] });
    const dealStage = deals.fields.find((f) => f.label === 'Stage')!;
    await createLead({ [field('Name').external_id]: 'Loop A', [field('Status').external_id]: 'New', [field('Source').external_id]: 'Website' });
    await createLead({ [field('Name').external_id]: 'Loop B', [field('Status').external_id]: 'New', [field('Source').external_id]: 'Event' });
    const third = await createLead({ [field('Name').external_id]: 'Loop C', [field('Status').external_id]: 'New' });
    // The Deals app requires a Stage: record_create fails, visibly, unless it is given.
    expect((await call('POST', `/v1/automation/${a.id}/manual-run`, { record_id: third })).status).toBe(202);
    await t.automations.idle();
    const failed = await run((await runsOf(a.id))[0].id);
    expect(failed).toMatchObject({ type: 'manual', status: 'failed', failure_reason: 'actions_failed' });
    expect(failed.logs[0].status).toBe('skipped');
    expect(failed.logs.find((l: any) => l.action_id === 'mk').messages[0].level).toBe('error');

    const actions = (await call('GET', `/v1/automation/${a.id}`)).body.automation.actions;
    actions[2].config.action_rows[1].config.field_assignments.push({ field_type: 'status', variable_def: { kind: 'variable', source: 'field', field_id: dealStage.field_id, field_type: 'status' }, assignment_type: 'set', field_value: ['Discovery'] });
    expect((await call('PUT', `/v1/automation/${a.id}`, { actions })).status).toBe(200);
    const dealsBefore = [...t.state.records.values()].filter((r) => r.app_id === deals.app_id).length;
    await call('POST', `/v1/automation/${a.id}/manual-run`, { record_id: third });
    await t.automations.idle();
    const ok = await run((await runsOf(a.id))[0].id);
    expect(ok.status).toBe('completed');
    expect(ok.logs.filter((l: any) => l.action_id === 'mk').map((l: any) => l.id)).toEqual([`${ok.id}-action-mk-1`, `${ok.id}-action-mk-2`]);
    const made = [...t.state.records.values()].filter((r) => r.app_id === deals.app_id).slice(dealsBefore).map((r) => r.title);
    expect(made.sort()).toEqual(['Deal for Loop A', 'Deal for Loop C']);
    expect(t.automations.outbox.map((m) => m.subject)).toEqual(['Made 2 deals']);
  });

  it('sort_record_collection, rollup_iterable_values and collected_records_comment_create', async () => {
    const { t, call, create, createLead, field, ref, runsOf, run, leads } = twin();
    const val = (n: number) => ({ [field('Estimated value').external_id]: n });
    const ids: number[] = [];
    for (const [name, n] of [['Roll B', 200], ['Roll A', 100], ['Roll C', 600]] as const) ids.push(await createLead({ [field('Name').external_id]: name, [field('Status').external_id]: 'New', ...val(n) }));
    const collectionRef = { kind: 'variable', source: 'action', action_type: 'record_collection', app_id: leads.app_id };
    const a = await create({ name: 'roll', trigger: { type: 'record_created', config: {} }, actions: [
      { type: 'collect_app_records', config: { app_id: leads.app_id, match_condition: { operator: 'and', rows: [{ subject: ref('Name'), operator: 'starts_with', value: { type: 'text', text: ['Roll '] } }] } } },
      { type: 'sort_record_collection', config: { record_collection: collectionRef, sorts: [{ variable_def: { ...ref('Name'), collection: true }, direction: 'desc' }] } },
      { type: 'rollup_iterable_values', config: { rollup_type: 'sum', rollup_variable_def: { ...ref('Estimated value'), collection: true }, custom_variable_def: { custom_type: 'any', label: 'Total' } } },
      { type: 'rollup_iterable_values', config: { rollup_type: 'median', rollup_variable_def: { ...ref('Estimated value'), collection: true } } },
      { type: 'collected_records_comment_create', config: { record_collection: collectionRef, comment_content: ['Part of ', { kind: 'variable', source: 'custom', custom_type: 'any', label: 'Total' }] } },
      email([{ kind: 'variable', source: 'action', action_type: 'record_collection', app_id: leads.app_id }, ' = ', { kind: 'variable', source: 'custom', custom_type: 'any', label: 'Total' }, ' / ', { kind: 'variable', source: 'custom', custom_type: 'any', label: 'Rollup' }]),
    ] });
    expect((await call('GET', `/v1/automation/${a.id}/validate`)).body).toEqual({ valid: true, errors: [] });
    await call('POST', `/v1/automation/${a.id}/manual-run`, { record_id: ids[0] });
    await t.automations.idle();
    const done = await run((await runsOf(a.id))[0].id);
    expect(done.status, JSON.stringify(done.logs)).toBe('completed');
    expect(t.automations.outbox.map((m) => m.subject)).toEqual(['Roll C, Roll B, Roll A = 900 / 200']);
    const comments = await call('GET', `/v1/comment/record/${ids[1]}`);
    expect(JSON.stringify(comments.body)).toContain('Part of 900');
  });

  it('manual-run and simulate: trigger-aware body, 404 for a foreign record, 409 when broken', async () => {
    const { t, call, create, createLead, field } = twin();
    const lead = await createLead({ [field('Name').external_id]: 'M', [field('Status').external_id]: 'New' });
    const a = await create({ name: 'm', trigger: { type: 'record_created', config: {} } });
    expect((await call('POST', `/v1/automation/${a.id}/manual-run`, {})).status).toBe(400);
    expect((await call('POST', `/v1/automation/${a.id}/manual-run`, { record_id: 424242 })).status).toBe(404);
    const dealRecord = [...t.state.records.values()].find((r) => r.app_id === 902)!.record_id;
    expect((await call('POST', `/v1/automation/${a.id}/simulate`, { record_id: dealRecord })).status).toBe(404);
    expect((await call('POST', `/v1/automation/${a.id}/manual-run`, { record_id: lead })).status).toBe(202);
    const none = await create({ name: 'n' });
    expect((await call('POST', `/v1/automation/${none.id}/manual-run`, { record_id: lead })).status).toBe(400);
    expect((await call('POST', `/v1/automation/${none.id}/manual-run`, {})).status).toBe(202);
    await call('PUT', `/v1/automation/${a.id}/trigger`, { type: 'record_updated', config: { trigger_on_changes_field_ids: [] } });
    expect((await call('POST', `/v1/automation/${a.id}/manual-run`, { record_id: lead })).status).toBe(409);
    await t.automations.idle();
  });

  it('run listings: filters, cursor rules, scopes, retrieval and the usage report', async () => {
    const { t, call, create, createLead, field, leads } = twin();
    const a = await create({ name: 'r', trigger: { type: 'record_created', config: {} }, actions: [email(['x'])] });
    await call('POST', `/v1/automation/${a.id}/activate`);
    for (const n of ['1', '2', '3']) await createLead({ [field('Name').external_id]: `Run ${n}`, [field('Status').external_id]: 'New' });
    await t.automations.idle();
    const first = await call('POST', '/v1/automation-run', { status: ['completed'], limit: 2 });
    expect(first.body.total).toBe(3);
    expect(first.body.automation_runs).toHaveLength(2);
    expect(Number(first.body.automation_runs[0].id)).toBeGreaterThan(Number(first.body.automation_runs[1].id));
    const next = await call('POST', '/v1/automation-run', { cursor: first.body.cursor });
    expect(next.body).toMatchObject({ total: 3, cursor: null });
    expect(next.body.automation_runs).toHaveLength(1);
    const both = await call('POST', '/v1/automation-run', { cursor: first.body.cursor, status: ['failed'] });
    expect(both.status).toBe(400);
    expect(both.body).toMatchObject({ status_code: 400, endpoint: '/v1/automation-run', error_code: 'input_validation' });
    expect((await call('POST', '/v1/automation-run', { status: ['done'] })).status).toBe(400);
    expect((await call('POST', '/v1/automation-run', { limit: 501 })).status).toBe(400);
    expect((await call('POST', '/v1/automation-run', { created_at_from: '2024-01-18T00:00:00Z' })).status).toBe(400);
    const order = await call('POST', '/v1/automation-run', { created_at_from: '2024-01-19 00:00:00', created_at_to: '2024-01-18 23:59:59' });
    expect(order.body).toEqual({ status_code: 400, endpoint: '/v1/automation-run', error_code: 'validation', error_message: '"created_at_from" must be before or equal to "created_at_to".' });
    expect((await call('POST', '/v1/automation-run', { status: ['failed'] })).body.total).toBe(0);
    expect((await call('POST', '/v1/automation-run', { automation_ids: [999999] })).body).toEqual({ total: 0, automation_runs: [], cursor: null });
    expect((await call('POST', '/v1/automation-run', { app_ids: [999999] })).status).toBe(404);
    expect((await call('POST', `/v1/automation-run/app/${leads.app_id}`, { limit: 2 })).body.automation_runs).toHaveLength(2);
    expect((await call('POST', `/v1/automation-run/app/${leads.app_id}`, { status: ['completed'] })).status).toBe(400);
    expect((await call('POST', `/v1/automation-run/workspace/${leads.workspace_id}`, {})).body.total).toBe(3);
    expect((await call('POST', '/v1/automation-run/workspace/1', {})).body.total).toBe(0);
    expect((await call('GET', '/v1/automation-run/123456789')).status).toBe(404);
    expect((await call('GET', '/v1/automation-run/abc')).status).toBe(400);
    expect((await call('GET', `/v1/automation-run/${first.body.automation_runs[0].id}`, undefined, SANDBOX_KEYS.automation)).status).toBe(401);

    const report = await call('GET', '/v1/automation-usage-report?limit=30&interval_resolution=daily');
    expect(report.body.organization_id).toBe(1337);
    expect(report.body.usage_reports).toEqual([{ organization_id: 1337, from: expect.any(String), to: expect.any(String), num_consumed_actions: 3, num_succeeded_runs: 3, num_failed_runs: 0, num_cancelled_runs: 0 }]);
    expect((await call('GET', '/v1/automation-usage-report?limit=0&interval_resolution=weekly')).body.usage_reports).toEqual([]);
    const tooMany = await call('GET', '/v1/automation-usage-report?limit=250&interval_resolution=daily');
    expect(tooMany.body).toEqual({ status_code: 400, endpoint: '/v1/automation-usage-report', error_code: 'validation', error_message: 'Query param "limit" must be between 0 and 100, got 250.' });
    expect((await call('GET', '/v1/automation-usage-report?limit=3&interval_resolution=minutely')).status).toBe(400);

    // Runs of a deleted automation are gone from every listing.
    await call('DELETE', `/v1/automation/${a.id}`);
    expect((await call('POST', '/v1/automation-run', {})).body.total).toBe(0);
  });

  it('weblink generate answers 201 with a token and URL for a weblink_clicked automation', async () => {
    const { t, call, create, createLead, field } = twin();
    const lead = await createLead({ [field('Name').external_id]: 'W', [field('Status').external_id]: 'New' });
    const a = await create({ name: 'w', trigger: { type: 'weblink_clicked', config: {} } });
    const res = await call('POST', '/v1/automation/weblink/generate', { trigger_workflow_def_id: a.id, trigger_on_record_id: lead, expiration_type: 'ONE_WEEK' });
    expect(res.status).toBe(201);
    expect(res.body.trigger_client_url).toBe(`https://weblink.tapeapp.com/trigger/${res.body.trigger_token}`);
    // A click runs it on the record (once live), with the weblink's arguments.
    const clickAction = [email(['Clicked ', { kind: 'variable', source: 'custom', custom_type: 'any', label: 'Who' }])];
    await call('PUT', `/v1/automation/${a.id}`, { actions: clickAction });
    // An undeclared custom variable dangles: validate says so and activation is refused.
    expect((await call('GET', `/v1/automation/${a.id}/validate`)).body.errors.map((e: any) => e.code)).toEqual(['action_variable_missing']);
    expect((await call('POST', `/v1/automation/${a.id}/activate`)).status).toBe(409);
    await call('PUT', `/v1/automation/${a.id}/trigger`, { type: 'weblink_clicked', config: { custom_variable_defs_enabled: true, custom_variable_defs: [{ custom_type: 'any', label: 'Who' }] } });
    const withArgs = await call('POST', '/v1/automation/weblink/generate', { trigger_workflow_def_id: a.id, trigger_on_record_id: lead, trigger_with_arguments: { var_who: 'Dana' } });
    expect((await call('POST', `/v1/automation/${a.id}/activate`)).status).toBe(200);
    expect((await t.fetch(withArgs.body.trigger_client_url)).status).toBe(200);
    await t.automations.idle();
    expect(t.automations.outbox.map((m) => m.subject)).toEqual(['Clicked Dana']);
    const other = await create({ name: 'o', trigger: { type: 'record_created', config: {} } });
    expect((await call('POST', '/v1/automation/weblink/generate', { trigger_workflow_def_id: other.id, trigger_on_record_id: lead })).status).toBe(400);
  });
});
