import { createRequire } from 'node:module';
import { getRequestListener } from '@hono/node-server';
import { describe, expect, it } from 'vitest';
import { createClock } from '../../infra/twins/kit';
import { createPodioTwin, PODIO_DEMO, SANDBOX_KEYS } from '../../infra/twins/podio';
import { loopbackServer } from '../helpers/loopback';
import { resolveRelativeDate } from '../../infra/twins/podio/views';
import { podioError, podioTwin, TEST_NOW } from './podio-call';

const D = PODIO_DEMO;
const F = D.fields;
const deals = D.apps.deals;
const member = SANDBOX_KEYS.member;

/** The deals a filter body selects, counted by the item filter (the engine views run on). */
async function filtered(t: ReturnType<typeof podioTwin>, filters: Record<string, unknown>) {
  return (await t.call('POST', `/item/app/${deals}/filter/`, { filters, limit: 1 })).body.filtered as number;
}

describe('Podio twin: views', () => {
  it('lists the saved views of an app, with the standard ones on request', async () => {
    const t = podioTwin();
    const saved = await t.call('GET', `/view/app/${deals}/`);
    expect(saved.status).toBe(200);
    expect(saved.body.map((v: any) => v.name)).toEqual(['Open pipeline', 'Closing this month', 'My deals']);
    expect(saved.body[0]).toMatchObject({ type: 'saved', layout: 'table', sort_by: String(F.deals.amount), sort_desc: true, private: false, rights: ['view', 'update', 'delete'], created_by: { user_id: D.users.owner.user_id } });
    expect(saved.body[0].filters).toEqual([
      { key: String(F.deals.stage), values: [401, 402, 403], humanized_values: [{ value: 401, label: 'Lead' }, { value: 402, label: 'Qualified' }, { value: 403, label: 'Proposal' }] },
    ]);
    // `items` runs the view's filters.
    expect(saved.body[0].items).toBe(await filtered(t, { [F.deals.stage]: [401, 402, 403] }));
    const all = await t.call('GET', `/view/app/${deals}/?include_standard_views=true`);
    expect(all.body.slice(0, 3).map((v: any) => [v.name, v.type, v.view_id])).toEqual([['table', 'standard', 81021], ['badge', 'standard', 81022], ['calendar', 'standard', 81023]]);
    expect(all.body[0].items).toBe(160);
    // A private view is its creator's only; others see the shared ones without update rights.
    const theirs = await t.call('GET', `/view/app/${deals}/`, undefined, member);
    expect(theirs.body.map((v: any) => v.name)).toEqual(['Open pipeline', 'Closing this month']);
    expect(theirs.body[0].rights).toEqual(['view']);
  });

  it('gets a view by id, by standard name and by `last`', async () => {
    const t = podioTwin();
    const [pipeline] = (await t.call('GET', `/view/app/${deals}/`)).body;
    expect((await t.call('GET', `/view/app/${deals}/${pipeline.view_id}`)).body.name).toBe('Open pipeline');
    expect((await t.call('GET', `/view/${pipeline.view_id}`)).body.name).toBe('Open pipeline');
    expect((await t.call('GET', `/view/app/${deals}/badge`)).body).toMatchObject({ view_id: 81022, type: 'standard', layout: 'badge', items: 160 });
    // No last view yet: the app's default view.
    expect((await t.call('GET', `/view/app/${deals}/last`)).body.name).toBe('Open pipeline');
    expect((await t.call('GET', `/view/app/${D.apps.companies}/last`)).body).toMatchObject({ type: 'standard', layout: 'table' });
    expect((await t.call('GET', `/view/app/${deals}/gallery`)).status).toBe(404);
    expect((await t.call('GET', `/view/app/${D.apps.companies}/${pipeline.view_id}`)).status).toBe(404);
    expect((await t.call('GET', '/view/99999')).body).toEqual(podioError('not_found', 'GET', '/view/99999'));
  });

  it('creates a view: every filter shape of Podio, relative dates, user 0, null for "no value"', async () => {
    const t = podioTwin();
    const filters = [
      { key: String(F.deals.stage), values: [404, null] },
      { key: 'amount', values: { from: 1000, to: 40000 } },
      { key: String(F.deals.closeDate), values: { from: '-2y', to: '+1yr' } },
      { key: String(F.deals.company), values: [D.items.firstCompany, D.items.firstCompany + 1] },
      { key: String(F.deals.owner), values: [5101, 5102, 5106] },
      { key: 'created_by', values: [{ type: 'user', id: 0 }, { type: 'user', id: 1002 }] },
      { key: 'created_on', values: { from: '2024-01-01', to: '+0d' } },
      { key: 'tags', values: ['priority'] },
    ];
    const r = await t.call('POST', `/view/app/${deals}/`, { name: 'Won or unstaged', filters, layout: 'badge', fields: { [F.deals.notes]: { hidden: true, width: 200, delta_offset: 1 } }, grouping: { type: 'revision', value: 'created_on', sub_value: 'month' } });
    expect(r.status).toBe(200);
    const view = (await t.call('GET', `/view/app/${deals}/${r.body.view_id}`)).body;
    expect(view).toMatchObject({ name: 'Won or unstaged', layout: 'badge', grouping: { type: 'revision', value: 'created_on', sub_value: 'month' }, fields: { [F.deals.notes]: { hidden: true, width: 200, delta_offset: 1 } }, created_on: '2026-01-15 10:00:00' });
    // Stored as given: relative dates stay relative.
    expect(view.filters.map((f: any) => [f.key, f.values])).toEqual(filters.map((f) => [f.key === 'amount' ? String(F.deals.amount) : f.key, f.values]));
    expect(view.filters[0].humanized_values).toEqual([{ value: 404, label: 'Won' }, { value: null, label: 'No value' }]);
    expect(view.filters[5].humanized_values).toEqual([{ value: { type: 'user', id: 0 }, label: 'Me' }, { value: { type: 'user', id: 1002 }, label: 'Ben Okafor' }]);
    const expected = await filtered(t, {
      [F.deals.stage]: [404], amount: { from: 1000, to: 40000 }, [F.deals.closeDate]: { from: '2024-01-15', to: '2027-12-31' }, [F.deals.company]: [D.items.firstCompany, D.items.firstCompany + 1],
      [F.deals.owner]: [5101, 5102, 5106], created_by: [1001, 1002], created_on: { from: '2024-01-01', to: '2026-01-15' }, tags: ['priority'],
    });
    expect(view.items).toBe(expected);
  });

  it('null among category ids matches items without a value', async () => {
    const t = podioTwin();
    const none = await t.call('POST', `/view/app/${deals}/`, { name: 'No products', filters: [{ key: String(F.deals.products), values: [null] }] });
    expect((await t.call('GET', `/view/${none.body.view_id}`)).body.items).toBe(0);
    const notes = await t.call('POST', `/view/app/${D.apps.projects}/`, { name: 'Unassigned deal', filters: [{ key: String(F.projects.deal), values: [null] }] });
    expect((await t.call('GET', `/view/${notes.body.view_id}`)).body.items).toBe(0);
    const item = [...t.state.items.values()].find((i) => i.app_id === deals)!;
    item.values.delete(F.deals.products);
    expect((await t.call('GET', `/view/${none.body.view_id}`)).body.items).toBe(1);
  });

  it('refuses what Podio refuses: text filters, bad shapes, unknown keys', async () => {
    const t = podioTwin();
    const bad = async (body: Record<string, unknown>) => (await t.call('POST', `/view/app/${deals}/`, { name: 'x', ...body })).status;
    expect(await bad({ filters: [{ key: String(F.deals.title), values: 'Pilot' }] })).toBe(400);
    expect(await bad({ filters: [{ key: 'amount', values: 5 }] })).toBe(400);
    expect(await bad({ filters: [{ key: String(F.deals.closeDate), values: { from: '-7x' } }] })).toBe(400);
    expect(await bad({ filters: [{ key: '424242', values: [1] }] })).toBe(400);
    expect(await bad({ filters: [{ key: 'stage', values: [401] }, { key: String(F.deals.stage), values: [402] }] })).toBe(400);
    expect(await bad({ layout: 'gallery' })).toBe(400);
    expect(await bad({ sort_by: 'colour' })).toBe(400);
    expect(await bad({ fields: { [F.deals.notes]: { colour: 'red' } } })).toBe(400);
    expect(await bad({ grouping: { type: 'field', value: F.deals.amount } })).toBe(400);
    expect(await bad({ grouping: { type: 'field', value: F.deals.stage, sub_value: 'month' } })).toBe(400);
    expect(await bad({ name: '' })).toBe(400);
    expect(t.state.views.saved.size).toBe(7);
  });

  it('updates a view (filters replaced, other keys kept) and deletes it; creator or admin only', async () => {
    const t = podioTwin();
    const { view_id } = (await t.call('POST', `/view/app/${deals}/`, { name: 'Big', filters: [{ key: 'amount', values: { from: 30000 } }, { key: 'tags', values: ['priority'] }], sort_by: 'title' })).body;
    const put = await t.call('PUT', `/view/${view_id}`, { filters: [{ key: String(F.deals.stage), values: [404] }] });
    expect(put.status).toBe(204);
    const v = (await t.call('GET', `/view/${view_id}`)).body;
    expect(v.filters.map((f: any) => f.key)).toEqual([String(F.deals.stage)]);
    expect(v).toMatchObject({ name: 'Big', sort_by: 'title' });
    expect((await t.call('PUT', `/view/${view_id}`, { filters: [{ key: 'notes', values: 'x' }] })).status).toBe(400);
    const [pipeline] = (await t.call('GET', `/view/app/${deals}/`)).body;
    expect((await t.call('PUT', `/view/${pipeline.view_id}`, { name: 'Mine now' }, member)).status).toBe(403);
    expect((await t.call('PUT', '/view/81021', { name: 'x' })).status).toBe(404);
    expect((await t.call('DELETE', `/view/${view_id}`)).status).toBe(204);
    expect((await t.call('GET', `/view/${view_id}`)).status).toBe(404);
  });

  it('keeps one last view per user and app, replaced on each save', async () => {
    const t = podioTwin();
    const body = { layout: 'calendar', sort_by: String(F.deals.closeDate), sort_desc: false, filters: [{ key: String(F.deals.closeDate), values: { from: '+0d', to: '+7d' } }], fields: { [F.deals.closeDate]: { use: '_x_axis_' } } };
    expect((await t.call('PUT', `/view/app/${deals}/last`, body)).status).toBe(204);
    const last = (await t.call('GET', `/view/app/${deals}/last`)).body;
    expect(last).toMatchObject({ type: 'last', view_id: null, layout: 'calendar', sort_by: String(F.deals.closeDate), sort_desc: false, fields: body.fields });
    expect(last.filters.map((f: any) => f.values)).toEqual([{ from: '+0d', to: '+7d' }]);
    // Another user's last view is their own.
    expect((await t.call('GET', `/view/app/${deals}/last`, undefined, member)).body.name).toBe('Open pipeline');
    await t.call('PUT', `/view/app/${deals}/last`, { layout: 'badge' });
    expect((await t.call('GET', `/view/app/${deals}/last`)).body).toMatchObject({ layout: 'badge', filters: [], sort_by: 'created_on' });
    expect((await t.call('PUT', `/view/app/${deals}/last`, { name: 'x' })).status).toBe(400);
  });

  it('makes a saved view the default: admins only, not standard or private views', async () => {
    const t = podioTwin();
    const [, closing, mine] = (await t.call('GET', `/view/app/${deals}/`)).body;
    expect((await t.call('POST', `/view/${closing.view_id}/default`)).status).toBe(204);
    expect(t.state.views.defaults.get(deals)).toBe(closing.view_id);
    expect((await t.call('GET', `/view/app/${deals}/last`, undefined, member)).body.name).toBe('Closing this month');
    expect((await t.call('POST', '/view/81021/default')).status).toBe(400);
    expect((await t.call('POST', `/view/${mine.view_id}/default`)).status).toBe(400);
    expect((await t.call('POST', `/view/${closing.view_id}/default`, undefined, member)).status).toBe(403);
    expect((await t.call('POST', '/view/77777/default')).status).toBe(404);
  });
});

// The official client as judge (as in podio-js.test.ts): views through podio-js 1.6.1 on a loopback socket.
const { api: PodioJS } = createRequire(import.meta.url)('podio-js') as { api: new (auth: object, options?: object) => any };
const judged = createPodioTwin({ clock: createClock(TEST_NOW) });
const judgeBase = loopbackServer(getRequestListener(judged.app.fetch));

describe('podio-js 1.6.1 on views', () => {
  it('creates, lists (query flags), updates (204), reads last and deletes a view', async () => {
    const podio = new PodioJS({ authType: 'password', clientId: 'sandbox-client', clientSecret: 'sandbox-secret' }, { apiURL: judgeBase() });
    await new Promise<void>((resolve, reject) => podio.authenticateWithCredentials(D.logins.owner, D.password, (err: unknown) => (err ? reject(err) : resolve())));
    const { view_id } = await podio.request('POST', `/view/app/${deals}/`, { name: 'Judged', filters: [{ key: String(F.deals.stage), values: [404] }] });
    expect(view_id).toBeGreaterThan(20000);
    const listed = await podio.request('GET', `/view/app/${deals}/`, { include_standard_views: true });
    expect(listed.map((v: any) => v.name)).toEqual(['table', 'badge', 'calendar', 'Open pipeline', 'Closing this month', 'My deals', 'Judged']);
    await podio.request('PUT', `/view/${view_id}`, { sort_by: 'title' });
    await podio.request('PUT', `/view/app/${deals}/last`, { layout: 'badge' });
    expect((await podio.request('GET', `/view/app/${deals}/last`)).layout).toBe('badge');
    await podio.request('DELETE', `/view/${view_id}`);
    await expect(podio.request('GET', `/view/${view_id}`)).rejects.toMatchObject({ status: 404 });
  });
});

describe('relative dates', () => {
  // TEST_NOW is Thursday 2026-01-15.
  it.each([
    ['+0d', false, '2026-01-15'], ['-7d', false, '2026-01-08'], ['+2w', false, '2026-01-29'], ['-1m', false, '2025-12-15'], ['+1y', false, '2027-01-15'],
    ['+0wr', false, '2026-01-12'], ['+0wr', true, '2026-01-18'], ['-1mr', false, '2025-12-01'], ['-1mr', true, '2025-12-31'], ['+0yr', true, '2026-12-31'], ['+0dr', true, '2026-01-15'],
  ])('%s (end %s) → %s', (token, end, day) => {
    expect(resolveRelativeDate(token, TEST_NOW, end)).toBe(day);
  });
  it('clamps month arithmetic to the month end and refuses other tokens', () => {
    expect(resolveRelativeDate('+1m', Date.parse('2026-01-31T08:00:00Z'), false)).toBe('2026-02-28');
    expect(resolveRelativeDate('7d', TEST_NOW, false)).toBeUndefined();
    expect(resolveRelativeDate('-7h', TEST_NOW, false)).toBeUndefined();
  });
});
