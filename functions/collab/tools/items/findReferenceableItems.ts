import * as z from 'zod';
import { invalidParameter, ToolError } from '../../../../shared/core/errors';
import { show } from '../../../../shared/fields/engine';
import { plural } from '../../../../shared/core/render';
import { collabTool } from '../../tool';
import { appIdInput } from '../../params';
import { appSchema } from '../../apps/lookups';
import { appFields } from '../../fields';
import { refLine, toRef, type ItemRef } from '../../items/read-refs';

const LIMIT = { default: 20, max: 100 };

interface Referenceable {
  field_id: number;
  items: ItemRef[];
}

const relationList = (fields: readonly { external_id: string; field_id: number; label: string; type: string }[]) => {
  const rel = fields.filter((f) => f.type === 'app');
  return rel.length ? rel.map((f) => `${f.external_id} (${f.field_id}) "${f.label}"`).join(', ') : 'none in this app';
};

/**
 * Decision: `app_id` is optional. With it the field (id or external_id) is checked to be an app
 * relation field before any call — Podio's find endpoint takes only the field id and would answer
 * 400 or 404 — and without it the numeric field_id goes to Podio as it is, whose refusal is explained.
 */
export const findReferenceableItems = collabTool({
  name: 'findReferenceableItems',
  description:
    'Search the items an app relation field can point to (the items of its referenced apps), by a part of their title: item_id, app_item_id, title, ' +
    'app and link — the item_id is what the field takes in createItem/updateItem. field_id is the relation field (getApp lists fields of type app); ' +
    'pass app_id too to name the field by external_id and have it checked before the call. Without text, the most recent items. ' +
    `limit default ${LIMIT.default}, max ${LIMIT.max}. Read-only.`,
  input: z.strictObject({
    field_id: z
      .union([z.number().int().positive(), z.string().min(1)])
      .describe('The app relation field: its field_id, or its external_id together with app_id.'),
    app_id: appIdInput.optional().describe('The app the field belongs to: lets field_id be an external_id and checks the field is an app relation before the call.'),
    text: z.string().optional().describe('Part of the title to search for (case-insensitive); leave out for the most recent items.'),
    limit: z.number().int().min(1).max(LIMIT.max).default(LIMIT.default).describe(`Items to return, 1-${LIMIT.max} (default ${LIMIT.default}).`),
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run({ field_id, app_id, text, limit }, ctx): Promise<Referenceable> {
    let fieldId: number;
    if (app_id !== undefined) {
      const app = await appSchema(ctx, app_id);
      const fields = appFields(app).fields;
      const field = fields.find((f) => String(f.field_id) === String(field_id).trim() || f.external_id === field_id);
      const expected = `an app relation field of app ${app_id}`;
      if (!field) throw invalidParameter('field_id', expected, `Parameter "field_id": ${show(field_id)} is not a field of app ${app_id} "${app.config.name}". Its relation fields: ${relationList(fields)}.`);
      if (field.type !== 'app') throw invalidParameter('field_id', expected, `Parameter "field_id": "${field.label}" is a ${field.type} field; only app relation fields point to items. Relation fields of app ${app_id}: ${relationList(fields)}.`);
      fieldId = field.field_id;
    } else {
      if (typeof field_id !== 'number') {
        if (!/^\d+$/.test(field_id.trim())) throw invalidParameter('field_id', 'a numeric field_id, or app_id with an external_id', `Parameter "field_id": ${show(field_id)} is an external_id; pass app_id too, or the numeric field_id (getApp lists both).`);
        field_id = Number(field_id.trim());
      }
      fieldId = field_id;
    }
    const q = text?.trim();
    try {
      const found = await ctx.client.findReferenceableItems(fieldId, { ...(q ? { text: q } : {}), limit });
      return { field_id: fieldId, items: found.map((i) => toRef(i, true)) };
    } catch (err) {
      // Podio answers 400 for a field that is no relation, 404 for no field at all.
      if (err instanceof ToolError && (err.code === 'INVALID_PARAMETER' || err.code === 'NOT_FOUND')) {
        const what = err.code === 'NOT_FOUND' ? `no field ${fieldId} that this key can see` : `field ${fieldId} is not an app relation field`;
        throw new ToolError(err.code, `${err.message} — ${what}. Pass app_id to have the field checked, or find the relation fields (type app) with getApp.`, { ...err.details, parameter: 'field_id' });
      }
      throw err;
    }
  },
  text: (r: Referenceable, input) => {
    if (!r.items.length) return `no items${input.text?.trim() ? ` matching "${input.text.trim()}"` : ''} for field #${r.field_id}`;
    const more = r.items.length >= input.limit ? ` — showing the first ${r.items.length}: narrow text or raise limit (max ${LIMIT.max})` : '';
    return [...r.items.map(refLine), `${plural(r.items.length, 'item')} field #${r.field_id} can point to${more}; put the item_id in the field's value`].join('\n');
  },
  example: {
    input: { field_id: 'company', app_id: 8102, text: 'northwind' },
    result: {
      field_id: 9202,
      items: [
        { item_id: 30031, app_item_id: 31, title: 'Northwind Traders Nord', link: 'https://podio.com/sandbox-co/sales/apps/companies/items/31', app: { app_id: 8101, name: 'Companies' } },
        { item_id: 30001, app_item_id: 1, title: 'Northwind Traders', link: 'https://podio.com/sandbox-co/sales/apps/companies/items/1', app: { app_id: 8101, name: 'Companies' } },
      ],
    },
  },
});
