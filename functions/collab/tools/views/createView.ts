import * as z from 'zod';
import { collabTool } from '../../tool';
import { appIdInput } from '../../params';
import { appSchema } from '../../apps/lookups';
import { planViewDefinition } from '../../views/definition';
import { viewFieldsInput, viewFiltersInput, viewGroupingInput, viewLayoutInput, viewSortByInput } from '../../views/inputs';
import { readView } from '../../views/read';
import { toView, viewText, type View } from '../../views/render';
import { EXAMPLE_VIEW } from '../../views/examples';

export const createView = collabTool({
  name: 'createView',
  description:
    'Save a view of an app: a name, filters (all must match; every value checked against the app first — category option ids or texts, {from, to} ranges, ' +
    'dates absolute or relative such as -7d / +0d, item ids, profile ids, created_by {type: "user", id} with 0 = whoever reads it, tags; text fields cannot be filtered), ' +
    'sort, layout (table, badge, calendar), field display settings and grouping. Shared with the workspace unless private. Returns the view with its filters in words; ' +
    'makeViewDefault makes it the app\'s default.',
  input: z.strictObject({
    app_id: appIdInput,
    name: z.string().trim().min(1).max(200).describe('Name of the view.'),
    private: z.boolean().default(false).describe('Only the caller sees the view (default false: the workspace sees it).'),
    filters: viewFiltersInput.optional(),
    sort_by: viewSortByInput.optional(),
    sort_desc: z.boolean().default(false).describe('Sort descending (default false).'),
    layout: viewLayoutInput.default('table').describe('table (default), badge or calendar.'),
    fields: viewFieldsInput.optional(),
    grouping: viewGroupingInput.optional(),
  }),
  annotations: { readOnly: false, destructive: false, idempotent: false },
  async run(input, ctx): Promise<View> {
    const app = await appSchema(ctx, input.app_id);
    const body = { name: input.name, private: input.private, ...planViewDefinition(app, input) };
    const { view_id } = await ctx.client.createView(input.app_id, body);
    try {
      return await readView(ctx, input.app_id, view_id);
    } catch {
      // The view is saved: answer with what was sent rather than lose its id (no item count, labels from the schema).
      return toView({ ...body, view_id, type: 'saved' }, app);
    }
  },
  text: (v: View) => `created view ${viewText(v)}`,
  example: {
    input: {
      app_id: 8102,
      name: 'Open pipeline',
      filters: [{ key: 'stage', values: ['Lead', 'Qualified', 'Proposal'] }, { key: 9206, values: { from: '+0d', to: '+7d' } }],
      sort_by: 'amount',
      sort_desc: true,
      fields: { notes: { hidden: true } },
      grouping: { type: 'field', value: 'stage' },
    },
    result: EXAMPLE_VIEW,
  },
});
