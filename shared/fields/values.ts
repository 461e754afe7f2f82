/** Value checks more than one platform's field table uses (dates, options by id or text, email and phone). */

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/** A real `YYYY-MM-DD HH:MM:SS`. */
export function isDateTime(s: string): boolean {
  const m = DATE_TIME.exec(s);
  if (!m) return false;
  // Each part read by itself: no array of numbers for every date of every record.
  const y = Number(m[1]), mo = Number(m[2]), d = Number(m[3]), h = Number(m[4]), mi = Number(m[5]), sec = Number(m[6]);
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCMonth() === mo - 1 && date.getUTCDate() === d && h < 24 && mi < 60 && sec < 60;
}

/** A real `YYYY-MM-DD`. */
export const isDate = (s: string): boolean => /^\d{4}-\d{2}-\d{2}$/.test(s) && isDateTime(`${s} 00:00:00`);

/** The `YYYY-MM-DD HH:MM:SS` an agent meant by a date-ish string ("2025-03-01" → "2025-03-01 00:00:00"), if any. */
export function fixedDateTime(raw: string): string | undefined {
  const m = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2})(?::(\d{2}))?)?/.exec(raw.trim());
  if (!m) return undefined;
  const fixed = `${m[1]} ${m[2] ?? '00:00'}:${m[3] ?? '00'}`;
  return isDateTime(fixed) ? fixed : undefined;
}

/** An email address, loosely: something@domain.tld. */
export const EMAIL_PATTERN = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
/** A phone number: digits, spaces and + ( ) . / -. */
export const PHONE_PATTERN = /^[+()\d\s./-]{3,}$/;

export interface Option { id: number; text: string }

/** `1 "Open", 2 "Done"`: the options of a category, for messages. */
export const optionList = (opts: readonly Option[]) => (opts.length ? opts.map((o) => `${o.id} "${o.text}"`).join(', ') : '(none)');

/**
 * An option given by id or by text (exact, else case-insensitive) → its id; `refuse(problem)` throws
 * for an unknown id or text, an ambiguous text or a value of another kind.
 */
export function optionId(opts: readonly Option[], item: unknown, label: string, refuse: (problem: string) => never, listUnknown = false): number {
  const known = listUnknown ? ` Options: ${optionList(opts)}.` : '';
  if (typeof item === 'number') {
    if (opts.some((o) => o.id === item)) return item;
    return refuse(`${item} is not an option id of "${label}".${known}`);
  }
  if (typeof item === 'string') {
    const exact = opts.filter((o) => o.text === item);
    const hits = exact.length ? exact : opts.filter((o) => o.text.trim().toLowerCase() === item.trim().toLowerCase());
    if (hits.length === 1) return hits[0]!.id;
    if (hits.length > 1) return refuse(`"${item}" names ${hits.length} options of "${label}" (ids ${hits.map((h) => h.id).join(', ')}); pass the id.`);
    return refuse(`"${item}" is not an option of "${label}".${known}`);
  }
  return refuse(`options are given by id (number) or text (string), got ${JSON.stringify(item) ?? String(item)}.`);
}
