import { invalidParameter, type ToolError } from '../../../shared/errors';
import type { TapeAppField, TapeAppWithFields, TapeRecord } from '../client';

/**
 * Record `fields` input (spec §2.3 input table) → Tape's field-value input (field-value/*.md).
 *
 * `planFields` checks an agent's `fields` object against the app schema without any network call:
 * keys (field_id or external_id), the shape of every value per field type, read-only fields,
 * required fields on create. Every problem is INVALID_PARAMETER naming `fields.<key>` (or deeper,
 * `fields.tasks.2.title`) with the expected shape and an example. What passes becomes a plan: Tape's
 * body keyed by field_id, plus the work that needs the network before the write (https URLs in
 * attachment fields to upload; checklist items with `id` to complete from the record's current
 * entries), done by `finishFields` in ./finish.ts.
 *
 * Decisions where Tape and the spec differ:
 * - money: Tape has no money type; an amount lives in a `number` field whose `unit` (e.g. "€",
 *   prefix/suffix) names the currency for the whole field. So a money input {value, currency} is
 *   accepted on number fields, its decimal string becomes the number, and its currency must be the
 *   field's unit (ISO code or symbol: "EUR" ≙ "€"). Tape stores no currency per value, so a
 *   currency the field does not hold — or any currency on a field without a unit — is refused
 *   rather than dropped in silence.
 * - single_date takes exactly `YYYY-MM-DD HH:MM:SS` on create AND on update (the spec leaves open
 *   which form updates take: we accept the plain string on both and refuse the `{start}` object on
 *   both, with the right form in the error). It is sent to Tape as that string.
 * - range_date {start, end} is sent as Tape's documented "START - END" string (end optional).
 * - checklist: items are sent as Tape's entries ({title, description, due_at, assignee, completed,
 *   id}); on update the list replaces the field's entries (Tape deletes the ones left out), and an
 *   item with `id` is completed from the current entry, so `{id, completed: true}` ticks it off and
 *   keeps its title, due date and assignee.
 * - single choices (single_category, status, single_relation, single_user, single_attachment) take
 *   a one-element array or the bare value; they are sent as the bare value, multi ones as arrays.
 * - `null` (or `[]`) clears a field on update; on create it is left out.
 */

export type WriteMode = 'create' | 'update';

/** A checklist item as sent to Tape; `id` marks an existing entry. */
export interface TapeChecklistEntry {
  id?: number;
  title?: string;
  description?: string;
  due_at?: string | null;
  assignee?: number | null;
  completed?: boolean;
}

export interface FieldPlan {
  /** Tape's `fields` body keyed by field_id; attachment and checklist values are completed by finishFields. */
  body: Record<string, unknown>;
  /** Attachment/image fields whose values hold https URLs to upload. */
  uploads: { fieldId: number; values: (string | number)[]; path: string; single: boolean }[];
  /** Checklist fields (update) holding items with an `id` to complete from the current entries. */
  checklists: { fieldId: number; entries: TapeChecklistEntry[]; paths: string[] }[];
  /** The fields written, in app order: what changed. */
  written: { field_id: number; label: string }[];
}

/** Field types whose values Tape computes: never written. */
export const READ_ONLY_TYPES: ReadonlySet<string> = new Set(['calculation', 'unique_id', 'created_by', 'created_on', 'last_modified_by', 'last_modified_on', 'created_at', 'last_modified_at']);
const EMAIL_TYPES = ['work', 'home', 'other'];
/** The spec names work/mobile/home/other; Tape also takes these (field-value/phone.md). */
const PHONE_TYPES = ['work', 'mobile', 'home', 'other', 'main', 'work_fax', 'home_fax', 'pager'];
const SINGLE: ReadonlySet<string> = new Set(['single_category', 'status', 'single_relation', 'single_user', 'single_attachment']);

/** Currency code → the unit symbols a Tape number field may show for it. */
const CURRENCY_UNITS: Record<string, readonly string[]> = {
  EUR: ['€'], USD: ['$', 'US$'], GBP: ['£'], JPY: ['¥', '円'], CNY: ['¥', '元'], CHF: ['Fr.', 'CHF', 'SFr.'], INR: ['₹'], KRW: ['₩'], RUB: ['₽'],
  BRL: ['R$'], CAD: ['$', 'C$', 'CA$'], AUD: ['$', 'A$', 'AU$'], NZD: ['$', 'NZ$'], SGD: ['$', 'S$'], HKD: ['$', 'HK$'], MXN: ['$', 'MX$'],
  SEK: ['kr'], NOK: ['kr'], DKK: ['kr'], PLN: ['zł'], CZK: ['Kč'], TRY: ['₺'], ILS: ['₪'], ZAR: ['R'], UAH: ['₴'], NGN: ['₦'], PHP: ['₱'], THB: ['฿'], VND: ['₫'],
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const show = (v: unknown): string => {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
};
const isId = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0;

/** One INVALID_PARAMETER: the path, the expected shape (with an example), what is wrong. */
export function fieldError(path: string, expected: string, problem: string): ToolError {
  return invalidParameter(path, expected, `Parameter "${path}": ${problem} Expected ${expected}.`);
}

/** `name (9001), company (9002), …`: the keys a `fields` object may use. */
export function fieldKeyList(fields: readonly TapeAppField[]): string {
  return fields.map((f) => `${f.external_id} (${f.field_id})`).join(', ');
}

/** The field a key names: a numeric field_id, else an external_id. */
export function findField(app: TapeAppWithFields, key: string | number): TapeAppField | undefined {
  const k = String(key).trim();
  if (/^\d+$/.test(k)) {
    const byId = app.fields.find((f) => f.field_id === Number(k));
    if (byId) return byId;
  }
  return app.fields.find((f) => f.external_id === k);
}

/** The field a key names, or INVALID_PARAMETER at `path` listing the valid keys. */
export function requireField(app: TapeAppWithFields, key: string | number, path: string, fields: readonly TapeAppField[] = app.fields): TapeAppField {
  const field = findField(app, key);
  if (field && fields.includes(field)) return field;
  return fail(
    path,
    `a field_id or external_id of app ${app.app_id}`,
    `${show(key)} is not a field of app ${app.app_id} "${app.name}". Valid keys (external_id (field_id)): ${fieldKeyList(fields)}.`,
  );
}

const fail = (path: string, expected: string, problem: string): never => {
  throw fieldError(path, expected, problem);
};

/** Checks `fields` against the app and plans Tape's body. `path` is where `fields` sits (`fields`, `inputs.3.fields`). */
export function planFields(app: TapeAppWithFields, fields: Record<string, unknown>, mode: WriteMode, path = 'fields'): FieldPlan {
  const plan: FieldPlan = { body: {}, uploads: [], checklists: [], written: [] };
  const seen = new Map<number, string>();
  const writable = app.fields.filter((f) => !READ_ONLY_TYPES.has(f.field_type));
  const keys = Object.keys(fields);
  if (keys.length === 0) {
    fail(path, 'an object of field values keyed by external_id or field_id', `no field values given. Pass e.g. {"${writable[0]?.external_id ?? 'name'}": …}; valid keys: ${fieldKeyList(writable)}.`);
  }
  for (const key of keys) {
    const at = `${path}.${key}`;
    const field = requireField(app, key, at, app.fields);
    if (READ_ONLY_TYPES.has(field.field_type)) {
      fail(at, 'a writable field', `"${field.label}" is a ${field.field_type} field: Tape computes its value, so it cannot be written. Remove it from ${path}.`);
    }
    const twice = seen.get(field.field_id);
    if (twice !== undefined) fail(at, 'each field once', `"${key}" and "${twice}" both name field ${field.field_id} "${field.label}"; give it once.`);
    seen.set(field.field_id, key);
    const value = fields[key];
    if (value === null || (Array.isArray(value) && value.length === 0)) {
      if (field.config.required) fail(at, `a value: "${field.label}" is required`, `"${field.label}" is a required field and cannot be cleared.`);
      if (mode === 'update') plan.body[field.field_id] = null;
      plan.written.push({ field_id: field.field_id, label: field.label });
      continue;
    }
    plan.body[field.field_id] = convert(field, value, at, mode, plan);
    plan.written.push({ field_id: field.field_id, label: field.label });
  }
  if (mode === 'create') {
    for (const f of writable) {
      if (f.config.required && !seen.has(f.field_id)) {
        fail(`${path}.${f.external_id}`, `a value for the required field "${f.label}" (${f.field_type})`, `"${f.label}" is required: add "${f.external_id}" to ${path}.`);
      }
    }
  }
  const order = new Map(app.fields.map((f, i) => [f.field_id, i]));
  plan.written.sort((a, b) => order.get(a.field_id)! - order.get(b.field_id)!);
  return plan;
}

/** Expected shapes per field type, each with an example: the text of every error. */
export function expectedShape(field: TapeAppField): string {
  const s = field.config.settings ?? {};
  switch (field.field_type) {
    case 'single_text':
    case 'multi_text':
      return field.field_type === 'multi_text' ? 'a string (HTML allowed), e.g. "<p>Met at the fair</p>"' : 'a string, e.g. "Northwind Traders"';
    case 'number':
      return typeof s.unit === 'string' && s.unit
        ? `a number, e.g. 1250.5, or money {"value": "1250.50", "currency": "${currencyCode(s.unit) ?? s.unit}"} (the field's unit is ${s.unit})`
        : 'a number, e.g. 1250.5';
    case 'single_category':
    case 'multi_category':
    case 'status': {
      const opts = optionsOf(field);
      const ex = opts[0] ? `[${opts[0].id}] or ["${opts[0].text}"]` : '[1]';
      const one = field.field_type === 'multi_category' ? '' : ' (at most one)';
      return `an array of option ids or option texts${one}, e.g. ${ex}; options: ${optionList(opts)}`;
    }
    case 'single_date':
      return 'a string "YYYY-MM-DD HH:MM:SS" (time required; 00:00:00 for a date only), e.g. "2025-03-01 00:00:00"';
    case 'range_date':
      return '{"start": "YYYY-MM-DD HH:MM:SS", "end": "YYYY-MM-DD HH:MM:SS"}, e.g. {"start": "2025-03-01 00:00:00", "end": "2025-03-07 00:00:00"}';
    case 'single_relation':
    case 'multi_relation':
      return `an array of record ids${field.field_type === 'single_relation' ? ' (at most one)' : ''}, e.g. [5001]`;
    case 'single_user':
    case 'multi_user':
      return `an array of user ids${field.field_type === 'single_user' ? ' (at most one)' : ''} (from listOrganizationUsers), e.g. [10000]`;
    case 'single_attachment':
    case 'multi_attachment':
    case 'multi_image':
      return `an array of file ids or https URLs${field.field_type === 'single_attachment' ? ' (at most one)' : ''} (URLs are uploaded), e.g. ["https://example.com/report.pdf"]`;
    case 'multi_email':
      return 'an array of {"type": "work"|"home"|"other", "email": "…"}, e.g. [{"type": "work", "email": "ada@example.com"}]';
    case 'multi_phone':
      return 'an array of {"type": "work"|"mobile"|"home"|"other", "phone": "…"}, e.g. [{"type": "mobile", "phone": "+49 89 123 4567"}]';
    case 'multi_link':
      return 'an array of {"url": "https://…", "title": "…"}, e.g. [{"url": "https://example.com", "title": "Homepage"}]';
    case 'checklist':
      return 'an array of {"title", "completed"?, "description"?, "due"? ("YYYY-MM-DD" or "YYYY-MM-DD HH:MM"), "assignee"? (user id), "id"? (existing item)}, e.g. [{"title": "Send proposal", "due": "2025-03-01", "assignee": 10000}]';
    case 'single_location':
      return 'an address string, e.g. "Hessstr. 6, 80799 Munich, Germany"';
    default:
      return `a value of a ${field.field_type} field`;
  }
}

interface Option { id: number; text: string }
function optionsOf(field: TapeAppField): Option[] {
  const opts = field.config.settings?.options;
  return Array.isArray(opts) ? (opts as Option[]).filter((o) => isId(o.id) && typeof o.text === 'string') : [];
}
const optionList = (opts: Option[]) => (opts.length ? opts.map((o) => `${o.id} "${o.text}"`).join(', ') : '(none)');

/** A list value: arrays as they are, a bare value as a one-element list (Tape takes both). */
function listOf(field: TapeAppField, value: unknown, path: string): unknown[] {
  const list = Array.isArray(value) ? value : [value];
  if (SINGLE.has(field.field_type) && list.length > 1) {
    fail(path, expectedShape(field), `"${field.label}" is a ${field.field_type} field and holds one value, got ${list.length}.`);
  }
  return list;
}

/** Sent bare for single fields, as an array for multi fields. */
const shaped = (field: TapeAppField, list: unknown[]) => (SINGLE.has(field.field_type) ? list[0] : list);

function convert(field: TapeAppField, value: unknown, path: string, mode: WriteMode, plan: FieldPlan): unknown {
  const expected = expectedShape(field);
  const wrong = (problem: string, at = path): never => fail(at, expected, problem);
  switch (field.field_type) {
    case 'single_text':
    case 'multi_text':
      if (typeof value !== 'string') wrong(`"${field.label}" is a text field; got ${show(value)}.`);
      return value;
    case 'number':
      return numberValue(field, value, path, expected);
    case 'single_category':
    case 'multi_category':
    case 'status': {
      const opts = optionsOf(field);
      const ids = listOf(field, value, path).map((item, i) => optionId(field, opts, item, `${path}${Array.isArray(value) ? `.${i}` : ''}`, expected));
      return shaped(field, [...new Set(ids)]);
    }
    case 'single_date':
      return singleDate(field, value, path, expected);
    case 'range_date':
      return rangeDate(value, path, expected);
    case 'single_relation':
    case 'multi_relation':
    case 'single_user':
    case 'multi_user': {
      const what = field.field_type.endsWith('relation') ? 'record id' : 'user id';
      const ids = listOf(field, value, path).map((item, i) => {
        if (!isId(item)) wrong(`each entry must be a ${what} (a positive integer), got ${show(item)}.`, `${path}${Array.isArray(value) ? `.${i}` : ''}`);
        return item;
      });
      return shaped(field, [...new Set(ids)]);
    }
    case 'single_attachment':
    case 'multi_attachment':
    case 'multi_image': {
      const list = listOf(field, value, path).map((item, i) => {
        const ok = isId(item) || (typeof item === 'string' && item.trim() !== '');
        if (!ok) wrong(`each entry must be a file id or an https URL, got ${show(item)}.`, `${path}${Array.isArray(value) ? `.${i}` : ''}`);
        return item as string | number;
      });
      // Resolved by finishFields (URLs uploaded); the array path names each element in errors.
      plan.uploads.push({ fieldId: field.field_id, values: list, path, single: SINGLE.has(field.field_type) });
      return shaped(field, list);
    }
    case 'multi_email':
      return entries(field, value, path, expected, 'email', EMAIL_TYPES);
    case 'multi_phone':
      return entries(field, value, path, expected, 'phone', PHONE_TYPES);
    case 'multi_link':
      return links(field, value, path, expected);
    case 'checklist':
      return checklist(field, value, path, expected, mode, plan);
    case 'single_location':
      if (typeof value !== 'string' || value.trim() === '') {
        wrong(isObject(value) ? 'pass the address as one string, not an object.' : `"${field.label}" takes an address string; got ${show(value)}.`);
      }
      return (value as string).trim();
    default:
      // A field type this service does not know yet: Tape validates it.
      return value;
  }
}

function numberValue(field: TapeAppField, value: unknown, path: string, expected: string): number {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) fail(path, expected, `${show(value)} is not a finite number.`);
    return value;
  }
  if (!isObject(value)) {
    const hint = typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim()) ? ` Send it as a number: ${value.trim()}.` : '';
    return fail(path, expected, `"${field.label}" is a number field; got ${show(value)}.${hint}`);
  }
  // Money {value, currency} on a number field whose unit is the currency (see the header).
  const extra = Object.keys(value).filter((k) => k !== 'value' && k !== 'currency');
  if (extra.length) fail(`${path}.${extra[0]}`, expected, `unknown key "${extra[0]}"; money is {"value", "currency"}.`);
  const raw = value.value;
  const amount = typeof raw === 'string' && /^-?\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw) : typeof raw === 'number' && Number.isFinite(raw) ? raw : undefined;
  if (amount === undefined) fail(`${path}.value`, expected, `the amount must be a decimal string such as "1250.50", got ${show(raw)}.`);
  const unit = typeof field.config.settings?.unit === 'string' ? (field.config.settings.unit as string).trim() : '';
  const currency = value.currency;
  if (typeof currency !== 'string' || currency.trim() === '') {
    return fail(`${path}.currency`, expected, `money needs "currency", a currency code such as "${currencyCode(unit) ?? 'EUR'}".`);
  }
  if (!unit) {
    return fail(
      `${path}.currency`,
      'a plain number: the field has no currency unit',
      `Tape keeps the currency per field (its unit), not per value, and "${field.label}" has no unit; pass the amount as a plain number (${amount}) or set a unit on the field.`,
    );
  }
  if (!currencyMatches(currency, unit)) {
    fail(
      `${path}.currency`,
      `"${currencyCode(unit) ?? unit}": the unit of "${field.label}"`,
      `"${field.label}" holds amounts in ${unit}${currencyCode(unit) ? ` (${currencyCode(unit)})` : ''}; Tape stores no currency per value, so ${show(currency)} cannot be kept. Convert the amount to ${unit} first.`,
    );
  }
  return amount!;
}

function currencyCode(unit: unknown): string | undefined {
  if (typeof unit !== 'string') return undefined;
  const u = unit.trim();
  if (/^[A-Za-z]{3}$/.test(u)) return u.toUpperCase();
  const codes = Object.entries(CURRENCY_UNITS).filter(([, symbols]) => symbols.includes(u)).map(([c]) => c);
  return codes.length === 1 ? codes[0] : codes.length > 1 ? codes[0] : undefined;
}

/** A currency given as code or symbol matches a field unit given as code or symbol. */
export function currencyMatches(currency: string, unit: string): boolean {
  const c = currency.trim();
  const u = unit.trim();
  if (c.toUpperCase() === u.toUpperCase() || c === u) return true;
  const symbols = CURRENCY_UNITS[c.toUpperCase()];
  if (symbols?.includes(u)) return true;
  const unitSymbols = CURRENCY_UNITS[u.toUpperCase()];
  return unitSymbols?.includes(c) ?? false;
}

function optionId(field: TapeAppField, opts: Option[], item: unknown, path: string, expected: string): number {
  if (typeof item === 'number') {
    if (opts.some((o) => o.id === item)) return item;
    return fail(path, expected, `${item} is not an option id of "${field.label}".`);
  }
  if (typeof item === 'string') {
    const exact = opts.filter((o) => o.text === item);
    const hits = exact.length ? exact : opts.filter((o) => o.text.trim().toLowerCase() === item.trim().toLowerCase());
    if (hits.length === 1) return hits[0]!.id;
    if (hits.length > 1) return fail(path, expected, `"${item}" names ${hits.length} options of "${field.label}" (ids ${hits.map((h) => h.id).join(', ')}); pass the id.`);
    return fail(path, expected, `"${item}" is not an option of "${field.label}".`);
  }
  return fail(path, expected, `options are given by id (number) or text (string), got ${show(item)}.`);
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/** A real `YYYY-MM-DD HH:MM:SS`. */
export function isDateTime(s: string): boolean {
  const m = DATE_TIME.exec(s);
  if (!m) return false;
  const [, y, mo, d, h, mi, sec] = m.map(Number) as [number, number, number, number, number, number, number];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCMonth() === mo - 1 && date.getUTCDate() === d && h < 24 && mi < 60 && sec < 60;
}

/** The right form for a date-ish string the agent gave: "2025-03-01" → "2025-03-01 00:00:00". */
function dateHint(raw: string): string {
  const t = raw.trim();
  const m = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2})(?::(\d{2}))?)?/.exec(t);
  if (!m) return '';
  const fixed = `${m[1]} ${m[2] ?? '00:00'}:${m[3] ?? '00'}`;
  return isDateTime(fixed) && fixed !== t ? ` Write "${fixed}".` : '';
}

function singleDate(field: TapeAppField, value: unknown, path: string, expected: string): string {
  if (isObject(value) && 'start' in value) {
    const start = typeof value.start === 'string' ? value.start : '2025-03-01 00:00:00';
    const fixed = isDateTime(start) ? start : `${start.slice(0, 10)} 00:00:00`;
    return fail(path, expected, `"${field.label}" is a single_date field: pass the date as a plain string, not an object with "start" — "${field.external_id}": "${fixed}".`);
  }
  if (typeof value !== 'string') return fail(path, expected, `got ${show(value)}.`);
  if (!isDateTime(value)) return fail(path, expected, `${show(value)} is not "YYYY-MM-DD HH:MM:SS".${dateHint(value)}`);
  return value;
}

function rangeDate(value: unknown, path: string, expected: string): string {
  if (!isObject(value)) {
    const hint = typeof value === 'string' && isDateTime(value.trim()) ? ` Write {"start": "${value.trim()}", "end": …}.` : '';
    return fail(path, expected, `a range_date takes an object {start, end}, got ${show(value)}.${hint}`);
  }
  const extra = Object.keys(value).filter((k) => k !== 'start' && k !== 'end');
  if (extra.length) fail(`${path}.${extra[0]}`, expected, `unknown key "${extra[0]}"; a range is {"start", "end"}.`);
  const part = (key: 'start' | 'end'): string | undefined => {
    const raw = value[key];
    if (raw === undefined || raw === null || raw === '') {
      if (key === 'start') fail(`${path}.start`, expected, 'the range needs "start".');
      return undefined;
    }
    if (typeof raw !== 'string' || !isDateTime(raw)) return fail(`${path}.${key}`, expected, `${show(raw)} is not "YYYY-MM-DD HH:MM:SS".${typeof raw === 'string' ? dateHint(raw) : ''}`);
    return raw;
  };
  const start = part('start')!;
  const end = part('end');
  if (end !== undefined && end < start) fail(`${path}.end`, expected, `the end ${end} lies before the start ${start}.`);
  return end === undefined ? start : `${start} - ${end}`;
}

function entries(field: TapeAppField, value: unknown, path: string, expected: string, key: 'email' | 'phone', types: string[]): { type: string; [k: string]: string }[] {
  if (!Array.isArray(value)) return fail(path, expected, `"${field.label}" takes an array of {"type", "${key}"} objects, got ${show(value)}.`);
  return value.map((item, i) => {
    const at = `${path}.${i}`;
    if (!isObject(item)) return fail(at, expected, `each entry is an object {"type", "${key}"}, got ${show(item)}${typeof item === 'string' ? ` — write {"type": "work", "${key}": ${show(item)}}` : ''}.`);
    const extra = Object.keys(item).filter((k) => k !== 'type' && k !== key);
    if (extra.length) {
      const hint = extra[0] === 'value' || extra[0] === (key === 'email' ? 'address' : 'number') ? ` Use "${key}" for the ${key === 'email' ? 'address' : 'number'}.` : '';
      fail(`${at}.${extra[0]}`, expected, `unknown key "${extra[0]}".${hint}`);
    }
    const text = item[key];
    if (typeof text !== 'string' || text.trim() === '') return fail(`${at}.${key}`, expected, `each entry needs "${key}" as a non-empty string.`);
    if (key === 'email' && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(text.trim())) fail(`${at}.email`, expected, `${show(text)} is not an email address.`);
    if (key === 'phone' && !/^[+()\d\s./-]{3,}$/.test(text.trim())) fail(`${at}.phone`, expected, `${show(text)} is not a phone number (digits, spaces, + ( ) . / -).`);
    const type = item.type ?? 'work';
    if (typeof type !== 'string' || !types.includes(type)) fail(`${at}.type`, expected, `type must be one of ${types.join(', ')}, got ${show(type)}.`);
    return { type: type as string, [key]: text.trim() };
  });
}

function links(field: TapeAppField, value: unknown, path: string, expected: string): { url: string; title?: string }[] {
  if (!Array.isArray(value)) return fail(path, expected, `"${field.label}" takes an array of {"url", "title"} objects, got ${show(value)}.`);
  return value.map((item, i) => {
    const at = `${path}.${i}`;
    if (!isObject(item)) return fail(at, expected, `each link is an object {"url", "title"}, got ${show(item)}${typeof item === 'string' ? ` — write {"url": ${show(item)}}` : ''}.`);
    const extra = Object.keys(item).filter((k) => k !== 'url' && k !== 'title');
    if (extra.length) fail(`${at}.${extra[0]}`, expected, `unknown key "${extra[0]}"; a link is {"url", "title"}.`);
    const url = item.url;
    if (typeof url !== 'string' || !/^https?:\/\/[^\s/$.?#][^\s]*$/i.test(url.trim())) return fail(`${at}.url`, expected, `"url" must be an http(s) URL, got ${show(url)}.`);
    if (item.title !== undefined && item.title !== null && typeof item.title !== 'string') fail(`${at}.title`, expected, `"title" must be a string, got ${show(item.title)}.`);
    return typeof item.title === 'string' && item.title.trim() !== '' ? { url: url.trim(), title: item.title.trim() } : { url: url.trim() };
  });
}

const CHECKLIST_KEYS = ['title', 'completed', 'description', 'due', 'assignee', 'id'];
/** Keys agents reach for that the spec names differently. */
const CHECKLIST_RENAMES: Record<string, string> = { text: 'title', name: 'title', checked: 'completed', done: 'completed', due_at: 'due', due_date: 'due', assignee_id: 'assignee' };

function checklist(field: TapeAppField, value: unknown, path: string, expected: string, mode: WriteMode, plan: FieldPlan): TapeChecklistEntry[] {
  if (!Array.isArray(value)) return fail(path, expected, `"${field.label}" takes an array of checklist items, got ${show(value)}.`);
  const withIds: number[] = [];
  const ids = new Set<number>();
  const out = value.map((item, i): TapeChecklistEntry => {
    const at = `${path}.${i}`;
    if (!isObject(item)) return fail(at, expected, `each item is an object with "title", got ${show(item)}${typeof item === 'string' ? ` — write {"title": ${show(item)}}` : ''}.`);
    for (const k of Object.keys(item)) {
      if (CHECKLIST_KEYS.includes(k)) continue;
      const right = CHECKLIST_RENAMES[k];
      fail(`${at}.${k}`, expected, right ? `use "${right}", not "${k}".` : `unknown key "${k}"; an item takes ${CHECKLIST_KEYS.join(', ')}.`);
    }
    const entry: TapeChecklistEntry = {};
    if (item.id !== undefined && item.id !== null) {
      if (mode === 'create') fail(`${at}.id`, expected, 'a new record has no checklist items yet: drop "id" (items without id are created).');
      if (!isId(item.id)) fail(`${at}.id`, expected, `"id" is the id of an existing item (a positive integer from getRecord), got ${show(item.id)}.`);
      if (ids.has(item.id as number)) fail(`${at}.id`, expected, `item ${String(item.id)} is listed twice.`);
      ids.add(item.id as number);
      entry.id = item.id as number;
      withIds.push(i);
    }
    if (item.title !== undefined || entry.id === undefined) {
      if (typeof item.title !== 'string' || item.title.trim() === '') {
        fail(`${at}.title`, expected, entry.id === undefined ? 'every new item needs "title", a non-empty string.' : '"title" must be a non-empty string.');
      }
      entry.title = (item.title as string).trim();
    }
    if (item.completed !== undefined) {
      if (typeof item.completed !== 'boolean') fail(`${at}.completed`, expected, `"completed" is true or false, got ${show(item.completed)}.`);
      entry.completed = item.completed as boolean;
    }
    if (item.description !== undefined && item.description !== null) {
      if (typeof item.description !== 'string') fail(`${at}.description`, expected, `"description" must be a string, got ${show(item.description)}.`);
      entry.description = item.description as string;
    } else if (item.description === null) entry.description = '';
    if (item.due !== undefined) {
      if (item.due === null || item.due === '') entry.due_at = null;
      else entry.due_at = checklistDue(item.due, `${at}.due`, expected);
    }
    if (item.assignee !== undefined) {
      const a = isObject(item.assignee) ? item.assignee.user_id : item.assignee;
      if (a !== null && !isId(a)) fail(`${at}.assignee`, expected, `"assignee" is a user id (from listOrganizationUsers), got ${show(item.assignee)}.`);
      entry.assignee = a as number | null;
    }
    return entry;
  });
  if (withIds.length) plan.checklists.push({ fieldId: field.field_id, entries: out, paths: out.map((_, i) => `${path}.${i}`) });
  return out;
}

function checklistDue(raw: unknown, path: string, expected: string): string {
  if (typeof raw === 'string') {
    const t = raw.trim();
    if (/^\d{4}-\d{2}-\d{2}$/.test(t) && isDateTime(`${t} 00:00:00`)) return t;
    if (/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/.test(t) && isDateTime(`${t}:00`)) return t;
    const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}):\d{2}/.exec(t);
    if (m && isDateTime(`${m[1]} ${m[2]}:00`)) return fail(path, expected, `"due" takes minutes at most: write "${m[1]} ${m[2]}".`);
  }
  return fail(path, expected, `"due" must be "YYYY-MM-DD" or "YYYY-MM-DD HH:MM", got ${show(raw)}.`);
}

/** The record's current checklist entries of a field, as Tape returns them. */
export function currentChecklist(record: TapeRecord, fieldId: number): Map<number, TapeChecklistEntry> {
  const f = record.fields?.find((x) => x.field_id === fieldId);
  const out = new Map<number, TapeChecklistEntry>();
  for (const v of f?.values ?? []) {
    const e = v as { id?: unknown; title?: unknown; description?: unknown; due_at?: unknown; completed?: unknown; assignee?: { user_id?: unknown } | null };
    if (!isId(e.id)) continue;
    out.set(e.id, {
      id: e.id,
      title: typeof e.title === 'string' ? e.title : '',
      description: typeof e.description === 'string' ? e.description : '',
      due_at: typeof e.due_at === 'string' ? e.due_at : null,
      completed: e.completed === true,
      assignee: isId(e.assignee?.user_id) ? (e.assignee!.user_id as number) : null,
    });
  }
  return out;
}

/**
 * Completes the checklist items that carry an `id` from the record's current entries (only the keys
 * given change); an id the record does not hold is INVALID_PARAMETER. Mutates the plan's body.
 */
export function mergeChecklists(plan: FieldPlan, record: TapeRecord): void {
  for (const c of plan.checklists) {
    const current = currentChecklist(record, c.fieldId);
    c.entries.forEach((entry, i) => {
      if (entry.id === undefined) return;
      const before = current.get(entry.id);
      if (!before) {
        const known = [...current.keys()];
        fail(
          `${c.paths[i]}.id`,
          'the id of an item now on the record, or no id for a new item',
          `item ${entry.id} is not on the checklist of record ${record.record_id}${known.length ? ` (its items: ${known.join(', ')})` : ' (it has no items)'}; drop "id" to add a new item.`,
        );
      }
      Object.assign(entry, { ...before, ...entry });
    });
  }
}
