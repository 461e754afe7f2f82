import * as z from 'zod';
import { invalidParameter } from '../../shared/core/errors';
import type { ToolContext } from '../../shared/core/tool';
import type { ShareFileClient } from './client';
import { filterProperties, ODataSyntaxError, parseFilter, parseOrderBy } from './items/odata';

/** Input fragments the filebox tools share (docs/spec.md#filebox-item, #filebox-sharefile). */

export type Ctx = ToolContext<ShareFileClient>;

/** ShareFile's aliases for the top-level containers (docs/spec.md#filebox-item), accepted wherever an item or folder id goes. */
export const ALIASES = ['home', 'allshared', 'favorites', 'top', 'box', 'connectors'] as const;
const ALIAS_SET = new Set<string>(ALIASES);

/** ShareFile item ids are typed by their first letters: `fo…` folders, `fi…` files. */
const FOLDER_ID = /^fo[0-9a-z-]{4,62}$/i;
const FILE_ID = /^fi[0-9a-z-]{4,62}$/i;
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const GROUP_ID = /^g[0-9a-z-]{8,40}$/i;
const SHARE_ID = /^s[0-9a-z-]{8,40}$/i;

export const isAlias = (v: string) => ALIAS_SET.has(v.toLowerCase());

const ISO_DATE = /^\d{4}-\d\d-\d\d$/;
const ISO_DATE_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)$/i;

/** An ISO 8601 date (`2026-12-31`, meaning 00:00 UTC of that day) or date-time with its offset, as ShareFile's UTC date-time; undefined when invalid. */
export function isoExpiry(v: string): string | undefined {
  const text = ISO_DATE.test(v) ? `${v}T00:00:00Z` : ISO_DATE_TIME.test(v) ? v : undefined;
  if (!text) return undefined;
  const ms = Date.parse(text);
  const day = Date.parse(`${text.slice(0, 10)}T00:00:00Z`);
  // Date.parse rolls 2026-02-30 over to March: a date that is not on the calendar is refused.
  if (!Number.isFinite(ms) || !Number.isFinite(day) || new Date(day).toISOString().slice(0, 10) !== text.slice(0, 10)) return undefined;
  return new Date(ms).toISOString();
}

/** An expiry: an ISO 8601 date or date-time (updateItem, updateShare). */
export const expirationDateInput = (what: string) =>
  z
    .string()
    .trim()
    .refine((v) => isoExpiry(v) !== undefined, { message: 'an ISO 8601 date such as 2026-12-31 or date-time such as 2026-12-31T17:00:00Z' })
    .describe(`${what} An ISO 8601 date (2026-12-31: 00:00 UTC of that day) or date-time with its offset (2026-12-31T17:00:00Z, 2026-12-31T17:00:00+02:00).`);
const aliasText = ALIASES.join(', ');

/** Any item: a folder id, a file id or an alias. */
export const itemIdInput = (what: string) =>
  z
    .string()
    .trim()
    .refine((v) => FOLDER_ID.test(v) || FILE_ID.test(v) || isAlias(v), { message: `a ShareFile item id (fo… for a folder, fi… for a file) or an alias (${aliasText})` })
    .transform((v) => (isAlias(v) ? v.toLowerCase() : v))
    .describe(what);

/** A folder: a folder id or an alias (a file id is refused before the call). */
export const folderIdInput = (what: string) =>
  z
    .string()
    .trim()
    .refine((v) => FOLDER_ID.test(v) || isAlias(v), { message: `a ShareFile folder id (fo…) or an alias (${aliasText}); file ids (fi…) are not folders` })
    .transform((v) => (isAlias(v) ? v.toLowerCase() : v))
    .describe(what);

/** A real item id (no alias): for tools that act on one concrete item (delete, move, access controls…). */
export const concreteItemIdInput = (what: string, kinds: 'any' | 'file' = 'any') =>
  z
    .string()
    .trim()
    .refine((v) => FILE_ID.test(v) || (kinds === 'any' && FOLDER_ID.test(v)), {
      message: kinds === 'file' ? 'a ShareFile file id (fi…); folders (fo…) and aliases are not files' : 'a ShareFile item id (fo… or fi…); aliases name containers, not items',
    })
    .describe(what);

export const userIdInput = (what: string) => z.string().trim().regex(GUID, { message: 'a ShareFile user id (a GUID such as 1c9f0e2a-…)' }).describe(what);
export const groupIdInput = (what: string) => z.string().trim().regex(GROUP_ID, { message: 'a ShareFile group id (g…)' }).describe(what);
export const shareIdInput = (what: string) => z.string().trim().regex(SHARE_ID, { message: 'a ShareFile share id (s…)' }).describe(what);
/** A user (GUID) or a group (g…): the principal of an access control. */
export const principalIdInput = (what: string) =>
  z.string().trim().refine((v) => GUID.test(v) || GROUP_ID.test(v), { message: 'a ShareFile user id (GUID) or group id (g…)' }).describe(what);
export const isUserId = (v: string) => GUID.test(v);

export const emailInput = (what: string) => z.email({ message: 'an email address such as ana@example.com' }).describe(what);

export const summaryOnlyInput = z.boolean().default(false).describe('Return only the summary fields of each entry (fewer tokens).');
export const topInput = (what: string) => z.number().int().min(1).max(1000).default(100).describe(`${what}, 1-1000 (default 100).`);
export const skipInput = z.number().int().min(0).default(0).describe('Entries to skip before the page starts (default 0): pass the previous skip + returned_count for the next page.');

export const filterInput = (example: string) =>
  z.string().trim().min(1).max(2000).optional().describe(`OData v3 filter: eq ne gt ge lt le, and or not, startswith/endswith/substringof, isof, quoted 'text', e.g. ${example}`);
export const orderbyInput = (example: string) => z.string().trim().min(1).max(500).optional().describe(`OData orderby: properties with asc/desc, comma-separated, e.g. ${example}`);

/**
 * Parses `filter` and `orderby` before anything is sent: a malformed expression, or a property
 * the resource does not have, is INVALID_PARAMETER with the position of the problem and an example.
 */
export function checkQuery(input: { filter?: string; orderby?: string }, properties: readonly string[], examples: { filter: string; orderby: string }): void {
  const known = (path: string[]) => properties.includes(path[0]!);
  const fail = (param: 'filter' | 'orderby', position: number, problem: string) => {
    const example = examples[param];
    throw invalidParameter(param, `an OData v3 ${param} expression, e.g. ${example}`, `Invalid parameter "${param}": ${problem} at position ${position}. Example: ${example}`, { position });
  };
  for (const [param, parse] of [['filter', (s: string) => filterProperties(parseFilter(s))], ['orderby', (s: string) => parseOrderBy(s).map((o) => ({ path: o.path, pos: 0 }))]] as const) {
    const src = input[param];
    if (!src) continue;
    let props: { path: string[]; pos: number }[];
    try {
      props = parse(src);
    } catch (err) {
      if (err instanceof ODataSyntaxError) fail(param, err.position, err.problem);
      throw err;
    }
    for (const p of props) {
      if (!known(p.path)) {
        const pos = p.pos || src.indexOf(p.path[0]!) + 1;
        fail(param, pos, `unknown property "${p.path.join('/')}" (known: ${properties.join(', ')})`);
      }
    }
  }
}
