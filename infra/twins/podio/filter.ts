import { evaluateScript, ScriptError } from './formula';
import { invalid } from './http';
import type { PodioAppRow, PodioFieldRow, PodioItemRow, PodioState } from './state';
import { fieldOf, numericValue, settingsOf, titleOf } from './values';
import { isObject } from '../kit/request';

/**
 * Item filters, sorting and calculations (docs/vendors/podio.md#items). Filters are keyed by
 * field id (or external id) with Podio's per-type shapes: category/app/contact → id list; number,
 * money, progress, duration, calculation → {from, to}; dates → {from, to}. Our extension: a text
 * field takes a string, matched case-insensitively as a substring (Podio documents no text filter).
 * Metadata keys: created_on/last_edit_on {from, to}, created_by/last_edit_by user ids (or
 * {type: "user", id}), app_item_id {from, to}, tags (strings).
 */

type Json = Record<string, unknown>;
type Pred = (item: PodioItemRow) => boolean;
const show = (v: unknown) => JSON.stringify(v) ?? String(v);

const NUMERIC_TYPES = ['number', 'money', 'progress', 'duration', 'calculation'];
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2})?$/;

function range<T>(key: string, v: unknown, bound: (x: unknown, name: string) => T): { from?: T; to?: T } {
  if (!isObject(v) || (v.from === undefined && v.to === undefined)) throw invalid(`Filter "${key}" takes {"from", "to"}, got ${show(v)}.`);
  const out: { from?: T; to?: T } = {};
  for (const k of ['from', 'to'] as const) if (v[k] !== undefined && v[k] !== null) out[k] = bound(v[k], `${key}.${k}`);
  return out;
}

const numberBound = (x: unknown, name: string): number => {
  if (typeof x === 'number' && Number.isFinite(x)) return x;
  if (typeof x === 'string' && /^-?\d+(\.\d+)?$/.test(x.trim())) return Number(x);
  throw invalid(`Filter "${name}" must be a number, got ${show(x)}.`);
};

/** A date bound as a comparable "YYYY-MM-DD HH:MM:SS"; a day `to` covers the whole day. */
const dateBound = (end: boolean) => (x: unknown, name: string): string => {
  if (typeof x === 'string' && DAY.test(x.trim())) return `${x.trim()} ${end ? '23:59:59' : '00:00:00'}`;
  if (typeof x === 'string' && DATE_TIME.test(x.trim())) return x.trim().replace('T', ' ').padEnd(19, ':00').slice(0, 19);
  throw invalid(`Filter "${name}" must be a date "YYYY-MM-DD" (or "YYYY-MM-DD HH:MM:SS"), got ${show(x)}.`);
};

function dateRange(key: string, v: unknown): { from?: string; to?: string } {
  const r = range<unknown>(key, v, (x) => x);
  return { from: r.from === undefined ? undefined : dateBound(false)(r.from, `${key}.from`), to: r.to === undefined ? undefined : dateBound(true)(r.to, `${key}.to`) };
}

const within = <T extends number | string>(x: T, r: { from?: T; to?: T }) => (r.from === undefined || x >= r.from) && (r.to === undefined || x <= r.to);

function idList(key: string, v: unknown): number[] {
  const list = Array.isArray(v) ? v : [v];
  const toId = (x: unknown) => (isObject(x) && x.type === 'user' && Number.isInteger(x.id) ? (x.id as number) : x);
  const ids = list.map(toId);
  if (ids.length === 0 || ids.some((x) => !(Number.isInteger(x) && (x as number) > 0))) throw invalid(`Filter "${key}" takes a list of integer ids, got ${show(v)}.`);
  return ids as number[];
}

/** The start (and end) of an item's date value as comparable strings. */
function dateSpan(item: PodioItemRow, f: PodioFieldRow): [string, string] | undefined {
  const v = item.values.get(f.field_id)?.[0];
  if (!v) return undefined;
  const start = `${v.start_date as string} ${(v.start_time as string | null) ?? '00:00:00'}`;
  const end = v.end_date ? `${v.end_date as string} ${(v.end_time as string | null) ?? '23:59:59'}` : start;
  return [start, end];
}

function fieldPredicate(state: PodioState, app: PodioAppRow, f: PodioFieldRow, key: string, v: unknown): Pred {
  const has = (item: PodioItemRow, sub: string, ids: number[]) => (item.values.get(f.field_id) ?? []).some((x) => ids.includes(x[sub] as number));
  switch (f.type) {
    case 'category': {
      const ids = idList(key, v);
      return (item) => has(item, 'id', ids);
    }
    case 'app': {
      const ids = idList(key, v);
      return (item) => has(item, 'item_id', ids);
    }
    case 'contact': {
      const ids = idList(key, v);
      return (item) => has(item, 'profile_id', ids);
    }
    case 'date': {
      const r = dateRange(key, v);
      return (item) => {
        const span = dateSpan(item, f);
        return !!span && (r.to === undefined || span[0] <= r.to) && (r.from === undefined || span[1] >= r.from);
      };
    }
    case 'text': {
      if (typeof v !== 'string' || v.trim() === '') throw invalid(`Filter "${key}" on a text field takes a non-empty string (matched as part of the text), got ${show(v)}.`);
      const needle = v.trim().toLowerCase();
      return (item) => String(item.values.get(f.field_id)?.[0]?.value ?? '').toLowerCase().includes(needle);
    }
    default:
      if (NUMERIC_TYPES.includes(f.type)) {
        const r = range(key, v, numberBound);
        return (item) => {
          const n = numericValue(state, app, f.field_id, item);
          return n !== null && within(n, r);
        };
      }
      throw invalid(`Fields of type ${f.type} cannot be filtered (filter "${key}").`);
  }
}

/** The filters of a filter/calculate body → one predicate (all must hold). */
export function itemPredicate(state: PodioState, app: PodioAppRow, filters: unknown): Pred {
  if (filters === undefined || filters === null) return () => true;
  if (!isObject(filters)) throw invalid(`"filters" must be an object keyed by field id, got ${show(filters)}.`);
  const preds: Pred[] = Object.entries(filters).map(([key, v]): Pred => {
    switch (key) {
      case 'created_on': {
        const r = dateRange(key, v);
        return (item) => within(item.created_on, r);
      }
      case 'last_edit_on': {
        const r = dateRange(key, v);
        return (item) => within(item.last_event_on, r);
      }
      case 'created_by': {
        const ids = idList(key, v);
        return (item) => ids.includes(item.created_by);
      }
      case 'last_edit_by': {
        const ids = idList(key, v);
        return (item) => ids.includes(item.revisions[item.revisions.length - 1]!.created_by);
      }
      case 'app_item_id': {
        const r = range(key, v, numberBound);
        return (item) => within(item.app_item_id, r);
      }
      case 'tags': {
        const tags = (Array.isArray(v) ? v : [v]).map((t) => String(t).toLowerCase());
        return (item) => item.tags.some((t) => tags.includes(t.toLowerCase()));
      }
      default: {
        const f = fieldOf(app, key);
        if (!f) throw invalid(`Invalid filter "${key}": no field with this id or external_id in app ${app.app_id}, and no such filter key.`);
        return fieldPredicate(state, app, f, key, v);
      }
    }
  });
  return (item) => preds.every((p) => p(item));
}

/** A comparable sort key of an item; null sorts last. */
function sortKey(state: PodioState, app: PodioAppRow, sortBy: string): (item: PodioItemRow) => string | number | null {
  switch (sortBy) {
    case 'created_on':
      return (i) => i.created_on;
    case 'last_edit_on':
      return (i) => i.last_event_on;
    case 'app_item_id':
      return (i) => i.app_item_id;
    case 'item_id':
      return (i) => i.item_id;
    case 'title':
      return (i) => titleOf(state, i).toLowerCase();
    case 'created_by':
      return (i) => state.users.get(i.created_by)?.name ?? null;
  }
  const f = fieldOf(app, sortBy);
  if (!f) throw invalid(`Invalid "sort_by" "${sortBy}": use created_on, last_edit_on, app_item_id, item_id, title, created_by or a field id.`);
  if (NUMERIC_TYPES.includes(f.type)) return (i) => numericValue(state, app, f.field_id, i);
  if (f.type === 'date') return (i) => dateSpan(i, f)?.[0] ?? null;
  if (f.type === 'text') return (i) => String(i.values.get(f.field_id)?.[0]?.value ?? '').toLowerCase() || null;
  if (f.type === 'category') {
    const options = (settingsOf(f).options as { id: number; text: string }[]) ?? [];
    return (i) => {
      const id = i.values.get(f.field_id)?.[0]?.id;
      return options.find((o) => o.id === id)?.text.toLowerCase() ?? null;
    };
  }
  throw invalid(`Items cannot be sorted by a ${f.type} field ("sort_by" ${sortBy}).`);
}

/** The app's items that pass the filters, sorted (default: newest first; ties by item id). */
export function filterItems(state: PodioState, app: PodioAppRow, body: Json): { total: number; items: PodioItemRow[] } {
  const pred = itemPredicate(state, app, body.filters);
  const all = [...state.items.values()].filter((i) => i.app_id === app.app_id);
  const sortBy = body.sort_by ?? 'created_on';
  if (typeof sortBy !== 'string' && typeof sortBy !== 'number') throw invalid('"sort_by" must be a string or a field id.');
  if (body.sort_desc !== undefined && typeof body.sort_desc !== 'boolean') throw invalid('"sort_desc" must be true or false.');
  const desc = body.sort_desc ?? true;
  const key = sortKey(state, app, String(sortBy));
  const keyed = all.filter(pred).map((item) => ({ item, k: key(item) }));
  keyed.sort((a, b) => {
    if (a.k === null && b.k !== null) return 1;
    if (b.k === null && a.k !== null) return -1;
    const c = a.k === b.k || a.k === null ? 0 : a.k < b.k! ? -1 : 1;
    const byId = a.item.item_id - b.item.item_id;
    return (desc ? -1 : 1) * (c !== 0 ? c : byId);
  });
  return { total: all.length, items: keyed.map((x) => x.item) };
}

// --- calculate ---

const AGGREGATIONS = ['count', 'sum', 'average', 'minimum', 'maximum'] as const;
const OPERATORS: Record<string, string> = { plus: '+', minus: '-', multiply: '*', divide: '/' };
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** The body's formula as a calculation script (the same evaluator as calculation fields). */
function formulaScript(app: PodioAppRow, formula: unknown): string {
  if (!Array.isArray(formula) || formula.length === 0) throw invalid('"formula" is a list of {type: "field"|"number"|"operator", value}, needed for every aggregation but count.');
  const script = formula
    .map((t, i) => {
      if (!isObject(t)) throw invalid(`"formula.${i}" must be {type, value}.`);
      if (t.type === 'number' && typeof t.value === 'number') return String(t.value);
      if (t.type === 'operator' && typeof t.value === 'string' && OPERATORS[t.value]) return OPERATORS[t.value];
      if (t.type === 'field') {
        const f = fieldOf(app, t.value as string | number);
        if (!f || !NUMERIC_TYPES.includes(f.type)) throw invalid(`"formula.${i}": ${show(t.value)} is not a number, money, progress, duration or calculation field of app ${app.app_id}.`);
        return `@[${f.label}](field_${f.field_id})`;
      }
      throw invalid(`"formula.${i}" must be {type: "field", value: field_id}, {type: "number", value: n} or {type: "operator", value: plus|minus|multiply|divide}, got ${show(t)}.`);
    })
    .join(' ');
  try {
    // Read once with every field as 0: a formula that does not parse is the caller's 400, not a 500 per item.
    evaluateScript(script, () => 0);
  } catch (err) {
    if (err instanceof ScriptError) throw invalid(`"formula" does not read as arithmetic: ${err.message}`);
    throw err;
  }
  return script;
}

interface GroupKey { value: unknown; label: string | null; order: string | number }

function dateGroup(at: string, sub: string): GroupKey {
  const d = new Date(`${at.slice(0, 10)}T00:00:00Z`);
  const [y, m] = [d.getUTCFullYear(), d.getUTCMonth()];
  switch (sub) {
    case 'year':
      return { value: String(y), label: String(y), order: y };
    case 'month':
      return { value: at.slice(0, 7), label: `${MONTHS[m]} ${y}`, order: at.slice(0, 7) };
    case 'weekday': {
      const wd = (d.getUTCDay() + 6) % 7;
      return { value: wd + 1, label: WEEKDAYS[wd]!, order: wd };
    }
    case 'week': {
      const t = new Date(d);
      t.setUTCDate(t.getUTCDate() + 3 - ((t.getUTCDay() + 6) % 7));
      const jan4 = new Date(Date.UTC(t.getUTCFullYear(), 0, 4));
      const week = 1 + Math.round(((t.getTime() - jan4.getTime()) / 86400000 - 3 + ((jan4.getUTCDay() + 6) % 7)) / 7);
      const v = `${t.getUTCFullYear()}-W${String(week).padStart(2, '0')}`;
      return { value: v, label: v, order: v };
    }
    default:
      return { value: at.slice(0, 10), label: at.slice(0, 10), order: at.slice(0, 10) };
  }
}

const SUB_VALUES = ['date', 'weekday', 'week', 'month', 'year'];

/** A grouping → the group keys of an item (several for multi-valued fields; [] → the "no value" group). */
function grouper(state: PodioState, app: PodioAppRow, g: unknown): (item: PodioItemRow) => GroupKey[] {
  if (!isObject(g)) throw invalid(`A grouping is {type: "field"|"revision", value, sub_value?}, got ${show(g)}.`);
  const sub = g.sub_value ?? 'date';
  if (typeof sub !== 'string' || !SUB_VALUES.includes(sub)) throw invalid(`"sub_value" is one of ${SUB_VALUES.join(', ')}, got ${show(g.sub_value)}.`);
  if (g.type === 'revision') {
    if (g.value === 'created_by') return (i) => [{ value: i.created_by, label: state.users.get(i.created_by)?.name ?? null, order: state.users.get(i.created_by)?.name ?? '' }];
    if (g.value === 'created_on') return (i) => [dateGroup(i.created_on, sub)];
    throw invalid(`A revision grouping groups by "created_by" or "created_on", got ${show(g.value)}.`);
  }
  const f = g.type === 'field' ? fieldOf(app, g.value as string | number) : undefined;
  if (!f) throw invalid(`A field grouping needs {type: "field", value: field_id} of app ${app.app_id}, got ${show(g)}.`);
  switch (f.type) {
    case 'category': {
      const options = (settingsOf(f).options as { id: number; text: string }[]) ?? [];
      return (i) => (i.values.get(f.field_id) ?? []).map((v) => ({ value: v.id, label: options.find((o) => o.id === v.id)?.text ?? null, order: options.findIndex((o) => o.id === v.id) }));
    }
    case 'app':
      return (i) =>
        (i.values.get(f.field_id) ?? []).map((v) => {
          const t = state.items.get(v.item_id as number);
          const title = t ? titleOf(state, t) : null;
          return { value: v.item_id, label: title, order: (title ?? '').toLowerCase() };
        });
    case 'contact':
      return (i) =>
        (i.values.get(f.field_id) ?? []).map((v) => {
          const name = [...state.users.values()].find((u) => u.profile_id === v.profile_id)?.name ?? null;
          return { value: v.profile_id, label: name, order: (name ?? '').toLowerCase() };
        });
    case 'date':
      return (i) => {
        const span = dateSpan(i, f);
        return span ? [dateGroup(span[0], sub)] : [];
      };
  }
  throw invalid(`Items can be grouped by category, app, contact and date fields, not by a ${f.type} field.`);
}

function aggregate(kind: (typeof AGGREGATIONS)[number], values: (number | null)[]): number | null {
  if (kind === 'count') return values.length;
  const nums = values.filter((v): v is number => v !== null);
  if (kind === 'sum') return round(nums.reduce((a, b) => a + b, 0));
  if (nums.length === 0) return null;
  if (kind === 'average') return round(nums.reduce((a, b) => a + b, 0) / nums.length);
  return kind === 'minimum' ? Math.min(...nums) : Math.max(...nums);
}

const round = (n: number) => Math.round(n * 10000) / 10000;

/** POST /item/app/{app_id}/calculate → {total, count, groups:[{value, label, total, count}]}. */
export function calculate(state: PodioState, app: PodioAppRow, body: Json, limit: number) {
  const kind = body.aggregation as (typeof AGGREGATIONS)[number];
  if (!AGGREGATIONS.includes(kind)) throw invalid(`"aggregation" is one of ${AGGREGATIONS.join(', ')}, got ${show(body.aggregation)}.`);
  const script = kind === 'count' ? null : formulaScript(app, body.formula);
  const groupings = body.groupings ?? [];
  if (!Array.isArray(groupings) || groupings.length > 1) throw invalid('"groupings" is a list of at most one grouping in this sandbox.');
  const pred = itemPredicate(state, app, body.filters);
  const items = [...state.items.values()].filter((i) => i.app_id === app.app_id && pred(i));
  const valueOf = (i: PodioItemRow) => (script === null ? 1 : evaluateScript(script, (id) => numericValue(state, app, id, i)));
  const values = new Map(items.map((i) => [i.item_id, valueOf(i)]));
  const result: Json = { total: aggregate(kind, items.map((i) => values.get(i.item_id)!)), count: items.length };
  if (groupings.length) {
    const keysOf = grouper(state, app, groupings[0]);
    const groups = new Map<string, { key: GroupKey; members: PodioItemRow[] }>();
    for (const i of items) {
      const keys = keysOf(i);
      for (const k of keys.length ? keys : [{ value: null, label: null, order: '\uffff' }]) {
        const id = JSON.stringify(k.value);
        if (!groups.has(id)) groups.set(id, { key: k, members: [] });
        groups.get(id)!.members.push(i);
      }
    }
    result.groups = [...groups.values()]
      .sort((a, b) => (a.key.value === null ? 1 : b.key.value === null ? -1 : a.key.order < b.key.order ? -1 : a.key.order > b.key.order ? 1 : 0))
      .slice(0, limit)
      .map((g) => ({ value: g.key.value, label: g.key.label, total: aggregate(kind, g.members.map((i) => values.get(i.item_id)!)), count: g.members.length }));
  } else result.groups = [];
  return result;
}

