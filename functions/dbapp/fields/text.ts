import * as engine from '../../../shared/fields/engine';
import { listFooter } from '../../../shared/core/render';
import type { AppRecord, RecordFieldValue } from './output';
import { TAPE_FIELDS } from './table';

/**
 * Compact text of records (docs/architecture.md#text-output): ids first, `Label: value` pairs, empty fields left out,
 * values short (option texts, dates without a midnight time, relation titles with #ids, addresses
 * with their type only when not "work") — each value's text is its type's `text` in Tape's table.
 * `verbose` adds field ids, external ids and types, user and file ids, link titles, and the
 * record's metadata in lists.
 */

import { shortDate } from '../../../shared/core/format';

export { plainText, shortDate } from '../../../shared/core/format';

/** `list`: list lines cut texts over 500 characters and leave checklist item ids out (unless verbose). */
export type TextOptions = engine.TextOptions;

/** The text of one field value (already in the spec's shape). */
export const valueText = (f: Pick<RecordFieldValue, 'type' | 'value'>, o: TextOptions = {}): string => engine.valueText(TAPE_FIELDS, f, o);

/** `Label: text` for each field with a text; a number with a unit reads as Tape shows it (`12,000.00 €`). */
function pairs(fields: readonly RecordFieldValue[], o: TextOptions): string[] {
  return fields.flatMap((f) => {
    const text = f.display ?? valueText(f, o);
    return text === '' ? [] : [`${label(f, o)}: ${text}`];
  });
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
  parts.push(...pairs(shownFields(r, opts), opts));
  return parts.join(' · ');
}

/** One record on two lines: ids, title, metadata and link; then every field as `Label: value`, texts whole, checklist item ids shown. */
export function recordText(r: AppRecord, o: TextOptions = {}): string {
  const opts = { ...o, list: false };
  const head = `#${r.record_id} ${r.title || '(untitled)'} (${meta(r)}) ${r.record_url}`;
  const shown = pairs(r.fields, opts);
  return `${head}\n${shown.length ? shown.join(' · ') : '(no field values)'}`;
}

/** `https://tapeapp.com/tape/record/<record_id>`: the link pattern, told once under a list. */
export function linkPattern(records: readonly AppRecord[]): string | undefined {
  const r = records[0];
  return r ? r.record_url.replace(/\/\d+$/, '/<record_id>') : undefined;
}

/** Lines of a page of records, then `showing N of TOTAL — pass cursor "…"` or the count. */
export function recordListText(page: { records: AppRecord[]; total: number; cursor?: string | null }, o: TextOptions = {}, noun = 'record'): string {
  const lines = page.records.map((r) => recordLine(r, o));
  const count = listFooter({ shown: page.records.length, total: page.total, noun, ...(page.cursor ? { next: { param: 'cursor', value: page.cursor } } : {}) });
  const link = linkPattern(page.records);
  return [...lines, link && !o.verbose ? `${count} · open one at ${link}` : count].join('\n');
}

