import { plural } from '../../../shared/core/render';
import type { TapeView, TapeViewFilter, TapeViewPreview, TapeViewSplitBy } from '../wire';

/** View preview as the spec (docs/spec.md#dbapp-view getAppViews) shapes it. */
export interface ViewPreview {
  id: number;
  view_id: number;
  name: string | null;
  app_id: number;
  is_default: boolean;
  layout: TapeViewPreview['layout'];
  private: boolean;
}

/** Full view as the spec (docs/spec.md#dbapp-view) shapes it: the preview plus sort, filters, field settings and split_by. */
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
