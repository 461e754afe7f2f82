import { describe, expect, it } from 'vitest';
import { createTapeTwin, SANDBOX_KEYS } from '../../infra/twins/tape';
import type { TapeApp, TapeField } from '../../infra/twins/tape/model';
import { getView } from '../../infra/twins/tape/routes/view';
import type { TapeState } from '../../infra/twins/tape/state';

const FILTER_KIND: Record<string, string> = {
  single_text: 'text', multi_text: 'text', status: 'status', single_category: 'category', single_date: 'date', range_date: 'date',
  single_user: 'user', number: 'number', single_attachment: 'file', calculation: 'calculation', checklist: 'checklist', single_relation: 'app',
};

function field(field_id: number, label: string, field_type: string, settings: Record<string, unknown> = {}): TapeField {
  return {
    field_id,
    external_id: label.toLowerCase().replace(/\W+/g, '_'),
    label,
    type: FILTER_KIND[field_type] ?? field_type,
    field_type,
    config: { label, description: null, required: false, settings },
  };
}

/** Puts an app straight into the twin's state (the app routes are another module's). */
function addApp(state: TapeState, app_id: number, fields: TapeField[], workspace_id = 1, name = 'Tickets'): TapeApp {
  const app: TapeApp = {
    app_id,
    workspace_id,
    name,
    slug: name.toLowerCase(),
    external_id: name.toLowerCase(),
    item_name: 'Ticket',
    type: 'database',
    config: { item_name: 'Ticket', name, description: '' },
    fields,
  };
  state.apps.set(app_id, app);
  return app;
}

const STATUS_OPTIONS = { options: [{ id: 9001, text: 'Open', means_completed: false }, { id: 9002, text: 'In progress', means_completed: false }, { id: 9003, text: 'Done', means_completed: true }] };

/** The Tickets app of docs/vendors/tape.md#views's examples: exactly the four fields its detail example shows. */
function ticketsApp(state: TapeState) {
  return addApp(state, 4711, [
    field(55201, 'Title', 'single_text'),
    field(55203, 'Status', 'status', STATUS_OPTIONS),
    field(55204, 'Due date', 'single_date'),
    field(55207, 'Notes', 'multi_text'),
  ]);
}

/** A second app with the other field types the rules talk about. */
function richApp(state: TapeState) {
  return addApp(
    state,
    4712,
    [
      field(66001, 'Name', 'single_text'),
      field(66002, 'Owner', 'single_user'),
      field(66003, 'Due', 'single_date'),
      field(66004, 'Amount', 'number'),
      field(66005, 'Kind', 'single_category', { options: [{ id: 1, text: 'A' }, { id: 2, text: 'B' }] }),
      field(66006, 'Contract', 'single_attachment'),
      field(66007, 'Score', 'calculation', { return_type: 'number' }),
      field(66008, 'Next call', 'calculation', { return_type: 'date' }),
      field(66009, 'Status', 'status', STATUS_OPTIONS),
    ],
    1,
    'Deals',
  );
}

function twin(opts: Parameters<typeof createTapeTwin>[0] = {}) {
  const t = createTapeTwin(opts);
  const call = async (method: string, path: string, body?: unknown, key: string = SANDBOX_KEYS.owner) => {
    const res = await t.fetch(`https://api.tapeapp.com${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as any };
  };
  return { ...t, call };
}

/** docs/vendors/tape.md#views: the request body of the example. */
const CREATE_EXAMPLE = {
  name: 'Open tickets',
  layout: 'table',
  sort_by: 55204,
  sort_desc: false,
  filters: [{ field_id: 55203, field_type: 'status', type: 'status', match_type: 'any', values: [{ value: 9001 }, { value: 9002 }] }],
  fields: { '55201': { hidden: false, width: 320 }, '55203': { hidden: false, width: 160 }, '55207': { hidden: true } },
  split_by: { field_id: 55203, sorting: 'label_asc', limit: 25 },
};

/** docs/vendors/tape.md#views: the response of the example. */
const DETAIL_EXAMPLE = {
  view: {
    id: 88123,
    view_id: 88123,
    name: 'Open tickets',
    app_id: 4711,
    is_default: false,
    layout: 'table',
    private: false,
    sort_by: 55204,
    sort_desc: false,
    filters: [
      { field_id: 55203, field_type: 'status', type: 'status', match_type: 'any', values: [{ value: 9001 }, { value: 9002 }] },
      { field_id: 55201, field_type: 'single_text', type: 'text', match_type: 'contains', values: [{ value: 'urgent' }] },
    ],
    fields: {
      '55201': { hidden: false, width: 320 },
      '55203': { hidden: false, width: 160 },
      '55204': { hidden: false },
      '55207': { hidden: true },
    },
    split_by: null,
    show_progress: 'none',
    table: { row_height: 'medium', wrap_cells: false },
    board: null,
  },
};

/** A twin holding app 4711 whose default view is 88122, so the example view gets id 88123. */
async function withExampleView() {
  const t = twin();
  ticketsApp(t.state);
  t.state.nextId.view = 88122;
  const created = await t.call('POST', '/v1/view/app/4711', CREATE_EXAMPLE);
  return { t, created };
}

describe('Tape twin: the examples of view.md and app.md', () => {
  it('GET /v1/app/{id}/views lists previews (app.md "Retrieve views for an app")', async () => {
    const t = twin();
    addApp(t.state, 1, [field(1, 'Title', 'single_text'), field(2, 'Done', 'status', STATUS_OPTIONS)]);
    // The app's default view (500) exists from the start; "Completed Tasks" becomes 501.
    expect((await t.call('POST', '/v1/view/app/1', { name: 'Completed Tasks', layout: 'table' })).status).toBe(201);
    expect((await t.call('PUT', '/v1/view/500', { name: 'Open Tasks', layout: 'list' })).status).toBe(200);
    const r = await t.call('GET', '/v1/app/1/views');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      views: [
        { id: 500, view_id: 500, name: 'Open Tasks', app_id: 1, is_default: true, layout: 'list', private: false },
        { id: 501, view_id: 501, name: 'Completed Tasks', app_id: 1, is_default: false, layout: 'table', private: false },
      ],
      total: 2,
    });
    expect(r.headers.get('X-Retry-Cost')).toBe('50');
  });

  it('POST /v1/view/app/{app_id} answers 201 with the detail of the created view', async () => {
    const { created } = await withExampleView();
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      view: {
        ...DETAIL_EXAMPLE.view,
        filters: [DETAIL_EXAMPLE.view.filters[0]],
        split_by: { field_id: 55203, period: null, sorting: 'label_asc', limit: 25 },
      },
    });
    expect(created.headers.get('X-Retry-Cost')).toBe('50');
  });

  it('GET /v1/view/{id} reproduces the detail example, and the body can be PUT back verbatim', async () => {
    const { t } = await withExampleView();
    const filters = [...DETAIL_EXAMPLE.view.filters];
    await t.call('PUT', '/v1/view/88123', { filters, split_by: null });
    const r = await t.call('GET', '/v1/view/88123');
    expect(r.body).toEqual(DETAIL_EXAMPLE);
    expect(r.headers.get('X-Retry-Cost')).toBe('20');
    const again = await t.call('PUT', '/v1/view/88123', r.body.view);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(DETAIL_EXAMPLE);
  });

  it('PUT: rename only keeps everything else', async () => {
    const { t, created } = await withExampleView();
    const r = await t.call('PUT', '/v1/view/88123', { name: 'Open tickets — EMEA' });
    expect(r.body.view).toEqual({ ...created.body.view, name: 'Open tickets — EMEA' });
  });

  it('PUT: replace the filters and clear the sort', async () => {
    const { t } = await withExampleView();
    const filters = [{ field_id: 55201, field_type: 'single_text', type: 'text', match_type: 'starts_with', values: [{ value: 'EMEA' }] }];
    const r = await t.call('PUT', '/v1/view/88123', { filters, sort_by: null });
    expect(r.body.view).toMatchObject({ filters, sort_by: null, sort_desc: false });
  });

  it('PUT: switching layout writes fields to the new layout and keeps the table settings', async () => {
    const { t } = await withExampleView();
    const list = await t.call('PUT', '/v1/view/88123', { layout: 'list', fields: { '55201': { hidden: false }, '55203': { hidden: false }, '55207': { hidden: true } } });
    expect(list.body.view).toMatchObject({ layout: 'list', table: null, board: null });
    // Every field is reported; 55204 has no list setting: hidden, as list views show only the title field by default.
    expect(list.body.view.fields).toEqual({ '55201': { hidden: false }, '55203': { hidden: false }, '55204': { hidden: true }, '55207': { hidden: true } });
    const back = await t.call('PUT', '/v1/view/88123', { layout: 'table' });
    expect(back.body.view.fields).toEqual(DETAIL_EXAMPLE.view.fields);
    expect(back.body.view.table).toEqual({ row_height: 'medium', wrap_cells: false });
  });

  it('POST /v1/view/{id}/default promotes and demotes the previous default; promoting again is a no-op', async () => {
    const { t } = await withExampleView();
    const r = await t.call('POST', '/v1/view/88123/default');
    expect(r.status).toBe(200);
    expect(r.body.view.is_default).toBe(true);
    const list = (await t.call('GET', '/v1/app/4711/views')).body.views as { id: number; is_default: boolean }[];
    expect(list.filter((v) => v.is_default).map((v) => v.id)).toEqual([88123]);
    expect((await t.call('POST', '/v1/view/88123/default')).status).toBe(200);
  });

  it('DELETE /v1/view/{id} answers {view_id}; the view is then 404 everywhere; the default view cannot be deleted', async () => {
    const { t } = await withExampleView();
    const def = await t.call('DELETE', '/v1/view/88122');
    expect(def.status).toBe(400);
    expect(def.body).toMatchObject({ status_code: 400, endpoint: '/v1/view/88122', error_code: 'validation_error' });
    expect(def.body.error_message).toMatch(/^Cannot delete default BlabView/);
    const r = await t.call('DELETE', '/v1/view/88123');
    expect(r.body).toEqual({ view_id: 88123 });
    for (const [m, p] of [['GET', '/v1/view/88123'], ['PUT', '/v1/view/88123'], ['POST', '/v1/view/88123/default'], ['DELETE', '/v1/view/88123']] as const) {
      const again = await t.call(m, p, m === 'PUT' ? { name: 'x' } : undefined);
      expect(again.status, `${m} ${p}`).toBe(404);
      expect(again.body).toEqual({ status_code: 404, endpoint: p, error_code: 'not_found', error_message: 'View does not exist(88123)!' });
    }
    expect(getView(t.state, 88123)).toBeUndefined();
    expect(getView(t.state, 88122)?.is_default).toBe(true);
  });
});

describe('Tape twin views: keys and permissions', () => {
  it('answers an automation key 401 on the five /v1/view endpoints and serves it the list', async () => {
    const { t } = await withExampleView();
    const auto = SANDBOX_KEYS.automation;
    for (const [m, p, body] of [
      ['GET', '/v1/view/88123'],
      ['PUT', '/v1/view/88123', { name: 'x' }],
      ['POST', '/v1/view/app/4711', { name: 'x', layout: 'table' }],
      ['POST', '/v1/view/88123/default'],
      ['DELETE', '/v1/view/88123'],
    ] as const) {
      const r = await t.call(m, p, body, auto);
      expect(r.status, `${m} ${p}`).toBe(401);
      expect(r.body).toEqual({ status_code: 401, endpoint: p, error_code: 'unauthorized', error_message: 'App views can only be accessed with a user API key.' });
    }
    expect((await t.call('GET', '/v1/app/4711/views', undefined, auto)).status).toBe(200);
  });

  it('lets a member without share access read but not write (403); the owner and workspace admins may write', async () => {
    const { t } = await withExampleView();
    const zoe = SANDBOX_KEYS.member; // member (not admin) of workspace 1
    expect((await t.call('GET', '/v1/view/88123', undefined, zoe)).status).toBe(200);
    for (const [m, p, body] of [
      ['PUT', '/v1/view/88123', { name: 'x' }],
      ['POST', '/v1/view/app/4711', { name: 'x', layout: 'table' }],
      ['POST', '/v1/view/88123/default'],
      ['DELETE', '/v1/view/88123'],
    ] as const) {
      const r = await t.call(m, p, body, zoe);
      expect(r.status, `${m} ${p}`).toBe(403);
      expect(r.body.error_code).toBe('restricted_resource');
    }
    t.state.members.get(1)!.set(10001, 'admin');
    expect((await t.call('PUT', '/v1/view/88123', { name: 'x' }, zoe)).status).toBe(200);
  });

  it('hides apps of a private workspace and other users\' private views (404, one message shape)', async () => {
    const { t } = await withExampleView();
    t.state.workspaces.get(1)!.type = 'private';
    t.state.members.get(1)!.delete(10001);
    const zoe = SANDBOX_KEYS.member;
    expect((await t.call('GET', '/v1/view/88123', undefined, zoe)).body.error_message).toBe('View does not exist(88123)!');
    const create = await t.call('POST', '/v1/view/app/4711', { name: 'x', layout: 'table' }, zoe);
    expect(create.status).toBe(404);
    expect(create.body.error_message).toBe('App does not exist(4711)!');
    expect((await t.call('GET', '/v1/app/4711/views', undefined, zoe)).status).toBe(404);

    // A private view of John's: his to read, invisible to others and never listed.
    const mine = getView(t.state, 88123)!;
    mine.private = true;
    mine.owner_id = 10000;
    expect((await t.call('GET', '/v1/view/88123')).body.view.private).toBe(true);
    expect((await t.call('GET', '/v1/app/4711/views')).body.views.map((v: { id: number }) => v.id)).toEqual([88122]);
    mine.owner_id = 10001;
    expect((await t.call('GET', '/v1/view/88123')).status).toBe(404);
  });

  it('answers an unknown app 404 on create', async () => {
    const t = twin();
    const r = await t.call('POST', '/v1/view/app/999', { name: 'x', layout: 'table' });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ status_code: 404, endpoint: '/v1/view/app/999', error_code: 'not_found', error_message: 'App does not exist(999)!' });
  });
});

describe('Tape twin views: the rules of the create and update bodies', () => {
  /** Bodies naming fields 660xx go to the Deals app (4712), others to the Tickets app (4711). */
  const appFor = (body: unknown) => (JSON.stringify(body).includes('660') ? 4712 : 4711);
  async function create(body: Record<string, unknown>, appId = appFor(body)) {
    const t = twin();
    ticketsApp(t.state);
    richApp(t.state);
    return { t, r: await t.call('POST', `/v1/view/app/${appId}`, body) };
  }

  const base = { name: 'V', layout: 'table' };
  const BOARD = { group_by_field_id: null, card_preview_field_id: null, card_size: 'medium', large_text: false, hide_empty_columns: false, color_columns: false, fit_preview_image: false };
  const text = (extra: Record<string, unknown> = {}) => ({ field_id: 55201, field_type: 'single_text', type: 'text', match_type: 'contains', values: [{ value: 'a' }], ...extra });
  const date = (extra: Record<string, unknown> = {}) => ({ field_id: 66003, field_type: 'single_date', type: 'date', match_type: 'before', ...extra });
  const user = (extra: Record<string, unknown> = {}) => ({ field_id: 66002, field_type: 'single_user', type: 'contact', match_type: 'equal', ...extra });

  it.each<[string, Record<string, unknown>, RegExp, number?]>([
    ['a missing name', { layout: 'table' }, /"name" is required/],
    ['a missing layout', { name: 'V' }, /"layout" is required/],
    ['a name over 200 characters', { name: 'x'.repeat(201), layout: 'table' }, /at most 200/],
    ['an unknown layout', { name: 'V', layout: 'gallery' }, /"layout" must be one of/],
    ['null for a key on create', { ...base, filters: null }, /must not be null/],
    ['an unknown key', { ...base, colour: 'red' }, /Unknown key 'colour'/],
    ['a read-only key on create', { ...base, is_default: true }, /Unknown key 'is_default'/],
    ['more than 100 filters', { ...base, filters: Array.from({ length: 101 }, () => text()) }, /at most 100 filters/],
    ['a metadata filter', { ...base, filters: [{ type: 'created_at', match_type: 'on_or_after', values: [{ value: { date: '2026-07-01T00:00:00.000Z' } }] }] }, /view filters accept field filters only/],
    ['a filter on a foreign field', { ...base, filters: [text({ field_id: 66001 })] }, /field 66001 is not a field of app 4711/, 4711],
    ['a filter without type', { ...base, filters: [text({ type: undefined })] }, /"type" is required/],
    ['a filter without field_type', { ...base, filters: [text({ field_type: undefined })] }, /"field_type" is required for view filters/],
    ['a match_type the field type does not support', { ...base, filters: [text({ match_type: 'larger' })] }, /match_type "larger" is not supported for single_text/],
    ['a relative token as a date', { ...base, filters: [date({ values: [{ value: '-7d' }] })] }, /"-7d" is not a valid ISO-8601 date/],
    ['a relative_date_type outside the four', { ...base, filters: [date({ relative_date_type: 'num_days_before', values: [{ value: { offset_amount: 7 } }] })] }, /"relative_date_type" must be one of .* in a view filter/],
    ['exact_date without a date', { ...base, filters: [date({ relative_date_type: 'exact_date' })] }, /needs a date/],
    ['relative_date_type on not_empty', { ...base, filters: [date({ match_type: 'not_empty', relative_date_type: 'today' })] }, /must be omitted/],
    ['relative_date_type on a text filter', { ...base, filters: [text({ relative_date_type: 'today' })] }, /operand key "relative_date_type" is not accepted for single_text/],
    ['include_active_user on a text filter', { ...base, filters: [text({ include_active_user: true })] }, /operand key "include_active_user" is not accepted for single_text/],
    ['include_active_user with not_empty', { ...base, filters: [user({ match_type: 'not_empty', include_active_user: true })] }, /cannot be combined/],
    ['an unknown status label', { ...base, filters: [{ field_id: 55203, field_type: 'status', type: 'status', match_type: 'any', values: [{ value: 'Nope' }] }] }, /no option is labelled "Nope"/],
    ['a sort_by of another app', { ...base, sort_by: 66001 }, /does not belong/, 4711],
    ['a fields key that is not an id', { ...base, fields: { title: { hidden: false } } }, /plain non-negative integers/],
    ['a fields entry without hidden', { ...base, fields: { '55201': { width: 200 } } }, /hidden is required/],
    ['a width under 100 on a table', { ...base, fields: { '55201': { hidden: false, width: 99 } } }, /between 100 and 1500/],
    ['a width over 1500 on a table', { ...base, fields: { '55201': { hidden: false, width: 1501 } } }, /between 100 and 1500/],
    ['a split_by without field_id', { ...base, split_by: { limit: 5 } }, /field_id is required/],
    ['a split_by field type that cannot split', { ...base, split_by: { field_id: 55201 } }, /Invalid split_by field: a field of type 'single_text' cannot be split by/],
    ['a period on a non-date split', { ...base, split_by: { field_id: 55203, period: 'week' } }, /only valid for date fields/],
    ['a split_by limit of 0', { ...base, split_by: { field_id: 55203, limit: 0 } }, /from 1 to 100/],
    ['a split_by limit over 100', { ...base, split_by: { field_id: 55203, limit: 101 } }, /from 1 to 100/],
    ['an unknown sorting', { ...base, split_by: { field_id: 55203, sorting: 'random' } }, /sorting must be one of/],
    ['a table config on a list view', { name: 'V', layout: 'list', table: { row_height: 'short', wrap_cells: true } }, /'table' settings are only valid on a 'table' view/],
    ['a board config on a table view', { ...base, board: { group_by_field_id: null } }, /'board' settings are only valid on a 'board' view/],
    ['a board config missing keys', { name: 'V', layout: 'board', board: { group_by_field_id: null } }, /board.card_preview_field_id is required/],
    ['an unknown show_progress', { ...base, show_progress: 'some' }, /show_progress/],
    ['a name that is not a string', { ...base, name: 5 }, /"name" must be a string/],
    ['filters that are not an array', { ...base, filters: {} }, /"filters" must be an array/],
    ['a sort_by that is not a number', { ...base, sort_by: '55201' }, /"sort_by" must be a field id/],
    ['a sort_desc that is not a boolean', { ...base, sort_desc: 'yes' }, /"sort_desc" must be a boolean/],
    ['fields that are not an object', { ...base, fields: [] }, /"fields" must be an object/],
    ['a fields entry that is not an object', { ...base, fields: { '55201': true } }, /must be an object \{"hidden"/],
    ['an unknown key in a fields entry', { ...base, fields: { '55201': { hidden: false, color: 'red' } } }, /unknown key 'color'/],
    ['a split_by that is not an object', { ...base, split_by: 55203 }, /"split_by" must be an object/],
    ['an unknown key in split_by', { ...base, split_by: { field_id: 55203, order: 'asc' } }, /split_by: unknown key 'order'/],
    ['a split_by field_id that is not a number', { ...base, split_by: { field_id: 'Status' } }, /split_by.field_id must be a field id/],
    ['an unknown period', { ...base, split_by: { field_id: 55204, period: 'hour' } }, /split_by.period must be one of/],
    ['a table config that is not an object', { ...base, table: 'tall' }, /"table" must be an object/],
    ['an unknown key in the table config', { ...base, table: { row_height: 'tall', wrap_cells: true, zebra: true } }, /table: unknown key 'zebra'/],
    ['an unknown row_height', { ...base, table: { row_height: 'huge', wrap_cells: true } }, /table.row_height must be one of/],
    ['a table config without wrap_cells', { ...base, table: { row_height: 'tall' } }, /table.wrap_cells is required/],
    ['a board config that is not an object', { name: 'V', layout: 'board', board: 'x' }, /"board" must be an object/],
    ['an unknown key in the board config', { name: 'V', layout: 'board', board: { ...BOARD, lanes: [] } }, /board: unknown key 'lanes'/],
    ['an unknown card_size', { name: 'V', layout: 'board', board: { ...BOARD, card_size: 'huge' } }, /board.card_size must be one of/],
    ['a board flag that is not a boolean', { name: 'V', layout: 'board', board: { ...BOARD, large_text: 'no' } }, /board.large_text must be a boolean/],
  ])('rejects %s with 400 validation_error', async (_what, body, message, app) => {
    const appId = app ?? appFor(body);
    const { t, r } = await create(body, appId);
    expect(r.status).toBe(400);
    expect(r.body.error_code).toBe('validation_error');
    expect(r.body.error_message).toMatch(message);
    expect((await t.call('GET', `/v1/app/${appId}/views`)).body.total).toBe(1); // nothing but the default view
  });

  it('rejects board group_by and card_preview fields of the wrong type', async () => {
    const board = { group_by_field_id: 66009, card_preview_field_id: 66006, card_size: 'medium', large_text: false, hide_empty_columns: true, color_columns: true, fit_preview_image: false };
    const ok = await create({ name: 'B', layout: 'board', board });
    expect(ok.r.status).toBe(201);
    expect(ok.r.body.view).toMatchObject({ layout: 'board', board, table: null });
    const group = await create({ name: 'B', layout: 'board', board: { ...board, group_by_field_id: 66001 } });
    expect(group.r.body.error_message).toBe("Invalid board group_by field: a field of type 'single_text' cannot group a board");
    const preview = await create({ name: 'B', layout: 'board', board: { ...board, card_preview_field_id: 66001 } });
    expect(preview.r.body.error_message).toBe("Invalid board card_preview field: a field of type 'single_text' cannot be a card preview");
  });

  it('accepts the allowed date and user filters and normalises operands (labels to ids, dates nested)', async () => {
    const filters = [
      date({ relative_date_type: 'exact_date', values: [{ value: '2024-01-31 00:00:00' }] }),
      date({ match_type: 'after', relative_date_type: 'today' }),
      date({ match_type: 'empty' }),
      user({ include_active_user: true }),
      { field_id: 66009, field_type: 'status', type: 'status', match_type: 'any', values: [{ value: 'done' }, { value: 9001 }] },
      { field_id: 66008, field_type: 'calculation', type: 'calculation', match_type: 'on_or_after', values: [{ value: { date: '2024-02-01T00:00:00.000Z' } }] },
    ];
    const { r } = await create({ name: 'Mine', layout: 'table', filters });
    expect(r.status).toBe(201);
    expect(r.body.view.filters).toEqual([
      { ...filters[0], values: [{ value: { date: '2024-01-31 00:00:00' } }] },
      filters[1],
      filters[2],
      filters[3],
      { ...filters[4], values: [{ value: 9003 }, { value: 9001 }] },
      filters[5],
    ]);
  });

  it('defaults: table shows every field, list and board only the title field; split_by period month and limit 100', async () => {
    const table = await create({ name: 'T', layout: 'table' });
    expect(Object.values(table.r.body.view.fields)).toEqual([{ hidden: false }, { hidden: false }, { hidden: false }, { hidden: false }]);
    const list = await create({ name: 'L', layout: 'list' });
    expect(list.r.body.view.fields).toEqual({ '55201': { hidden: false }, '55203': { hidden: true }, '55204': { hidden: true }, '55207': { hidden: true } });
    const board = await create({ name: 'B', layout: 'board', fields: { '55201': { hidden: false, width: 5000 } } });
    expect(board.r.status).toBe(201); // width is ignored (not checked) on non-table layouts
    expect(board.r.body.view.fields['55201']).toEqual({ hidden: false });
    const split = await create({ name: 'S', layout: 'table', split_by: { field_id: 55204 } });
    expect(split.r.body.view.split_by).toEqual({ field_id: 55204, period: 'month', sorting: null, limit: 100 });
    const status = await create({ name: 'S', layout: 'table', split_by: { field_id: 55203 } });
    expect(status.r.body.view.split_by).toEqual({ field_id: 55203, period: null, sorting: 'label_asc', limit: 100 });
    const calc = await create({ name: 'S', layout: 'table', split_by: { field_id: 66008, period: 'week' } });
    expect(calc.r.body.view.split_by).toMatchObject({ field_id: 66008, period: 'week' });
  });

  it('ignores sort_desc without sort_by on create', async () => {
    const { r } = await create({ ...base, sort_desc: true });
    expect(r.status).toBe(201);
    expect(r.body.view).toMatchObject({ sort_by: null, sort_desc: false });
  });

  it('holds at most 2000 views per app', async () => {
    const t = twin({ credits: 1_000_000 });
    ticketsApp(t.state);
    expect((await t.call('GET', '/v1/app/4711/views')).body.total).toBe(1);
    for (let i = 1; i < 2000; i++) {
      const r = await t.call('POST', '/v1/view/app/4711', { name: `V${i}`, layout: 'list' });
      if (r.status !== 201) throw new Error(`view ${i}: ${JSON.stringify(r.body)}`);
    }
    const full = await t.call('POST', '/v1/view/app/4711', { name: 'one too many', layout: 'table' });
    expect(full.status).toBe(400);
    expect(full.body.error_message).toMatch(/maximum of 2000 views/);
  }, 60_000);
});

describe('Tape twin views: update semantics', () => {
  it('name null or "" preserves; read-only keys are tolerated and have no effect; is_default is not honoured', async () => {
    const { t } = await withExampleView();
    for (const name of [null, '']) expect((await t.call('PUT', '/v1/view/88123', { name })).body.view.name).toBe('Open tickets');
    const r = await t.call('PUT', '/v1/view/88123', { id: 1, view_id: 2, app_id: 3, is_default: true, private: true, sort_property: 'status' });
    expect(r.status).toBe(200);
    expect(r.body.view).toMatchObject({ id: 88123, app_id: 4711, is_default: false, private: false });
    expect((await t.call('PUT', '/v1/view/88123', { colour: 'red' })).status).toBe(400);
  });

  it('sort: sort_desc alone flips an existing sort, is ignored without one; sort_by alone resets to ascending', async () => {
    const { t } = await withExampleView();
    expect((await t.call('PUT', '/v1/view/88123', { sort_desc: true })).body.view).toMatchObject({ sort_by: 55204, sort_desc: true });
    expect((await t.call('PUT', '/v1/view/88123', { sort_by: 55201 })).body.view).toMatchObject({ sort_by: 55201, sort_desc: false });
    await t.call('PUT', '/v1/view/88123', { sort_by: null });
    const ignored = await t.call('PUT', '/v1/view/88123', { sort_desc: true });
    expect(ignored.status).toBe(200);
    expect(ignored.body.view).toMatchObject({ sort_by: null, sort_desc: false });
    expect((await t.call('PUT', '/v1/view/88123', { sort_by: 55201, sort_desc: true })).body.view).toMatchObject({ sort_by: 55201, sort_desc: true });
  });

  it('null clears filters, the current layout\'s fields and split_by; table/board null preserves', async () => {
    const { t } = await withExampleView();
    const r = await t.call('PUT', '/v1/view/88123', { filters: null, fields: null, split_by: null, table: null, board: null });
    expect(r.body.view).toMatchObject({ filters: [], split_by: null, table: { row_height: 'medium', wrap_cells: false } });
    expect(r.body.view.fields).toEqual({ '55201': { hidden: false }, '55203': { hidden: false }, '55204': { hidden: false }, '55207': { hidden: false } });
    expect((await t.call('PUT', '/v1/view/88123', { show_progress: null })).status).toBe(400);
  });

  it('fields replace the effective layout\'s settings wholesale; a field left out falls back to its default', async () => {
    const { t } = await withExampleView();
    const r = await t.call('PUT', '/v1/view/88123', { fields: { '55207': { hidden: false, width: 500 } } });
    expect(r.body.view.fields).toEqual({ '55201': { hidden: false }, '55203': { hidden: false }, '55204': { hidden: false }, '55207': { hidden: false, width: 500 } });
  });

  it.each<[string, Record<string, unknown>, RegExp]>([
    ['a table config on a list view', { layout: 'list', table: { row_height: 'tall', wrap_cells: true } }, /'table' settings are only valid on a 'table' view/],
    ['a board config on a table view', { board: { group_by_field_id: null } }, /'board' settings are only valid on a 'board' view/],
    ['show_progress null', { show_progress: null }, /"show_progress" must be one of/],
    ['a null layout', { layout: null }, /"layout" must be one of/],
  ])('rejects %s on update', async (_what, body, message) => {
    const { t } = await withExampleView();
    const r = await t.call('PUT', '/v1/view/88123', body);
    expect(r.status).toBe(400);
    expect(r.body.error_message).toMatch(message);
  });

  it('a table config on a table view replaces it; on the layout switch it goes with the new layout', async () => {
    const { t } = await withExampleView();
    expect((await t.call('PUT', '/v1/view/88123', { table: { row_height: 'tall', wrap_cells: true } })).body.view.table).toEqual({ row_height: 'tall', wrap_cells: true });
    const board = { group_by_field_id: 55203, card_preview_field_id: null, card_size: 'large', large_text: true, hide_empty_columns: false, color_columns: true, fit_preview_image: false };
    const r = await t.call('PUT', '/v1/view/88123', { layout: 'board', board });
    expect(r.body.view).toMatchObject({ layout: 'board', board, table: null });
    expect((await t.call('PUT', '/v1/view/88123', { layout: 'table' })).body.view.table).toEqual({ row_height: 'tall', wrap_cells: true });
  });

  it('a rejected update changes nothing', async () => {
    const { t, created } = await withExampleView();
    const r = await t.call('PUT', '/v1/view/88123', { name: 'New', filters: [{ field_id: 55204, field_type: 'single_date', type: 'date', match_type: 'before', values: [{ value: '-7d' }] }] });
    expect(r.status).toBe(400);
    expect((await t.call('GET', '/v1/view/88123')).body).toEqual(created.body);
  });
});
