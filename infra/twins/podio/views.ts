import { itemPredicate } from './filter';
import { forbidden, invalid, notFound } from './http';
import { appFor } from './items';
import {
  byLine, podioDateTime, VIEW_LAYOUTS, type PodioAppRow, type PodioItemRow, type PodioState, type PodioUser, type PodioViewRow, type ViewDefinition,
  type ViewFilter, type ViewLayout,
} from './state';
import { fieldOf, settingsOf, titleOf } from './values';
import { isObject } from '../kit/request';

/**
 * Views of an app (docs/vendors/podio.md#views, https://developers.podio.com/doc/filters): saved views (shared or private),
 * the three standard views every app has (table, badge, calendar), the last view each user used
 * on each app, and the app's default view. A view stores its filters as a list of {key, values};
 * its `items` count runs those filters through the item filter engine (filter.ts) for the reader.
 *
 * What filter.ts does not know and views need is settled here first: relative dates (`-7d`, `+0d`,
 * units d w m y, suffix `r` rounds to the start — or for `to` the end — of the unit), `null` among
 * category or relation ids (items without a value), and user id 0 (the reading user). As in Podio,
 * text fields cannot be filtered in a view (filter.ts's substring match is an item-filter extension).
 */

type Json = Record<string, unknown>;
const show = (v: unknown) => JSON.stringify(v) ?? String(v);

/** A standard view's id: fixed per app and layout (app 8102 → 81021 table, 81022 badge, 81023 calendar). */
export const standardViewId = (appId: number, layout: ViewLayout) => appId * 10 + VIEW_LAYOUTS.indexOf(layout) + 1;

const standardOf = (viewId: number): { appId: number; layout: ViewLayout } | undefined => {
  const k = viewId % 10;
  return k >= 1 && k <= 3 ? { appId: Math.floor(viewId / 10), layout: VIEW_LAYOUTS[k - 1]! } : undefined;
};

const DEFAULT_DEFINITION = (): ViewDefinition => ({ sort_by: 'created_on', sort_desc: true, filters: [], layout: 'table', fields: {}, grouping: null });

// --- relative dates ---

const RELATIVE = /^([+-])(\d{1,4})([dwmy])(r?)$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2})?$/;
const ymd = (d: Date) => d.toISOString().slice(0, 10);

/** `-7d` → the day 7 days before `now`; with `r` the start (from) or end (to) of that day, week (Monday first), month or year. */
export function resolveRelativeDate(token: string, now: number, end: boolean): string | undefined {
  const m = RELATIVE.exec(token.trim());
  if (!m) return undefined;
  const n = Number(m[2]) * (m[1] === '-' ? -1 : 1);
  const unit = m[3]!;
  const d = new Date(`${ymd(new Date(now))}T00:00:00Z`);
  if (unit === 'd') d.setUTCDate(d.getUTCDate() + n);
  if (unit === 'w') d.setUTCDate(d.getUTCDate() + 7 * n);
  if (unit === 'm' || unit === 'y') {
    const day = d.getUTCDate();
    d.setUTCDate(1);
    if (unit === 'm') d.setUTCMonth(d.getUTCMonth() + n);
    else d.setUTCFullYear(d.getUTCFullYear() + n);
    const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
    d.setUTCDate(Math.min(day, last));
  }
  if (m[4] === 'r' && unit !== 'd') {
    if (unit === 'w') {
      d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
      if (end) d.setUTCDate(d.getUTCDate() + 6);
    } else if (unit === 'm') {
      d.setUTCDate(1);
      if (end) d.setUTCMonth(d.getUTCMonth() + 1, 0);
    } else {
      d.setUTCMonth(end ? 11 : 0, end ? 31 : 1);
    }
  }
  return ymd(d);
}

function dateRangeOf(key: string, v: unknown, now: number): Json {
  if (!isObject(v) || (v.from === undefined && v.to === undefined)) throw invalid(`Filter "${key}" takes {"from", "to"}, got ${show(v)}.`);
  const out: Json = {};
  for (const k of ['from', 'to'] as const) {
    const b = v[k];
    if (b === undefined || b === null) continue;
    if (typeof b !== 'string') throw invalid(`Filter "${key}.${k}" must be a date "YYYY-MM-DD" or a relative date such as "-7d", got ${show(b)}.`);
    const rel = resolveRelativeDate(b, now, k === 'to');
    if (rel === undefined && !DAY.test(b.trim()) && !DATE_TIME.test(b.trim())) throw invalid(`Filter "${key}.${k}" must be a date "YYYY-MM-DD" or a relative date such as "-7d", "+0d" or "-1mr", got ${show(b)}.`);
    out[k] = rel ?? b.trim();
  }
  return out;
}

// --- filters ---

const ID_LIST_TYPES = ['category', 'question', 'app'];
const SUB_KEY: Record<string, string> = { category: 'id', question: 'id', app: 'item_id' };

/**
 * A view's filters checked as Podio checks them, and as one predicate for `user` at `now`. Values
 * are kept as given (relative dates stay relative: a view moves with the calendar).
 */
export function viewFilters(state: PodioState, app: PodioAppRow, raw: unknown, user: PodioUser, now: number): { filters: ViewFilter[]; matches: (item: PodioItemRow) => boolean } {
  if (raw === undefined || raw === null) return { filters: [], matches: () => true };
  if (!Array.isArray(raw)) throw invalid(`"filters" is a list of {"key", "values"}, got ${show(raw)}.`);
  const preds: ((item: PodioItemRow) => boolean)[] = [];
  const filters: ViewFilter[] = [];
  const seen = new Set<string>();
  raw.forEach((f, i) => {
    if (!isObject(f) || f.key === undefined || f.values === undefined) throw invalid(`"filters.${i}" must be {"key", "values"}, got ${show(f)}.`);
    const key = String(f.key);
    const v = f.values;
    let normalized: unknown = v;
    let keyOut = key;
    let orEmpty: string | undefined;
    if (key === 'created_on' || key === 'last_edit_on') normalized = dateRangeOf(key, v, now);
    else if (key === 'created_by' || key === 'last_edit_by') {
      if (!Array.isArray(v)) throw invalid(`Filter "${key}" takes a list of {"type": "user", "id"}, got ${show(v)}.`);
      // id 0 stands for the user reading the view.
      normalized = v.map((x) => (isObject(x) && x.type === 'user' && x.id === 0 ? { type: 'user', id: user.user_id } : x));
    } else if (key !== 'tags') {
      const field = fieldOf(app, key);
      if (!field) throw invalid(`Invalid filter "${key}": no field with this id in app ${app.app_id}, and no such filter key.`);
      keyOut = String(field.field_id);
      if (field.type === 'text') throw invalid(`Text fields cannot be used as filters (field ${field.field_id} "${field.label}").`);
      if (field.type === 'date' || (field.type === 'calculation' && settingsOf(field).return_type === 'date')) normalized = dateRangeOf(key, v, now);
      if (ID_LIST_TYPES.includes(field.type) && Array.isArray(v) && v.includes(null)) {
        orEmpty = SUB_KEY[field.type];
        normalized = v.filter((x) => x !== null);
      }
    }
    if (seen.has(keyOut)) throw invalid(`Filter "${keyOut}" is given twice.`);
    seen.add(keyOut);
    filters.push({ key: keyOut, values: v });
    const fieldId = Number(keyOut);
    const empty = (item: PodioItemRow) => (item.values.get(fieldId) ?? []).length === 0;
    if (orEmpty !== undefined && Array.isArray(normalized) && normalized.length === 0) preds.push(empty);
    else {
      const p = itemPredicate(state, app, { [keyOut]: normalized });
      preds.push(orEmpty !== undefined ? (item) => empty(item) || p(item) : p);
    }
  });
  return { filters, matches: (item) => preds.every((p) => p(item)) };
}

// --- the other parts of a definition ---

const SORT_KEYS = ['created_by', 'created_on', 'last_edit_by', 'last_edit_on', 'app_item_id', 'item_id', 'activity', 'priority', 'title'];
const SORTABLE_TYPES = ['text', 'location', 'money', 'number', 'calculation', 'progress', 'duration', 'app', 'date', 'contact', 'category', 'question'];
const GROUPABLE_TYPES = ['category', 'question', 'app', 'contact', 'date'];
const SUB_VALUES = ['date', 'weekday', 'week', 'month', 'year'];
const FIELD_SETTINGS: Record<string, (v: unknown) => boolean> = {
  hidden: (v) => typeof v === 'boolean',
  width: (v) => typeof v === 'number' && v > 0,
  delta_offset: (v) => Number.isInteger(v),
  use: (v) => v === '_x_axis_' || v === '_y_axis_',
};

function sortByOf(app: PodioAppRow, v: unknown): string {
  if (typeof v === 'string' && SORT_KEYS.includes(v)) return v;
  const f = typeof v === 'string' || typeof v === 'number' ? fieldOf(app, v) : undefined;
  if (!f || !SORTABLE_TYPES.includes(f.type)) throw invalid(`Invalid "sort_by" ${show(v)}: use ${SORT_KEYS.join(', ')} or the id of a sortable field of app ${app.app_id}.`);
  return String(f.field_id);
}

function fieldsOf(app: PodioAppRow, v: unknown): Record<string, Json> {
  if (!isObject(v)) throw invalid(`"fields" is an object keyed by field id, got ${show(v)}.`);
  const out: Record<string, Json> = {};
  for (const [key, s] of Object.entries(v)) {
    const f = fieldOf(app, key);
    if (!f) throw invalid(`"fields.${key}": no field with this id in app ${app.app_id}.`);
    if (!isObject(s)) throw invalid(`"fields.${key}" is an object of settings, got ${show(s)}.`);
    for (const [name, value] of Object.entries(s)) {
      const ok = FIELD_SETTINGS[name];
      if (!ok) throw invalid(`"fields.${key}.${name}" is not a field setting (${Object.keys(FIELD_SETTINGS).join(', ')}).`);
      if (!ok(value)) throw invalid(`"fields.${key}.${name}" has an invalid value ${show(value)}.`);
    }
    out[String(f.field_id)] = { ...s };
  }
  return out;
}

function groupingOf(app: PodioAppRow, g: unknown): Json | null {
  if (g === null) return null;
  if (!isObject(g)) throw invalid(`"grouping" is {"type": "field"|"revision", "value", "sub_value"?}, got ${show(g)}.`);
  const sub = g.sub_value;
  if (sub !== undefined && sub !== null && !(typeof sub === 'string' && SUB_VALUES.includes(sub))) throw invalid(`"grouping.sub_value" is one of ${SUB_VALUES.join(', ')}, got ${show(sub)}.`);
  let dated: boolean;
  let value: unknown;
  if (g.type === 'revision') {
    if (!['created_by', 'created_on', 'tags'].includes(String(g.value))) throw invalid(`A revision grouping groups by created_by, created_on or tags, got ${show(g.value)}.`);
    value = g.value;
    dated = g.value === 'created_on';
  } else if (g.type === 'field') {
    const f = typeof g.value === 'string' || typeof g.value === 'number' ? fieldOf(app, g.value) : undefined;
    if (!f || !GROUPABLE_TYPES.includes(f.type)) throw invalid(`A field grouping needs a category, question, app, contact or date field of app ${app.app_id}, got ${show(g.value)}.`);
    value = f.field_id;
    dated = f.type === 'date';
  } else throw invalid(`"grouping.type" is "field" or "revision", got ${show(g.type)}.`);
  if (sub !== undefined && sub !== null && !dated) throw invalid('"grouping.sub_value" applies to date groupings only.');
  return { type: g.type, value, ...(dated ? { sub_value: sub ?? 'date' } : {}) };
}

/** The definition keys of a body, checked; `base` gives the keys the body leaves out. */
export function definitionOf(state: PodioState, app: PodioAppRow, body: Json, base: ViewDefinition, user: PodioUser, now: number): ViewDefinition {
  const out: ViewDefinition = { ...base };
  if (body.layout !== undefined) {
    if (!VIEW_LAYOUTS.includes(body.layout as ViewLayout)) throw invalid(`"layout" is one of ${VIEW_LAYOUTS.join(', ')}, got ${show(body.layout)}.`);
    out.layout = body.layout as ViewLayout;
  }
  if (body.sort_by !== undefined) out.sort_by = sortByOf(app, body.sort_by);
  if (body.sort_desc !== undefined) {
    if (typeof body.sort_desc !== 'boolean') throw invalid('"sort_desc" must be true or false.');
    out.sort_desc = body.sort_desc;
  }
  if (body.filters !== undefined) out.filters = viewFilters(state, app, body.filters, user, now).filters;
  if (body.fields !== undefined) out.fields = fieldsOf(app, body.fields);
  if (body.grouping !== undefined) out.grouping = groupingOf(app, body.grouping);
  return out;
}

// --- access and output ---

const lastKey = (userId: number, appId: number) => `${userId}:${appId}`;

/** A saved view the user may see: private ones only their creator. */
export function savedViewFor(state: PodioState, user: PodioUser, viewId: number): PodioViewRow {
  const v = state.views.saved.get(viewId);
  if (!v || (v.private && v.created_by !== user.user_id)) throw notFound();
  appFor(state, user, v.app_id);
  return v;
}

/** Changing a saved view: its creator or an org admin. */
export function assertCanChange(user: PodioUser, v: PodioViewRow): void {
  if (v.created_by !== user.user_id && user.role !== 'admin') throw forbidden(`The user ${user.user_id} does not have the right "update" on view ${v.view_id}`);
}

function humanized(state: PodioState, app: PodioAppRow, f: ViewFilter): { value: unknown; label: string }[] {
  const list = Array.isArray(f.values) ? f.values : [];
  if (f.key === 'created_by' || f.key === 'last_edit_by') {
    return list.map((x) => {
      const id = isObject(x) ? (x.id as number) : (x as number);
      return { value: x, label: id === 0 ? 'Me' : (state.users.get(id)?.name ?? String(id)) };
    });
  }
  if (f.key === 'tags') return list.map((t) => ({ value: t, label: String(t) }));
  const field = fieldOf(app, f.key);
  if (!field) return [];
  const label = (id: unknown): string => {
    if (id === null) return 'No value';
    if (field.type === 'category' || field.type === 'question') return ((settingsOf(field).options as { id: number; text: string }[]) ?? []).find((o) => o.id === id)?.text ?? String(id);
    if (field.type === 'app') {
      const it = state.items.get(id as number);
      return it ? titleOf(state, it) : String(id);
    }
    if (field.type === 'contact') return [...state.users.values()].find((u) => u.profile_id === id)?.name ?? String(id);
    return String(id);
  };
  return ['category', 'question', 'app', 'contact'].includes(field.type) ? list.map((id) => ({ value: id, label: label(id) })) : [];
}

function definitionOut(state: PodioState, app: PodioAppRow, d: ViewDefinition, user: PodioUser, now: number) {
  const { matches } = viewFilters(state, app, d.filters, user, now);
  let items = 0;
  for (const i of state.items.values()) if (i.app_id === app.app_id && matches(i)) items++;
  return {
    layout: d.layout,
    sort_by: d.sort_by,
    sort_desc: d.sort_desc,
    filters: d.filters.map((f) => ({ key: f.key, values: f.values, humanized_values: humanized(state, app, f) })),
    fields: d.fields,
    grouping: d.grouping ?? {},
    items,
  };
}

export function savedViewOut(state: PodioState, v: PodioViewRow, user: PodioUser, now: number) {
  const app = state.apps.get(v.app_id)!;
  const canChange = v.created_by === user.user_id || user.role === 'admin';
  return {
    view_id: v.view_id,
    name: v.name,
    type: 'saved',
    private: v.private,
    created_on: v.created_on,
    created_by: byLine(state.users.get(v.created_by)),
    ...definitionOut(state, app, v, user, now),
    rights: canChange ? ['view', 'update', 'delete'] : ['view'],
  };
}

export function standardViewOut(state: PodioState, app: PodioAppRow, layout: ViewLayout, user: PodioUser, now: number) {
  return { view_id: standardViewId(app.app_id, layout), name: layout, type: 'standard', private: false, created_on: null, created_by: null, ...definitionOut(state, app, { ...DEFAULT_DEFINITION(), layout }, user, now), rights: ['view'] };
}

/** The user's last view of the app; without one the app's default view, else the standard table. */
export function lastViewOut(state: PodioState, app: PodioAppRow, user: PodioUser, now: number) {
  const last = state.views.last.get(lastKey(user.user_id, app.app_id));
  if (last) return { view_id: null, name: null, type: 'last', private: true, created_on: null, created_by: null, ...definitionOut(state, app, last, user, now), rights: ['view', 'update'] };
  const def = state.views.defaults.get(app.app_id);
  const saved = def !== undefined ? state.views.saved.get(def) : undefined;
  return saved ? savedViewOut(state, saved, user, now) : standardViewOut(state, app, 'table', user, now);
}

export function setLastView(state: PodioState, app: PodioAppRow, user: PodioUser, d: ViewDefinition): void {
  state.views.last.set(lastKey(user.user_id, app.app_id), d);
}

/** A view by id in any app the user sees: saved, or standard (`GET /view/{id}`). */
export function anyViewOut(state: PodioState, user: PodioUser, viewId: number, now: number, appId?: number) {
  const saved = state.views.saved.get(viewId);
  if (saved) {
    const v = savedViewFor(state, user, viewId);
    if (appId !== undefined && v.app_id !== appId) throw notFound();
    return savedViewOut(state, v, user, now);
  }
  const std = standardOf(viewId);
  if (!std || !state.apps.has(std.appId) || (appId !== undefined && std.appId !== appId)) throw notFound();
  return standardViewOut(state, appFor(state, user, std.appId), std.layout, user, now);
}

export function createSavedView(state: PodioState, app: PodioAppRow, user: PodioUser, body: Json, now: number): PodioViewRow {
  if (typeof body.name !== 'string' || body.name.trim() === '') throw invalid('"name" (the name of the view) is required.');
  if (body.private !== undefined && typeof body.private !== 'boolean') throw invalid('"private" must be true or false.');
  const d = definitionOf(state, app, body, DEFAULT_DEFINITION(), user, now);
  const row: PodioViewRow = { view_id: state.views.nextId++, app_id: app.app_id, name: body.name.trim(), private: body.private === true, created_by: user.user_id, created_on: podioDateTime(now), ...d };
  state.views.saved.set(row.view_id, row);
  return row;
}

/** A couple of saved views per demo app, Deals' "Open pipeline" its default. */
export function seedViews(state: PodioState, at: number): void {
  const owner = state.users.get(1001)!;
  const fieldId = (appId: number, external: string) => String(fieldOf(state.apps.get(appId)!, external)!.field_id);
  const add = (appId: number, body: Json) => createSavedView(state, state.apps.get(appId)!, owner, body, at);
  const companies = 8101;
  const deals = 8102;
  const projects = 8201;
  add(companies, { name: 'Software companies', filters: [{ key: fieldId(companies, 'industry'), values: [301] }], sort_by: 'title', sort_desc: false });
  add(companies, { name: 'Large accounts', filters: [{ key: fieldId(companies, 'employees'), values: { from: 1000 } }], layout: 'badge', fields: { [fieldId(companies, 'logo')]: { hidden: true } } });
  const pipeline = add(deals, { name: 'Open pipeline', filters: [{ key: fieldId(deals, 'stage'), values: [401, 402, 403] }], sort_by: fieldId(deals, 'amount'), sort_desc: true, grouping: { type: 'field', value: Number(fieldId(deals, 'stage')) } });
  add(deals, { name: 'Closing this month', filters: [{ key: fieldId(deals, 'close-date'), values: { from: '+0mr', to: '+0mr' } }], layout: 'calendar', fields: { [fieldId(deals, 'close-date')]: { use: '_x_axis_' } } });
  add(deals, { name: 'My deals', private: true, filters: [{ key: 'created_by', values: [{ type: 'user', id: 0 }] }] });
  add(projects, { name: 'In progress', filters: [{ key: fieldId(projects, 'status'), values: [502] }], sort_by: fieldId(projects, 'timeline') });
  add(projects, { name: 'Delivery board', layout: 'badge', grouping: { type: 'field', value: Number(fieldId(projects, 'status')) } });
  state.views.defaults.set(deals, pipeline.view_id);
}
