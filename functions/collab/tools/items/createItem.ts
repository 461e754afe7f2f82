import * as z from 'zod';
import { collabTool } from '../../tool';
import { appIdInput, hookInput, silentInput } from '../../params';
import { appSchema } from '../../apps/lookups';
import { createBody, createShape, fieldPort, idOnlyInput, planCreate, quotedTitle, sendCreate, type CreatedItem } from '../../items/write';

export const createItem = collabTool({
  name: 'createItem',
  description:
    'Create one item in a Podio app. fields are keyed by field_id (getApp lists the fields, their types, category options and allowed currencies) and ' +
    'checked against the app before anything is sent: a wrong shape, unknown option, disallowed currency, date without time or a user id in a contact ' +
    'field is refused with the expected form. Conveniences: category options by text, contacts as {"user_id"} or {"email"}, embed URLs and image/file ' +
    'https URLs are converted or uploaded for you. file_ids attaches new (unattached) files. Runs the app\'s hooks unless hook is false; notifies unless ' +
    'silent. Returns {item_id, link}. For two or more items use batchCreateItems.',
  input: z.strictObject({
    app_id: appIdInput,
    ...createShape,
    hook: hookInput,
    silent: silentInput,
    id_only: idOnlyInput("Answer with {item_id, link} only (default true); false adds the item's title and app_item_id."),
  }),
  annotations: { readOnly: false, destructive: false, idempotent: false },
  async run({ app_id, hook, silent, id_only, ...input }, ctx): Promise<CreatedItem> {
    const app = await appSchema(ctx, app_id);
    const planned = planCreate(app, input);
    const body = await createBody(ctx, fieldPort(ctx, app), planned);
    return sendCreate(ctx, app_id, body, { hook, silent }, id_only);
  },
  text: (r: CreatedItem) => `created item #${r.item_id}${quotedTitle(r.title)}${r.app_item_id !== undefined ? ` (app item ${r.app_item_id})` : ''}${r.link ? ` — ${r.link}` : ''}`,
  example: {
    input: {
      app_id: 8102,
      fields: { '9201': 'Northwind Traders — Analytics add-on', '9203': { value: '18000.00', currency: 'EUR' }, '9204': 'Proposal', '9206': { start: '2025-06-30 00:00:00' }, '9208': { email: 'ben.okafor@sandbox-co.test' } },
      tags: ['q3'],
      id_only: false,
    },
    result: { item_id: 30301, link: 'https://podio.com/sandbox-co/sales/apps/deals/items/161', title: 'Northwind Traders — Analytics add-on', app_item_id: 161 },
  },
});
