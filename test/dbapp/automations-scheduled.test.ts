/**
 * The dbapp automation tools end to end with the Tape twin's scheduled triggers and weblink flow:
 * create, activate, move the twin clock (or click), then read the run with getAutomationRun.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createClock } from '../../infra/twins/kit';
import { harness, SANDBOX_KEYS } from '../helpers/harness';

const json = { query: 'format=json' };
type H = Awaited<ReturnType<typeof harness>>;
const MONDAY_8AM = Date.parse('2026-03-02T08:00:00Z');
const HOUR = 3_600_000;

const opened: H[] = [];
afterEach(() => {
  for (const h of opened.splice(0)) h.tape.close();
});

async function setup() {
  const h = await harness({ twin: { clock: createClock(MONDAY_8AM) } });
  opened.push(h);
  const app = [...h.tape.state.apps.values()].find((a) => a.name === 'Leads')!;
  const field = (label: string) => app.fields.find((f) => f.config.label === label)!;
  const ref = (label: string) => ({ kind: 'variable', source: 'field', field_id: field(label).field_id, field_type: field(label).field_type });
  const set = (label: string, value: unknown[]) => ({ field_type: field(label).field_type, variable_def: ref(label), assignment_type: 'set', field_value: value });
  return { h, appId: app.app_id, field, set };
}

async function call(h: H, tool: string, params: unknown) {
  const r = await h.call(`dbapp/${tool}`, params, json);
  if (r.status !== 200) throw new Error(`${tool} ${JSON.stringify(params).slice(0, 200)} → ${r.status} ${JSON.stringify(r.body.error)}`);
  return r.body.data;
}

/** The runs of an automation, oldest first, once the twin has none in flight. */
async function runs(h: H, automation_id: number) {
  await h.tape.automations.idle();
  return ((await call(h, 'listAutomationRuns', { automation_id })).runs as { id: string; status: string; triggered_on_record_id: number | null }[]).reverse();
}

describe('scheduled automations through the dbapp tools', () => {
  it('periodic: activate, move the clock, read the run; the record it created is credited to the automation', async () => {
    const { h, appId, set } = await setup();
    const created = await call(h, 'createAutomation', {
      app_id: appId,
      name: 'Morning lead',
      trigger: { type: 'periodic', config: { interval: 'weekly', time: '09:00', week_days: [1, 3] } },
      actions: [{ type: 'record_create', config: { app_id: appId, field_assignments: [set('Name', ['Check-in ', { kind: 'variable', source: 'trigger', trigger_type: 'periodic_execution_datetime' }]), set('Status', ['New'])] } }],
    });
    const id = created.automation.id;
    await call(h, 'activateAutomation', { automation_id: id });
    h.tape.clock.advance(2 * HOUR); // Monday 10:00: the 09:00 slot
    const [run] = await runs(h, id);
    expect(run).toMatchObject({ status: 'completed', triggered_on_record_id: null });
    const detail = await call(h, 'getAutomationRun', { run_id: run!.id });
    expect(detail.logs.map((l: { type: string; status: string }) => [l.type, l.status])).toEqual([['trigger', 'success'], ['filter', 'success'], ['action', 'success']]);
    expect(detail.logs[0].messages[0].message).toBe('Triggered by periodic: the slot of 2026-03-02 09:00:00 (UTC).');
    const recordId = Number(/Record (\d+) created/.exec(detail.logs[2].messages[0].message)![1]);
    const record = await call(h, 'getRecord', { record_id: recordId });
    expect(record.title).toBe('Check-in 2026-03-02 09:00:00');
    const history = await call(h, 'getRecordRevisions', { record_id: recordId });
    expect(history.revisions[0].created_by.name).toBe('Morning lead');
    // Tuesday has no slot; Wednesday has.
    h.tape.clock.advance(24 * HOUR);
    expect(await runs(h, id)).toHaveLength(1);
    h.tape.clock.advance(24 * HOUR);
    expect(await runs(h, id)).toHaveLength(2);
  });

  it('date_field_arrived: a record whose date arrives is updated and mailed; the outbox is readable on the twin', async () => {
    const { h, appId, field, set } = await setup();
    const rec = await call(h, 'createRecord', { app_id: appId, fields: { [field('Name').field_id]: 'Dana', [field('Status').field_id]: ['New'], [field('First contact').field_id]: '2026-03-03 00:00:00' } });
    const created = await call(h, 'createAutomation', {
      app_id: appId,
      name: 'Contact day',
      trigger: { type: 'date_field_arrived', config: { field_id: field('First contact').field_id, offset_amount: -2, offset_unit: 'hour' } },
      actions: [
        { type: 'current_record_update', config: { field_assignments: [set('Notes', ['Call today'])] } },
        { type: 'send_email', config: { to_address: ['sales@example.com'], subject: ['Call ', { kind: 'variable', source: 'field', field_id: field('Name').field_id, field_type: 'single_text' }] } },
      ],
    });
    await call(h, 'activateAutomation', { automation_id: created.automation.id });
    const move = await h.tape.fetch('https://api.tapeapp.com/_twin/clock', { method: 'POST', headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}`, 'content-type': 'application/json' }, body: JSON.stringify({ set: '2026-03-02 22:00:00' }) });
    expect(move.status).toBe(200);
    // The seed's leads have first-contact dates around the twin's start too (infra/twins/kit/seed-day.ts): this record's run.
    const run = (await runs(h, created.automation.id)).find((r) => r.triggered_on_record_id === rec.record_id);
    expect(run).toMatchObject({ status: 'completed', triggered_on_record_id: rec.record_id });
    const detail = await call(h, 'getAutomationRun', { run_id: run!.id });
    expect(detail.logs[0].messages[0].message).toBe(`Triggered by date_field_arrived on record ${rec.record_id}: due 2026-03-02 22:00:00 (UTC).`);
    expect(JSON.stringify(await call(h, 'getRecord', { record_id: rec.record_id }))).toContain('Call today');
    const outbox = (await (await h.tape.fetch('https://api.tapeapp.com/_twin/outbox', { headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}` } })).json()) as { emails: unknown[] };
    expect(outbox.emails.filter((e) => (e as { record_id: number }).record_id === rec.record_id)).toMatchObject([{ to: ['sales@example.com'], subject: 'Call Dana', record_id: rec.record_id }]);
  });

  it('weblink: generateAutomationWeblink, a click shows the page display_webpage composed, and the run reads back', async () => {
    const { h, appId, field } = await setup();
    const rec = await call(h, 'createRecord', { app_id: appId, fields: { [field('Name').field_id]: 'Eve', [field('Status').field_id]: ['New'] } });
    const created = await call(h, 'createAutomation', {
      app_id: appId,
      name: 'Thank you page',
      trigger: { type: 'weblink_clicked', config: {} },
      actions: [{ type: 'display_webpage', config: { webpage_body: ['<h1>Thanks, ', { kind: 'variable', source: 'field', field_id: field('Name').field_id, field_type: 'single_text' }, '</h1>'] } }],
    });
    await call(h, 'activateAutomation', { automation_id: created.automation.id });
    const link = await call(h, 'generateAutomationWeblink', { automation_id: created.automation.id, record_id: rec.record_id, expiration: 'one_week' });
    const page = await h.tape.fetch(link.url);
    expect(await page.text()).toContain('<h1>Thanks, Eve</h1>');
    const [run] = await runs(h, created.automation.id);
    const detail = await call(h, 'getAutomationRun', { run_id: run!.id });
    expect(detail.logs.at(-1)).toMatchObject({ type: 'action', status: 'success', label: 'Display webpage' });
  });
});
