/**
 * aggregateItems' plan and text: which fields can be aggregated (numbers) and grouped by (category,
 * relation, contact, date, or who/when created), checked against the app before Podio's
 * `POST /item/app/{app_id}/calculate`; totals shown in the field's unit (money with its currency).
 */
import { invalidParameter } from '../../../shared/core/errors';
import { show } from '../../../shared/fields/engine';
import { plural } from '../../../shared/core/render';
import { appFields, type PodioApp, type PodioAppField } from '../fields';
import { settingsOf } from '../fields/types/common';
import { durationText } from '../fields/types/number';
import type { PodioCalculateBody, PodioCalculation } from '../wire';

export const AGGREGATIONS = ['count', 'sum', 'average', 'minimum', 'maximum'] as const;
export type Aggregation = (typeof AGGREGATIONS)[number];
export const DATE_INTERVALS = ['date', 'weekday', 'week', 'month', 'year'] as const;
export type DateInterval = (typeof DATE_INTERVALS)[number];
/** Podio's own groupings besides fields: by creator, by creation date. */
export const REVISION_GROUPS = ['created_by', 'created_on'] as const;

const NUMERIC = ['number', 'money', 'progress', 'duration', 'calculation'];
const GROUPABLE = ['category', 'app', 'contact', 'date'];

export interface AggregateField {
  field_id: number;
  external_id: string;
  label: string;
  type: string;
}

export interface AggregateGroup {
  /** Podio's key of the group: option id, item id, profile id, user id, or the date bucket; null = items without a value. */
  value: unknown;
  label: string | null;
  total: number | null;
  count: number;
}

export interface AggregateResult {
  app_id: number;
  aggregation: Aggregation;
  field?: AggregateField;
  /** Money: the field's currency; `currencies` when it allows several (Podio adds the amounts as plain numbers). */
  currency?: string;
  currencies?: string[];
  group_by?: { key: string; label: string; type: string; interval?: DateInterval };
  total: number | null;
  count: number;
  groups: AggregateGroup[];
}

const fieldKeyOf = (f: PodioAppField): AggregateField => ({ field_id: f.field_id, external_id: f.external_id, label: f.label ?? f.config.label, type: f.type });
const listed = (fields: PodioAppField[]) => (fields.length ? fields.map((f) => `${f.external_id} (${f.field_id}, ${f.type})`).join(', ') : 'none in this app');
const findKey = (app: PodioApp, key: number | string) => appFields(app).fields.find((f) => String(f.field_id) === String(key).trim() || f.external_id === key);

/** A calculation sums only when it returns a number. */
const isAggregatable = (f: PodioAppField) => NUMERIC.includes(f.type) && !(f.type === 'calculation' && ['date', 'text'].includes(String(settingsOf(f).return_type ?? 'number')));

export interface AggregatePlan {
  body: Omit<PodioCalculateBody, 'filters'>;
  field?: PodioAppField;
  group?: AggregateResult['group_by'];
}

/** The calculation body (formula and grouping) for the input, checked against the app; nothing is sent when it fails. */
export function planAggregate(app: PodioApp, o: { aggregation: Aggregation; field?: number | string; group_by?: number | string; date_interval?: DateInterval; limit: number }): AggregatePlan {
  const numeric = appFields(app).fields.filter(isAggregatable);
  let field: PodioAppField | undefined;
  if (o.aggregation === 'count') {
    if (o.field !== undefined) throw invalidParameter('field', 'no field with aggregation "count"', 'Parameter "field": "count" counts items and takes no field. To count the items that have a value, filter on the field; for a sum or an average pass aggregation "sum" or "average".');
  } else {
    const expected = `a number, money, progress, duration or calculation field of app ${app.app_id}`;
    if (o.field === undefined) throw invalidParameter('field', expected, `Parameter "field": aggregation "${o.aggregation}" needs the field to compute it over. Fields of app ${app.app_id}: ${listed(numeric)}.`);
    field = findKey(app, o.field);
    if (!field) throw invalidParameter('field', expected, `Parameter "field": ${show(o.field)} is not a field of app ${app.app_id} "${app.config.name}". Fields that can be aggregated: ${listed(numeric)}.`);
    if (!isAggregatable(field)) throw invalidParameter('field', expected, `Parameter "field": "${field.label}" is a ${field.type === 'calculation' ? `calculation returning ${String(settingsOf(field).return_type)}` : `${field.type} field`}, which cannot be ${o.aggregation === 'average' ? 'averaged' : 'summed'}. Fields that can be aggregated: ${listed(numeric)}.`);
  }
  let grouping: PodioCalculateBody['groupings'] = [];
  let group: AggregatePlan['group'];
  if (o.group_by !== undefined) {
    const key = String(o.group_by).trim();
    const byField = findKey(app, o.group_by);
    const groupable = appFields(app).fields.filter((f) => GROUPABLE.includes(f.type));
    if (!byField && (REVISION_GROUPS as readonly string[]).includes(key)) {
      const isDate = key === 'created_on';
      grouping = [{ type: 'revision', value: key, ...(isDate ? { sub_value: o.date_interval ?? 'month' } : {}) }];
      group = { key, label: key === 'created_on' ? 'created on' : 'created by', type: isDate ? 'date' : 'user', ...(isDate ? { interval: o.date_interval ?? 'month' } : {}) };
    } else {
      const expected = `a category, app relation, contact or date field, or ${REVISION_GROUPS.join(' / ')}`;
      if (!byField) throw invalidParameter('group_by', expected, `Parameter "group_by": ${show(o.group_by)} is not a field of app ${app.app_id} "${app.config.name}" nor ${REVISION_GROUPS.join(' or ')}. Fields to group by: ${listed(groupable)}.`);
      if (!GROUPABLE.includes(byField.type)) throw invalidParameter('group_by', expected, `Parameter "group_by": "${byField.label}" is a ${byField.type} field; Podio groups by category, app relation, contact and date fields. Fields to group by: ${listed(groupable)}.`);
      const isDate = byField.type === 'date';
      grouping = [{ type: 'field', value: byField.field_id, ...(isDate ? { sub_value: o.date_interval ?? 'month' } : {}) }];
      group = { key: byField.external_id, label: byField.label, type: byField.type, ...(isDate ? { interval: o.date_interval ?? 'month' } : {}) };
    }
  }
  if (o.date_interval !== undefined && group?.interval === undefined) {
    throw invalidParameter('date_interval', 'date_interval only with a date group_by', `Parameter "date_interval" buckets a date grouping; group_by ${group ? `"${group.label}" is a ${group.type}` : 'is not set'}. Drop date_interval, or group by a date field or created_on.`);
  }
  const body: AggregatePlan['body'] = {
    aggregation: o.aggregation,
    ...(field ? { formula: [{ type: 'field', value: field.field_id }] } : {}),
    ...(grouping.length ? { groupings: grouping } : {}),
    limit: o.limit,
  };
  return { body, field, group };
}

/** Podio gives totals as numbers or decimal strings. */
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : null);

export function toAggregateResult(appId: number, aggregation: Aggregation, plan: AggregatePlan, calc: PodioCalculation): AggregateResult {
  const f = plan.field;
  const currencies = f?.type === 'money' ? (Array.isArray(settingsOf(f).allowed_currencies) ? (settingsOf(f).allowed_currencies as string[]) : []) : [];
  return {
    app_id: appId,
    aggregation,
    ...(f ? { field: fieldKeyOf(f) } : {}),
    ...(currencies.length === 1 ? { currency: currencies[0] } : currencies.length > 1 ? { currencies } : {}),
    ...(plan.group ? { group_by: plan.group } : {}),
    total: num(calc.total),
    count: calc.count,
    groups: (calc.groups ?? []).map((g) => ({ value: g.value ?? null, label: typeof g.label === 'string' ? g.label : g.label === null || g.label === undefined ? null : String(g.label), total: num(g.total), count: g.count })),
  };
}

/** A total in the field's unit: money `1250.00 EUR`, duration `3h 20m`, progress `45%`, else the number. */
export function amountText(r: Pick<AggregateResult, 'aggregation' | 'field' | 'currency' | 'currencies'>, n: number | null): string {
  if (n === null) return '(no values)';
  if (r.aggregation === 'count' || !r.field) return n.toLocaleString('en-US');
  const round = (x: number) => String(Math.round(x * 10000) / 10000);
  switch (r.field.type) {
    case 'money':
      // Several currencies: the head's note says so once; the amounts stay bare numbers.
      return `${n.toFixed(2)}${r.currency ? ` ${r.currency}` : ''}`;
    case 'duration':
      return durationText(Math.round(n));
    case 'progress':
      return `${round(n)}%`;
    default:
      return round(n);
  }
}

const verb: Record<Aggregation, string> = { count: 'count', sum: 'sum', average: 'average', minimum: 'minimum', maximum: 'maximum' };

/** `sum of Amount over 27 items of app #8102: 1234500.00 EUR`, then one line per group. */
export function aggregateText(r: AggregateResult, o: { limit: number; filtered: boolean }): string {
  const over = `${plural(r.count, 'item')}${o.filtered ? ' matching the filters' : ''} of app #${r.app_id}`;
  const head = r.aggregation === 'count' ? `${over}` : `${verb[r.aggregation]} of ${r.field!.label} over ${over}: ${amountText(r, r.total)}`;
  const lines = [head];
  if (r.currencies) lines.push(`note: ${r.field!.label} allows ${r.currencies.join(', ')}; Podio adds the amounts as plain numbers whatever their currency`);
  if (r.group_by) {
    lines.push(`by ${r.group_by.label}${r.group_by.interval ? ` (per ${r.group_by.interval})` : ''}:`);
    for (const g of r.groups) {
      const name = g.label ?? (g.value === null ? '(no value)' : String(g.value));
      const key = g.value !== null && typeof g.value === 'number' && r.group_by.type !== 'date' ? ` #${g.value}` : '';
      lines.push(r.aggregation === 'count' ? `${name}${key}: ${plural(g.count, 'item')}` : `${name}${key}: ${amountText(r, g.total)} (${plural(g.count, 'item')})`);
    }
    lines.push(r.groups.length >= o.limit ? `showing the first ${plural(r.groups.length, 'group')} — pass a larger limit (up to 100) for more` : plural(r.groups.length, 'group'));
  }
  return lines.join('\n');
}
