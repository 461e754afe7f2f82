/**
 * Validation of automation definitions, in two layers as docs/vendors/tape.md#automation-errors draws them:
 * - write time (create / update / trigger): structural problems are a 400 naming the path —
 *   closed bodies, unknown tokens, malformed references, filter values on the wrong channel,
 *   empty values, arity mismatches, an empty top-level group, too-deep trees;
 * - `validate` / activate: semantic problems as broken-reason entries (dangling fields, apps,
 *   options, automations, variables; trigger/action pairing; empty updated-fields list).
 * Write-time parsing also normalizes: ids minted, bare strings array-wrapped, `group` derived.
 */
import { randomUUID } from 'node:crypto';
import { validation } from '../http';
import type { TapeApp, TapeField } from '../model';
import type { TapeState } from '../state';
import { categoryOptions } from '../values';
import { ACTION_BY_TYPE, ACTION_DOC_BY_TYPE, ASSIGNMENT_TYPES, FIELD_FILTERS, OPERATORS, RECORD_TRIGGERS, TRIGGER_BY_TYPE, type Channel } from './catalog';
import type { Action, BrokenError, DynamicValue, FilterNode, Reference, StoredAutomation, Trigger } from './model';
import type { AutomationStore } from './store';
import { isObject } from '../../kit/request';

/** Deepest nesting of filter groups / control-flow blocks accepted (docs/vendors/tape.md#errors: "beyond the maximum block depth"). */
export const MAX_DEPTH = 10;

const bad = (path: string, message: string) => validation(`${path}: ${message}`);

// --- references and dynamic values (docs/vendors/tape.md#automation-dynamic-values) ---

const SOURCES = ['field', 'trigger', 'action', 'global', 'meta', 'custom'];
const VALUE_TYPES = ['option', 'user', 'record', 'pdf', 'date', 'time'];
const GLOBAL_TYPES = ['current_date', 'current_datetime', 'current_time', 'current_automation', 'current_automation_run', 'actions_left_in_hour', 'most_recent_error'];
const TRIGGER_OUTPUTS = [
  'webhook_payload', 'webhook_payload_property', 'webhook_file_collection', 'periodic_execution_datetime', 'periodic_next_execution_datetime',
  'weblink_click_count', 'weblink_created_at', 'record_comment_or_reply_id', 'record_comment_or_reply_content', 'record_comment_or_reply_created_by',
  'record_comment_or_reply_attachments', 'record_comment_or_reply_entity_type',
];
const META_TYPES = ['record_id', 'record_url', 'app_record_id', 'revision', 'created_at', 'last_modified_at', 'created_by', 'last_modified_by', 'all_comments'];
const ACTION_OUTPUTS = ['record_collection', 'created_record', 'file_collection'];
const CUSTOM_TYPES = ['any', 'single_file', 'multi_file', 'single_link', 'html_table_rows'];

/** Checks a reference's structure and fills the flag defaults; returns the normalized reference. */
export function parseReference(v: unknown, path: string): Reference {
  if (!isObject(v)) throw bad(path, 'a reference must be an object {kind: "variable" | "value", …}.');
  const ref = { ...v } as Reference;
  const oneOf = (key: string, allowed: string[]) => {
    if (!allowed.includes(ref[key] as string)) throw bad(`${path}.${key}`, `unknown ${key} ${JSON.stringify(ref[key])}; expected one of ${allowed.join(', ')}.`);
  };
  if (ref.kind === 'variable') {
    oneOf('source', SOURCES);
    for (const flag of ['previous', 'collection', 'triggering']) {
      if (ref[flag] !== undefined && typeof ref[flag] !== 'boolean') throw bad(`${path}.${flag}`, 'must be a boolean.');
    }
    switch (ref.source) {
      case 'field':
        if (!Number.isInteger(ref.field_id)) throw bad(`${path}.field_id`, 'a field reference needs an integer field_id.');
        if (typeof ref.field_type !== 'string' || !ref.field_type) throw bad(`${path}.field_type`, 'a field reference needs its field_type.');
        ref.previous ??= false;
        ref.collection ??= false;
        ref.triggering ??= false;
        break;
      case 'global':
        oneOf('global_type', GLOBAL_TYPES);
        break;
      case 'trigger':
        oneOf('trigger_type', TRIGGER_OUTPUTS);
        break;
      case 'meta':
        oneOf('meta_type', META_TYPES);
        for (const flag of ['previous', 'collection', 'triggering']) if (ref[flag] === false) delete ref[flag];
        break;
      case 'action':
        oneOf('action_type', ACTION_OUTPUTS);
        break;
      case 'custom':
        oneOf('custom_type', CUSTOM_TYPES);
        if (typeof ref.label !== 'string') throw bad(`${path}.label`, 'a custom reference needs the label of its declared variable.');
        break;
    }
  } else if (ref.kind === 'value') {
    oneOf('value_type', VALUE_TYPES);
  } else {
    throw bad(`${path}.kind`, `unknown kind ${JSON.stringify(ref.kind)}; expected "variable" or "value".`);
  }
  return ref;
}

/** A template or code value: an array of strings and references; a bare string is wrapped. */
export function parseDynamic(v: unknown, path: string, flavor: 'template' | 'code'): DynamicValue {
  if (typeof v === 'string') return [v];
  if (!Array.isArray(v)) throw bad(path, `a ${flavor} value must be an array of strings and references (or a bare string).`);
  return v.map((item, i) => {
    if (typeof item === 'string') return item;
    const ref = parseReference(item, `${path}[${i}]`);
    if (flavor === 'code' && ref.kind === 'value') throw bad(`${path}[${i}]`, 'a code value takes variable references only, not constant value references.');
    return ref;
  });
}

/** True when a dynamic value composes to nothing: no reference and only blank literals. */
const composesEmpty = (d: DynamicValue) => d.every((p) => typeof p === 'string' && p.trim() === '');

// --- filters (docs/vendors/tape.md#automation-filters) ---

/** The write channel of a condition's subject, from the field's type (or the metadata / trigger output). */
function subjectChannel(subject: Reference, app: TapeApp | undefined): Channel | undefined {
  if (subject.source === 'field') {
    const field = app?.fields.find((f) => f.field_id === subject.field_id);
    return FIELD_FILTERS[field?.field_type ?? String(subject.field_type)]?.channel;
  }
  if (subject.source === 'meta') {
    const m = subject.meta_type;
    if (m === 'app_record_id') return 'number';
    if (m === 'created_at' || m === 'last_modified_at') return 'date';
    if (m === 'created_by' || m === 'last_modified_by') return 'ids';
    return undefined;
  }
  if (subject.source === 'trigger') {
    if (subject.trigger_type === 'record_comment_or_reply_entity_type') return 'entity_type';
    if (subject.trigger_type === 'webhook_payload_property') {
      const dt = subject.data_type;
      return dt === 'boolean' ? 'boolean' : dt === 'number' ? 'number' : 'text';
    }
    return 'text';
  }
  if (subject.source === 'action') return 'text';
  return undefined;
}

const VALUE_KEYS: Record<string, string[]> = {
  text: ['type', 'text'],
  number: ['type', 'number'],
  ids: ['type', 'ids'],
  date: ['type', 'date'],
  boolean: ['type', 'boolean'],
  entity_type: ['type', 'entity_type'],
};

/** The category/status options of the field a condition tests (for naming the id of a text the caller meant). */
function subjectOptions(subject: Record<string, unknown>, app: TapeApp | undefined): { id: number; text: string }[] {
  const f = subject.source === 'field' ? app?.fields.find((x) => x.field_id === subject.field_id) : undefined;
  return f ? categoryOptions(f) : [];
}

/** `"Won" is option 4`, for texts among `values` that name an option. */
function meantOptions(values: unknown, options: { id: number; text: string }[]): string {
  const texts = (Array.isArray(values) ? values : [values]).filter((x): x is string => typeof x === 'string');
  const hits = texts.flatMap((t) => options.filter((o) => o.text.trim().toLowerCase() === t.trim().toLowerCase()).map((o) => `"${t}" is option ${o.id}`));
  return hits.length ? ` (${hits.join(', ')})` : '';
}

function parseValue(v: unknown, path: string, channel: Channel | undefined, options: { id: number; text: string }[] = []): Record<string, unknown> {
  if (!isObject(v)) throw bad(path, 'a condition value must be a tagged object {type, …}.');
  const type = v.type as string;
  const keys = VALUE_KEYS[type];
  if (!keys) throw bad(`${path}.type`, `unknown value type ${JSON.stringify(type)}; expected one of ${Object.keys(VALUE_KEYS).join(', ')}.`);
  const stray = Object.keys(v).filter((k) => !keys.includes(k));
  if (stray.length) throw bad(path, `a "${type}" value takes only ${keys.join(', ')}; unexpected ${stray.join(', ')}.`);
  if (channel && channel !== 'none' && type !== channel) {
    throw bad(path, `the subject field takes a "${channel}" value, got type "${type}". Use {"type": "${channel}", "${channel}": …}${meantOptions(v[type], options)}.`);
  }
  switch (type) {
    case 'text': {
      const text = parseDynamic(v.text, `${path}.text`, 'template');
      if (composesEmpty(text)) throw bad(`${path}.text`, 'the comparison value is empty; give a value or use is_empty / is_not_empty.');
      return { type, text };
    }
    case 'number': {
      const number = parseDynamic(v.number, `${path}.number`, 'code');
      if (composesEmpty(number)) throw bad(`${path}.number`, 'the comparison value is empty; give a number such as ["1000"].');
      return { type, number };
    }
    case 'ids': {
      if (!Array.isArray(v.ids) || v.ids.length === 0) throw bad(`${path}.ids`, 'give a non-empty array of ids (numbers or references).');
      const ids = v.ids.map((x, i) => {
        if (typeof x === 'number' && Number.isInteger(x)) return x;
        // Tape takes option ids here, not texts: name the id the text means.
        const meant = meantOptions(x, options);
        if (meant) throw bad(`${path}.ids[${i}]`, `give option ids, not texts${meant}.`);
        return parseReference(x, `${path}.ids[${i}]`);
      });
      return { type, ids };
    }
    case 'date': {
      const d = v.date;
      if (!isObject(d)) throw bad(`${path}.date`, 'a relative date is {base?, operator: "plus" | "minus", unit: "hour" | "day" | "week" | "month", amount}.');
      const stray2 = Object.keys(d).filter((k) => !['base', 'operator', 'unit', 'amount'].includes(k));
      if (stray2.length) throw bad(`${path}.date`, `unexpected ${stray2.join(', ')}.`);
      const operator = d.operator ?? 'plus';
      const unit = d.unit ?? 'day';
      if (!['plus', 'minus'].includes(operator as string)) throw bad(`${path}.date.operator`, 'must be "plus" or "minus".');
      if (!['hour', 'day', 'week', 'month'].includes(unit as string)) throw bad(`${path}.date.unit`, 'must be one of hour, day, week, month.');
      if (typeof d.amount !== 'string' && !Array.isArray(d.amount)) throw bad(`${path}.date.amount`, 'must be a code value: an array of strings such as ["1"] (a bare number is not accepted).');
      const amount = parseDynamic(d.amount, `${path}.date.amount`, 'code');
      if (composesEmpty(amount)) throw bad(`${path}.date.amount`, 'the amount is empty; give e.g. ["1"].');
      const base = d.base === undefined ? { kind: 'variable', source: 'global', global_type: 'current_date' } : parseReference(d.base, `${path}.date.base`);
      return { type, date: { base, operator, unit, amount } };
    }
    case 'boolean':
      if (typeof v.boolean !== 'boolean') throw bad(`${path}.boolean`, 'must be true or false.');
      return { type, boolean: v.boolean };
    default:
      if (typeof v.entity_type !== 'string' || !v.entity_type) throw bad(`${path}.entity_type`, 'must be a non-empty string.');
      return { type, entity_type: v.entity_type };
  }
}

/**
 * A filter group (root: no id; nested nodes get one). `emptyRoot` false rejects `rows: []` at the
 * root (the automation filter); conditions inside actions may be empty groups.
 */
export function parseFilter(v: unknown, path: string, app: TapeApp | undefined, opts: { allowEmptyRoot: boolean; depth?: number; root?: boolean }): FilterNode {
  const depth = opts.depth ?? 1;
  const root = opts.root ?? true;
  if (depth > MAX_DEPTH) throw bad(path, `the filter is nested deeper than ${MAX_DEPTH} levels.`);
  if (!isObject(v)) throw bad(path, 'a filter group must be an object {operator: "and" | "or", rows: [...]}.');
  const node: FilterNode = {};
  if (!root) node.id = typeof v.id === 'string' && v.id ? v.id : randomUUID();
  if (Array.isArray(v.rows)) {
    const stray = Object.keys(v).filter((k) => !['id', 'operator', 'rows'].includes(k));
    if (stray.length) throw bad(path, `a group takes only id, operator, rows; unexpected ${stray.join(', ')}.`);
    if (v.operator !== 'and' && v.operator !== 'or') throw bad(`${path}.operator`, 'a group operator must be "and" or "or".');
    if (root && !opts.allowEmptyRoot && v.rows.length === 0) {
      throw bad(`${path}.rows`, 'an empty filter group narrows nothing; send filter: null to run unfiltered, or add conditions.');
    }
    node.operator = v.operator;
    node.rows = v.rows.map((row, i) => {
      const rowPath = `${path}.rows[${i}]`;
      if (isObject(row) && Array.isArray(row.rows)) return parseFilter(row, rowPath, app, { allowEmptyRoot: true, depth: depth + 1, root: false });
      return parseCondition(row, rowPath, app, depth + 1);
    });
    return node;
  }
  if (root) throw bad(path, 'a filter must be a group {operator: "and" | "or", rows: [...]}.');
  return parseCondition(v, path, app, depth);
}

function parseCondition(v: unknown, path: string, app: TapeApp | undefined, _depth: number): FilterNode {
  if (!isObject(v)) throw bad(path, 'a condition must be an object {subject, operator, value?} or a script condition {code}.');
  const where = typeof v.id === 'string' && v.id ? `${path} (condition ${v.id})` : path;
  const node: FilterNode = { id: typeof v.id === 'string' && v.id ? v.id : randomUUID() };
  if (v.code !== undefined) {
    const stray = Object.keys(v).filter((k) => !['id', 'code'].includes(k));
    if (stray.length) throw bad(where, `a script condition carries code instead of subject/operator/value; unexpected ${stray.join(', ')}.`);
    node.code = parseDynamic(v.code, `${where}.code`, 'code');
    return node;
  }
  const stray = Object.keys(v).filter((k) => !['id', 'subject', 'operator', 'value'].includes(k));
  if (stray.length) throw bad(where, `a condition takes id, subject, operator, value; unexpected ${stray.join(', ')}.`);
  const subject = parseReference(v.subject, `${where}.subject`);
  if (subject.kind !== 'variable' || subject.source === 'global' || subject.source === 'custom') {
    throw bad(`${where}.subject`, 'a condition subject must be a field, record-metadata, trigger-output or action-output reference.');
  }
  if (subject.source === 'meta' && ['record_id', 'record_url', 'revision', 'all_comments'].includes(subject.meta_type as string)) {
    throw bad(`${where}.subject`, `meta_type "${String(subject.meta_type)}" has no filter leaf; filter on app_record_id, created_at, last_modified_at, created_by or last_modified_by.`);
  }
  if (subject.source === 'trigger' && subject.trigger_type === 'webhook_payload') {
    throw bad(`${where}.subject`, 'the raw webhook_payload has no filter leaf; use a webhook_payload_property with key_path.');
  }
  const op = OPERATORS[v.operator as string];
  if (!op) throw bad(`${where}.operator`, `unknown operator ${JSON.stringify(v.operator)}; expected one of ${Object.keys(OPERATORS).join(', ')}.`);
  node.subject = subject;
  node.operator = v.operator as string;
  if (op.arity === 'none') {
    if (v.value !== undefined && v.value !== null) throw bad(`${where}.value`, `operator "${node.operator}" takes no value; remove "value".`);
    return node;
  }
  if (v.value === undefined || v.value === null) throw bad(`${where}.value`, `operator "${node.operator}" needs a value.`);
  node.value = parseValue(v.value, `${where}.value`, subjectChannel(subject, app), subjectOptions(subject, app));
  return node;
}

// --- triggers ---

/** A trigger {type, config} on write: known type, closed config (legacy app_id tolerated), read-only keys refused. */
export function parseTrigger(v: unknown, path = 'trigger'): Trigger {
  if (!isObject(v)) throw bad(path, 'a trigger must be an object {type, config}.');
  const stray = Object.keys(v).filter((k) => !['type', 'config'].includes(k));
  if (stray.length) throw bad(path, `a trigger takes only type and config; unexpected ${stray.join(', ')}.`);
  const def = TRIGGER_BY_TYPE.get(v.type as string);
  if (!def) throw bad(`${path}.type`, `unknown trigger type ${JSON.stringify(v.type)}; see GET /v1/automation/meta/trigger.`);
  const config = v.config === undefined ? {} : v.config;
  if (!isObject(config)) throw bad(`${path}.config`, 'must be an object (send {} for none).');
  const props = (def.config_schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(config)) {
    if (key === 'app_id') {
      if (!Number.isInteger(value)) throw bad(`${path}.config.app_id`, 'must be an integer (and is ignored: the app is the automation’s own).');
      continue;
    }
    const schema = props[key];
    if (!schema) throw bad(`${path}.config.${key}`, `unknown key for a ${def.type} trigger; allowed: ${Object.keys(props).filter((k) => !props[k]!.readOnly).join(', ') || 'none'}.`);
    if (schema.readOnly) throw bad(`${path}.config.${key}`, 'is server-assigned and read-only; strip it before writing.');
    out[key] = checkScalar(value, schema, `${path}.config.${key}`);
  }
  return { type: def.type, config: out };
}

/** Light type check of a config value against its schema (integers, booleans, id arrays, enums). */
function checkScalar(value: unknown, schema: Record<string, unknown>, path: string): unknown {
  const types = ([] as unknown[]).concat(schema.type ?? []);
  if (value === null && types.includes('null')) return null;
  if (schema.enum && !(schema.enum as unknown[]).includes(value)) throw bad(path, `must be one of ${(schema.enum as unknown[]).join(', ')}.`);
  if (types.includes('integer') && !types.includes('array') && !Number.isInteger(value)) throw bad(path, 'must be an integer.');
  if (types.includes('boolean') && typeof value !== 'boolean') throw bad(path, 'must be a boolean.');
  if (types.includes('string') && typeof value !== 'string') throw bad(path, 'must be a string.');
  if (types.includes('array')) {
    if (!Array.isArray(value)) throw bad(path, 'must be an array.');
    const items = schema.items as Record<string, unknown> | undefined;
    if (items?.type === 'integer' && !value.every((x) => Number.isInteger(x))) throw bad(path, 'must be an array of integers.');
  }
  return value;
}

// --- actions ---

const ACTION_KEYS = ['id', 'type', 'group', 'custom_name', 'deactivate', 'continue_on_error', 'config'];
const CONTROL_KEYS: Record<string, string[]> = { conditional: ['action_rows', 'else_action_rows'], for_loop: ['action_rows'] };
const CONDITION_KEYS = ['condition', 'break_condition', 'continue_condition', 'match_condition', 'attach_files_match_condition'];

export function parseActions(v: unknown, path: string, app: TapeApp | undefined, depth = 1): Action[] {
  if (!Array.isArray(v)) throw bad(path, 'must be an array of actions [{type, config}, …].');
  if (depth > MAX_DEPTH) throw bad(path, `actions are nested deeper than ${MAX_DEPTH} levels.`);
  return v.map((a, i) => parseAction(a, `${path}[${i}]`, app, depth));
}

function parseAction(v: unknown, path: string, app: TapeApp | undefined, depth: number): Action {
  if (!isObject(v)) throw bad(path, 'an action must be an object {type, config}.');
  const stray = Object.keys(v).filter((k) => !ACTION_KEYS.includes(k));
  if (stray.length) throw bad(path, `an action takes ${ACTION_KEYS.join(', ')}; unexpected ${stray.join(', ')}.`);
  const def = ACTION_BY_TYPE.get(v.type as string);
  if (!def) throw bad(`${path}.type`, `unknown action type ${JSON.stringify(v.type)}; see GET /v1/automation/meta/action.`);
  if (v.group !== undefined && v.group !== def.group) throw bad(`${path}.group`, `a ${def.type} action is group "${def.group}" (group is derived from type; you may omit it).`);
  if (!('config' in v)) throw bad(`${path}.config`, 'every action needs its config key (an empty {} is fine).');
  if (!isObject(v.config)) throw bad(`${path}.config`, 'must be an object.');
  for (const k of ['deactivate', 'continue_on_error']) if (v[k] !== undefined && typeof v[k] !== 'boolean') throw bad(`${path}.${k}`, 'must be a boolean.');
  if (v.custom_name !== undefined && typeof v.custom_name !== 'string') throw bad(`${path}.custom_name`, 'must be a string.');
  const id = v.id === undefined ? randomUUID() : v.id;
  if (typeof id !== 'string' || !id) throw bad(`${path}.id`, 'an action id is an opaque non-empty string.');
  const props = (def.config_schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const config: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(v.config)) {
    const cpath = `${path}.config.${key}`;
    const schema = props[key];
    if (!schema) throw bad(cpath, `unknown config key for ${def.type}; allowed: ${Object.keys(props).join(', ') || 'none'}.`);
    if (value === undefined) continue;
    if (CONTROL_KEYS[def.type]?.includes(key)) config[key] = parseActions(value, cpath, app, depth + 1);
    else if (CONDITION_KEYS.includes(key)) config[key] = value === null ? null : parseFilter(value, cpath, app, { allowEmptyRoot: true, depth: depth + 1 });
    else if (schema['x-dynamic-value']) config[key] = parseDynamic(value, cpath, schema['x-dynamic-value'] as 'template' | 'code');
    else if (key === 'iterable' || key === 'record_collection') config[key] = parseReference(value, cpath);
    else if (key === 'author_id') config[key] = Number.isInteger(value) ? value : parseReference(value, cpath);
    else if (key === 'field_assignments') config[key] = parseAssignments(value, cpath);
    else if (key === 'http_call_headers') config[key] = parseHeaders(value, cpath);
    else if (key === 'custom_variable_defs') config[key] = parseVariableDefs(value, cpath);
    else config[key] = checkScalar(value, schema, cpath);
  }
  const action: Action = { id, type: def.type, group: def.group, config };
  if (v.custom_name !== undefined) action.custom_name = v.custom_name as string;
  if (v.deactivate !== undefined) action.deactivate = v.deactivate as boolean;
  if (v.continue_on_error !== undefined) action.continue_on_error = v.continue_on_error as boolean;
  return action;
}

function parseAssignments(v: unknown, path: string) {
  if (!Array.isArray(v)) throw bad(path, 'must be an array of field assignments.');
  return v.map((a, i) => {
    const p = `${path}[${i}]`;
    if (!isObject(a)) throw bad(p, 'a field assignment is {field_type, variable_def, assignment_type, field_value | ids | code}.');
    // meta/action advertises the entries opaquely (beta): other per-type members are kept as given.
    if (typeof a.field_type !== 'string') throw bad(`${p}.field_type`, 'must name the target field type (e.g. "single_text").');
    if (!ASSIGNMENT_TYPES.includes(a.assignment_type as string)) throw bad(`${p}.assignment_type`, `must be one of ${ASSIGNMENT_TYPES.join(', ')}.`);
    const out: Record<string, unknown> = { ...a, field_type: a.field_type, variable_def: parseReference(a.variable_def, `${p}.variable_def`), assignment_type: a.assignment_type };
    if (a.field_value !== undefined) out.field_value = parseDynamic(a.field_value, `${p}.field_value`, 'template');
    if (a.code !== undefined) out.code = parseDynamic(a.code, `${p}.code`, 'code');
    if (a.ids !== undefined) {
      if (!Array.isArray(a.ids)) throw bad(`${p}.ids`, 'must be an array of ids or references.');
      out.ids = a.ids.map((x, j) => (Number.isInteger(x) ? x : parseReference(x, `${p}.ids[${j}]`)));
    }
    return out;
  });
}

function parseHeaders(v: unknown, path: string) {
  if (!Array.isArray(v)) throw bad(path, 'must be an array of {key, value}.');
  return v.map((h, i) => {
    if (!isObject(h) || typeof h.key !== 'string' || h.value === undefined) throw bad(`${path}[${i}]`, 'a header is {key, value} (value "" for a blank one).');
    return { id: typeof h.id === 'string' ? h.id : '', key: h.key, value: parseDynamic(h.value, `${path}[${i}].value`, 'template') };
  });
}

function parseVariableDefs(v: unknown, path: string) {
  if (!Array.isArray(v)) throw bad(path, 'must be an array of {custom_type, label}.');
  return v.map((d, i) => {
    if (!isObject(d) || !CUSTOM_TYPES.includes(d.custom_type as string) || typeof d.label !== 'string') {
      throw bad(`${path}[${i}]`, `a variable declaration is {custom_type: ${CUSTOM_TYPES.join(' | ')}, label: string}.`);
    }
    return { custom_type: d.custom_type, label: d.label };
  });
}

// --- bodies of create / update ---

export interface DefinitionInput {
  name?: string;
  description?: string | null;
  trigger?: Trigger | null;
  filter?: FilterNode | null;
  actions?: Action[];
}

/** Parses a create (`create`) or update body; closed to other keys. */
export function parseDefinition(body: Record<string, unknown>, app: TapeApp | undefined, create: boolean): DefinitionInput {
  const allowed = ['name', 'description', 'trigger', 'filter', 'actions'];
  const stray = Object.keys(body).filter((k) => !allowed.includes(k));
  if (stray.length) throw validation(`Unknown properties: ${stray.join(', ')}. The body takes only ${allowed.join(', ')}.`);
  const out: DefinitionInput = {};
  if (create || body.name !== undefined) {
    if (typeof body.name !== 'string' || body.name.length < 1 || body.name.length > 5000) throw bad('name', 'is required: a string of 1–5000 characters.');
    out.name = body.name;
  }
  if (body.description !== undefined) {
    if (body.description === null && !create) out.description = null;
    else if (typeof body.description !== 'string' || body.description.length > 25000) throw bad('description', 'must be a string of up to 25000 characters.');
    else out.description = body.description;
  }
  if (body.trigger !== undefined) {
    if (body.trigger === null && create) throw bad('trigger', 'null is not accepted on create; omit it for an automation without a trigger.');
    out.trigger = body.trigger === null ? null : parseTrigger(body.trigger);
  }
  if (body.filter !== undefined) out.filter = body.filter === null ? null : parseFilter(body.filter, 'filter', app, { allowEmptyRoot: false });
  if (body.actions !== undefined) out.actions = parseActions(body.actions, 'actions', app);
  return out;
}

// --- semantic validation: broken reasons (docs/vendors/tape.md#automation-errors) ---

/** Walks actions depth-first with the ones that precede each (for upstream producers / declarations). */
function walk(actions: Action[], visit: (a: Action, deactivated: boolean, upstream: Action[]) => void, deactivated = false, upstream: Action[] = []) {
  for (const a of actions) {
    const off = deactivated || a.deactivate === true;
    visit(a, off, [...upstream]);
    for (const key of ['action_rows', 'else_action_rows']) {
      const nested = a.config[key];
      if (Array.isArray(nested)) walk(nested as Action[], visit, off, [...upstream, a]);
    }
    upstream.push(a);
  }
}

const fieldOf = (app: TapeApp | undefined, id: unknown): TapeField | undefined => app?.fields.find((f) => f.field_id === id);

function* refsIn(v: unknown): Generator<Reference> {
  if (Array.isArray(v)) for (const x of v) yield* refsIn(x);
  else if (isObject(v)) {
    if ((v.kind === 'variable' || v.kind === 'value') && (v.source !== undefined || v.value_type !== undefined)) yield v as Reference;
    else for (const x of Object.values(v)) yield* refsIn(x);
  }
}

function conditionErrors(state: TapeState, node: FilterNode | null | undefined, app: TapeApp | undefined, prefix: 'filter' | 'action', actionId: string | null): BrokenError[] {
  const out: BrokenError[] = [];
  const visit = (n: FilterNode) => {
    if (n.rows) return n.rows.forEach(visit);
    const s = n.subject;
    if (s?.source === 'field') {
      const f = fieldOf(app, s.field_id);
      if (!f) out.push({ code: prefix === 'filter' ? 'filter_variable_missing' : 'action_variable_missing', message: `A condition references field ${String(s.field_id)}, which no longer exists in the app.`, action_id: actionId, block_id: n.id ?? null, field_id: s.field_id as number });
      else if (n.value?.type === 'ids' && ['single_category', 'multi_category', 'status'].includes(f.field_type)) {
        const options = new Set(categoryOptions(f).map((o) => o.id));
        for (const id of n.value.ids as unknown[]) {
          if (typeof id === 'number' && !options.has(id)) out.push({ code: 'filter_option_missing', message: `A condition references option ${id}, which field ${f.field_id} no longer has.`, action_id: actionId, block_id: n.id ?? null, field_id: f.field_id, option_id: id });
        }
      } else if (n.value?.type === 'ids' && ['single_user', 'multi_user'].includes(f.field_type)) {
        for (const id of n.value.ids as unknown[]) {
          if (typeof id === 'number' && !state.users.has(id)) out.push({ code: 'filter_user_missing', message: `A condition references user ${id}, who does not exist.`, action_id: actionId, block_id: n.id ?? null, user_id: id });
        }
      }
    }
    for (const r of refsIn(n.value)) {
      if (r.source === 'field' && !fieldOf(app, r.field_id)) out.push({ code: 'filter_value_variable_missing', message: `A condition value references field ${String(r.field_id)}, which no longer exists.`, action_id: actionId, block_id: n.id ?? null, field_id: r.field_id as number });
    }
  };
  if (node) visit(node);
  return out;
}

/** Recomputes the broken reasons of a definition (the `validate` verdict). */
export function brokenReasons(store: AutomationStore, a: Pick<StoredAutomation, 'app_id' | 'trigger' | 'filter' | 'actions' | 'id'>): BrokenError[] {
  const state = store.state;
  const app = state.apps.get(a.app_id);
  const errors: BrokenError[] = [];
  if (!app) errors.push({ code: 'trigger_app_missing', message: `The automation's app ${a.app_id} no longer exists.`, action_id: null, app_id: a.app_id });
  const t = a.trigger;
  if (t?.type === 'record_updated' && Array.isArray(t.config.trigger_on_changes_field_ids)) {
    const ids = t.config.trigger_on_changes_field_ids as number[];
    if (ids.length === 0) errors.push({ code: 'trigger_updated_fields_empty', message: 'The record_updated trigger watches an empty list of fields, so it never fires; use null for any field.', action_id: null });
    for (const id of ids) if (!fieldOf(app, id)) errors.push({ code: 'trigger_variable_missing', message: `The trigger watches field ${id}, which no longer exists.`, action_id: null, field_id: id });
  }
  if (t?.type === 'date_field_arrived') {
    const f = fieldOf(app, t.config.field_id);
    if (!f) errors.push({ code: 'trigger_variable_missing', message: `The trigger's date field ${String(t.config.field_id)} does not exist.`, action_id: null, field_id: t.config.field_id as number });
    else if (!['single_date', 'range_date'].includes(f.field_type)) errors.push({ code: 'trigger_date_field_not_date', message: `Field ${f.field_id} is not a date field.`, action_id: null, field_id: f.field_id });
  }
  if (t?.type === 'periodic') {
    if (t.config.interval === 'weekly' && Array.isArray(t.config.week_days) && !t.config.week_days.length) errors.push({ code: 'trigger_periodic_week_days_empty', message: 'The weekly schedule has no week days.', action_id: null });
    if (t.config.interval === 'monthly' && Array.isArray(t.config.month_days) && !t.config.month_days.length) errors.push({ code: 'trigger_periodic_month_days_empty', message: 'The monthly schedule has no month days.', action_id: null });
  }
  errors.push(...conditionErrors(state, a.filter, app, 'filter', null));

  walk(a.actions, (action, deactivated, upstream) => {
    const found: BrokenError[] = [];
    const push = (e: Omit<BrokenError, 'action_id'>) => found.push({ ...e, action_id: action.id } as BrokenError);
    const c = action.config;
    const doc = ACTION_DOC_BY_TYPE.get(action.type)!;
    for (const key of doc.required) {
      const v = c[key];
      if (v === undefined || v === null || (Array.isArray(v) && v.length === 0)) push({ code: 'action_value_missing', message: `The ${action.type} action needs "${key}".` });
    }
    if (action.type.startsWith('current_record_') || action.type === 'current_record_update') {
      if (!t || !RECORD_TRIGGERS.has(t.type)) push({ code: 'action_invalid', message: `${action.type} needs a record-context trigger; this automation's trigger is ${t ? t.type : 'none'}.` });
    }
    if (['current_record_comment_or_reply_reply_create', 'current_record_comment_or_reply_delete'].includes(action.type) && t?.type !== 'record_comment_or_reply_created') {
      push({ code: 'action_invalid', message: `${action.type} needs a record_comment_or_reply_created trigger.` });
    }
    if (['display_webpage', 'redirect_user', 'current_record_generate_automation_weblink'].includes(action.type) && t?.type !== 'weblink_clicked') {
      push({ code: 'action_invalid', message: `${action.type} needs a weblink_clicked trigger.` });
    }
    if (['record_create', 'collect_app_records', 'collect_app_view_records', 'referenced_records_update'].includes(action.type) && c.app_id !== undefined) {
      const target = state.apps.get(c.app_id as number);
      if (!target) push({ code: 'action_app_missing', message: `The action references app ${String(c.app_id)}, which no longer exists.`, app_id: c.app_id as number });
      else if (target.type !== 'database') push({ code: 'action_app_invalid', message: `App ${target.app_id} is not a database app.`, app_id: target.app_id });
    }
    if (action.type === 'collect_app_view_records' && (c.app_view_id === undefined || c.app_view_id === null)) push({ code: 'action_view_missing', message: 'The action names no view.' });
    if (['current_record_call_automation', 'collected_records_call_automation', 'current_record_generate_automation_weblink'].includes(action.type)) {
      const targetId = c.automation_id ?? c.workflow_def_id;
      const target = typeof targetId === 'number' ? store.get(targetId) : undefined;
      const wanted = action.type === 'current_record_generate_automation_weblink' ? 'weblink_clicked' : 'automation_called';
      if (!target) push({ code: 'action_automation_missing', message: `The action calls automation ${String(targetId)}, which does not exist.`, automation_id: targetId as number });
      else if (target.app_id !== a.app_id || target.trigger?.type !== wanted) push({ code: 'action_automation_invalid', message: `Automation ${target.id} must be in the same app and have a ${wanted} trigger.`, automation_id: target.id });
    }
    const assignments = Array.isArray(c.field_assignments) ? (c.field_assignments as Record<string, unknown>[]) : [];
    // Assignments write the app the action writes: record_create's and referenced_records_update's app_id, a collection's app.
    const collectionApp = (c.record_collection as Reference | undefined)?.app_id;
    const targetApp =
      (action.type === 'record_create' || action.type === 'referenced_records_update') && typeof c.app_id === 'number'
        ? state.apps.get(c.app_id)
        : action.type === 'collected_records_update' && typeof collectionApp === 'number'
          ? state.apps.get(collectionApp)
          : app;
    for (const fa of assignments) {
      const ref = fa.variable_def as Reference;
      if (ref?.source === 'field' && targetApp && !fieldOf(targetApp, ref.field_id)) push({ code: 'field_assignment_variable_missing', message: `A field assignment targets field ${String(ref.field_id)}, which does not exist.`, field_id: ref.field_id as number });
    }
    for (const key of CONDITION_KEYS) if (isObject(c[key])) found.push(...conditionErrors(state, c[key] as FilterNode, action.type === 'collect_app_records' && typeof c.app_id === 'number' ? state.apps.get(c.app_id) : app, 'action', action.id));
    // References: fields of the app, collections produced upstream, declared custom variables.
    const declared = new Set<string>();
    for (const u of [...upstream, action]) {
      for (const d of (u.config.custom_variable_defs as { custom_type: string; label: string }[] | undefined) ?? []) declared.add(`${d.custom_type}:${d.label}`);
      const one = u.config.custom_variable_def as { custom_type?: string; label?: string } | undefined;
      if (one || u.type === 'rollup_iterable_values') declared.add(`${one?.custom_type ?? 'any'}:${one?.label ?? 'Rollup'}`);
      // The documented default outputs when custom_variable_def is omitted.
      else if (u.type === 'current_record_generate_automation_weblink') declared.add('single_link:Weblink');
      else if (u.type === 'create_pdf') declared.add('single_file:PDF');
    }
    if (t?.type === 'automation_called' || t?.type === 'weblink_clicked') for (const d of (t.config.custom_variable_defs as { custom_type: string; label: string }[] | undefined) ?? []) declared.add(`${d.custom_type}:${d.label}`);
    const skip = new Set(['action_rows', 'else_action_rows', ...CONDITION_KEYS]);
    for (const [key, value] of Object.entries(c)) {
      if (skip.has(key)) continue;
      for (const r of refsIn(value)) {
        if (r.source === 'field' && !r.collection && !fieldOf(app, r.field_id) && !(key === 'field_assignments' && targetApp !== app)) {
          push({ code: 'action_variable_missing', message: `The action references field ${String(r.field_id)}, which does not exist.`, field_id: r.field_id as number });
        }
        if (r.source === 'action' && r.action_type === 'record_collection') {
          const producer = upstream.some((u) => u.type.startsWith('collect_') || u.type === 'collected_records_collect_referenced_records');
          if (!producer) push({ code: 'action_variable_missing', message: 'The action consumes a record collection that no upstream collect action produces.' });
        }
        if (r.source === 'custom' && !declared.has(`${String(r.custom_type)}:${String(r.label)}`)) {
          push({ code: 'action_variable_missing', message: `The action references custom variable "${String(r.label)}", which no action declares.` });
        }
      }
    }
    for (const e of found) errors.push(deactivated ? { ...e, deactivated: true } : e);
  });
  return errors;
}

export const activeErrors = (errors: BrokenError[]) => errors.filter((e) => !e.deactivated);
