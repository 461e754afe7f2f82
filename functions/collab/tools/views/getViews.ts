import * as z from 'zod';
import { plural } from '../../../../shared/core/render';
import { collabTool } from '../../tool';
import { appIdInput } from '../../params';
import { appSchema } from '../../apps/lookups';
import { toView, viewLine, type View } from '../../views/render';
import { EXAMPLE_VIEW } from '../../views/examples';

export const getViews = collabTool({
  name: 'getViews',
  description:
    "List the views of an app: the saved views (shared ones and the caller's private ones), each with its layout, item count and filters in words " +
    '(e.g. "Stage is Won, Expected close within next 7 days"). include_standard_views adds the standard table, badge and calendar views. ' +
    'The answer is an array of views, each {view_id, name, type, layout, filters, items, …}. getView gives one view in full; filterItems reads the items. Read-only.',
  input: z.strictObject({
    app_id: appIdInput,
    include_standard_views: z.boolean().default(false).describe('Also list the standard table, badge and calendar views (default false).'),
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run({ app_id, include_standard_views }, ctx): Promise<View[]> {
    const [views, app] = await Promise.all([ctx.client.listViews(app_id, { include_standard_views }), appSchema(ctx, app_id)]);
    return views.map((v) => toView(v, app));
  },
  text: (views: View[], input) =>
    views.length
      ? [...views.map(viewLine), `${plural(views.length, 'view')} of app #${input.app_id} — getView for one in full${input.include_standard_views ? '' : '; include_standard_views adds table, badge and calendar'}`].join('\n')
      : `no saved views in app #${input.app_id} — createView saves one`,
  example: { input: { app_id: 8102 }, result: [EXAMPLE_VIEW] },
});
