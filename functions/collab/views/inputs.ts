import * as z from 'zod';
import { id } from '../../../shared/core/params';

/** Input fragments of the view tools (docs/spec.md#collab-view). */

export const viewIdInput = id('Numeric view_id of a saved view (getViews lists them).');

const fieldKey = z.union([z.number().int().positive(), z.string().min(1)]);

export const viewFilterInput = z
  .strictObject({
    key: fieldKey.describe('A field id (or external_id) of the app, or a system key: created_by, last_edit_by, created_on, last_edit_on, tags.'),
    values: z
      .unknown()
      .describe(
        'By type: category = array of option ids (or option texts; null matches items without a value); number, money, calculation, duration (seconds), progress (0-100) = {"from", "to"}; ' +
          'date, created_on, last_edit_on = {"from", "to"} each "YYYY-MM-DD" or relative like "-7d" / "+0d" (units d, w, m, y; a trailing r rounds to whole units, e.g. "-1mr"); ' +
          'app relation = array of item ids (null = no reference); contact = array of profile ids; created_by / last_edit_by = array of {"type": "user", "id"} (id 0 = whoever reads the view); tags = array of strings. Text fields cannot be filtered.',
      ),
  })
  .describe('One filter of a view.');

export const viewFiltersInput = z
  .array(viewFilterInput)
  .max(50)
  .describe('The filters of the view, all of which must match. Each {key, values}; every value is checked against the app before anything is saved.');

export const viewLayoutInput = z.enum(['table', 'badge', 'calendar']);

export const viewSortByInput = fieldKey.describe(
  'What to sort by: created_on, created_by, last_edit_on, last_edit_by, app_item_id, item_id, activity, priority, title, or a field id (or external_id) of a sortable field.',
);

export const viewFieldsInput = z
  .record(
    z.string(),
    z.strictObject({
      hidden: z.boolean().optional().describe('Hide the field in this view.'),
      width: z.number().positive().optional().describe('Column width in pixels (table layout).'),
      delta_offset: z.number().int().optional().describe('Moves the field this many places from its place in the app.'),
      use: z.enum(['_x_axis_', '_y_axis_']).optional().describe('Axis the field is used on (calendar layout).'),
    }),
  )
  .describe('Field display settings keyed by field id (or external_id), e.g. {"9210": {"hidden": true}, "9203": {"width": 120}}.');

export const viewGroupingInput = z
  .strictObject({
    type: z.enum(['field', 'revision']).describe('"field": group by a category, app, contact or date field; "revision": by created_by, created_on or tags.'),
    value: fieldKey.describe('The field id (or external_id) for type field; created_by, created_on or tags for type revision.'),
    sub_value: z.enum(['date', 'weekday', 'week', 'month', 'year']).optional().describe('For dates (a date field, or created_on): the bucket, default date.'),
  })
  .describe('How items are grouped in the view.');
