import * as engine from '../../../shared/fields/engine';
import { isDate, isDateTime } from '../../../shared/fields/values';
import { appFields, COLLAB_FIELDS, type PodioApp, type PodioAppField } from '../fields';
import type { FilterContext } from '../fields/table';
import { settingsOf } from '../fields/types/common';

/**
 * The filters of a view (docs/spec.md#collab-view) checked against the app before any call, as Podio checks them,
 * on the collab field table: a field's filter entry (category options by id or text, {from, to}
 * ranges, item and profile ids) does the per-type work, as it does for filterItems. Views differ
 * from filterItems in four ways, settled here: text fields cannot be filtered (filterItems' partial
 * match is no view filter); dates also take relative tokens (Tape refuses them, Podio accepts them);
 * null among category or relation ids matches items without a value; and the system keys
 * created_by / last_edit_by ({type: "user", id}, 0 = the reader), created_on / last_edit_on, tags.
 */

export interface ViewFilterWrite { key: string; values: unknown }

/** Podio's relative dates: sign, a count, a unit (day, week, month, year), `r` to round to whole units. */
export const RELATIVE_DATE = /^[+-]\d{1,4}[dwmy]r?$/;

export const SYSTEM_KEYS = ['created_by', 'last_edit_by', 'created_on', 'last_edit_on', 'tags'] as const;
const USERS_EXPECTED = 'an array of {"type": "user", "id": <user_id>} (id 0 = whoever reads the view), e.g. [{"type": "user", "id": 0}]';
const TAGS_EXPECTED = 'an array of tag strings, e.g. ["priority"]';
export const DATE_RANGE_EXPECTED =
  '{"from", "to"} (either may be left out), each "YYYY-MM-DD" or a relative date: sign, number, unit d/w/m/y, optional r to round to whole units — e.g. {"from": "-7d", "to": "+0d"} (the last 7 days) or {"from": "-1mr", "to": "-1mr"} (last month)';

const fail = (at: string, expected: string, problem: string): never => {
  throw engine.fieldError(at, expected, problem);
};

/** A date range of a view: absolute days or relative tokens; two absolute bounds in order. */
function dateRange(value: unknown, at: string): { from?: string; to?: string } {
  if (!engine.isObject(value)) return fail(at, DATE_RANGE_EXPECTED, `a date filter is a range {"from", "to"}, got ${engine.show(value)}.`);
  const extra = Object.keys(value).filter((k) => k !== 'from' && k !== 'to');
  if (extra.length) fail(`${at}.${extra[0]}`, DATE_RANGE_EXPECTED, `unknown key "${extra[0]}"; a range is {"from", "to"}.`);
  const out: { from?: string; to?: string } = {};
  for (const k of ['from', 'to'] as const) {
    const b = value[k];
    if (b === undefined || b === null) continue;
    const s = typeof b === 'string' ? b.trim() : '';
    if (!(RELATIVE_DATE.test(s) || isDate(s) || isDateTime(s))) {
      const hint = /^\d+[dwmy]r?$/.test(s) ? ` Give the sign: "-${s}" (past) or "+${s}" (future).` : '';
      fail(`${at}.${k}`, DATE_RANGE_EXPECTED, `${engine.show(b)} is neither a date "YYYY-MM-DD" nor a relative date.${hint}`);
    }
    out[k] = s;
  }
  if (out.from === undefined && out.to === undefined) fail(at, DATE_RANGE_EXPECTED, 'the range needs "from", "to" or both.');
  if (out.from && out.to && !RELATIVE_DATE.test(out.from) && !RELATIVE_DATE.test(out.to) && out.from > out.to) fail(`${at}.to`, DATE_RANGE_EXPECTED, `"from" (${out.from}) lies after "to" (${out.to}).`);
  return out;
}

function users(value: unknown, at: string): { type: 'user'; id: number }[] {
  if (!Array.isArray(value) || value.length === 0) return fail(at, USERS_EXPECTED, `got ${engine.show(value)}.`);
  return value.map((u, j) => {
    // A bare user id is taken as {type: "user", id}.
    const idOf = engine.isObject(u) ? (u.type === 'user' && Object.keys(u).length === 2 ? u.id : undefined) : u;
    if (typeof idOf !== 'number' || !Number.isInteger(idOf) || idOf < 0) return fail(`${at}.${j}`, USERS_EXPECTED, `${engine.show(u)} is not {"type": "user", "id": <user_id or 0>}.`);
    return { type: 'user' as const, id: idOf };
  });
}

function tags(value: unknown, at: string): string[] {
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || list.length === 0) return fail(at, TAGS_EXPECTED, `got ${engine.show(value)}.`);
  return list.map((t, j) => (typeof t === 'string' && t.trim() !== '' ? t.trim() : fail(`${at}.${j}`, TAGS_EXPECTED, `${engine.show(t)} is not a tag.`)));
}

const isDateField = (f: PodioAppField) => f.type === 'date' || (f.type === 'calculation' && settingsOf(f).return_type === 'date');
/** Types whose id lists take null for "no value". */
const NULLABLE = new Set(['category', 'question', 'app']);

function fieldFilter(app: PodioApp, key: string | number, value: unknown, at: string): { key: string; values: unknown } {
  const a = appFields(app);
  const field = engine.requireField(COLLAB_FIELDS, a, key, `${at}.key`);
  const fid = String(field.field_id);
  const vat = `${at}.values`;
  if (field.type === 'text') {
    fail(`${at}.key`, 'a field that is not a text field, or a system key', `field ${fid} "${field.label}" is a text field, and Podio cannot filter a view by text. To find items by their text use filterItems (a text filter matches part of the text) or searchPodio.`);
  }
  if (isDateField(field)) return { key: fid, values: dateRange(value, vat) };
  // Legacy question fields hold options as categories do.
  const entry = field.type === 'question' ? COLLAB_FIELDS.types.category! : engine.entryOf(COLLAB_FIELDS, field.type);
  if (!entry.filter) return fail(`${at}.key`, 'a field that can be filtered', `field ${fid} "${field.label}" is a ${field.type} field, which cannot be filtered.`);
  const filter = entry.filter;
  const expected = filter.expected(field);
  const cx = (path: string): FilterContext => ({ field, path, expected, fail: (problem, where = path) => fail(where, expected, problem) });
  if (NULLABLE.has(field.type) || field.type === 'contact') {
    const list = Array.isArray(value) ? value : [value];
    if (list.length === 0) fail(vat, expected, 'pass at least one value.');
    const out = list.map((item, j) => {
      const path = Array.isArray(value) ? `${vat}.${j}` : vat;
      if (item === null) return NULLABLE.has(field.type) ? null : fail(path, expected, 'null ("no value") is for category and relation filters only.');
      return (filter.input(item, cx(path)) as unknown[])[0];
    });
    return { key: fid, values: [...new Set(out)] };
  }
  const values = filter.input(value, cx(vat)) as { from?: number; to?: number };
  if (field.type === 'progress') {
    for (const k of ['from', 'to'] as const) if (values[k] !== undefined && (values[k]! < 0 || values[k]! > 100)) fail(`${vat}.${k}`, expected, `progress runs from 0 to 100, got ${values[k]}.`);
  }
  return { key: fid, values };
}

/** A view's `filters` → Podio's list of {key, values}, field keys as field ids; every problem is INVALID_PARAMETER at `filters.<i>…`. */
export function planViewFilters(app: PodioApp, filters: readonly { key: string | number; values?: unknown }[], path = 'filters'): ViewFilterWrite[] {
  const seen = new Set<string>();
  return filters.map((f, i) => {
    const at = `${path}.${i}`;
    if (f.values === undefined) fail(`${at}.values`, 'the values of the filter', 'each filter is {"key", "values"}: "values" is missing.');
    let out: ViewFilterWrite;
    switch (f.key) {
      case 'created_by':
      case 'last_edit_by':
        out = { key: f.key, values: users(f.values, `${at}.values`) };
        break;
      case 'created_on':
      case 'last_edit_on':
        out = { key: f.key, values: dateRange(f.values, `${at}.values`) };
        break;
      case 'tags':
        out = { key: f.key, values: tags(f.values, `${at}.values`) };
        break;
      default:
        out = fieldFilter(app, f.key, f.values, at);
    }
    if (seen.has(out.key)) fail(`${at}.key`, 'each key once', `"${out.key}" is filtered twice; give all its values in one filter.`);
    seen.add(out.key);
    return out;
  });
}
