import { describe, expect, it } from 'vitest';
import { harness, SANDBOX_KEYS } from '../helpers/harness';
import { loopbackServer } from '../helpers/loopback';
import { createClock } from '../../infra/twins/kit';
import { PODIO_DEMO, type PodioTwin } from '../../infra/twins/podio';
import { TEST_NOW } from '../twins/podio-call';

const json = { query: 'format=json' };
const U = PODIO_DEMO.users;
const deal = PODIO_DEMO.items.firstDeal;
/** Seeded tasks (ids from 40001) and labels (45001 Urgent, 45002 Follow-up of the owner; 45003 Calls of the member). */
const T = { contract: 40001, review: 40002, call: 40003, newsletter: 40004, offsite: 40005, onboarding: 40006, priceList: 40007, helios: 40008, salary: 40009, invoices: 40010 };
const L = { urgent: 45001, followUp: 45002, calls: 45003 };
/** A key of Chloé Martin (America/New_York), registered in the twin by `asChloe`. */
const CHLOE_KEY = 'user_key_sbxChloeNewYork0000000000000';

const base = loopbackServer((req, res) => {
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end('call notes');
});

const fixed = (env: Record<string, string> = {}) => harness({ env, twins: { collab: { clock: createClock(TEST_NOW) } } });
const writes = (sent: { method: string; path: string }[]) => sent.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);
const twinOf = (h: Awaited<ReturnType<typeof fixed>>) => h.twin<PodioTwin>('collab');
const asChloe = (h: Awaited<ReturnType<typeof fixed>>) => twinOf(h).state.tokens.set(CHLOE_KEY, { user_id: U.chloe.user_id, expires_at: null, ref: { type: 'user', id: U.chloe.user_id } });

describe('createTasks', () => {
  it('creates a batch: the docs/spec.md#collab-task envelope, attached to an item, labels by id or text (new text creates one label, once)', async () => {
    const h = await fixed();
    const sent = h.recordRequests('collab');
    const r = await h.call(
      'collab/createTasks',
      {
        tasks: [
          { text: 'Call Northwind', ref_type: 'item', ref_id: deal, labels: ['URGENT', L.followUp, 'Q1 plan'], description: 'About the renewal' },
          { text: 'Send the offer', responsible: U.ben.user_id, due_date: '2026-02-02', labels: ['q1 PLAN'], private: true },
        ],
      },
      json,
    );
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({
      total: 2,
      successful: 2,
      failed: 0,
      tasks: [
        { index: 0, success: true, created: true, task_id: 40011, text: 'Call Northwind', link: 'https://podio.com/tasks/40011' },
        { index: 1, success: true, created: true, task_id: 40012, text: 'Send the offer', link: 'https://podio.com/tasks/40012' },
      ],
      new_labels: [{ label_id: 45004, text: 'Q1 plan', color: 'E9E9E9' }],
    });
    expect(writes(sent)).toEqual(['POST /task/label/', 'POST /task/', 'POST /task/']);
    expect(Object.fromEntries(sent.find((s) => s.path === '/task/')!.query)).toEqual({ silent: 'false', hook: 'true' });
    expect(sent.filter((s) => s.path === '/task/').map((s) => s.body)).toEqual([
      { text: 'Call Northwind', description: 'About the renewal', ref_type: 'item', ref_id: deal, label_ids: [L.urgent, L.followUp, 45004] },
      { text: 'Send the offer', due_date: '2026-02-02', responsible: U.ben.user_id, private: true, label_ids: [45004] },
    ]);
    const first = await h.call('collab/getTask', { task_id: 40011 }, json);
    expect(first.body.data).toMatchObject({ ref: { type: 'item', id: deal, title: expect.any(String) }, labels: [{ text: 'Urgent' }, { text: 'Follow-up' }, { text: 'Q1 plan' }], responsible: { user_id: U.owner.user_id } });
    const second = await h.call('collab/getTask', { task_id: 40012 }, json);
    expect(second.body.data).toMatchObject({ due_date: '2026-02-02', responsible: { user_id: U.ben.user_id, name: U.ben.name }, private: true });

    const text = await h.call('collab/createTasks', { tasks: [{ text: 'One more' }], silent: true, hook: false });
    expect(Object.fromEntries(sent.at(-1)!.query)).toEqual({ silent: 'true', hook: 'false' });
    expect(text.body.data).toBe('created 1 of 1 tasks in Podio\ntask ids by tasks index: 0→#40013');
  });

  it('checks every element before writing anything: profile ids, unknown labels, half a reference, a time without its date', async () => {
    const h = await fixed();
    const sent = h.recordRequests('collab');
    const profile = await h.call('collab/createTasks', { tasks: [{ text: 'ok' }, { text: 'x', responsible: U.ben.profile_id }] });
    expect(profile.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'tasks.1.responsible', expected: 'a user_id, not a profile_id' } });
    expect(profile.body.error.message).toContain(`use ${U.ben.user_id}`);
    const label = await h.call('collab/createTasks', { tasks: [{ text: 'x', labels: [L.calls] }] });
    expect(label.body.error.details.parameter).toBe('tasks.0.labels.0');
    const ref = await h.call('collab/createTasks', { tasks: [{ text: 'x', ref_id: deal }] });
    expect(ref.body.error.details.parameter).toBe('tasks.0.ref_type');
    const time = await h.call('collab/createTasks', { tasks: [{ text: 'x', due_time: '09:00' }] });
    expect(time.body.error.details.parameter).toBe('tasks.0.due_time');
    const both = await h.call('collab/createTasks', { tasks: [{ text: 'x', due_on: '2026-02-02 09:00', due_date: '2026-02-02' }] });
    expect(both.body.error.details.parameter).toBe('tasks.0.due_on');
    const date = await h.call('collab/createTasks', { tasks: [{ text: 'x', due_date: '2026-02-30' }] });
    expect(date.body.error.details.parameter).toBe('tasks.0.due_date');
    const empty = await h.call('collab/createTasks', { tasks: [{ text: ' ' }] });
    expect(empty.body.error.details.parameter).toBe('tasks.0.text');
    expect(writes(sent)).toEqual([]);
  });

  it("converts due times from the user's timezone to UTC across a DST change (Europe/Berlin, America/New_York)", async () => {
    const h = await fixed();
    const r = await h.call(
      'collab/createTasks',
      { tasks: [{ text: 'Before', due_on: '2026-03-28 09:00' }, { text: 'After', due_date: '2026-03-30', due_time: '09:00' }, { text: 'Autumn', due_on: '2026-10-25 02:30' }] },
      { ...json, key: SANDBOX_KEYS.member },
    );
    expect(r.body.data.tasks.map((t: any) => t.due_on)).toEqual(['2026-03-28 08:00:00', '2026-03-30 07:00:00', '2026-10-25 00:30:00']);
    const read = await h.call('collab/getTask', { task_id: r.body.data.tasks[1].task_id }, { ...json, key: SANDBOX_KEYS.member });
    expect(read.body.data).toMatchObject({ due_date: '2026-03-30', due_time: '09:00:00', due_on: '2026-03-30 07:00:00' });

    const sent = h.recordRequests('collab');
    const gap = await h.call('collab/createTasks', { tasks: [{ text: 'ok', due_on: '2026-03-28 09:00' }, { text: 'Gap', due_on: '2026-03-29 02:30' }] }, { key: SANDBOX_KEYS.member });
    expect(gap.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'tasks.1.due_on', expected: 'a time that exists in Europe/Berlin' } });
    expect(gap.body.error.message).toContain('2026-03-29 02:30 does not exist in your timezone Europe/Berlin');
    expect(writes(sent)).toEqual([]);

    asChloe(h);
    const ny = await h.call('collab/createTasks', { tasks: [{ text: 'Sat', due_date: '2026-03-07', due_time: '09:00' }, { text: 'Mon', due_on: '2026-03-09 09:00' }] }, { ...json, key: CHLOE_KEY });
    expect(ny.body.data.tasks.map((t: any) => t.due_on)).toEqual(['2026-03-07 14:00:00', '2026-03-09 13:00:00']);
    // The owner lives in UTC: no conversion.
    const utc = await h.call('collab/createTasks', { tasks: [{ text: 'UTC', due_on: '2026-03-29 02:30' }] }, json);
    expect(utc.body.data.tasks[0].due_on).toBe('2026-03-29 02:30:00');
  });

  it('reports a failed task as {index, success: false, error: {code, message}} and writes the others', async () => {
    const h = await fixed();
    const r = await h.call('collab/createTasks', { tasks: [{ text: 'Good' }, { text: 'On a missing item', ref_type: 'item', ref_id: 39999 }, { text: 'Also good' }] }, json);
    expect(r.body.data).toMatchObject({ total: 3, successful: 2, failed: 1 });
    expect(r.body.data.tasks[1]).toEqual({ index: 1, success: false, error: { code: 'NOT_FOUND', message: expect.stringContaining('Object not found'), details: expect.objectContaining({ upstream_status: 404, upstream_code: 'not_found', upstream_path: expect.stringMatching(/^POST \/task/) }) } });
    expect(r.body.data.tasks[2]).toMatchObject({ index: 2, success: true, created: true });
    const text = await h.call('collab/createTasks', { tasks: [{ text: 'On a missing item', ref_type: 'item', ref_id: 39999 }] });
    expect(text.body.data).toMatch(/^created 0 of 1 tasks in Podio — 1 failed\ntasks\.0 failed: NOT_FOUND /);
  });

  it('uploads https URLs in file_ids and attaches them to the task', async () => {
    const h = await fixed({ ALLOW_HTTP_HOSTS: '127.0.0.1' });
    const r = await h.call('collab/createTasks', { tasks: [{ text: 'With notes', file_ids: [`${base()}/notes/call.txt`] }] }, json);
    const task = await h.call('collab/getTask', { task_id: r.body.data.tasks[0].task_id }, json);
    expect(task.body.data.files).toEqual([{ file_id: expect.any(Number), name: 'call.txt' }]);
    const bad = await h.call('collab/createTasks', { tasks: [{ text: 'x', file_ids: ['nope'] }] });
    expect(bad.body.error.details.parameter).toBe('tasks.0.file_ids.0');
  });
});

describe('getTask', () => {
  it('reads a task whole, in JSON and as text', async () => {
    const h = await fixed();
    const r = await h.call('collab/getTask', { task_id: T.contract }, json);
    // Every field of the spec present; those the task has none of are null (a list: empty).
    expect(r.body.data).toEqual({
      task_id: T.contract,
      text: 'Send the signed contract to legal',
      description: null,
      status: 'active',
      private: false,
      started: false,
      due_date: '2025-12-01',
      due_time: '15:00:00',
      due_on: '2025-12-01 15:00:00',
      responsible: { user_id: U.owner.user_id, name: U.owner.name },
      created_by: { user_id: U.owner.user_id, name: U.owner.name },
      created_on: '2025-11-20 09:00:00',
      completed_on: null,
      ref: { type: 'item', id: deal, title: expect.any(String) },
      labels: [{ label_id: L.urgent, text: 'Urgent', color: 'D2E4EB' }],
      files: [],
      link: `https://podio.com/tasks/${T.contract}`,
      reminder: null,
    });
    const text = await h.call('collab/getTask', { task_id: T.contract });
    expect(text.body.data).toBe(`#40001 Send the signed contract to legal — due 2025-12-01 15:00 — Ann Becker — item #${deal} "${r.body.data.ref.title}" — [Urgent]\nhttps://podio.com/tasks/40001`);
    expect((await h.call('collab/getTask', { task_id: T.salary }, { key: SANDBOX_KEYS.member })).body.error.code).toBe('FORBIDDEN');
  });

  it("carries Podio's started flag and reminder, in the single and the list form", async () => {
    const h = await fixed();
    // Podio answers these on a task the twin keeps none of: add them as Podio sends them.
    const inner = h.rt.fetchFor!.collab!;
    h.rt.fetchFor!.collab = (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
      const res = await inner(input, init);
      if (!new URL(String(input)).pathname.startsWith('/task/')) return res;
      const add = (t: any) => (t.task_id === T.contract ? { ...t, started: true, reminder: { reminder_id: 9, remind_delta: 45 } } : t);
      const body = await res.json();
      return new Response(JSON.stringify(Array.isArray(body) ? body.map(add) : add(body)), { status: res.status, headers: res.headers });
    }) as typeof fetch;
    const one = (await h.call('collab/getTask', { task_id: T.contract }, json)).body.data;
    expect(one).toMatchObject({ started: true, reminder: { remind_delta: 45 } });
    const list = (await h.call('collab/getTasks', {}, json)).body.data.tasks as any[];
    expect(list.find((t) => t.task_id === T.contract)).toMatchObject({ started: true, reminder: { remind_delta: 45 } });
    const other = list.find((t) => t.task_id !== T.contract);
    expect(other).toMatchObject({ started: false, reminder: null, description: null });
    for (const key of ['ref_type', 'ref_title', 'ref_app', 'ref_link', 'group', 'completed_on', 'files', 'link', 'due_on']) expect(other).toHaveProperty(key);
  });

  it('takes comments: task is a commentable object', async () => {
    const h = await fixed();
    const r = await h.call('collab/addCommentToObject', { type: 'task', id: T.contract, value: 'Legal has it.' }, json);
    expect(r.body.data).toMatchObject({ value: 'Legal has it.', ref: { type: 'task', id: T.contract } });
    expect((await h.call('collab/getCommentsOnObject', { type: 'task', id: T.contract }, json)).body.data.map((c: any) => c.value)).toEqual(['Legal has it.']);
  });
});

describe('updateTasks', () => {
  it('completes, reschedules and relabels; a failed entry names its task_id', async () => {
    const h = await fixed();
    const r = await h.call(
      'collab/updateTasks',
      { tasks: [{ task_id: T.contract, completed: true }, { task_id: T.call, due_on: '2026-01-20 14:00', labels: ['Follow-up'] }, { task_id: 49999, text: 'Nope' }] },
      json,
    );
    expect(r.body.data).toEqual({
      total: 3,
      successful: 2,
      failed: 1,
      tasks: [
        { index: 0, success: true, updated: true, task_id: T.contract },
        { index: 1, success: true, updated: true, task_id: T.call },
        { index: 2, success: false, task_id: 49999, error: { code: 'NOT_FOUND', message: expect.any(String), details: expect.any(Object) } },
      ],
    });
    expect((await h.call('collab/getTask', { task_id: T.contract }, json)).body.data).toMatchObject({ status: 'completed', completed_on: '2026-01-15 10:00:00' });
    expect((await h.call('collab/getTask', { task_id: T.call }, json)).body.data).toMatchObject({ due_on: '2026-01-20 14:00:00', labels: [{ label_id: L.followUp }] });
    const reopen = await h.call('collab/updateTasks', { tasks: [{ task_id: T.contract, completed: false, due_date: null }] });
    expect(reopen.body.data).toBe('updated 1 of 1 tasks in Podio\ntask ids by tasks index: 0→#40001');
    expect((await h.call('collab/getTask', { task_id: T.contract }, json)).body.data).toMatchObject({ due_date: null, due_on: null, due_time: null });
  });

  it('refuses an element with nothing to change and a profile id as responsible, before any write', async () => {
    const h = await fixed();
    const sent = h.recordRequests('collab');
    const nothing = await h.call('collab/updateTasks', { tasks: [{ task_id: T.call, text: 'x' }, { task_id: T.review }] });
    expect(nothing.body.error.details).toMatchObject({ parameter: 'tasks.1', expected: 'task_id and at least one change' });
    const profile = await h.call('collab/updateTasks', { tasks: [{ task_id: T.call, responsible: U.david.profile_id }] });
    expect(profile.body.error.details.parameter).toBe('tasks.0.responsible');
    expect(writes(sent)).toEqual([]);
  });
});

describe('deleteTasks', () => {
  it('deletes tasks; a missing one is a failed entry; a repeated id is refused', async () => {
    const h = await fixed();
    const r = await h.call('collab/deleteTasks', { task_ids: [T.offsite, 49999] }, json);
    expect(r.body.data).toEqual({
      total: 2,
      successful: 1,
      failed: 1,
      tasks: [
        { index: 0, success: true, deleted: true, task_id: T.offsite },
        { index: 1, success: false, task_id: 49999, error: { code: 'NOT_FOUND', message: expect.any(String), details: expect.any(Object) } },
      ],
    });
    expect(twinOf(h).state.tasks.rows.has(T.offsite)).toBe(false);
    const twice = await h.call('collab/deleteTasks', { task_ids: [T.call, T.call] });
    expect(twice.body.error.details.parameter).toBe('task_ids.1');
    expect(twinOf(h).state.tasks.rows.has(T.call)).toBe(true);
    const text = await h.call('collab/deleteTasks', { task_ids: [T.call] });
    expect(text.body.data).toBe('deleted 1 of 1 tasks in Podio\ntask ids by task_ids index: 0→#40003 (permanent)');
  });
});

describe('getTasks', () => {
  it("defaults to the key's own tasks, grouped by due date as Podio's task list", async () => {
    const h = await fixed();
    const sent = h.recordRequests('collab');
    const r = await h.call('collab/getTasks', {}, json);
    const q = sent.find((s) => s.path === '/task/')!.query;
    expect(Object.fromEntries(q)).toEqual({ responsible: String(U.owner.user_id), sort_by: 'rank', sort_desc: 'false', grouping: 'due_date', limit: '30', offset: '0' });
    expect(r.body.data.responsible_default).toBe(U.owner.user_id);
    expect(r.body.data.tasks.map((t: any) => [t.task_id, t.group])).toEqual([
      [T.contract, 'overdue'],
      [T.review, 'due_today'],
      [T.call, 'due_tomorrow'],
      [T.newsletter, 'due_this_week'],
      [T.offsite, 'due_later'],
      [T.priceList, 'no_due_date'],
      [T.salary, 'no_due_date'],
      [T.invoices, 'completed'],
    ]);
    expect(r.body.data.tasks[0]).toMatchObject({ responsible: U.owner.name, responsible_id: U.owner.user_id, ref_type: 'item', ref_id: deal, ref_app: { app_id: PODIO_DEMO.apps.deals, name: 'Deals' } });
    const text = await h.call('collab/getTasks', { completed: false, limit: 3 });
    expect(text.body.data.split('\n')).toEqual([
      'your tasks, grouped by due date:',
      'Overdue:',
      `  #40001 Send the signed contract to legal — due 2025-12-01 15:00 — Ann Becker — item #${deal} "${r.body.data.tasks[0].ref_title}" (Deals) — [Urgent]`,
      'Today:',
      '  #40002 Prepare the Q1 pipeline review — due 2026-01-15 — Ann Becker — [Follow-up]',
      'Tomorrow:',
      `  #40003 Call Northwind about the renewal — due 2026-01-16 10:00 — Ann Becker — item #${deal + 1} "${r.body.data.tasks[2].ref_title}" (Deals)`,
      'showing 3 — pass offset 3 with the same filters for the next page',
    ]);
  });

  it('passes every filter checked, and scoping filters drop the default', async () => {
    const h = await fixed();
    const sent = h.recordRequests('collab');
    const r = await h.call(
      'collab/getTasks',
      {
        created_by: 'user:1001, 1003',
        due_date: '2026-01-01-2026-01-31',
        created_on: '2025-12-01-',
        completed_on: '-2026-12-31',
        label: L.followUp,
        app: '8102',
        space: '7101',
        org: '7001',
        reference: 'item:30061; item:30062',
        files: false,
        reassigned: false,
        grouping: 'responsible',
        sort_by: 'created_on',
        sort_desc: true,
        limit: 100,
        offset: 0,
      },
      json,
    );
    expect(r.status).toBe(200);
    expect(Object.fromEntries(sent.at(-1)!.query)).toEqual({
      created_by: '1001,1003',
      space: '7101',
      org: '7001',
      app: '8102',
      due_date: '2026-01-01-2026-01-31',
      created_on: '2025-12-01-',
      completed_on: '-2026-12-31',
      reference: 'item:30061;item:30062',
      label: String(L.followUp),
      files: 'false',
      reassigned: 'false',
      sort_by: 'created_on',
      sort_desc: 'true',
      grouping: 'responsible',
      limit: '100',
      offset: '0',
    });
    expect(r.body.data).not.toHaveProperty('responsible_default');
    const byRef = await h.call('collab/getTasks', { reference: `item:${deal}` }, json);
    expect(byRef.body.data.tasks.map((t: any) => t.task_id).sort()).toEqual([T.contract, T.onboarding]);
    const full = await h.call('collab/getTasks', { view: 'full', limit: 1 }, json);
    expect(full.body.data.tasks[0]).toMatchObject({ task_id: T.contract, responsible: { user_id: U.owner.user_id, name: U.owner.name }, ref: { type: 'item', id: deal } });
    const byResponsible = await h.call('collab/getTasks', { responsible: String(U.ben.user_id), grouping: 'app' }, json);
    expect(byResponsible.body.data.tasks.map((t: any) => [t.task_id, t.group])).toEqual([[T.onboarding, 'Deals']]);
  });

  it('refuses malformed filters naming the parameter, with no call', async () => {
    const h = await fixed();
    const sent = h.recordRequests('collab');
    const cases: [Record<string, unknown>, string][] = [
      [{ due_date: '2026-01-31-2026-01-01' }, 'due_date'],
      [{ created_on: '2026-13-01-2026-12-01' }, 'created_on'],
      [{ completed_on: 'last week' }, 'completed_on'],
      [{ due_date: '-' }, 'due_date'],
      [{ responsible: 'ben' }, 'responsible'],
      [{ created_by: '1001;1002' }, 'created_by'],
      [{ space: '7101,x' }, 'space'],
      [{ reference: 'item=30061' }, 'reference'],
      [{ reference: 'planet:4' }, 'reference'],
      [{ limit: 101 }, 'limit'],
      [{ grouping: 'label' }, 'grouping'],
      [{ sort_by: 'due_date' }, 'sort_by'],
      [{ created_via: 'podio' }, 'created_via'],
      [{ view: 'micro' }, 'view'],
      [{ label: 'Urgent' }, 'label'],
    ];
    for (const [params, parameter] of cases) {
      const r = await h.call('collab/getTasks', params);
      expect(r.body.error?.details?.parameter, JSON.stringify(params)).toBe(parameter);
    }
    expect(sent.filter((s) => s.path === '/task/')).toEqual([]);
  });

  it('summary: grouped counts (overdue, today, this week, other) with sample tasks per group', async () => {
    const h = await fixed();
    const r = await h.call('collab/getTasks', { summary: true, limit: 1 }, json);
    expect(r.body.data.total).toBe(7);
    expect(r.body.data.complete).toBe(true);
    const counts = Object.fromEntries(Object.entries(r.body.data.summary).map(([k, v]: [string, any]) => [k, [v.total, v.tasks.map((t: any) => t.task_id)]]));
    expect(counts).toEqual({ overdue: [1, [T.contract]], today: [1, [T.review]], this_week: [2, [T.call]], other: [3, [T.offsite]] });
    const text = await h.call('collab/getTasks', { summary: true, limit: 1 });
    expect(text.body.data.split('\n').slice(0, 6)).toEqual([
      'your tasks: 7 tasks',
      'overdue: 1',
      `  #40001 Send the signed contract to legal — due 2025-12-01 15:00 — Ann Becker — item #${deal} "${r.body.data.summary.overdue.tasks[0].ref_title}" (Deals) — [Urgent]`,
      'due today: 1',
      '  #40002 Prepare the Q1 pipeline review — due 2026-01-15 — Ann Becker — [Follow-up]',
      'due this week: 2',
    ]);
  });
});

describe('labels', () => {
  it('createLabel strips a leading # and refuses other colours; getLabels lists them', async () => {
    const h = await fixed();
    const r = await h.call('collab/createLabel', { text: 'Waiting', color: '#ffd5c2' }, json);
    expect(r.body.data).toEqual({ created: true, label_id: 45004, text: 'Waiting', color: 'ffd5c2' });
    const sent = h.recordRequests('collab');
    for (const color of ['red', 'FFD5C', '#FFD5C2AA', '##FFD5C2']) {
      const bad = await h.call('collab/createLabel', { text: 'Bad', color });
      expect(bad.body.error.details.parameter, color).toBe('color');
    }
    expect(sent).toEqual([]);
    const list = await h.call('collab/getLabels', {});
    expect(list.body.data).toBe('#45001 Urgent (D2E4EB)\n#45002 Follow-up (F7F0C5)\n#45004 Waiting (ffd5c2)\n3 labels');
  });

  it('updateLabel changes text or colour and answers both', async () => {
    const h = await fixed();
    const r = await h.call('collab/updateLabel', { label_id: L.urgent, color: '#FFD5C2' }, json);
    expect(r.body.data).toEqual({ updated: true, label_id: L.urgent, text: 'Urgent', color: 'FFD5C2' });
    expect((await h.call('collab/updateLabel', { label_id: L.urgent })).body.error.code).toBe('INVALID_PARAMETER');
    expect((await h.call('collab/updateLabel', { label_id: L.calls, text: 'Mine now' })).body.error.code).toBe('NOT_FOUND');
  });

  it('deleteLabel removes the label from every task', async () => {
    const h = await fixed();
    await h.call('collab/updateTasks', { tasks: [{ task_id: T.review, labels: [L.urgent, L.followUp] }] });
    const r = await h.call('collab/deleteLabel', { label_id: L.urgent });
    expect(r.body.data).toBe('deleted label #45001 and removed it from every task');
    expect((await h.call('collab/getTask', { task_id: T.contract }, json)).body.data.labels).toEqual([]);
    expect((await h.call('collab/getTask', { task_id: T.review }, json)).body.data.labels.map((l: any) => l.label_id)).toEqual([L.followUp]);
    expect((await h.call('collab/getLabels', {}, json)).body.data.map((l: any) => l.label_id)).toEqual([L.followUp]);
  });
});
