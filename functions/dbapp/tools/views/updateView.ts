import * as z from 'zod';
import { dbappTool } from '../../tool';
import { id } from '../../../../shared/core/params';
import { viewFieldSettings, viewFilters, viewId, viewLayout, viewSplitBy } from '../../views/inputs';
import { toView, viewLine, type View } from '../../views/render';
import { checkViewDefinition } from '../../views/view-body';
import { EXAMPLE_VIEW } from '../../views/examples';

const KEYS = ['name', 'layout', 'filters', 'sort_by', 'sort_desc', 'fields', 'split_by'] as const;

export const updateView = dbappTool({
  name: 'updateView',
  description:
    'Change a saved view. Only the keys you pass change. filters REPLACES the whole filter list (null removes all; to add one, getView first and pass the old ones too); ' +
    'fields replaces every setting of the current layout (a field left out falls back to the layout default: visible on table, hidden on list/board except the title field; null resets all); sort_by null clears the sort; ' +
    'split_by null removes the split; name null keeps the name. Switching layout keeps the other layouts\' field settings. ' +
    'sort_desc without a sort_by (stored or given) is ignored with a note. is_default cannot be changed here — use makeViewDefault. ' +
    'Needs a user-type API key and share access to the app.',
  input: z.strictObject({
    view_id: viewId,
    name: z.string().max(200).nullable().optional().describe('New name, up to 200 characters; null or omitted keeps the current name.'),
    layout: viewLayout.optional(),
    filters: viewFilters.nullable().optional().describe('Replaces ALL filters of the view (field filters, all must match, at most 100); null removes every filter.'),
    sort_by: id('Field id to sort by.').nullable().optional().describe('Field id to sort by; null clears the sort (manual record order). Sets the direction to ascending unless sort_desc is given.'),
    sort_desc: z.boolean().optional().describe('Sort descending; on its own it flips the direction of the stored sort.'),
    fields: viewFieldSettings.nullable().optional().describe('Replaces the display settings of the (new) layout, keyed by field id: {"55201": {"hidden": false, "width": 320}}; fields left out fall back to the layout default; null resets them all.'),
    split_by: viewSplitBy.nullable().optional().describe('Group into sections by one field: {"field_id", "period"? (date fields), "sorting"?, "limit"? 1-100}; null removes the split.'),
  }),
  annotations: { readOnly: false, destructive: true, idempotent: true },
  async run(input, ctx) {
    const { client } = ctx;
    const { view: current } = await client.getView(input.view_id);
    const layout = input.layout ?? current.layout;
    const { body, notes } = await checkViewDefinition(ctx, input, { app_id: current.app_id, layout, storedSortBy: current.sort_by });
    const write = { ...(input.name !== undefined ? { name: input.name } : {}), ...(input.layout ? { layout: input.layout } : {}), ...body };
    const { view } = await client.updateView(input.view_id, write);
    return { view: toView(view), ...(notes.length ? { note: notes.join(' ') } : {}) };
  },
  text: (r: { view: View; note?: string }, input) => {
    const changed = KEYS.filter((k) => input[k] !== undefined && !(k === 'sort_desc' && r.note));
    return [`updated view ${viewLine(r.view)}${changed.length ? ` — changed ${changed.join(', ')}` : ' — nothing changed'}`, r.note].filter(Boolean).join('\n');
  },
  example: {
    input: { view_id: 88123, name: 'Open tickets — EMEA', sort_by: null },
    result: { view: { ...EXAMPLE_VIEW, name: 'Open tickets — EMEA', sort_by: null } },
  },
});
