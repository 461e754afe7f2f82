import * as z from 'zod';
import { invalidParameter } from '../../../../shared/core/errors';
import { collabTool } from '../../tool';
import { hookInput, itemIdInput, silentInput } from '../../params';
import { appSchema } from '../../apps/lookups';
import { checkUpdateMode, fieldPort, idOnlyInput, planUpdate, quotedTitle, sendUpdate, updateRequest, updateShape } from '../../items/write';

export interface UpdatedItem {
  revision: number;
  title: string;
  item_id?: number;
  app_item_id?: number;
  link?: string;
}

export const updateItem = collabTool({
  name: 'updateItem',
  description:
    'Change an existing item: several fields with fields {field_id: value}, or one field with field_id + field_value (one mode, not both; tags, file_ids ' +
    'or external_id alone need neither). Values take ' +
    "the same forms as createItem and are checked against the item's app before anything is sent (the app is found from the item: do not send app_id). " +
    'null or [] clears a field. tags REPLACES all tags of the item ([] removes them); file_ids attaches new files (ids or https URLs). revision makes the ' +
    'write conditional: refused if someone changed the item since. Runs hooks unless hook is false; notifies unless silent. Returns {revision, title}.',
  input: z.strictObject({
    item_id: itemIdInput,
    ...updateShape,
    hook: hookInput,
    silent: silentInput,
    id_only: idOnlyInput("Answer with {revision, title} only (default true); false adds the item's item_id, app_item_id and link."),
    app_id: z.unknown().optional().describe('Not accepted: the item knows its app. Send item_id only.'),
  }),
  annotations: { readOnly: false, destructive: true, idempotent: true },
  async run({ item_id, hook, silent, id_only, app_id, ...input }, ctx): Promise<UpdatedItem> {
    if (app_id !== undefined) {
      throw invalidParameter('app_id', 'no app_id', 'Parameter "app_id" is not accepted by updateItem: the item\'s app is read from item_id (its global id). Remove app_id and send item_id only.');
    }
    checkUpdateMode(input);
    // The item names its app; the app's schema (cached) checks the values.
    const item = await ctx.client.getItem(item_id);
    const app = await appSchema(ctx, item.app!.app_id);
    const planned = planUpdate(app, input);
    const req = await updateRequest(ctx, fieldPort(ctx, app), planned, item_id);
    const r = await sendUpdate(ctx, item_id, req, { hook, silent });
    const more = id_only ? {} : { item_id, ...(typeof item.app_item_id === 'number' ? { app_item_id: item.app_item_id } : {}), ...(item.link ? { link: item.link } : {}) };
    return { revision: r.revision, title: r.title, ...more };
  },
  text: (r: UpdatedItem, input) => {
    const fields = input.fields ? Object.keys(input.fields) : input.field_id !== undefined ? [String(input.field_id)] : [];
    const changed = [...(fields.length ? [`fields ${fields.join(', ')}`] : []), ...(input.tags ? ['tags'] : []), ...(input.file_ids ? ['files'] : [])];
    return `updated item #${r.item_id ?? input.item_id}${quotedTitle(r.title)} — revision ${r.revision}${changed.length ? `; set ${changed.join(', ')}` : ''}${r.link ? ` — ${r.link}` : ''}`;
  },
  example: {
    input: { item_id: 30061, fields: { '9204': 'Won', '9207': 100 }, tags: ['closed'] },
    result: { revision: 3, title: 'Northwind Traders — Core platform' },
  },
});
