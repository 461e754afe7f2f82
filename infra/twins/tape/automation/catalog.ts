/**
 * The automation catalog the discovery endpoints serve (docs/vendors/tape.md#automation-discovery): the 9 trigger
 * types of docs/vendors/tape.md#automation-triggers and the 35 action types of docs/vendors/tape.md#automation-actions with their
 * `config_schema` (JSON Schema), and the filter operators per field type (docs/vendors/tape.md#automation-filters).
 */
import { ACTION_DOCS, type ActionDoc } from './action-docs';

type Schema = Record<string, unknown>;

// --- building blocks of the schemas ---

const REF_SCHEMA: Schema = {
  type: 'object',
  description: 'A dynamic-value reference: {kind: "variable", source, …} or {kind: "value", value_type, …} (automation/dynamic-values.md).',
  required: ['kind'],
  properties: { kind: { type: 'string', enum: ['variable', 'value'] } },
};
const dynamic = (flavor: 'template' | 'code', description: string): Schema => ({
  type: 'array',
  'x-dynamic-value': flavor,
  description,
  items: { oneOf: [{ type: 'string' }, REF_SCHEMA] },
});
const FILTER_GROUP: Schema = {
  type: ['object', 'null'],
  description: 'A filter group {operator: "and" | "or", rows: [...]} (automation/reference/filters.md).',
  required: ['operator', 'rows'],
  properties: { operator: { type: 'string', enum: ['and', 'or'] }, rows: { type: 'array' } },
};
const VARIABLE_DEFS: Schema = {
  type: 'array',
  items: {
    type: 'object',
    required: ['custom_type', 'label'],
    additionalProperties: false,
    properties: {
      custom_type: { type: 'string', enum: ['any', 'single_file', 'multi_file', 'single_link', 'html_table_rows'] },
      label: { type: 'string' },
    },
  },
};

/** JSON Schema of one documented config key from its type column. */
function propSchema(typeText: string, description: string, enumTokens?: string[]): Schema {
  const t = typeText.toLowerCase();
  const base = (s: Schema): Schema => ({ ...s, description });
  if (t === 'enum') {
    const numeric = enumTokens?.every((x) => /^\d+$/.test(x));
    return base(numeric ? { type: 'integer', enum: enumTokens!.map(Number) } : { type: 'string', ...(enumTokens ? { enum: enumTokens } : {}) });
  }
  if (t.startsWith('template value')) return dynamic('template', description);
  if (t.startsWith('code value')) return dynamic('code', description);
  if (t.startsWith('filter group')) return base(FILTER_GROUP);
  if (t === 'integer | reference') return base({ oneOf: [{ type: 'integer' }, REF_SCHEMA] });
  if (t.startsWith('integer')) return base({ type: t.includes('null') ? ['integer', 'null'] : 'integer' });
  if (t === 'boolean') return base({ type: 'boolean' });
  if (t === 'string') return base({ type: 'string' });
  if (t === 'reference') return base(REF_SCHEMA);
  if (t === 'object') return base({ type: 'object' });
  if (t.includes('nested actions')) return base({ type: 'array', items: { type: 'object', required: ['type', 'config'] } });
  if (t.includes('variable declarations') || t.includes('custom variable defs')) return base(VARIABLE_DEFS);
  if (t.includes('array of integers')) return base({ type: 'array', items: { type: 'integer' } });
  if (t.includes('array of references')) return base({ type: 'array', items: REF_SCHEMA });
  if (t.includes('header objects') || (t === 'array of objects' && description.toLowerCase().includes('header'))) {
    return base({ type: 'array', items: { type: 'object', required: ['key', 'value'], properties: { id: { type: 'string' }, key: { type: 'string' }, value: dynamic('template', 'Header value.') } } });
  }
  if (t.includes('field assignments')) {
    return base({
      type: 'array',
      items: {
        type: 'object',
        required: ['field_type', 'variable_def', 'assignment_type'],
        properties: {
          field_type: { type: 'string' },
          variable_def: REF_SCHEMA,
          assignment_type: { type: 'string', enum: ASSIGNMENT_TYPES },
          field_value: dynamic('template', 'The value for assignment_type "set" (text-like, number and date fields).'),
          ids: { type: 'array', items: { oneOf: [{ type: 'integer' }, REF_SCHEMA] }, description: 'Option / record / user ids for assignment_type "set" on category, status, relation and user fields.' },
          code: dynamic('code', 'The expression for assignment_type "set_code".'),
        },
      },
    });
  }
  return base({ type: 'array' });
}

/** Field-assignment modes the twin executes (the docs name `set` and `set_code`; `clear` empties the field). */
export const ASSIGNMENT_TYPES = ['set', 'set_code', 'clear'];

export interface ActionType {
  type: string;
  group: 'action' | 'control_flow';
  label: string;
  description: string;
  config_schema: Schema;
}

function actionType(doc: ActionDoc): ActionType {
  const properties: Record<string, Schema> = {};
  for (const [key, [typeText, description]] of Object.entries(doc.props)) {
    const tokens = doc.enums[key] ?? Object.entries(doc.enums).find(([k]) => k.endsWith(`.${key}`) || k === `${key}`)?.[1];
    properties[key] = propSchema(typeText, description, tokens);
  }
  return {
    type: doc.type,
    group: doc.group,
    label: doc.label,
    description: doc.description,
    config_schema: { type: 'object', properties, ...(doc.required.length ? { required: doc.required } : {}), additionalProperties: false },
  };
}

export const ACTION_TYPES: ActionType[] = ACTION_DOCS.map(actionType);
export const ACTION_BY_TYPE = new Map(ACTION_TYPES.map((a) => [a.type, a]));
export const ACTION_DOC_BY_TYPE = new Map(ACTION_DOCS.map((a) => [a.type, a]));

// --- triggers (docs/vendors/tape.md#automation-triggers) ---

export interface TriggerType {
  type: string;
  label: string;
  description: string;
  config_schema: Schema;
}

const obj = (properties: Record<string, Schema>): Schema => ({ type: 'object', properties, additionalProperties: false });
const CALLED_CONFIG = obj({
  triggering_app_ids: { type: 'array', items: { type: 'integer' }, description: 'Apps whose automations may call this one; takes effect only with triggering_app_ids_enabled.' },
  triggering_app_ids_enabled: { type: 'boolean', description: 'Whether triggering_app_ids applies.' },
  custom_variable_defs: { ...VARIABLE_DEFS, description: 'Input variables the caller passes as arguments (keyed var_<label>); takes effect only with custom_variable_defs_enabled.' },
  custom_variable_defs_enabled: { type: 'boolean', description: 'Whether custom_variable_defs applies.' },
});

export const TRIGGER_TYPES: TriggerType[] = [
  { type: 'record_created', label: 'Record created', description: 'Triggers when a record is created in the app.', config_schema: obj({}) },
  {
    type: 'record_updated',
    label: 'Record updated',
    description: 'Triggers when a record is updated in the app, optionally only when specific fields change.',
    config_schema: obj({
      trigger_on_changes_field_ids: {
        type: ['array', 'null'],
        items: { type: 'integer' },
        description: 'null or omitted: any field change fires; a non-empty list: only changes of these fields fire; [] never fires (validates as broken).',
      },
    }),
  },
  { type: 'record_deleted', label: 'Record deleted', description: 'Triggers when a record is deleted in the app.', config_schema: obj({}) },
  { type: 'record_comment_or_reply_created', label: 'Comment or reply created', description: 'Triggers when a comment or reply is added to a record of the app.', config_schema: obj({}) },
  {
    type: 'date_field_arrived',
    label: 'Date field arrived',
    description: "Triggers when a date field's value arrives, relative to now.",
    config_schema: obj({
      field_id: { type: 'integer', description: 'The date field watched.' },
      offset_amount: { type: 'integer', description: 'How many units before (negative) or after (positive) the date the trigger fires.' },
      offset_unit: { type: 'string', enum: ['minute', 'hour', 'day', 'week'], description: 'Unit of offset_amount.' },
    }),
  },
  { type: 'automation_called', label: 'Automation called', description: 'Triggers when another automation calls this one.', config_schema: CALLED_CONFIG },
  {
    type: 'periodic',
    label: 'Periodic',
    description: 'Triggers on a schedule.',
    config_schema: obj({
      interval: { type: 'string', enum: ['hourly', 'daily', 'weekly', 'monthly'], description: 'How often the automation runs.' },
      time: { type: 'string', description: 'Time of day (HH:mm, UTC) for daily, weekly and monthly schedules.' },
      week_days: { type: 'array', items: { type: 'integer', minimum: 1, maximum: 7 }, description: 'ISO week days (1 = Monday) for weekly schedules; empty validates as broken.' },
      month_days: { type: 'array', items: { type: 'integer', minimum: 1, maximum: 31 }, description: 'Days of the month for monthly schedules; empty validates as broken.' },
    }),
  },
  {
    type: 'webhook_received',
    label: 'Webhook received',
    description: 'Triggers when an inbound webhook is received at the automation’s webhook URL.',
    config_schema: obj({ webhook_url: { type: 'string', readOnly: true, description: 'Server-assigned URL that starts the automation when POSTed to. Read-only: strip it before writing.' } }),
  },
  { type: 'weblink_clicked', label: 'Weblink clicked', description: 'Triggers when a generated weblink is clicked.', config_schema: CALLED_CONFIG },
];
export const TRIGGER_BY_TYPE = new Map(TRIGGER_TYPES.map((t) => [t.type, t]));

/** Record-context triggers: the ones whose run has a current record (docs/vendors/tape.md#automation-actions). */
export const RECORD_TRIGGERS = new Set(['record_created', 'record_updated', 'record_deleted', 'record_comment_or_reply_created', 'date_field_arrived', 'automation_called', 'weblink_clicked']);

// --- filter operators (docs/vendors/tape.md#automation-filters) ---

export type Arity = 'none' | 'single' | 'multiple';
export const OPERATORS: Record<string, { label: string; arity: Arity }> = {
  is: { label: 'Is', arity: 'single' },
  is_not: { label: 'Is not', arity: 'single' },
  contains: { label: 'Contains', arity: 'single' },
  does_not_contain: { label: 'Does not contain', arity: 'single' },
  starts_with: { label: 'Starts with', arity: 'single' },
  ends_with: { label: 'Ends with', arity: 'single' },
  greater_than: { label: 'Greater than', arity: 'single' },
  greater_or_equal_than: { label: 'Greater or equal than', arity: 'single' },
  less_than: { label: 'Less than', arity: 'single' },
  less_or_equal_than: { label: 'Less or equal than', arity: 'single' },
  is_before: { label: 'Is before', arity: 'single' },
  is_after: { label: 'Is after', arity: 'single' },
  has_any_of: { label: 'Has any of', arity: 'multiple' },
  has_all_of: { label: 'Has all of', arity: 'multiple' },
  has_none_of: { label: 'Has none of', arity: 'multiple' },
  is_exactly: { label: 'Is exactly', arity: 'multiple' },
  is_any_of: { label: 'Is any of', arity: 'multiple' },
  is_none_of: { label: 'Is none of', arity: 'multiple' },
  is_empty: { label: 'Is empty', arity: 'none' },
  is_not_empty: { label: 'Is not empty', arity: 'none' },
  is_completed: { label: 'Is completed', arity: 'none' },
  is_incomplete: { label: 'Is incomplete', arity: 'none' },
};

export type Channel = 'text' | 'number' | 'ids' | 'date' | 'boolean' | 'entity_type' | 'none';

const TEXT_OPS = ['is', 'is_not', 'contains', 'does_not_contain', 'starts_with', 'ends_with', 'is_empty', 'is_not_empty'];
const NUMBER_OPS = ['is', 'is_not', 'greater_than', 'greater_or_equal_than', 'less_than', 'less_or_equal_than', 'is_empty', 'is_not_empty'];
const DATE_OPS = ['is', 'is_before', 'is_after', 'is_empty', 'is_not_empty'];
const SINGLE_IDS_OPS = ['is_any_of', 'is_none_of', 'is_empty', 'is_not_empty'];
const MULTI_IDS_OPS = ['has_any_of', 'has_all_of', 'has_none_of', 'is_exactly', 'is_empty', 'is_not_empty'];

/** Per field type: the value channel a filter value must use on write, and the operators meta/filter advertises. */
export const FIELD_FILTERS: Record<string, { channel: Channel; operators: string[] }> = {
  single_text: { channel: 'text', operators: TEXT_OPS },
  multi_text: { channel: 'text', operators: TEXT_OPS },
  multi_email: { channel: 'text', operators: TEXT_OPS },
  multi_phone: { channel: 'text', operators: TEXT_OPS },
  multi_link: { channel: 'text', operators: TEXT_OPS },
  single_location: { channel: 'text', operators: TEXT_OPS },
  number: { channel: 'number', operators: NUMBER_OPS },
  unique_id: { channel: 'number', operators: NUMBER_OPS },
  calculation: { channel: 'number', operators: NUMBER_OPS },
  single_date: { channel: 'date', operators: DATE_OPS },
  range_date: { channel: 'date', operators: DATE_OPS },
  created_on: { channel: 'date', operators: DATE_OPS },
  last_modified_on: { channel: 'date', operators: DATE_OPS },
  single_category: { channel: 'ids', operators: SINGLE_IDS_OPS },
  status: { channel: 'ids', operators: [...SINGLE_IDS_OPS, 'is_completed', 'is_incomplete'] },
  multi_category: { channel: 'ids', operators: MULTI_IDS_OPS },
  single_relation: { channel: 'ids', operators: SINGLE_IDS_OPS },
  multi_relation: { channel: 'ids', operators: MULTI_IDS_OPS },
  single_user: { channel: 'ids', operators: SINGLE_IDS_OPS },
  multi_user: { channel: 'ids', operators: MULTI_IDS_OPS },
  created_by: { channel: 'ids', operators: SINGLE_IDS_OPS },
  last_modified_by: { channel: 'ids', operators: SINGLE_IDS_OPS },
  checklist: { channel: 'text', operators: ['is_completed', 'is_incomplete', 'is_empty', 'is_not_empty'] },
  single_attachment: { channel: 'text', operators: ['is_empty', 'is_not_empty'] },
  multi_attachment: { channel: 'text', operators: ['is_empty', 'is_not_empty'] },
  multi_image: { channel: 'text', operators: ['is_empty', 'is_not_empty'] },
};

/** The meta/filter answer for one field type, or undefined for an unknown type. */
export function filterOperators(fieldType: string) {
  // Own keys only: "__proto__" or "constructor" would find Object's members and crash the route (found by fuzzing).
  const f = Object.hasOwn(FIELD_FILTERS, fieldType) ? FIELD_FILTERS[fieldType] : undefined;
  if (!f) return undefined;
  return { field_type: fieldType, operators: f.operators.map((operator) => ({ operator, label: OPERATORS[operator]!.label, value_arity: OPERATORS[operator]!.arity })) };
}
