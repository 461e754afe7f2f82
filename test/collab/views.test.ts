import { describe, expect, it } from 'vitest';
import { harness } from '../helpers/harness';
import { PODIO_DEMO, SANDBOX_KEYS, type PodioTwin } from '../../infra/twins/podio';
import { dateRangeWords, filterWords } from '../../functions/collab/views/render';

const json = { query: 'format=json' };
const D = PODIO_DEMO;
const F = D.fields;
const O = D.options;
const deals = D.apps.deals;
const writes = (sent: { method: string; path: string }[]) => sent.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);

/** The seeded saved views of Deals: Open pipeline (default), Closing this month, My deals (private). */
async function dealViews(h: Awaited<ReturnType<typeof harness>>) {
  const r = await h.call('collab/getViews', { app_id: deals }, json);
  const [pipeline, closing, mine] = r.body.data;
  return { pipeline, closing, mine };
}

describe('getViews', () => {
  it('lists the saved views with their filters labelled and in words; standard views on request', async () => {
    const h = await harness();
    const r = await h.call('collab/getViews', { app_id: deals }, json);
    expect(r.status).toBe(200);
    expect(r.body.data.map((v: any) => v.name)).toEqual(['Open pipeline', 'Closing this month', 'My deals']);
    expect(r.body.data[0]).toMatchObject({
      type: 'saved', layout: 'table', private: false, sort_by: String(F.deals.amount), sort_label: 'Amount', sort_desc: true, rights: ['view', 'update', 'delete'],
      filters: [{ key: String(F.deals.stage), label: 'Stage', type: 'category', values: [401, 402, 403], humanized_values: [{ value: 401, label: 'Lead' }, { value: 402, label: 'Qualified' }, { value: 403, label: 'Proposal' }] }],
      grouping: { type: 'field', value: F.deals.stage, label: 'Stage' },
      created_by: { user_id: D.users.owner.user_id, name: D.users.owner.name },
    });
    const text = (await h.call('collab/getViews', { app_id: deals })).body.data;
    expect(text).toMatch(/^#\d+ Open pipeline · table · \d+ items · Stage is Lead, Qualified or Proposal · sort Amount desc$/m);
    expect(text).toMatch(/^#\d+ Closing this month · calendar · \d+ items? · Expected close this month · sort Created desc$/m);
    expect(text).toMatch(/^#\d+ My deals · table · \d+ items · private · Created by Me · sort Created desc$/m);
    expect(text).toMatch(/3 views of app #8102 — getView for one in full; include_standard_views adds table, badge and calendar$/);
    const all = await h.call('collab/getViews', { app_id: deals, include_standard_views: true }, json);
    expect(all.body.data.slice(0, 3).map((v: any) => [v.type, v.layout])).toEqual([['standard', 'table'], ['standard', 'badge'], ['standard', 'calendar']]);
    expect((await h.call('collab/getViews', { app_id: deals, include_standard_views: true })).body.data).toMatch(/^#81021 standard table view · 160 items · sort Created desc$/m);
  });

  it('answers NOT_FOUND for an unknown app', async () => {
    const h = await harness();
    expect((await h.call('collab/getViews', { app_id: 424242 })).body.error.code).toBe('NOT_FOUND');
  });
});

describe('getView', () => {
  it('gets a view by id (number or digits), by standard name and by "last"', async () => {
    const h = await harness();
    const { pipeline } = await dealViews(h);
    const byId = await h.call('collab/getView', { app_id: deals, view_id_or_name: pipeline.view_id }, json);
    expect(byId.body.data).toEqual(pipeline);
    expect((await h.call('collab/getView', { app_id: deals, view_id_or_name: String(pipeline.view_id) }, json)).body.data.name).toBe('Open pipeline');
    for (const layout of ['table', 'badge', 'calendar']) {
      expect((await h.call('collab/getView', { app_id: deals, view_id_or_name: layout }, json)).body.data).toMatchObject({ type: 'standard', layout, items: 160, filters: [] });
    }
    // No last view yet: the app's default view answers.
    expect((await h.call('collab/getView', { app_id: deals, view_id_or_name: 'last' }, json)).body.data.name).toBe('Open pipeline');
    expect((await h.call('collab/getView', { app_id: deals, view_id_or_name: 'last' })).body.data).toMatch(/^no last view saved on app #8102 \(updateLastView saves one\); the app opens with:\n#\d+ Open pipeline · table/);
    const text = (await h.call('collab/getView', { app_id: deals, view_id_or_name: pipeline.view_id })).body.data;
    expect(text).toMatch(new RegExp(`^#${pipeline.view_id} Open pipeline · table · \\d+ items · Stage is Lead, Qualified or Proposal · sort Amount desc\\ngrouped by Stage\\nby Ann Becker on \\d{4}-`));
  });

  it('refuses other names before any call, and answers NOT_FOUND for a view of another app', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    const r = await h.call('collab/getView', { app_id: deals, view_id_or_name: 'gallery' });
    expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'view_id_or_name' } });
    expect(sent).toEqual([]);
    const { pipeline } = await dealViews(h);
    expect((await h.call('collab/getView', { app_id: D.apps.companies, view_id_or_name: pipeline.view_id })).body.error.code).toBe('NOT_FOUND');
  });
});

describe('createView', () => {
  it('checks every filter shape of docs/spec.md#collab-view against the app and sends Podio keyed by field id', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    const filters = [
      { key: 'stage', values: ['won', null] },
      { key: F.deals.amount, values: { from: 1000, to: '40000' } },
      { key: 'close-date', values: { from: '-1yr', to: '+0d' } },
      { key: 'weighted-value', values: { from: 100 } },
      { key: 'company', values: [D.items.firstCompany, null] },
      { key: 'owner', values: [5101, 5102] },
      { key: 'probability', values: { from: 10, to: 90 } },
      { key: 'created_by', values: [{ type: 'user', id: 0 }, D.users.ben.user_id] },
      { key: 'last_edit_by', values: [{ type: 'user', id: D.users.chloe.user_id }] },
      { key: 'created_on', values: { from: '2025-01-01', to: '2025-12-31' } },
      { key: 'last_edit_on', values: { from: '-2w' } },
      { key: 'tags', values: 'priority' },
    ];
    const r = await h.call('collab/createView', { app_id: deals, name: 'Everything', filters, sort_by: 'close-date', sort_desc: true, layout: 'calendar', fields: { 'close-date': { use: '_x_axis_' }, [F.deals.notes]: { hidden: true, width: 240, delta_offset: -1 } }, grouping: { type: 'field', value: 'close-date', sub_value: 'week' } }, json);
    expect(r.status).toBe(200);
    const post = sent.find((s) => s.method === 'POST')!;
    expect(post.path).toBe(`/view/app/${deals}/`);
    expect(post.body).toEqual({
      name: 'Everything', private: false, sort_by: String(F.deals.closeDate), sort_desc: true, layout: 'calendar',
      filters: [
        { key: String(F.deals.stage), values: [O.stage.won, null] },
        { key: String(F.deals.amount), values: { from: 1000, to: 40000 } },
        { key: String(F.deals.closeDate), values: { from: '-1yr', to: '+0d' } },
        { key: String(F.deals.weightedValue), values: { from: 100 } },
        { key: String(F.deals.company), values: [D.items.firstCompany, null] },
        { key: String(F.deals.owner), values: [5101, 5102] },
        { key: String(F.deals.probability), values: { from: 10, to: 90 } },
        { key: 'created_by', values: [{ type: 'user', id: 0 }, { type: 'user', id: D.users.ben.user_id }] },
        { key: 'last_edit_by', values: [{ type: 'user', id: D.users.chloe.user_id }] },
        { key: 'created_on', values: { from: '2025-01-01', to: '2025-12-31' } },
        { key: 'last_edit_on', values: { from: '-2w' } },
        { key: 'tags', values: ['priority'] },
      ],
      fields: { [F.deals.closeDate]: { use: '_x_axis_' }, [F.deals.notes]: { hidden: true, width: 240, delta_offset: -1 } },
      grouping: { type: 'field', value: F.deals.closeDate, sub_value: 'week' },
    });
    expect(r.body.data).toMatchObject({ name: 'Everything', type: 'saved', layout: 'calendar', grouping: { type: 'field', value: F.deals.closeDate, sub_value: 'week', label: 'Expected close' } });
    expect(r.body.data.fields[F.deals.notes]).toEqual({ hidden: true, width: 240, delta_offset: -1, label: 'Notes' });
    const text = (await h.call('collab/getView', { app_id: deals, view_id_or_name: r.body.data.view_id })).body.data;
    expect(text.split('\n')[0]).toContain(
      'Stage is Won or no value, Amount between 1000 and 40000, Expected close from start of last year to today, Weighted value at least 100, ' +
        'Company is Northwind Traders or no value, Deal owner is Ann Becker or Ben Okafor, Probability between 10% and 90%, Created by Me or Ben Okafor, ' +
        'Last edited by Chloé Martin, Created from 2025-01-01 to 2025-12-31, Last edited on or after 2 weeks ago, Tagged priority · sort Expected close desc',
    );
    expect(text).toContain('grouped by Expected close (week)\nfields: Expected close on x axis; Notes hidden width 240 moved -1');
  });

  it('accepts relative dates with every unit and rounding, as Podio does', async () => {
    const h = await harness();
    for (const from of ['-7d', '+0d', '-3w', '+2wr', '-1m', '-6mr', '-1y', '+0yr']) {
      const r = await h.call('collab/createView', { app_id: deals, name: from, filters: [{ key: 'close-date', values: { from } }] }, json);
      expect(r.status, from).toBe(200);
      expect(r.body.data.filters[0].values).toEqual({ from });
    }
  });

  const refusals: [string, unknown, string, RegExp][] = [
    ['a text field', [{ key: 'title', values: 'Pilot' }], 'filters.0.key', /text field.*filterItems/],
    ['an unknown option', [{ key: 'stage', values: [999] }], 'filters.0.values.0', /not an option id of "Stage"/],
    ['null where "no value" does not apply', [{ key: 'owner', values: [null] }], 'filters.0.values.0', /null/],
    ['a number instead of a range', [{ key: 'amount', values: 5000 }], 'filters.0.values', /range/],
    ['a range bound that is no number', [{ key: 'amount', values: { from: 'lots' } }], 'filters.0.values.from', /not a number/],
    ['progress above 100', [{ key: 'probability', values: { to: 150 } }], 'filters.0.values.to', /0 to 100/],
    ['a relative date without its sign', [{ key: 'close-date', values: { from: '7d' } }], 'filters.0.values.from', /Give the sign: "-7d"/],
    ['a relative date in hours', [{ key: 'close-date', values: { from: '-7h' } }], 'filters.0.values.from', /neither a date/],
    ['a date range in the wrong order', [{ key: 'close-date', values: { from: '2025-03-01', to: '2025-01-01' } }], 'filters.0.values.to', /lies after/],
    ['a bare date instead of a range', [{ key: 'created_on', values: '2025-01-01' }], 'filters.0.values', /range/],
    ['item ids that are not numbers', [{ key: 'company', values: ['Northwind'] }], 'filters.0.values.0', /item ids/],
    ['profile ids that are not numbers', [{ key: 'owner', values: [{ email: 'a@b.co' }] }], 'filters.0.values.0', /profile ids/],
    ['a created_by entry that is no user', [{ key: 'created_by', values: [{ type: 'space', id: 7101 }] }], 'filters.0.values.0', /"type": "user"/],
    ['created_by not a list', [{ key: 'created_by', values: { type: 'user', id: 0 } }], 'filters.0.values', /"type": "user"/],
    ['a tag that is no string', [{ key: 'tags', values: [7] }], 'filters.0.values.0', /not a tag/],
    ['an unknown key', [{ key: 'colour', values: ['red'] }], 'filters.0.key', /not a field of app 8102/],
    ['a field of another app', [{ key: F.companies.address, values: 'Berlin' }], 'filters.0.key', /not a field of app 8102/],
    ['the same key twice', [{ key: 'stage', values: [401] }, { key: F.deals.stage, values: [402] }], 'filters.1.key', /twice/],
    ['a filter without values', [{ key: 'stage' }], 'filters.0.values', /values/],
  ];
  it.each(refusals)('refuses %s before any call', async (_what, filters, parameter, message) => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    const r = await h.call('collab/createView', { app_id: deals, name: 'x', filters });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter } });
    expect(r.body.error.message).toMatch(message);
    expect(writes(sent)).toEqual([]);
  });

  it('refuses a location field as a filter (no filter exists for it)', async () => {
    const h = await harness();
    const r = await h.call('collab/createView', { app_id: D.apps.companies, name: 'x', filters: [{ key: 'address', values: 'Berlin' }] });
    expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'filters.0.key' } });
    expect(r.body.error.message).toMatch(/location field, which cannot be filtered/);
  });

  const definitionRefusals: [string, Record<string, unknown>, string][] = [
    ['sort by an unknown key', { sort_by: 'colour' }, 'sort_by'],
    ['sort by an image field', { sort_by: F.companies.logo }, 'sort_by'],
    ['settings of an unknown field', { fields: { colour: { hidden: true } } }, 'fields.colour'],
    ['an unknown setting', { fields: { [F.companies.logo]: { colour: 'red' } } }, 'fields.9107.colour'],
    ['grouping by a number field', { grouping: { type: 'field', value: 'employees' } }, 'grouping.value'],
    ['a sub_value on a category grouping', { grouping: { type: 'field', value: 'industry', sub_value: 'month' } }, 'grouping.sub_value'],
    ['a revision grouping by last_edit_by', { grouping: { type: 'revision', value: 'last_edit_by' } }, 'grouping.value'],
  ];
  it.each(definitionRefusals)('refuses %s before any call', async (_what, extra, parameter) => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    const r = await h.call('collab/createView', { app_id: D.apps.companies, name: 'x', ...extra });
    expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter } });
    expect(writes(sent)).toEqual([]);
  });

  it('still answers with the new view_id when reading the view back fails', async () => {
    const h = await harness();
    h.twin<PodioTwin>('collab').faults.inject({ method: 'GET', path: /^\/view\/app\/\d+\/\d+$/, times: 1, fault: { status: 500, body: { error: 'unavailable', error_description: 'Try again' } } });
    const r = await h.call('collab/createView', { app_id: deals, name: 'Won', filters: [{ key: 'stage', values: ['Won'] }] }, json);
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ name: 'Won', type: 'saved', filters: [{ key: String(F.deals.stage), label: 'Stage', values: [O.stage.won] }] });
    // The count is unknown until read back: present as null.
    expect(r.body.data.items).toBeNull();
    expect((await h.call('collab/getView', { app_id: deals, view_id_or_name: r.body.data.view_id }, json)).body.data.name).toBe('Won');
  });

  it('makes a private view the caller sees alone', async () => {
    const h = await harness();
    const r = await h.call('collab/createView', { app_id: deals, name: 'Mine', private: true }, json);
    expect(r.body.data).toMatchObject({ private: true, items: 160 });
    const member = await h.call('collab/getViews', { app_id: deals }, { ...json, key: SANDBOX_KEYS.member });
    expect(member.body.data.map((v: any) => v.name)).not.toContain('Mine');
  });
});

describe('updateView', () => {
  it('replaces the filters and keeps what it is not given', async () => {
    const h = await harness();
    const { pipeline } = await dealViews(h);
    const sent = h.recordRequests('collab');
    const r = await h.call('collab/updateView', { view_id: pipeline.view_id, app_id: deals, filters: [{ key: 'amount', values: { from: 20000 } }] }, json);
    expect(r.body.data).toEqual({ updated: true, view_id: pipeline.view_id });
    expect(sent.find((s) => s.method === 'PUT')!.body).toEqual({ filters: [{ key: String(F.deals.amount), values: { from: 20000 } }] });
    const after = (await h.call('collab/getView', { app_id: deals, view_id_or_name: pipeline.view_id }, json)).body.data;
    expect(after.filters.map((f: any) => f.label)).toEqual(['Amount']);
    expect(after).toMatchObject({ name: 'Open pipeline', sort_by: String(F.deals.amount), sort_desc: true, grouping: { value: F.deals.stage } });
    await h.call('collab/updateView', { view_id: pipeline.view_id, app_id: deals, filters: [], name: 'Everything' });
    expect((await h.call('collab/getView', { app_id: deals, view_id_or_name: pipeline.view_id }, json)).body.data).toMatchObject({ name: 'Everything', filters: [], items: 160 });
    expect((await h.call('collab/updateView', { view_id: pipeline.view_id, app_id: deals, layout: 'badge' })).body.data).toBe(`updated view #${pipeline.view_id} (layout) — getView for the result`);
  });

  it('needs a change, refuses standard views and bad filters, and answers NOT_FOUND / FORBIDDEN as Podio does', async () => {
    const h = await harness();
    const { pipeline } = await dealViews(h);
    const sent = h.recordRequests('collab');
    expect((await h.call('collab/updateView', { view_id: pipeline.view_id, app_id: deals })).body.error).toMatchObject({ code: 'INVALID_PARAMETER' });
    expect((await h.call('collab/updateView', { view_id: pipeline.view_id, app_id: deals, filters: [{ key: 'notes', values: 'x' }] })).body.error.details.parameter).toBe('filters.0.key');
    const std = await h.call('collab/updateView', { view_id: 81021, app_id: deals, layout: 'badge' });
    expect(std.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'view_id' } });
    expect(std.body.error.message).toMatch(/standard table view.*createView/);
    expect((await h.call('collab/updateView', { view_id: pipeline.view_id, app_id: D.apps.companies, layout: 'badge' })).body.error.code).toBe('NOT_FOUND');
    expect(writes(sent)).toEqual([]);
    const member = await h.call('collab/updateView', { view_id: pipeline.view_id, app_id: deals, name: 'Mine now' }, { key: SANDBOX_KEYS.member });
    expect(member.body.error.code).toBe('FORBIDDEN');
  });
});

describe('deleteView', () => {
  it('deletes a saved view for good', async () => {
    const h = await harness();
    const { closing } = await dealViews(h);
    const r = await h.call('collab/deleteView', { view_id: closing.view_id }, json);
    expect(r.body.data).toEqual({ deleted: true, view_id: closing.view_id });
    expect((await h.call('collab/getView', { app_id: deals, view_id_or_name: closing.view_id })).body.error.code).toBe('NOT_FOUND');
    expect((await h.call('collab/deleteView', { view_id: closing.view_id })).body.error.code).toBe('NOT_FOUND');
    expect((await h.call('collab/deleteView', { view_id: 81021 })).body.error.code).toBe('NOT_FOUND');
  });
});

describe('makeViewDefault', () => {
  it('makes a saved view the default: getView "last" then answers it for users without a last view', async () => {
    const h = await harness();
    const { closing } = await dealViews(h);
    const r = await h.call('collab/makeViewDefault', { view_id: closing.view_id }, json);
    expect(r.body.data).toEqual({ default_set: true, view_id: closing.view_id });
    expect(h.twin<PodioTwin>('collab').state.views.defaults.get(deals)).toBe(closing.view_id);
    expect((await h.call('collab/getView', { app_id: deals, view_id_or_name: 'last' }, { ...json, key: SANDBOX_KEYS.member })).body.data.name).toBe('Closing this month');
  });

  it('refuses standard and private views before the call; needs app rights', async () => {
    const h = await harness();
    const { closing, mine } = await dealViews(h);
    const sent = h.recordRequests('collab');
    const std = await h.call('collab/makeViewDefault', { view_id: 81022 });
    expect(std.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'view_id', expected: 'the id of a saved view' } });
    expect(std.body.error.message).toMatch(/standard badge view/);
    const priv = await h.call('collab/makeViewDefault', { view_id: mine.view_id });
    expect(priv.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'view_id' } });
    expect(priv.body.error.message).toMatch(/private/);
    expect(writes(sent)).toEqual([]);
    expect((await h.call('collab/makeViewDefault', { view_id: closing.view_id }, { key: SANDBOX_KEYS.member })).body.error.code).toBe('FORBIDDEN');
    expect((await h.call('collab/makeViewDefault', { view_id: 77777 })).body.error.code).toBe('NOT_FOUND');
  });
});

describe('updateLastView', () => {
  it('saves the last view, which getView "last" reads back', async () => {
    const h = await harness();
    const input = { app_id: deals, filters: [{ key: 'stage', values: ['Won'] }, { key: 'close-date', values: { from: '+0d', to: '+7d' } }], sort_by: 'amount', sort_desc: true, layout: 'badge' as const, fields: { notes: { hidden: true } } };
    const r = await h.call('collab/updateLastView', input, json);
    expect(r.body.data).toEqual({ updated: true, app_id: deals });
    const last = (await h.call('collab/getView', { app_id: deals, view_id_or_name: 'last' }, json)).body.data;
    expect(last).toMatchObject({
      type: 'last', view_id: null, layout: 'badge', sort_by: String(F.deals.amount), sort_desc: true,
      filters: [{ key: String(F.deals.stage), values: [O.stage.won] }, { key: String(F.deals.closeDate), values: { from: '+0d', to: '+7d' } }],
      fields: { [F.deals.notes]: { hidden: true, label: 'Notes' } },
    });
    const text = (await h.call('collab/getView', { app_id: deals, view_id_or_name: 'last' })).body.data;
    expect(text).toMatch(/^your last view · badge · \d+ items? · Stage is Won, Expected close within next 7 days · sort Amount desc\nfields: Notes hidden$/);
    // The member's last view is their own.
    expect((await h.call('collab/getView', { app_id: deals, view_id_or_name: 'last' }, { ...json, key: SANDBOX_KEYS.member })).body.data.name).toBe('Open pipeline');
  });

  it('checks the filters as createView does', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    const r = await h.call('collab/updateLastView', { app_id: deals, filters: [{ key: 'created_on', values: { from: 'yesterday' } }] });
    expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'filters.0.values.from' } });
    expect(writes(sent)).toEqual([]);
  });
});

describe('filters in words', () => {
  const filter = (label: string, type: string, values: unknown, humanized: { value: unknown; label: string }[] = []) => filterWords({ key: '1', label, type, values, humanized_values: humanized });
  it('says a view as the spec shows it: "Status is Open, Due within next 7 days"', () => {
    expect([filter('Status', 'category', [1], [{ value: 1, label: 'Open' }]), filter('Due', 'date', { from: '+0d', to: '+7d' })].join(', ')).toBe('Status is Open, Due within next 7 days');
  });
  it.each([
    [{ from: '-30d', to: '+0d' }, 'within last 30 days'],
    [{ from: '+0d', to: '+1w' }, 'within next week'],
    [{ from: '+0d', to: '+0d' }, 'today'],
    [{ from: '-1mr', to: '-1mr' }, 'last month'],
    [{ from: '+0wr', to: '+0wr' }, 'this week'],
    [{ from: '-1d', to: '+1d' }, 'from yesterday to tomorrow'],
    [{ from: '2025-01-01', to: '2025-01-31' }, 'from 2025-01-01 to 2025-01-31'],
    [{ from: '-2yr' }, 'on or after start of the year 2 years ago'],
    [{ to: '+1mr' }, 'on or before end of next month'],
  ])('%j → %s', (range, words) => {
    expect(dateRangeWords(range)).toBe(words);
  });
  it('ranges, people, tags and ids without labels', () => {
    expect(filter('Effort', 'duration', { from: 5400 })).toBe('Effort at least 1h 30m');
    expect(filter('Amount', 'money', { to: 500 })).toBe('Amount at most 500');
    expect(filter('Created by', 'created_by', [{ type: 'user', id: 0 }, { type: 'user', id: 7 }])).toBe('Created by Me or user 7');
    expect(filter('Tags', 'tags', ['a', 'b'])).toBe('Tagged a or b');
    expect(filter('Deal', 'app', [5, null])).toBe('Deal is #5 or no value');
  });
});
