import * as z from 'zod';
import { collabTool } from '../../tool';
import { appIdInput } from '../../params';
import { appSchema } from '../../lookups';
import { planViewDefinition } from '../../views/definition';
import { viewFieldsInput, viewFiltersInput, viewLayoutInput, viewSortByInput } from '../../views/inputs';

interface Updated {
  updated: true;
  app_id: number;
}

export const updateLastView = collabTool({
  name: 'updateLastView',
  description:
    "Save the caller's current view state of an app (their \"last view\": filters, sort, layout, field settings), read back with getView and view_id_or_name \"last\". " +
    'It replaces the whole last view: what is left out goes back to the defaults (no filters, newest first, table). Values are checked as in createView. ' +
    'Use createView for a named view others can use. Returns {updated: true, app_id}.',
  input: z.strictObject({
    app_id: appIdInput,
    sort_by: viewSortByInput.optional(),
    sort_desc: z.boolean().optional().describe('Sort descending.'),
    filters: viewFiltersInput.optional(),
    layout: viewLayoutInput.optional().describe('table, badge or calendar.'),
    fields: viewFieldsInput.optional(),
  }),
  annotations: { readOnly: false, destructive: true, idempotent: true },
  async run(input, ctx): Promise<Updated> {
    const body = planViewDefinition(await appSchema(ctx, input.app_id), input);
    await ctx.client.updateLastView(input.app_id, body);
    return { updated: true, app_id: input.app_id };
  },
  text: (r: Updated) => `saved your last view of app #${r.app_id} — getView with "last" reads it`,
  example: { input: { app_id: 8102, filters: [{ key: 'stage', values: [404] }], sort_by: 'created_on', sort_desc: true }, result: { updated: true, app_id: 8102 } },
});
