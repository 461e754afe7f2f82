import { Hono } from 'hono';
import type { Context } from 'hono';
import { idParam, jsonBody, notFound, restricted, TapeHttpError, validation, type TwinEnv } from '../http';
import { validateFilters } from '../filter';
import type { TapeApp, TapeField } from '../model';
import { readableApp, workspaceVisible } from '../records';
import type { TapeState, TapeUser } from '../state';
import { isObject } from '../../kit/request';

/**
 * Views, as docs/vendors/tape.md#views documents them: GET /v1/app/{id}/views (previews, on the app resource),
 * GET/PUT/DELETE /v1/view/{id}, POST /v1/view/app/{app_id}, POST /v1/view/{id}/default.
 * The views live in this module (per twin state); `getView` hands a stored view to other routes.
 */

export type ViewLayout = 'table' | 'list' | 'board';
export type SplitPeriod = 'day' | 'weekday' | 'week' | 'month' | 'year';
export type SplitSorting = 'label_asc' | 'label_desc' | 'value_asc' | 'value_desc';
export type ShowProgress = 'none' | 'view' | 'split_by' | 'all';

export interface ViewFieldSetting {
  hidden: boolean;
  width?: number;
}

/** A stored view filter: the record-filter object of docs/vendors/tape.md#record-filters, normalised (numeric field_id, option ids, nested dates). */
export interface TapeViewFilter {
  field_id: number;
  field_type: string;
  type: string;
  match_type: string;
  values?: { value: unknown }[];
  [operand: string]: unknown;
}

export interface TapeSplitBy {
  field_id: number;
  period: SplitPeriod | null;
  sorting: SplitSorting | null;
  limit: number;
}

export interface TapeTableConfig {
  row_height: 'short' | 'medium' | 'tall' | 'extra_tall';
  wrap_cells: boolean;
}

export interface TapeBoardConfig {
  group_by_field_id: number | null;
  card_preview_field_id: number | null;
  card_size: 'small' | 'medium' | 'large';
  large_text: boolean;
  hide_empty_columns: boolean;
  color_columns: boolean;
  fit_preview_image: boolean;
}

/** A view as the twin stores it: display settings are kept per layout, so switching layout loses nothing. */
export interface StoredView {
  view_id: number;
  app_id: number;
  name: string | null;
  is_default: boolean;
  /** Views created through the API are public; a private view belongs to `owner_id`. */
  private: boolean;
  owner_id: number | null;
  layout: ViewLayout;
  sort_by: number | null;
  sort_desc: boolean;
  filters: TapeViewFilter[];
  fields: Record<ViewLayout, Map<number, ViewFieldSetting>>;
  split_by: TapeSplitBy | null;
  show_progress: ShowProgress;
  table: TapeTableConfig;
  board: TapeBoardConfig;
}

export interface TapeViewPreview {
  id: number;
  view_id: number;
  name: string | null;
  app_id: number;
  is_default: boolean;
  layout: ViewLayout;
  private: boolean;
}

export interface TapeViewDetail extends TapeViewPreview {
  sort_by: number | null;
  sort_desc: boolean;
  filters: TapeViewFilter[];
  fields: Record<string, ViewFieldSetting>;
  split_by: TapeSplitBy | null;
  show_progress: ShowProgress;
  table: TapeTableConfig | null;
  board: TapeBoardConfig | null;
}

/** docs/vendors/tape.md#views: "each app allows at most 2000 views". */
export const MAX_VIEWS_PER_APP = 2000;
export const MAX_VIEW_FILTERS = 100;
export const MAX_VIEW_NAME = 200;

const LAYOUTS: readonly ViewLayout[] = ['table', 'list', 'board'];
const PERIODS: readonly SplitPeriod[] = ['day', 'weekday', 'week', 'month', 'year'];
const SORTINGS: readonly SplitSorting[] = ['label_asc', 'label_desc', 'value_asc', 'value_desc'];
const SHOW_PROGRESS: readonly ShowProgress[] = ['none', 'view', 'split_by', 'all'];
const ROW_HEIGHTS: readonly TapeTableConfig['row_height'][] = ['short', 'medium', 'tall', 'extra_tall'];
const CARD_SIZES: readonly TapeBoardConfig['card_size'][] = ['small', 'medium', 'large'];

const SPLIT_TYPES = new Set(['single_category', 'multi_category', 'status', 'single_user', 'multi_user', 'single_relation', 'multi_relation', 'single_date', 'range_date', 'created_on', 'last_modified_on', 'created_at', 'last_modified_at', 'calculation']);
const SPLIT_LABEL_SORTED = new Set(['single_category', 'multi_category', 'status']);
const BOARD_GROUP_TYPES = new Set(['status', 'single_category']);
const CARD_PREVIEW_TYPES = new Set(['single_attachment', 'multi_attachment', 'multi_image']);

const EMPTINESS = new Set(['empty', 'not_empty']);
/** The spec's view rule: relative_date_type is today, yesterday, tomorrow (self-updating) or exact_date (the default). */
const RELATIVE_DATE_TYPES = ['today', 'yesterday', 'tomorrow', 'exact_date'];

const CREATE_KEYS = new Set(['name', 'layout', 'filters', 'sort_by', 'sort_desc', 'fields', 'split_by', 'show_progress', 'table', 'board', 'sort_property']);
/** docs/vendors/tape.md#views: "the update body also tolerates id, view_id, app_id, is_default, private and sort_property". */
const READ_ONLY_KEYS = new Set(['id', 'view_id', 'app_id', 'is_default', 'private', 'sort_property']);

const DEFAULT_TABLE: TapeTableConfig = { row_height: 'medium', wrap_cells: false };
const DEFAULT_BOARD: TapeBoardConfig = {
  group_by_field_id: null,
  card_preview_field_id: null,
  card_size: 'medium',
  large_text: false,
  hide_empty_columns: false,
  color_columns: false,
  fit_preview_image: false,
};

const stores = new WeakMap<TapeState, Map<number, StoredView>>();

function viewStore(state: TapeState): Map<number, StoredView> {
  let views = stores.get(state);
  if (!views) stores.set(state, (views = new Map()));
  return views;
}

/** The stored view (not deleted, its app still there), for routes that need its definition, e.g. the records of a view. */
export function getView(state: TapeState, viewId: number): StoredView | undefined {
  const view = viewStore(state).get(viewId);
  return view && state.apps.has(view.app_id) ? view : undefined;
}

/** Credits of the view endpoints (docs/vendors/tape.md#views); undefined for other paths. */
export function viewCost(method: string, path: string): number | undefined {
  if (method === 'GET' && /^\/v1\/app\/\d+\/views$/.test(path)) return 50;
  if (method === 'GET' && /^\/v1\/view\/\d+$/.test(path)) return 20;
  if (/^\/v1\/view\/(app\/\d+|\d+|\d+\/default)$/.test(path) && method !== 'GET') return 50;
  return undefined;
}

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
const list = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');

function appViews(state: TapeState, app: TapeApp): StoredView[] {
  const views = [...viewStore(state).values()].filter((v) => v.app_id === app.app_id);
  if (views.length > 0) return views;
  // Every app has exactly one default view; the twin makes it on first use.
  const view = newView(state, app, `All ${app.name}`, 'table');
  view.is_default = true;
  return [view];
}

function newView(state: TapeState, app: TapeApp, name: string | null, layout: ViewLayout): StoredView {
  const view: StoredView = {
    view_id: state.nextId.view++,
    app_id: app.app_id,
    name,
    is_default: false,
    private: false,
    owner_id: null,
    layout,
    sort_by: null,
    sort_desc: false,
    filters: [],
    fields: { table: new Map(), list: new Map(), board: new Map() },
    split_by: null,
    show_progress: 'none',
    table: { ...DEFAULT_TABLE },
    board: { ...DEFAULT_BOARD },
  };
  viewStore(state).set(view.view_id, view);
  return view;
}

/** The detail object of docs/vendors/tape.md#views: `fields` has an entry for every field of the app, with its effective default. */
export function viewDetail(app: TapeApp, v: StoredView): TapeViewDetail {
  const fields: Record<string, ViewFieldSetting> = {};
  const stored = v.fields[v.layout];
  app.fields.forEach((f, i) => {
    const s = stored.get(f.field_id);
    const hidden = s?.hidden ?? (v.layout === 'table' ? false : i !== 0);
    fields[String(f.field_id)] = v.layout === 'table' && s?.width !== undefined ? { hidden, width: s.width } : { hidden };
  });
  const has = (id: number | null) => id !== null && app.fields.some((f) => f.field_id === id);
  return {
    ...preview(v),
    sort_by: has(v.sort_by) ? v.sort_by : null,
    sort_desc: has(v.sort_by) ? v.sort_desc : false,
    filters: v.filters.filter((f) => has(f.field_id)),
    fields,
    split_by: v.split_by && has(v.split_by.field_id) ? { ...v.split_by } : null,
    show_progress: v.show_progress,
    table: v.layout === 'table' ? { ...v.table } : null,
    board: v.layout === 'board' ? { ...v.board } : null,
  };
}

function preview(v: StoredView): TapeViewPreview {
  return { id: v.view_id, view_id: v.view_id, name: v.name, app_id: v.app_id, is_default: v.is_default, layout: v.layout, private: v.private };
}

// ---------------------------------------------------------------------------------------------
// Body validation (docs/vendors/tape.md#views: updates, filters, field settings, split_by, display
// configuration, errors), plus the spec's view-filter rules (docs/spec.md#dbapp-view).
// ---------------------------------------------------------------------------------------------

function fieldOf(app: TapeApp, raw: unknown, where: string): TapeField {
  const id = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw;
  if (!isInt(id)) throw validation(`${where} must be a field id (number), got ${JSON.stringify(raw) ?? 'nothing'}.`);
  const field = app.fields.find((f) => f.field_id === id);
  if (!field) throw validation(`${where}: field ${id} does not belong to app ${app.app_id}.`);
  return field;
}

/** docs/vendors/tape.md#fields-and-values names created_on / last_modified_on fields created_at / last_modified_at. */
const DATE_FIELD_TYPES = new Set(['single_date', 'range_date', 'created_on', 'last_modified_on', 'created_at', 'last_modified_at']);

function isDateField(f: TapeField): boolean {
  if (f.field_type === 'calculation') return f.config.settings.return_type === 'date';
  return DATE_FIELD_TYPES.has(f.field_type);
}

function layoutOf(raw: unknown): ViewLayout {
  if (!LAYOUTS.includes(raw as ViewLayout)) throw validation(`"layout" must be one of ${list(LAYOUTS)}, got ${JSON.stringify(raw) ?? 'nothing'}.`);
  return raw as ViewLayout;
}

function nameOf(raw: unknown): string {
  if (typeof raw !== 'string') throw validation('"name" must be a string.');
  if (raw.length > MAX_VIEW_NAME) throw validation(`"name" must be at most ${MAX_VIEW_NAME} characters long (got ${raw.length}).`);
  return raw;
}

/**
 * View filters are record filters (docs/vendors/tape.md#record-filters, validated and normalised by the filter engine with its view
 * rules: field filters only, field_type required), plus the view limits: at most 100, and relative dates
 * only as relative_date_type today / yesterday / tomorrow (exact_date otherwise), never on empty/not_empty.
 */
function viewFilters(app: TapeApp, raw: unknown): TapeViewFilter[] {
  if (!Array.isArray(raw)) throw validation('"filters" must be an array of filter objects.');
  if (raw.length > MAX_VIEW_FILTERS) throw validation(`A view can hold at most ${MAX_VIEW_FILTERS} filters (got ${raw.length}).`);
  raw.forEach((f, i) => {
    if (!isObject(f) || f.relative_date_type === undefined || f.relative_date_type === null) return;
    if (typeof f.match_type === 'string' && EMPTINESS.has(f.match_type)) {
      throw validation(`Invalid filter filters[${i}]: "relative_date_type" must be omitted on an '${f.match_type}' filter.`);
    }
    if (!RELATIVE_DATE_TYPES.includes(f.relative_date_type as string)) {
      throw validation(`Invalid filter filters[${i}]: "relative_date_type" must be one of ${list(RELATIVE_DATE_TYPES)} in a view filter, got ${JSON.stringify(f.relative_date_type)}.`);
    }
  });
  return validateFilters(app, raw, { forView: true }) as TapeViewFilter[];
}

function fieldSettings(app: TapeApp, raw: unknown, layout: ViewLayout): Map<number, ViewFieldSetting> {
  if (!isObject(raw)) throw validation('"fields" must be an object keyed by field id.');
  const settings = new Map<number, ViewFieldSetting>();
  for (const [key, entry] of Object.entries(raw)) {
    if (!/^\d+$/.test(key)) throw validation(`"fields" keys must be field ids (plain non-negative integers), got '${key}'.`);
    const field = fieldOf(app, key, `fields["${key}"]`);
    if (!isObject(entry)) throw validation(`fields["${key}"] must be an object {"hidden": boolean, "width"?: number}.`);
    for (const k of Object.keys(entry)) if (k !== 'hidden' && k !== 'width') throw validation(`fields["${key}"]: unknown key '${k}'.`);
    if (typeof entry.hidden !== 'boolean') throw validation(`fields["${key}"].hidden is required and must be a boolean.`);
    const setting: ViewFieldSetting = { hidden: entry.hidden };
    // width is meaningful only on table; elsewhere it is accepted and ignored.
    if (layout === 'table' && entry.width !== undefined && entry.width !== null) {
      if (!isInt(entry.width) || entry.width < 100 || entry.width > 1500) throw validation(`fields["${key}"].width must be a number between 100 and 1500, got ${JSON.stringify(entry.width)}.`);
      setting.width = entry.width;
    }
    settings.set(field.field_id, setting);
  }
  return settings;
}

function splitBy(app: TapeApp, raw: unknown): TapeSplitBy {
  if (!isObject(raw)) throw validation('"split_by" must be an object {"field_id", "period", "sorting", "limit"}.');
  for (const k of Object.keys(raw)) if (!['field_id', 'period', 'sorting', 'limit'].includes(k)) throw validation(`split_by: unknown key '${k}'.`);
  if (raw.field_id === undefined || raw.field_id === null) throw validation('split_by.field_id is required.');
  const field = fieldOf(app, raw.field_id, 'split_by.field_id');
  if (!SPLIT_TYPES.has(field.field_type)) throw validation(`Invalid split_by field: a field of type '${field.field_type}' cannot be split by`);
  const date = isDateField(field);
  let period: SplitPeriod | null = date ? 'month' : null;
  if (raw.period !== undefined && raw.period !== null) {
    if (!PERIODS.includes(raw.period as SplitPeriod)) throw validation(`split_by.period must be one of ${list(PERIODS)}, got ${JSON.stringify(raw.period)}.`);
    if (!date) throw validation(`split_by.period is only valid for date fields; field ${field.field_id} is of type '${field.field_type}'.`);
    period = raw.period as SplitPeriod;
  }
  let sorting: SplitSorting | null = SPLIT_LABEL_SORTED.has(field.field_type) ? 'label_asc' : null;
  if (raw.sorting !== undefined && raw.sorting !== null) {
    if (!SORTINGS.includes(raw.sorting as SplitSorting)) throw validation(`split_by.sorting must be one of ${list(SORTINGS)}, got ${JSON.stringify(raw.sorting)}.`);
    sorting = raw.sorting as SplitSorting;
  }
  let limit = 100;
  if (raw.limit !== undefined && raw.limit !== null) {
    if (!isInt(raw.limit) || raw.limit < 1 || raw.limit > 100) throw validation(`split_by.limit must be a number from 1 to 100, got ${JSON.stringify(raw.limit)}.`);
    limit = raw.limit;
  }
  return { field_id: field.field_id, period, sorting, limit };
}

function tableConfig(raw: unknown): TapeTableConfig {
  if (!isObject(raw)) throw validation('"table" must be an object {"row_height", "wrap_cells"}.');
  for (const k of Object.keys(raw)) if (k !== 'row_height' && k !== 'wrap_cells') throw validation(`table: unknown key '${k}'.`);
  if (!ROW_HEIGHTS.includes(raw.row_height as TapeTableConfig['row_height'])) throw validation(`table.row_height must be one of ${list(ROW_HEIGHTS)}.`);
  if (typeof raw.wrap_cells !== 'boolean') throw validation('table.wrap_cells is required and must be a boolean.');
  return { row_height: raw.row_height as TapeTableConfig['row_height'], wrap_cells: raw.wrap_cells };
}

function boardConfig(app: TapeApp, raw: unknown): TapeBoardConfig {
  if (!isObject(raw)) throw validation('"board" must be an object.');
  const keys = Object.keys(DEFAULT_BOARD);
  for (const k of Object.keys(raw)) if (!keys.includes(k)) throw validation(`board: unknown key '${k}'.`);
  for (const k of keys) if (!(k in raw)) throw validation(`board.${k} is required.`);
  let group: number | null = null;
  if (raw.group_by_field_id !== null) {
    const f = fieldOf(app, raw.group_by_field_id, 'board.group_by_field_id');
    if (!BOARD_GROUP_TYPES.has(f.field_type)) throw validation(`Invalid board group_by field: a field of type '${f.field_type}' cannot group a board`);
    group = f.field_id;
  }
  let preview: number | null = null;
  if (raw.card_preview_field_id !== null) {
    const f = fieldOf(app, raw.card_preview_field_id, 'board.card_preview_field_id');
    if (!CARD_PREVIEW_TYPES.has(f.field_type)) throw validation(`Invalid board card_preview field: a field of type '${f.field_type}' cannot be a card preview`);
    preview = f.field_id;
  }
  if (!CARD_SIZES.includes(raw.card_size as TapeBoardConfig['card_size'])) throw validation(`board.card_size must be one of ${list(CARD_SIZES)}.`);
  for (const k of ['large_text', 'hide_empty_columns', 'color_columns', 'fit_preview_image'] as const) {
    if (typeof raw[k] !== 'boolean') throw validation(`board.${k} must be a boolean.`);
  }
  return {
    group_by_field_id: group,
    card_preview_field_id: preview,
    card_size: raw.card_size as TapeBoardConfig['card_size'],
    large_text: raw.large_text as boolean,
    hide_empty_columns: raw.hide_empty_columns as boolean,
    color_columns: raw.color_columns as boolean,
    fit_preview_image: raw.fit_preview_image as boolean,
  };
}

function showProgress(raw: unknown): ShowProgress {
  if (!SHOW_PROGRESS.includes(raw as ShowProgress)) throw validation(`"show_progress" must be one of ${list(SHOW_PROGRESS)}, got ${JSON.stringify(raw)}.`);
  return raw as ShowProgress;
}

function sortField(app: TapeApp, raw: unknown): number {
  if (!isInt(raw)) throw validation(`"sort_by" must be a field id (number), got ${JSON.stringify(raw)}.`);
  return fieldOf(app, raw, '"sort_by"').field_id;
}

function sortDesc(raw: unknown): boolean {
  if (typeof raw !== 'boolean') throw validation('"sort_desc" must be a boolean.');
  return raw;
}

// ---------------------------------------------------------------------------------------------

/** /v1/app/{id}/views and /v1/view/..., as docs/vendors/tape.md#views and #apps document them. */
export function viewRoutes(state: TapeState) {
  const r = new Hono<TwinEnv>();

  const isOrgAdmin = (u: TapeUser) => u.role === 'owner' || u.role === 'admin';
  /** View access is read access to the app (the workspace visibility rules); anything else is Tape's 404. */
  const canSee = (app: TapeApp, u: TapeUser) => workspaceVisible(state, state.workspaces.get(app.workspace_id), u);
  /** Share access (one level above edit): org owners/admins and admins of the app's workspace. */
  const canShare = (app: TapeApp, u: TapeUser) => isOrgAdmin(u) || state.members.get(app.workspace_id)?.get(u.user_id) === 'admin';

  /** 404 for anything the caller cannot see: unknown, deleted, another user's private view, no access to the app. */
  function visibleView(id: number, u: TapeUser): { view: StoredView; app: TapeApp } {
    const view = getView(state, id);
    const app = view && state.apps.get(view.app_id);
    if (!view || !app || !canSee(app, u) || (view.private && view.owner_id !== u.user_id)) throw notFound(`View does not exist(${id})!`);
    return { view, app };
  }

  function requireShare(app: TapeApp, u: TapeUser): void {
    if (!canShare(app, u)) throw restricted(`User ${u.user_id} has no share access to app ${app.app_id} and cannot create, update, delete or promote its views.`);
  }

  /** docs/vendors/tape.md#views: the five /v1/view endpoints need a user API key; automation keys get 401. */
  function requireUserKey(c: Context<TwinEnv>): void {
    if (state.automationKeys.has(c.get('authKey'))) throw new TapeHttpError(401, 'unauthorized', 'App views can only be accessed with a user API key.');
  }

  r.get('/app/:id/views', (c) => {
    const u = c.get('user');
    const app = readableApp(state, idParam(c, 'id'), u);
    const views = appViews(state, app).filter((v) => !v.private).map(preview);
    return c.json({ views, total: views.length });
  });

  r.get('/view/:id', (c) => {
    requireUserKey(c);
    const { view, app } = visibleView(idParam(c, 'id'), c.get('user'));
    return c.json({ view: viewDetail(app, view) });
  });

  r.post('/view/app/:appId', async (c) => {
    requireUserKey(c);
    const u = c.get('user');
    const app = readableApp(state, idParam(c, 'appId'), u);
    requireShare(app, u);
    const body = await jsonBody(c);
    for (const [key, value] of Object.entries(body)) {
      if (!CREATE_KEYS.has(key)) throw validation(`Unknown key '${key}' in the view create body.`);
      if (value === null) throw validation(`"${key}" must not be null when creating a view.`);
    }
    if (body.name === undefined) throw validation('"name" is required.');
    if (body.layout === undefined) throw validation('"layout" is required.');
    const name = nameOf(body.name);
    const layout = layoutOf(body.layout);
    const filters = body.filters === undefined ? [] : viewFilters(app, body.filters);
    const sort_by = body.sort_by === undefined ? null : sortField(app, body.sort_by);
    const desc = body.sort_desc === undefined ? false : sortDesc(body.sort_desc);
    const fields = body.fields === undefined ? undefined : fieldSettings(app, body.fields, layout);
    const split = body.split_by === undefined ? null : splitBy(app, body.split_by);
    const progress = body.show_progress === undefined ? 'none' : showProgress(body.show_progress);
    if (body.table !== undefined && layout !== 'table') throw validation(`'table' settings are only valid on a 'table' view.`);
    if (body.board !== undefined && layout !== 'board') throw validation(`'board' settings are only valid on a 'board' view.`);
    const table = body.table === undefined ? undefined : tableConfig(body.table);
    const board = body.board === undefined ? undefined : boardConfig(app, body.board);
    if (appViews(state, app).length >= MAX_VIEWS_PER_APP) {
      throw validation(`App ${app.app_id} already holds the maximum of ${MAX_VIEWS_PER_APP} views; delete a view first.`);
    }

    const view = newView(state, app, name, layout);
    view.filters = filters;
    view.sort_by = sort_by;
    view.sort_desc = sort_by === null ? false : desc; // sort_desc is ignored without sort_by
    if (fields) view.fields[layout] = fields;
    view.split_by = split;
    view.show_progress = progress;
    if (table) view.table = table;
    if (board) view.board = board;
    return c.json({ view: viewDetail(app, view) }, 201);
  });

  r.put('/view/:id', async (c) => {
    requireUserKey(c);
    const u = c.get('user');
    const { view, app } = visibleView(idParam(c, 'id'), u);
    requireShare(app, u);
    const body = await jsonBody(c);
    for (const key of Object.keys(body)) if (!CREATE_KEYS.has(key) && !READ_ONLY_KEYS.has(key)) throw validation(`Unknown key '${key}' in the view update body.`);

    // Validate everything before changing anything.
    const name = body.name === undefined || body.name === null || body.name === '' ? undefined : nameOf(body.name);
    const layout = body.layout === undefined ? view.layout : layoutOf(body.layout);
    const filters = body.filters === undefined ? undefined : body.filters === null ? [] : viewFilters(app, body.filters);
    const sortBy = body.sort_by === undefined ? undefined : body.sort_by === null ? null : sortField(app, body.sort_by);
    const desc = body.sort_desc === undefined ? undefined : sortDesc(body.sort_desc);
    const fields = body.fields === undefined ? undefined : body.fields === null ? new Map<number, ViewFieldSetting>() : fieldSettings(app, body.fields, layout);
    const split = body.split_by === undefined ? undefined : body.split_by === null ? null : splitBy(app, body.split_by);
    // show_progress always has a value: null is not a value it takes.
    const progress = body.show_progress === undefined ? undefined : showProgress(body.show_progress);
    // table/board: null (or omitted) preserves; a value is accepted only on the matching effective layout.
    if (body.table !== undefined && body.table !== null && layout !== 'table') throw validation(`'table' settings are only valid on a 'table' view.`);
    if (body.board !== undefined && body.board !== null && layout !== 'board') throw validation(`'board' settings are only valid on a 'board' view.`);
    const table = body.table === undefined || body.table === null ? undefined : tableConfig(body.table);
    const board = body.board === undefined || body.board === null ? undefined : boardConfig(app, body.board);

    if (name !== undefined) view.name = name;
    view.layout = layout;
    if (filters) view.filters = filters;
    if (sortBy !== undefined) {
      // sort_by replaces the whole sort: without sort_desc the direction resets to ascending.
      view.sort_by = sortBy;
      view.sort_desc = sortBy === null ? false : (desc ?? false);
    } else if (desc !== undefined && view.sort_by !== null) {
      view.sort_desc = desc; // flips the direction of the existing sort; ignored when there is none
    }
    if (fields) view.fields[layout] = fields;
    if (split !== undefined) view.split_by = split;
    if (progress) view.show_progress = progress;
    if (table) view.table = table;
    if (board) view.board = board;
    return c.json({ view: viewDetail(app, view) });
  });

  r.post('/view/:id/default', (c) => {
    requireUserKey(c);
    const u = c.get('user');
    const { view, app } = visibleView(idParam(c, 'id'), u);
    requireShare(app, u);
    for (const other of appViews(state, app)) other.is_default = other === view;
    return c.json({ view: viewDetail(app, view) });
  });

  r.delete('/view/:id', (c) => {
    requireUserKey(c);
    const u = c.get('user');
    const { view, app } = visibleView(idParam(c, 'id'), u);
    requireShare(app, u);
    if (view.is_default) throw validation(`Cannot delete default BlabView (${view.view_id}); promote another view to default first.`);
    viewStore(state).delete(view.view_id);
    return c.json({ view_id: view.view_id });
  });

  return r;
}
