import { downloadLink, downloadToken } from '../kit';
import { invalid, notFound } from './http';
import type { PodioAppRow, PodioFieldRow, PodioItemRow, PodioState, StoredValue } from './state';
import { profileOf } from './state';
import { evaluateScript, ScriptError } from './formula';
import { isObject } from '../kit/request';

/**
 * Field values in and out (docs/vendors/podio.md#field-types). In: every input form Podio takes (`[{sub_id: v}]`, `[v, …]`,
 * `{sub_id: v}`, `v`), checked as Podio checks them, into a normalized stored form. Out: Podio's
 * output shapes, rendered from the stored form on every read.
 *
 * Stored forms: text/number/progress/duration {value}; money {value: decimal string, currency};
 * date {start_date, start_time, end_date, end_time} (times null for whole days); category {id};
 * app {item_id}; contact {profile_id}; image {file_id}; embed {embed_id, file_id}; location
 * {value, formatted, street_number, …, lat, lng}; tel/email {type, value}.
 */

type Json = Record<string, unknown>;
const isId = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0;
const show = (v: unknown) => JSON.stringify(v) ?? String(v);

export const settingsOf = (f: PodioFieldRow) => f.config.settings;

/** The types whose single value is itself an object with a `value` key (not the `{value: v}` wrapper). */
const VALUE_OBJECT_TYPES = new Set(['money', 'tel', 'email', 'location']);

/** Who writes, and where: the app a write goes to (relation and contact checks need the org). */
export interface InputContext {
  state: PodioState;
  app: PodioAppRow;
}

function fieldError(f: PodioFieldRow, problem: string) {
  return invalid(`Invalid value for field "${f.label}" (${f.external_id}, ${f.field_id}): ${problem}`);
}

/** The input as a list of entries: an array as it is, anything else one entry. */
function entriesOf(raw: unknown): unknown[] {
  if (raw === null || raw === undefined) return [];
  return Array.isArray(raw) ? raw : [raw];
}

/** `{value: v}` → v, for the types whose values are not objects with a `value` key of their own. */
function unwrap(f: PodioFieldRow, entry: unknown): unknown {
  if (!VALUE_OBJECT_TYPES.has(f.type) && isObject(entry) && 'value' in entry && Object.keys(entry).length === 1) return entry.value;
  return entry;
}

/** An id given bare, as `{key: id}` or `{value: {key: id}}` (after unwrap). */
function idOf(f: PodioFieldRow, v: unknown, key: string): number {
  if (isId(v)) return v;
  if (isObject(v) && isId(v[key])) return v[key] as number;
  throw fieldError(f, `expected an integer ${key}, got ${show(v)}.`);
}

const DECIMAL = /^-?\d+(\.\d+)?$/;

function numberOf(f: PodioFieldRow, v: unknown): number {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && DECIMAL.test(v.trim())) return Number(v);
  throw fieldError(f, `expected a number, got ${show(v)}.`);
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{2}):(\d{2})(?::(\d{2}))?$/;

function checkDate(f: PodioFieldRow, s: unknown, name: string): string {
  const m = typeof s === 'string' ? DATE.exec(s.trim()) : null;
  if (m) {
    const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
    if (d.toISOString().slice(0, 10) === s!.toString().trim()) return s!.toString().trim();
  }
  throw fieldError(f, `"${name}" must be a date "YYYY-MM-DD", got ${show(s)}.`);
}

function checkTime(f: PodioFieldRow, s: unknown, name: string): string {
  const m = typeof s === 'string' ? TIME.exec(s.trim()) : null;
  if (m && Number(m[1]) < 24 && Number(m[2]) < 60 && Number(m[3] ?? 0) < 60) return `${m[1]}:${m[2]}:${m[3] ?? '00'}`;
  throw fieldError(f, `"${name}" must be a time "HH:MM:SS", got ${show(s)}.`);
}

/** "YYYY-MM-DD" or "YYYY-MM-DD HH:MM:SS" → [date, time | null]. */
function splitDateTime(f: PodioFieldRow, s: unknown, name: string): [string, string | null] {
  if (typeof s !== 'string') throw fieldError(f, `"${name}" must be "YYYY-MM-DD HH:MM:SS", got ${show(s)}.`);
  const [d, t] = s.trim().split(/[ T]/);
  return [checkDate(f, d, name), t === undefined ? null : checkTime(f, t, name)];
}

function dateInput(f: PodioFieldRow, v: unknown): StoredValue {
  let start: [string, string | null];
  let end: [string, string | null] | null = null;
  if (typeof v === 'string') start = splitDateTime(f, v, 'start');
  else if (isObject(v)) {
    const known = ['start', 'end', 'start_date', 'start_time', 'end_date', 'end_time', 'start_utc', 'end_utc', 'start_date_utc', 'start_time_utc', 'end_date_utc', 'end_time_utc'];
    const extra = Object.keys(v).find((k) => !known.includes(k));
    if (extra) throw fieldError(f, `unknown key "${extra}" in a date value.`);
    // The sandbox users live in UTC, so the local (`start_date`) and UTC (`start_utc`) frames agree.
    const part = (key: 'start' | 'end'): [string, string | null] | null => {
      for (const k of [key, `${key}_utc`]) if (v[k] !== undefined && v[k] !== null) return splitDateTime(f, v[k], k);
      for (const sfx of ['', '_utc']) {
        const d = v[`${key}_date${sfx}`];
        if (d === undefined || d === null) continue;
        const t = v[`${key}_time${sfx}`];
        return [checkDate(f, d, `${key}_date${sfx}`), t === undefined || t === null || t === '' ? null : checkTime(f, t, `${key}_time${sfx}`)];
      }
      return null;
    };
    const s = part('start');
    if (!s) throw fieldError(f, 'a date needs a start: "start_date" (and "start_time"), "start_utc" or "start".');
    start = s;
    end = part('end');
  } else throw fieldError(f, `expected a date object {"start_date", "start_time", …}, got ${show(v)}.`);
  const settings = settingsOf(f);
  if (end && settings.end === 'disabled') throw fieldError(f, 'this date field takes no end date.');
  if (!end && settings.end === 'required') throw fieldError(f, 'this date field requires an end date.');
  const withTime = settings.time !== 'disabled';
  if (settings.time === 'required' && start[1] === null) throw fieldError(f, 'this date field requires a start time.');
  const value = { start_date: start[0], start_time: withTime ? start[1] : null, end_date: end ? end[0] : null, end_time: end && withTime ? end[1] : null };
  if (end && `${value.end_date} ${value.end_time ?? '00:00:00'}` < `${value.start_date} ${value.start_time ?? '00:00:00'}`) throw fieldError(f, 'the end lies before the start.');
  return value;
}

function locationInput(f: PodioFieldRow, v: unknown): StoredValue {
  const keys = ['value', 'formatted', 'street_number', 'street_name', 'postal_code', 'city', 'state', 'country', 'lat', 'lng', 'map_in_sync'];
  if (typeof v === 'string' && v.trim() !== '') return { value: v.trim(), formatted: v.trim(), street_number: null, street_name: null, postal_code: null, city: null, state: null, country: null, lat: null, lng: null };
  if (isObject(v)) {
    const extra = Object.keys(v).find((k) => !keys.includes(k));
    if (extra) throw fieldError(f, `unknown key "${extra}" in a location.`);
    const text = typeof v.value === 'string' && v.value.trim() ? v.value.trim() : typeof v.formatted === 'string' ? v.formatted.trim() : '';
    if (!text) throw fieldError(f, 'a location needs "value" (the address as text).');
    const out: StoredValue = { value: text, formatted: typeof v.formatted === 'string' ? v.formatted : text };
    for (const k of keys.slice(2, 8)) out[k] = typeof v[k] === 'string' ? v[k] : null;
    for (const k of ['lat', 'lng']) out[k] = typeof v[k] === 'number' ? v[k] : null;
    return out;
  }
  throw fieldError(f, `expected an address string or {value, …}, got ${show(v)}.`);
}

const DEFAULT_TYPES: Record<string, string[]> = {
  tel: ['mobile', 'work', 'home', 'main', 'work_fax', 'private_fax', 'other'],
  email: ['work', 'home', 'other'],
};
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9 ()./-]{3,}$/;

function typedInput(f: PodioFieldRow, v: unknown): StoredValue {
  const types = Array.isArray(settingsOf(f).possible_types) ? (settingsOf(f).possible_types as string[]) : DEFAULT_TYPES[f.type]!;
  if (!isObject(v) || typeof v.value !== 'string') throw fieldError(f, `expected {"type", "value"}, got ${show(v)}.`);
  const type = v.type ?? 'other';
  if (typeof type !== 'string' || !types.includes(type)) throw fieldError(f, `"type" must be one of ${types.join(', ')}, got ${show(v.type)}.`);
  const value = v.value.trim();
  if (!(f.type === 'email' ? EMAIL : PHONE).test(value)) throw fieldError(f, `${show(v.value)} is not ${f.type === 'email' ? 'an email address' : 'a phone number'}.`);
  return { type, value };
}

/** One entry of input → its stored form. */
function entryInput(cx: InputContext, f: PodioFieldRow, entry: unknown): StoredValue {
  const v = unwrap(f, entry);
  const { state } = cx;
  switch (f.type) {
    case 'text':
      if (typeof v !== 'string') throw fieldError(f, `expected a string, got ${show(v)}.`);
      return { value: v };
    case 'number':
      return { value: numberOf(f, v) };
    case 'progress': {
      const n = numberOf(f, v);
      if (!Number.isInteger(n) || n < 0 || n > 100) throw fieldError(f, `progress is an integer from 0 to 100, got ${show(v)}.`);
      return { value: n };
    }
    case 'duration': {
      const n = numberOf(f, v);
      if (!Number.isInteger(n) || n < 0) throw fieldError(f, `a duration is a whole number of seconds (0 or more), got ${show(v)}.`);
      return { value: n };
    }
    case 'money': {
      if (!isObject(v)) throw fieldError(f, `expected {"value": "10.50", "currency": "EUR"}, got ${show(v)}.`);
      const amount = numberOf(f, v.value);
      const allowed = (settingsOf(f).allowed_currencies as string[] | undefined) ?? [];
      if (typeof v.currency !== 'string' || !allowed.includes(v.currency)) throw fieldError(f, `currency ${show(v.currency)} is not allowed; allowed: ${allowed.join(', ')}.`);
      return { value: String(typeof v.value === 'string' ? v.value.trim() : amount), currency: v.currency };
    }
    case 'date':
      return dateInput(f, v);
    case 'category': {
      const id = idOf(f, v, 'id');
      const options = (settingsOf(f).options as { id: number; status: string }[]) ?? [];
      if (!options.some((o) => o.id === id && o.status === 'active')) throw fieldError(f, `${id} is not an option of this category; options: ${options.filter((o) => o.status === 'active').map((o) => o.id).join(', ')}.`);
      return { id };
    }
    case 'app': {
      const id = idOf(f, v, 'item_id');
      const target = state.items.get(id);
      if (!target) throw notFound();
      const refs = ((settingsOf(f).referenced_apps as { app_id: number }[]) ?? []).map((r) => r.app_id);
      if (!refs.includes(target.app_id)) throw fieldError(f, `item ${id} is in app ${target.app_id}, not in a referenced app (${refs.join(', ')}).`);
      return { item_id: id };
    }
    case 'contact': {
      const id = idOf(f, v, 'profile_id');
      // Podio answers 404 for an id that is no profile it knows (e.g. a user id passed by mistake).
      if (![...state.users.values()].some((u) => u.profile_id === id)) throw notFound();
      return { profile_id: id };
    }
    case 'image': {
      const id = idOf(f, v, 'file_id');
      if (!state.files.has(id)) throw notFound();
      return { file_id: id };
    }
    case 'embed': {
      const embedId = isObject(v) ? (isObject(v.embed) ? v.embed.embed_id : v.embed) : v;
      if (!isId(embedId)) throw fieldError(f, `expected {"embed": embed_id, "file"?: file_id}, got ${show(v)}.`);
      if (!state.embeds.has(embedId)) throw notFound();
      const fileRaw = isObject(v) ? (isObject(v.file) ? v.file.file_id : v.file) : undefined;
      if (fileRaw !== undefined && fileRaw !== null && !(isId(fileRaw) && state.files.has(fileRaw))) throw notFound();
      return { embed_id: embedId, file_id: fileRaw ?? null };
    }
    case 'location':
      return locationInput(f, v);
    case 'tel':
    case 'email':
      return typedInput(f, v);
    case 'calculation':
      throw fieldError(f, 'calculation fields are computed and take no value.');
    default:
      throw fieldError(f, `fields of type ${f.type} cannot be written through the API.`);
  }
}

/** A field's input (any form of docs/vendors/podio.md#field-types) → its stored values; an empty array clears it. */
export function fieldInput(cx: InputContext, f: PodioFieldRow, raw: unknown): StoredValue[] {
  const seen = new Set<string>();
  // The same option, item, profile or file named twice is one value, as in Podio.
  const out = entriesOf(raw)
    .map((e) => entryInput(cx, f, e))
    .filter((v) => !seen.has(JSON.stringify(v)) && !!seen.add(JSON.stringify(v)));
  const single = ['text', 'number', 'money', 'progress', 'duration', 'date', 'location'].includes(f.type) || (['category', 'app'].includes(f.type) && settingsOf(f).multiple === false);
  if (single && out.length > 1) throw fieldError(f, `this field holds one value, got ${out.length}.`);
  return out;
}

/** A field of the app by field_id (number or digits) or external_id. */
export function fieldOf(app: PodioAppRow, key: string | number): PodioFieldRow | undefined {
  const k = String(key);
  return app.fields.find((f) => f.status === 'active' && (String(f.field_id) === k || f.external_id === k));
}

/**
 * The `fields` of a create/update body → field id → stored values. Takes Podio's map
 * `{field_id|external_id: value}` and .NET's list `[{field_id|external_id, values}]`.
 */
export function fieldsInput(cx: InputContext, raw: unknown): Map<number, StoredValue[]> {
  const pairs: [string | number, unknown][] = [];
  if (Array.isArray(raw)) {
    for (const e of raw) {
      if (!isObject(e) || (e.field_id === undefined && e.external_id === undefined)) throw invalid(`Each entry of "fields" as a list is {"field_id" or "external_id", "values"}, got ${show(e)}.`);
      pairs.push([(e.field_id ?? e.external_id) as string | number, e.values]);
    }
  } else if (isObject(raw)) pairs.push(...Object.entries(raw));
  else if (raw !== undefined) throw invalid(`"fields" must be an object keyed by field_id or external_id, got ${show(raw)}.`);
  const out = new Map<number, StoredValue[]>();
  for (const [key, value] of pairs) {
    const f = fieldOf(cx.app, key);
    if (!f) throw invalid(`No field with id or external_id "${key}" in app ${cx.app.app_id}.`);
    out.set(f.field_id, fieldInput(cx, f, value));
  }
  return out;
}

// --- output ---

const fixed4 = (n: number) => n.toFixed(4);

/** The app of an item as Podio nests it in values, references and items. */
export function appMini(app: PodioAppRow) {
  return { app_id: app.app_id, name: app.name, item_name: app.item_name, icon: app.icon, url_label: app.url_label, space_id: app.space_id };
}

export function itemLink(state: PodioState, item: PodioItemRow): string {
  const app = state.apps.get(item.app_id)!;
  const space = state.spaces.get(app.space_id)!;
  return `https://podio.com/${state.org.url_label}/${space.url_label}/apps/${app.url_label}/items/${item.app_item_id}`;
}

/** The item's title: its first text field (Podio's title field), as plain text. */
export function titleOf(state: PodioState, item: PodioItemRow): string {
  const app = state.apps.get(item.app_id)!;
  const f = app.fields.filter((x) => x.status === 'active' && x.type === 'text').sort((a, b) => a.config.delta - b.config.delta)[0];
  const v = f ? item.values.get(f.field_id)?.[0]?.value : undefined;
  return typeof v === 'string' ? v.replace(/<[^>]*>/g, '').trim() : '';
}

export function fileOut(state: PodioState, fileId: number, base: string) {
  const f = state.files.get(fileId);
  if (!f) return null;
  // Podio's own link needs the caller's token; the twin's opens without one, as a signed link does,
  // under its public base (the local server's mount), so `curl "$link"` downloads the file where the user is.
  const link = downloadLink(state.linkBase() ?? base, f.file_id, (f.token ??= downloadToken()), f.name);
  return {
    file_id: f.file_id,
    name: f.name,
    description: f.description,
    mimetype: f.mimetype,
    size: f.content.byteLength,
    link,
    perma_link: link,
    thumbnail_link: f.mimetype.startsWith('image/') ? link : null,
    hosted_by: 'podio',
    hosted_by_humanized_name: 'Podio',
    created_on: f.created_on,
    created_by: { type: 'user', id: f.created_by },
    context: f.context,
    rights: ['download', 'view', 'delete', 'update'],
  };
}

export function embedOut(state: PodioState, embedId: number) {
  const e = state.embeds.get(embedId);
  if (!e) return null;
  return { embed_id: e.embed_id, url: e.url, original_url: e.url, resolved_url: e.url, title: e.title, description: e.description, type: 'link', provider_name: new URL(e.url).hostname, embed_html: null, created_on: e.created_on };
}

function dateOut(v: StoredValue) {
  const at = (d: unknown, t: unknown) => (d ? `${d as string} ${(t as string | null) ?? '00:00:00'}` : null);
  const start = at(v.start_date, v.start_time);
  const end = at(v.end_date, v.end_time);
  return {
    start,
    start_date: v.start_date,
    start_time: v.start_time,
    start_utc: start,
    start_date_utc: v.start_date,
    start_time_utc: v.start_time,
    end,
    end_date: v.end_date,
    end_time: v.end_time,
    end_utc: end,
    end_date_utc: v.end_date,
    end_time_utc: v.end_time,
  };
}

/** A calculation's value on this item, or null when an operand is empty. */
export function calculationValue(state: PodioState, app: PodioAppRow, f: PodioFieldRow, item: PodioItemRow, depth = 0): number | null {
  const script = settingsOf(f).script;
  if (typeof script !== 'string' || depth > 5) return null;
  try {
    return evaluateScript(script, (fieldId) => numericValue(state, app, fieldId, item, depth + 1));
  } catch (err) {
    // A script the twin cannot read leaves the calculation empty, as a broken one shows no value.
    if (err instanceof ScriptError) return null;
    throw err;
  }
}

/** The number a numeric field holds on an item (money by its amount), or null. */
export function numericValue(state: PodioState, app: PodioAppRow, fieldId: number, item: PodioItemRow, depth = 0): number | null {
  const f = app.fields.find((x) => x.field_id === fieldId);
  if (!f) return null;
  if (f.type === 'calculation') return calculationValue(state, app, f, item, depth);
  const v = item.values.get(fieldId)?.[0]?.value;
  if (typeof v === 'number') return v;
  return typeof v === 'string' && DECIMAL.test(v) ? Number(v) : null;
}

/** Stored values of a field → Podio's output `values` (docs/vendors/podio.md#field-types table). */
export function valuesOut(state: PodioState, app: PodioAppRow, f: PodioFieldRow, item: PodioItemRow, base: string): Record<string, unknown>[] {
  if (f.type === 'calculation') {
    const n = calculationValue(state, app, f, item);
    return n === null ? [] : [{ value: fixed4(n) }];
  }
  const stored = item.values.get(f.field_id) ?? [];
  return stored.flatMap((v): Record<string, unknown>[] => {
    switch (f.type) {
      case 'number':
        return [{ value: fixed4(v.value as number) }];
      case 'money':
        return [{ value: fixed4(Number(v.value)), currency: v.currency }];
      case 'date':
        return [dateOut(v)];
      case 'category': {
        const o = ((settingsOf(f).options as Json[]) ?? []).find((x) => x.id === v.id);
        return o ? [{ value: { id: o.id, text: o.text, color: o.color, status: o.status } }] : [];
      }
      case 'app': {
        const target = state.items.get(v.item_id as number);
        if (!target) return [];
        const tApp = state.apps.get(target.app_id)!;
        return [{ value: { item_id: target.item_id, app_item_id: target.app_item_id, title: titleOf(state, target), link: itemLink(state, target), app: appMini(tApp), created_on: target.created_on } }];
      }
      case 'contact': {
        const u = [...state.users.values()].find((x) => x.profile_id === v.profile_id);
        return u ? [{ value: profileOf(u) }] : [];
      }
      case 'image': {
        const file = fileOut(state, v.file_id as number, base);
        return file ? [{ value: file }] : [];
      }
      case 'embed': {
        const embed = embedOut(state, v.embed_id as number);
        return embed ? [{ embed, file: v.file_id ? fileOut(state, v.file_id as number, base) : null }] : [];
      }
      case 'location':
        return [{ ...v, map_in_sync: v.lat !== null }];
      default:
        return [{ ...v }];
    }
  });
}
