/**
 * getTasks' filters (docs/spec.md#collab-task) checked and turned into Podio's `GET /task/` query (NET GetTasks).
 * Every value is checked before the call, each error naming its parameter: id lists, date ranges
 * `YYYY-MM-DD-YYYY-MM-DD` (real dates, from ≤ to; an end may be left open, one day may stand alone),
 * references `type:id;type:id`.
 */
import { invalidParameter } from '../../../shared/core/errors';
import type { PodioTaskQuery } from '../wire';
import { DATE, realDate } from './inputs';

export interface TaskFilters {
  completed?: boolean;
  responsible?: string;
  due_date?: string;
  created_on?: string;
  completed_on?: string;
  created_by?: string;
  completed_by?: string;
  created_via?: string;
  label?: number;
  space?: string;
  org?: string;
  app?: string;
  reference?: string;
  external_id?: string;
  files?: boolean;
  reassigned?: boolean;
}

const REF_TYPES = ['item', 'status', 'app', 'space', 'conversation', 'task'];

/** `1001, 1002` (or `user:1001` for who-filters) → `1001,1002`. */
function idList(param: string, raw: string, userPrefix = false): string {
  const parts = raw.split(',').map((p) => p.trim());
  const ok = parts.every((p) => (userPrefix ? /^(user:)?\d+$/ : /^\d+$/).test(p));
  if (!ok || !parts.length) {
    throw invalidParameter(param, 'ids separated by commas, e.g. "1001,1002"', `Parameter "${param}": ${JSON.stringify(raw)} is not a comma-separated list of numeric ids${userPrefix ? ' (user ids)' : ''}.`);
  }
  return parts.map((p) => p.replace(/^user:/, '')).join(',');
}

const RANGE = /^(\d{4}-\d\d-\d\d)?-(\d{4}-\d\d-\d\d)?$/;

/** `YYYY-MM-DD-YYYY-MM-DD`, `YYYY-MM-DD-` (from), `-YYYY-MM-DD` (until) or `YYYY-MM-DD` (that day). */
export function dateRange(param: string, raw: string): string {
  const value = raw.trim();
  const fail = (why: string) => invalidParameter(param, 'a date range "YYYY-MM-DD-YYYY-MM-DD" (an end may be left open)', `Parameter "${param}": ${JSON.stringify(raw)} ${why}. Example: "2026-01-01-2026-01-31".`);
  if (DATE.test(value)) {
    if (!realDate(value)) throw fail('is not a real date');
    return `${value}-${value}`;
  }
  const m = RANGE.exec(value);
  if (!m || (!m[1] && !m[2])) throw fail('is not a date range');
  for (const d of [m[1], m[2]]) if (d && !realDate(d)) throw fail(`has ${d}, which is not a real date`);
  if (m[1] && m[2] && m[1] > m[2]) throw fail('ends before it starts');
  return value;
}

function references(raw: string): string {
  const parts = raw.split(';').map((p) => p.trim()).filter((p) => p !== '');
  for (const p of parts) {
    const m = /^([a-z_]+):(\d+)$/.exec(p);
    if (!m || !REF_TYPES.includes(m[1]!)) {
      throw invalidParameter('reference', `"type:id" pairs separated by ";" with type one of ${REF_TYPES.join(', ')}`, `Parameter "reference": ${JSON.stringify(p)} is not "type:id" (e.g. "item:30061;item:30062").`);
    }
  }
  if (!parts.length) throw invalidParameter('reference', '"type:id" pairs separated by ";"', 'Parameter "reference" is empty; e.g. "item:30061".');
  return parts.join(';');
}

/** Filters that say whose or where: without any, the list is the key's own tasks. */
const SCOPING: (keyof TaskFilters)[] = ['responsible', 'created_by', 'completed_by', 'reference', 'app', 'space', 'org', 'reassigned'];

export const isScoped = (f: TaskFilters): boolean => SCOPING.some((k) => f[k] !== undefined);

/** The checked query; `me` fills `responsible` when nothing else scopes the list. */
export function taskQuery(f: TaskFilters, me: number): PodioTaskQuery {
  const q: PodioTaskQuery = {};
  if (f.completed !== undefined) q.completed = f.completed;
  q.responsible = f.responsible !== undefined ? idList('responsible', f.responsible) : isScoped(f) ? undefined : String(me);
  for (const k of ['created_by', 'completed_by'] as const) if (f[k] !== undefined) q[k] = idList(k, f[k], true);
  for (const k of ['space', 'org', 'app', 'created_via'] as const) if (f[k] !== undefined) q[k] = idList(k, f[k]);
  for (const k of ['due_date', 'created_on', 'completed_on'] as const) if (f[k] !== undefined) q[k] = dateRange(k, f[k]);
  if (f.reference !== undefined) q.reference = references(f.reference);
  if (f.label !== undefined) q.label = f.label;
  if (f.external_id !== undefined) q.external_id = f.external_id;
  if (f.files !== undefined) q.files = f.files;
  if (f.reassigned !== undefined) q.reassigned = f.reassigned;
  return q;
}
