import { byteSize, plural } from '../render';
import type { AppRecord, ChecklistItem, DateValue, RecordFieldValue, UserValue } from './output';

/**
 * Compact text of records (DESIGN §7): ids first, `Label: value` pairs, empty fields left out,
 * values short (option texts, dates without a midnight time, relation titles with #ids, addresses
 * with their type only when not "work"). `verbose` adds field ids, external ids and types, user and
 * file ids, link titles, and the record's metadata in lists.
 */

export interface TextOptions {
  verbose?: boolean;
  /** List lines: texts over 500 characters are cut and checklist item ids left out (unless verbose). */
  list?: boolean;
}

/** List lines cut texts longer than this (getRecord shows them whole). */
const LIST_TEXT_MAX = 500;

/** Plain text of Tape's HTML (multi_text, calculations). */
export function plainText(html: string): string {
  return html
    .replace(/<br\s*\/?>|<\/(p|div|li|h\d)>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/** "2025-03-01 00:00:00" → "2025-03-01"; "2025-03-01 14:30:00" → "2025-03-01 14:30". */
export function shortDate(s: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})(:\d{2})?/.exec(s);
  if (!m) return s;
  if (m[2] === '00:00' && (m[3] ?? ':00') === ':00') return m[1]!;
  return m[3] && m[3] !== ':00' ? `${m[1]} ${m[2]}${m[3]}` : `${m[1]} ${m[2]}`;
}

const cut = (s: string, o: TextOptions) => (o.list && !o.verbose && s.length > LIST_TEXT_MAX ? `${s.slice(0, LIST_TEXT_MAX)}… (${s.length.toLocaleString('en-US')} chars, getRecord shows all)` : s);
const userText = (u: UserValue, o: TextOptions) => (o.verbose ? `${u.name} #${u.user_id}` : u.name);

function checklistText(items: ChecklistItem[], o: TextOptions): string {
  return items
    .map((c) => {
      const extra = [c.due ? `due ${c.due}` : '', c.assignee ? userText(c.assignee, o) : '', c.description ? `"${c.description}"` : ''].filter(Boolean);
      const id = !o.list || o.verbose ? `#${c.id} ` : '';
      return `${c.completed ? '[x]' : '[ ]'} ${id}${c.title}${extra.length ? ` (${extra.join(', ')})` : ''}`;
    })
    .join('; ');
}

/** The text of one field value (already in the spec's shape). */
export function valueText(f: Pick<RecordFieldValue, 'type' | 'value'>, o: TextOptions = {}): string {
  const v = f.value;
  switch (f.type) {
    case 'single_text':
      return cut(String(v), o);
    case 'multi_text':
    case 'calculation':
      return cut(typeof v === 'string' ? plainText(v) : String(v), o);
    case 'single_category':
    case 'multi_category':
    case 'status':
      return (v as { id: number; text: string }[]).map((c) => (o.verbose ? `${c.text} (${c.id})` : c.text)).join(', ');
    case 'single_date':
    case 'range_date':
    case 'created_on':
    case 'last_modified_on':
    case 'created_at':
    case 'last_modified_at': {
      const d = v as DateValue;
      return d.end ? `${shortDate(d.start)} → ${shortDate(d.end)}` : shortDate(d.start);
    }
    case 'single_relation':
    case 'multi_relation':
      return (v as { record_id: number; title: string }[]).map((r) => `${r.title} #${r.record_id}`).join(', ');
    case 'single_user':
    case 'multi_user':
    case 'created_by':
    case 'last_modified_by':
      return (v as UserValue[]).map((u) => userText(u, o)).join(', ');
    case 'multi_email':
    case 'multi_phone':
      return (v as { type: string; value: string }[]).map((e) => (e.type === 'work' ? e.value : `${e.value} (${e.type})`)).join(', ');
    case 'multi_link':
      return (v as { url: string; title?: string }[]).map((l) => (o.verbose && l.title ? `${l.url} "${l.title}"` : l.url)).join(', ');
    case 'single_attachment':
    case 'multi_attachment':
    case 'multi_image':
      return (v as { file_id: number; name: string; size: number }[]).map((a) => (o.verbose ? `${a.name} #${a.file_id} (${byteSize(a.size)})` : a.name)).join(', ');
    case 'checklist':
      return checklistText(v as ChecklistItem[], o);
    default:
      if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return cut(String(v), o);
      return cut(JSON.stringify(v), o);
  }
}

function label(f: RecordFieldValue, o: TextOptions): string {
  return o.verbose ? `${f.label} [#${f.field_id} ${f.external_id} ${f.type}]` : f.label;
}

/** The fields worth a `Label: value` pair; without verbose, the field that only repeats the title is left out. */
function shownFields(r: AppRecord, o: TextOptions): RecordFieldValue[] {
  if (o.verbose || !o.list) return r.fields;
  const dup = r.fields.findIndex((f) => (f.type === 'single_text' || f.type === 'multi_text') && valueText(f, o) === r.title);
  return dup < 0 ? r.fields : r.fields.filter((_, i) => i !== dup);
}

/** Metadata after the ids: app, number in the app, creation. */
function meta(r: AppRecord): string {
  const made = [`created ${shortDate(r.created_on)}`, r.created_by ? `by ${r.created_by.name}` : ''].filter(Boolean).join(' ');
  return `app #${r.app_id}${r.app_record_id !== undefined ? `, no. ${r.app_record_id}` : ''} · ${made}`;
}

/** One line per record: `#5001 Title · Label: value · …` (verbose adds metadata and the link). */
export function recordLine(r: AppRecord, o: TextOptions = {}): string {
  const opts = { ...o, list: true };
  const parts = [`#${r.record_id} ${r.title || '(untitled)'}`];
  if (o.verbose) parts.push(meta(r), r.record_url);
  for (const f of shownFields(r, opts)) parts.push(`${label(f, opts)}: ${valueText(f, opts)}`);
  return parts.join(' · ');
}

/** One record on two lines: ids, title, metadata and link; then every field as `Label: value`, texts whole, checklist item ids shown. */
export function recordText(r: AppRecord, o: TextOptions = {}): string {
  const opts = { ...o, list: false };
  const head = `#${r.record_id} ${r.title || '(untitled)'} (${meta(r)}) ${r.record_url}`;
  const pairs = r.fields.map((f) => `${label(f, opts)}: ${valueText(f, opts)}`);
  return `${head}\n${pairs.length ? pairs.join(' · ') : '(no field values)'}`;
}

/** `https://tapeapp.com/tape/record/<record_id>`: the link pattern, told once under a list. */
export function linkPattern(records: readonly AppRecord[]): string | undefined {
  const r = records[0];
  return r ? r.record_url.replace(/\/\d+$/, '/<record_id>') : undefined;
}

/** Lines of a page of records, then `showing N of TOTAL — pass cursor "…"` or the count. */
export function recordListText(page: { records: AppRecord[]; total: number; cursor?: string | null }, o: TextOptions = {}, noun = 'record'): string {
  const lines = page.records.map((r) => recordLine(r, o));
  const count =
    page.cursor
      ? `showing ${page.records.length.toLocaleString('en-US')} of ${page.total.toLocaleString('en-US')} — pass cursor "${page.cursor}" for the next page`
      : page.records.length === 0
        ? `no ${noun}s${page.total > 0 ? ` on this page (total ${page.total.toLocaleString('en-US')})` : ''}`
        : page.records.length < page.total
          ? `showing ${page.records.length.toLocaleString('en-US')} of ${page.total.toLocaleString('en-US')} (last page)`
          : plural(page.records.length, noun);
  const link = linkPattern(page.records);
  return [...lines, link && !o.verbose ? `${count} · open one at ${link}` : count].join('\n');
}

