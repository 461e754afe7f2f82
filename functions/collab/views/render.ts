import { plural } from '../../../shared/core/render';
import { durationText } from '../fields/types/number';
import { settingsOf } from '../fields/types/common';
import { person, type Person } from '../render';
import type { PodioApp, PodioView, PodioViewFieldSettings } from '../wire';
import { RELATIVE_DATE } from './filters';

/** Views as the spec shapes them (docs/spec.md#collab-view), each filter with its field's label and type, and their text: filters in words. */

export interface ViewFilter {
  key: string;
  /** The field's label, or the system key's name (Created by, Created, Tags…). */
  label: string;
  /** The field's type, or the system key. */
  type: string;
  values: unknown;
  humanized_values: { value: unknown; label: string }[];
}

export interface View {
  view_id: number | null;
  name: string | null;
  /** saved, standard (table, badge, calendar) or last. */
  type: string;
  layout: string;
  private: boolean;
  sort_by: string | null;
  sort_label?: string;
  sort_desc: boolean;
  filters: ViewFilter[];
  fields: Record<string, PodioViewFieldSettings & { label?: string }>;
  grouping: { type: string; value: string | number; sub_value?: string; label?: string } | null;
  items: number | null;
  rights: string[];
  created_by?: Person;
  created_on?: string;
}

const SYSTEM_LABELS: Record<string, string> = { created_by: 'Created by', last_edit_by: 'Last edited by', created_on: 'Created', last_edit_on: 'Last edited', tags: 'Tags' };
const SORT_LABELS: Record<string, string> = { ...SYSTEM_LABELS, app_item_id: 'Item number', item_id: 'Item id', activity: 'Activity', priority: 'Priority', title: 'Title' };

export function toView(v: PodioView, app: PodioApp): View {
  const fieldOf = (key: string | number) => app.fields.find((f) => String(f.field_id) === String(key));
  const labelOf = (key: string | number) => SYSTEM_LABELS[String(key)] ?? fieldOf(key)?.label ?? `field ${key}`;
  const typeOf = (key: string | number) => {
    const f = fieldOf(key);
    if (!f) return String(key);
    // A calculation filters as what it returns.
    return f.type === 'calculation' && settingsOf(f).return_type === 'date' ? 'date' : f.type;
  };
  const sortBy = v.sort_by === undefined || v.sort_by === null ? null : String(v.sort_by);
  const g = v.grouping && v.grouping.type && v.grouping.value !== undefined ? v.grouping : null;
  const out: View = {
    view_id: v.view_id,
    name: v.name,
    type: v.type ?? 'saved',
    layout: v.layout ?? 'table',
    private: v.private === true,
    sort_by: sortBy,
    ...(sortBy ? { sort_label: SORT_LABELS[sortBy] ?? fieldOf(sortBy)?.label ?? sortBy } : {}),
    sort_desc: v.sort_desc === true,
    filters: (v.filters ?? []).map((f) => ({ key: String(f.key), label: labelOf(f.key), type: typeOf(f.key), values: f.values, humanized_values: f.humanized_values ?? [] })),
    fields: Object.fromEntries(Object.entries(v.fields ?? {}).map(([k, s]) => [k, { ...s, ...(fieldOf(k) ? { label: fieldOf(k)!.label } : {}) }])),
    grouping: g ? { type: g.type!, value: g.value!, ...(g.sub_value ? { sub_value: g.sub_value } : {}), label: g.type === 'field' ? labelOf(g.value!) : (SYSTEM_LABELS[String(g.value)] ?? String(g.value)) } : null,
    items: typeof v.items === 'number' ? v.items : null,
    rights: v.rights ?? [],
  };
  if (v.created_by) out.created_by = person(v.created_by);
  if (typeof v.created_on === 'string') out.created_on = v.created_on;
  return out;
}

// --- filters in words ---

const UNITS: Record<string, [string, string]> = { d: ['day', 'days'], w: ['week', 'weeks'], m: ['month', 'months'], y: ['year', 'years'] };

function parseRelative(token: string) {
  if (!RELATIVE_DATE.test(token)) return undefined;
  const n = Number(token.slice(1, token.search(/[dwmy]/))) * (token[0] === '-' ? -1 : 1);
  return { n, unit: token.match(/[dwmy]/)![0], round: token.endsWith('r') };
}

/** One bound: `today`, `7 days ago`, `in 2 weeks`, `start of last month`, or the date as given. */
function dateWords(token: string, end: boolean): string {
  const r = parseRelative(token);
  if (!r) return token;
  const [one, many] = UNITS[r.unit]!;
  if (r.round && r.unit !== 'd') {
    const which = r.n === 0 ? `this ${one}` : r.n === -1 ? `last ${one}` : r.n === 1 ? `next ${one}` : r.n < 0 ? `the ${one} ${-r.n} ${many} ago` : `the ${one} in ${r.n} ${many}`;
    return `${end ? 'end' : 'start'} of ${which}`;
  }
  if (r.n === 0) return r.unit === 'd' ? 'today' : 'now';
  if (r.unit === 'd' && r.n === -1) return 'yesterday';
  if (r.unit === 'd' && r.n === 1) return 'tomorrow';
  const span = `${Math.abs(r.n)} ${Math.abs(r.n) === 1 ? one : many}`;
  return r.n < 0 ? `${span} ago` : `in ${span}`;
}

/** A date range in words: `within next 7 days`, `last month`, `from 2025-01-01 to 2025-01-31`, `on or after 3 days ago`. */
export function dateRangeWords(range: { from?: string; to?: string }): string {
  const { from, to } = range;
  if (from && to) {
    const a = parseRelative(from);
    const b = parseRelative(to);
    if (a && b && from === to && a.round && a.unit !== 'd') return dateWords(from, false).replace(/^start of /, '');
    if (a && b && !a.round && !b.round) {
      // Spans that start or end now: "within next 7 days", "within last 2 weeks".
      const count = (r: { n: number; unit: string }) => (Math.abs(r.n) === 1 ? UNITS[r.unit]![0] : `${Math.abs(r.n)} ${UNITS[r.unit]![1]}`);
      if (a.n === 0 && b.n === 0) return 'today';
      if (a.n === 0 && b.n > 0) return `within next ${count(b)}`;
      if (b.n === 0 && a.n < 0) return `within last ${count(a)}`;
    }
    if (from === to) return `on ${dateWords(from, false)}`;
    return `from ${dateWords(from, false)} to ${dateWords(to, true)}`;
  }
  if (from) return `on or after ${dateWords(from, false)}`;
  return `on or before ${dateWords(to ?? '', true)}`;
}

function rangeWords(range: { from?: number; to?: number }, show: (n: number) => string): string {
  if (range.from !== undefined && range.to !== undefined) return `between ${show(range.from)} and ${show(range.to)}`;
  if (range.from !== undefined) return `at least ${show(range.from)}`;
  return `at most ${show(range.to ?? 0)}`;
}

const orList = (parts: string[]) => (parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} or ${parts[parts.length - 1]}`);

/** One filter in words: `Status is Open`, `Due within next 7 days`, `Amount at least 1000`, `Created by Me`, `Tagged priority`. */
export function filterWords(f: ViewFilter): string {
  const v = f.values as Record<string, unknown> | unknown[] | null;
  if (f.type === 'date' || f.type === 'created_on' || f.type === 'last_edit_on') return `${f.label} ${dateRangeWords((v ?? {}) as { from?: string; to?: string })}`;
  if (['number', 'money', 'progress', 'duration', 'calculation'].includes(f.type) && v && !Array.isArray(v)) {
    const show = f.type === 'progress' ? (n: number) => `${n}%` : f.type === 'duration' ? durationText : String;
    return `${f.label} ${rangeWords(v as { from?: number; to?: number }, show)}`;
  }
  const list = Array.isArray(v) ? v : [v];
  const human = (x: unknown) => f.humanized_values.find((h) => JSON.stringify(h.value) === JSON.stringify(x))?.label;
  const words = list.map((x) => {
    if (x === null) return 'no value';
    const known = human(x);
    if (known) return known;
    if (f.type === 'created_by' || f.type === 'last_edit_by') {
      const id = typeof x === 'object' && x !== null ? (x as { id?: unknown }).id : x;
      return id === 0 ? 'Me' : `user ${String(id)}`;
    }
    if (f.type === 'tags') return String(x);
    return `#${typeof x === 'object' ? JSON.stringify(x) : String(x)}`;
  });
  if (f.type === 'tags') return `Tagged ${orList(words)}`;
  if (f.type === 'created_by' || f.type === 'last_edit_by') return `${f.label} ${orList(words)}`;
  return `${f.label} is ${orList(words)}`;
}

const viewName = (v: View) => (v.type === 'last' ? 'your last view' : (v.name ?? '(unnamed)'));
const viewId = (v: View) => (v.view_id === null ? '' : `#${v.view_id} `);
const sortWords = (v: View) => (v.sort_by ? `sort ${v.sort_label ?? v.sort_by} ${v.sort_desc ? 'desc' : 'asc'}` : '');

/** One line: id, name, layout, item count, private, the filters in words, the sort. */
export function viewLine(v: View): string {
  // A standard view is named after its layout.
  const parts = v.type === 'standard' ? [`${viewId(v)}standard ${v.layout} view`] : [`${viewId(v)}${viewName(v)}`, v.layout];
  if (v.items !== null) parts.push(plural(v.items, 'item'));
  if (v.private && v.type !== 'last') parts.push('private');
  if (v.filters.length) parts.push(v.filters.map(filterWords).join(', '));
  const sort = sortWords(v);
  if (sort) parts.push(sort);
  return parts.join(' · ');
}

/** The full view: the line, then field display settings and grouping; who made it. */
export function viewText(v: View): string {
  const lines = [viewLine(v)];
  if (v.grouping) lines.push(`grouped by ${v.grouping.label ?? v.grouping.value}${v.grouping.sub_value ? ` (${v.grouping.sub_value})` : ''}`);
  const settings = Object.entries(v.fields).map(([id, s]) => {
    const bits = [s.hidden ? 'hidden' : '', s.width !== undefined ? `width ${s.width}` : '', s.delta_offset ? `moved ${s.delta_offset}` : '', s.use ? `on ${s.use.replace(/_/g, ' ').trim()}` : ''].filter(Boolean);
    return bits.length ? `${s.label ?? `#${id}`} ${bits.join(' ')}` : '';
  }).filter(Boolean);
  if (settings.length) lines.push(`fields: ${settings.join('; ')}`);
  if (v.created_by) lines.push(`by ${v.created_by.name}${v.created_on ? ` on ${v.created_on}` : ''}`);
  return lines.join('\n');
}
