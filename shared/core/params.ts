import * as z from 'zod';
import { numericId } from './ids';

/**
 * Input fragments every platform's tools share, so ids, page sizes and cursors read and validate
 * the same way everywhere. Each takes the words of its tool (what the id is, what a page holds).
 */

/** A positive integer id of a vendor resource (also as text, "123", or as printed, "#123"); `what` says which and where to find it. */
export const id = (what: string) => numericId(what);

/** A page size with its bounds and default: `What, 1-max (default n).` */
export function page(o: { default: number; max: number; what?: string }) {
  return z
    .number()
    .int()
    .min(1)
    .max(o.max)
    .default(o.default)
    .describe(`${o.what ?? 'Page size'}, 1-${o.max} (default ${o.default}).`);
}

/** The opaque cursor of the previous page; `how` overrides the description (e.g. "passed alone"). */
export const cursor = (how = 'The cursor of the previous page, to get the next one.') => z.string().min(1).optional().describe(how);

/** How many items to skip, for vendors that page by offset; `max` bounds it where the vendor does. */
export function offset(o: { max?: number } = {}) {
  const base = z.number().int().min(0);
  return (o.max !== undefined ? base.max(o.max) : base).default(0).describe(`Items to skip before the page starts (default 0${o.max !== undefined ? `, at most ${o.max}` : ''}).`);
}

/** Field keys a read keeps: field ids or external ids (the field engine resolves both); `what` says where they come from. */
export const fieldKeys = (what: string) =>
  z
    .array(z.union([z.number().int().positive(), z.string().min(1)]))
    .min(1)
    .optional()
    .describe(what);

/** Which kinds of fields a read keeps: all, basic (every field but calculations) or calculation. */
export const fieldKinds = (what: string) => z.enum(['all', 'basic', 'calculation']).default('all').describe(what);
