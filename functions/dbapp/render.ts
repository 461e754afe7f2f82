import type { TapeWebhook, TapeWorkspace, TapeWorkspaceMember } from './client';
import type { TapeAppSummary, TapeAppWithFields, TapeOrganization, TapeOrgUser } from './client';
import type { TapeView, TapeViewFilter, TapeViewPreview, TapeViewSplitBy } from './client';

/** Workspace as the spec (§2.5) shapes it; `icon` only when set. */
export interface Workspace {
  workspace_id: number;
  org_id: number;
  name: string;
  description: string | null;
  slug: string;
  type: TapeWorkspace['type'];
  icon?: { type: string; id?: string; color?: string };
}

export interface WorkspaceMember {
  user_id: number;
  workspace_id: number;
  role: TapeWorkspaceMember['role'];
}

export function toWorkspace(w: TapeWorkspace): Workspace {
  return {
    workspace_id: w.workspace_id,
    org_id: w.org_id,
    name: w.name,
    description: w.description ?? null,
    slug: w.slug,
    type: w.type,
    ...(w.icon ? { icon: { type: w.icon.type, ...(w.icon.id ? { id: w.icon.id } : {}), ...(w.icon.color ? { color: w.icon.color } : {}) } } : {}),
  };
}

export function toMember(m: TapeWorkspaceMember): WorkspaceMember {
  return { user_id: m.user_id, workspace_id: m.workspace_id, role: m.role };
}

/** One line: id first, then name, type and slug, then the description. */
export function workspaceLine(w: Pick<Workspace, 'workspace_id' | 'name' | 'type' | 'slug'> & { description?: string | null }): string {
  const description = w.description ? ` — ${w.description}` : '';
  return `#${w.workspace_id} ${w.name} (${w.type}, slug ${w.slug})${description}`;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

// --- webhooks ---
/** Webhook as the spec (§2.6) shapes it; `app_id` only when Tape's answer carries it (not on verify/delete). */
export interface Webhook {
  hook_id: number;
  app_id?: number;
  status: TapeWebhook['status'];
  num_failed_executions: number;
  type: TapeWebhook['type'];
  url: string;
}

export function toWebhook(h: TapeWebhook): Webhook {
  return {
    hook_id: h.hook_id,
    ...(h.app_id !== undefined ? { app_id: h.app_id } : {}),
    status: h.status,
    num_failed_executions: h.num_failed_executions,
    type: h.type,
    url: h.url,
  };
}

/** `#1 app #7 record.create → https://… (active, 0 failed)`; `withState: false` leaves out the parenthesis. */
export function webhookLine(w: Webhook, withState = true): string {
  const app = w.app_id !== undefined ? ` app #${w.app_id}` : '';
  const state = withState ? ` (${w.status}, ${w.num_failed_executions.toLocaleString('en-US')} failed)` : '';
  return `#${w.hook_id}${app} ${w.type} → ${w.url}${state}`;
}

// --- files ---
/** An uploaded file as uploadFiles returns it: the temporary id goes into attachment or image fields. */
export interface UploadedFile {
  file_id: string;
  name: string;
  size: number;
  mimetype: string;
}

export function toUploadedFile(f: UploadedFile): UploadedFile {
  return { file_id: f.file_id, name: f.name, size: f.size, mimetype: f.mimetype };
}

/** 512 → "512 B", 12_600 → "12.3 KB", 3_500_000 → "3.3 MB". */
export function byteSize(n: number): string {
  if (n < 1024) return `${n} B`;
  const [value, unit] = n < 1024 * 1024 ? [n / 1024, 'KB'] : [n / (1024 * 1024), 'MB'];
  return `${Math.round(value * 10) / 10} ${unit}`;
}

/** `temporary-file-1 report.pdf (application/pdf, 12.3 KB)` */
export function fileLine(f: UploadedFile): string {
  return `${f.file_id} ${f.name} (${f.mimetype}, ${byteSize(f.size)})`;
}

// --- views ---
/** View preview as the spec (§4.4 getAppViews) shapes it. */
export interface ViewPreview {
  id: number;
  view_id: number;
  name: string | null;
  app_id: number;
  is_default: boolean;
  layout: TapeViewPreview['layout'];
  private: boolean;
}

/** Full view as the spec (§2.4) shapes it: the preview plus sort, filters, field settings and split_by. */
export interface View extends ViewPreview {
  sort_by: number | null;
  sort_desc: boolean;
  filters: TapeViewFilter[];
  fields: Record<string, { hidden: boolean; width?: number }>;
  split_by: TapeViewSplitBy | null;
}

export function toViewPreview(v: TapeViewPreview): ViewPreview {
  return { id: v.id, view_id: v.view_id, name: v.name, app_id: v.app_id, is_default: v.is_default, layout: v.layout, private: v.private };
}

export function toView(v: TapeView): View {
  return { ...toViewPreview(v), sort_by: v.sort_by, sort_desc: v.sort_desc, filters: v.filters, fields: v.fields, split_by: v.split_by };
}

const viewName = (v: ViewPreview) => (v.name ? v.name : '(unnamed)');
const sortText = (v: View) => (v.sort_by === null ? 'manual order' : `#${v.sort_by} ${v.sort_desc ? 'desc' : 'asc'}`);

/** One line: id, name, layout, default/private flags; for a full view also its filter, sort and split summary. */
export function viewLine(v: ViewPreview | View): string {
  const parts = [`#${v.id} ${viewName(v)}`, v.layout];
  if (v.is_default) parts.push('default');
  if (v.private) parts.push('private');
  if ('filters' in v) {
    if (v.filters.length > 0) parts.push(plural(v.filters.length, 'filter'));
    if (v.sort_by !== null) parts.push(`sort ${sortText(v)}`);
    if (v.split_by) parts.push(`split by #${v.split_by.field_id}`);
  }
  return parts.join(' · ');
}

function operandText(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const o = value as { date?: unknown; offset_amount?: unknown };
    const bits = [o.date !== undefined ? String(o.date) : '', o.offset_amount !== undefined ? `offset ${String(o.offset_amount)}` : ''].filter(Boolean);
    if (bits.length > 0) return bits.join(' ');
  }
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** A filter in a few words: `#55203 any 9001, 9002`, `#55204 before today`, `#55208 equal @me`. */
export function viewFilterText(f: TapeViewFilter): string {
  const field = `#${f.field_id}${typeof f.entry_property === 'string' ? `.${f.entry_property}` : ''}`;
  const operands: string[] = [];
  for (const key of ['relative_date_range_type', 'weekday', 'quarter_of_year', 'month_of_year'] as const) if (typeof f[key] === 'string') operands.push(f[key] as string);
  if (typeof f.relative_date_type === 'string' && f.relative_date_type !== 'exact_date') operands.push(f.relative_date_type);
  if (f.include_active_user === true) operands.push('@me');
  const values = (f.values ?? []).map((v) => operandText(v.value));
  if (values.length > 0) operands.push(values.join(', '));
  if (f.end_date !== undefined && f.end_date !== null) operands.push(`to ${String(f.end_date)}`);
  return [field, f.match_type, ...operands].join(' ');
}

/** The full view, compact: a head line, then sort, filters, field settings and split_by, one line each. */
export function viewText(v: View): string {
  const head = [`#${v.id} ${viewName(v)}`, v.layout, `app #${v.app_id}`];
  if (v.is_default) head.push('default');
  if (v.private) head.push('private');
  const lines = [head.join(' · '), `sort: ${sortText(v)}`];
  if (v.filters.length > 0) lines.push(`filters (all must match): ${v.filters.map(viewFilterText).join('; ')}`);
  const entries = Object.entries(v.fields);
  const hidden = entries.filter(([, s]) => s.hidden).map(([id]) => `#${id}`);
  const widths = entries.filter(([, s]) => s.width !== undefined).map(([id, s]) => `#${id} ${s.width}px`);
  const fields = [`fields: ${entries.length - hidden.length} of ${entries.length} visible`];
  if (hidden.length > 0) fields.push(`hidden ${hidden.join(', ')}`);
  if (widths.length > 0) fields.push(`widths ${widths.join(', ')}`);
  lines.push(fields.join(' · '));
  if (v.split_by) {
    const s = v.split_by;
    const opts = [s.period ? `period ${s.period}` : '', s.sorting ?? '', s.limit ? `limit ${s.limit}` : ''].filter(Boolean);
    lines.push(`split by #${s.field_id}${opts.length ? ` (${opts.join(', ')})` : ''}`);
  }
  return lines.join('\n');
}

// --- apps, organization, users ---
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
