import * as z from 'zod';
import { dbappTool } from '../../tool';
import { viewId } from '../../views/inputs';
import { toView, viewText, type View } from '../../views/render';
import { EXAMPLE_VIEW } from '../../views/examples';

export const getView = dbappTool({
  name: 'getView',
  description:
    'Get the full definition of one saved view: layout, filters (all must match), sort field and direction, per-field visibility and widths ' +
    '(every app field is listed), split_by, default and private flags. It returns no records: use listRecords with view_id for those. ' +
    'Needs a user-type API key. Field ids can be mapped to labels with getApp.',
  input: z.strictObject({ view_id: viewId }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run({ view_id }, { client }) {
    return { view: toView((await client.getView(view_id)).view) };
  },
  text: (r: { view: View }) => viewText(r.view),
  example: { input: { view_id: 88123 }, result: { view: EXAMPLE_VIEW } },
});
