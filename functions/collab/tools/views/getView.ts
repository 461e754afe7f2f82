import * as z from 'zod';
import { collabTool } from '../../tool';
import { appIdInput } from '../../params';
import { readView } from '../../views/read';
import { viewText, type View } from '../../views/render';
import { EXAMPLE_VIEW } from '../../views/examples';

export const getView = collabTool({
  name: 'getView',
  description:
    'Get one view of an app in full: layout, filters (each with values, labels, and in words), sort, field display settings, grouping, item count. ' +
    'view_id_or_name is a saved view id (getViews lists them), a standard view (table, badge, calendar), or "last": the view the caller last used on the app ' +
    '(saved with updateLastView; without one, the app\'s default view). It returns no items: filterItems reads them. Read-only.',
  input: z.strictObject({
    app_id: appIdInput,
    view_id_or_name: z
      .union([z.number().int().positive(), z.enum(['table', 'badge', 'calendar', 'last']), z.string().regex(/^\d+$/)])
      .describe('A numeric view id, or "table", "badge", "calendar" (standard views), or "last" (the caller\'s last used view).'),
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  run: ({ app_id, view_id_or_name }, ctx): Promise<View> => readView(ctx, app_id, view_id_or_name),
  text: (v: View, input) =>
    input.view_id_or_name === 'last' && v.type !== 'last' ? `no last view saved on app #${input.app_id} (updateLastView saves one); the app opens with:\n${viewText(v)}` : viewText(v),
  example: { input: { app_id: 8102, view_id_or_name: 20003 }, result: EXAMPLE_VIEW },
});
