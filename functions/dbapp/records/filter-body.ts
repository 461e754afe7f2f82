import * as z from 'zod';
import { invalidParameter, type ToolError } from '../../../shared/core/errors';
import type { TapeAppField, TapeAppWithFields, TapeViewFilter } from '../wire';
import { filterField } from '../../../shared/fields/engine';
import { TAPE_FIELDS, isDateField, optionsOf, type TapeOperand } from '../fields';
import { filterValues } from '../params';
import { isObject } from '../../../shared/core/is-object';

/**
 * The record filter of filterRecords (docs/vendors/tape.md#record-filters), checked against the app before the call: the field
 * (by field_id or external_id), its field_type and the `type` discriminator (derived when omitted),
 * the match_type the field type accepts, the operands each match_type needs (category options by id
 * or text, resolved to ids; dates as "YYYY-MM-DD HH:MM:SS" or {date}), the operand keys that apply,
 * the checklist entry_property matrix and the metadata filters created_at / last_modified_at /
 * app_record_id. What passes is Tape's filter object.
 */

const RELATIVE_DATE_TYPES = ['today', 'tomorrow', 'yesterday', 'exact_date', 'num_days_before', 'num_days_after', 'num_weeks_before', 'num_weeks_after', 'num_months_before', 'num_months_after'] as const;
const RANGE_TYPES = ['current_week', 'current_month', 'current_year', 'past_week', 'past_month', 'past_year', 'next_week', 'next_month', 'next_year', 'next_num_days', 'past_num_days', 'exact_range'] as const;
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'] as const;
const ENTRY_PROPERTIES = ['title', 'assignee', 'status', 'due_date'] as const;

export const recordFilter = z
  .strictObject({
    field_id: z
      .union([z.number().int().positive(), z.string().min(1)])
      .optional()
      .describe('The field to filter on: its field_id or external_id (see getApp). Omit only for the metadata filters (type created_at, last_modified_at, app_record_id).'),
    field_type: z.string().optional().describe('The field\'s type (single_text, status, single_date, …); taken from the app when omitted.'),
    type: z
      .string()
      .optional()
      .describe('Filter discriminator; derived from the field when omitted. Give it for the field-less metadata filters: created_at, last_modified_at, app_record_id.'),
    match_type: z.string().describe('The operator: contains, equal, not_equal, any, none, smaller, larger, before, after, within, empty, not_empty, …; which apply depends on the field type.'),
    values: filterValues(
      'An option id or text, a record/user id, a text, a number, a date "YYYY-MM-DD HH:MM:SS" (or {"date": …, "offset_amount": N}).',
      'Operands as [{"value": …}], or the bare values (["Won"]); omit for empty / not_empty.',
    ),
    relative_date_type: z.enum(RELATIVE_DATE_TYPES).optional().describe('Date filters: today, tomorrow, yesterday (no value), exact_date (default), or num_days/weeks/months_before/after (value {"offset_amount": N}).'),
    relative_date_range_type: z.enum(RANGE_TYPES).optional().describe('Date filters with match_type within: the range (next/past_num_days take {"offset_amount": N}; exact_range takes a start date value and end_date).'),
    end_date: z.union([z.string(), z.number()]).optional().describe('End of an exact_range window, "YYYY-MM-DD HH:MM:SS".'),
    weekday: z.enum(WEEKDAYS).optional().describe('With match_type on_weekday.'),
    quarter_of_year: z.enum(['q1', 'q2', 'q3', 'q4']).optional().describe('With match_type in_quarter_of_year.'),
    month_of_year: z.enum(MONTHS).optional().describe('With match_type in_month_of_year.'),
    include_active_user: z.boolean().optional().describe('User filters and checklist assignee filters: also match the key\'s own user ("@me").'),
    entry_property: z.enum(ENTRY_PROPERTIES).optional().describe('Checklist filters: which entry property to test (title, assignee, status, due_date); omit for empty / not_empty of the whole list.'),
  })
  .describe('A filter {field_id (id or external_id), match_type, values}; field_type and type are derived from the field.');

export type RecordFilterInput = z.output<typeof recordFilter>;

const EMPTINESS = new Set(['empty', 'not_empty']);
const DATE_OPERAND_KEYS = ['relative_date_type', 'relative_date_range_type', 'end_date', 'weekday', 'quarter_of_year', 'month_of_year'] as const;
const CHECKLIST_OPS: Record<string, readonly string[]> = {
  '': ['empty', 'not_empty'],
  title: ['contains', 'not_contains', 'empty', 'not_empty'],
  assignee: ['equal', 'not_equal', 'empty', 'not_empty'],
  status: ['equal'],
  due_date: ['equal', 'not_equal', 'empty', 'not_empty', 'before', 'after', 'on_or_before', 'on_or_after', 'within'],
};
const META_TIMESTAMP_OPS = ['after', 'on_or_after', 'larger', 'larger_or_equal', 'before', 'on_or_before', 'smaller', 'smaller_or_equal'];
const NUMBER_OPS = ['equal', 'not_equal', 'smaller', 'smaller_or_equal', 'larger', 'larger_or_equal', 'empty', 'not_empty'];
const DATE_TEXT = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
const DATE_EXPECTED = 'a date "YYYY-MM-DD HH:MM:SS" (or {"date": "…"})';

const bad = (path: string, expected: string, problem: string): ToolError => invalidParameter(path, expected, `Parameter "${path}": ${problem}`);
const show = (v: unknown) => JSON.stringify(v) ?? String(v);

/** Tape's canonical date operand: ISO-8601 in UTC ("2025-03-01 00:00:00" → "2025-03-01T00:00:00.000Z"). */
function isoDate(s: string): string {
  const t = s.trim();
  const m = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2})(?::(\d{2}))?)?$/.exec(t);
  return m ? `${m[1]}T${m[2] ?? '00:00'}:${m[3] ?? '00'}.000Z` : t;
}

function validDate(s: string): boolean {
  const m = DATE_TEXT.exec(s.trim());
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]) && Number(m[4] ?? 0) < 24 && Number(m[5] ?? 0) < 60 && Number(m[6] ?? 0) < 60;
}

/** Checks every filter (paths `filters.<i>…`) and returns Tape's filter objects. */
export function checkRecordFilters(app: TapeAppWithFields, filters: readonly RecordFilterInput[]): TapeViewFilter[] {
  return filters.map((f, i) => checkFilter(app, f, `filters.${i}`));
}

/** One filter at `path` (views use it for the rules they share with record filters). */
export function checkFilter(app: TapeAppWithFields, f: RecordFilterInput, path: string): TapeViewFilter {
  if (f.field_id === undefined) return checkMeta(f, path);
  // The field by id or external_id, and its type's filter entry in Tape's table (discriminator, match types, operands).
  const { field, filter: spec } = filterField(TAPE_FIELDS, app, f.field_id, `${path}.field_id`);
  if (f.field_type !== undefined && f.field_type.toLowerCase() !== field.field_type) {
    throw bad(`${path}.field_type`, field.field_type, `field ${field.field_id} "${field.label}" is a ${field.field_type} field, not ${f.field_type}; omit field_type (it is taken from the app).`);
  }
  const returnType = field.field_type === 'calculation' && typeof field.config.settings?.return_type === 'string' ? (field.config.settings.return_type as string) : undefined;
  if (f.type !== undefined && f.type !== spec.type && f.type !== returnType) {
    throw bad(`${path}.type`, spec.type, `the filter type of a ${field.field_type} field is "${spec.type}", not "${f.type}"; omit type (it is derived).`);
  }
  const out: TapeViewFilter = { field_id: field.field_id, field_type: field.field_type, type: f.type ?? spec.type, match_type: f.match_type };
  const isChecklist = field.field_type === 'checklist';
  const ops = isChecklist ? (CHECKLIST_OPS[f.entry_property ?? ''] ?? []) : spec.match_types;
  if (!ops.includes(f.match_type)) {
    const what = isChecklist ? `a checklist filter${f.entry_property ? ` on ${f.entry_property}` : ' without entry_property'}` : `a ${field.field_type} filter`;
    throw bad(`${path}.match_type`, `one of ${ops.join(', ')}`, `${what} takes match_type ${ops.join(', ')}, not "${f.match_type}".${isChecklist && !f.entry_property ? ' Set entry_property (title, assignee, status, due_date) to test the items.' : ''}`);
  }
  if (f.entry_property !== undefined) {
    if (!isChecklist) throw bad(`${path}.entry_property`, 'omitted: checklist fields only', `entry_property applies to checklist fields; "${field.label}" is a ${field.field_type} field.`);
    out.entry_property = f.entry_property;
  }
  const dateFilter = isDateField(field) || (isChecklist && f.entry_property === 'due_date');
  for (const key of DATE_OPERAND_KEYS) {
    if (f[key] === undefined) continue;
    if (!dateFilter) throw bad(`${path}.${key}`, 'omitted: date filters only', `${key} applies to date filters; "${field.label}" is a ${field.field_type} field.`);
    out[key] = f[key];
  }
  if (f.include_active_user !== undefined) {
    const userFilter = spec.user === true || (isChecklist && f.entry_property === 'assignee');
    if (!userFilter) throw bad(`${path}.include_active_user`, 'omitted: user filters only', `include_active_user ("@me") applies to user fields and checklist assignee filters; "${field.label}" is a ${field.field_type} field.`);
    if (EMPTINESS.has(f.match_type)) throw bad(`${path}.include_active_user`, `omitted on ${f.match_type}`, `include_active_user cannot be combined with match_type "${f.match_type}".`);
    out.include_active_user = f.include_active_user;
  }
  if (EMPTINESS.has(f.match_type)) return out; // values are not used: left out
  if (field.field_type === 'status' && (f.match_type === 'completed' || f.match_type === 'incomplete')) return out;
  const values = operands(field, spec.operand, f, path, dateFilter, returnType);
  if (values) out.values = values;
  return out;
}

function need(f: RecordFilterInput, path: string, expected: string, n: 'one' | 'some'): unknown[] {
  const vs = (f.values ?? []).map((v) => v.value);
  if (vs.length === 0) throw bad(`${path}.values`, `[{"value": ${expected}}]`, `match_type "${f.match_type}" needs ${n === 'one' ? 'a value' : 'at least one value'}: values [{"value": …}] with ${expected}.`);
  if (n === 'one' && vs.length > 1) throw bad(`${path}.values`, `one value: ${expected}`, `match_type "${f.match_type}" takes exactly one value, got ${vs.length}.`);
  return vs;
}

function operands(field: TapeAppField, operand: TapeOperand, f: RecordFilterInput, path: string, dateFilter: boolean, returnType: string | undefined): { value: unknown }[] | undefined {
  const wrap = (vs: unknown[]) => vs.map((value) => ({ value }));
  const at = (j: number) => `${path}.values.${j}.value`;
  if (dateFilter) return dateOperands(f, path, field.field_type === 'checklist');
  switch (operand) {
    case 'options': {
      const opts = optionsOf(field);
      const list = opts.map((o) => `${o.id} "${o.text}"`).join(', ');
      return wrap(
        need(f, path, 'option ids or texts', 'some').map((v, j) => {
          if (typeof v === 'number' && opts.some((o) => o.id === v)) return v;
          if (typeof v === 'string') {
            const hits = opts.filter((o) => o.text.trim().toLowerCase() === v.trim().toLowerCase());
            if (hits.length === 1) return hits[0]!.id;
            if (hits.length > 1) throw bad(at(j), 'an option id', `"${v}" names ${hits.length} options of "${field.label}" (${hits.map((h) => h.id).join(', ')}); pass the id.`);
          }
          throw bad(at(j), `an option id or text of "${field.label}": ${list}`, `${show(v)} is not an option of "${field.label}". Options: ${list}.`);
        }),
      );
    }
    case 'record_ids':
    case 'user_ids': {
      const what = operand === 'record_ids' ? 'record ids' : 'user ids';
      if (f.include_active_user && !(f.values?.length)) return undefined;
      return wrap(
        need(f, path, what, 'some').map((v, j) => {
          if (typeof v === 'number' && Number.isInteger(v) && v > 0) return v;
          throw bad(at(j), what, `${show(v)} is not one of the ${what} this filter compares with.`);
        }),
      );
    }
    case 'number':
      return wrap([numberOperand(need(f, path, 'a number', 'one')[0], at(0))]);
    case 'calculation':
      if (returnType === 'number') return wrap([numberOperand(need(f, path, 'a number', 'one')[0], at(0))]);
      return wrap([textOperand(need(f, path, 'a text or number', 'one')[0], at(0), true)]);
    case 'checklist':
      if (f.entry_property === 'status') {
        const v = need(f, path, 'true (completed) or false (open)', 'one')[0];
        if (typeof v !== 'boolean') throw bad(at(0), 'true or false', `a checklist status filter compares with true (completed items) or false (open items), got ${show(v)}.`);
        return wrap([v]);
      }
      if (f.entry_property === 'assignee') {
        if (f.include_active_user && !(f.values?.length)) return undefined;
        return wrap(need(f, path, 'user ids', 'some').map((v, j) => {
          if (typeof v === 'number' && Number.isInteger(v) && v > 0) return v;
          throw bad(at(j), 'a user id', `${show(v)} is not a user id.`);
        }));
      }
      return wrap([textOperand(need(f, path, 'a text', 'one')[0], at(0), false)]);
    default:
      // text, multi_text, email, phone, link, location (numbers compare as text too); attachments compare file names
      return wrap([textOperand(need(f, path, 'a text', 'one')[0], at(0), operand !== 'file_name')]);
  }
}

function numberOperand(v: unknown, path: string): number {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim())) return Number(v);
  throw bad(path, 'a number', `${show(v)} is not a number.`);
}

function textOperand(v: unknown, path: string, numbersToo: boolean): string | number {
  if (typeof v === 'string') return v;
  if (numbersToo && typeof v === 'number') return v;
  throw bad(path, 'a text', `${show(v)} is not a text to compare with.`);
}

/** A date operand as Tape's canonical nested form {date, offset_amount?}. */
function dateValue(v: unknown, path: string, needOffset: boolean, needDate: boolean): Record<string, unknown> {
  const o = isObject(v) ? v : typeof v === 'string' ? { date: v } : undefined;
  if (!o) throw bad(path, DATE_EXPECTED, `${show(v)} is not a date.`);
  const extra = Object.keys(o).filter((k) => k !== 'date' && k !== 'offset_amount');
  if (extra.length) throw bad(`${path}.${extra[0]}`, '{"date", "offset_amount"}', `unknown key "${extra[0]}" in a date value.`);
  if (o.date !== undefined || needDate) {
    if (typeof o.date !== 'string' || !validDate(o.date)) {
      throw bad(`${path}${isObject(v) ? '.date' : ''}`, DATE_EXPECTED, `${show(o.date)} is not a date: write "YYYY-MM-DD HH:MM:SS" (e.g. "2025-03-01 00:00:00"). Relative dates use relative_date_type / relative_date_range_type instead.`);
    }
  }
  return normalize(o, needOffset, path);
}

function normalize(o: Record<string, unknown>, needOffset: boolean, path: string): Record<string, unknown> {
  if (needOffset && !(typeof o.offset_amount === 'number' && Number.isInteger(o.offset_amount) && o.offset_amount >= 0)) {
    throw bad(`${path}.offset_amount`, 'an integer >= 0', `this relative date needs {"offset_amount": N} (a whole number of days, weeks or months).`);
  }
  return typeof o.date === 'string' ? { ...o, date: isoDate(o.date) } : o;
}

function dateOperands(f: RecordFilterInput, path: string, checklist: boolean): { value: unknown }[] | undefined {
  const at = `${path}.values.0.value`;
  const first = f.values?.[0]?.value;
  if ((f.values?.length ?? 0) > 1) throw bad(`${path}.values`, 'one value', `a date filter takes one value, got ${f.values!.length}.`);
  const require = (key: 'weekday' | 'quarter_of_year' | 'month_of_year' | 'relative_date_range_type', example: string) => {
    if (f[key] === undefined) throw bad(`${path}.${key}`, example, `match_type "${f.match_type}" needs ${key}, e.g. ${example}.`);
  };
  switch (f.match_type) {
    case 'on_weekday':
      require('weekday', '"monday"');
      return undefined;
    case 'in_quarter_of_year':
      require('quarter_of_year', '"q1"');
      return undefined;
    case 'in_month_of_year':
      require('month_of_year', '"march"');
      return undefined;
    case 'within': {
      require('relative_date_range_type', '"current_month"');
      const range = f.relative_date_range_type!;
      if (range === 'exact_range') {
        if (checklist) throw bad(`${path}.relative_date_range_type`, 'a range other than exact_range', 'checklist due dates take no exact_range; use e.g. next_num_days or current_week.');
        if (f.end_date === undefined) throw bad(`${path}.end_date`, DATE_EXPECTED, 'exact_range needs end_date (the window end) and a start date value.');
        if (typeof f.end_date === 'string' && !validDate(f.end_date)) throw bad(`${path}.end_date`, DATE_EXPECTED, `${show(f.end_date)} is not a date.`);
        return [{ value: dateValue(first, at, false, true) }];
      }
      if (range === 'next_num_days' || range === 'past_num_days') return [{ value: dateValue(first ?? {}, at, true, false) }];
      return undefined;
    }
    default: {
      const rel = f.relative_date_type ?? 'exact_date';
      if (rel === 'today' || rel === 'tomorrow' || rel === 'yesterday') return undefined;
      if (rel.startsWith('num_')) return [{ value: dateValue(first ?? {}, at, true, false) }];
      if (first === undefined) {
        throw bad(`${path}.values`, '[{"value": "YYYY-MM-DD HH:MM:SS"}]', `match_type "${f.match_type}" compares with a date: values [{"value": "2025-03-01 00:00:00"}], or set relative_date_type today, yesterday or tomorrow.`);
      }
      return [{ value: dateValue(first, at, false, true) }];
    }
  }
}

/** The field-less metadata filters of docs/vendors/tape.md#record-filters: created_at, last_modified_at (timestamps), app_record_id (number). */
function checkMeta(f: RecordFilterInput, path: string): TapeViewFilter {
  const meta = f.type;
  if (meta !== 'created_at' && meta !== 'last_modified_at' && meta !== 'app_record_id') {
    throw bad(`${path}.field_id`, 'a field_id or external_id', 'every filter names a field (field_id: its id or external_id), except the metadata filters with type created_at, last_modified_at or app_record_id.');
  }
  for (const key of ['field_type', 'entry_property', 'include_active_user', 'relative_date_range_type', 'end_date', 'weekday', 'quarter_of_year', 'month_of_year'] as const) {
    if (f[key] !== undefined) throw bad(`${path}.${key}`, `omitted on a ${meta} filter`, `a ${meta} metadata filter takes type, match_type and values only.`);
  }
  const out = { type: meta, match_type: f.match_type } as unknown as TapeViewFilter;
  if (meta === 'app_record_id') {
    if (!NUMBER_OPS.includes(f.match_type)) throw bad(`${path}.match_type`, `one of ${NUMBER_OPS.join(', ')}`, `an app_record_id filter takes ${NUMBER_OPS.join(', ')}, not "${f.match_type}".`);
    if (f.relative_date_type !== undefined) throw bad(`${path}.relative_date_type`, 'omitted', 'app_record_id is a number, not a date.');
    out.values = [{ value: numberOperand(need(f, path, 'a number', 'one')[0], `${path}.values.0.value`) }];
    return out;
  }
  if (!META_TIMESTAMP_OPS.includes(f.match_type)) {
    throw bad(`${path}.match_type`, `one of ${META_TIMESTAMP_OPS.join(', ')}`, `a ${meta} filter takes ${META_TIMESTAMP_OPS.join(', ')} (bounds are inclusive), not "${f.match_type}". For a window use two filters.`);
  }
  if (f.relative_date_type !== undefined && f.relative_date_type !== 'exact_date') {
    throw bad(`${path}.relative_date_type`, 'exact_date or omitted', `${meta} filters take absolute dates only; pass values [{"value": "YYYY-MM-DD HH:MM:SS"}].`);
  }
  if (f.relative_date_type) out.relative_date_type = f.relative_date_type;
  out.values = [{ value: dateValue(need(f, path, '"YYYY-MM-DD HH:MM:SS"', 'one')[0], `${path}.values.0.value`, false, true) }];
  return out;
}
