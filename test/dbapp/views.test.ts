import { describe, expect, it } from 'vitest';
import type { TapeApp, TapeField } from '../../infra/twins/tape/model';
import { getView as storedView } from '../../infra/twins/tape/routes/view';
import type { TapeState } from '../../infra/twins/tape/state';
import { harness, SANDBOX_KEYS } from '../helpers/harness';

const json = { query: 'format=json' };
const FIELD_KIND: Record<string, string> = {
  single_text: 'text', multi_text: 'text', status: 'status', single_date: 'date', single_user: 'contact', single_attachment: 'file', calculation: 'calculation', number: 'number',
};

function field(field_id: number, label: string, field_type: string, settings: Record<string, unknown> = {}): TapeField {
  return {
    field_id,
    external_id: label.toLowerCase().replace(/\W+/g, '_'),
    label,
    type: FIELD_KIND[field_type] ?? field_type,
    field_type,
    config: { label, description: null, required: false, settings },
  };
}

function addApp(state: TapeState, app_id: number, name: string, fields: TapeField[], workspace_id = 1): TapeApp {
  const app: TapeApp = {
    app_id,
    workspace_id,
    name,
    slug: name.toLowerCase(),
    external_id: name.toLowerCase(),
    item_name: name,
    type: 'database',
    config: { item_name: name, name, description: '' },
    fields,
  };
  state.apps.set(app_id, app);
  return app;
}

/** Tickets (4711, workspace 1: John admin, Zoe member) with the fields of docs/vendors/tape.md#views's examples and a few more; Other (4712) for foreign ids. */
async function setup() {
  const h = await harness({ twin: { credits: 1_000_000 } });
  addApp(h.tape.state, 4711, 'Tickets', [
    field(55201, 'Title', 'single_text'),
    field(55203, 'Status', 'status', { options: [{ id: 9001, text: 'Open', means_completed: false }, { id: 9002, text: 'In progress', means_completed: false }, { id: 9003, text: 'Done', means_completed: true }] }),
    field(55204, 'Due date', 'single_date'),
    field(55207, 'Notes', 'multi_text'),
    field(55208, 'Assignee', 'single_user'),
    field(55210, 'Contract', 'single_attachment'),
    field(55211, 'Score', 'calculation', { return_type: 'number' }),
    field(55212, 'Note', 'single_text'),
    field(55213, 'note', 'single_text'),
    field(55214, 'Votes', 'voting'), // a field type the filter schema does not know
  ]);
  addApp(h.tape.state, 4712, 'Other', [field(66001, 'Name', 'single_text')]);
  return h;
}

/** The body of docs/vendors/tape.md#views's create example, written the tool's way: a label for the status field, types derived. */
const OPEN_TICKETS = {
  app_id: 4711,
  name: 'Open tickets',
  layout: 'table',
  sort_by: 55204,
  filters: [
    { field_label: 'Status', match_type: 'any', values: [{ value: 9001 }, { value: 9002 }] },
    { field_id: 55201, match_type: 'contains', values: [{ value: 'urgent' }] },
  ],
  fields: { '55201': { hidden: false, width: 320 }, '55203': { hidden: false, width: 160 }, '55207': { hidden: true } },
};

const WIRE_FILTERS = [
  { field_id: 55203, field_type: 'status', type: 'status', match_type: 'any', values: [{ value: 9001 }, { value: 9002 }] },
  { field_id: 55201, field_type: 'single_text', type: 'text', match_type: 'contains', values: [{ value: 'urgent' }] },
];

/** A harness with the Tickets app, its default view (500) and "Open tickets" (501). */
async function withView() {
  const h = await setup();
  const created = await h.call('dbapp/createView', OPEN_TICKETS, json);
  expect(created.status).toBe(200);
  return { h, view: created.body.data.view as { view_id: number } & Record<string, unknown> };
}

describe('getAppViews', () => {
  it('lists the previews of an app in text and JSON (automation keys too)', async () => {
    const { h } = await withView();
    const r = await h.call('dbapp/getAppViews', { app_id: 4711 }, json);
    expect(r.body.data).toEqual({
      views: [
        { id: 500, view_id: 500, name: 'All Tickets', app_id: 4711, is_default: true, layout: 'table', private: false },
        { id: 501, view_id: 501, name: 'Open tickets', app_id: 4711, is_default: false, layout: 'table', private: false },
      ],
      total: 2,
    });
    const text = await h.call('dbapp/getAppViews', { app_id: 4711 }, { key: SANDBOX_KEYS.automation });
    expect(text.body.data).toBe("#500 All Tickets · table · default\n#501 Open tickets · table\n2 views — getView for one view's filters, sort and fields");
  });

  it('answers NOT_FOUND for an unknown app', async () => {
    const h = await setup();
    const r = await h.call('dbapp/getAppViews', { app_id: 999 });
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe('NOT_FOUND');
  });
});

describe('getView', () => {
  it('returns the full view of docs/spec.md#dbapp-view (every app field in fields) and a compact text', async () => {
    const { h } = await withView();
    const r = await h.call('dbapp/getView', { view_id: 501 }, json);
    expect(r.body.data).toEqual({
      view: {
        id: 501,
        view_id: 501,
        name: 'Open tickets',
        app_id: 4711,
        is_default: false,
        layout: 'table',
        private: false,
        sort_by: 55204,
        sort_desc: false,
        filters: WIRE_FILTERS,
        fields: {
          '55201': { hidden: false, width: 320 },
          '55203': { hidden: false, width: 160 },
          '55204': { hidden: false },
          '55207': { hidden: true },
          '55208': { hidden: false },
          '55210': { hidden: false },
          '55211': { hidden: false },
          '55212': { hidden: false },
          '55213': { hidden: false },
          '55214': { hidden: false },
        },
        split_by: null,
      },
    });
    expect((await h.call('dbapp/getView', { view_id: 501 })).body.data).toBe(
      '#501 Open tickets · table · app #4711\n' +
        'sort: #55204 asc\n' +
        'filters (all must match): #55203 any 9001, 9002; #55201 contains "urgent"\n' +
        'fields: 9 of 10 visible · hidden #55207 · widths #55201 320px, #55203 160px',
    );
  });

  it('answers an automation key FORBIDDEN saying a user-type key is needed, and an unknown view NOT_FOUND', async () => {
    const { h } = await withView();
    const auto = await h.call('dbapp/getView', { view_id: 501 }, { key: SANDBOX_KEYS.automation });
    expect(auto.status).toBe(403);
    expect(auto.body.error.code).toBe('FORBIDDEN');
    expect(auto.body.error.message).toContain('App views can only be accessed with a user API key');
    expect((await h.call('dbapp/getView', { view_id: 404 })).body.error.code).toBe('NOT_FOUND');
  });
});

describe('createView', () => {
  it('resolves field_label, derives field_type and type, and answers the full view', async () => {
    const h = await setup();
    const r = await h.call('dbapp/createView', { ...OPEN_TICKETS, split_by: { field_id: 55203, limit: 25 } }, json);
    expect(r.status).toBe(200);
    expect(r.body.data.view).toMatchObject({ view_id: 501, name: 'Open tickets', is_default: false, private: false, sort_by: 55204, sort_desc: false, filters: WIRE_FILTERS });
    expect(r.body.data.view.split_by).toEqual({ field_id: 55203, period: null, sorting: 'label_asc', limit: 25 });
    expect(r.body.data.note).toBeUndefined();
    expect(storedView(h.tape.state, 501)?.filters).toEqual(WIRE_FILTERS);
    const text = await h.call('dbapp/createView', { app_id: 4711, name: 'Mine', layout: 'list', filters: [{ field_label: 'assignee', match_type: 'equal', include_active_user: true }] });
    expect(text.body.data).toBe('created view #502 Mine · list · 1 filter in app #4711 — getView for its full definition, listRecords with view_id for its records');
    expect(storedView(h.tape.state, 502)?.filters).toEqual([{ field_id: 55208, field_type: 'single_user', type: 'contact', match_type: 'equal', include_active_user: true }]);
  });

  it('list and board views show only the title field by default', async () => {
    const h = await setup();
    const r = await h.call('dbapp/createView', { app_id: 4711, name: 'Cards', layout: 'board' }, json);
    const visible = Object.entries(r.body.data.view.fields as Record<string, { hidden: boolean }>).filter(([, s]) => !s.hidden).map(([id]) => id);
    expect(visible).toEqual(['55201']);
  });

  it('takes null filters on create as omitted (the protocol drops nulls of optional parameters that take none)', async () => {
    const h = await setup();
    const r = await h.call('dbapp/createView', { app_id: 4711, name: 'No filters', layout: 'table', filters: null }, json);
    expect(r.status).toBe(200);
    expect(r.body.data.view.filters ?? []).toEqual([]);
  });

  it('accepts the date rules: absolute dates, today/yesterday/tomorrow without values', async () => {
    const h = await setup();
    const filters = [
      { field_id: 55204, match_type: 'before', values: [{ value: '2024-01-31 00:00:00' }] },
      { field_id: 55204, match_type: 'on_or_after', relative_date_type: 'exact_date', values: [{ value: { date: '2024-01-01T00:00:00.000Z' } }] },
      { field_id: 55204, match_type: 'equal', relative_date_type: 'tomorrow' },
      { field_id: 55204, match_type: 'not_empty' },
    ];
    const r = await h.call('dbapp/createView', { app_id: 4711, name: 'Dates', layout: 'table', filters }, json);
    expect(r.status).toBe(200);
    expect(r.body.data.view.filters).toHaveLength(4);
    expect(r.body.data.view.filters[2]).toEqual({ field_id: 55204, field_type: 'single_date', type: 'date', match_type: 'equal', relative_date_type: 'tomorrow' });
  });

  it('ignores sort_desc without sort_by and says so in a note', async () => {
    const h = await setup();
    const r = await h.call('dbapp/createView', { app_id: 4711, name: 'V', layout: 'table', sort_desc: true }, json);
    expect(r.status).toBe(200);
    expect(r.body.data.view).toMatchObject({ sort_by: null, sort_desc: false });
    expect(r.body.data.note).toMatch(/sort_desc was ignored/);
    expect((await h.call('dbapp/createView', { app_id: 4711, name: 'V', layout: 'table', sort_desc: true })).body.data).toMatch(/\nsort_desc was ignored/);
  });

  const base = { app_id: 4711, name: 'V', layout: 'table' };
  const text = (extra: Record<string, unknown> = {}) => ({ field_id: 55201, match_type: 'contains', values: [{ value: 'a' }], ...extra });
  const date = (extra: Record<string, unknown> = {}) => ({ field_id: 55204, match_type: 'before', ...extra });
  it.each<[string, Record<string, unknown>, string]>([
    ['a name over 200 characters', { ...base, name: 'x'.repeat(201) }, 'name'],
    ['an unknown layout', { ...base, layout: 'gallery' }, 'layout'],
    ['is_default on create', { ...base, is_default: true }, 'is_default'],
    ['more than 100 filters', { ...base, filters: Array.from({ length: 101 }, () => text()) }, 'filters'],
    ['a metadata filter', { ...base, filters: [{ type: 'created_at', match_type: 'on_or_after', values: [{ value: { date: '2024-01-01 00:00:00' } }] }] }, 'filters.0'],
    ['a created_on meta filter without a field', { ...base, filters: [{ field_type: 'created_on', match_type: 'after', values: [{ value: '2024-01-01 00:00:00' }] }] }, 'filters.0'],
    ['a filter naming no field', { ...base, filters: [{ match_type: 'contains', values: [{ value: 'a' }] }] }, 'filters.0.field_id'],
    ['a field of another app', { ...base, filters: [text({ field_id: 66001 })] }, 'filters.0.field_id'],
    ['an unknown field label', { ...base, filters: [text({ field_id: undefined, field_label: 'Priority' })] }, 'filters.0.field_label'],
    ['an ambiguous field label', { ...base, filters: [text({ field_id: undefined, field_label: 'NOTE ' })] }, 'filters.0.field_label'],
    ['field_id and field_label of different fields', { ...base, filters: [text({ field_label: 'Notes' })] }, 'filters.0.field_label'],
    ['a wrong field_type', { ...base, filters: [text({ field_type: 'multi_text' })] }, 'filters.0.field_type'],
    ['a wrong type', { ...base, filters: [text({ type: 'category' })] }, 'filters.0.type'],
    ['a match_type the field does not support', { ...base, filters: [text(), text({ match_type: 'larger' })] }, 'filters.1.match_type'],
    ['a field type that cannot be filtered', { ...base, filters: [{ field_id: 55214, match_type: 'equal', values: [{ value: 1 }] }] }, 'filters.0.field_id'],
    ['a number as a date', { ...base, filters: [date({ values: [{ value: 20240131 }] })] }, 'filters.0.values.0.value'],
    ['a relative token as a date', { ...base, filters: [date({ values: [{ value: '-7d' }] })] }, 'filters.0.values.0.value'],
    ['a date without time', { ...base, filters: [date({ values: [{ value: '2024-01-31' }] })] }, 'filters.0.values.0.value'],
    ['an impossible date', { ...base, filters: [date({ values: [{ value: '2024-02-30 00:00:00' }] })] }, 'filters.0.values.0.value'],
    ['a relative token in a nested date', { ...base, filters: [date({ values: [{ value: { date: 'now' } }] })] }, 'filters.0.values.0.value.date'],
    ['a relative end_date', { ...base, filters: [date({ match_type: 'within', relative_date_range_type: 'exact_range', values: [{ value: '2024-01-01 00:00:00' }], end_date: '+7d' })] }, 'filters.0.end_date'],
    ['a relative_date_type outside the four', { ...base, filters: [date({ relative_date_type: 'num_days_before' })] }, 'filters.0.relative_date_type'],
    ['exact_date without a date', { ...base, filters: [date({ relative_date_type: 'exact_date' })] }, 'filters.0.values'],
    ['a comparison with no date at all', { ...base, filters: [date()] }, 'filters.0.values'],
    ['relative_date_type on not_empty', { ...base, filters: [date({ match_type: 'not_empty', relative_date_type: 'today' })] }, 'filters.0.relative_date_type'],
    ['relative_date_type on a text field', { ...base, filters: [text(), text(), text({ relative_date_type: 'today' })] }, 'filters.2.relative_date_type'],
    ['include_active_user on a text field', { ...base, filters: [text({ include_active_user: true })] }, 'filters.0.include_active_user'],
    ['include_active_user with not_empty', { ...base, filters: [{ field_id: 55208, match_type: 'not_empty', include_active_user: true }] }, 'filters.0.include_active_user'],
    ['a sort_by of another app', { ...base, sort_by: 66001 }, 'sort_by'],
    ['a fields key that is not an id', { ...base, fields: { Title: { hidden: false } } }, 'fields.Title'],
    ['a fields key of another app', { ...base, fields: { '66001': { hidden: false } } }, 'fields.66001'],
    ['a fields entry without hidden', { ...base, fields: { '55201': { width: 200 } } }, 'fields.55201.hidden'],
    ['a width under 100', { ...base, fields: { '55201': { hidden: false, width: 99 } } }, 'fields.55201.width'],
    ['a width over 1500', { ...base, fields: { '55201': { hidden: false, width: 1501 } } }, 'fields.55201.width'],
    ['a width on a list view', { ...base, layout: 'list', fields: { '55201': { hidden: false, width: 300 } } }, 'fields.55201.width'],
    ['a split_by field that cannot split', { ...base, split_by: { field_id: 55201 } }, 'split_by.field_id'],
    ['a split_by field of another app', { ...base, split_by: { field_id: 66001 } }, 'split_by.field_id'],
    ['a period on a non-date split', { ...base, split_by: { field_id: 55203, period: 'week' } }, 'split_by.period'],
    ['a split_by limit of 0', { ...base, split_by: { field_id: 55203, limit: 0 } }, 'split_by.limit'],
    ['a split_by limit over 100', { ...base, split_by: { field_id: 55203, limit: 101 } }, 'split_by.limit'],
  ])('rejects %s as INVALID_PARAMETER naming %s, before anything is written', async (_what, params, parameter) => {
    const h = await setup();
    const r = await h.call('dbapp/createView', params);
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('INVALID_PARAMETER');
    expect(r.body.error.details.parameter).toBe(parameter);
    expect(r.body.error.details.expected).toBeTruthy();
    expect(r.body.error.details.upstream_status).toBeUndefined();
    expect((await h.call('dbapp/getAppViews', { app_id: 4711 }, json)).body.data.total).toBe(1);
  });

  it('bounds split_by.limit at Tape\'s documented maximum of 100, and says so', async () => {
    const h = await setup();
    const sent = h.recordRequests('dbapp');
    const over = await h.call('dbapp/createView', { ...base, split_by: { field_id: 55203, limit: 500 } });
    expect(over.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'split_by.limit', expected: 'number at most 100' } });
    expect(over.body.error.message).toMatch(/1-100 \(default 100\): Tape documents 100 as the maximum/);
    expect(sent.filter((s) => s.method !== 'GET')).toEqual([]);
    const full = await h.call('dbapp/createView', { ...base, split_by: { field_id: 55203, limit: 100 } }, json);
    expect(full.body.data.view.split_by).toMatchObject({ limit: 100 });
    const byDefault = await h.call('dbapp/createView', { ...base, name: 'Default split', split_by: { field_id: 55203 } }, json);
    expect(byDefault.body.data.view.split_by).toMatchObject({ limit: 100 });
  });

  it('names the expected shape and how to fix it', async () => {
    const h = await setup();
    const r = await h.call('dbapp/createView', { ...base, filters: [date({ values: [{ value: '-7d' }] })] });
    expect(r.body.error.details.expected).toBe('an absolute date "YYYY-MM-DD HH:MM:SS"');
    expect(r.body.error.message).toMatch(/relative_date_type to today, yesterday or tomorrow/);
    const label = await h.call('dbapp/createView', { ...base, filters: [text({ field_id: undefined, field_label: 'Priority' })] });
    expect(label.body.error.message).toContain('55203 "Status" (status)');
    const twice = await h.call('dbapp/createView', { ...base, filters: [text({ field_id: undefined, field_label: 'note' }), text({ field_id: undefined, field_label: 'NOTE' })] });
    expect(twice.body.error).toMatchObject({ details: { parameter: 'filters.1.field_label', expected: 'a label naming one field' } });
    expect(twice.body.error.message).toContain('"NOTE" names 2 fields of app 4711 (ids 55212, 55213)');
    const key = await h.call('dbapp/createView', { ...base, fields: { Title: { hidden: false } } });
    expect(key.body.error.details.expected).toBe('a field id as the key, e.g. "55201"');
  });

  it('answers an automation key FORBIDDEN (Tape 401: the key works, its kind may not manage views), with or without field checks', async () => {
    const h = await setup();
    for (const params of [base, OPEN_TICKETS]) {
      const r = await h.call('dbapp/createView', params, { key: SANDBOX_KEYS.automation });
      expect(r.status).toBe(403);
      expect(r.body.error).toMatchObject({ code: 'FORBIDDEN', details: { upstream_status: 401, upstream_path: expect.stringMatching(/^POST \/v1\/view\/app\/\d+$/) } });
      expect(r.body.error.message).toMatch(/lacks the permission for this operation.*Call again with a user key\.$/);
      expect(r.body.error.message).toMatch(/user-type API key .*with SHARE access to the app/);
      expect(r.body.error.message).not.toMatch(/\/v1\//);
    }
    expect(storedView(h.tape.state, 501)).toBeUndefined();
  });

  it('answers FORBIDDEN to a member without share access', async () => {
    const h = await setup();
    const r = await h.call('dbapp/createView', base, { key: SANDBOX_KEYS.member });
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe('FORBIDDEN');
  });

  it('passes Tape\'s 2000-views limit on as INVALID_PARAMETER', async () => {
    const h = await setup();
    for (let i = 0; i < 1999; i++) {
      const res = await h.tape.fetch('https://api.tapeapp.com/v1/view/app/4711', {
        method: 'POST',
        headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `V${i}`, layout: 'list' }),
      });
      expect(res.status).toBe(201);
    }
    const r = await h.call('dbapp/createView', base);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { upstream_status: 400 } });
    expect(r.body.error.message).toMatch(/2000 views/);
  }, 60_000);
});

describe('updateView', () => {
  it('changes only the keys given; name null keeps the name', async () => {
    const { h, view } = await withView();
    const r = await h.call('dbapp/updateView', { view_id: 501, name: 'Open tickets — EMEA' }, json);
    expect(r.body.data).toEqual({ view: { ...view, name: 'Open tickets — EMEA' } });
    expect((await h.call('dbapp/updateView', { view_id: 501, name: null }, json)).body.data.view.name).toBe('Open tickets — EMEA');
    const text = await h.call('dbapp/updateView', { view_id: 501, name: 'EMEA', sort_by: null });
    expect(text.body.data).toBe('updated view #501 EMEA · table · 2 filters — changed name, sort_by');
  });

  it('replaces filters wholesale; null removes filters, sort, split_by and resets fields', async () => {
    const { h } = await withView();
    const one = await h.call('dbapp/updateView', { view_id: 501, filters: [{ field_label: 'Title', match_type: 'starts_with', values: [{ value: 'EMEA' }] }], split_by: { field_id: 55204 } }, json);
    expect(one.body.data.view.filters).toEqual([{ field_id: 55201, field_type: 'single_text', type: 'text', match_type: 'starts_with', values: [{ value: 'EMEA' }] }]);
    expect(one.body.data.view.split_by).toEqual({ field_id: 55204, period: 'month', sorting: null, limit: 100 });
    const cleared = await h.call('dbapp/updateView', { view_id: 501, filters: null, sort_by: null, split_by: null, fields: null }, json);
    expect(cleared.body.data.view).toMatchObject({ filters: [], sort_by: null, sort_desc: false, split_by: null });
    expect(Object.values(cleared.body.data.view.fields)).toEqual(Array(10).fill({ hidden: false }));
  });

  it('sort_desc alone flips a stored sort; without any sort_by it is ignored with a note', async () => {
    const { h } = await withView();
    const flipped = await h.call('dbapp/updateView', { view_id: 501, sort_desc: true }, json);
    expect(flipped.body.data.view).toMatchObject({ sort_by: 55204, sort_desc: true });
    expect(flipped.body.data.note).toBeUndefined();
    const ignored = await h.call('dbapp/updateView', { view_id: 500, sort_desc: true }, json);
    expect(ignored.status).toBe(200);
    expect(ignored.body.data.view).toMatchObject({ sort_by: null, sort_desc: false });
    expect(ignored.body.data.note).toMatch(/sort_desc was ignored/);
    const cleared = await h.call('dbapp/updateView', { view_id: 501, sort_by: null, sort_desc: true }, json);
    expect(cleared.body.data.note).toMatch(/sort_desc was ignored/);
    const text = await h.call('dbapp/updateView', { view_id: 500, sort_desc: true });
    expect(text.body.data).toBe('updated view #500 All Tickets · table · default — nothing changed\nsort_desc was ignored: the view has no sort_by (records keep the manual order); pass sort_by to sort.');
  });

  it('refuses is_default (use makeViewDefault)', async () => {
    const { h } = await withView();
    const r = await h.call('dbapp/updateView', { view_id: 501, is_default: true });
    expect(r.status).toBe(400);
    expect(r.body.error.details.parameter).toBe('is_default');
    expect(storedView(h.tape.state, 501)?.is_default).toBe(false);
  });

  it('switching layout keeps the table settings; a width is checked against the effective layout', async () => {
    const { h } = await withView();
    const list = await h.call('dbapp/updateView', { view_id: 501, layout: 'list', fields: { '55201': { hidden: false }, '55207': { hidden: false } } }, json);
    expect(list.body.data.view.fields['55207']).toEqual({ hidden: false });
    const width = await h.call('dbapp/updateView', { view_id: 501, fields: { '55201': { hidden: false, width: 300 } } });
    expect(width.body.error.details.parameter).toBe('fields.55201.width');
    const back = await h.call('dbapp/updateView', { view_id: 501, layout: 'table' }, json);
    expect(back.body.data.view.fields['55201']).toEqual({ hidden: false, width: 320 });
    expect(back.body.data.view.fields['55207']).toEqual({ hidden: true });
    const wide = await h.call('dbapp/updateView', { view_id: 501, layout: 'table', fields: { '55201': { hidden: false, width: 600 } } }, json);
    expect(wide.body.data.view.fields['55201']).toEqual({ hidden: false, width: 600 });
  });

  it('checks filters, sort and split_by as createView does, before writing', async () => {
    const { h } = await withView();
    const r = await h.call('dbapp/updateView', { view_id: 501, filters: [{ field_id: 55201, match_type: 'contains', values: [{ value: 'a' }] }, { field_id: 55204, match_type: 'empty', relative_date_type: 'today' }] });
    expect(r.body.error.details.parameter).toBe('filters.1.relative_date_type');
    expect((await h.call('dbapp/updateView', { view_id: 501, sort_by: 66001 })).body.error.details.parameter).toBe('sort_by');
    expect((await h.call('dbapp/updateView', { view_id: 501, split_by: { field_id: 55201 } })).body.error.details.parameter).toBe('split_by.field_id');
    expect(storedView(h.tape.state, 501)?.filters).toEqual(WIRE_FILTERS);
  });

  it('answers an automation key and a member without share access FORBIDDEN', async () => {
    const { h } = await withView();
    expect((await h.call('dbapp/updateView', { view_id: 501, name: 'x' }, { key: SANDBOX_KEYS.automation })).body.error).toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('user-type API key') });
    const zoe = await h.call('dbapp/updateView', { view_id: 501, name: 'x' }, { key: SANDBOX_KEYS.member });
    expect(zoe.status).toBe(403);
    expect(zoe.body.error.code).toBe('FORBIDDEN');
    expect(storedView(h.tape.state, 501)?.name).toBe('Open tickets');
  });
});

describe('makeViewDefault', () => {
  it('promotes the view and demotes the previous default', async () => {
    const { h } = await withView();
    const r = await h.call('dbapp/makeViewDefault', { view_id: 501 }, json);
    expect(r.body.data.view).toMatchObject({ view_id: 501, is_default: true });
    const list = (await h.call('dbapp/getAppViews', { app_id: 4711 }, json)).body.data.views as { id: number; is_default: boolean }[];
    expect(list.map((v) => [v.id, v.is_default])).toEqual([[500, false], [501, true]]);
    expect((await h.call('dbapp/makeViewDefault', { view_id: 501 })).body.data).toBe('view #501 Open tickets · table · default · 2 filters · sort #55204 asc is now the default view of app #4711');
  });

  it('answers an automation key and a member without share access FORBIDDEN', async () => {
    const { h } = await withView();
    expect((await h.call('dbapp/makeViewDefault', { view_id: 501 }, { key: SANDBOX_KEYS.automation })).status).toBe(403);
    expect((await h.call('dbapp/makeViewDefault', { view_id: 501 }, { key: SANDBOX_KEYS.member })).status).toBe(403);
    expect(storedView(h.tape.state, 500)?.is_default).toBe(true);
  });
});

describe('deleteView', () => {
  it('deletes a view for good; the default view cannot be deleted', async () => {
    const { h } = await withView();
    const def = await h.call('dbapp/deleteView', { view_id: 500 });
    expect(def.status).toBe(400);
    expect(def.body.error.code).toBe('INVALID_PARAMETER');
    expect(def.body.error.message).toMatch(/Cannot delete default BlabView/);
    expect((await h.call('dbapp/deleteView', { view_id: 501 }, json)).body.data).toEqual({ view_id: 501 });
    expect((await h.call('dbapp/getView', { view_id: 501 })).body.error.code).toBe('NOT_FOUND');
    const again = await h.call('dbapp/createView', { app_id: 4711, name: 'Tmp', layout: 'list' }, json);
    expect((await h.call('dbapp/deleteView', { view_id: again.body.data.view.view_id })).body.data).toBe(`deleted view #${again.body.data.view.view_id} (records unaffected)`);
  });

  it('answers an automation key and a member without share access FORBIDDEN', async () => {
    const { h } = await withView();
    expect((await h.call('dbapp/deleteView', { view_id: 501 }, { key: SANDBOX_KEYS.automation })).status).toBe(403);
    expect((await h.call('dbapp/deleteView', { view_id: 501 }, { key: SANDBOX_KEYS.member })).status).toBe(403);
    expect(storedView(h.tape.state, 501)).toBeDefined();
  });
});
