import * as z from 'zod';
import { collabTool } from '../../tool';
import { appIdInput } from '../../params';
import { appSchema } from '../../apps/lookups';
import { appSchemaText, referencedAppIds, toAppSchema, type AppSchema } from '../../apps/schema';

export const getApp = collabTool({
  name: 'getApp',
  description:
    'Get the schema of one app: every field with its field_id, external_id, label, type and whether it is required, category options with their ids, ' +
    'the apps a relation (app) field points to, the currencies a money field accepts, date settings (time kept or not, end date), and for each field ' +
    'the exact input shape an item write takes (dates {"start": "YYYY-MM-DD HH:MM:SS"}, money {"value": "12.50", "currency": …}, contacts by profile_id). ' +
    'Call it before createItem, updateItem or filterItems. Needs app_id (getAppsBySpace lists the apps of a space; getOrganizations the spaces). Read-only.',
  input: z.strictObject({ app_id: appIdInput }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run({ app_id }, ctx): Promise<AppSchema> {
    // Fresh: the caller asks for the schema as it is now (item writes read it through the short cache).
    const app = await ctx.client.getApp(app_id);
    // The names of referenced apps, best effort: an app the key cannot read keeps only its id.
    const names = new Map<number, string>();
    await Promise.all(
      referencedAppIds(app).map(async (id) => {
        const ref = await appSchema(ctx, id).catch(() => null);
        if (ref) names.set(id, ref.config.name);
      }),
    );
    return toAppSchema(app, names);
  },
  text: appSchemaText,
  example: {
    input: { app_id: 8102 },
    result: {
      app_id: 8102,
      space_id: 7101,
      name: 'Deals',
      item_name: 'Deal',
      description: 'Opportunities in the sales pipeline.',
      link: 'https://podio.com/sandbox-co/sales/apps/deals',
      fields: [
        { field_id: 9201, external_id: 'title', label: 'Deal name', type: 'text', required: true, format: 'plain', input: 'a string, e.g. "Fix the login bug"' },
        {
          field_id: 9202, external_id: 'company', label: 'Company', type: 'app', required: false, multiple: false, referenced_apps: [{ app_id: 8101, name: 'Companies' }],
          input: 'one item id of app 8101 (findReferenceableItems finds them), e.g. 1001',
        },
        {
          field_id: 9203, external_id: 'amount', label: 'Amount', type: 'money', required: false, allowed_currencies: ['EUR', 'USD'],
          input: '{"value": decimal string, "currency": code} with currency one of EUR, USD, e.g. {"value": "12.50", "currency": "EUR"}',
        },
        {
          field_id: 9204, external_id: 'stage', label: 'Stage', type: 'category', required: true, multiple: false,
          options: [{ id: 401, text: 'Lead' }, { id: 402, text: 'Qualified' }, { id: 403, text: 'Proposal' }, { id: 404, text: 'Won' }, { id: 405, text: 'Lost' }],
          input: 'one option id or text, e.g. 401 or "Lead"; options: 401 Lead, 402 Qualified, 403 Proposal, 404 Won, 405 Lost',
        },
        {
          field_id: 9206, external_id: 'close-date', label: 'Expected close', type: 'date', required: false, time: 'disabled', end: 'disabled',
          input: '{"start": "YYYY-MM-DD HH:MM:SS", "end"?: "YYYY-MM-DD HH:MM:SS"} (time required: use 00:00:00 for a day), e.g. {"start": "2024-05-01 09:00:00"}',
        },
        {
          field_id: 9208, external_id: 'owner', label: 'Deal owner', type: 'contact', required: false, contact_type: 'space_users',
          input: 'profile ids (one or an array; not user ids — getOrganizationMembers lists both), or {"user_id": …} / {"email": …} objects resolved to profile ids for you, e.g. [2001] or [{"email": "ada@example.com"}]',
        },
        { field_id: 9209, external_id: 'weighted-value', label: 'Weighted value', type: 'calculation', required: false, read_only: true, decimals: 2, return_type: 'number', input: 'no value: Podio computes calculation fields' },
      ],
    },
  },
});
