import * as z from 'zod';

/**
 * Ids as the answers print them. Text output writes an id as `#123`, JSON as a number, and a
 * model often copies a number back as a string: the tool that takes the id back accepts each of
 * these forms, so an agent can pass on what it read. One helper for every platform's id params,
 * and the JSON Schema says every accepted form (an integer, or a string of digits with an optional `#`).
 */

/** "#123" → "123" (spaces trimmed); anything else unchanged. */
export function unprinted(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const v = value.trim();
  return v.startsWith('#') ? v.slice(1).trim() : v;
}

/** A number, or a string of digits, or its printed form, as a string of digits. */
function toDigits(value: unknown): unknown {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return unprinted(value);
}

/**
 * What a numeric id's text form looks like: digits, optionally printed as `#123`, spaces around
 * ignored. Plain spaces only: the schema shows this pattern, and other white space (line breaks,
 * form feeds) is refused anyway as control characters (shared/core/validate.ts).
 */
export const ID_TEXT = /^ *#? *\d{1,16} *$/;
const ID_FORMS = 'a positive integer id: 123, "123" or "#123"';

/**
 * Anything but an integer or a string is refused here as "a number"/"an integer", as a plain number
 * schema would word it (is required, must be a number, got true): the union after it then only ever
 * sees values one of its branches judges, so its own errors (too small, not digits) come through.
 */
function numberOrText(value: unknown, ctx: z.core.$RefinementCtx): unknown {
  if (typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value))) return value;
  ctx.addIssue({ code: 'invalid_type', expected: typeof value === 'number' ? 'int' : 'number', input: value });
  return value;
}

/**
 * A positive integer id (dbapp, collab): 123, or as text "123", or as printed "#123"; always the
 * number afterwards. Anything else is INVALID_PARAMETER naming the parameter and these forms.
 */
export const numericId = (what?: string) => {
  const s = z.preprocess(
    numberOrText,
    z
      .union([z.number().int().positive(), z.string().regex(ID_TEXT, ID_FORMS)])
      .transform((v) => (typeof v === 'number' ? v : Number(unprinted(v))))
      .pipe(z.number().int().positive()),
  );
  return what === undefined ? s : s.describe(what);
};

/**
 * An id the vendor writes as a string of digits (HubSpot): also taken as a number or as "#123".
 * Its JSON Schema says both types (string or integer), so a host or fuzzer reads what is accepted.
 */
export const digitsId = (what: string, expected: string) =>
  z.union([z.number().int(), z.string()]).transform((v) => toDigits(v) as string).pipe(z.string().regex(/^\d+$/, expected)).describe(what);

/** A string id a text answer prints as `#<id>` (BatchData's property _id): the `#` is dropped. */
export const printedId = <S extends z.ZodType>(schema: S) => z.preprocess(unprinted, schema);
