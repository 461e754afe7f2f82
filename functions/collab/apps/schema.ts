/** An app's schema as getApp returns it (what an item write needs), apps in a listing, and their text. */
import { expectedOf } from '../../../shared/fields/engine';
import { plural } from '../../../shared/core/render';
import { COLLAB_FIELDS } from '../fields';
import type { PodioApp, PodioAppField, PodioAppSummary } from '../wire';

/** Field types whose values Podio computes: never written. */
const READ_ONLY_TYPES: ReadonlySet<string> = new Set(['calculation']);

/** One field of an app: its keys, kind, and every rule a value must respect. */
export interface AppFieldSchema {
  field_id: number;
  external_id: string;
  label: string;
  type: string;
  required: boolean;
  read_only?: true;
  description?: string;
  /** Category options (active ones): the ids a value takes, or their texts. */
  options?: { id: number; text: string }[];
  /** Category and relation fields: whether several values are allowed. */
  multiple?: boolean;
  /** Relation (app) fields: the apps whose items the field holds. */
  referenced_apps?: { app_id: number; name?: string }[];
  /** Money fields: the currencies the field accepts. */
  allowed_currencies?: string[];
  /** Date fields: whether a time is kept ("enabled" | "disabled" | "required") and an end date ("enabled" | "disabled" | "required"). */
  time?: string;
  end?: string;
  /** Number and calculation fields. */
  decimals?: number;
  unit?: string;
  /** Calculation fields: "number" | "date" | "text". */
  return_type?: string;
  /** Phone and email fields: the types an entry may have. */
  possible_types?: string[];
  /** Contact fields: what the field holds ("space_users", "all_users", …). */
  contact_type?: string;
  /** Text fields: "plain" | "markdown" | "html". */
  format?: string;
  /** The input shape with an example, as item writes check it. */
  input: string;
}

export interface AppSchema {
  app_id: number;
  space_id?: number;
  name: string;
  item_name: string;
  description?: string;
  link?: string;
  fields: AppFieldSchema[];
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const strings = (v: unknown): string[] | undefined => (Array.isArray(v) && v.every((s) => typeof s === 'string') && v.length ? (v as string[]) : undefined);

/** The app ids a relation field points to (`settings.referenced_apps: [{app_id, view_id}]`). */
export function referencedAppIds(app: PodioApp): number[] {
  const ids = app.fields.flatMap((f) => {
    const refs = f.config.settings?.referenced_apps;
    return Array.isArray(refs) ? refs.map((r: { app_id?: unknown }) => r.app_id).filter((id): id is number => typeof id === 'number') : [];
  });
  return [...new Set(ids)];
}

function fieldSchema(f: PodioAppField, appNames: ReadonlyMap<number, string>): AppFieldSchema {
  const s = f.config.settings ?? {};
  const out: AppFieldSchema = { field_id: f.field_id, external_id: f.external_id, label: f.label ?? f.config.label, type: f.type, required: f.config.required === true, input: expectedOf(COLLAB_FIELDS, f) };
  if (READ_ONLY_TYPES.has(f.type)) out.read_only = true;
  if (str(f.config.description)) out.description = f.config.description!;
  if (Array.isArray(s.options)) {
    out.options = (s.options as { id: number; text: string; status?: string }[]).filter((o) => o.status !== 'deleted').map((o) => ({ id: o.id, text: o.text }));
  }
  if (typeof s.multiple === 'boolean' && (f.type === 'category' || f.type === 'app')) out.multiple = s.multiple;
  if (Array.isArray(s.referenced_apps)) {
    out.referenced_apps = (s.referenced_apps as { app_id: number }[]).map((r) => ({ app_id: r.app_id, ...(appNames.has(r.app_id) ? { name: appNames.get(r.app_id)! } : {}) }));
  }
  const currencies = strings(s.allowed_currencies);
  if (currencies) out.allowed_currencies = currencies;
  if (f.type === 'date') {
    if (str(s.time)) out.time = s.time as string;
    if (str(s.end)) out.end = s.end as string;
  }
  if (typeof s.decimals === 'number') out.decimals = s.decimals;
  if (str(s.unit)) out.unit = s.unit as string;
  if (str(s.return_type)) out.return_type = s.return_type as string;
  const types = strings(s.possible_types);
  if (types) out.possible_types = types;
  if (f.type === 'contact' && str(s.type)) out.contact_type = s.type as string;
  if (f.type === 'text' && str(s.format)) out.format = s.format as string;
  return out;
}

/** The live fields of an app (deleted ones take no values) in Podio's order; `appNames` names the referenced apps it could read. */
export function toAppSchema(app: PodioApp, appNames: ReadonlyMap<number, string> = new Map()): AppSchema {
  return {
    app_id: app.app_id,
    ...(typeof app.space_id === 'number' ? { space_id: app.space_id } : {}),
    name: app.config.name,
    item_name: app.config.item_name || app.config.name,
    ...(str(app.config.description) ? { description: app.config.description! } : {}),
    ...(str(app.link) ? { link: app.link } : {}),
    fields: app.fields.filter((f) => f.status !== 'deleted').map((f) => fieldSchema(f, appNames)),
  };
}

/** The short rule of a date field: what the value's time and end must be. */
function dateRule(f: AppFieldSchema): string {
  const time = f.time === 'disabled' ? 'days only: time 00:00:00' : f.time === 'required' ? 'time required' : '';
  const end = f.end === 'required' ? 'end required' : f.end === 'disabled' ? 'no end' : f.end === 'enabled' ? 'end optional' : '';
  return [time, end].filter(Boolean).join(', ');
}

/**
 * One line per field: id and external_id (both key an item's `fields`), label, type, then what a
 * value must respect: required, options with ids, relation targets, currencies, date rules.
 */
export function fieldLine(f: AppFieldSchema): string {
  const flags = [f.required ? 'required' : '', f.read_only ? 'read-only' : ''].filter(Boolean);
  const details: string[] = [];
  if (f.type === 'category' && f.multiple) details.push('several allowed');
  if (f.type === 'app') details.push(f.multiple === false ? 'one item' : 'item ids');
  if (f.type === 'contact') details.push('profile ids');
  if (f.allowed_currencies) details.push(f.allowed_currencies.join('/'));
  if (f.type === 'date') details.push(dateRule(f));
  if (f.return_type) details.push(`returns ${f.return_type}`);
  if (typeof f.decimals === 'number' && f.decimals > 0) details.push(`${f.decimals} decimals`);
  if (f.unit) details.push(`unit ${f.unit}`);
  if (f.possible_types) details.push(`types ${f.possible_types.join('|')}`);
  if (f.format && f.format !== 'plain') details.push(f.format);
  const shown = details.filter(Boolean);
  let line = `#${f.field_id} ${f.external_id} "${f.label}" ${f.type}${flags.length ? `, ${flags.join(', ')}` : ''}${shown.length ? ` (${shown.join(', ')})` : ''}`;
  if (f.options) line += `: ${f.options.map((o) => `${o.id} ${o.text}`).join(' | ')}`;
  if (f.referenced_apps) line += ` → ${f.referenced_apps.map((r) => `app #${r.app_id}${r.name ? ` ${r.name}` : ''}`).join(', ')}`;
  if (f.description) line += ` — ${f.description.length > 100 ? `${f.description.slice(0, 97)}...` : f.description}`;
  return line;
}

/** Types whose line already says all a value needs (options listed; computed): no shape line for them. */
const SELF_EXPLAINED: ReadonlySet<string> = new Set(['category', 'calculation']);

/**
 * The input shape of each field type the app uses, once per type (from the first field of that
 * type): the forms an agent gets wrong (dates with time, money as a decimal string, contacts as
 * profile ids) stated before the first write.
 */
function shapeLines(fields: readonly AppFieldSchema[]): string[] {
  const seen = new Map<string, string>();
  for (const f of fields) if (!SELF_EXPLAINED.has(f.type) && !seen.has(f.type)) seen.set(f.type, f.input);
  return [...seen].map(([type, input]) => `  ${type}: ${input}`);
}

export function appSchemaText(a: AppSchema): string {
  const head = `app #${a.app_id} ${a.name} (items: ${a.item_name})${a.space_id ? ` in space #${a.space_id}` : ''}${a.description ? ` — ${a.description}` : ''}`;
  if (!a.fields.length) return `${head}\nno fields yet`;
  const shapes = shapeLines(a.fields);
  return [
    head,
    ...a.fields.map(fieldLine),
    ...(shapes.length ? ['values by type:', ...shapes] : []),
    `${plural(a.fields.length, 'field')} — item fields are keyed by field_id (or external_id); categories take option ids or texts`,
  ].join('\n');
}

/** An app in a space listing: what an agent needs to pick one. */
export interface AppSummary {
  app_id: number;
  name: string;
  item_name: string;
  description?: string;
  /** Only when not "active" (e.g. "inactive"). */
  status?: string;
  link?: string;
}

export function toAppSummary(a: PodioAppSummary): AppSummary {
  return {
    app_id: a.app_id,
    name: a.config.name,
    item_name: a.config.item_name || a.config.name,
    ...(str(a.config.description) ? { description: a.config.description! } : {}),
    ...(a.status && a.status !== 'active' ? { status: a.status } : {}),
    ...(str(a.link) ? { link: a.link } : {}),
  };
}

/** `#8102 Deals (items: Deal) — Opportunities in the sales pipeline.` */
export const appLine = (a: AppSummary): string =>
  `#${a.app_id} ${a.name} (items: ${a.item_name}${a.status ? `, ${a.status}` : ''})${a.description ? ` — ${a.description}` : ''}`;
