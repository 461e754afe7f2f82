/** Apps, their schema, the organization and its users as the tools return them, and their text. */
import { plural } from '../../../shared/core/render';
import type { TapeAppSummary, TapeAppWithFields, TapeOrganization, TapeOrgUser } from '../wire';

/** An app in a listing: what an agent needs to pick one. */
export interface AppSummary {
  app_id: number;
  workspace_id: number;
  workspace_name?: string;
  name: string;
  item_name: string;
  slug: string;
  type: TapeAppSummary['type'];
  description?: string;
}

export function toAppSummary(a: TapeAppSummary): AppSummary {
  return {
    app_id: a.app_id,
    workspace_id: a.workspace_id,
    ...(a.workspace_name ? { workspace_name: a.workspace_name } : {}),
    name: a.name,
    item_name: a.config.item_name || a.name,
    slug: a.slug,
    type: a.type,
    ...(a.config.description ? { description: a.config.description } : {}),
  };
}

/** `#901 Leads (records: Lead) in workspace #2 Contact directory — Prospects…` */
export function appLine(a: AppSummary): string {
  const ws = `workspace #${a.workspace_id}${a.workspace_name ? ` ${a.workspace_name}` : ''}`;
  const type = a.type === 'database' ? '' : `, ${a.type}`;
  return `#${a.app_id} ${a.name} (records: ${a.item_name}${type}) in ${ws}${a.description ? ` — ${a.description}` : ''}`;
}

/** Field types whose values Tape computes: an agent never writes them. */
export const READ_ONLY_FIELD_TYPES: ReadonlySet<string> = new Set(['unique_id', 'calculation', 'created_by', 'created_on', 'last_modified_by', 'last_modified_on']);

/** One field of an app as an agent needs it to write record values. */
export interface AppFieldSchema {
  field_id: number;
  external_id: string;
  label: string;
  field_type: string;
  required: boolean;
  read_only?: true;
  description?: string;
  /** Category and status options; `completed` marks status options that mean done. */
  options?: { id: number; text: string; completed?: boolean }[];
  /** Relation fields: the apps whose records the field can hold. */
  referenced_apps?: { app_id: number; name?: string }[];
  unit?: string;
  unit_location?: string;
  decimals?: number;
  /** Date fields: time "disabled" | "enabled" | "required"; range end "enabled" | "required". */
  time?: string;
  end?: string;
  /** Calculation fields: "text" | "number" | "date". */
  return_type?: string;
  prefix?: string;
}

export interface AppSchema {
  app_id: number;
  workspace_id: number;
  name: string;
  item_name: string;
  slug: string;
  description?: string;
  fields: AppFieldSchema[];
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

export function toAppSchema(a: TapeAppWithFields): AppSchema {
  return {
    app_id: a.app_id,
    workspace_id: a.workspace_id,
    name: a.name,
    item_name: a.item_name ?? a.config?.item_name ?? a.name,
    slug: a.slug,
    ...(str(a.description ?? a.config?.description) ? { description: (a.description ?? a.config?.description)! } : {}),
    fields: a.fields.map((f) => {
      const s = f.config.settings ?? {};
      const out: AppFieldSchema = { field_id: f.field_id, external_id: f.external_id, label: f.label, field_type: f.field_type, required: f.config.required === true };
      if (READ_ONLY_FIELD_TYPES.has(f.field_type)) out.read_only = true;
      if (str(f.config.description)) out.description = f.config.description!;
      if (Array.isArray(s.options)) {
        out.options = (s.options as { id: number; text: string; means_completed?: boolean }[]).map((o) => ({
          id: o.id,
          text: o.text,
          ...(f.field_type === 'status' ? { completed: o.means_completed === true } : {}),
        }));
      }
      if (Array.isArray(s.referenced_apps)) {
        out.referenced_apps = (s.referenced_apps as { app_id: number; app?: { name?: string } }[]).map((r) => ({ app_id: r.app_id, ...(r.app?.name ? { name: r.app.name } : {}) }));
      }
      if (str(s.unit)) out.unit = s.unit as string;
      if (str(s.unit) && str(s.unit_location)) out.unit_location = s.unit_location as string;
      if (f.field_type === 'number' || (f.field_type === 'calculation' && s.return_type === 'number')) {
        const d = num(s.decimals);
        if (d !== undefined) out.decimals = d;
      }
      if (str(s.time) && f.field_type !== 'calculation') out.time = s.time as string;
      if (str(s.end)) out.end = s.end as string;
      if (str(s.return_type)) out.return_type = s.return_type as string;
      if (str(s.prefix)) out.prefix = s.prefix as string;
      return out;
    }),
  };
}

/**
 * One line per field: id and external_id first (both work as keys of record `fields`), label, type,
 * then what a value must respect: required, options with ids, relation targets, unit, date settings.
 */
export function fieldLine(f: AppFieldSchema): string {
  const flags = [f.required ? 'required' : '', f.read_only ? 'read-only' : ''].filter(Boolean);
  const details: string[] = [];
  if (f.unit) details.push(`unit ${f.unit}${f.unit_location ? ` ${f.unit_location}` : ''}`);
  if (f.decimals) details.push(`${f.decimals} decimals`);
  if (f.time && f.time !== 'enabled') details.push(`time ${f.time}`);
  if (f.end) details.push(`end ${f.end}`);
  if (f.return_type) details.push(`returns ${f.return_type}`);
  if (f.prefix) details.push(`prefix ${f.prefix}`);
  let line = `#${f.field_id} ${f.external_id} "${f.label}" ${f.field_type}${flags.length ? `, ${flags.join(', ')}` : ''}${details.length ? ` (${details.join(', ')})` : ''}`;
  if (f.options) line += `: ${f.options.map((o) => `${o.id} ${o.text}${o.completed ? ' (done)' : ''}`).join(' | ')}`;
  if (f.referenced_apps) line += ` → ${f.referenced_apps.map((r) => `app #${r.app_id}${r.name ? ` ${r.name}` : ''}`).join(', ')}`;
  if (f.description) line += ` — ${f.description.length > 100 ? `${f.description.slice(0, 97)}...` : f.description}`;
  return line;
}

export function appSchemaText(a: AppSchema): string {
  const head = `app #${a.app_id} ${a.name} (records: ${a.item_name}, slug ${a.slug}) in workspace #${a.workspace_id}${a.description ? ` — ${a.description}` : ''}`;
  const foot = a.fields.length
    ? `${plural(a.fields.length, 'field')} — record values are keyed by external_id or field_id; options by id or text`
    : 'no fields yet';
  return [head, ...a.fields.map(fieldLine), foot].join('\n');
}

export type Organization = TapeOrganization;

export function toOrganization(o: TapeOrganization): Organization {
  return {
    org_id: o.org_id,
    active_user_id: o.active_user_id,
    name: o.name,
    slug: o.slug,
    url: o.url,
    description: o.description,
    website: o.website,
    location: o.location,
    created_on: o.created_on,
    plan: o.plan,
    activity_count: o.activity_count,
  };
}

/** `org #1337 Tape Technologies (slug tape, premium plan) — … · https://… · Munich, Germany · key of user #10000` */
export function organizationText(o: Organization): string {
  const parts = [o.url, o.website && o.website !== o.url ? o.website : '', o.location, o.created_on ? `created ${o.created_on}` : '', `key of user #${o.active_user_id}`].filter(Boolean);
  return `org #${o.org_id} ${o.name} (slug ${o.slug}${o.plan ? `, ${o.plan} plan` : ''})${o.description ? ` — ${o.description}` : ''} · ${parts.join(' · ')}`;
}

/** An organization user as listOrganizationUsers returns one. */
export interface OrgUser {
  user_id: number;
  name: string;
  email: string;
  role: TapeOrgUser['role'];
  status: TapeOrgUser['status'];
}

export function toOrgUser(u: TapeOrgUser): OrgUser {
  return { user_id: u.user_id, name: u.name, email: u.email, role: u.role, status: u.status };
}

/** `#10000 John Doe <john@doe.com> owner, active` */
export function orgUserLine(u: OrgUser): string {
  return `#${u.user_id} ${u.name} <${u.email}> ${u.role}, ${u.status}`;
}
