/** Text helpers every platform's compact output uses. */

// HTML → plain text and short dates live with the field formatting that uses them most.
export { plainText, shortDate } from './format';

const count = (n: number) => n.toLocaleString('en-US');

/** `1 record`, `1,240 records`; `many` for irregular plurals. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${count(n)} ${n === 1 ? one : many}`;
}

/** 512 → "512 B", 12_600 → "12.3 KB", 3_500_000 → "3.3 MB". */
export function byteSize(n: number): string {
  if (n < 1024) return `${n} B`;
  const [value, unit] = n < 1024 * 1024 ? [n / 1024, 'KB'] : [n / (1024 * 1024), 'MB'];
  return `${Math.round(value * 10) / 10} ${unit}`;
}

export interface ListFooter {
  /** Items on this page. */
  shown: number;
  /** Items in the whole listing, when the vendor says. */
  total?: number;
  /** What an item is, singular ("record"); `nouns` for an irregular plural. */
  noun: string;
  nouns?: string;
  /** Say the noun after the total too (`showing 2 of 9 automations`). */
  nounAfterTotal?: boolean;
  /** How to get the next page, when there is one: the parameter, its value, and what else to pass ("with app_id 87", "alone"). */
  next?: { param: string; value: string | number; also?: string };
  /** The line for an empty page, e.g. `no comments on record #5300`. */
  empty?: string;
}

/**
 * The one footer under a listing:
 * - more to come: `showing 50 of 1,240 — pass cursor "…" for the next page` (or `pass offset 50`);
 * - an empty page: `no records` (with the total when the listing has some);
 * - the last of several pages: `showing 80 of 180 (last page)`;
 * - everything on one page: `12 records`.
 */
export function listFooter(f: ListFooter): string {
  const many = f.nouns ?? `${f.noun}s`;
  const of = f.total !== undefined ? ` of ${count(f.total)}${f.nounAfterTotal ? ` ${f.total === 1 ? f.noun : many}` : ''}` : '';
  if (f.next) {
    const value = typeof f.next.value === 'string' ? JSON.stringify(f.next.value) : String(f.next.value);
    return `showing ${count(f.shown)}${of} — pass ${f.next.param} ${value}${f.next.also ? ` ${f.next.also}` : ''} for the next page`;
  }
  if (f.shown === 0) return f.empty ?? `no ${many}${f.total ? ` on this page (total ${count(f.total)})` : ''}`;
  if (f.total !== undefined && f.shown < f.total) return `showing ${count(f.shown)}${of} (last page)`;
  return plural(f.shown, f.noun, many);
}
