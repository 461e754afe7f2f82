import * as z from 'zod';
import { invalidParameter } from '../../../../shared/core/errors';
import { collabTool } from '../../tool';
import { appIdInput } from '../../params';
import { appSchema } from '../../apps/lookups';
import { planViewDefinition } from '../../views/definition';
import { viewFieldsInput, viewFiltersInput, viewGroupingInput, viewIdInput, viewLayoutInput, viewSortByInput } from '../../views/inputs';
import { requireSaved } from '../../views/read';

interface Updated {
  updated: true;
  view_id: number;
}

const CHANGES = ['name', 'private', 'filters', 'sort_by', 'sort_desc', 'layout', 'fields', 'grouping'] as const;

export const updateView = collabTool({
  name: 'updateView',
  description:
    'Change a saved view of an app: only the keys given change, but filters, when given, replace all of the view\'s filters (pass [] to remove them; ' +
    'getView first to keep some). Values are checked against the app as in createView. Standard views cannot be changed. Needs to be the view\'s creator or an admin. ' +
    'Returns {updated: true, view_id}.',
  input: z.strictObject({
    view_id: viewIdInput,
    app_id: appIdInput.describe('The app the view belongs to (its filters are checked against this app).'),
    name: z.string().trim().min(1).max(200).optional().describe('New name.'),
    private: z.boolean().optional().describe('Only the creator sees the view.'),
    filters: viewFiltersInput.optional().describe('The new filters: they replace every filter of the view.'),
    sort_by: viewSortByInput.optional(),
    sort_desc: z.boolean().optional().describe('Sort descending.'),
    layout: viewLayoutInput.optional().describe('table, badge or calendar.'),
    fields: viewFieldsInput.optional(),
    grouping: viewGroupingInput.optional(),
  }),
  annotations: { readOnly: false, destructive: true, idempotent: true },
  async run(input, ctx): Promise<Updated> {
    if (!CHANGES.some((k) => input[k] !== undefined)) throw invalidParameter('filters', `at least one of ${CHANGES.join(', ')}`, 'updateView needs something to change: pass filters, sort_by, layout, fields, grouping, name or private.');
    const app = await appSchema(ctx, input.app_id);
    const body = planViewDefinition(app, input);
    // The view must be a saved one of this app (Podio's PUT /view/{id} does not name the app).
    requireSaved(await ctx.client.getView(input.app_id, input.view_id), input.view_id, 'be changed');
    await ctx.client.updateView(input.view_id, { ...(input.name !== undefined ? { name: input.name } : {}), ...(input.private !== undefined ? { private: input.private } : {}), ...body });
    return { updated: true, view_id: input.view_id };
  },
  text: (r: Updated, input) => `updated view #${r.view_id} (${CHANGES.filter((k) => input[k] !== undefined).join(', ')}) — getView for the result`,
  example: { input: { view_id: 20003, app_id: 8102, filters: [{ key: 'stage', values: [403] }] }, result: { updated: true, view_id: 20003 } },
});
