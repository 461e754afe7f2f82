import * as z from 'zod';
import { cursor, id } from '../../shared/core/params';

export const workspaceId = id('Numeric id of the workspace (from listWorkspaces).');
export const userId = id('Numeric id of an organization user (from listOrganizationUsers).');

// --- apps ---
export const appId = id('Numeric id of the app (from listApps).');
export const workspaceType = z
  .enum(['private', 'open', 'default', 'closed'])
  .describe('Visibility: private = invite-only, open = any org member may join, default = org default visibility, closed = read-only for non-members.');
export const memberRole = z.enum(['member', 'admin']).describe('Role in the workspace: member or admin.');

// --- record filters: each field type's filter entry (discriminator, match types, operands) is in fields/table.ts ---


// --- filter operands (filterRecords and views) ---

type Scalar = string | number | boolean;
const isScalar = (v: unknown): v is Scalar => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)) || typeof v === 'boolean';

/** The caller's own value to build an example from: the value itself, or the first plain value inside what they sent. */
function ownValue(v: unknown, depth = 0): Scalar | undefined {
  if (isScalar(v)) return typeof v === 'string' && v.length > 60 ? `${v.slice(0, 57)}...` : v;
  if (depth > 2 || typeof v !== 'object' || v === null) return undefined;
  for (const x of Object.values(v)) {
    const found = ownValue(x, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

const example = (input: unknown) => {
  const v = JSON.stringify(ownValue(input) ?? 'Won');
  return { item: `{"value": ${v}} or just ${v}`, list: `[{"value": ${v}}] or just [${v}]` };
};

/**
 * Filter operands: `[{"value": …}]` (Tape's form) or, as shorthands, the bare values (`["Won"]`)
 * or one value alone (`"Won"`), always passed on in Tape's form. A shape that is none of these is
 * refused with the expected form built from the caller's own value (`{"val": "Won"}` → `{"value": "Won"}`).
 */
export function filterValues(valueText: string, listText: string) {
  const one = (v: unknown) => (typeof v === 'object' && v !== null ? (v as { value: unknown }) : { value: v });
  const operand = z.strictObject({ value: z.unknown().describe(valueText) });
  const scalar = z.union([z.string(), z.number(), z.boolean()]);
  const item = z.union([operand, scalar], { error: (iss) => `an operand {"value": …} or the bare value, e.g. ${example(iss.input).item}` });
  return z
    .union([z.array(item), operand, scalar], { error: (iss) => `an array of operands, e.g. ${example(iss.input).list}` })
    .transform((vs) => (Array.isArray(vs) ? vs : [vs]).map(one))
    .optional()
    .describe(listText);
}

/** The `cursor` parameter of every dbapp listing (its descriptions say the same of the last page); `how` adds how to pass it. */
export const pageCursor = (how = '') => cursor(`A string: the cursor of the previous page, to get the next one${how}. The last page answers cursor: null (every dbapp listing does).`);
