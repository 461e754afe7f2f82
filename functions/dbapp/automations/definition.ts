/** Pre-write validation of an automation's trigger, filter and actions, against the app's fields and the catalog. */
import { withAppSchema } from '../apps/schema';
import { invalidParameter } from '../../../shared/core/errors';
import type { TapeAppField, TapeAutomationAction, TapeAutomationTrigger, TapeFilterGroup } from '../wire';
import { loadCatalog, type CatalogContext, type CatalogEntry } from './catalog';
import { optionsOf } from '../fields';
import { isObject } from '../../../shared/core/is-object';

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

// --- pre-write validation (docs/vendors/tape.md#automation-filters, #automation-actions, #automation-errors) ---
/** The 22 operators and their value arity (docs/vendors/tape.md#automation-filters). */
export const OPERATOR_ARITY: Readonly<Record<string, 'none' | 'single' | 'multiple'>> = {
  is: 'single', is_not: 'single', contains: 'single', does_not_contain: 'single', starts_with: 'single', ends_with: 'single',
  greater_than: 'single', greater_or_equal_than: 'single', less_than: 'single', less_or_equal_than: 'single', is_before: 'single', is_after: 'single',
  has_any_of: 'multiple', has_all_of: 'multiple', has_none_of: 'multiple', is_exactly: 'multiple', is_any_of: 'multiple', is_none_of: 'multiple',
  is_empty: 'none', is_not_empty: 'none', is_completed: 'none', is_incomplete: 'none',
};

type Channel = 'text' | 'number' | 'ids' | 'date';
/** The value channel Tape picks on write from the subject field's type (docs/vendors/tape.md#automation-filters). */
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
export const NESTED_ACTION_KEYS = ['action_rows', 'else_action_rows'];
/**
 * How deep filter groups and control-flow blocks (an action's action_rows, a condition in its
 * config) may nest: Tape refuses a definition "beyond the maximum block depth", and real ones nest
 * two or three levels. Checked here so the refusal names the place, and no walk goes deeper.
 */
export const MAX_BLOCK_DEPTH = 10;

const tooDeep = (path: string, what: string) =>
  invalidParameter(path, `at most ${MAX_BLOCK_DEPTH} levels of nested ${what}`, `"${path}" nests ${what} deeper than ${MAX_BLOCK_DEPTH} levels, beyond what an automation takes. Flatten it: combine conditions in one group, or split the work into several automations.`);


type Option = { id: number; text: string };
/**
 * Field types of the automation's app by field_id (from getApp), to pick each condition's channel;
 * `options` holds the category/status options, so a condition may name an option by its text.
 */
export type FieldTypes = ReadonlyMap<number, string> & { readonly options?: ReadonlyMap<number, readonly Option[]> };

export function fieldTypesOf(fields: readonly TapeAppField[]): FieldTypes {
  const options = new Map(fields.filter((f) => OPTION_TYPES.has(f.field_type)).map((f) => [f.field_id, optionsOf(f)]));
  return Object.assign(new Map(fields.map((f) => [f.field_id, f.field_type])), { options });
}

const OPTION_TYPES = new Set(['single_category', 'multi_category', 'status']);
const optionList = (opts: readonly Option[]) => opts.map((o) => `${o.id} "${o.text}"`).join(', ');
const sameText = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** The option a text names ("Won", any case), or undefined. */
function optionByText(opts: readonly Option[] | undefined, text: unknown): Option | undefined {
  return typeof text === 'string' ? opts?.find((o) => sameText(o.text, text)) : undefined;
}

/** The options of the field a condition tests, when it is a category/status field of the app. */
function subjectOptions(subject: Record<string, unknown>, fields: FieldTypes | undefined): readonly Option[] | undefined {
  return subject.source === 'field' && typeof subject.field_id === 'number' ? fields?.options?.get(subject.field_id) : undefined;
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

function checkValue(value: unknown, path: string, channel: Channel | undefined, subject: Record<string, unknown>, fields: FieldTypes | undefined): void {
  if (!isObject(value) || typeof value.type !== 'string' || !(value.type in VALUE_PAYLOAD)) {
    throw invalidParameter(path, VALUE_SHAPES, `"${path}" must be a tagged value: ${VALUE_SHAPES}.`);
  }
  const payload = VALUE_PAYLOAD[value.type]!;
  const stray = Object.keys(value).find((k) => k !== 'type' && k !== payload);
  if (stray) throw invalidParameter(`${path}.${stray}`, `only "type" and "${payload}"`, `A value of type "${value.type}" carries its payload in "${payload}" only; remove "${stray}".`);
  if (channel && value.type !== channel) {
    const field = subject.source === 'field' ? `${String(subject.field_type)} field ${String(subject.field_id)}` : `${String(subject.meta_type)} metadata`;
    // An option named in a text value: say which id it is.
    const texts = Array.isArray(value[payload]) ? (value[payload] as unknown[]) : [value[payload]];
    const meant = texts.map((t) => optionByText(subjectOptions(subject, fields), t)).filter((o): o is Option => o !== undefined);
    const send = meant.length ? `{type:"ids", ids:[${meant.map((o) => o.id).join(', ')}]} (${meant.map((o) => `"${o.text}" is option ${o.id}`).join(', ')})` : `{type:"${channel}", ${channel}: …}`;
    throw invalidParameter(`${path}.type`, `"${channel}" (the channel of the ${field})`, `The ${field} compares on the "${channel}" channel, not "${value.type}": send ${send}.`);
  }
  const p = `${path}.${payload}`;
  const v = value[payload];
  switch (value.type) {
    case 'text':
      return checkDynamic(v, p, 'text');
    case 'number':
      return checkDynamic(v, p, 'number expression');
    case 'ids': {
      if (!Array.isArray(v) || v.some((x) => !(Number.isInteger(x) || isObject(x) || (typeof x === 'string' && x.trim() !== '')))) {
        throw invalidParameter(p, 'an array of ids (numbers), option texts or references', `"${p}" must be an array of option / user / record ids, e.g. [9001], or option texts such as ["Won"].`);
      }
      if (v.length === 0) throw invalidParameter(p, 'at least one id', `"${p}" is empty: an empty comparison value matches every record.`);
      // Option texts become their ids, as the record tools accept them (resolved through the app's schema).
      // (Without the app's fields — not read yet, or not readable — texts go to Tape as given.)
      if (fields === undefined || fields.size === 0) return;
      const opts = subjectOptions(subject, fields);
      value[payload] = v.map((x, j) => {
        if (typeof x !== 'string') return x;
        const hit = optionByText(opts, x);
        if (hit) return hit.id;
        if (!opts) throw invalidParameter(`${p}.${j}`, 'an id (a number)', `"${x}" is text; only category and status fields take option texts here: give the ${String(subject.field_type ?? 'field')} field's ids as numbers.`);
        const near = /^\d+$/.test(x.trim()) ? opts.find((o) => o.id === Number(x)) : undefined;
        throw invalidParameter(`${p}.${j}`, `an option id or text: ${optionList(opts)}`, `"${x}" is not an option of field ${String(subject.field_id)}${near ? `; did you mean option ${near.id} "${near.text}" (send the number ${near.id})` : ''}. Options: ${optionList(opts)}.`);
      });
      return;
    }
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
export function checkGroup(node: unknown, path: string, fields: FieldTypes | undefined, allowEmpty: boolean, depth = 1): void {
  if (depth > MAX_BLOCK_DEPTH) throw tooDeep(path, 'filter groups and blocks');
  if (!isObject(node) || (node.operator !== 'and' && node.operator !== 'or') || !Array.isArray(node.rows)) {
    throw invalidParameter(path, GROUP_SHAPE, `"${path}" must be a filter group ${GROUP_SHAPE}.`);
  }
  if (node.rows.length === 0 && !allowEmpty) {
    throw invalidParameter(`${path}.rows`, 'at least one condition', `The group at "${path}" is empty ({rows: []}): it narrows nothing and would run on every record. Add a condition, or pass filter: null to run unfiltered.`);
  }
  node.rows.forEach((row, i) => {
    const at = `${path}.rows.${i}`;
    if (isObject(row) && Array.isArray(row.rows)) return checkGroup(row, at, fields, allowEmpty, depth + 1);
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
  checkValue(row.value, `${path}.value`, channel, row.subject, fields);
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
export function checkActions(actions: unknown, path: string, fields: FieldTypes | undefined, depth = 1): TapeAutomationAction[] {
  if (depth > MAX_BLOCK_DEPTH) throw tooDeep(path, 'action blocks');
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
      if (c !== undefined && c !== null) checkGroup(c, `${at}.config.${key}`, fields, true, depth + 1);
    }
    for (const key of NESTED_ACTION_KEYS) if (a.config[key] !== undefined) checkActions(a.config[key], `${at}.config.${key}`, fields, depth + 1);
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
  // Conditions are checked (and option texts resolved) on fresh copies, so a second pass against a fresh schema starts clean.
  const withFields = (fields: FieldTypes) => {
    const checked: Pick<typeof out, 'filter' | 'actions'> = {};
    if (def.filter !== undefined) {
      const filter = def.filter === null ? null : (structuredClone(def.filter) as TapeFilterGroup);
      if (filter) checkGroup(filter, 'filter', fields, false);
      checked.filter = filter;
    }
    if (def.actions !== undefined) checked.actions = checkActions(structuredClone(def.actions), 'actions', fields);
    return checked;
  };
  const app = mentionsFields([def.filter, def.actions]) ? await appId().catch(() => undefined) : undefined;
  if (trigger !== undefined) out.trigger = trigger;
  Object.assign(out, app === undefined ? withFields(new Map()) : await withAppSchema(ctx, app, (a) => withFields(fieldTypesOf(a.fields))));
  await checkTypesAndKeys(ctx, out);
  return out;
}
