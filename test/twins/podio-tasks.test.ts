import { describe, expect, it } from 'vitest';
import { PODIO_DEMO, SANDBOX_KEYS } from '../../infra/twins/podio';
import { podioTwin } from './podio-call';

const U = PODIO_DEMO.users;
const deal = PODIO_DEMO.items.firstDeal;
const T = { contract: 40001, review: 40002, call: 40003, onboarding: 40006, helios: 40008, salary: 40009, invoices: 40010 };
const L = { urgent: 45001, followUp: 45002, calls: 45003 };
const member = SANDBOX_KEYS.member;

describe('Podio twin: tasks', () => {
  it('POST /task/ → the task; due_date + due_time are the user\'s local time (Europe/Berlin for the member), due_on is UTC', async () => {
    const t = podioTwin();
    const r = await t.call('POST', '/task/', { text: 'Call back', due_date: '2026-03-30', due_time: '09:00', ref_type: 'item', ref_id: deal, label_ids: [L.calls] }, member);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      status: 'active',
      text: 'Call back',
      due_on: '2026-03-30 07:00:00',
      due_date: '2026-03-30',
      due_time: '09:00:00',
      responsible: { user_id: U.member.user_id },
      ref: { type: 'item', id: deal, data: { app: { app_id: PODIO_DEMO.apps.deals } } },
      labels: [{ label_id: L.calls, text: 'Calls' }],
      link: `https://podio.com/tasks/${r.body.task_id}`,
    });
    // The same instant read by the owner (UTC); winter time a day before the change.
    expect((await t.call('GET', `/task/${r.body.task_id}`)).body).toMatchObject({ due_date: '2026-03-30', due_time: '07:00:00' });
    const winter = await t.call('POST', '/task/', { text: 'Winter', due_date: '2026-03-28', due_time: '09:00:00' }, member);
    expect(winter.body.due_on).toBe('2026-03-28 08:00:00');
    const utc = await t.call('POST', '/task/', { text: 'UTC', due_on: '2026-03-28 09:00:00' }, member);
    expect(utc.body).toMatchObject({ due_on: '2026-03-28 09:00:00', due_time: '10:00:00' });
    const dateOnly = await t.call('POST', '/task/', { text: 'Date', due_date: '2026-04-01' });
    expect(dateOnly.body).toMatchObject({ due_on: null, due_date: '2026-04-01', due_time: null });
  });

  it('refuses bad input whole: text, dates, responsible, labels of another user, items out of reach', async () => {
    const t = podioTwin();
    const before = t.state.tasks.rows.size;
    for (const body of [
      {},
      { text: ' ' },
      { text: 'x', due_date: '2026-02-30' },
      { text: 'x', due_time: '09:00' },
      { text: 'x', due_on: '2026-02-01T09:00' },
      { text: 'x', responsible: U.ben.profile_id },
      { text: 'x', ref_type: 'planet', ref_id: 1 },
      { text: 'x', private: 'yes' },
    ]) {
      expect((await t.call('POST', '/task/', body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await t.call('POST', '/task/', { text: 'x', label_ids: [L.calls] })).status).toBe(404);
    expect((await t.call('POST', '/task/', { text: 'x', ref_type: 'item', ref_id: PODIO_DEMO.items.firstProject }, member)).status).toBe(403);
    expect(t.state.tasks.rows.size).toBe(before);
    // {type: "profile", id} is Podio's way to name someone by profile.
    expect((await t.call('POST', '/task/', { text: 'x', responsible: { type: 'profile', id: U.ben.profile_id } })).body.responsible.user_id).toBe(U.ben.user_id);
  });

  it('a list of responsible makes one task each; POST /task/item/{id}/ attaches to the item; labels by text are found or created', async () => {
    const t = podioTwin();
    const r = await t.call('POST', `/task/item/${deal}/`, { text: 'Each', responsible: [U.ben.user_id, U.chloe.user_id], labels: ['urgent', 'Brand new'] });
    expect(r.body.map((x: any) => [x.responsible.user_id, x.ref.id])).toEqual([[U.ben.user_id, deal], [U.chloe.user_id, deal]]);
    expect(r.body[0].labels).toEqual([{ label_id: L.urgent, text: 'Urgent', color: 'D2E4EB' }, { label_id: 45004, text: 'Brand new', color: 'E9E9E9' }]);
    expect(r.body[1].labels.map((l: any) => l.label_id)).toEqual([L.urgent, 45004]);
  });

  it('visibility: creator and responsible always; others only public tasks on items of their spaces', async () => {
    const t = podioTwin();
    expect((await t.call('GET', `/task/${T.salary}`, undefined, member)).status).toBe(403);
    expect((await t.call('GET', `/task/${T.contract}`, undefined, member)).status).toBe(200);
    expect((await t.call('GET', `/task/${T.review}`, undefined, member)).status).toBe(403);
    expect((await t.call('GET', '/task/99999')).status).toBe(404);
  });

  it('PUT /task/{id} changes what it names; completed marks done; complete/incomplete; DELETE removes it and its comments', async () => {
    const t = podioTwin();
    const r = await t.call('PUT', `/task/${T.call}`, { text: 'Call Northwind (renewal)', completed: true, labels: ['Follow-up'] });
    expect(r.body).toMatchObject({ text: 'Call Northwind (renewal)', status: 'completed', completed_on: '2026-01-15 10:00:00', completed_by: { user_id: U.owner.user_id }, labels: [{ label_id: L.followUp }] });
    expect((await t.call('POST', `/task/${T.call}/incomplete`)).status).toBe(204);
    expect((await t.call('GET', `/task/${T.call}`)).body).toMatchObject({ status: 'active', completed_on: null });
    expect((await t.call('POST', `/task/${T.call}/complete`)).body).toEqual({ recurring_task_id: null });
    expect((await t.call('PUT', `/task/${T.call}`, { due_date: null })).body).toMatchObject({ due_on: null, due_date: null });
    expect((await t.call('POST', `/comment/task/${T.call}/`, { value: 'Done and dusted' })).status).toBe(200);
    expect((await t.call('DELETE', `/task/${T.call}`)).status).toBe(204);
    expect((await t.call('GET', `/task/${T.call}`)).status).toBe(404);
    expect([...t.state.comments.values()].some((c) => c.ref.type === 'task' && c.ref.id === T.call)).toBe(false);
  });

  it('comments on tasks: POST and GET /comment/task/{id}/ for those who see the task', async () => {
    const t = podioTwin();
    const added = await t.call('POST', `/comment/task/${T.contract}/`, { value: 'On it' });
    expect((await t.call('GET', `/comment/${added.body.comment_id}`)).body.ref).toEqual({ type: 'task', id: T.contract });
    expect((await t.call('GET', `/comment/task/${T.contract}/`)).body.map((c: any) => c.value)).toEqual(['On it']);
    expect((await t.call('POST', `/comment/task/${T.salary}/`, { value: 'peek' }, member)).status).toBe(403);
    expect((await t.call('GET', `/comment/${added.body.comment_id}`, undefined, SANDBOX_KEYS.member)).status).toBe(200);
    expect((await t.call('GET', '/comment/task/99999/')).status).toBe(404);
  });
});

describe('Podio twin: task lists', () => {
  const ids = (body: any[]) => body.map((x) => x.task_id);

  it("GET /task/ lists the user's own tasks by rank, short form with the reference flattened", async () => {
    const t = podioTwin();
    const r = await t.call('GET', '/task/');
    expect(ids(r.body)).toEqual([40001, 40002, 40003, 40004, 40005, 40007, 40009, 40010]);
    expect(r.body[0]).toMatchObject({ ref_type: 'item', ref_id: deal, ref_title: expect.any(String), ref_app: { app_id: PODIO_DEMO.apps.deals, name: 'Deals' }, ref_link: expect.stringContaining('/apps/deals/items/'), responsible: { user_id: U.owner.user_id, name: U.owner.name } });
    expect(r.body[0]).not.toHaveProperty('ref');
    expect((await t.call('GET', '/task/?view=full&limit=1')).body[0]).toHaveProperty('ref.title');
    expect(ids((await t.call('GET', '/task/?limit=2&offset=1')).body)).toEqual([40002, 40003]);
    expect((await t.call('GET', '/task/?limit=101')).status).toBe(400);
  });

  it('filters: completed, responsible, created_by, date ranges, label, app/space/org, reference, files, reassigned, external_id', async () => {
    const t = podioTwin();
    const q = async (query: string) => ids((await t.call('GET', `/task/?${query}`)).body);
    expect(await q('completed=true')).toEqual([T.invoices]);
    expect(await q(`responsible=${U.ben.user_id}`)).toEqual([T.onboarding]);
    expect(await q(`created_by=user:${U.chloe.user_id}`)).toEqual([40007]);
    expect(await q('due_date=2026-01-15-2026-01-17')).toEqual([T.review, T.call, 40004]);
    expect(await q('due_date=-2025-12-31&completed=false')).toEqual([T.contract]);
    expect(await q('created_on=2025-12-07-')).toEqual([40009, 40010]);
    expect(await q('completed_on=2025-12-19')).toEqual([T.invoices]);
    expect(await q(`label=${L.urgent}`)).toEqual([T.contract]);
    expect(await q(`app=${PODIO_DEMO.apps.deals}`)).toEqual([T.contract, T.call, T.onboarding, T.helios]);
    expect(await q(`space=${PODIO_DEMO.spaces.operations}`)).toEqual([]);
    expect(await q(`org=${PODIO_DEMO.org.org_id}&responsible=${U.owner.user_id}`)).toEqual([T.contract, T.call]);
    expect(await q(`reference=item:${deal};item:${deal + 1}`)).toEqual([T.contract, T.call, T.onboarding]);
    expect(await q('reassigned=true')).toEqual([T.onboarding]);
    expect(await q('files=true')).toEqual([]);
    expect(await q('sort_by=created_on&sort_desc=true&limit=2')).toEqual([T.invoices, T.salary]);
    for (const bad of ['due_date=2026-01', 'reference=item-1', 'responsible=ann', 'grouping=label', 'sort_by=due', 'completed=maybe']) {
      expect((await t.call('GET', `/task/?${bad}`)).status, bad).toBe(400);
    }
  });

  it('grouping=due_date puts each task in its group in the reader\'s timezone, groups in Podio\'s order; other groupings name who or where', async () => {
    const t = podioTwin();
    const r = await t.call('GET', '/task/?grouping=due_date');
    expect(r.body.map((x: any) => [x.task_id, x.group])).toEqual([
      [40001, 'overdue'],
      [40002, 'due_today'],
      [40003, 'due_tomorrow'],
      [40004, 'due_this_week'],
      [40005, 'due_later'],
      [40007, 'no_due_date'],
      [40009, 'no_due_date'],
      [40010, 'completed'],
    ]);
    // Felix's call is due Saturday 08:00 UTC: this week for him too (Berlin).
    expect((await t.call('GET', '/task/?grouping=due_date', undefined, member)).body.map((x: any) => x.group)).toEqual(['due_this_week']);
    const byCreator = await t.call('GET', `/task/?grouping=created_by&responsible=${U.owner.user_id}`);
    expect(byCreator.body.map((x: any) => x.group.name)).toEqual(['Ann Becker', 'Ann Becker', 'Ann Becker', 'Ann Becker', 'Ann Becker', 'Ann Becker', 'Ann Becker', 'Chloé Martin']);
    const byApp = await t.call('GET', '/task/?grouping=app');
    expect(byApp.body[0].group).toEqual({ type: 'app', id: PODIO_DEMO.apps.deals, name: 'Deals' });
    expect(byApp.body.at(-1).group).toEqual({ type: 'none', id: null, name: 'No app' });
  });

  it('GET /task/summary: the open tasks as overdue, today and other, `limit` of each', async () => {
    const t = podioTwin();
    const r = await t.call('GET', '/task/summary?limit=1');
    expect(r.body.overdue).toMatchObject({ total: 1, tasks: [{ task_id: T.contract }] });
    expect(r.body.today).toMatchObject({ total: 1, tasks: [{ task_id: T.review }] });
    expect(r.body.other.total).toBe(5);
    expect(r.body.other.tasks).toHaveLength(1);
  });
});

describe('Podio twin: labels', () => {
  it('labels are personal: GET/POST/PUT/DELETE /task/label/; colour is 6 hex digits; deleting removes it from tasks', async () => {
    const t = podioTwin();
    expect((await t.call('GET', '/task/label/')).body).toEqual([
      { label_id: L.urgent, text: 'Urgent', color: 'D2E4EB' },
      { label_id: L.followUp, text: 'Follow-up', color: 'F7F0C5' },
    ]);
    expect((await t.call('GET', '/task/label/', undefined, member)).body.map((l: any) => l.label_id)).toEqual([L.calls]);
    expect((await t.call('POST', '/task/label/', { text: 'Blue', color: '0000FF' })).body).toEqual({ label_id: 45004 });
    for (const color of ['#0000FF', 'blue', '0000F', undefined]) expect((await t.call('POST', '/task/label/', { text: 'x', color })).status).toBe(400);
    expect((await t.call('PUT', `/task/label/${L.urgent}`, { text: 'Critical' })).status).toBe(204);
    expect((await t.call('PUT', `/task/label/${L.urgent}`, { color: 'red' })).status).toBe(400);
    expect((await t.call('PUT', `/task/label/${L.calls}`, { text: 'Mine' })).status).toBe(404);
    expect((await t.call('GET', `/task/${T.contract}`)).body.labels).toEqual([{ label_id: L.urgent, text: 'Critical', color: 'D2E4EB' }]);
    expect((await t.call('DELETE', `/task/label/${L.urgent}`)).status).toBe(204);
    expect((await t.call('GET', `/task/${T.contract}`)).body.labels).toEqual([]);
    expect((await t.call('DELETE', `/task/label/${L.urgent}`)).status).toBe(404);
  });
});
