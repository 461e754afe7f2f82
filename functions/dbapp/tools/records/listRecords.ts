import * as z from 'zod';
import { invalidParameter } from '../../../../shared/core/errors';
import { appSchema, formatsFor } from '../../apps/schema';
import { dbappTool } from '../../tool';
import { id } from '../../../../shared/core/params';
import { recordListText } from '../../fields';
import { plural } from '../../../../shared/core/render';
import { cursorInput, fieldIdsInput, fieldTypesInput, limitInput, sortByInput, sortDescInput, verboseInput } from '../../records/inputs';
import { orgUrl, selection, sortField, toPage, type RecordPage } from '../../records/page';
import { EXAMPLE_RECORD, EXAMPLE_RECORD_2 } from '../../records/examples';

type ListResult = RecordPage | { total: number; count_only: true };

export const listRecords = dbappTool({
  name: 'listRecords',
  description:
    'List the records of an app (newest first, or sorted by sort_by), or of a saved view (view_id wins over app_id: the records the view ' +
    'matches, in its order). Pages of up to 500 (default 100); pass the returned cursor (a string) for the next page; the last page answers cursor: null. count_only answers just the total. ' +
    'field_ids (ids or external ids) and field_types trim the fields returned. To select records by field values use filterRecords. Read-only.',
  input: z.strictObject({
    app_id: id('Numeric id of the app whose records to list (from listApps); give app_id or view_id.').optional(),
    view_id: id('Numeric id of a saved view (from getAppViews): its records in its order; wins over app_id.').optional(),
    limit: limitInput,
    cursor: cursorInput,
    count_only: z.boolean().default(false).describe('Answer only {total, count_only: true} (default false).'),
    field_ids: fieldIdsInput,
    field_types: fieldTypesInput,
    sort_by: sortByInput.describe('Sort an app listing by this field (field_id or external_id); default newest first. Not with view_id (a view has its own order).'),
    sort_desc: sortDescInput,
    verbose: verboseInput,
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run(input, ctx): Promise<ListResult> {
    const { client } = ctx;
    const viewId = input.view_id;
    if (viewId === undefined && input.app_id === undefined) {
      throw invalidParameter('app_id', 'app_id or view_id', 'Parameter "app_id": pass app_id (from listApps) to list an app\'s records, or view_id (from getAppViews) for a view\'s.');
    }
    if (viewId !== undefined && input.sort_by !== undefined) {
      throw invalidParameter('sort_by', 'no sort_by with view_id', 'Parameter "sort_by": a view lists its records in its own order; drop sort_by, or list by app_id to sort.');
    }
    if (input.count_only) {
      const page = viewId !== undefined ? await client.listViewRecords(viewId, { limit: 1 }) : await client.listRecords(input.app_id!, { limit: 1 });
      return { total: page.total, count_only: true };
    }
    // The schema is needed only to resolve field keys; a view names its app.
    const needsApp = input.field_ids !== undefined || input.sort_by !== undefined;
    const appId = viewId !== undefined && needsApp ? (await client.getView(viewId)).view.app_id : input.app_id;
    // The schema (cached a minute) resolves field keys and gives number fields their unit; an app listing reads it beside the page.
    const schema = appId !== undefined ? appSchema(ctx, appId) : undefined;
    schema?.catch(() => undefined); // a failed page answers first; the schema's own failure is seen where it is awaited
    const app = needsApp ? await schema : undefined;
    const select = selection(app, input.field_ids, input.field_types);
    const query = { limit: input.limit, ...(input.cursor ? { cursor: input.cursor } : {}) };
    const [page, url] = await Promise.all([
      viewId !== undefined
        ? client.listViewRecords(viewId, query)
        : client.listRecords(input.app_id!, {
            ...query,
            ...(input.sort_by !== undefined ? { sort_by: sortField(app!, input.sort_by) } : {}),
            ...(input.sort_desc !== undefined ? { sort_desc: input.sort_desc } : {}),
          }),
      orgUrl(ctx),
    ]);
    return toPage(page, input.limit, url, select, appId, await formatsFor(ctx, page.records, await schema));
  },
  text: (r: ListResult, input) => ('count_only' in r ? plural(r.total, 'record') : recordListText(r, { verbose: input.verbose })),
  example: {
    input: { app_id: 902, limit: 2 },
    result: { total: 120, cursor: 'eyJ0eXAiOiJjdXJzb3IiLCJvZmZzZXQiOjJ9', records: [EXAMPLE_RECORD, EXAMPLE_RECORD_2] },
  },
});
