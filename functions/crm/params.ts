import * as z from 'zod';
import { digitsId } from '../../shared/core/ids';
import type { ObjectKind } from './objects/kinds';

/** Object types the crm tools take (docs/spec.md#crm-objects). */
export const objectType = (what: string) => z.enum(['contacts', 'companies', 'deals', 'tickets']).describe(what);

/** A HubSpot record id: digits, as HubSpot's ids are (a string, as the spec has it); a number or "#123" is taken too. */
export const recordId = (what: string) => digitsId(what, 'digits (a HubSpot record id)');

/** `values` of a create or update. */
export function valuesInput(kind: ObjectKind, create: boolean) {
  return z
    .record(z.string().min(1), z.union([z.string(), z.number(), z.boolean(), z.array(z.string()), z.null()]))
    .refine((v) => Object.keys(v).length > 0, 'at least one property')
    .describe(
      `Property values by internal name (crm_ for HubSpot's hs_/hubspot_ names, e.g. crm_owner_id). Strings as HubSpot stores them; numbers and booleans are accepted, ` +
        `enumeration options by value or label, multi-select as an array or "a;b", dates as YYYY-MM-DD or Unix ms, null clears.` +
        (create && kind.required.all ? ` ${kind.required.all.join(', ')} required.` : '') +
        (kind.pipeline ? ` ${kind.pipeline.stage} must be a stage of ${kind.pipeline.pipeline} (getPipelines; ids or labels).` : ''),
    );
}

/** Extra properties to return on a read; `defaults` are those returned anyway. */
export const returnProperties = (defaults: string[]) =>
  z.array(z.string().min(1)).min(1).optional().describe(`Properties to return besides the defaults (${defaults.join(', ')}).`);
