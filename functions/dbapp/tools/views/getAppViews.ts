import * as z from 'zod';
import { dbappTool } from '../../tool';
import { viewAppId } from '../../views/inputs';
import { plural } from '../../../../shared/core/render';
import { toViewPreview, viewLine, type ViewPreview } from '../../views/render';

export const getAppViews = dbappTool({
  name: 'getAppViews',
  description:
    'List the public saved views of an app: id, name, layout (table, list or board), which one is the default, and the private flag. ' +
    'Use it to find a view_id for getView (full definition: filters, sort, fields, split) or listRecords (the records a view shows). ' +
    'Private views never appear here. Also works with automation keys.',
  input: z.strictObject({ app_id: viewAppId }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run({ app_id }, { client }) {
    const page = await client.getAppViews(app_id);
    return { views: page.views.map(toViewPreview), total: page.total };
  },
  text: (r: { views: ViewPreview[]; total: number }) =>
    [...r.views.map(viewLine), `${plural(r.total, 'view')} — getView for one view's filters, sort and fields`].join('\n'),
  example: {
    input: { app_id: 1 },
    result: {
      views: [
        { id: 500, view_id: 500, name: 'Open Tasks', app_id: 1, is_default: true, layout: 'list', private: false },
        { id: 501, view_id: 501, name: 'Completed Tasks', app_id: 1, is_default: false, layout: 'table', private: false },
      ],
      total: 2,
    },
  },
});
