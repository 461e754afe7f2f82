/**
 * Field values of the Tape twin: the input forms of docs/vendors/tape.md#fields-and-values parsed and validated per
 * field type into the stored wire `values` arrays (the output shapes of the same docs), and the
 * record title computed from them.
 *
 * Stored shapes (exactly what GET /v1/record/{id} returns under `fields[].values`):
 *   single_text, multi_text, number, calculation   {value}
 *   single/multi_category                          {value: {id, text, color}}
 *   status                                         {value: {id, text, color, means_completed}}
 *   single_date, range_date                        {start, start_date, start_time, start_utc, …, end…}  (no `value`)
 *   single/multi_relation                          {value: {record_id, app_id, title}}
 *   single/multi_user                              {value: {user_id, mail, image, name, org_id, type}}
 *   multi_email, multi_phone                       {id, value, type}
 *   multi_link                                     {embed_id, url, title?, description?, type?}
 *   single_location                                {value, original_formatted_address, city?, …}
 *   single/multi_attachment, multi_image           {value: {id, filename, size}}
 *   checklist                                      {id, title, description, due_at, completed, completed_at, assignee}
 * unique_id values are not stored (docs/vendors/tape.md#fields-and-values: only `app_record_id` is returned); created_by/on and
 * last_modified_by/on are computed when the record is rendered.
 */
import { downloadLink, downloadToken } from '../kit';
import { TapeHttpError, tapeDateTime, validation } from './http';
import type { TapeApp, TapeField, TapeRecordRow, TapeValue } from './model';
import type { TapeState, TapeUser } from './state';
import { isObject } from '../kit/request';

/** Per field_type: `type` of the field definition (docs/vendors/tape.md#fields-and-values) and `type` of its record value (docs/vendors/tape.md#fields-and-values). */
export const FIELD_TYPES: Record<string, { type: string; valueType: string; multiple?: boolean }> = {
  single_text: { type: 'text', valueType: 'text' },
  multi_text: { type: 'text', valueType: 'text' },
  number: { type: 'number', valueType: 'number' },
  unique_id: { type: 'unique_id', valueType: 'unique_id' },
  single_category: { type: 'category', valueType: 'category', multiple: false },
  multi_category: { type: 'category', valueType: 'category', multiple: true },
  status: { type: 'status', valueType: 'status', multiple: false },
  single_relation: { type: 'app', valueType: 'relation', multiple: false },
  multi_relation: { type: 'app', valueType: 'relation', multiple: true },
  single_user: { type: 'contact', valueType: 'user', multiple: false },
  multi_user: { type: 'contact', valueType: 'user', multiple: true },
  single_date: { type: 'date', valueType: 'date' },
  range_date: { type: 'date', valueType: 'date' },
  single_location: { type: 'location', valueType: 'location' },
  single_attachment: { type: 'file', valueType: 'attachment', multiple: false },
  multi_attachment: { type: 'file', valueType: 'attachment', multiple: true },
  multi_image: { type: 'file', valueType: 'image', multiple: true },
  multi_email: { type: 'email', valueType: 'email' },
  multi_phone: { type: 'phone', valueType: 'phone' },
  multi_link: { type: 'embed', valueType: 'link' },
  checklist: { type: 'checklist', valueType: 'checklist' },
  calculation: { type: 'calculation', valueType: 'calculation' },
  created_by: { type: 'contact', valueType: 'user' },
  created_on: { type: 'date', valueType: 'date' },
  last_modified_by: { type: 'contact', valueType: 'user' },
  last_modified_on: { type: 'date', valueType: 'date' },
};

/** Field types whose values Tape computes: never accepted as input. */
export const READ_ONLY_FIELD_TYPES = new Set(['unique_id', 'calculation', 'created_by', 'created_on', 'last_modified_by', 'last_modified_on']);

/** Hex colors of category/status values for the option colors of docs/vendors/tape.md#fields-and-values (values carry hex, definitions names). */
export const OPTION_COLORS: Record<string, string> = {
  GRAY: 'CDCCC9',
  BROWN: '9C6B4E',
  ORANGE: 'F2994A',
  YELLOW: 'F2C94C',
  GREEN: '007959',
  BLUE: '2D9CDB',
  PURPLE: '9B51E0',
  PINK: 'DC0080',
  RED: 'DF245E',
};

const EMAIL_TYPES = ['work', 'home', 'other'];
const PHONE_TYPES = ['work', 'work_fax', 'home', 'home_fax', 'main', 'mobile', 'pager', 'other'];
const IMAGE_EXTENSIONS = /\.(jpe?g|png|gif|tiff?|svg|bmp|webp)$/i;
const LOCATION_KEYS = ['value', 'city', 'country', 'state', 'postal_code', 'street_address', 'latitude', 'longitude', 'map_in_sync', 'original_formatted_address'];
const CHECKLIST_KEYS = ['id', 'title', 'description', 'due_at', 'assignee', 'completed', 'completed_at'];

/** A user as field values, checklist assignees, comments and revisions show one. */
export function userRef(user: TapeUser) {
  return { user_id: user.user_id, mail: [user.email], image: null, name: user.name, org_id: user.org_id, type: 'user' as const };
}

/** Ids of email/phone/link/checklist entries and attached files: one counter per twin (the docs' examples start at 100). */
const entryIds = new WeakMap<TapeState, { next: number }>();
export function entryIdCounter(state: TapeState): { next: number } {
  let c = entryIds.get(state);
  if (!c) entryIds.set(state, (c = { next: 100 }));
  return c;
}
export function nextEntryId(state: TapeState): number {
  return entryIdCounter(state).next++;
}

/** The field a `fields` key names: a numeric field_id or an external_id. */
export function resolveField(app: TapeApp, key: string): TapeField | undefined {
  if (/^\d+$/.test(key)) {
    const byId = app.fields.find((f) => f.field_id === Number(key));
    if (byId) return byId;
  }
  return app.fields.find((f) => f.external_id === key);
}

export interface ValueContext {
  state: TapeState;
  app: TapeApp;
  now: Date;
  /** The record being updated (its current values keep entry ids and completion times). */
  existing?: TapeRecordRow;
}

/** A stored value of a shape without a `value` property (dates, emails, checklists…): the model types them loosely. */
const flat = (o: Record<string, unknown>) => o as TapeValue;

function fieldError(field: TapeField, problem: string): TapeHttpError {
  return validation(`Invalid value for field "${field.external_id}" (${field.label}, ${field.field_type}): ${problem}`);
}

function show(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

const isEmptyInput = (v: unknown) => v === null || v === '' || (Array.isArray(v) && v.length === 0);
const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : [v]);

/**
 * Parses the `fields` object of a record create/update. Returns the new `values` array of every
 * field named (an empty array clears the field). Throws Tape's 400 validation_error naming the field.
 */
export function parseFieldInputs(ctx: ValueContext, fields: unknown): Map<number, TapeValue[]> {
  if (!isObject(fields)) throw validation('"fields" is required and must be an object of field values keyed by field_id or external_id.');
  const out = new Map<number, TapeValue[]>();
  for (const [key, input] of Object.entries(fields)) {
    const field = resolveField(ctx.app, key);
    if (!field) {
      throw validation(`Field "${key}" does not exist in app ${ctx.app.app_id}. Known fields: ${ctx.app.fields.map((f) => `${f.external_id} (${f.field_id})`).join(', ')}.`);
    }
    if (out.has(field.field_id)) throw validation(`Field "${field.external_id}" is given twice (by field_id and external_id).`);
    if (READ_ONLY_FIELD_TYPES.has(field.field_type)) throw fieldError(field, `${field.field_type} values are set by Tape and cannot be provided.`);
    if (input === undefined || isEmptyInput(input)) {
      out.set(field.field_id, []);
      continue;
    }
    out.set(field.field_id, parseValue(ctx, field, input));
  }
  return out;
}

/** Required fields must hold a value: all of them on create, the ones touched on update. */
export function checkRequired(app: TapeApp, values: Map<number, TapeValue[]>, only?: Iterable<number>): void {
  const check = only ? new Set(only) : undefined;
  for (const f of app.fields) {
    if (!f.config.required || READ_ONLY_FIELD_TYPES.has(f.field_type)) continue;
    if (check && !check.has(f.field_id)) continue;
    if (!(values.get(f.field_id)?.length)) throw fieldError(f, 'the field is required and needs a value.');
  }
}

function parseValue(ctx: ValueContext, field: TapeField, input: unknown): TapeValue[] {
  switch (field.field_type) {
    case 'single_text':
    case 'multi_text': {
      const max = field.field_type === 'single_text' ? 500 : 150000;
      if (typeof input !== 'string') throw fieldError(field, `expected a string, got ${show(input)}.`);
      if (input.length > max) throw fieldError(field, `text is ${input.length} characters long, at most ${max} are allowed.`);
      return [{ value: input }];
    }
    case 'number':
      if (typeof input !== 'number' || !Number.isFinite(input)) throw fieldError(field, `expected a number, got ${show(input)}.`);
      return [{ value: input }];
    case 'single_category':
    case 'multi_category':
    case 'status':
      return parseCategory(field, input);
    case 'single_date':
      return [flat(parseSingleDate(field, input))];
    case 'range_date':
      return [flat(parseRangeDate(field, input))];
    case 'single_relation':
    case 'multi_relation':
      return parseRelation(ctx, field, input);
    case 'single_user':
    case 'multi_user':
      return parseUsers(ctx, field, input);
    case 'multi_email':
      return parseContactEntries(ctx, field, input, 'email', EMAIL_TYPES);
    case 'multi_phone':
      return parseContactEntries(ctx, field, input, 'phone', PHONE_TYPES);
    case 'multi_link':
      return parseLinks(ctx, field, input);
    case 'single_location':
      return [flat(parseLocation(field, input))];
    case 'single_attachment':
    case 'multi_attachment':
    case 'multi_image':
      return parseFiles(ctx, field, input);
    case 'checklist':
      return parseChecklist(ctx, field, input);
    default:
      throw fieldError(field, 'values of this field type cannot be set.');
  }
}

interface CategoryOption { id: number; text: string; color?: string; means_completed?: boolean }

export function categoryOptions(field: TapeField): CategoryOption[] {
  return (field.config.settings.options as CategoryOption[] | undefined) ?? [];
}

/** The stored value of a category/status option. */
export function categoryValue(field: TapeField, o: CategoryOption): TapeValue {
  const color = OPTION_COLORS[o.color ?? 'GRAY'] ?? OPTION_COLORS.GRAY;
  return { value: field.field_type === 'status' ? { id: o.id, text: o.text, color, means_completed: o.means_completed === true } : { id: o.id, text: o.text, color } };
}

function parseCategory(field: TapeField, input: unknown): TapeValue[] {
  const options = categoryOptions(field);
  const list = asList(input);
  if (field.field_type !== 'multi_category' && list.length > 1) throw fieldError(field, `a ${field.field_type} field holds one option, got ${list.length}.`);
  const picked = new Map<number, CategoryOption>();
  for (const item of list) {
    let option: CategoryOption | undefined;
    if (typeof item === 'number') option = options.find((o) => o.id === item);
    else if (typeof item === 'string') option = options.find((o) => o.text === item) ?? options.find((o) => o.text.toLowerCase() === item.trim().toLowerCase());
    else throw fieldError(field, `expected option ids (numbers) or option texts, got ${show(item)}.`);
    if (!option) {
      throw fieldError(field, `${show(item)} is not an option of this field. Options: ${options.map((o) => `${o.id} "${o.text}"`).join(', ')}.`);
    }
    picked.set(option.id, option);
  }
  return [...picked.values()].map((o) => categoryValue(field, o));
}

interface ParsedDate { date: string; time: string | null }

/** `YYYY-MM-DD`, `YYYY-MM-DD HH:MM` or `YYYY-MM-DD HH:MM:SS` (UTC, docs/vendors/tape.md#dates-and-time-zones); undefined if not a real date. */
export function parseTapeDate(s: string): ParsedDate | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(s.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, sec] = m;
  const date = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  if (date.getUTCMonth() !== Number(mo) - 1 || date.getUTCDate() !== Number(d)) return undefined;
  if (h !== undefined && (Number(h) > 23 || Number(mi) > 59 || Number(sec ?? 0) > 59)) return undefined;
  return { date: `${y}-${mo}-${d}`, time: h === undefined ? null : `${h}:${mi}:${sec ?? '00'}` };
}

function dateFor(field: TapeField, raw: unknown, what: string): ParsedDate {
  const d = typeof raw === 'string' ? parseTapeDate(raw) : undefined;
  if (!d) throw fieldError(field, `${what} must be a date "YYYY-MM-DD" or a datetime "YYYY-MM-DD HH:MM:SS" (UTC), got ${show(raw)}.`);
  const time = field.config.settings.time;
  if (time === 'required' && d.time === null) throw fieldError(field, `${what} needs a time ("YYYY-MM-DD HH:MM:SS"): the field's time setting is "required".`);
  if (time === 'disabled') d.time = null;
  return d;
}

function datePart(prefix: 'start' | 'end', d: ParsedDate, alwaysTime: boolean): Record<string, string | null> {
  const time = d.time ?? (alwaysTime ? '00:00:00' : null);
  const full = `${d.date} ${d.time ?? '00:00:00'}`;
  return {
    [prefix]: full,
    [`${prefix}_date`]: d.date,
    [`${prefix}_time`]: time,
    [`${prefix}_utc`]: full,
    [`${prefix}_date_utc`]: d.date,
    [`${prefix}_time_utc`]: time,
  };
}

/** single_date takes one date string (an object with `start` is rejected). */
function parseSingleDate(field: TapeField, input: unknown): Record<string, unknown> {
  if (typeof input !== 'string') throw fieldError(field, `expected a date string "YYYY-MM-DD" or "YYYY-MM-DD HH:MM:SS", got ${show(input)}.`);
  return datePart('start', dateFor(field, input, 'the date'), false);
}

/** range_date takes "START - END", a single date string, or {start, end}. Range values always carry a time (docs/vendors/tape.md#fields-and-values). */
function parseRangeDate(field: TapeField, input: unknown): Record<string, unknown> {
  let start: unknown;
  let end: unknown;
  if (typeof input === 'string') {
    const parts = input.split(/\s+-\s+/);
    if (parts.length > 2) throw fieldError(field, `expected "START - END", got ${show(input)}.`);
    [start, end] = parts;
  } else if (isObject(input)) {
    const extra = Object.keys(input).filter((k) => k !== 'start' && k !== 'end');
    if (extra.length) throw fieldError(field, `unknown key "${extra[0]}"; a range is {"start": …, "end": …}.`);
    ({ start, end } = input);
  } else {
    throw fieldError(field, `expected "START - END" or {"start", "end"}, got ${show(input)}.`);
  }
  const s = dateFor(field, start, 'start');
  const hasEnd = end !== undefined && end !== null && end !== '';
  if (!hasEnd && field.config.settings.end === 'required') throw fieldError(field, 'an end date is required by the field\'s "end" setting.');
  const out: Record<string, unknown> = datePart('start', s, true);
  if (hasEnd) {
    const e = dateFor(field, end, 'end');
    if (`${e.date} ${e.time ?? '00:00:00'}` < `${s.date} ${s.time ?? '00:00:00'}`) throw fieldError(field, 'the end lies before the start.');
    Object.assign(out, datePart('end', e, true));
  }
  return out;
}

function parseRelation(ctx: ValueContext, field: TapeField, input: unknown): TapeValue[] {
  const list = asList(input);
  if (!FIELD_TYPES[field.field_type]!.multiple && list.length > 1) throw fieldError(field, `a single_relation field holds one record, got ${list.length}.`);
  const apps = ((field.config.settings.referenced_apps as { app_id: number }[] | undefined) ?? []).map((r) => r.app_id);
  const seen = new Set<number>();
  const out: TapeValue[] = [];
  for (const id of list) {
    if (typeof id !== 'number' || !Number.isInteger(id) || id <= 0) throw fieldError(field, `expected record ids (positive integers), got ${show(id)}.`);
    const rec = ctx.state.records.get(id);
    if (!rec || rec.purged || rec.deleted_on) throw fieldError(field, `record ${id} does not exist.`);
    if (!apps.includes(rec.app_id)) throw fieldError(field, `record ${id} belongs to app ${rec.app_id}; this field references app(s) ${apps.join(', ') || '(none)'}.`);
    if (seen.has(id)) continue;
    seen.add(id);
    out.push({ value: { record_id: rec.record_id, app_id: rec.app_id, title: rec.title } });
  }
  return out;
}

function findUser(ctx: ValueContext, field: TapeField, id: unknown): TapeUser {
  if (typeof id !== 'number' || !Number.isInteger(id)) throw fieldError(field, `expected user ids (integers), got ${show(id)}.`);
  const user = ctx.state.users.get(id);
  if (!user) throw fieldError(field, `user ${id} is not a user of organization ${ctx.state.org.org_id}.`);
  return user;
}

function parseUsers(ctx: ValueContext, field: TapeField, input: unknown): TapeValue[] {
  const list = asList(input);
  if (!FIELD_TYPES[field.field_type]!.multiple && list.length > 1) throw fieldError(field, `a single_user field holds one user, got ${list.length}.`);
  const users = new Map<number, TapeUser>();
  for (const id of list) {
    const u = findUser(ctx, field, id);
    users.set(u.user_id, u);
  }
  return [...users.values()].map((u) => ({ value: userRef(u) }));
}

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

/** multi_email / multi_phone: a string, {type?, email|phone, id?}, or an array of those; type defaults to work. */
function parseContactEntries(ctx: ValueContext, field: TapeField, input: unknown, key: 'email' | 'phone', types: string[]): TapeValue[] {
  const existing = new Set((ctx.existing?.values.get(field.field_id) ?? []).map((v) => v.id as number));
  return asList(input).map((item) => {
    const entry = typeof item === 'string' ? { [key]: item } : item;
    if (!isObject(entry)) throw fieldError(field, `expected "${key}" strings or {"type", "${key}"} objects, got ${show(item)}.`);
    const extra = Object.keys(entry).filter((k) => k !== 'type' && k !== key && k !== 'id');
    if (extra.length) throw fieldError(field, `unknown key "${extra[0]}" in ${show(entry)}; an entry is {"type", "${key}", "id"?}.`);
    const text = entry[key];
    if (typeof text !== 'string' || text.trim() === '') throw fieldError(field, `each entry needs "${key}" as a non-empty string, got ${show(entry)}.`);
    if (key === 'email' && !EMAIL.test(text.trim())) throw fieldError(field, `${show(text)} is not an email address.`);
    if (key === 'phone' && !/^[+()\d\s./-]{3,}$/.test(text.trim())) throw fieldError(field, `${show(text)} is not a phone number.`);
    const type = entry.type ?? 'work';
    if (typeof type !== 'string' || !types.includes(type)) throw fieldError(field, `type must be one of ${types.join(', ')}, got ${show(type)}.`);
    const id = typeof entry.id === 'number' && existing.has(entry.id) ? entry.id : nextEntryId(ctx.state);
    return flat({ id, value: text.trim(), type });
  });
}

/** multi_link: url strings, {url, embed_id?, title?, description?}, or an array of those. */
function parseLinks(ctx: ValueContext, field: TapeField, input: unknown): TapeValue[] {
  const existing = new Map((ctx.existing?.values.get(field.field_id) ?? []).map((v) => [v.embed_id as number, v]));
  return asList(input).map((item) => {
    const entry = typeof item === 'string' ? { url: item } : item;
    if (!isObject(entry)) throw fieldError(field, `expected url strings or {"url"} objects, got ${show(item)}.`);
    const extra = Object.keys(entry).filter((k) => !['url', 'embed_id', 'title', 'description', 'type'].includes(k));
    if (extra.length) throw fieldError(field, `unknown key "${extra[0]}" in ${show(entry)}; a link entry is {"url", "embed_id"?}.`);
    const kept = typeof entry.embed_id === 'number' ? existing.get(entry.embed_id) : undefined;
    if (kept) return kept;
    const url = entry.url;
    if (typeof url !== 'string' || !/^https?:\/\/[^\s]+$/i.test(url.trim())) throw fieldError(field, `each link needs "url" as an http(s) URL, got ${show(url)}.`);
    const link: Record<string, unknown> = { embed_id: nextEntryId(ctx.state), url: url.trim() };
    if (typeof entry.title === 'string') Object.assign(link, { title: entry.title, description: typeof entry.description === 'string' ? entry.description : '', type: 'link' });
    return flat(link);
  });
}

/** single_location: the address object of docs/vendors/tape.md#fields-and-values (its `value` is the formatted address), or the address as a string. */
function parseLocation(field: TapeField, input: unknown): Record<string, unknown> {
  if (typeof input === 'string') {
    if (input.trim() === '') throw fieldError(field, 'the address is empty.');
    return { value: input.trim(), original_formatted_address: input.trim(), map_in_sync: false };
  }
  if (!isObject(input)) throw fieldError(field, `expected an address object {"value": "<formatted address>", "city", …} or an address string, got ${show(input)}.`);
  const extra = Object.keys(input).filter((k) => !LOCATION_KEYS.includes(k));
  if (extra.length) throw fieldError(field, `unknown key "${extra[0]}"; known keys: ${LOCATION_KEYS.join(', ')}.`);
  for (const k of ['city', 'country', 'state', 'postal_code', 'street_address']) {
    if (input[k] !== undefined && input[k] !== null && typeof input[k] !== 'string') throw fieldError(field, `"${k}" must be a string.`);
  }
  for (const k of ['latitude', 'longitude']) {
    if (input[k] !== undefined && input[k] !== null && typeof input[k] !== 'number') throw fieldError(field, `"${k}" must be a number.`);
  }
  const parts = ['street_address', 'postal_code', 'city', 'state', 'country'].map((k) => input[k]).filter((v): v is string => typeof v === 'string' && v !== '');
  const value = typeof input.value === 'string' && input.value.trim() !== '' ? input.value.trim() : parts.join(', ');
  if (!value) throw fieldError(field, 'the location needs "value" (the formatted address) or address parts.');
  const out: Record<string, unknown> = { ...input, value, original_formatted_address: value };
  if (out.map_in_sync === undefined) out.map_in_sync = false;
  return out;
}

interface FileInfo { filename: string; size: number; download_url?: string }

/** A file as a record value shows it: a file attached to any record (integer id), or an upload (temporary id, docs/vendors/tape.md#files). */
export function lookupFile(state: TapeState, id: string | number): FileInfo | undefined {
  if (typeof id === 'number') {
    for (const rec of state.records.values()) {
      for (const vals of rec.values.values()) {
        for (const v of vals) {
          const f = v.value as { id?: unknown; filename?: unknown; size?: unknown; download_url?: unknown } | undefined;
          if (f && typeof f === 'object' && f.id === id && typeof f.filename === 'string') {
            return { filename: f.filename, size: Number(f.size ?? 0), ...(typeof f.download_url === 'string' ? { download_url: f.download_url } : {}) };
          }
        }
      }
    }
    return undefined;
  }
  const upload = state.files.get(id);
  return upload ? { filename: upload.name, size: upload.size } : undefined;
}

/**
 * Attachments and images: temporary file ids (strings) of uploads, or ids (integers) of files
 * already attached to a record. An attached upload gets a permanent integer id.
 */
function parseFiles(ctx: ValueContext, field: TapeField, input: unknown): TapeValue[] {
  const list = asList(input);
  if (field.field_type === 'single_attachment' && list.length > 1) throw fieldError(field, `a single_attachment field holds one file, got ${list.length}.`);
  return list.map((id) => {
    const isInt = typeof id === 'number' && Number.isInteger(id) && id > 0;
    if (!isInt && (typeof id !== 'string' || id === '')) throw fieldError(field, `expected file ids (temporary upload ids or integers), got ${show(id)}.`);
    const info = lookupFile(ctx.state, id as string | number);
    if (!info) throw fieldError(field, `file ${show(id)} does not exist; upload it first (POST /v1/file/upload) and pass its file_id.`);
    if (field.field_type === 'multi_image' && !IMAGE_EXTENSIONS.test(info.filename)) {
      throw fieldError(field, `${info.filename} is not an image (jpeg, jpg, png, gif, tiff, svg, bmp, webp).`);
    }
    if (isInt) return { value: { id, filename: info.filename, size: info.size, ...(info.download_url ? { download_url: info.download_url } : {}) } };
    // An upload attached: its bytes stay downloadable by the attachment's download_url (docs/vendors/tape.md#fields-and-values).
    const upload = ctx.state.files.get(id as string)!;
    const attached = nextEntryId(ctx.state);
    const token = downloadToken();
    ctx.state.attachments.set(attached, { content: upload.content, mimetype: upload.mimetype, token });
    return { value: { id: attached, filename: info.filename, size: info.size, download_url: downloadLink(ctx.state.linkBase(), attached, token, info.filename) } };
  });
}

/** "YYYY-MM-DD HH:MM", as checklist completion times show it. */
const minuteTime = (d: Date) => tapeDateTime(d).slice(0, 16);

/** checklist: a title string, an entry object, or an array of those; entries with an existing id are updated, others created. */
function parseChecklist(ctx: ValueContext, field: TapeField, input: unknown): TapeValue[] {
  const existing = new Map((ctx.existing?.values.get(field.field_id) ?? []).map((v) => [v.id as number, v]));
  return asList(input).map((item) => {
    const entry = typeof item === 'string' ? { title: item } : item;
    if (!isObject(entry)) throw fieldError(field, `expected title strings or entry objects {"title", "description", "due_at", "assignee", "completed"}, got ${show(item)}.`);
    const extra = Object.keys(entry).filter((k) => !CHECKLIST_KEYS.includes(k));
    if (extra.length) throw fieldError(field, `unknown key "${extra[0]}" in a checklist entry; keys are ${CHECKLIST_KEYS.filter((k) => k !== 'completed_at').join(', ')}.`);
    if (typeof entry.title !== 'string' || entry.title.trim() === '') throw fieldError(field, `each checklist entry needs "title" as a non-empty string, got ${show(entry)}.`);
    if (entry.description !== undefined && entry.description !== null && typeof entry.description !== 'string') throw fieldError(field, '"description" must be a string.');
    if (entry.completed !== undefined && typeof entry.completed !== 'boolean') throw fieldError(field, '"completed" must be a boolean.');
    let due: string | null = null;
    if (entry.due_at !== undefined && entry.due_at !== null && entry.due_at !== '') {
      const d = typeof entry.due_at === 'string' ? parseTapeDate(entry.due_at) : undefined;
      if (!d) throw fieldError(field, `"due_at" must be "YYYY-MM-DD" or "YYYY-MM-DD HH:MM", got ${show(entry.due_at)}.`);
      due = d.time ? `${d.date} ${d.time.slice(0, 5)}` : d.date;
    }
    const assignee = entry.assignee === undefined || entry.assignee === null ? null : userRef(findUser(ctx, field, entry.assignee));
    const before = typeof entry.id === 'number' ? existing.get(entry.id) : undefined;
    const completed = entry.completed ?? (before?.completed as boolean | undefined) ?? false;
    const completedAt = completed ? ((before?.completed ? before.completed_at : null) ?? minuteTime(ctx.now)) : null;
    return flat({
      id: before ? (before.id as number) : nextEntryId(ctx.state),
      title: entry.title.trim(),
      description: typeof entry.description === 'string' ? entry.description : '',
      due_at: due,
      completed,
      completed_at: completedAt,
      assignee,
    });
  });
}

// --- text renderings: titles, sorting, search, calculations ---

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "Tuesday, 1. March 2022" (+ " 14:00" when a time is set), as record titles of date fields read. */
function longDate(date: string, time: unknown): string {
  const d = new Date(`${date}T00:00:00Z`);
  const t = typeof time === 'string' ? ` ${time.slice(0, 5)}` : '';
  return `${WEEKDAYS[d.getUTCDay()]}, ${d.getUTCDate()}. ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}${t}`;
}

const stripHtml = (s: string) => s.replace(/<[^>]*>/g, '').replace(/&nbsp;/g, ' ').replace(/&amp;/g, '&').trim();

/** Plain text of a field's values: what a record title shows for it. */
export function valueText(field: TapeField, values: TapeValue[]): string {
  if (!values.length) return '';
  const v0 = values[0]!;
  switch (FIELD_TYPES[field.field_type]?.valueType) {
    case 'text':
      return stripHtml(String(v0.value));
    case 'number': {
      const s = field.config.settings;
      const unit = typeof s.unit === 'string' ? s.unit : '';
      return s.unit_location === 'prefix' ? `${unit}${String(v0.value)}` : `${String(v0.value)}${unit}`;
    }
    case 'category':
    case 'status':
      return values.map((v) => (v.value as { text: string }).text).join(', ');
    case 'date': {
      const start = longDate(String(v0.start_date), v0.start_time);
      return v0.end_date ? `${start} - ${longDate(String(v0.end_date), v0.end_time)}` : start;
    }
    case 'relation':
      return values.map((v) => (v.value as { title: string }).title).join(', ');
    case 'user':
      return values.map((v) => (v.value as { name: string }).name).join(', ');
    case 'email':
    case 'phone':
    case 'location':
    case 'calculation':
      return values.map((v) => String(v.value)).join(', ');
    case 'link':
      return values.map((v) => String(v.url)).join(', ');
    case 'attachment':
    case 'image':
      return values.map((v) => (v.value as { filename: string }).filename).join(', ');
    case 'checklist':
      return values.map((v) => String(v.title)).join(', ');
    default:
      return '';
  }
}

/** The record title: the text of the first field, in app order, that holds a value (docs/vendors/tape.md#fields-and-values examples). */
export function recordTitle(app: TapeApp, values: Map<number, TapeValue[]>): string {
  for (const f of app.fields) {
    const vals = values.get(f.field_id);
    if (vals?.length) return valueText(f, vals);
  }
  return '';
}

/** A value to sort by: number for numbers, otherwise lower-cased text (dates sort by their start). Null when empty. */
export function sortKey(field: TapeField, values: TapeValue[] | undefined): number | string | null {
  if (!values?.length) return null;
  const v0 = values[0]!;
  const kind = FIELD_TYPES[field.field_type]?.valueType;
  if (kind === 'number' || (kind === 'calculation' && typeof v0.value === 'number')) return v0.value as number;
  if (kind === 'date') return String(v0.start);
  return valueText(field, values).toLowerCase();
}

// --- calculation fields: a safe evaluator for the arithmetic/concatenation subset of scripts ---

type Scalar = string | number | null;
/** How deep parentheses and signs may nest in a script the twin evaluates; deeper ones leave the value empty. */
const MAX_SCRIPT_DEPTH = 32;
const REF = /^@\[[^\]]*\]\(field_(\d+)\)/;

/** The value of a field as a calculation script sees it: numbers as numbers, everything else as text; null when empty. */
function scriptValue(field: TapeField | undefined, values: TapeValue[] | undefined): Scalar {
  if (!field || !values?.length) return null;
  const kind = FIELD_TYPES[field.field_type]?.valueType;
  if (kind === 'number') return values[0]!.value as number;
  if (kind === 'calculation') return values[0]!.value as Scalar;
  if (kind === 'date') return String(values[0]!.start);
  return valueText(field, values);
}

/**
 * Evaluates a calculation script over the record's values. Supports what scripts that combine
 * fields use most — field references `@[Label](field_N)`, string and number literals, + - * /,
 * parentheses — with JavaScript's semantics. Returns undefined when the script uses anything else
 * (the twin then leaves the value empty).
 */
export function evaluateScript(script: string, app: TapeApp, values: Map<number, TapeValue[]>): Scalar | undefined {
  let i = 0;
  const src = script.trim().replace(/;\s*$/, '');
  const ws = () => { while (i < src.length && /\s/.test(src[i]!)) i++; };
  const fail = (): never => { throw new Error('unsupported'); };
  const add = (a: Scalar, b: Scalar): Scalar => (typeof a === 'string' || typeof b === 'string' ? String(a) + String(b) : Number(a) + Number(b));
  // Parentheses and signs recurse per level: a bound keeps `((((…` from exhausting the stack.
  let depth = 0;
  function primary(): Scalar {
    if (++depth > MAX_SCRIPT_DEPTH) fail();
    try {
      return operand();
    } finally {
      depth--;
    }
  }
  function operand(): Scalar {
    ws();
    const rest = src.slice(i);
    const ref = REF.exec(rest);
    if (ref) {
      i += ref[0].length;
      const id = Number(ref[1]);
      return scriptValue(app.fields.find((f) => f.field_id === id), values.get(id));
    }
    const num = /^\d+(\.\d+)?/.exec(rest);
    if (num) { i += num[0].length; return Number(num[0]); }
    const str = /^"((?:[^"\\]|\\.)*)"|^'((?:[^'\\]|\\.)*)'/.exec(rest);
    if (str) { i += str[0].length; return (str[1] ?? str[2] ?? '').replace(/\\(.)/g, '$1'); }
    if (rest.startsWith('(')) { i++; const v = expr(); ws(); if (src[i] !== ')') fail(); i++; return v; }
    if (rest.startsWith('-')) { i++; return -Number(primary()); }
    return fail();
  }
  function term(): Scalar {
    let v = primary();
    for (;;) {
      ws();
      const op = src[i];
      if (op !== '*' && op !== '/') return v;
      i++;
      const r = primary();
      v = op === '*' ? Number(v) * Number(r) : Number(v) / Number(r);
    }
  }
  function expr(): Scalar {
    let v = term();
    for (;;) {
      ws();
      const op = src[i];
      if (op !== '+' && op !== '-') return v;
      i++;
      const r = term();
      v = op === '+' ? add(v, r) : Number(v) - Number(r);
    }
  }
  try {
    const v = expr();
    ws();
    if (i !== src.length) return undefined;
    if (typeof v === 'number' && !Number.isFinite(v)) return null;
    return v;
  } catch {
    return undefined;
  }
}

/** "number" when a script combines only number fields and number literals, else "text". */
export function scriptReturnType(script: string, app: TapeApp): 'number' | 'text' {
  if (/["']/.test(script)) return 'text';
  const ids = [...script.matchAll(/\(field_(\d+)\)/g)].map((m) => Number(m[1]));
  const allNumbers = ids.every((id) => {
    const f = app.fields.find((x) => x.field_id === id);
    return f?.field_type === 'number' || (f?.field_type === 'calculation' && f.config.settings.return_type === 'number');
  });
  return allNumbers ? 'number' : 'text';
}

/** Recomputes the calculation fields of a record's values in place. */
export function applyCalculations(app: TapeApp, values: Map<number, TapeValue[]>): void {
  for (const f of app.fields) {
    if (f.field_type !== 'calculation') continue;
    const script = f.config.settings.script;
    const v = typeof script === 'string' ? evaluateScript(script, app, values) : undefined;
    if (v === undefined || v === null || v === '') values.delete(f.field_id);
    else values.set(f.field_id, [{ value: typeof v === 'number' && typeof f.config.settings.decimals === 'number' ? round(v, f.config.settings.decimals) : v }]);
  }
}

const round = (v: number, decimals: number) => Math.round(v * 10 ** decimals) / 10 ** decimals;

/** Tape's 400 for a field value problem, for callers that validate values outside parseFieldInputs. */
export { fieldError };
