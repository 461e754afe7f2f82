/**
 * The record filter engine of the Tape twin (docs/vendors/tape.md#record-filters).
 *
 * One filter object serves `POST /v1/record/filter/app/{app_id}` and app views: `validateFilters`
 * checks a `filters` array against the app's fields the way Tape does (400 validation_error
 * naming the filter and what is wrong) and returns it normalized (field ids as numbers, field
 * types lower-case, option labels resolved to option ids, date operands nested); `recordMatches`
 * evaluates the normalized filters (AND) against one stored record.
 *
 * Dates: the API works in UTC only (docs/vendors/tape.md#dates-and-time-zones), so "the caller's timezone" is UTC here.
 * A negative operator (`not_equal`, `not_contains`, `none`, `not_empty`) is always the exact
 * complement of its positive one, so records with an empty value match it.
 */
import { validation } from './http';
import type { TapeApp, TapeField, TapeRecordRow } from './model';
import { isObject } from '../kit/request';

export interface TapeFilter {
  field_id: number | string;
  field_type: string;
  type: string;
  match_type: string;
  values?: { value: unknown }[];
  [operand: string]: unknown;
}

export interface FilterContext {
  /** The API key's owner: what `include_active_user` ("@me") resolves to. */
  userId: number;
  now: Date;
}

export interface ValidateFiltersOptions {
  /** View filters: `field_type` is required and the field-less metadata filters are refused (docs/vendors/tape.md#views). */
  forView?: boolean;
}

// ---------------------------------------------------------------- match types and operand keys

const TEXT_OPS = ['equal', 'not_equal', 'contains', 'not_contains', 'starts_with', 'ends_with', 'empty', 'not_empty'] as const;
const NUMBER_OPS = ['equal', 'not_equal', 'smaller', 'smaller_or_equal', 'larger', 'larger_or_equal', 'empty', 'not_empty'] as const;
const SINGLE_REF_OPS = ['equal', 'not_equal', 'any', 'none', 'empty', 'not_empty'] as const;
const MULTI_REF_OPS = ['equal', 'contains', 'any', 'none', 'empty', 'not_empty'] as const;
const STATUS_OPS = [...SINGLE_REF_OPS, 'completed', 'incomplete'] as const;
const DATE_OPS = ['equal', 'not_equal', 'before', 'on_or_before', 'after', 'on_or_after', 'within', 'on_weekday', 'in_quarter_of_year', 'in_month_of_year', 'empty', 'not_empty'] as const;
const ENTRY_OPS = ['fully_includes', 'contains', 'not_contains', 'starts_with', 'ends_with', 'empty', 'not_empty'] as const;
const LINK_OPS = ['contains', 'not_contains', 'starts_with', 'ends_with', 'empty', 'not_empty'] as const;
const LOCATION_OPS = ['contains', 'not_contains', 'empty', 'not_empty'] as const;
const CALC_NUMBER_OPS = ['equal', 'not_equal', 'smaller', 'smaller_or_equal', 'larger', 'larger_or_equal', 'empty', 'not_empty'] as const;
const CALC_TEXT_OPS = TEXT_OPS;
const CALC_DATE_OPS = DATE_OPS;
const CALC_OPS = [...new Set<string>([...CALC_NUMBER_OPS, ...CALC_TEXT_OPS, ...CALC_DATE_OPS])];
const CHECKLIST_OPS: Record<string, readonly string[]> = {
  '': ['empty', 'not_empty'],
  title: ['contains', 'not_contains', 'empty', 'not_empty'],
  assignee: ['equal', 'not_equal', 'empty', 'not_empty'],
  status: ['equal'],
  due_date: ['equal', 'not_equal', 'empty', 'not_empty', 'before', 'after', 'on_or_before', 'on_or_after', 'within'],
};
const CHECKLIST_ALL_OPS = [...new Set(Object.values(CHECKLIST_OPS).flat())];

const RELATIVE_DATE_TYPES = ['today', 'tomorrow', 'yesterday', 'exact_date', 'num_days_before', 'num_days_after', 'num_weeks_before', 'num_weeks_after', 'num_months_before', 'num_months_after'] as const;
const ZERO_ARG_DATE_TYPES = new Set(['today', 'tomorrow', 'yesterday']);
const RANGE_TYPES = ['current_week', 'current_month', 'current_year', 'past_week', 'past_month', 'past_year', 'next_week', 'next_month', 'next_year', 'next_num_days', 'past_num_days', 'exact_range'] as const;
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
const QUARTERS = ['q1', 'q2', 'q3', 'q4'] as const;
const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'] as const;
const ENTRY_PROPERTIES = ['title', 'assignee', 'status', 'due_date'] as const;

const DATE_KEYS = ['relative_date_type', 'relative_date_range_type', 'end_date', 'weekday', 'quarter_of_year', 'month_of_year', 'offset_amount'] as const;
const OPERAND_KEYS = new Set<string>([...DATE_KEYS, 'include_active_user', 'entry_property']);
const BASE_KEYS = new Set(['field_id', 'field_type', 'type', 'match_type', 'values']);
const CALENDAR_OPS = new Set(['within', 'on_weekday', 'in_quarter_of_year', 'in_month_of_year']);
const DAY_COMPARISONS = new Set(['equal', 'not_equal', 'before', 'on_or_before', 'after', 'on_or_after']);
/** A negative operator is the complement of its positive one. */
const NEGATION: Record<string, string> = { not_equal: 'equal', not_contains: 'contains', none: 'any', not_empty: 'empty' };

type Kind = 'text' | 'number' | 'unique_id' | 'category' | 'status' | 'relation' | 'user' | 'date' | 'calculation' | 'entries' | 'link' | 'location' | 'file' | 'checklist';

interface Spec {
  kind: Kind;
  /** The `type` discriminator docs/vendors/tape.md#record-filters prescribes for the field type. */
  type: string;
  ops: readonly string[];
  /** Operand keys accepted beside the base keys. */
  keys: readonly string[];
  multi: boolean;
}

const spec = (kind: Kind, type: string, ops: readonly string[], keys: readonly string[] = [], multi = false): Spec => ({ kind, type, ops, keys, multi });

const SPECS: Record<string, Spec> = {
  single_text: spec('text', 'text', TEXT_OPS),
  multi_text: spec('text', 'text', TEXT_OPS),
  number: spec('number', 'number', NUMBER_OPS),
  unique_id: spec('unique_id', 'number', NUMBER_OPS),
  single_category: spec('category', 'category', SINGLE_REF_OPS),
  multi_category: spec('category', 'category', MULTI_REF_OPS, [], true),
  status: spec('status', 'status', STATUS_OPS),
  single_relation: spec('relation', 'app', SINGLE_REF_OPS),
  multi_relation: spec('relation', 'app', MULTI_REF_OPS, [], true),
  single_user: spec('user', 'contact', SINGLE_REF_OPS, ['include_active_user']),
  multi_user: spec('user', 'contact', MULTI_REF_OPS, ['include_active_user'], true),
  created_by: spec('user', 'contact', SINGLE_REF_OPS, ['include_active_user']),
  last_modified_by: spec('user', 'contact', SINGLE_REF_OPS, ['include_active_user']),
  single_date: spec('date', 'date', DATE_OPS, DATE_KEYS),
  range_date: spec('date', 'date', DATE_OPS, DATE_KEYS),
  created_on: spec('date', 'date', DATE_OPS, DATE_KEYS),
  last_modified_on: spec('date', 'date', DATE_OPS, DATE_KEYS),
  calculation: spec('calculation', 'calculation', CALC_OPS, DATE_KEYS),
  multi_email: spec('entries', 'email', ENTRY_OPS, [], true),
  multi_phone: spec('entries', 'phone', ENTRY_OPS, [], true),
  multi_link: spec('link', 'embed', LINK_OPS, [], true),
  single_location: spec('location', 'location', LOCATION_OPS),
  single_attachment: spec('file', 'file', TEXT_OPS),
  multi_attachment: spec('file', 'file', TEXT_OPS, [], true),
  multi_image: spec('file', 'file', TEXT_OPS, [], true),
  checklist: spec('checklist', 'checklist', CHECKLIST_ALL_OPS, ['entry_property', 'include_active_user', 'relative_date_type', 'relative_date_range_type', 'offset_amount'], true),
};

/** Field types the docs name two ways (docs/vendors/tape.md#fields-and-values says created_at/last_modified_at; docs/vendors/tape.md#record-filters created_on/last_modified_on). */
const FIELD_TYPE_ALIASES: Record<string, string> = { created_at: 'created_on', last_modified_at: 'last_modified_on' };

const META_TYPES = new Set(['created_at', 'last_modified_at', 'app_record_id']);
const META_TIMESTAMP_OPS: Record<string, 'gte' | 'lte'> = {
  after: 'gte', on_or_after: 'gte', larger: 'gte', larger_or_equal: 'gte',
  before: 'lte', on_or_before: 'lte', smaller: 'lte', smaller_or_equal: 'lte',
};

/** The `type` discriminator a filter on a field of this field_type must carry (docs/vendors/tape.md#record-filters), or undefined if it cannot be filtered. */
export function filterTypeFor(fieldType: string): string | undefined {
  return SPECS[canonicalFieldType(fieldType)]?.type;
}

/** True for the field-less metadata filters (`created_at`, `last_modified_at`, `app_record_id`). */
export function isMetaFilter(f: { type?: unknown; field_id?: unknown }): boolean {
  return typeof f.type === 'string' && META_TYPES.has(f.type) && (f.field_id === undefined || f.field_id === null);
}

function canonicalFieldType(ft: string): string {
  const lower = ft.toLowerCase();
  return FIELD_TYPE_ALIASES[lower] ?? lower;
}

// ---------------------------------------------------------------- validation

type Obj = Record<string, unknown>;
const list = (xs: readonly string[]) => xs.join(', ');

class FilterError extends Error {}
const bad = (message: string): never => {
  throw new FilterError(message);
};

/**
 * Validates a `filters` array against the app's fields as Tape does; throws TapeHttpError
 * (400 validation_error, message naming the filter index/field and what is wrong).
 * Returns the normalized filters. `undefined`/`null` mean "no filters".
 */
export function validateFilters(app: TapeApp, filters: unknown, opts: ValidateFiltersOptions = {}): TapeFilter[] {
  if (filters === undefined || filters === null) return [];
  if (!Array.isArray(filters)) throw validation(`"filters" must be an array of filter objects, got ${describe(filters)}.`);
  return filters.map((raw, i) => {
    let where = `filters[${i}]`;
    try {
      if (!isObject(raw)) return bad(`must be a filter object, got ${describe(raw)}`);
      if (raw.type === undefined || raw.type === null) return bad('"type" is required (the data-type discriminator, e.g. "text", "status", "date")');
      if (typeof raw.type !== 'string') return bad(`"type" must be a string, got ${describe(raw.type)}`);
      if ((raw.field_id === undefined || raw.field_id === null) && META_TYPES.has(raw.type)) {
        where = `filters[${i}] (${raw.type} metadata filter)`;
        if (opts.forView) return bad(`view filters accept field filters only; the "${raw.type}" metadata filter is not allowed here`);
        return validateMeta(raw);
      }
      const field = resolveField(app, raw);
      const fieldType = canonicalFieldType(field.field_type);
      where = `filters[${i}] (field ${field.field_id} "${field.label}", ${fieldType})`;
      return validateFieldFilter(raw, field, fieldType, opts);
    } catch (err) {
      if (err instanceof FilterError) throw validation(`Invalid filter ${where}: ${err.message}.`);
      throw err;
    }
  });
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'object') return 'an object';
  return String(v);
}

function resolveField(app: TapeApp, raw: Obj): TapeField {
  const id = raw.field_id;
  if (id === undefined || id === null) {
    return bad(`"field_id" is required (only the metadata filter types ${list([...META_TYPES])} go without one)`);
  }
  const n = typeof id === 'number' ? id : typeof id === 'string' && /^\s*\d+\s*$/.test(id) ? Number(id) : NaN;
  if (!Number.isSafeInteger(n) || n <= 0) return bad(`"field_id" must be a numeric field id, got ${describe(id)}`);
  const field = app.fields.find((f) => f.field_id === n);
  if (!field) return bad(`field ${n} is not a field of app ${app.app_id}`);
  return field;
}

function checkKeys(raw: Obj, allowed: ReadonlySet<string>, what: string): void {
  for (const key of Object.keys(raw)) {
    if (allowed.has(key)) continue;
    if (OPERAND_KEYS.has(key)) bad(`the operand key "${key}" is not accepted for ${what} filters`);
    bad(`unknown key "${key}"`);
  }
}

function readValues(raw: Obj): unknown[] {
  const v = raw.values;
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) return bad(`"values" must be an array of {"value": …} objects, got ${describe(v)}`);
  return v.map((entry, j) => {
    if (!isObject(entry) || !('value' in entry)) return bad(`values[${j}] must be an object {"value": …}`);
    return entry.value;
  });
}

function matchTypeOf(raw: Obj, ops: readonly string[], fieldType: string): string {
  const m = raw.match_type;
  if (m === undefined || m === null) return bad(`"match_type" is required; ${fieldType} filters accept ${list(ops)}`);
  if (typeof m !== 'string') return bad(`"match_type" must be a string, got ${describe(m)}`);
  if (fieldType === 'multi_link' && (m === 'equal' || m === 'fully_includes')) {
    return bad(`match_type "${m}" is not supported: link fields have no exact-match arm; use contains, starts_with or ends_with`);
  }
  if (!ops.includes(m)) return bad(`match_type "${m}" is not supported for ${fieldType}; use one of ${list(ops)}`);
  return m;
}

function validateFieldFilter(raw: Obj, field: TapeField, fieldType: string, opts: ValidateFiltersOptions): TapeFilter {
  const sp = SPECS[fieldType];
  if (!sp) return bad(`fields of type "${fieldType}" cannot be filtered`);

  if (raw.field_type === undefined || raw.field_type === null) {
    if (opts.forView) bad(`"field_type" is required for view filters (this field is "${fieldType}")`);
  } else if (typeof raw.field_type !== 'string') {
    bad(`"field_type" must be a string, got ${describe(raw.field_type)}`);
  } else if (canonicalFieldType(raw.field_type) !== fieldType) {
    bad(`"field_type" is "${raw.field_type}" but the field is "${fieldType}"`);
  }

  const calcReturn = sp.kind === 'calculation' ? calculationReturnType(field) : undefined;
  const allowedTypes = sp.kind === 'calculation' && calcReturn ? [sp.type, calcReturn] : [sp.type];
  if (!allowedTypes.includes(raw.type as string)) {
    bad(`"type" must be "${sp.type}" for ${fieldType} fields, got ${describe(raw.type)}`);
  }

  const keys = new Set<string>([...BASE_KEYS, ...sp.keys]);
  checkKeys(raw, keys, fieldType);

  const base: TapeFilter = { field_id: field.field_id, field_type: fieldType, type: raw.type as string, match_type: '' };
  switch (sp.kind) {
    case 'text':
    case 'entries':
    case 'link':
    case 'location':
    case 'file':
      return validateTextLike(raw, base, sp, fieldType);
    case 'number':
    case 'unique_id':
      return validateNumber(raw, base, sp.ops, fieldType);
    case 'category':
    case 'status':
      return validateOptions(raw, base, sp, field, fieldType);
    case 'relation':
    case 'user':
      return validateIds(raw, base, sp, fieldType);
    case 'date':
      return validateDate(raw, base, sp.ops, fieldType, true);
    case 'calculation':
      return validateCalculation(raw, base, calcReturn);
    case 'checklist':
      return validateChecklist(raw, base);
  }
}

function emptyOp(m: string): boolean {
  return m === 'empty' || m === 'not_empty';
}

/** Exactly one operand value; empty/not_empty take none (a sent `values` is ignored and dropped). */
function singleValue(raw: Obj, m: string): unknown {
  const values = readValues(raw);
  if (values.length === 0) return bad(`match_type "${m}" needs one value in "values": [{"value": …}]`);
  if (values.length > 1) return bad(`match_type "${m}" takes exactly one value, got ${values.length}`);
  return values[0];
}

function validateTextLike(raw: Obj, base: TapeFilter, sp: Spec, fieldType: string, ops: readonly string[] = sp.ops): TapeFilter {
  const m = matchTypeOf(raw, ops, fieldType);
  if (emptyOp(m)) return { ...base, match_type: m };
  const v = singleValue(raw, m);
  let text: string;
  if (typeof v === 'string') text = v;
  else if (typeof v === 'number' && sp.kind !== 'file') text = String(v);
  else if (sp.kind === 'file') return bad(`file filters match on the file name, never on file ids: the value must be a string, got ${describe(v)}`);
  else return bad(`the value must be a string, got ${describe(v)}`);
  if (text.trim() === '') return bad(`the value must not be blank (use match_type "empty" to find records without a value)`);
  return { ...base, match_type: m, values: [{ value: text }] };
}

function toNumber(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return undefined;
}

function validateNumber(raw: Obj, base: TapeFilter, ops: readonly string[], fieldType: string): TapeFilter {
  const m = matchTypeOf(raw, ops, fieldType);
  if (emptyOp(m)) return { ...base, match_type: m };
  const v = singleValue(raw, m);
  const n = toNumber(v);
  if (n === undefined) return bad(`the value must be a bare number, got ${describe(v)}`);
  return { ...base, match_type: m, values: [{ value: n }] };
}

interface Option { id: number; text: string; means_completed?: boolean }

function optionsOf(field: TapeField): Option[] | undefined {
  const opts = field.config?.settings?.options;
  if (!Array.isArray(opts)) return undefined;
  return opts.filter(isObject).flatMap((o) => (typeof o.id === 'number' ? [{ id: o.id, text: String(o.text ?? ''), ...(typeof o.means_completed === 'boolean' ? { means_completed: o.means_completed } : {}) }] : []));
}

function validateOptions(raw: Obj, base: TapeFilter, sp: Spec, field: TapeField, fieldType: string): TapeFilter {
  const m = matchTypeOf(raw, sp.ops, fieldType);
  if (emptyOp(m) || m === 'completed' || m === 'incomplete') return { ...base, match_type: m };
  const values = readValues(raw);
  if (values.length === 0) return bad(`match_type "${m}" needs at least one option id or label in "values"`);
  if (!sp.multi && (m === 'equal' || m === 'not_equal') && values.length > 1) {
    return bad(`match_type "${m}" takes exactly one option, got ${values.length}; use "any"/"none" for several`);
  }
  const options = optionsOf(field);
  const ids = values.map((v, j) => {
    if (typeof v === 'number') {
      if (!Number.isSafeInteger(v)) return bad(`values[${j}] must be an option id or label, got ${v}`);
      if (options && !options.some((o) => o.id === v)) return bad(`values[${j}]: ${v} is not an option of this field (options: ${optionList(options)})`);
      return v;
    }
    if (typeof v !== 'string' || v.trim() === '') return bad(`values[${j}] must be an option id or label, got ${describe(v)}`);
    const label = v.trim().toLowerCase();
    const hits = (options ?? []).filter((o) => o.text.trim().toLowerCase() === label);
    if (hits.length > 1) return bad(`values[${j}]: the label "${v}" matches ${hits.length} options (ids ${hits.map((o) => o.id).join(', ')}); use the option id`);
    if (hits.length === 1) return hits[0]!.id;
    if (/^\d+$/.test(v.trim()) && (!options || options.some((o) => o.id === Number(v)))) return Number(v);
    return bad(`values[${j}]: no option is labelled "${v}"${options ? ` (options: ${optionList(options)})` : ''}`);
  });
  return { ...base, match_type: m, values: ids.map((value) => ({ value })) };
}

function optionList(options: Option[]): string {
  return options.map((o) => `${o.id} "${o.text}"`).join(', ');
}

function toId(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v > 0) return v;
  if (typeof v === 'string' && /^\s*\d+\s*$/.test(v) && Number(v) > 0) return Number(v);
  return undefined;
}

function activeUserFlag(raw: Obj): boolean | undefined {
  const flag = raw.include_active_user;
  if (flag === undefined || flag === null) return undefined;
  if (typeof flag !== 'boolean') return bad(`"include_active_user" must be a boolean, got ${describe(flag)}`);
  return flag;
}

function validateIds(raw: Obj, base: TapeFilter, sp: Spec, fieldType: string): TapeFilter {
  const m = matchTypeOf(raw, sp.ops, fieldType);
  const me = sp.kind === 'user' ? activeUserFlag(raw) : undefined;
  if (emptyOp(m)) {
    if (me) bad(`"include_active_user" cannot be combined with match_type "${m}"`);
    return { ...base, match_type: m };
  }
  const what = sp.kind === 'user' ? 'user id' : 'record id';
  const ids = readValues(raw).map((v, j) => toId(v) ?? bad(`values[${j}] must be a ${what}, got ${describe(v)}`));
  if (ids.length === 0 && !me) {
    return bad(`match_type "${m}" needs at least one ${what} in "values"${sp.kind === 'user' ? ' or "include_active_user": true' : ''}`);
  }
  if (!sp.multi && (m === 'equal' || m === 'not_equal') && ids.length > 1) {
    return bad(`match_type "${m}" takes exactly one ${what}, got ${ids.length}; use "any"/"none" for several`);
  }
  const out: TapeFilter = { ...base, match_type: m };
  if (ids.length > 0) out.values = ids.map((value) => ({ value }));
  if (me !== undefined) out.include_active_user = me;
  return out;
}

function oneOf<T extends string>(raw: Obj, key: string, allowed: readonly T[]): T | undefined {
  const v = raw[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) return bad(`"${key}" must be one of ${list(allowed)}, got ${describe(v)}`);
  return v as T;
}

/**
 * Date operands (single_date, range_date, created_on, last_modified_on, date calculations; checklist due_date
 * with `calendar` false). `anchored`: the num_* offsets apply to values[0].value.date (else to today).
 */
function validateDate(raw: Obj, base: TapeFilter, ops: readonly string[], fieldType: string, calendar: boolean): TapeFilter {
  const m = matchTypeOf(raw, ops, fieldType);
  const rdt = oneOf(raw, 'relative_date_type', RELATIVE_DATE_TYPES);
  const range = oneOf(raw, 'relative_date_range_type', RANGE_TYPES);
  const weekday = oneOf(raw, 'weekday', WEEKDAYS);
  const quarter = oneOf(raw, 'quarter_of_year', QUARTERS);
  const month = oneOf(raw, 'month_of_year', MONTHS);
  const out: TapeFilter = { ...base, match_type: m };
  for (const key of DATE_KEYS) if (raw[key] !== undefined && raw[key] !== null && key !== 'offset_amount') out[key] = raw[key];
  if (emptyOp(m)) return out;

  const values = readValues(raw);
  if (values.length > 1) bad(`date filters take at most one value, got ${values.length}`);
  const operand = values.length === 1 ? dateOperand(values[0]) : undefined;
  const offsetHint = raw.offset_amount !== undefined ? ' (offset_amount belongs inside values[0].value, not at the top level)' : '';
  const needOffset = (why: string) => {
    if (operand?.offset_amount === undefined) bad(`${why} needs an integer values[0].value.offset_amount${offsetHint}`);
  };

  if (DAY_COMPARISONS.has(m)) {
    const type = rdt ?? 'exact_date';
    if (type === 'exact_date') {
      if (operand?.date === undefined) bad(`match_type "${m}" needs a date: values[0].value.date as an ISO-8601 string (or a relative_date_type such as "today")`);
    } else if (type.startsWith('num_')) {
      needOffset(`relative_date_type "${type}"`);
    }
  } else if (m === 'within') {
    if (!range) bad(`match_type "within" needs "relative_date_range_type" (one of ${list(calendar ? RANGE_TYPES : RANGE_TYPES.filter((r) => r !== 'exact_range'))})`);
    if (range === 'next_num_days' || range === 'past_num_days') needOffset(`relative_date_range_type "${range}"`);
    if (range === 'exact_range') {
      if (!calendar) bad('relative_date_range_type "exact_range" is not available for checklist due_date filters; use a bounded range such as next_num_days or current_week');
      if (operand?.date === undefined) bad('relative_date_range_type "exact_range" needs the range start in values[0].value.date');
      const end = raw.end_date;
      if (end === undefined || end === null) bad('relative_date_range_type "exact_range" needs the range end in the top-level "end_date"');
      const endMs = endDateMs(end);
      if (endMs === undefined) bad(`"end_date" must be an ISO-8601 date string or an epoch number, got ${describe(end)}`);
      if (dayStart(endMs!) < dayStart(parseDate(operand!.date)!)) bad('"end_date" lies before the range start in values[0].value.date');
    }
  } else if (m === 'on_weekday') {
    if (!weekday) bad(`match_type "on_weekday" needs "weekday" (one of ${list(WEEKDAYS)})`);
  } else if (m === 'in_quarter_of_year') {
    if (!quarter) bad(`match_type "in_quarter_of_year" needs "quarter_of_year" (one of ${list(QUARTERS)})`);
  } else if (m === 'in_month_of_year') {
    if (!month) bad(`match_type "in_month_of_year" needs "month_of_year" (one of ${list(MONTHS)})`);
  }
  if (raw.end_date !== undefined && raw.end_date !== null && endDateMs(raw.end_date) === undefined) {
    bad(`"end_date" must be an ISO-8601 date string or an epoch number, got ${describe(raw.end_date)}`);
  }
  if (operand) out.values = [{ value: operand }];
  return out;
}

/** values[0].value of a date filter: nested {date?, offset_amount?}; a bare date string is accepted and nested. */
function dateOperand(v: unknown): { date?: string; offset_amount?: number } {
  if (typeof v === 'string') v = { date: v };
  if (typeof v === 'number') return bad('the date must be an ISO-8601 string in values[0].value.date (a numeric epoch is not honored)');
  if (!isObject(v)) return bad(`values[0].value must be an object {"date": "<ISO-8601>"}, got ${describe(v)}`);
  const out: { date?: string; offset_amount?: number } = {};
  if (v.date !== undefined && v.date !== null) {
    if (typeof v.date !== 'string') bad(`values[0].value.date must be an ISO-8601 string (a numeric epoch is not honored), got ${describe(v.date)}`);
    if (parseDate(v.date) === undefined) bad(`values[0].value.date ${JSON.stringify(v.date)} is not a valid ISO-8601 date (e.g. "2020-01-01" or "2020-01-01T00:00:00.000Z")`);
    out.date = v.date as string;
  }
  if (v.offset_amount !== undefined && v.offset_amount !== null) {
    if (typeof v.offset_amount !== 'number' || !Number.isSafeInteger(v.offset_amount) || v.offset_amount < 0) {
      bad(`values[0].value.offset_amount must be a non-negative integer, got ${describe(v.offset_amount)}`);
    }
    out.offset_amount = v.offset_amount as number;
  }
  return out;
}

/** A calculation's result type: config.settings.return_type (docs/vendors/tape.md#fields-and-values), if the app says. */
function calculationReturnType(field: TapeField): 'number' | 'text' | 'date' | undefined {
  const rt = field.config?.settings?.return_type;
  return rt === 'number' || rt === 'text' || rt === 'date' ? rt : undefined;
}

function validateCalculation(raw: Obj, base: TapeFilter, returnType: 'number' | 'text' | 'date' | undefined): TapeFilter {
  const m = matchTypeOf(raw, CALC_OPS, 'calculation');
  const dateKeys = DATE_KEYS.filter((k) => raw[k] !== undefined && raw[k] !== null);
  const values = readValues(raw);
  const first = values[0];
  // The result type decides the operand shape; when the app does not say, the filter's own shape does.
  const rt: 'number' | 'text' | 'date' =
    returnType ??
    (CALENDAR_OPS.has(m) || ['before', 'on_or_before', 'after', 'on_or_after'].includes(m) || dateKeys.length > 0 || isObject(first)
      ? 'date'
      : ['smaller', 'smaller_or_equal', 'larger', 'larger_or_equal'].includes(m) || typeof first === 'number'
        ? 'number'
        : 'text');
  if (rt !== 'date') {
    if (CALENDAR_OPS.has(m)) bad(`match_type "${m}" is only valid when the calculation returns a date (this one returns ${rt})`);
    if (dateKeys.length > 0) bad(`the operand key "${dateKeys[0]}" is only valid when the calculation returns a date (this one returns ${rt})`);
  }
  const ops: readonly string[] = rt === 'number' ? CALC_NUMBER_OPS : rt === 'text' ? CALC_TEXT_OPS : CALC_DATE_OPS;
  if (!ops.includes(m)) bad(`match_type "${m}" does not apply to a calculation returning ${rt}; use one of ${list(ops)}`);
  if (rt === 'number') return validateNumber(raw, base, ops, 'calculation');
  if (rt === 'text') return validateTextLike(raw, base, SPECS.single_text!, 'calculation', ops);
  return validateDate(raw, base, ops, 'calculation', true);
}

function validateChecklist(raw: Obj, base: TapeFilter): TapeFilter {
  const prop = oneOf(raw, 'entry_property', ENTRY_PROPERTIES) ?? '';
  const ops = CHECKLIST_OPS[prop]!;
  const what = prop ? `checklist ${prop}` : 'checklist (no entry_property)';
  const m = matchTypeOf(raw, ops, what);
  const me = activeUserFlag(raw);
  if (me !== undefined && (prop !== 'assignee' || emptyOp(m))) {
    bad('"include_active_user" is valid only with entry_property "assignee" and match_type equal / not_equal');
  }
  if (prop !== 'due_date') {
    for (const key of ['relative_date_type', 'relative_date_range_type', 'offset_amount']) {
      if (raw[key] !== undefined) bad(`the operand key "${key}" is valid only with entry_property "due_date"`);
    }
  }
  const withProp: TapeFilter = prop ? { ...base, entry_property: prop } : { ...base };
  switch (prop) {
    case '':
      return { ...withProp, match_type: m };
    case 'title':
      return validateTextLike(raw, withProp, SPECS.checklist!, what, ops);
    case 'assignee': {
      if (emptyOp(m)) return { ...withProp, match_type: m };
      const ids = readValues(raw).map((v, j) => toId(v) ?? bad(`values[${j}] must be a user id, got ${describe(v)}`));
      if (ids.length === 0 && !me) bad(`match_type "${m}" needs one or more user ids in "values" and/or "include_active_user": true`);
      const out: TapeFilter = { ...withProp, match_type: m };
      if (ids.length > 0) out.values = ids.map((value) => ({ value }));
      if (me !== undefined) out.include_active_user = me;
      return out;
    }
    case 'status': {
      const v = singleValue(raw, m);
      if (typeof v !== 'boolean') bad(`a checklist status filter takes a boolean value (true = completed, false = incomplete), got ${describe(v)}`);
      return { ...withProp, match_type: m, values: [{ value: v }] };
    }
    case 'due_date':
      return validateDate(raw, withProp, ops, what, false);
  }
  return bad('unreachable');
}

function validateMeta(raw: Obj): TapeFilter {
  const type = raw.type as string;
  if (raw.field_type !== undefined) bad(`metadata filters take no "field_type"`);
  const allowed = new Set(['type', 'match_type', 'values', ...(type === 'app_record_id' ? [] : ['relative_date_type'])]);
  checkKeys(raw, allowed, `the ${type} metadata`);
  const values = readValues(raw);
  if (type === 'app_record_id') {
    const m = matchTypeOf(raw, NUMBER_OPS, 'app_record_id');
    if (values.length === 0) bad('a numeric values[0].value is required for every app_record_id match type, including empty / not_empty');
    const n = toNumber(values[0]);
    if (n === undefined) bad(`values[0].value must be a bare number, got ${describe(values[0])}`);
    return { type, match_type: m, values: [{ value: n }] } as unknown as TapeFilter;
  }
  const m = matchTypeOf(raw, Object.keys(META_TIMESTAMP_OPS), type);
  const rdt = raw.relative_date_type;
  if (rdt !== undefined && rdt !== null && rdt !== 'exact_date') {
    bad(`only absolute dates are supported: "relative_date_type" may be omitted or "exact_date", got ${describe(rdt)}`);
  }
  const v = values[0];
  if (values.length === 0 || !isObject(v)) bad('the match value is nested: values[0].value must be {"date": "<ISO-8601 timestamp>"}');
  const date = (v as Obj).date;
  if (typeof date !== 'string') bad('values[0].value.date is missing or not a string');
  const ms = parseDate(date);
  if (ms === undefined) bad(`values[0].value.date ${JSON.stringify(date)} is not a valid ISO-8601 timestamp with a year between 1 and 9999`);
  const value: Obj = { date };
  if ((v as Obj).offset_amount !== undefined) value.offset_amount = (v as Obj).offset_amount;
  const out: Obj = { type, match_type: m, values: [{ value }] };
  if (rdt === 'exact_date') out.relative_date_type = rdt;
  return out as unknown as TapeFilter;
}

// ---------------------------------------------------------------- dates

const DAY = 86_400_000;
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

function utc(y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0): number {
  const dt = new Date(0);
  dt.setUTCFullYear(y, mo, d);
  dt.setUTCHours(h, mi, s, ms);
  return dt.getTime();
}

/** Parses Tape's "YYYY-MM-DD[ HH:MM[:SS]]" (UTC) and ISO-8601 date / date-time strings; years 1–9999. */
export function parseDate(s: unknown): number | undefined {
  if (typeof s !== 'string') return undefined;
  const m = DATE_RE.exec(s.trim());
  if (!m) return undefined;
  const [y, mo, d, h, mi, se] = [m[1], m[2], m[3], m[4] ?? '0', m[5] ?? '0', m[6] ?? '0'].map(Number) as [number, number, number, number, number, number];
  const frac = Number(`0.${m[7] ?? '0'}`);
  if (y < 1 || mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || se > 59) return undefined;
  const daysInMonth = new Date(utc(y, mo, 0)).getUTCDate();
  if (d > daysInMonth) return undefined;
  let ms = utc(y, mo - 1, d, h, mi, se, Math.floor(frac * 1000));
  const tz = m[8];
  if (tz && tz.toUpperCase() !== 'Z') {
    const sign = tz.startsWith('-') ? -1 : 1;
    const digits = tz.slice(1).replace(':', '');
    ms -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
  }
  return ms;
}

/** `end_date`: an ISO date string or an epoch number (seconds below 1e11, else milliseconds). */
function endDateMs(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return Math.abs(v) < 1e11 ? v * 1000 : v;
  return parseDate(v);
}

const dayStart = (ms: number) => Math.floor(ms / DAY) * DAY;

function addMonths(ms: number, n: number): number {
  const d = new Date(ms);
  const y = d.getUTCFullYear();
  const mo = d.getUTCMonth() + n;
  const last = new Date(utc(y, mo + 1, 0)).getUTCDate();
  return utc(y, mo, Math.min(d.getUTCDate(), last)) + (ms - dayStart(ms));
}

interface Interval {
  start: number;
  end: number;
}

function wholeDay(ms: number): Interval {
  const s = dayStart(ms);
  return { start: s, end: s + DAY - 1 };
}

/** The target day of a day comparison, from relative_date_type, values[0].value and now. */
function targetDay(f: TapeFilter, fieldType: string, now: Date): Interval {
  const type = (f.relative_date_type as string | undefined) ?? 'exact_date';
  const operand = (f.values?.[0]?.value ?? {}) as { date?: string; offset_amount?: number };
  const today = dayStart(now.getTime());
  if (type === 'today') return wholeDay(today);
  if (type === 'yesterday') return wholeDay(today - DAY);
  if (type === 'tomorrow') return wholeDay(today + DAY);
  if (type === 'exact_date') return wholeDay(parseDate(operand.date) ?? today);
  // num_*: anchored on values[0].value.date for date fields and calculations, on today elsewhere.
  const anchored = fieldType === 'single_date' || fieldType === 'range_date' || fieldType === 'calculation';
  const anchor = anchored && operand.date !== undefined ? (parseDate(operand.date) ?? today) : today;
  const n = operand.offset_amount ?? 0;
  const sign = type.endsWith('_before') ? -1 : 1;
  if (type.startsWith('num_days')) return wholeDay(anchor + sign * n * DAY);
  if (type.startsWith('num_weeks')) return wholeDay(anchor + sign * n * 7 * DAY);
  return wholeDay(addMonths(anchor, sign * n));
}

/** The window a `within` filter selects (today included in the rolling past_* / next_* ranges). */
function withinRange(f: TapeFilter, now: Date): Interval {
  const today = dayStart(now.getTime());
  const endOfToday = today + DAY - 1;
  const operand = (f.values?.[0]?.value ?? {}) as { date?: string; offset_amount?: number };
  const d = new Date(today);
  const n = operand.offset_amount ?? 0;
  switch (f.relative_date_range_type as string) {
    case 'current_week': {
      const start = today - ((d.getUTCDay() + 6) % 7) * DAY; // weeks start on Monday
      return { start, end: start + 7 * DAY - 1 };
    }
    case 'current_month':
      return { start: utc(d.getUTCFullYear(), d.getUTCMonth(), 1), end: utc(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) - 1 };
    case 'current_year':
      return { start: utc(d.getUTCFullYear(), 0, 1), end: utc(d.getUTCFullYear() + 1, 0, 1) - 1 };
    case 'past_week':
      return { start: today - 7 * DAY, end: endOfToday };
    case 'past_month':
      return { start: addMonths(today, -1), end: endOfToday };
    case 'past_year':
      return { start: addMonths(today, -12), end: endOfToday };
    case 'next_week':
      return { start: today, end: today + 8 * DAY - 1 };
    case 'next_month':
      return { start: today, end: addMonths(today, 1) + DAY - 1 };
    case 'next_year':
      return { start: today, end: addMonths(today, 12) + DAY - 1 };
    case 'past_num_days':
      return { start: today - n * DAY, end: endOfToday };
    case 'next_num_days':
      return { start: today, end: today + (n + 1) * DAY - 1 };
    case 'exact_range':
      return { start: dayStart(parseDate(operand.date) ?? today), end: dayStart(endDateMs(f.end_date) ?? today) + DAY - 1 };
    default:
      return { start: 1, end: 0 };
  }
}

/** Whether some day of [start, end] satisfies `pred` (a year or more covers every calendar predicate). */
function someDay(iv: Interval, pred: (d: Date) => boolean): boolean {
  const first = dayStart(iv.start);
  const last = dayStart(iv.end);
  if (last - first >= 366 * DAY) return true;
  for (let t = first; t <= last; t += DAY) if (pred(new Date(t))) return true;
  return false;
}

/**
 * A positive date operator against a stored interval (a single date is [t, t]); ranges use
 * overlap semantics: each operator asks whether some part of the range lies in the target.
 */
function dateMatches(f: TapeFilter, fieldType: string, iv: Interval | undefined, now: Date): boolean {
  if (f.match_type === 'empty') return iv === undefined;
  if (!iv) return false;
  switch (f.match_type) {
    case 'equal': {
      const day = targetDay(f, fieldType, now);
      return iv.start <= day.end && iv.end >= day.start;
    }
    case 'before':
      return iv.start < targetDay(f, fieldType, now).start;
    case 'on_or_before':
      return iv.start <= targetDay(f, fieldType, now).end;
    case 'after':
      return iv.end > targetDay(f, fieldType, now).end;
    case 'on_or_after':
      return iv.end >= targetDay(f, fieldType, now).start;
    case 'within': {
      const r = withinRange(f, now);
      return iv.start <= r.end && iv.end >= r.start;
    }
    case 'on_weekday': {
      const wd = WEEKDAYS.indexOf(f.weekday as (typeof WEEKDAYS)[number]);
      return someDay(iv, (d) => d.getUTCDay() === wd);
    }
    case 'in_quarter_of_year': {
      const q = QUARTERS.indexOf(f.quarter_of_year as (typeof QUARTERS)[number]);
      return someDay(iv, (d) => Math.floor(d.getUTCMonth() / 3) === q);
    }
    case 'in_month_of_year': {
      const mo = MONTHS.indexOf(f.month_of_year as (typeof MONTHS)[number]);
      return someDay(iv, (d) => d.getUTCMonth() === mo);
    }
  }
  return false;
}

// ---------------------------------------------------------------- reading stored values

function storedValues(record: TapeRecordRow, fieldId: number): unknown[] {
  const values = record.values as unknown;
  const got = values instanceof Map ? values.get(fieldId) : isObject(values) ? values[String(fieldId)] : undefined;
  return Array.isArray(got) ? got : [];
}

/** The payload of one stored entry: `{value: {...}}` → the inner object, a flat entry → itself. */
function payload(entry: unknown): Obj {
  if (!isObject(entry)) return {};
  return isObject(entry.value) ? entry.value : entry;
}

function scalarOf(entry: unknown): unknown {
  return isObject(entry) ? entry.value : entry;
}

/** multi_text is matched on its unformatted value: tags stripped, entities decoded. */
function plainText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li|h[1-6])>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&amp;/g, '&')
    .trim();
}

function textOf(record: TapeRecordRow, field: TapeField, fieldType: string): string | undefined {
  const v = scalarOf(storedValues(record, field.field_id)[0]);
  if (typeof v === 'number') return String(v);
  if (typeof v !== 'string') return undefined;
  const text = fieldType === 'multi_text' ? plainText(v) : v;
  return text === '' ? undefined : text;
}

function numberOf(v: unknown): number | undefined {
  return toNumber(v);
}

function idsOf(record: TapeRecordRow, field: TapeField, key: 'id' | 'record_id' | 'user_id'): number[] {
  return storedValues(record, field.field_id).flatMap((e) => {
    const p = payload(e);
    const id = p[key] ?? (isObject(e) && typeof e.value === 'number' ? e.value : undefined);
    return typeof id === 'number' ? [id] : [];
  });
}

function dateIntervalOf(entry: unknown): Interval | undefined {
  const raw = isObject(entry) ? entry : { value: entry };
  const p = typeof raw.value === 'string' ? { start: raw.value } : payload(raw);
  const start = parseDate(p.start_utc ?? p.start ?? p.start_date ?? p.date);
  if (start === undefined) return undefined;
  const end = parseDate(p.end_utc ?? p.end ?? p.end_date) ?? start;
  return { start, end: Math.max(start, end) };
}

function entryTexts(record: TapeRecordRow, field: TapeField, kind: Kind): string[] {
  return storedValues(record, field.field_id).flatMap((e) => {
    let s: unknown;
    if (kind === 'entries') {
      const v = isObject(e) ? e.value : e;
      s = isObject(v) ? v.value : v;
    } else if (kind === 'link') {
      const v = isObject(e) ? (e.url ?? e.value) : e;
      s = isObject(v) ? v.url : v;
    } else {
      const p = payload(e);
      s = p.filename ?? p.name;
    }
    return typeof s === 'string' && s !== '' ? [s] : [];
  });
}

function locationOf(record: TapeRecordRow, field: TapeField): { address: string; coords: boolean } | undefined {
  const e = storedValues(record, field.field_id)[0];
  if (e === undefined) return undefined;
  const p: Obj = isObject(e) ? (isObject(e.value) ? { ...e, ...e.value } : e) : { value: e };
  const parts = ['street_address', 'postal_code', 'city', 'state', 'country', 'original_formatted_address', 'formatted_address', 'value']
    .map((k) => p[k])
    .filter((x): x is string => typeof x === 'string' && x.trim() !== '');
  const coords = typeof p.latitude === 'number' && typeof p.longitude === 'number';
  if (parts.length === 0 && !coords) return undefined;
  return { address: parts.join(' '), coords };
}

interface ChecklistEntry {
  title: string;
  assignee: number | undefined;
  completed: boolean;
  due: Interval | undefined;
}

function checklistOf(record: TapeRecordRow, field: TapeField): ChecklistEntry[] {
  return storedValues(record, field.field_id).map((e) => {
    const p = payload(e);
    const a = p.assignee;
    const assignee = typeof a === 'number' ? a : isObject(a) && typeof a.user_id === 'number' ? a.user_id : undefined;
    const due = parseDate(p.due_at ?? p.due_date);
    return { title: typeof p.title === 'string' ? p.title : '', assignee, completed: p.completed === true, due: due === undefined ? undefined : { start: due, end: due } };
  });
}

// ---------------------------------------------------------------- matching

/** A positive text operator; `exactCase` makes equal case-sensitive (text fields), else all compare case-insensitively. */
function textMatches(op: string, hay: string, needle: string, exactCase: boolean): boolean {
  const n = needle.trim();
  if (op === 'equal') return exactCase ? hay === n : hay.toLowerCase() === n.toLowerCase();
  if (op === 'fully_includes') return hay.toLowerCase() === n.toLowerCase();
  const h = hay.toLowerCase();
  const l = n.toLowerCase();
  if (op === 'contains') return h.includes(l);
  if (op === 'starts_with') return h.startsWith(l);
  if (op === 'ends_with') return h.endsWith(l);
  return false;
}

function numberMatches(op: string, v: number | undefined, target: number): boolean {
  if (v === undefined) return false;
  switch (op) {
    case 'equal':
      return v === target;
    case 'smaller':
      return v < target;
    case 'smaller_or_equal':
      return v <= target;
    case 'larger':
      return v > target;
    case 'larger_or_equal':
      return v >= target;
  }
  return false;
}

function setMatches(op: string, have: number[], want: number[], multi: boolean): boolean {
  if (op === 'empty') return have.length === 0;
  const wanted = new Set(want);
  if (op === 'any' || (op === 'equal' && !multi)) return have.some((x) => wanted.has(x));
  const got = new Set(have);
  if (op === 'contains') return want.every((x) => got.has(x));
  if (op === 'equal') return got.size === wanted.size && [...wanted].every((x) => got.has(x));
  return false;
}

function operandIds(f: TapeFilter, ctx: FilterContext): number[] {
  const ids = (f.values ?? []).map((v) => v.value).filter((v): v is number => typeof v === 'number');
  if (f.include_active_user === true) ids.push(ctx.userId);
  return ids;
}

function firstText(f: TapeFilter): string {
  const v = f.values?.[0]?.value;
  return typeof v === 'string' ? v : String(v ?? '');
}

/** AND of all filters. `filters` are the normalized ones `validateFilters` returned (option labels already resolved to ids). */
export function recordMatches(record: TapeRecordRow, app: TapeApp, filters: TapeFilter[], ctx: FilterContext): boolean {
  return filters.every((f) => filterMatches(record, app, f, ctx));
}

function filterMatches(record: TapeRecordRow, app: TapeApp, f: TapeFilter, ctx: FilterContext): boolean {
  if (isMetaFilter(f)) return metaMatches(record, f);
  const field = app.fields.find((x) => x.field_id === Number(f.field_id));
  // A filter on a field the app no longer has (a view stored before the field was deleted) is ignored.
  if (!field) return true;
  const fieldType = canonicalFieldType(field.field_type);
  const negated = NEGATION[f.match_type];
  // Checklist entry-level not_empty / not_equal / not_contains are record-level complements too.
  if (negated) return !positiveMatches(record, field, fieldType, { ...f, match_type: negated }, ctx);
  return positiveMatches(record, field, fieldType, f, ctx);
}

function positiveMatches(record: TapeRecordRow, field: TapeField, fieldType: string, f: TapeFilter, ctx: FilterContext): boolean {
  const sp = SPECS[fieldType];
  if (!sp) return true;
  const op = f.match_type;
  switch (sp.kind) {
    case 'text': {
      const text = textOf(record, field, fieldType);
      if (op === 'empty') return text === undefined || text.trim() === '';
      return text !== undefined && textMatches(op, text, firstText(f), true);
    }
    case 'number':
    case 'unique_id': {
      const v = sp.kind === 'unique_id' ? record.app_record_id : numberOf(scalarOf(storedValues(record, field.field_id)[0]));
      if (op === 'empty') return v === undefined || v === null;
      return numberMatches(op, v, f.values?.[0]?.value as number);
    }
    case 'category':
    case 'status': {
      const have = idsOf(record, field, 'id');
      if (op === 'completed' || op === 'incomplete') {
        if (have.length === 0) return false;
        const entry = payload(storedValues(record, field.field_id)[0]);
        const done = typeof entry.means_completed === 'boolean' ? entry.means_completed : optionsOf(field)?.find((o) => o.id === have[0])?.means_completed === true;
        return op === 'completed' ? done : !done;
      }
      return setMatches(op, have, operandIds(f, ctx), sp.multi);
    }
    case 'relation':
      return setMatches(op, idsOf(record, field, 'record_id'), operandIds(f, ctx), sp.multi);
    case 'user': {
      const have =
        fieldType === 'created_by' ? [record.created_by] : fieldType === 'last_modified_by' ? [record.last_modified_by] : idsOf(record, field, 'user_id');
      return setMatches(op, have.filter((x) => typeof x === 'number'), operandIds(f, ctx), sp.multi);
    }
    case 'date': {
      const iv =
        fieldType === 'created_on'
          ? pointOf(record.created_on)
          : fieldType === 'last_modified_on'
            ? pointOf(record.last_modified_on)
            : dateIntervalOf(storedValues(record, field.field_id)[0]);
      return dateMatches(f, fieldType, iv, ctx.now);
    }
    case 'calculation':
      return calculationMatches(record, field, f, ctx);
    case 'entries':
    case 'link':
    case 'file': {
      const texts = entryTexts(record, field, sp.kind);
      if (op === 'empty') return texts.length === 0;
      return texts.some((t) => textMatches(op, t, firstText(f), false));
    }
    case 'location': {
      const loc = locationOf(record, field);
      if (op === 'empty') return loc === undefined;
      return loc !== undefined && textMatches(op, loc.address, firstText(f), false);
    }
    case 'checklist':
      return checklistMatches(record, field, f, ctx);
  }
}

function pointOf(s: string | null | undefined): Interval | undefined {
  const t = parseDate(s);
  return t === undefined ? undefined : { start: t, end: t };
}

function calculationMatches(record: TapeRecordRow, field: TapeField, f: TapeFilter, ctx: FilterContext): boolean {
  const entry = storedValues(record, field.field_id)[0];
  const v = scalarOf(entry);
  const op = f.match_type;
  const operand = f.values?.[0]?.value;
  const isDateFilter = calculationReturnType(field) === 'date' || isObject(operand) || CALENDAR_OPS.has(op) || f.relative_date_type !== undefined || ['before', 'on_or_before', 'after', 'on_or_after'].includes(op);
  if (isDateFilter) return dateMatches(f, 'calculation', entry === undefined ? undefined : dateIntervalOf(entry), ctx.now);
  if (op === 'empty') return v === undefined || v === null || v === '';
  if (typeof operand === 'number') return numberMatches(op, numberOf(v), operand);
  const text = typeof v === 'number' ? String(v) : typeof v === 'string' ? v : undefined;
  return text !== undefined && text !== '' && textMatches(op, text, firstText(f), true);
}

function checklistMatches(record: TapeRecordRow, field: TapeField, f: TapeFilter, ctx: FilterContext): boolean {
  const entries = checklistOf(record, field);
  const op = f.match_type;
  switch (f.entry_property as string | undefined) {
    case undefined:
      return entries.length === 0; // only `empty` reaches here (not_empty is its complement)
    case 'title':
      if (op === 'empty') return entries.some((e) => e.title.trim() === '');
      return entries.some((e) => e.title !== '' && textMatches(op, e.title, firstText(f), false));
    case 'assignee': {
      if (op === 'empty') return entries.some((e) => e.assignee === undefined);
      const want = new Set(operandIds(f, ctx));
      return entries.some((e) => e.assignee !== undefined && want.has(e.assignee));
    }
    case 'status':
      return entries.some((e) => e.completed === f.values?.[0]?.value);
    case 'due_date':
      if (op === 'empty') return entries.some((e) => e.due === undefined);
      return entries.some((e) => e.due !== undefined && dateMatches(f, 'checklist', e.due, ctx.now));
  }
  return false;
}

function metaMatches(record: TapeRecordRow, f: TapeFilter): boolean {
  if (f.type === 'app_record_id') {
    const target = f.values?.[0]?.value as number;
    const id = record.app_record_id;
    if (f.match_type === 'empty') return id === undefined || id === null;
    if (f.match_type === 'not_empty') return id !== undefined && id !== null;
    if (f.match_type === 'not_equal') return id !== target;
    return numberMatches(f.match_type, id, target);
  }
  // created_at / last_modified_at: instant-based, every bound inclusive.
  const bound = parseDate((f.values?.[0]?.value as { date?: string } | undefined)?.date);
  let at: number | undefined;
  if (f.type === 'created_at') at = parseDate(record.created_on);
  else {
    // A record never edited since its creation has no last-modified timestamp and matches no last_modified_at filter.
    at = record.last_modified_on && record.last_modified_on !== record.created_on ? parseDate(record.last_modified_on) : undefined;
  }
  if (at === undefined || bound === undefined) return false;
  return META_TIMESTAMP_OPS[f.match_type] === 'gte' ? at >= bound : at <= bound;
}
