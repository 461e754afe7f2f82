import * as z from 'zod';
import { dbappTool } from '../../tool';
import { appId } from '../../params';
import { appSchemaText, toAppSchema } from '../../apps/render';
import { freshAppSchema } from '../../apps/schema';

export const getApp = dbappTool({
  name: 'getApp',
  description:
    'Get the schema of one app: every field with its field_id, external_id, label, field_type, whether it is required or read-only, ' +
    'category/status options with their ids, the apps a relation field points to, number units and date settings. ' +
    'Call it before createRecord, updateRecord, filtering or creating views: record values are keyed by external_id or field_id and ' +
    'categories take option ids (or texts). Needs app_id (see listApps). Read-only.',
  input: z.strictObject({ app_id: appId }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  // Always read from Tape (a caller looking at an app sees it as it is now), refreshing the schema the record tools cache.
  async run({ app_id }, ctx) {
    return toAppSchema(await freshAppSchema(ctx, app_id));
  },
  text: appSchemaText,
  example: {
    input: { app_id: 902 },
    result: {
      app_id: 902,
      workspace_id: 2,
      name: 'Deals',
      item_name: 'Deal',
      slug: 'deals',
      description: 'Opportunities in the sales pipeline.',
      fields: [
        { field_id: 9015, external_id: 'deal_name', label: 'Deal name', field_type: 'single_text', required: true },
        { field_id: 9016, external_id: 'lead', label: 'Lead', field_type: 'single_relation', required: false, referenced_apps: [{ app_id: 901, name: 'Leads' }] },
        { field_id: 9017, external_id: 'amount', label: 'Amount', field_type: 'number', required: false, unit: '$', unit_location: 'prefix', decimals: 2 },
        {
          field_id: 9018,
          external_id: 'stage',
          label: 'Stage',
          field_type: 'status',
          required: true,
          options: [
            { id: 1, text: 'Discovery', completed: false },
            { id: 4, text: 'Won', completed: true },
          ],
        },
        { field_id: 9021, external_id: 'close_date', label: 'Close date', field_type: 'single_date', required: false, time: 'disabled' },
      ],
    },
  },
});
