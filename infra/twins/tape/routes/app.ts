import { Hono } from 'hono';
import { idParam, jsonBody, notFound, queryFlag, restricted, validation, type TwinEnv } from '../http';
import type { TapeApp, TapeField } from '../model';
import { canManageApps, dropAppRecords, readableApp, workspaceVisible } from '../records';
import { slugify, type TapeState, type TapeUser } from '../state';
import { FIELD_TYPES, applyCalculations, categoryOptions, categoryValue, recordTitle, scriptReturnType } from '../values';
import { isObject } from '../../kit/request';

/** docs/vendors/tape.md#apps: "A workspace can hold at most 500 apps". */
export const MAX_APPS_PER_WORKSPACE = 500;
const COLORS = ['gray', 'brown', 'orange', 'yellow', 'green', 'blue', 'purple', 'pink', 'red'];
const TIME_SETTINGS = ['disabled', 'enabled', 'required'];

type Json = Record<string, unknown>;

// --- wire shapes (docs/vendors/tape.md#apps, #fields-and-values) ---

function appIcon(app: TapeApp) {
  const icon = app.icon as { id?: string; emoji?: string } | undefined;
  return icon?.id ?? icon?.emoji ?? 'event_available';
}

/** Settings as Tape shows them: relation fields carry a summary of each referenced app. */
function wireSettings(state: TapeState, f: TapeField): Json {
  if (f.field_type !== 'single_relation' && f.field_type !== 'multi_relation') return f.config.settings;
  const refs = (f.config.settings.referenced_apps as { app_id: number; view_id?: number }[]).map((r) => {
    const a = state.apps.get(r.app_id);
    if (!a) return r;
    const icon = appIcon(a);
    return {
      ...r,
      app: { app_id: a.app_id, icon, name: a.name, slug: a.slug, item_name: a.item_name, workspace_id: a.workspace_id, config: { name: a.name, icon, record_name: a.item_name, workspace_id: a.workspace_id } },
    };
  });
  return { ...f.config.settings, referenced_apps: refs };
}

export function fieldWire(state: TapeState, f: TapeField) {
  return {
    field_id: f.field_id,
    external_id: f.external_id,
    slug: f.external_id,
    label: f.label,
    type: f.type,
    field_type: f.field_type,
    config: {
      label: f.config.label,
      slug: f.external_id,
      external_id: f.external_id,
      description: f.config.description,
      required: f.config.required,
      always_hidden: f.config.always_hidden ?? false,
      hidden_if_empty: f.config.hidden_if_empty ?? false,
      settings: wireSettings(state, f),
    },
  };
}

/** An app as the listings show it (no fields); `workspace_name` in the organization-wide listing. */
export function appListWire(state: TapeState, app: TapeApp, withWorkspaceName = false) {
  return {
    app_id: app.app_id,
    workspace_id: app.workspace_id,
    ...(withWorkspaceName ? { workspace_name: state.workspaces.get(app.workspace_id)?.name ?? '' } : {}),
    name: app.name,
    slug: app.slug,
    type: app.type,
    config: { item_name: app.config.item_name, name: app.config.name, description: app.config.description },
  };
}

/** An app with its fields, as GET/POST/PUT /v1/app answer. */
export function appWire(state: TapeState, app: TapeApp) {
  const position = [...state.apps.values()].filter((a) => a.workspace_id === app.workspace_id).findIndex((a) => a.app_id === app.app_id);
  return {
    app_id: app.app_id,
    workspace_id: app.workspace_id,
    slug: app.slug,
    external_id: app.external_id,
    name: app.name,
    record_name: app.item_name,
    item_name: app.item_name,
    type: app.type,
    description: app.config.description,
    position,
    config: {
      description: app.config.description,
      item_name: app.config.item_name,
      name: app.config.name,
      ...(app.icon ? { icon: app.icon } : {}),
      ...(app.item_icon ? { item_icon: app.item_icon } : {}),
    },
    fields: app.fields.map((f) => fieldWire(state, f)),
  };
}

// --- validation of app and field definitions ---

function icon(value: unknown, key: string): Json | undefined {
  if (value === undefined || value === null) return undefined;
  if (isObject(value)) {
    if (value.type === 'graphic' && typeof value.id === 'string') return { type: 'graphic', id: value.id, ...(typeof value.color === 'string' ? { color: value.color } : {}) };
    if (value.type === 'emoji' && typeof value.emoji === 'string') return { emoji: value.emoji, type: 'emoji' };
  }
  throw validation(`"${key}" must be {"type": "graphic", "id": "<material icon id>"} or {"type": "emoji", "emoji": "<emoji>"}.`);
}

function optionalString(body: Json, key: string): string | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw validation(`"${key}" must be a string.`);
  return v;
}

function fieldSlug(label: string, taken: Set<string>): string {
  const base = label.toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '') || 'field';
  let slug = base;
  for (let n = 2; taken.has(slug); n++) slug = `${base}_${n}`;
  taken.add(slug);
  return slug;
}

function appSlug(state: TapeState, name: string, self?: number): string {
  const base = slugify(name) || 'app';
  const taken = new Set([...state.apps.values()].filter((a) => a.app_id !== self).map((a) => a.slug));
  let slug = base;
  for (let n = 1; taken.has(slug); n++) slug = `${base}-${n}`;
  return slug;
}

/** Highest option id ever given per category/status field, so deleted ids are not reused. */
const optionIds = new WeakMap<TapeField, number>();

interface BuildContext {
  state: TapeState;
  user: TapeUser;
  /** The app's fields as they will be after this request (for status and script checks). */
  fields: TapeField[];
  creating: boolean;
}

function bool(settings: Json, key: string, label: string, fallback: boolean): boolean {
  const v = settings[key];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'boolean') throw validation(`Field "${label}": settings.${key} must be a boolean.`);
  return v;
}

function oneOf(settings: Json, key: string, label: string, allowed: string[], fallback: string | undefined): string | undefined {
  const v = settings[key];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'string' || !allowed.includes(v)) throw validation(`Field "${label}": settings.${key} must be one of ${allowed.map((a) => `"${a}"`).join(', ')}.`);
  return v;
}

/** docs/vendors/tape.md#fields-and-values (category and status options): ids kept, new ones numbered, the rest kept after them, options_to_delete removed. */
function buildOptions(field: TapeField, settings: Json, previous: Json | undefined, label: string): Json[] {
  const status = field.field_type === 'status';
  const before = ((previous?.options as Json[] | undefined) ?? []).map((o) => ({ ...o }));
  const input = settings.options;
  if (input === undefined && !previous) throw validation(`Field "${label}": settings.options is required for ${field.field_type} fields.`);
  if (input !== undefined && !Array.isArray(input)) throw validation(`Field "${label}": settings.options must be an array of {text, color${status ? ', means_completed' : ''}}.`);
  const toDeleteRaw = settings.options_to_delete ?? [];
  if (!Array.isArray(toDeleteRaw)) throw validation(`Field "${label}": settings.options_to_delete must be an array of option ids.`);
  const toDelete = new Set(
    toDeleteRaw.map((d) => {
      const id = isObject(d) ? d.id : d;
      if (typeof id !== 'number' || !before.some((o) => o.id === id)) throw validation(`Field "${label}": options_to_delete names ${JSON.stringify(d)}, which is not an option of the field.`);
      return id;
    }),
  );
  let maxId = Math.max(optionIds.get(field) ?? 0, ...before.map((o) => o.id as number), 0);
  const out: Json[] = [];
  const listed = new Set<number>();
  for (const raw of (input as unknown[] | undefined) ?? []) {
    if (!isObject(raw) || typeof raw.text !== 'string' || raw.text.trim() === '') throw validation(`Field "${label}": every option needs "text" as a non-empty string.`);
    const color = raw.color === undefined || raw.color === null ? undefined : String(raw.color).toLowerCase();
    if (color !== undefined && !COLORS.includes(color)) throw validation(`Field "${label}": option color must be one of ${COLORS.join(', ')}, got ${JSON.stringify(raw.color)}.`);
    let existing: Json | undefined;
    if (raw.id !== undefined) {
      existing = before.find((o) => o.id === raw.id);
      if (!existing) throw validation(`Field "${label}": option id ${JSON.stringify(raw.id)} does not exist; leave "id" out to create an option.`);
      listed.add(existing.id as number);
    }
    if (status && typeof raw.means_completed !== 'boolean' && typeof existing?.means_completed !== 'boolean') {
      throw validation(`Field "${label}": every status option needs "means_completed" (true or false).`);
    }
    const option: Json = { id: existing ? existing.id : ++maxId, text: raw.text.trim(), color: (color ?? String(existing?.color ?? 'gray')).toUpperCase() };
    if (status) option.means_completed = typeof raw.means_completed === 'boolean' ? raw.means_completed : existing!.means_completed;
    if (!toDelete.has(option.id as number)) out.push(option);
  }
  const unlisted = before.filter((o) => !listed.has(o.id as number) && !toDelete.has(o.id as number));
  if (unlisted.length) {
    // Not every option given: the existing order stays (updated in place), new options go last.
    const byId = new Map(out.map((o) => [o.id, o]));
    const kept = before.filter((o) => !toDelete.has(o.id as number)).map((o) => byId.get(o.id) ?? o);
    out.splice(0, out.length, ...kept, ...out.filter((o) => !before.some((b) => b.id === o.id)));
  }
  const texts = out.map((o) => String(o.text).toLowerCase());
  if (new Set(texts).size !== texts.length) throw validation(`Field "${label}": option texts must be unique.`);
  if (status && (!out.some((o) => o.means_completed === true) || !out.some((o) => o.means_completed === false))) {
    throw validation(`Field "${label}": a status field needs at least one option with means_completed true and one with false.`);
  }
  optionIds.set(field, maxId);
  return out;
}

function buildSettings(ctx: BuildContext, field: TapeField, raw: unknown, previous: Json | undefined): Json {
  const label = field.label;
  if (raw !== undefined && raw !== null && !isObject(raw)) throw validation(`Field "${label}": config.settings must be an object.`);
  const s: Json = (raw as Json | undefined) ?? {};
  const p: Json = previous ?? {};
  const ft = field.field_type;
  switch (ft) {
    case 'single_text':
    case 'multi_text':
      return { formatted: ft === 'multi_text' };
    case 'number':
    case 'calculation': {
      const decimals = s.decimals ?? p.decimals ?? 0;
      if (typeof decimals !== 'number' || !Number.isInteger(decimals) || decimals < 0 || decimals > 8) throw validation(`Field "${label}": settings.decimals must be an integer between 0 and 8.`);
      const unit = s.unit !== undefined ? s.unit : (p.unit ?? null);
      if (unit !== null && typeof unit !== 'string') throw validation(`Field "${label}": settings.unit must be a string.`);
      const unitLocation = oneOf(s, 'unit_location', label, ['prefix', 'suffix'], (p.unit_location as string | undefined) ?? 'suffix');
      if (ft === 'number') return { unit_location: unitLocation, decimals, unit_label: unit, unit };
      if (ctx.creating) throw validation(`Field "${label}": calculation fields cannot be created upon app creation; add them with PUT /v1/app/{app_id}.`);
      const script = s.script ?? p.script;
      if (typeof script !== 'string' || script.trim() === '') throw validation(`Field "${label}": settings.script is required for calculation fields.`);
      const refs = [...script.matchAll(/@\[[^\]]*\]\(((?:field|out|outn|in|inn)_[a-z_]*\d+(?:_\d+)?)\)/g)];
      if (!refs.length) throw validation(`Field "${label}": the script needs at least one field reference such as @[Title](field_123).`);
      for (const m of script.matchAll(/\(field_(\d+)\)/g)) {
        if (!ctx.fields.some((f) => f.field_id === Number(m[1]) && f !== field)) throw validation(`Field "${label}": the script references field_${m[1]}, which is not a field of this app.`);
      }
      const app = { fields: ctx.fields } as TapeApp;
      return {
        decimals,
        return_type: scriptReturnType(script, app),
        script,
        calendar: bool(s, 'calendar', label, (p.calendar as boolean | undefined) ?? false),
        unit,
        ...(s.unit_location !== undefined || p.unit_location !== undefined ? { unit_location: unitLocation } : {}),
        time: oneOf(s, 'time', label, TIME_SETTINGS, (p.time as string | undefined) ?? 'enabled'),
      };
    }
    case 'single_category':
    case 'multi_category':
    case 'status':
      return { multiple: ft === 'multi_category', options: buildOptions(field, s, previous, label) };
    case 'single_date':
    case 'range_date': {
      const due = bool(s, 'is_due_date_of_status_field', label, (p.is_due_date_of_status_field as boolean | undefined) ?? false);
      if (due && !ctx.fields.some((f) => f.field_type === 'status')) throw validation(`Field "${label}": is_due_date_of_status_field can only be set in an app with a status field.`);
      const out: Json = {
        calendar: bool(s, 'calendar', label, (p.calendar as boolean | undefined) ?? false),
        time: oneOf(s, 'time', label, TIME_SETTINGS, (p.time as string | undefined) ?? 'enabled'),
        is_due_date_of_status_field: due,
      };
      if (ft === 'range_date') {
        const end = oneOf(s, 'end', label, ['enabled', 'required'], p.end as string | undefined);
        if (!end) throw validation(`Field "${label}": settings.end is required for range_date fields ("enabled" or "required").`);
        out.end = end;
      }
      return out;
    }
    case 'single_relation':
    case 'multi_relation': {
      const refs = s.referenced_apps ?? p.referenced_apps;
      if (!Array.isArray(refs) || refs.length === 0) throw validation(`Field "${label}": settings.referenced_apps is required: an array of {"app_id": …}.`);
      const out = refs.map((r: unknown) => {
        if (!isObject(r) || typeof r.app_id !== 'number') throw validation(`Field "${label}": every referenced app needs "app_id" as a number.`);
        const a = ctx.state.apps.get(r.app_id);
        if (!a || !workspaceVisible(ctx.state, ctx.state.workspaces.get(a.workspace_id), ctx.user)) throw validation(`Field "${label}": referenced app ${r.app_id} does not exist or is not accessible.`);
        if (r.view_id !== undefined && r.view_id !== null && typeof r.view_id !== 'number') throw validation(`Field "${label}": view_id must be a number.`);
        return { app_id: r.app_id, ...(typeof r.view_id === 'number' ? { view_id: r.view_id } : {}) };
      });
      return { multiple: ft === 'multi_relation', referenced_apps: out };
    }
    case 'single_user':
    case 'multi_user':
    case 'single_attachment':
    case 'multi_attachment':
    case 'multi_image':
      return { multiple: ft.startsWith('multi_') };
    case 'multi_email':
      return { only_allow_single_entry: bool(s, 'only_allow_single_entry', label, (p.only_allow_single_entry as boolean | undefined) ?? false) };
    case 'multi_phone':
      return {
        call_link_scheme: oneOf(s, 'call_link_scheme', label, ['tel', 'callto'], (p.call_link_scheme as string | undefined) ?? 'tel'),
        only_allow_single_entry: bool(s, 'only_allow_single_entry', label, (p.only_allow_single_entry as boolean | undefined) ?? false),
      };
    case 'single_location':
      return { has_map: bool(s, 'has_map', label, (p.has_map as boolean | undefined) ?? false) };
    case 'checklist':
      return { show_in_focus: bool(s, 'show_in_focus', label, (p.show_in_focus as boolean | undefined) ?? false) };
    case 'unique_id': {
      const prefix = s.prefix ?? p.prefix ?? '';
      if (typeof prefix !== 'string') throw validation(`Field "${label}": settings.prefix must be a string.`);
      const digits = s.min_digits ?? p.min_digits ?? 1;
      if (typeof digits !== 'number' || !Number.isInteger(digits) || digits < 1 || digits > 12) throw validation(`Field "${label}": settings.min_digits must be an integer between 1 and 12.`);
      return { prefix, min_digits: digits };
    }
    default:
      return {};
  }
}

/** Reads one entry of `fields`: a new field (field_type + config) or, with field_id, an update of an existing one. */
function readFieldInput(raw: unknown, index: number): { field_id?: number; field_type?: string; config: Json } {
  if (!isObject(raw)) throw validation(`fields[${index}] must be an object {"field_type", "config": {"label", …}}.`);
  if (raw.field_id !== undefined && typeof raw.field_id !== 'number') throw validation(`fields[${index}].field_id must be a number.`);
  if (raw.field_type !== undefined && typeof raw.field_type !== 'string') throw validation(`fields[${index}].field_type must be a string.`);
  if (raw.config !== undefined && !isObject(raw.config)) throw validation(`fields[${index}].config must be an object.`);
  return { field_id: raw.field_id as number | undefined, field_type: raw.field_type as string | undefined, config: (raw.config as Json | undefined) ?? {} };
}

function applyCommonConfig(field: TapeField, config: Json, index: number): void {
  if (config.label !== undefined) {
    if (typeof config.label !== 'string' || config.label.trim() === '') throw validation(`fields[${index}].config.label must be a non-empty string.`);
    field.label = config.label.trim();
    field.config.label = field.label;
  }
  if (config.description !== undefined) {
    if (config.description !== null && typeof config.description !== 'string') throw validation(`fields[${index}].config.description must be a string.`);
    field.config.description = config.description as string | null;
  }
  for (const key of ['required', 'hidden_if_empty', 'always_hidden'] as const) {
    if (config[key] === undefined) continue;
    if (typeof config[key] !== 'boolean') throw validation(`fields[${index}].config.${key} must be a boolean.`);
    field.config[key] = config[key] as boolean;
  }
  if (field.field_type === 'status') {
    if (config.required === false) throw validation(`Field "${field.label}": a status field must be required.`);
    field.config.required = true;
  }
}

/**
 * Builds the field list of an app from a create/update request; nothing in `current` is changed.
 * Returns the new fields and which existing ones changed their options (their values migrate).
 */
function buildFields(state: TapeState, user: TapeUser, current: TapeField[], inputs: unknown, toDelete: unknown, creating: boolean) {
  if (inputs !== undefined && !Array.isArray(inputs)) throw validation('"fields" must be an array of field definitions.');
  if (toDelete !== undefined && !Array.isArray(toDelete)) throw validation('"fields_to_delete" must be an array of {"field_id": …}.');
  const deleting = new Set(
    ((toDelete as unknown[] | undefined) ?? []).map((d, i) => {
      const id = isObject(d) ? d.field_id : d;
      if (typeof id !== 'number' || !current.some((f) => f.field_id === id)) throw validation(`fields_to_delete[${i}] names field ${JSON.stringify(id)}, which is not a field of this app.`);
      return id;
    }),
  );
  const originals = new Map(current.map((f) => [f.field_id, f]));
  const fields: TapeField[] = current
    .filter((f) => !deleting.has(f.field_id))
    .map((f) => {
      const copy = structuredClone(f);
      if (optionIds.has(f)) optionIds.set(copy, optionIds.get(f)!);
      return copy;
    });
  const taken = new Set(fields.map((f) => f.external_id));
  const pending: { field: TapeField; settings: unknown; previous?: Json; index: number }[] = [];
  // docs/vendors/tape.md#apps / docs/vendors/tape.md#fields-and-values examples: existing fields keep their place; a new field goes right after the
  // request's previous entry, or first when it leads the request.
  let previousEntry: TapeField | undefined;
  const usedFieldIds = new Set([...state.apps.values()].flatMap((a) => a.fields.map((f) => f.field_id)));
  let nextFieldId = state.nextId.field;
  const newFieldId = () => {
    while (usedFieldIds.has(nextFieldId)) nextFieldId++;
    return nextFieldId++;
  };
  ((inputs as unknown[] | undefined) ?? []).forEach((raw, index) => {
    const input = readFieldInput(raw, index);
    if (input.field_id !== undefined) {
      const field = fields.find((f) => f.field_id === input.field_id);
      if (!field) throw validation(`fields[${index}].field_id ${input.field_id} is not a field of this app.`);
      if (input.field_type !== undefined && input.field_type !== field.field_type) throw validation(`fields[${index}]: the field_type of field ${field.field_id} cannot be changed from ${field.field_type} to ${input.field_type}.`);
      applyCommonConfig(field, input.config, index);
      pending.push({ field, settings: input.config.settings, previous: field.config.settings, index });
      previousEntry = field;
      return;
    }
    if (!input.field_type || !FIELD_TYPES[input.field_type]) {
      throw validation(`fields[${index}].field_type must be one of ${Object.keys(FIELD_TYPES).join(', ')}; got ${JSON.stringify(input.field_type)}.`);
    }
    if (typeof input.config.label !== 'string' || input.config.label.trim() === '') throw validation(`fields[${index}].config.label is required (the name of the field).`);
    const field: TapeField = {
      field_id: newFieldId(),
      external_id: '',
      label: '',
      type: FIELD_TYPES[input.field_type]!.type,
      field_type: input.field_type,
      config: { label: '', description: null, required: false, hidden_if_empty: false, always_hidden: false, settings: {} },
    };
    applyCommonConfig(field, input.config, index);
    field.external_id = fieldSlug(field.label, taken);
    fields.splice(previousEntry ? fields.indexOf(previousEntry) + 1 : 0, 0, field);
    pending.push({ field, settings: input.config.settings, index });
    previousEntry = field;
  });
  if (fields.filter((f) => f.field_type === 'status').length > 1) throw validation('An app can have at most one status field.');
  const ctx: BuildContext = { state, user, fields, creating };
  const optionsChanged = new Set<number>();
  for (const p of pending) {
    const original = originals.get(p.field.field_id);
    p.field.config.settings = buildSettings(ctx, p.field, p.settings, p.previous);
    if (original && JSON.stringify(original.config.settings.options) !== JSON.stringify(p.field.config.settings.options)) optionsChanged.add(p.field.field_id);
  }
  return { fields, deleting, optionsChanged, nextFieldId };
}

/** After options changed: values follow renames, lose deleted options; a deleted status option moves to the first option of the same kind (docs/vendors/tape.md#fields-and-values). */
function migrateValues(state: TapeState, app: TapeApp, before: TapeField[], changed: Set<number>, deleted: Set<number>): void {
  for (const row of state.records.values()) {
    if (row.app_id !== app.app_id) continue;
    for (const id of deleted) row.values.delete(id);
    for (const id of changed) {
      const field = app.fields.find((f) => f.field_id === id)!;
      const options = categoryOptions(field);
      const oldOptions = categoryOptions(before.find((f) => f.field_id === id)!);
      const vals = row.values.get(id);
      if (!vals) continue;
      const next = vals.flatMap((v) => {
        const oid = (v.value as { id: number }).id;
        const now = options.find((o) => o.id === oid);
        if (now) return [categoryValue(field, now)];
        if (field.field_type === 'status') {
          const was = oldOptions.find((o) => o.id === oid);
          const same = options.find((o) => o.means_completed === (was?.means_completed ?? false));
          return same ? [categoryValue(field, same)] : [];
        }
        return [];
      });
      if (next.length) row.values.set(id, next);
      else row.values.delete(id);
    }
    applyCalculations(app, row.values);
    row.title = recordTitle(app, row.values);
  }
}

/** POST /v1/app: validates the whole request, then stores the app (the demo seed uses it too). */
export function createApp(state: TapeState, user: TapeUser, body: Json): TapeApp {
  const wsId = body.workspace_id;
  if (typeof wsId !== 'number' || !Number.isInteger(wsId)) throw validation('"workspace_id" is required and must be a number.');
  const ws = state.workspaces.get(wsId);
  if (!workspaceVisible(state, ws, user)) throw notFound(`Workspace does not exist(${wsId})!`);
  if (!canManageApps(state, wsId, user)) throw restricted(`User ${user.user_id} may not create apps in workspace ${wsId}.`);
  if (typeof body.name !== 'string' || body.name.trim() === '') throw validation('"name" is required and must be a non-empty string.');
  const itemName = optionalString(body, 'item_name');
  const description = optionalString(body, 'description');
  const appIconValue = icon(body.icon, 'icon');
  const itemIcon = icon(body.item_icon, 'item_icon');
  if ([...state.apps.values()].filter((a) => a.workspace_id === wsId).length >= MAX_APPS_PER_WORKSPACE) {
    throw validation(`Workspace ${wsId} holds ${MAX_APPS_PER_WORKSPACE} apps, the maximum. Delete an app first.`);
  }
  const { fields, nextFieldId } = buildFields(state, user, [], body.fields, undefined, true);
  const name = body.name.trim();
  const slug = appSlug(state, name);
  while (state.apps.has(state.nextId.app)) state.nextId.app++;
  const app: TapeApp = {
    app_id: state.nextId.app++,
    workspace_id: wsId,
    name,
    slug,
    external_id: slug,
    item_name: itemName ?? name,
    type: 'database',
    config: { item_name: itemName ?? name, name, description: description ?? '' },
    fields,
  };
  if (appIconValue) app.icon = appIconValue;
  if (itemIcon) app.item_icon = itemIcon;
  state.nextId.field = nextFieldId;
  state.apps.set(app.app_id, app);
  return app;
}

/** PUT /v1/app/{id}: all-or-nothing; existing values follow option changes; emits app.update. */
export function updateApp(state: TapeState, user: TapeUser, app: TapeApp, body: Json, hook = true): TapeApp {
  if (!canManageApps(state, app.workspace_id, user)) throw restricted(`User ${user.user_id} may not edit app ${app.app_id}.`);
  if (body.name !== undefined && (typeof body.name !== 'string' || body.name.trim() === '')) throw validation('"name" must be a non-empty string.');
  const itemName = optionalString(body, 'item_name');
  const description = optionalString(body, 'description');
  const appIconValue = icon(body.icon, 'icon');
  const itemIcon = icon(body.item_icon, 'item_icon');
  const before = app.fields;
  const { fields, deleting, optionsChanged, nextFieldId } = buildFields(state, user, app.fields, body.fields, body.fields_to_delete, false);
  if (typeof body.name === 'string') {
    app.name = body.name.trim();
    app.config.name = app.name;
  }
  if (itemName !== undefined) app.item_name = app.config.item_name = itemName;
  if (description !== undefined) app.config.description = description;
  if (appIconValue) app.icon = appIconValue;
  if (itemIcon) app.item_icon = itemIcon;
  app.fields = fields;
  state.nextId.field = nextFieldId;
  migrateValues(state, app, before, optionsChanged, deleting);
  state.events.emit({ type: 'app.update', app_id: app.app_id, hook, user_id: user.user_id });
  return app;
}

/** /v1/app, as docs/vendors/tape.md#apps documents it. */
export function appRoutes(state: TapeState) {
  const r = new Hono<TwinEnv>();

  r.get('/app/workspace/:wsId', (c) => {
    const wsId = idParam(c, 'wsId');
    if (!workspaceVisible(state, state.workspaces.get(wsId), c.get('user'))) throw notFound(`Workspace does not exist(${wsId})!`);
    const apps = [...state.apps.values()].filter((a) => a.workspace_id === wsId).map((a) => appListWire(state, a));
    return c.json({ total: apps.length, apps });
  });

  r.get('/app', (c) => {
    const u = c.get('user');
    const apps = [...state.apps.values()]
      .filter((a) => workspaceVisible(state, state.workspaces.get(a.workspace_id), u))
      .map((a) => appListWire(state, a, true));
    return c.json({ total: apps.length, apps });
  });

  r.get('/app/:id', (c) => c.json(appWire(state, readableApp(state, idParam(c, 'id'), c.get('user')))));

  r.post('/app', async (c) => c.json(appWire(state, createApp(state, c.get('user'), await jsonBody(c)))));

  r.put('/app/:id', async (c) => {
    const app = readableApp(state, idParam(c, 'id'), c.get('user'));
    const body = await jsonBody(c);
    return c.json(appWire(state, updateApp(state, c.get('user'), app, body, queryFlag(c, 'hook', true))));
  });

  r.put('/app/:id/fields/order', async (c) => {
    const u = c.get('user');
    const app = readableApp(state, idParam(c, 'id'), u);
    if (!canManageApps(state, app.workspace_id, u)) throw restricted(`User ${u.user_id} may not edit app ${app.app_id}.`);
    const body = await jsonBody(c);
    if (!Array.isArray(body.fields)) throw validation('"fields" must be an array of {"field_id": …} in the new order.');
    const order = body.fields.map((f, i) => {
      const id = isObject(f) ? f.field_id : f;
      if (typeof id !== 'number' || !app.fields.some((x) => x.field_id === id)) throw validation(`fields[${i}] names field ${JSON.stringify(id)}, which is not a field of this app.`);
      return id;
    });
    const listed = order.map((id) => app.fields.find((f) => f.field_id === id)!);
    app.fields = [...new Set(listed)].concat(app.fields.filter((f) => !order.includes(f.field_id)));
    for (const row of [...state.records.values()].filter((x) => x.app_id === app.app_id)) row.title = recordTitle(app, row.values);
    state.events.emit({ type: 'app.update', app_id: app.app_id, hook: true, user_id: u.user_id });
    return c.json(appWire(state, app));
  });

  r.delete('/app/:id', (c) => {
    const u = c.get('user');
    const id = idParam(c, 'id');
    const app = readableApp(state, id, u);
    if (!canManageApps(state, app.workspace_id, u)) throw restricted(`User ${u.user_id} may not delete app ${id}.`);
    state.apps.delete(id);
    dropAppRecords(state, id);
    // Relation fields of other apps stop referencing the deleted app.
    for (const other of state.apps.values()) {
      for (const f of other.fields) {
        const refs = f.config.settings.referenced_apps as { app_id: number }[] | undefined;
        if (refs) f.config.settings.referenced_apps = refs.filter((x) => x.app_id !== id);
      }
    }
    return c.json({});
  });

  return r;
}
