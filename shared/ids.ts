import * as z from 'zod';

/**
 * Ids as the answers print them. Text output writes an id as `#123` (and a JSON number may come
 * back as a string from a model that copied it): the tool that takes the id back accepts it in
 * that form, so an agent can pass on what it read. One helper for every platform's id params.
 * The JSON Schema still shows the id's own type; the printed forms are a tolerance, not a second type.
 */

/** "#123" → "123" (spaces trimmed); anything else unchanged. */
export function unprinted(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const v = value.trim();
  return v.startsWith('#') ? v.slice(1).trim() : v;
}

/**
 * The printed form "#123" as the number 123; anything else unchanged (the schema then judges it).
 * A bare "123" stays a string and is refused: a JSON answer gives the id as a number, a text answer
 * as #123, so a quoted number is more likely a slip (an id of another kind) than a copied id.
 */
function toNumber(value: unknown): unknown {
  if (typeof value !== 'string' || !value.trim().startsWith('#')) return value;
  const v = unprinted(value) as string;
  if (!/^\d{1,16}$/.test(v)) return value;
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : value;
}

/** A number, or a string of digits, or its printed form, as a string of digits. */
function toDigits(value: unknown): unknown {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return unprinted(value);
}

/** A positive integer id (dbapp, collab): also taken as printed, "#123". */
export const numericId = (what?: string) => {
  const s = z.preprocess(toNumber, z.number().int().positive());
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
