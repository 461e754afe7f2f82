import * as z from 'zod';
import { id } from '../../../shared/core/params';
import { filterValues } from '../params';

// --- views ---
export const viewId = id('Numeric id of the view (from getAppViews).');
export const viewAppId = id('Numeric id of the app the views belong to (from listApps).');
export const VIEW_LAYOUTS = ['table', 'list', 'board'] as const;
export const viewLayout = z
  .enum(VIEW_LAYOUTS)
  .describe('table (shows every field by default), list or board (both show only the title field by default).');
export const VIEW_RELATIVE_DATE_TYPES = ['today', 'yesterday', 'tomorrow', 'exact_date'] as const;
/** split_by: the field types a view can be split by (docs/vendors/tape.md#views, "Split by"). */
export const SPLIT_BY_FIELD_TYPES: ReadonlySet<string> = new Set([
  'single_category', 'multi_category', 'status', 'single_user', 'multi_user', 'single_relation', 'multi_relation',
  'single_date', 'range_date', 'created_on', 'last_modified_on', 'created_at', 'last_modified_at', 'calculation',
]);
export const viewFilter = z
  .strictObject({
    field_id: id('The field to filter on (a field id of the view\'s app, see getApp). Give field_id or field_label.').optional(),
    field_label: z.string().min(1).optional().describe('The field\'s label (e.g. "Status"), resolved to its field_id; use it instead of field_id.'),
    field_type: z.string().optional().describe('The field\'s type (single_text, status, single_date, …); taken from the app when omitted.'),
    type: z.string().optional().describe('The filter discriminator (text, status, date, contact, …); derived from the field type, so it may be omitted.'),
    match_type: z.string().describe('The operator, e.g. contains, equal, any, none, before, after, empty, not_empty; which ones apply depends on the field type.'),
    values: filterValues(
      'An option id or label, a user/record id, a text, a number, or a date "YYYY-MM-DD HH:MM:SS" (also as {"date": …}).',
      'Operands as [{"value": …}], or the bare values (["Won"]); omit for empty / not_empty and for relative_date_type today/yesterday/tomorrow.',
    ),
    relative_date_type: z
      .enum(VIEW_RELATIVE_DATE_TYPES)
      .optional()
      .describe('Date filters only: today, yesterday, tomorrow (self-updating) or exact_date (default; needs values [{"value": "YYYY-MM-DD HH:MM:SS"}]). Omit on empty / not_empty. Relative tokens such as "-7d" are not accepted.'),
    relative_date_range_type: z
      .enum(['current_week', 'current_month', 'current_year', 'past_week', 'past_month', 'past_year', 'next_week', 'next_month', 'next_year', 'next_num_days', 'past_num_days', 'exact_range'])
      .optional()
      .describe('Date filters with match_type within: the range (next_num_days / past_num_days take {"value": {"offset_amount": N}}; exact_range takes a start date value and end_date).'),
    end_date: z.string().optional().describe('End of an exact_range window, "YYYY-MM-DD HH:MM:SS".'),
    weekday: z.enum(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']).optional().describe('With match_type on_weekday.'),
    quarter_of_year: z.enum(['q1', 'q2', 'q3', 'q4']).optional().describe('With match_type in_quarter_of_year.'),
    month_of_year: z
      .enum(['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'])
      .optional()
      .describe('With match_type in_month_of_year.'),
    include_active_user: z.boolean().optional().describe('User-field filters only: also match the user viewing the view ("@me"). Not with empty / not_empty.'),
    entry_property: z.enum(['title', 'assignee', 'status', 'due_date']).optional().describe('Checklist filters only: which entry property the filter tests.'),
  })
  .describe('A field filter {field_id or field_label, match_type, values}; field_type and type are derived from the field.');

export const viewFilters = z
  .array(viewFilter)
  .max(100)
  .describe('Field filters, all of which a record must match (AND; at most 100). Metadata filters (created_at, last_modified_at, app_record_id) are not allowed.');

export const viewFieldSettings = z
  .record(
    z.string(),
    z.strictObject({
      hidden: z.boolean().describe('Whether the field is hidden in this layout (required on every entry).'),
      width: z.number().int().min(100).max(1500).optional().describe('Column width in pixels, 100-1500; table layout only.'),
    }),
  )
  .describe('Display settings of the current layout keyed by field id: {"<field_id>": {"hidden": false, "width": 320}}. Fields left out use the layout default.');

/** Tape's documented maximum (and default) of a view's split_by sections. */
export const SPLIT_LIMIT_MAX = 100;

export const viewSplitBy = z
  .strictObject({
    field_id: id('The field to group the records into sections by (category, status, user, relation, date, created/modified on or calculation).'),
    period: z.enum(['day', 'weekday', 'week', 'month', 'year']).optional().describe('Bucket size; date fields only (default month).'),
    sorting: z.enum(['label_asc', 'label_desc', 'value_asc', 'value_desc']).optional().describe('Section order (category and status fields default to label_asc).'),
    // 100 is Tape's documented ceiling (docs/vendors/tape.md#views): its view API refuses a split_by limit outside 1-100.
    limit: z
      .number()
      .int()
      .min(1)
      .max(SPLIT_LIMIT_MAX)
      .optional()
      .describe(`Maximum number of sections, 1-${SPLIT_LIMIT_MAX} (default ${SPLIT_LIMIT_MAX}): Tape documents ${SPLIT_LIMIT_MAX} as the maximum and refuses more.`),
  })
  .describe('Group the view into sections by one field: {"field_id", "period"?, "sorting"?, "limit"?}.');
