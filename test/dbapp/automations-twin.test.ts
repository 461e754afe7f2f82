/**
 * Automation tools end to end against the Tape twin's automation engine, through HTTP only
 * (the one exception: brickAutomation, the twin's test hook that makes a stored definition
 * unreadable, as no API call can).
 */
import { describe, expect, it } from 'vitest';
import { harness, SANDBOX_KEYS } from '../helpers/harness';

const json = { query: 'format=json' };
type H = Awaited<ReturnType<typeof harness>>;


async function call(h: H, tool: string, params: unknown) {
  const r = await h.call(`dbapp/${tool}`, params, json);
  if (r.status !== 200) throw new Error(`${tool} ${JSON.stringify(params).slice(0, 200)} → ${r.status} ${JSON.stringify(r.body.error)}`);
  return r.body.data;
}

/** Runs are queued: wait for the twin's automation engine to go idle (an event, not a timer), then read and check. */
async function settled<T>(h: H, read: () => Promise<T>, holds: (v: T) => boolean): Promise<T> {
  await h.tape.automations.idle();
  const v = await read();
  expect(holds(v)).toBe(true);
  return v;
}

function leads(h: H) {
  const app = [...h.tape.state.apps.values()].find((a) => a.name === 'Leads')!;
  const field = (label: string) => app.fields.find((f) => f.config.label === label)!.field_id;
  return { appId: app.app_id, field };
}

const subject = (field_id: number, field_type: string) => ({ kind: 'variable', source: 'field', field_id, field_type });

describe('automations against the twin', () => {
  it('end to end: catalog, create with a filter and two actions, validate, simulate, activate, one run on the matching record, update, revisions, roll back', async () => {
    const h = await harness();
    const { appId, field } = leads(h);

    // Discover the vocabulary.
    const catalog = await call(h, 'getAutomationCatalog', {});
    expect(catalog.triggers.map((t: { type: string }) => t.type)).toContain('record_created');
    expect(catalog.actions.map((a: { type: string }) => a.type)).toEqual(expect.arrayContaining(['current_record_update', 'send_email', 'conditional', 'for_loop']));
    const ops = await call(h, 'getAutomationCatalog', { field_type: 'number' });
    expect(ops.filter_operators.map((o: { operator: string }) => o.operator)).toContain('greater_or_equal_than');

    // Create: big leads get a note and an email.
    const value = field('Estimated value');
    const notes = field('Notes');
    const definition = {
      trigger: { type: 'record_created', config: {} },
      filter: { operator: 'and', rows: [{ subject: subject(value, 'number'), operator: 'greater_or_equal_than', value: { type: 'number', number: ['1000'] } }] },
      actions: [
        {
          type: 'current_record_update',
          config: { field_assignments: [{ field_type: 'multi_text', variable_def: subject(notes, 'multi_text'), assignment_type: 'set', field_value: ['Big lead: call within a day'] }] },
        },
        { type: 'send_email', config: { to_address: ['sales@example.com'], subject: ['New big lead'], message_body: ['<p>A big lead came in.</p>'] } },
      ],
    };
    const created = await call(h, 'createAutomation', { app_id: appId, name: 'Flag big leads', description: 'Notes and mails big leads.', ...definition });
    expect(created.automation).toMatchObject({ paused: true, broken: false, trigger_type: 'record_created', has_filter: true, action_types: ['current_record_update', 'send_email'], action_count: 2 });
    const id = created.automation.id as number;

    expect(await call(h, 'validateAutomation', { automation_id: id })).toMatchObject({ valid: true, errors: [] });

    // Simulate on an existing big lead: a simulation run, nothing written.
    const big = await call(h, 'createRecord', { app_id: appId, fields: { [field('Name')]: 'Existing Big', [field('Status')]: ['New'], [value]: 2000 } });
    const before = await call(h, 'getRecord', { record_id: big.record_id });
    await call(h, 'simulateAutomation', { automation_id: id, record_id: big.record_id });
    const simulated = await settled(
      h,
      () => call(h, 'listAutomationRuns', { automation_id: id }),
      (r) => r.runs.some((run: { type: string; status: string }) => run.type === 'simulation' && ['completed', 'failed'].includes(run.status)),
    );
    expect(simulated.runs.filter((r: { type: string }) => r.type === 'simulation')).toHaveLength(1);
    expect(await call(h, 'getRecord', { record_id: big.record_id })).toEqual(before);

    expect((await call(h, 'activateAutomation', { automation_id: id })).automation.paused).toBe(false);

    // One matching and one non-matching record.
    const match = await call(h, 'createRecord', { app_id: appId, fields: { [field('Name')]: 'Big Co', [field('Status')]: ['New'], [value]: 5000 } });
    const small = await call(h, 'createRecord', { app_id: appId, fields: { [field('Name')]: 'Small Co', [field('Status')]: ['New'], [value]: 10 } });
    const runs = await settled(
      h,
      () => call(h, 'listAutomationRuns', { automation_id: id }),
      (r) => r.runs.some((run: { type: string; status: string }) => run.type === 'regular' && ['completed', 'failed'].includes(run.status)),
    );
    const regular = runs.runs.filter((r: { type: string }) => r.type !== 'simulation');
    expect(regular).toHaveLength(1);
    expect(regular[0]).toMatchObject({ automation_id: id, status: 'completed', triggered_on_record_id: match.record_id });
    const run = await settled(
      h,
      () => call(h, 'getAutomationRun', { run_id: regular[0].id }),
      (r) => r.logs.some((l: { type: string }) => l.type === 'action'),
    );
    expect(run.logs.map((l: { type: string }) => l.type)).toEqual(expect.arrayContaining(['trigger', 'filter', 'action']));
    expect(run.logs.filter((l: { type: string; status: string }) => l.type === 'action').every((l: { status: string }) => l.status === 'success')).toBe(true);
    const updated = await h.call('dbapp/getRecord', { record_id: match.record_id });
    expect(updated.body.data).toContain('Big lead: call within a day');
    const untouched = await h.call('dbapp/getRecord', { record_id: small.record_id });
    expect(untouched.body.data).not.toContain('Big lead');
    // Through the organization-wide history too, without simulation runs.
    const org = await call(h, 'listAutomationRuns', {});
    expect(org.runs.filter((r: { automation_id: number }) => r.automation_id === id)).toHaveLength(1);

    // Update, then roll back to the first revision.
    await call(h, 'updateAutomation', { automation_id: id, name: 'Flag big leads (mail only)', actions: [definition.actions[1]] });
    const revisions = await call(h, 'getAutomationRevisions', { automation_id: id });
    expect(revisions.count).toBeGreaterThanOrEqual(2);
    expect(revisions.revisions[0].name).toBe('Flag big leads (mail only)');
    const first = revisions.revisions.at(-1);
    expect(typeof first.id).toBe('string');
    const snapshot = await call(h, 'getAutomationRevisions', { automation_id: id, revision_id: first.id });
    expect(snapshot.actions.map((a: { type: string }) => a.type)).toEqual(['current_record_update', 'send_email']);
    await call(h, 'updateAutomation', { automation_id: id, name: snapshot.name, trigger: snapshot.trigger, filter: snapshot.filter, actions: snapshot.actions });
    const back = await call(h, 'getAutomation', { automation_id: id, verbose: true });
    expect(back).toMatchObject({ name: 'Flag big leads', description: 'Notes and mails big leads.', paused: false, trigger: snapshot.trigger, filter: snapshot.filter });
    expect(back.actions).toEqual(snapshot.actions);
    expect((await call(h, 'getAutomationRevisions', { automation_id: id })).count).toBe(revisions.count + 1);
  });

  it('runs by hand, calls with arguments and mints a weblink; each run shows up in the run history', async () => {
    const h = await harness();
    const { appId, field } = leads(h);
    const rec = await call(h, 'createRecord', { app_id: appId, fields: { [field('Name')]: 'Callee', [field('Status')]: ['New'] } });
    const notes = field('Notes');
    const setNotes = (value: unknown[]) => ({
      type: 'current_record_update',
      config: { field_assignments: [{ field_type: 'multi_text', variable_def: subject(notes, 'multi_text'), assignment_type: 'set', field_value: value }] },
    });
    // A manual run works while paused.
    const manual = (await call(h, 'createAutomation', { app_id: appId, name: 'Stamp', trigger: { type: 'record_created', config: {} }, actions: [setNotes(['stamped'])] })).automation;
    expect(await call(h, 'runAutomation', { automation_id: manual.id, record_id: rec.record_id })).toMatchObject({ accepted: true, record_id: rec.record_id });
    const manualRuns = await settled(h, () => call(h, 'listAutomationRuns', { automation_id: manual.id }), (r) => r.runs.some((x: { status: string }) => x.status === 'completed'));
    expect(manualRuns.runs).toMatchObject([{ type: 'manual', status: 'completed', triggered_on_record_id: rec.record_id }]);
    // A call passes arguments by label; it runs only once the callee is live.
    const callee = (
      await call(h, 'createAutomation', {
        app_id: appId,
        name: 'Callee',
        trigger: { type: 'automation_called', config: { custom_variable_defs_enabled: true, custom_variable_defs: [{ custom_type: 'any', label: 'Note' }] } },
        actions: [setNotes(['note: ', { kind: 'variable', source: 'custom', custom_type: 'any', label: 'Note' }])],
      })
    ).automation;
    await call(h, 'activateAutomation', { automation_id: callee.id });
    expect(await call(h, 'callAutomation', { automation_id: callee.id, record_id: rec.record_id, arguments: { Note: 'call back' } })).toMatchObject({ arguments: { var_note: 'call back' } });
    const called = await settled(h, () => call(h, 'listAutomationRuns', { automation_id: callee.id }), (r) => r.runs.some((x: { status: string }) => x.status === 'completed'));
    expect(called.runs).toHaveLength(1);
    expect((await h.call('dbapp/getRecord', { record_id: rec.record_id })).body.data).toContain('note: call back');
    // A weblink for a weblink_clicked automation.
    const clicked = (await call(h, 'createAutomation', { app_id: appId, name: 'On click', trigger: { type: 'weblink_clicked', config: {} } })).automation;
    const link = await call(h, 'generateAutomationWeblink', { automation_id: clicked.id, record_id: rec.record_id, expiration: 'one_week' });
    expect(link.url).toContain(link.token);
    // Usage counts the runs.
    const usage = await call(h, 'getAutomationUsageReport', { interval_resolution: 'daily' });
    expect(usage.usage_reports.reduce((n: number, b: { num_succeeded_runs: number }) => n + b.num_succeeded_runs, 0)).toBeGreaterThanOrEqual(2);
  });

  it('creates paused; pause and delete', async () => {
    const h = await harness();
    const { appId } = leads(h);
    const a = (await call(h, 'createAutomation', { app_id: appId, name: 'Manual', trigger: null })).automation;
    expect(a).toMatchObject({ paused: true, trigger_type: null });
    await call(h, 'activateAutomation', { automation_id: a.id });
    expect((await call(h, 'pauseAutomation', { automation_id: a.id })).automation.paused).toBe(true);
    expect((await call(h, 'deleteAutomation', { automation_id: a.id })).deleted).toBe(true);
    expect((await h.call('dbapp/getAutomation', { automation_id: a.id })).body.error.code).toBe('NOT_FOUND');
  });

  it('reports an unreadable automation as bricked, lists the readable prefix, and updateAutomation with actions: [] heals it', async () => {
    const h = await harness();
    const { appId } = leads(h);
    const ids: number[] = [];
    for (const name of ['One', 'Two', 'Three']) ids.push((await call(h, 'createAutomation', { app_id: appId, name, trigger: { type: 'record_created', config: {} } })).automation.id);
    const { brickAutomation } = await import('../../infra/twins/tape/automation/store');
    brickAutomation(h.tape.state, ids[1]!);
    expect(await call(h, 'getAutomation', { automation_id: ids[1] })).toMatchObject({ error_code: 'automation_unserializable', bricked: true, heal: { tool: 'updateAutomation', body: { actions: [] } } });
    const page = await call(h, 'listAutomations', { app_id: appId });
    expect(page).toMatchObject({ readable_limit: 1, automations: [{ id: ids[0] }] });
    await call(h, 'updateAutomation', { automation_id: ids[1], actions: [] });
    expect(await call(h, 'getAutomation', { automation_id: ids[1] })).toMatchObject({ id: ids[1], name: 'Two' });
    expect((await call(h, 'listAutomations', { app_id: appId })).automations).toHaveLength(3);
  });

  it('keeps a webhook_received trigger\'s webhook_url across updates and a rollback', async () => {
    const h = await harness();
    const { appId } = leads(h);
    const a = (await call(h, 'createAutomation', { app_id: appId, name: 'Hook', trigger: { type: 'webhook_received', config: {} } })).automation;
    const url = (await call(h, 'getAutomation', { automation_id: a.id, verbose: true })).trigger.config.webhook_url;
    expect(url).toMatch(/^https?:\/\//);
    // The trigger as read (with its read-only webhook_url) can be written back.
    const read = (await call(h, 'getAutomation', { automation_id: a.id, verbose: true })).trigger;
    await call(h, 'updateAutomation', { automation_id: a.id, name: 'Hook 2', trigger: read });
    const [, oldest] = (await call(h, 'getAutomationRevisions', { automation_id: a.id })).revisions.slice(-2);
    const snap = await call(h, 'getAutomationRevisions', { automation_id: a.id, revision_id: (oldest ?? { id: '' }).id });
    await call(h, 'updateAutomation', { automation_id: a.id, trigger: snap.trigger, filter: snap.filter, actions: snap.actions });
    expect((await call(h, 'getAutomation', { automation_id: a.id, verbose: true })).trigger.config.webhook_url).toBe(url);
  });

  it('the twin refuses what the tools refuse, at the write boundary (the tools never send it)', async () => {
    const h = await harness();
    const { appId, field } = leads(h);
    const res = await h.tape.fetch(
      new Request(`https://api.tapeapp.com/v1/automation/app/${appId}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'x', filter: { operator: 'and', rows: [{ subject: subject(field('Estimated value'), 'number'), operator: 'is', value: { type: 'text', text: ['1'] } }] } }),
      }),
    );
    expect(res.status).toBe(400);
  });
});

describe('types and config keys checked against the catalog before any write', () => {
  /** The automation writes that reach Tape, as "METHOD /path". */
  function writes(h: H) {
    const sent = h.recordRequests('dbapp');
    return () => sent.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);
  }

  it('refuses an unknown action type, and an unknown config key of a nested action, naming the path and the valid keys', async () => {
    const h = await harness();
    const { appId } = leads(h);
    const sent = writes(h);
    const unknownType = await h.call('dbapp/createAutomation', { app_id: appId, name: 'x', trigger: null, actions: [{ type: 'send_sms', config: {} }] });
    expect(unknownType.status).toBe(400);
    expect(unknownType.body.error.details).toMatchObject({ parameter: 'actions.0.type' });
    expect(unknownType.body.error.message).toContain('send_email');

    const nested = await h.call('dbapp/createAutomation', {
      app_id: appId,
      name: 'x',
      trigger: null,
      actions: [{ type: 'conditional', config: { action_rows: [{ type: 'send_email', config: { to: ['a@b.c'], subject: ['s'] } }] } }],
    });
    expect(nested.status).toBe(400);
    expect(nested.body.error.details).toMatchObject({ parameter: 'actions.0.config.action_rows.0.config.to' });
    expect(nested.body.error.details.expected).toContain('to_address');
    expect(sent()).toEqual([]);
  });

  it('refuses an unknown trigger config key on replaceAutomationTrigger, and reads the catalog once an hour', async () => {
    const h = await harness();
    const { appId } = leads(h);
    const created = await call(h, 'createAutomation', { app_id: appId, name: 'Trigger check', trigger: { type: 'record_created', config: {} } });
    const sent = writes(h);
    const r = await h.call('dbapp/replaceAutomationTrigger', { automation_id: created.automation.id, trigger: { type: 'record_updated', config: { fields: [1] } } });
    expect(r.status).toBe(400);
    expect(r.body.error.details).toMatchObject({ parameter: 'trigger.config.fields', expected: 'one of trigger_on_changes_field_ids' });
    expect(sent()).toEqual([]);
    // A valid replacement goes through; the catalog came from the Store, not from Tape again.
    const requests = h.recordRequests('dbapp');
    await call(h, 'replaceAutomationTrigger', { automation_id: created.automation.id, trigger: { type: 'record_updated', config: { trigger_on_changes_field_ids: null } } });
    expect(requests.filter((r) => r.path.startsWith('/v1/automation/meta'))).toEqual([]);
  });
});

