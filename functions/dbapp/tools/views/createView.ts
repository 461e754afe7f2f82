import * as z from 'zod';
import { dbappTool } from '../../tool';
import { id } from '../../../../shared/core/params';
import { viewAppId, viewFieldSettings, viewFilters, viewLayout, viewSplitBy } from '../../views/inputs';
import { toView, viewLine, type View } from '../../views/render';
import { checkViewDefinition } from '../../views/view-body';
import { EXAMPLE_VIEW } from '../../views/examples';

export const createView = dbappTool({
  name: 'createView',
  description:
    'Create a public team view on an app: a name, a layout (table shows every field; list and board only the title field unless fields says otherwise), ' +
    'optional filters (field filters, all must match, at most 100; field_label may replace field_id, type is derived), a sort field, ' +
    'per-field visibility/width settings and a split_by grouping. Everything is checked against the app\'s fields before the write. ' +
    'The new view is never the default (use makeViewDefault). At most 2000 views per app. Needs a user-type API key (automation keys are rejected) ' +
    'and share access to the app (org owner/admin or workspace admin).',
  input: z.strictObject({
    app_id: viewAppId,
    name: z.string().max(200).describe('Name of the view, up to 200 characters.'),
    layout: viewLayout,
    filters: viewFilters.optional(),
    sort_by: id('Field id to sort the records by; omit for the manual record order.').optional(),
    sort_desc: z.boolean().optional().describe('Sort descending (default false); has no effect without sort_by.'),
    fields: viewFieldSettings.optional(),
    split_by: viewSplitBy.optional(),
  }),
  annotations: { readOnly: false, destructive: false, idempotent: false },
  async run(input, ctx) {
    const { client } = ctx;
    const { body, notes } = await checkViewDefinition(ctx, input, { app_id: input.app_id, layout: input.layout, storedSortBy: null });
    const { view } = await client.createView(input.app_id, { name: input.name, layout: input.layout, ...body });
    return { view: toView(view), ...(notes.length ? { note: notes.join(' ') } : {}) };
  },
  text: (r: { view: View; note?: string }) =>
    [`created view ${viewLine(r.view)} in app #${r.view.app_id} — getView for its full definition, listRecords with view_id for its records`, r.note]
      .filter(Boolean)
      .join('\n'),
  example: {
    input: {
      app_id: 4711,
      name: 'Open tickets',
      layout: 'table',
      sort_by: 55204,
      filters: [
        { field_label: 'Status', match_type: 'any', values: [{ value: 9001 }, { value: 9002 }] },
        { field_id: 55201, match_type: 'contains', values: [{ value: 'urgent' }] },
      ],
      fields: { '55201': { hidden: false, width: 320 }, '55203': { hidden: false, width: 160 }, '55207': { hidden: true } },
    },
    result: { view: EXAMPLE_VIEW },
  },
});
