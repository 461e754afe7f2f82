/**
 * Automations (Tape automation/*.md, automation-run.md): the input fragments the automation tools
 * share, the pre-write validation of trigger / filter / actions, the summary and run shapes of the
 * spec (§2.2) and their one-line renderers.
 */
import * as z from 'zod';
import { invalidParameter, ToolError } from '../../shared/errors';
import { scopedCache } from '../../shared/store/store';
import type { ToolContext } from '../../shared/tool';
import type {
  TapeAppField,
  TapeAutomation,
  TapeAutomationAction,
  TapeAutomationError,
  TapeAutomationRevision,
  TapeAutomationRun,
  TapeAutomationRunLog,
  TapeAutomationTrigger,
  TapeCatalogAction,
  TapeCatalogTrigger,
  TapeClient,
  TapeFilterOperator,
  TapeFilterGroup,
} from './client';
import { id } from './params';

// --- the catalog (meta endpoints), one hour in the Store per key ---
export type CatalogEntry = { type: string; label: string; description?: string; group?: string; config_schema?: Record<string, unknown> };
export type Catalog = { triggers?: CatalogEntry[]; actions?: CatalogEntry[] } | { field_type: string; filter_operators: TapeFilterOperator[] };
type CatalogContext = Pick<ToolContext<TapeClient>, 'client' | 'store' | 'keyHash'>;

const CATALOG_TTL_SECONDS = 3600;

function catalogEntry(e: TapeCatalogTrigger | TapeCatalogAction, detail: boolean): CatalogEntry {
  return {
    type: e.type,
    ...('group' in e ? { group: e.group } : {}),
    label: e.label,
    ...(e.description ? { description: e.description } : {}),
    ...(detail && e.config_schema ? { config_schema: e.config_schema } : {}),
  };
}

/** Trigger/action types (detail: with config schemas) or a field type's filter operators, cached per key hash and arguments. */
export async function loadCatalog(ctx: CatalogContext, q: { section: 'all' | 'triggers' | 'actions'; detail: boolean; field_type?: string }): Promise<Catalog> {
  const cache = scopedCache(ctx.store, ctx.keyHash);
  const key = q.field_type !== undefined ? `automation-catalog#filter#${q.field_type}` : `automation-catalog#${q.section}#${q.detail ? 'detail' : 'brief'}`;
  const hit = await cache.get<Catalog>(key);
  if (hit) return hit;
  let result: Catalog;
  if (q.field_type !== undefined) {
    const r = await ctx.client.listAutomationFilterOperators(q.field_type);
    result = { field_type: r.field_type, filter_operators: r.operators };
  } else {
    const [triggers, actions] = await Promise.all([
      q.section === 'actions' ? undefined : ctx.client.listAutomationTriggerTypes(),
      q.section === 'triggers' ? undefined : ctx.client.listAutomationActionTypes(),
    ]);
    result = {
      ...(triggers ? { triggers: triggers.triggers.map((t) => catalogEntry(t, q.detail)) } : {}),
      ...(actions ? { actions: actions.actions.map((a) => catalogEntry(a, q.detail)) } : {}),
    };
  }
  await cache.put(key, result, CATALOG_TTL_SECONDS);
  return result;
}

/**
 * Types and config keys against the catalog's config schemas (closed objects): an unknown type or
 * key is refused here, with the valid ones listed, instead of by Tape. Read-only keys are allowed
 * (checkTrigger drops webhook_url); missing keys are left to validateAutomation, as Tape stores
 * unconfigured steps.
 */
export async function checkTypesAndKeys(ctx: CatalogContext, def: { trigger?: TapeAutomationTrigger | null; actions?: TapeAutomationAction[] }): Promise<void> {
  if (!def.trigger && !def.actions?.length) return;
  const catalog = (await loadCatalog(ctx, { section: 'all', detail: true })) as { triggers?: CatalogEntry[]; actions?: CatalogEntry[] };
  const check = (kind: 'trigger' | 'action', entries: CatalogEntry[] | undefined, item: { type: string; config: Record<string, unknown> }, path: string) => {
    const known = entries ?? [];
    const entry = known.find((e) => e.type === item.type);
    if (!entry) {
      throw invalidParameter(`${path}.type`, `one of ${known.map((e) => e.type).join(', ')}`, `"${item.type}" is not a ${kind} type. Types: ${known.map((e) => e.type).join(', ')} (getAutomationCatalog describes them).`);
    }
    const props = (entry.config_schema as { properties?: Record<string, unknown> } | undefined)?.properties;
    if (!props) return;
    const stray = Object.keys(item.config).find((k) => !Object.hasOwn(props, k));
    if (stray) {
      const keys = Object.keys(props);
      throw invalidParameter(`${path}.config.${stray}`, keys.length ? `one of ${keys.join(', ')}` : 'no config keys ({})', `"${stray}" is not a config key of ${item.type}. Its keys: ${keys.join(', ') || 'none'} (getAutomationCatalog with detail: true shows their schema).`);
    }
  };
  if (def.trigger) check('trigger', catalog.triggers, def.trigger as { type: string; config: Record<string, unknown> }, 'trigger');
  const walk = (actions: TapeAutomationAction[], path: string) =>
    actions.forEach((a, i) => {
      const action = a as unknown as { type: string; config: Record<string, unknown> };
      check('action', catalog.actions, action, `${path}.${i}`);
      for (const key of NESTED_ACTION_KEYS) {
        const nested = action.config[key];
        if (Array.isArray(nested)) walk(nested as TapeAutomationAction[], `${path}.${i}.config.${key}`);
      }
    });
  if (def.actions) walk(def.actions, 'actions');
}

// --- input fragments ---
export const automationId = id('Numeric id of the automation (from listAutomations or createAutomation).');

export const triggerInput = z
  .looseObject({
    type: z.string().describe('Trigger type from getAutomationCatalog, e.g. record_created, record_updated, webhook_received, automation_called.'),
    config: z.looseObject({}).describe('Settings per the type\'s config_schema ({} is valid for record_created).'),
  })
  .describe('{type, config}. Read-only config keys (a webhook_received trigger\'s webhook_url) are dropped before sending: Tape keeps the URL.');

export const filterInput = z
  .looseObject({
    operator: z.string().describe('"and" (all rows) or "or" (any row).'),
    rows: z.array(z.record(z.string(), z.unknown())).describe('Conditions {subject, operator, value?} or nested groups {operator, rows}; at least one.'),
  })
  .describe(
    'Which records run the automation: {operator: "and"|"or", rows: [...]}. A condition is {subject: {kind: "variable", source: "field", field_id, field_type}, ' +
      'operator (from getAutomationCatalog with field_type), value}. The value channel follows the field: text fields {type:"text", text:["Acme"]}; ' +
      'number / unique_id {type:"number", number:["1000"]}; category / status / relation / user {type:"ids", ids:[9001]}; ' +
      'date fields {type:"date", date:{operator:"minus", unit:"day", amount:["7"]}}. No value for is_empty / is_not_empty / is_completed / is_incomplete. ' +
      'Empty values and empty groups are rejected (they would match every record).',
  );

export const actionsInput = z
  .array(
    z.looseObject({
      type: z.string().describe('Action type from getAutomationCatalog, e.g. current_record_update, send_email, conditional, for_loop.'),
      config: z.looseObject({}).describe('Settings per the type\'s config_schema; required ({} for a step not yet configured).'),
    }),
  )
  .describe(
    'Ordered steps [{type, config, custom_name?, deactivate?, continue_on_error?}]. Control flow sits in config: conditional {condition, action_rows, else_action_rows?}, ' +
      'for_loop {iterable, action_rows, break_condition?, continue_condition?}. Write custom_code / custom_variable code multi-line, indented, with comments ' +
      'saying what each part does (never one long line).',
  );

// --- pre-write validation (reference/filters.md, reference/actions.md, reference/errors.md "What returns 400") ---
/** The 22 operators and their value arity (reference/filters.md). */
export const OPERATOR_ARITY: Readonly<Record<string, 'none' | 'single' | 'multiple'>> = {
  is: 'single', is_not: 'single', contains: 'single', does_not_contain: 'single', starts_with: 'single', ends_with: 'single',
  greater_than: 'single', greater_or_equal_than: 'single', less_than: 'single', less_or_equal_than: 'single', is_before: 'single', is_after: 'single',
  has_any_of: 'multiple', has_all_of: 'multiple', has_none_of: 'multiple', is_exactly: 'multiple', is_any_of: 'multiple', is_none_of: 'multiple',
  is_empty: 'none', is_not_empty: 'none', is_completed: 'none', is_incomplete: 'none',
};

type Channel = 'text' | 'number' | 'ids' | 'date';
/** The value channel Tape picks on write from the subject field's type (filters.md "the type tag must match the field"). */
const FIELD_CHANNEL: Readonly<Record<string, Channel>> = {
  single_text: 'text', multi_text: 'text', multi_email: 'text', multi_phone: 'text', multi_link: 'text', single_location: 'text',
  number: 'number', unique_id: 'number',
  single_date: 'date', range_date: 'date', created_on: 'date', last_modified_on: 'date', created_at: 'date', last_modified_at: 'date',
  single_category: 'ids', multi_category: 'ids', status: 'ids', single_relation: 'ids', multi_relation: 'ids',
  single_user: 'ids', multi_user: 'ids', created_by: 'ids', last_modified_by: 'ids',
};
/** Record-metadata subjects that have a filter leaf, with their channel; the other meta types cannot be filtered on. */
const META_CHANNEL: Readonly<Record<string, Channel>> = {
  app_record_id: 'number', created_at: 'date', last_modified_at: 'date', created_by: 'ids', last_modified_by: 'ids',
};
const VALUE_PAYLOAD: Readonly<Record<string, string>> = { text: 'text', number: 'number', ids: 'ids', date: 'date', boolean: 'boolean', entity_type: 'entity_type' };
const VALUE_SHAPES =
  '{type:"text", text:[…]} | {type:"number", number:["…"]} | {type:"ids", ids:[…]} | {type:"date", date:{operator, unit, amount:["…"]}} | {type:"boolean", boolean} | {type:"entity_type", entity_type}';
const GROUP_SHAPE = '{operator: "and"|"or", rows: [condition or group, …]}';
const CONDITION_SHAPE = '{subject: {kind:"variable", source:"field", field_id, field_type}, operator, value?} or {code: [...]}';
const ACTION_KEYS = new Set(['id', 'type', 'group', 'custom_name', 'deactivate', 'continue_on_error', 'config']);
const CONDITION_CONFIG_KEYS = ['condition', 'break_condition', 'continue_condition', 'match_condition', 'attach_files_match_condition'];
const NESTED_ACTION_KEYS = ['action_rows', 'else_action_rows'];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Field types of the automation's app by field_id (from getApp), to pick each condition's channel. */
export type FieldTypes = ReadonlyMap<number, string>;

export function fieldTypesOf(fields: readonly TapeAppField[]): FieldTypes {
  return new Map(fields.map((f) => [f.field_id, f.field_type]));
}

/** A dynamic value composes to empty when it holds no reference and its literals are blank. */
function composesEmpty(v: unknown): boolean {
  if (typeof v === 'string') return v.trim() === '';
  if (Array.isArray(v)) return v.every((part) => typeof part === 'string' && part.trim() === '');
  return false;
}

function checkDynamic(v: unknown, path: string, what: string): void {
  if (typeof v === 'number') throw invalidParameter(path, `${what} as an array of strings, e.g. ["${v}"]`, `"${path}" must be a string array such as ["${v}"], not a bare number.`);
  if (typeof v !== 'string' && !(Array.isArray(v) && v.every((p) => typeof p === 'string' || isObject(p)))) {
    throw invalidParameter(path, `${what}: an array of literal strings and references`, `"${path}" must be an array of strings and references, e.g. ["1000"].`);
  }
  if (composesEmpty(v)) {
    throw invalidParameter(path, `a non-empty ${what}`, `"${path}" is empty: an empty comparison value matches every record. Give a value, or use is_empty / is_not_empty.`);
  }
}

/** The channel of a condition's subject, filling a field subject's missing field_type from the app. */
function subjectChannel(subject: Record<string, unknown>, path: string, fields: FieldTypes | undefined): Channel | undefined {
  if (subject.kind !== 'variable') return undefined;
  if (subject.source === 'field') {
    const known = typeof subject.field_id === 'number' ? fields?.get(subject.field_id) : undefined;
    if (known) subject.field_type = known;
    // The shape pass (no fields yet) leaves field types and channels to the pass that knows the app.
    if (fields === undefined) return undefined;
    if (typeof subject.field_type !== 'string') {
      throw invalidParameter(`${path}.field_type`, 'the field\'s type, e.g. "number"', `The field subject at "${path}" needs field_type (the field ${String(subject.field_id)} is not in the app: see getApp).`);
    }
    return FIELD_CHANNEL[subject.field_type];
  }
  if (subject.source === 'meta') {
    const channel = META_CHANNEL[String(subject.meta_type)];
    if (!channel) {
      throw invalidParameter(`${path}.meta_type`, `one of ${Object.keys(META_CHANNEL).join(', ')}`, `Record metadata "${String(subject.meta_type)}" cannot be filtered on.`);
    }
    return channel;
  }
  if (subject.source === 'global' || subject.source === 'custom') {
    throw invalidParameter(`${path}.source`, 'field, meta, trigger or action', `A ${String(subject.source)} reference cannot be a filter subject; filter on a field or record metadata.`);
  }
  return undefined;
}

function checkValue(value: unknown, path: string, channel: Channel | undefined, subject: Record<string, unknown>): void {
  if (!isObject(value) || typeof value.type !== 'string' || !(value.type in VALUE_PAYLOAD)) {
    throw invalidParameter(path, VALUE_SHAPES, `"${path}" must be a tagged value: ${VALUE_SHAPES}.`);
  }
  const payload = VALUE_PAYLOAD[value.type]!;
  const stray = Object.keys(value).find((k) => k !== 'type' && k !== payload);
  if (stray) throw invalidParameter(`${path}.${stray}`, `only "type" and "${payload}"`, `A value of type "${value.type}" carries its payload in "${payload}" only; remove "${stray}".`);
  if (channel && value.type !== channel) {
    const field = subject.source === 'field' ? `${String(subject.field_type)} field ${String(subject.field_id)}` : `${String(subject.meta_type)} metadata`;
    throw invalidParameter(`${path}.type`, `"${channel}" (the channel of the ${field})`, `The ${field} compares on the "${channel}" channel, not "${value.type}": send {type:"${channel}", ${channel}: …}.`);
  }
  const p = `${path}.${payload}`;
  const v = value[payload];
  switch (value.type) {
    case 'text':
      return checkDynamic(v, p, 'text');
    case 'number':
      return checkDynamic(v, p, 'number expression');
    case 'ids':
      if (!Array.isArray(v) || v.some((x) => !(Number.isInteger(x) || isObject(x)))) {
        throw invalidParameter(p, 'an array of ids (numbers) or references', `"${p}" must be an array of option / user / record ids, e.g. [9001].`);
      }
      if (v.length === 0) throw invalidParameter(p, 'at least one id', `"${p}" is empty: an empty comparison value matches every record.`);
      return;
    case 'date': {
      if (!isObject(v)) throw invalidParameter(p, '{operator: "plus"|"minus", unit: "hour"|"day"|"week"|"month", amount: ["1"], base?}', `"${p}" must be a relative date object.`);
      const stray2 = Object.keys(v).find((k) => !['base', 'operator', 'unit', 'amount'].includes(k));
      if (stray2) throw invalidParameter(`${p}.${stray2}`, 'only base, operator, unit, amount', `"${stray2}" is not a member of a relative date.`);
      if (v.operator !== undefined && v.operator !== 'plus' && v.operator !== 'minus') throw invalidParameter(`${p}.operator`, '"plus" or "minus"', 'A relative date adds ("plus") or subtracts ("minus").');
      if (v.unit !== undefined && !['hour', 'day', 'week', 'month'].includes(String(v.unit))) throw invalidParameter(`${p}.unit`, 'one of "hour", "day", "week", "month"', 'Pick a unit of hour, day, week or month.');
      return checkDynamic(v.amount, `${p}.amount`, 'amount');
    }
    case 'boolean':
      if (typeof v !== 'boolean') throw invalidParameter(p, 'true or false', `"${p}" must be a boolean.`);
      return;
    default:
      if (typeof v !== 'string' || v === '') throw invalidParameter(p, 'a non-empty string', `"${p}" must be a non-empty string.`);
  }
}

/** Checks a filter group in place (fills field_type from the app); empty groups only where `allowEmpty`. */
export function checkGroup(node: unknown, path: string, fields: FieldTypes | undefined, allowEmpty: boolean): void {
  if (!isObject(node) || (node.operator !== 'and' && node.operator !== 'or') || !Array.isArray(node.rows)) {
    throw invalidParameter(path, GROUP_SHAPE, `"${path}" must be a filter group ${GROUP_SHAPE}.`);
  }
  if (node.rows.length === 0 && !allowEmpty) {
    throw invalidParameter(`${path}.rows`, 'at least one condition', `The group at "${path}" is empty ({rows: []}): it narrows nothing and would run on every record. Add a condition, or pass filter: null to run unfiltered.`);
  }
  node.rows.forEach((row, i) => {
    const at = `${path}.rows.${i}`;
    if (isObject(row) && Array.isArray(row.rows)) return checkGroup(row, at, fields, allowEmpty);
    checkCondition(row, at, fields);
  });
}

function checkCondition(row: unknown, path: string, fields: FieldTypes | undefined): void {
  if (!isObject(row)) throw invalidParameter(path, CONDITION_SHAPE, `"${path}" must be a condition ${CONDITION_SHAPE} or a group ${GROUP_SHAPE}.`);
  if (row.code !== undefined && row.subject === undefined) {
    if (!Array.isArray(row.code)) throw invalidParameter(`${path}.code`, 'a code value: an array of strings and references', 'A script condition carries code as an array.');
    return;
  }
  if (!isObject(row.subject)) throw invalidParameter(`${path}.subject`, '{kind:"variable", source:"field", field_id, field_type}', `The condition at "${path}" needs a subject: the field (or metadata) it tests.`);
  const arity = typeof row.operator === 'string' ? OPERATOR_ARITY[row.operator] : undefined;
  if (!arity) throw invalidParameter(`${path}.operator`, `one of ${Object.keys(OPERATOR_ARITY).join(', ')}`, `Unknown operator ${JSON.stringify(row.operator)}: getAutomationCatalog with field_type lists the operators of a field type.`);
  const channel = subjectChannel(row.subject, `${path}.subject`, fields);
  if (arity === 'none') {
    if (row.value !== undefined && row.value !== null) throw invalidParameter(`${path}.value`, 'no value', `Operator ${row.operator} takes no value: remove "value".`);
    return;
  }
  if (row.value === undefined || row.value === null) throw invalidParameter(`${path}.value`, VALUE_SHAPES, `Operator ${row.operator} needs a value (${VALUE_SHAPES}).`);
  checkValue(row.value, `${path}.value`, channel, row.subject);
}

/** A trigger {type, config} (closed); a webhook_received trigger's read-only webhook_url is dropped: Tape keeps it. */
export function checkTrigger(trigger: unknown, path = 'trigger'): TapeAutomationTrigger {
  if (!isObject(trigger) || typeof trigger.type !== 'string' || trigger.type === '') {
    throw invalidParameter(path, '{type: string, config: object}', `"${path}" must be {type, config}, e.g. {"type": "record_created", "config": {}}; types from getAutomationCatalog.`);
  }
  if (!isObject(trigger.config)) throw invalidParameter(`${path}.config`, 'an object ({} when the type needs no settings)', `"${path}.config" must be an object, e.g. {}.`);
  const stray = Object.keys(trigger).find((k) => k !== 'type' && k !== 'config');
  if (stray) throw invalidParameter(`${path}.${stray}`, 'only type and config', `A trigger has only "type" and "config"; move "${stray}" into config or drop it.`);
  const { webhook_url: _readOnly, ...config } = trigger.config;
  return { type: trigger.type, config: trigger.type === 'webhook_received' ? config : trigger.config };
}

/** Actions (recursively: action_rows / else_action_rows) and the conditions in their config. */
export function checkActions(actions: unknown, path: string, fields: FieldTypes | undefined): TapeAutomationAction[] {
  if (!Array.isArray(actions)) throw invalidParameter(path, 'an array of actions [{type, config}]', `"${path}" must be an array of actions.`);
  actions.forEach((a, i) => {
    const at = `${path}.${i}`;
    if (!isObject(a) || typeof a.type !== 'string' || a.type === '') {
      throw invalidParameter(at, '{type: string, config: object}', `"${at}" must be an action {type, config}; types from getAutomationCatalog.`);
    }
    if (!isObject(a.config)) throw invalidParameter(`${at}.config`, 'an object ({} for a step not yet configured)', `The action at "${at}" needs "config" (an object; {} is valid).`);
    const stray = Object.keys(a).find((k) => !ACTION_KEYS.has(k));
    if (stray) throw invalidParameter(`${at}.${stray}`, `only ${[...ACTION_KEYS].join(', ')}`, `"${stray}" is not a member of an action; control-flow members (condition, action_rows, iterable) go inside config.`);
    for (const key of CONDITION_CONFIG_KEYS) {
      const c = a.config[key];
      if (c !== undefined && c !== null) checkGroup(c, `${at}.config.${key}`, fields, true);
    }
    for (const key of NESTED_ACTION_KEYS) if (a.config[key] !== undefined) checkActions(a.config[key], `${at}.config.${key}`, fields);
    if (a.type === 'for_loop' && a.config.iterable !== undefined && !isObject(a.config.iterable)) {
      throw invalidParameter(`${at}.config.iterable`, 'a reference object, e.g. {kind:"variable", source:"action", action_type:"record_collection", app_id}', 'The loop\'s iterable is one reference object, not an array.');
    }
  });
  return actions as TapeAutomationAction[];
}

/** Does this definition test any field (so the app's field types are worth fetching)? */
function mentionsFields(v: unknown): boolean {
  return JSON.stringify(v ?? null).includes('"source":"field"');
}

/**
 * Validates a definition before it is written: shapes with their paths, value channels against the
 * app's fields, empty values and groups. Returns the body to send (trigger cleaned, field types filled).
 */
export async function prepareDefinition(
  ctx: CatalogContext,
  appId: () => Promise<number | undefined>,
  def: { trigger?: unknown; filter?: unknown; actions?: unknown },
): Promise<{ trigger?: TapeAutomationTrigger | null; filter?: TapeFilterGroup | null; actions?: TapeAutomationAction[] }> {
  const out: { trigger?: TapeAutomationTrigger | null; filter?: TapeFilterGroup | null; actions?: TapeAutomationAction[] } = {};
  // Shapes first (no request), then the channels, which need the app's fields.
  const trigger = def.trigger === undefined || def.trigger === null ? def.trigger : checkTrigger(def.trigger);
  if (def.filter !== undefined && def.filter !== null) checkGroup(structuredClone(def.filter), 'filter', undefined, false);
  if (def.actions !== undefined) checkActions(structuredClone(def.actions), 'actions', undefined);
  // The app's fields decide each condition's channel; an app that cannot be read leaves the field_type given with each subject.
  let fields: FieldTypes = new Map();
  if (mentionsFields([def.filter, def.actions])) {
    const app = await appId().catch(() => undefined);
    if (app !== undefined) fields = fieldTypesOf((await ctx.client.getApp(app)).fields);
  }
  if (trigger !== undefined) out.trigger = trigger;
  if (def.filter !== undefined) {
    const filter = def.filter === null ? null : (structuredClone(def.filter) as TapeFilterGroup);
    if (filter) checkGroup(filter, 'filter', fields, false);
    out.filter = filter;
  }
  if (def.actions !== undefined) out.actions = checkActions(structuredClone(def.actions), 'actions', fields);
  await checkTypesAndKeys(ctx, out);
  return out;
}

// --- result shapes (spec §2.2) ---
export interface AutomationSummary {
  id: number;
  name: string;
  app_id: number;
  workspace_id: number;
  paused: boolean;
  broken: boolean;
  trigger_type: string | null;
  has_filter: boolean;
  action_types: string[];
  action_count: number;
  total_action_count: number;
  created_at: string;
  updated_at: string;
}

export interface AutomationFull extends AutomationSummary {
  description: string | null;
  trigger: TapeAutomationTrigger | null;
  filter: TapeFilterGroup | null;
  actions: TapeAutomationAction[];
}

/** Every action, nested ones included (action_rows / else_action_rows), depth first. */
function flatten(actions: readonly TapeAutomationAction[]): TapeAutomationAction[] {
  return actions.flatMap((a) => [
    a,
    ...NESTED_ACTION_KEYS.flatMap((k) => (Array.isArray(a.config?.[k]) ? flatten(a.config[k] as TapeAutomationAction[]) : [])),
  ]);
}

function actionFacts(actions: readonly TapeAutomationAction[] | undefined) {
  const top = actions ?? [];
  const all = flatten(top);
  return { action_types: [...new Set(all.map((a) => a.type))], action_count: top.length, total_action_count: all.length };
}

export function toAutomationSummary(a: TapeAutomation): AutomationSummary {
  return {
    id: a.id,
    name: a.name,
    app_id: a.app_id,
    workspace_id: a.workspace_id,
    paused: a.paused,
    broken: a.broken,
    trigger_type: a.trigger?.type ?? null,
    has_filter: a.filter != null,
    ...actionFacts(a.actions),
    created_at: a.created_at,
    updated_at: a.updated_at,
  };
}

export function toAutomationFull(a: TapeAutomation): AutomationFull {
  return { ...toAutomationSummary(a), description: a.description ?? null, trigger: a.trigger ?? null, filter: a.filter ?? null, actions: a.actions ?? [] };
}

export const toAutomation = (a: TapeAutomation, verbose: boolean): AutomationSummary | AutomationFull => (verbose ? toAutomationFull(a) : toAutomationSummary(a));

/** `#4021 Lead alert · record_created → send_email, for_loop (3 steps) · filtered · paused` (+ `· BROKEN`). */
export function automationLine(a: AutomationSummary): string {
  const steps = a.total_action_count > a.action_types.length ? ` (${a.total_action_count} steps)` : '';
  const actions = a.action_types.length ? `${a.action_types.join(', ')}${steps}` : 'no actions';
  const parts = [`#${a.id} ${a.name}`, `${a.trigger_type ?? 'manual only'} → ${actions}`];
  if (a.has_filter) parts.push('filtered');
  parts.push(a.paused ? 'paused' : 'live');
  if (a.broken) parts.push('BROKEN');
  return parts.join(' · ');
}

/** The summary line, then (verbose) the description and the definition as compact JSON. */
export function automationText(a: AutomationSummary | AutomationFull): string {
  const lines = [`${automationLine(a)} · app #${a.app_id} · updated ${a.updated_at}`];
  if ('actions' in a) {
    if (a.description) lines.push(`description: ${a.description}`);
    lines.push(`trigger: ${JSON.stringify(a.trigger)}`);
    if (a.filter) lines.push(`filter: ${JSON.stringify(a.filter)}`);
    lines.push(`actions: ${JSON.stringify(a.actions)}`);
  }
  return lines.join('\n');
}

// --- unreadable automations ---
/** Tape answers 500 for an automation it cannot serialize (a pre-migration definition). */
export function isUnreadable(err: unknown): boolean {
  return err instanceof ToolError && err.code === 'INTERNAL_ERROR' && err.details.upstream_status === 500;
}

export interface BrickedAutomation {
  error: string;
  error_code: 'automation_unserializable';
  automation_id: number;
  bricked: true;
  heal: { tool: 'updateAutomation'; body: { actions: [] } };
}

export function bricked(automationId: number): BrickedAutomation {
  return {
    error: `Automation ${automationId} cannot be read: its stored definition predates the current format. Replacing its actions makes it readable again.`,
    error_code: 'automation_unserializable',
    automation_id: automationId,
    bricked: true,
    heal: { tool: 'updateAutomation', body: { actions: [] } },
  };
}

export const brickedText = (b: BrickedAutomation) =>
  `#${b.automation_id} UNREADABLE (automation_unserializable): heal with updateAutomation {"automation_id": ${b.automation_id}, "actions": []}, then rebuild its actions`;

// --- validation verdict ---
export interface AutomationValidationError {
  code: string;
  message: string;
  remediation: string;
  deactivated: boolean;
  block_id: string | null;
  action_id: string | null;
  field_id: number | null;
  app_id: number | null;
}

/** How to fix each family of broken reasons (reference/errors.md). */
function remediation(e: TapeAutomationError): string {
  const c = e.code;
  const where = e.action_id ? `action ${e.action_id}` : 'the automation';
  if (c.startsWith('trigger_')) return 'Fix the trigger config (replaceAutomationTrigger or updateAutomation trigger); getAutomationCatalog shows its config_schema.';
  if (c.startsWith('filter_') && e.field_id != null) return `The filter refers to field ${e.field_id}, which the app no longer has (see getApp): change or remove that condition with updateAutomation filter.`;
  if (c.startsWith('filter_')) return 'Fix or remove the failing filter condition with updateAutomation filter (filter: null runs unfiltered).';
  if (c.startsWith('field_assignment_') || c.startsWith('checklist_property_')) return `Fix the field assignments of ${where} (field ids from getApp) with updateAutomation actions.`;
  if (c === 'action_app_missing' || c === 'action_app_invalid') return `Point ${where} at an existing app (listApps) with updateAutomation actions.`;
  if (c === 'action_automation_missing' || c === 'action_automation_invalid') return `Point ${where} at an automation of the same app with the matching trigger (listAutomations).`;
  if (c === 'action_invalid') return `${where} does not fit the trigger or misses a required setting: check its config_schema (getAutomationCatalog detail) and the trigger.`;
  return `Fix ${where} with updateAutomation (see getAutomation verbose for the definition).`;
}

export function toValidationError(e: TapeAutomationError): AutomationValidationError {
  return {
    code: e.code,
    message: e.message,
    remediation: remediation(e),
    deactivated: e.deactivated === true,
    block_id: e.block_id ?? null,
    action_id: e.action_id ?? null,
    field_id: e.field_id ?? null,
    app_id: e.app_id ?? null,
  };
}

// --- revisions ---
export interface RevisionSummary
  extends Pick<AutomationSummary, 'name' | 'paused' | 'broken' | 'trigger_type' | 'has_filter' | 'action_types' | 'action_count'> {
  id: string;
  automation_id: number;
  created_at: string;
}
export interface RevisionSnapshot extends Omit<RevisionSummary, 'trigger_type' | 'has_filter' | 'action_types' | 'action_count'> {
  trigger: TapeAutomationTrigger | null;
  filter: TapeFilterGroup | null;
  actions: TapeAutomationAction[];
}

/** A revision id is a 64-bit value: kept as the string Tape sent, never through a JS number. */
function revisionId(r: TapeAutomationRevision): string {
  if (typeof r.id === 'string') return r.id;
  throw new ToolError('INTERNAL_ERROR', 'Tape sent a revision id that is not a string; a 64-bit id cannot be carried safely as a number.', { revision_id: String(r.id) });
}

export function toRevisionSummary(r: TapeAutomationRevision): RevisionSummary {
  const { action_types, action_count } = actionFacts(r.actions);
  return {
    id: revisionId(r), automation_id: r.automation_id, created_at: r.created_at, name: r.name, paused: r.paused, broken: r.broken,
    trigger_type: r.trigger?.type ?? null, has_filter: r.filter != null, action_types, action_count,
  };
}

export function toRevisionSnapshot(r: TapeAutomationRevision): RevisionSnapshot {
  return {
    id: revisionId(r), automation_id: r.automation_id, created_at: r.created_at, name: r.name, paused: r.paused, broken: r.broken,
    trigger: r.trigger ?? null, filter: r.filter ?? null, actions: r.actions ?? [],
  };
}

export function revisionLine(r: RevisionSummary): string {
  const actions = r.action_types.length ? r.action_types.join(', ') : 'no actions';
  return [`rev ${r.id}`, r.created_at, r.name, `${r.trigger_type ?? 'manual only'} → ${actions}`, ...(r.has_filter ? ['filtered'] : []), r.paused ? 'paused' : 'live', ...(r.broken ? ['BROKEN'] : [])].join(' · ');
}

// --- runs ---
export type AutomationRun = Omit<TapeAutomationRun, 'logs'>;
export type AutomationRunLog = TapeAutomationRunLog;

export function toRun(r: TapeAutomationRun): AutomationRun {
  const { logs: _logs, ...run } = r;
  return run;
}

/** `run 9001 · #88 Notify on new lead · completed (regular) · record #5001 · 2024-01-18 08:12:04 · 2 actions`. */
export function runLine(r: AutomationRun): string {
  const parts = [`run ${r.id}`, `#${r.automation_id} ${r.automation_name}`, `${r.status} (${r.type})`];
  if (r.triggered_on_record_id != null) parts.push(`record #${r.triggered_on_record_id}`);
  if (r.triggered_by_automation_id != null) parts.push(`called by #${r.triggered_by_automation_id}`);
  parts.push(r.created_at);
  if (r.num_consumed_actions) parts.push(`${r.num_consumed_actions} action${r.num_consumed_actions === 1 ? '' : 's'}`);
  if (r.failure_reason) parts.push(`${r.failure_reason}${r.error_message ? `: ${r.error_message}` : ''}`);
  return parts.join(' · ');
}

export function logLine(l: AutomationRunLog): string {
  const what = l.type === 'action' ? `${l.label} [${l.action_id}]` : l.label;
  const record = l.record_id != null ? ` · record #${l.record_id}` : '';
  const messages = l.messages.map((m) => m.message).filter(Boolean).join('; ');
  return `  ${l.logged_at} ${what}: ${l.status}${record}${messages ? ` — ${messages}` : ''}`;
}

// --- cursors tied to their scope ---
/** Wraps Tape's cursor with the scope that issued it, so a cursor replayed elsewhere is refused before any request. */
export function wrapCursor(scope: string, cursor: string | null): string | null {
  return cursor === null ? null : Buffer.from(JSON.stringify({ s: scope, c: cursor })).toString('base64url');
}

export function unwrapCursor(cursor: string): { scope: string; cursor: string } {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { s?: unknown; c?: unknown };
    if (typeof v.s === 'string' && typeof v.c === 'string') return { scope: v.s, cursor: v.c };
  } catch {
    // fall through
  }
  throw invalidParameter('cursor', 'a cursor returned by the previous page of this same listing', 'This cursor was not issued by this tool: pass the "cursor" of the previous page unchanged, or omit it for the first page.');
}

/** The Tape cursor inside `cursor`, which must come from `scope`. */
export function cursorFor(cursor: string | undefined, scope: string, describe: (scope: string) => string): string | undefined {
  if (cursor === undefined) return undefined;
  const got = unwrapCursor(cursor);
  if (got.scope !== scope) {
    throw invalidParameter('cursor', `a cursor of ${describe(scope)}`, `This cursor belongs to ${describe(got.scope)}, not ${describe(scope)}: pass it with the same scope it came from, or omit it to start over.`);
  }
  return got.cursor;
}

// --- manual run / simulate (execution.md): the body follows the automation's trigger ---
export const runTargetInput = {
  record_id: id('The record to run on: required for record-based triggers (record_created, record_updated, automation_called, …). Must be a live record of the automation\'s app.').optional(),
  webhook_payload: z
    .union([z.record(z.string(), z.unknown()), z.string()])
    .optional()
    .describe('webhook_received automations: the payload to run with (an object or a string).'),
  use_last_received_webhook_payload: z.boolean().optional().describe('webhook_received automations: run with the payload the webhook last received.'),
};

export function runBody(input: { record_id?: number; webhook_payload?: unknown; use_last_received_webhook_payload?: boolean }) {
  const given = (['record_id', 'webhook_payload', 'use_last_received_webhook_payload'] as const).filter((k) => input[k] !== undefined);
  if (given.length > 1) {
    throw invalidParameter(given[1]!, `only one of ${given.join(', ')}`, 'Pass record_id (record triggers), or webhook_payload / use_last_received_webhook_payload (webhook_received), or nothing (periodic or manual-only).');
  }
  return {
    ...(input.record_id !== undefined ? { record_id: input.record_id } : {}),
    ...(input.webhook_payload !== undefined ? { webhook_payload: input.webhook_payload } : {}),
    ...(input.use_last_received_webhook_payload ? { use_last_received_webhook_payload: true } : {}),
  };
}

/** Tape answers 409 for a broken automation: a fixable input problem, said in words that lead to the fix. */
export function brokenRefusal(err: unknown, automationId: number, what: string): unknown {
  if (err instanceof ToolError && err.details.upstream_status === 409) {
    return invalidParameter('automation_id', 'an automation that is not broken', `Tape refused to ${what} automation ${automationId}: it is broken. validateAutomation lists the reasons; fix them with updateAutomation and try again.`, err.details);
  }
  return err;
}

/** Labels of declared variables → the internal names calls expect (advanced.md): var_ + lower-case, other characters as "_". */
export function argumentKeys(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).map(([k, v]) => [k.startsWith('var_') ? k : `var_${k.toLowerCase().replace(/[^0-9a-zA-Z_$]/g, '_')}`, v]));
}

/** What runAutomation / simulateAutomation answer: Tape queues the run and returns no run id. */
export interface RunAccepted {
  accepted: true;
  automation_id: number;
  record_id?: number;
  webhook_payload?: unknown;
  use_last_received_webhook_payload?: boolean;
  message: string;
}
