import { invalidParameter, type ToolError } from '../core/errors';
import { eachChecked } from '../core/validate';
import { isObject } from '../core/is-object';

/**
 * The vendor-neutral field engine. A platform describes its field types as ONE table — per type:
 * the expected input shape with an example, the input check/conversion to the wire, wire → output
 * value, the text of a value, and what a filter on it takes — and these functions walk the table:
 * resolving `fields` keys (field_id or external_id), planning a write (read-only types refused,
 * required fields on create, null/[] clears on update), converting a read, rendering text (empty
 * values omitted) and finding a field's filter entry. Nothing here knows a vendor's types.
 *
 * Type parameters: F = the vendor's app field, W = one entry of a wire field's `values`, X = the
 * platform's extra plan state (network work to finish before the write), FL = its filter entry.
 */

export type WriteMode = 'create' | 'update';

/** What the engine needs of an app field, whatever the vendor calls it. */
export interface FieldInfo {
  field_id: number;
  external_id: string;
  label: string;
  type: string;
  required: boolean;
}

/** An app as far as the engine needs it: its id and name for messages, its fields. */
export interface AppFields<F> {
  app_id: number;
  name: string;
  fields: readonly F[];
}

/** What an entry's `input` gets besides the value: where it sits, and how to refuse it. */
export interface InputContext<F, X> {
  field: F;
  info: FieldInfo;
  /** `fields.<key>` (or deeper in a batch: `inputs.3.fields.<key>`). */
  path: string;
  mode: WriteMode;
  /** The platform's extra plan state, for work that needs the network before the write. */
  plan: X;
  /** Throws INVALID_PARAMETER at `at` (default: the field's path) with the expected shape (default: the entry's `expected`). */
  fail(problem: string, at?: string, expected?: string): never;
}

/** Text options every table's `text` receives. */
export interface TextOptions {
  verbose?: boolean;
  /** Rendering a list line (shorter) rather than one entity. */
  list?: boolean;
}

/** One field type of one platform: everything the service knows about it. */
export interface FieldEntry<F, W, X, FL> {
  /** The input shape with an example, e.g. `a number 0-100, e.g. 75`. */
  expected(field: F): string;
  /** Checks one (non-empty) input value and returns its wire form. Absent: the type is read-only. */
  input?(value: unknown, cx: InputContext<F, X>): unknown;
  /** The wire `values` of one field → the output value; undefined when it holds nothing. */
  output(values: readonly W[]): unknown;
  /** The short text of one output value. */
  text(value: unknown, o: TextOptions): string;
  /** What a filter on this type takes; absent: the type cannot be filtered. */
  filter?: FL;
}

/** A platform's field types. */
export interface FieldTable<F, W, X, FL> {
  /** The vendor's name, for "Podio computes its value". */
  vendor: string;
  /** An app field → the engine's view of it. */
  info(field: F): FieldInfo;
  /** One entry per field type, keyed by the type name the vendor uses. */
  types: Readonly<Record<string, FieldEntry<F, W, X, FL>>>;
  /** The entry of a type the table does not know (passed through, shown as JSON). */
  fallback: FieldEntry<F, W, X, FL>;
  /** The wire value that clears a field on update (Tape: null, Podio: []). */
  cleared: unknown;
  /** A fresh extra plan state. */
  newPlan(): X;
}

/** A planned write: the vendor's `fields` body keyed by field_id, what is written, the platform's extras. */
export type FieldPlan<X> = X & {
  body: Record<string, unknown>;
  /** The fields written, in app order: what changed. */
  written: { field_id: number; label: string }[];
};

/** A field value of a read, vendor-neutral: the shape every platform's items/records carry. */
export interface FieldValue {
  field_id: number;
  external_id: string;
  label: string;
  type: string;
  value: unknown;
}

/** A wire field of a read as far as the engine needs it. */
export interface WireField<W> {
  field_id: number;
  external_id: string;
  label: string;
  type: string;
  values: readonly W[];
}

export { isObject };
export const isId = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0;
/** A value quoted for a message, cut at 80 characters. */
export const show = (v: unknown): string => {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
};

/** One INVALID_PARAMETER: the path, the expected shape (with an example), what is wrong. */
export function fieldError(path: string, expected: string, problem: string): ToolError {
  return invalidParameter(path, expected, `Parameter "${path}": ${problem} Expected ${expected}.`);
}

const fail = (path: string, expected: string, problem: string): never => {
  throw fieldError(path, expected, problem);
};

/** The entry of a type (the fallback for a type the table does not know). */
export const entryOf = <F, W, X, FL>(table: FieldTable<F, W, X, FL>, type: string): FieldEntry<F, W, X, FL> => table.types[type] ?? table.fallback;

/** The expected input shape of a field. */
export const expectedOf = <F, W, X, FL>(table: FieldTable<F, W, X, FL>, field: F): string => entryOf(table, table.info(field).type).expected(field);

/** `name (9001), company (9002), …`: the keys a `fields` object may use. */
export function fieldKeyList<F>(table: Pick<FieldTable<F, unknown, unknown, unknown>, 'info'>, fields: readonly F[]): string {
  return fields.map((f) => `${table.info(f).external_id} (${table.info(f).field_id})`).join(', ');
}

/** An app's fields as the engine looks them up: each field's info, by field_id and by external_id (first wins, as a scan would). */
interface FieldIndex<F> {
  info: Map<F, FieldInfo>;
  byId: Map<number, F>;
  byExternalId: Map<string, F>;
  /** Position in the app (the last, for an id given twice): the order of `written`. */
  order: Map<number, number>;
  /** Keys as given that named a field: a batch repeats the same few in every record. */
  byKey: Map<string | number, F>;
  /** The required fields a write can set, in app order: what a create must give (found by the first create planned). */
  required?: FieldInfo[];
}

// Built once per fields array (and table), not per key and record: a batch plans every input against
// the same app, and `info` is a fresh object each call. Keyed weakly, so a schema dropped from the
// cache takes its index with it.
const indexes = new WeakMap<(field: never) => FieldInfo, WeakMap<readonly unknown[], FieldIndex<unknown>>>();

function indexOf<F>(table: Pick<FieldTable<F, unknown, unknown, unknown>, 'info'>, fields: readonly F[]): FieldIndex<F> {
  let byTable = indexes.get(table.info);
  if (!byTable) indexes.set(table.info, (byTable = new WeakMap()));
  const known = byTable.get(fields);
  if (known) return known as FieldIndex<F>;
  const index: FieldIndex<F> = { info: new Map(), byId: new Map(), byExternalId: new Map(), order: new Map(), byKey: new Map() };
  fields.forEach((f, i) => {
    const info = table.info(f);
    index.info.set(f, info);
    if (!index.byId.has(info.field_id)) index.byId.set(info.field_id, f);
    if (!index.byExternalId.has(info.external_id)) index.byExternalId.set(info.external_id, f);
    index.order.set(info.field_id, i);
  });
  byTable.set(fields, index);
  return index;
}

/** The field a key names: a numeric field_id, else an external_id. */
export function findField<F>(table: Pick<FieldTable<F, unknown, unknown, unknown>, 'info'>, fields: readonly F[], key: string | number): F | undefined {
  const index = indexOf(table, fields);
  const known = index.byKey.get(key);
  if (known) return known;
  const k = String(key).trim();
  const field = (/^\d+$/.test(k) ? index.byId.get(Number(k)) : undefined) ?? index.byExternalId.get(k);
  if (field) index.byKey.set(key, field);
  return field;
}

/** The field a key names among `among` (default all), or INVALID_PARAMETER at `path` listing the valid keys. */
export function requireField<F>(table: Pick<FieldTable<F, unknown, unknown, unknown>, 'info'>, app: AppFields<F>, key: string | number, path: string, among: readonly F[] = app.fields): F {
  const field = findField(table, app.fields, key);
  if (field && (among === app.fields || among.includes(field))) return field;
  return fail(
    path,
    `a field_id or external_id of app ${app.app_id}`,
    `${show(key)} is not a field of app ${app.app_id} "${app.name}". Valid keys (external_id (field_id)): ${fieldKeyList(table, among)}.`,
  );
}

/** `field_ids` (ids or external ids) → the app's field ids; an unknown key is INVALID_PARAMETER at `<path>.<i>`. */
export function resolveFieldIds<F>(table: Pick<FieldTable<F, unknown, unknown, unknown>, 'info'>, app: AppFields<F>, keys: readonly (number | string)[], path = 'field_ids'): Set<number> {
  return new Set(keys.map((k, i) => table.info(requireField(table, app, k, `${path}.${i}`)).field_id));
}

const isEmpty = (v: unknown) => v === null || (Array.isArray(v) && v.length === 0);

/**
 * The InputContext of one value. Its `fail` is made when asked for (a refusal, or an entry handing it
 * on), not with every value: a batch converts tens of thousands of values that pass.
 */
class ValueContext<F, W, X, FL> implements InputContext<F, X> {
  constructor(
    readonly field: F,
    readonly info: FieldInfo,
    readonly path: string,
    readonly mode: WriteMode,
    readonly plan: X,
    private readonly entry: FieldEntry<F, W, X, FL>,
  ) {}

  // The expected shape (options listed, units named) is text for an error: built only when one is thrown.
  get fail(): InputContext<F, X>['fail'] {
    return (problem, deeper = this.path, exp = this.entry.expected(this.field)) => fail(deeper, exp, problem);
  }
}

/**
 * Checks a `fields` object against the app and plans the vendor's body: keys resolved, each field
 * once, read-only types refused, null/[] clearing (update; left out on create; never a required
 * field), each value converted by its type's entry, required fields present on create.
 * `path` is where `fields` sits (`fields`, `inputs.3.fields`); `at` names one key's value (default
 * `<path>.<key>`; a single-value write passes e.g. `() => 'field_value'`).
 */
export function planFields<F, W, X, FL>(
  table: FieldTable<F, W, X, FL>,
  app: AppFields<F>,
  fields: Record<string, unknown>,
  mode: WriteMode,
  path = 'fields',
  at: (key: string) => string = (key) => `${path}.${key}`,
): FieldPlan<X> {
  // Set on the fresh extras rather than spread into a new literal (a slow copy, once per record of a batch).
  const plan = table.newPlan() as FieldPlan<X>;
  plan.body = {};
  plan.written = [];
  const index = indexOf(table, app.fields);
  const seen = new Map<number, string>();
  const keys = Object.keys(fields);
  if (keys.length === 0) {
    const writable = app.fields.filter((f) => entryOf(table, index.info.get(f)!.type).input);
    const first = writable[0] ? index.info.get(writable[0])!.external_id : 'name';
    fail(path, 'an object of field values keyed by external_id or field_id', `no field values given. Pass e.g. {"${first}": …}; valid keys: ${fieldKeyList(table, writable)}.`);
  }
  // Every key is checked, and every required field, before anything is refused: one answer lists all problems of the record.
  // One check for both (a key is a string, a required field its info), not a closure per key: a batch plans thousands of records.
  const checkKey = (key: string) => {
    const where = at(key);
    // The keys seen before (a batch's every record after the first) straight from the index; a new one resolved or refused by requireField.
    const field = index.byKey.get(key) ?? requireField(table, app, key, where);
    const info = index.info.get(field)!;
    const entry = entryOf(table, info.type);
    if (!entry.input) {
      fail(where, 'a writable field', `"${info.label}" is a ${info.type} field: ${table.vendor} computes its value, so it cannot be written. Remove it from ${path}.`);
    }
    const twice = seen.get(info.field_id);
    if (twice !== undefined) fail(where, 'each field once', `"${key}" and "${twice}" both name field ${info.field_id} "${info.label}"; give it once.`);
    seen.set(info.field_id, key);
    const value = fields[key];
    plan.written.push({ field_id: info.field_id, label: info.label });
    if (isEmpty(value)) {
      if (info.required) fail(where, `a value: "${info.label}" is required`, `"${info.label}" is a required field and cannot be cleared.`);
      if (mode === 'update') plan.body[info.field_id] = table.cleared;
      return;
    }
    plan.body[info.field_id] = entry.input!(value, new ValueContext(field, info, where, mode, plan, entry));
  };
  // Run after the keys: `seen` then holds every field given.
  const checkRequired = (info: FieldInfo) => {
    if (!seen.has(info.field_id)) fail(`${path}.${info.external_id}`, `a value for the required field "${info.label}" (${info.type})`, `"${info.label}" is required: add "${info.external_id}" to ${path}.`);
  };
  const required = mode === 'create' ? (index.required ??= app.fields.map((f) => index.info.get(f)!).filter((info) => info.required && entryOf(table, info.type).input)) : [];
  eachChecked<string | FieldInfo, void>(required.length ? [...keys, ...required] : keys, (item) => (typeof item === 'string' ? checkKey(item) : checkRequired(item)));
  plan.written.sort((a, b) => index.order.get(a.field_id)! - index.order.get(b.field_id)!);
  return plan;
}

/** One wire field's values → the output value of its type; undefined when it holds nothing. */
export function fieldValue<F, W, X, FL>(table: FieldTable<F, W, X, FL>, type: string, values: readonly W[]): unknown {
  if (!values.length) return undefined;
  return entryOf(table, type).output(values);
}

/** The wire fields of a read → output field values, empty ones (undefined, null or []) left out; `keep` selects fields. */
export function fieldValues<F, W, X, FL>(table: FieldTable<F, W, X, FL>, fields: readonly WireField<W>[], keep: (f: WireField<W>) => boolean = () => true): FieldValue[] {
  const out: FieldValue[] = [];
  for (const f of fields) {
    if (!keep(f)) continue;
    const value = fieldValue(table, f.type, f.values ?? []);
    if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) continue;
    out.push({ field_id: f.field_id, external_id: f.external_id, label: f.label, type: f.type, value });
  }
  return out;
}

/** The text of one output value, by its type's entry. */
export function valueText<F, W, X, FL>(table: FieldTable<F, W, X, FL>, f: Pick<FieldValue, 'type' | 'value'>, o: TextOptions = {}): string {
  return entryOf(table, f.type).text(f.value, o);
}

/** `Label: text` for each value whose text is not empty; `label` names the field (default its label). */
export function fieldPairs<F, W, X, FL>(table: FieldTable<F, W, X, FL>, fields: readonly FieldValue[], o: TextOptions = {}, label: (f: FieldValue) => string = (f) => f.label): string[] {
  const pairs: string[] = [];
  for (const f of fields) {
    const text = valueText(table, f, o);
    if (text !== '') pairs.push(`${label(f)}: ${text}`);
  }
  return pairs;
}

/**
 * The field a filter key names and its type's filter entry; an unknown key lists the app's fields, a
 * type without a filter entry is INVALID_PARAMETER ("cannot be filtered").
 */
export function filterField<F, W, X, FL>(table: FieldTable<F, W, X, FL>, app: AppFields<F>, key: string | number, path: string): { field: F; info: FieldInfo; filter: FL } {
  const field = findField(table, app.fields, key);
  if (!field) fail(path, `a field_id or external_id of app ${app.app_id}`, `${show(key)} is not a field of app ${app.app_id} "${app.name}". Valid keys: ${fieldKeyList(table, app.fields)}.`);
  const info = table.info(field!);
  const filter = entryOf(table, info.type).filter;
  if (filter === undefined) fail(path, 'a field that can be filtered', `field ${info.field_id} "${info.label}" is a ${info.type} field, which cannot be filtered.`);
  return { field: field!, info, filter: filter! };
}
