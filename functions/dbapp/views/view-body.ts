import type * as z from 'zod';
import { invalidParameter } from '../../../shared/core/errors';
import type { TapeClient } from '../client';
import type { ToolContext } from '../../../shared/core/tool';
import { withAppSchema } from '../apps/schema';
import type { TapeAppField, TapeAppWithFields, TapeViewFilter, TapeViewLayout, TapeViewWrite } from '../wire';
import { isDateField } from '../fields';
import { SPLIT_BY_FIELD_TYPES, type viewFieldSettings, type viewFilter, type viewSplitBy } from './inputs';
import { checkFilter as checkRecordFilter } from '../records/filter-body';

/**
 * The view definition checks shared by createView and updateView: every rule of docs/spec.md#dbapp-view is
 * enforced here, against the app's fields, before anything is written; what passes becomes Tape's body.
 */

type FilterInput = z.output<typeof viewFilter>;

export interface ViewDefinitionInput {
  filters?: FilterInput[] | null;
  sort_by?: number | null;
  sort_desc?: boolean;
  fields?: z.output<typeof viewFieldSettings> | null;
  split_by?: z.output<typeof viewSplitBy> | null;
}

export interface ViewDefinitionContext {
  app_id: number;
  /** The layout the `fields` settings address: the new layout when it changes, else the view's current one. */
  layout: TapeViewLayout;
  /** The view's stored sort field (null on create). */
  storedSortBy: number | null;
}

export interface CheckedDefinition {
  body: Pick<TapeViewWrite, 'filters' | 'sort_by' | 'sort_desc' | 'fields' | 'split_by'>;
  notes: string[];
}

const EMPTINESS = new Set(['empty', 'not_empty']);
const META_FILTER_TYPES = new Set(['created_at', 'last_modified_at', 'app_record_id', 'created_on', 'last_modified_on']);
/** An absolute date-time: Tape's `YYYY-MM-DD HH:MM:SS`, or the ISO-8601 form a view read back may carry. */
const ABSOLUTE_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?: |T)(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,3})?(?:Z|[+-]\d{2}:?\d{2})?$/;
const DATE_EXPECTED = 'an absolute date "YYYY-MM-DD HH:MM:SS"';

/** Checks the definition keys of a view write and builds Tape's body; fetches the app's fields only when a key names a field. */
export async function checkViewDefinition(tool: Pick<ToolContext<TapeClient>, 'client' | 'store' | 'keyHash'>, input: ViewDefinitionInput, ctx: ViewDefinitionContext): Promise<CheckedDefinition> {
  // Rules that need no field metadata come first, so the most direct message wins.
  input.filters?.forEach(precheckFilter);
  const fieldKeys = Object.entries(input.fields ?? {});
  for (const [key, setting] of fieldKeys) {
    if (!/^\d+$/.test(key)) {
      throw invalidParameter(`fields.${key}`, 'a field id as the key, e.g. "55201"', `The keys of "fields" are field ids (digits), got "${key}"; look the ids up with getApp.`);
    }
    if (setting.width !== undefined && ctx.layout !== 'table') {
      throw invalidParameter(
        `fields.${key}.width`,
        'no width: widths exist on table views only',
        `"width" applies to the table layout only and this view's layout is ${ctx.layout}; drop "width", or set layout "table" in the same call.`,
      );
    }
  }

  const needsApp = (input.filters?.length ?? 0) > 0 || typeof input.sort_by === 'number' || fieldKeys.length > 0 || Boolean(input.split_by);
  // The rules that need the app's fields, against its cached schema (once more against a fresh one before a refusal stands).
  const build = (app: TapeAppWithFields | undefined): CheckedDefinition => {
    const notes: string[] = [];
    const body: CheckedDefinition['body'] = {};

    if (input.filters === null) body.filters = null;
    else if (input.filters) body.filters = input.filters.map((f, i) => checkFilter(app!, f, `filters.${i}`));

    if (input.sort_by === null) body.sort_by = null;
    else if (input.sort_by !== undefined) body.sort_by = fieldOf(app!, input.sort_by, 'sort_by').field_id;

    if (input.sort_desc !== undefined) {
      const sortBy = input.sort_by !== undefined ? input.sort_by : ctx.storedSortBy;
      if (sortBy === null) notes.push('sort_desc was ignored: the view has no sort_by (records keep the manual order); pass sort_by to sort.');
      else body.sort_desc = input.sort_desc;
    }

    if (input.fields === null) body.fields = null;
    else if (input.fields) {
      for (const [key] of fieldKeys) fieldOf(app!, Number(key), `fields.${key}`);
      body.fields = input.fields;
    }

    if (input.split_by === null) body.split_by = null;
    else if (input.split_by) body.split_by = checkSplitBy(app!, input.split_by);

    return { body, notes };
  };
  return needsApp ? withAppSchema(tool, ctx.app_id, build) : build(undefined);
}

function fieldList(app: TapeAppWithFields): string {
  const shown = app.fields.slice(0, 30).map((f) => `${f.field_id} "${f.label}" (${f.field_type})`);
  return shown.join(', ') + (app.fields.length > 30 ? `, … ${app.fields.length - 30} more` : '');
}

function fieldOf(app: TapeAppWithFields, fieldId: number, path: string): TapeAppField {
  const field = app.fields.find((f) => f.field_id === fieldId);
  if (!field) {
    throw invalidParameter(path, `a field id of app ${app.app_id}`, `Field ${fieldId} is not a field of app ${app.app_id}. Its fields: ${fieldList(app)}.`);
  }
  return field;
}

function precheckFilter(f: FilterInput, i: number): void {
  const path = `filters.${i}`;
  if (f.field_id === undefined && f.field_label === undefined) {
    const meta = [f.type, f.field_type].find((t) => t !== undefined && META_FILTER_TYPES.has(t));
    if (meta) {
      throw invalidParameter(
        path,
        'a field filter {field_id or field_label, match_type, values}',
        `Views take field filters only; the "${meta}" metadata filter cannot be stored in a view. Filter on a created-on / last-modified-on field of the app instead (by its field_id).`,
      );
    }
    throw invalidParameter(`${path}.field_id`, 'a field id (or field_label)', `Filter ${i} names no field: pass field_id or field_label.`);
  }
  if (EMPTINESS.has(f.match_type)) {
    if (f.relative_date_type !== undefined) {
      throw invalidParameter(`${path}.relative_date_type`, `omitted on match_type ${f.match_type}`, `relative_date_type must be omitted on an "${f.match_type}" filter: it tests whether the field has a value at all.`);
    }
    if (f.include_active_user !== undefined) {
      throw invalidParameter(`${path}.include_active_user`, `omitted on match_type ${f.match_type}`, `include_active_user ("@me") cannot be combined with match_type "${f.match_type}"; use equal or any to match the viewing user.`);
    }
  }
}

function resolveFilterField(app: TapeAppWithFields, f: FilterInput, path: string): TapeAppField {
  if (f.field_id !== undefined) {
    const field = fieldOf(app, f.field_id, `${path}.field_id`);
    if (f.field_label !== undefined && f.field_label.trim().toLowerCase() !== field.label.trim().toLowerCase()) {
      throw invalidParameter(`${path}.field_label`, `"${field.label}" (field ${field.field_id}) or nothing`, `field_id ${field.field_id} is "${field.label}" but field_label says "${f.field_label}"; give one of the two.`);
    }
    return field;
  }
  const label = f.field_label!;
  const exact = app.fields.filter((x) => x.label === label);
  const hits = exact.length > 0 ? exact : app.fields.filter((x) => x.label.trim().toLowerCase() === label.trim().toLowerCase());
  if (hits.length === 1) return hits[0]!;
  if (hits.length > 1) {
    throw invalidParameter(`${path}.field_label`, 'a label naming one field', `"${label}" names ${hits.length} fields of app ${app.app_id} (ids ${hits.map((h) => h.field_id).join(', ')}); pass field_id instead.`);
  }
  throw invalidParameter(`${path}.field_label`, `the label of a field of app ${app.app_id}`, `App ${app.app_id} has no field labelled "${label}". Its fields: ${fieldList(app)}.`);
}

function isDateFilter(field: TapeAppField, f: FilterInput): boolean {
  if (field.field_type === 'checklist') return f.entry_property === 'due_date';
  return isDateField(field);
}

function absoluteDate(raw: unknown, path: string): void {
  if (typeof raw !== 'string') return;
  const m = ABSOLUTE_DATE_TIME.exec(raw.trim());
  const valid = m !== null && !Number.isNaN(Date.parse(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z`)) && new Date(`${m[1]}-${m[2]}-${m[3]}T00:00:00Z`).getUTCDate() === Number(m[3]);
  if (valid) return;
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(raw.trim());
  throw invalidParameter(
    path,
    DATE_EXPECTED,
    dateOnly
      ? `"${raw}" has no time: write "${raw.trim()} 00:00:00".`
      : `"${raw}" is not an absolute date. Write "YYYY-MM-DD HH:MM:SS" (e.g. "2024-01-31 00:00:00"); relative tokens such as "-7d" are not accepted — for a date that moves with the calendar set relative_date_type to today, yesterday or tomorrow and omit values.`,
  );
}

/**
 * A view filter: the view-only rules here (field_label, absolute dates with a time, the relative
 * date types a view keeps), then the rules every record filter follows (checkFilter of filterRecords).
 */
function checkFilter(app: TapeAppWithFields, f: FilterInput, path: string): TapeViewFilter {
  const field = resolveFilterField(app, f, path);
  if (isDateFilter(field, f)) {
    (f.values ?? []).forEach((v, j) => {
      const value = v.value;
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) absoluteDate((value as { date?: unknown }).date, `${path}.values.${j}.value.date`);
      else if (typeof value === 'string') absoluteDate(value, `${path}.values.${j}.value`);
      else throw invalidParameter(`${path}.values.${j}.value`, DATE_EXPECTED, `A date filter compares against a date: pass "YYYY-MM-DD HH:MM:SS", got ${JSON.stringify(value)}.`);
    });
    if (f.end_date !== undefined) absoluteDate(f.end_date, `${path}.end_date`);
  }
  const { field_label: _label, ...rest } = f;
  return checkRecordFilter(app, { ...rest, field_id: field.field_id }, path);
}

function checkSplitBy(app: TapeAppWithFields, s: z.output<typeof viewSplitBy>): NonNullable<TapeViewWrite['split_by']> {
  const field = fieldOf(app, s.field_id, 'split_by.field_id');
  if (!SPLIT_BY_FIELD_TYPES.has(field.field_type)) {
    throw invalidParameter(
      'split_by.field_id',
      `a field of type ${[...SPLIT_BY_FIELD_TYPES].join(', ')}`,
      `A view cannot be split by field ${field.field_id} "${field.label}" (${field.field_type}); split by a category, status, user, relation, date, created/modified-on or calculation field.`,
    );
  }
  const dateField = isDateField(field);
  if (s.period !== undefined && !dateField) {
    throw invalidParameter('split_by.period', 'omitted: date fields only', `period buckets dates; field ${field.field_id} "${field.label}" is a ${field.field_type} field, so drop period.`);
  }
  return { field_id: field.field_id, ...(s.period ? { period: s.period } : {}), ...(s.sorting ? { sorting: s.sorting } : {}), ...(s.limit !== undefined ? { limit: s.limit } : {}) };
}
