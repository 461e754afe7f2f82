import * as z from 'zod';
import { cursor, id } from '../../shared/params';

export const workspaceId = id('Numeric id of the workspace (from listWorkspaces).');
export const userId = id('Numeric id of an organization user (from listOrganizationUsers).');

// --- apps ---
export const appId = id('Numeric id of the app (from listApps).');
export const workspaceType = z
  .enum(['private', 'open', 'default', 'closed'])
  .describe('Visibility: private = invite-only, open = any org member may join, default = org default visibility, closed = read-only for non-members.');
export const memberRole = z.enum(['member', 'admin']).describe('Role in the workspace: member or admin.');

// --- webhooks ---
export const WEBHOOK_EVENT_TYPES = ['record.create', 'record.update', 'record.delete', 'record.restore', 'comment.create', 'comment.delete', 'app.update'] as const;
export const hookId = id('Numeric id of the webhook (from listWebhooks or createWebhook).');
export const webhookAppId = id('Numeric id of the app the webhooks belong to (from listApps).');
export const webhookEventType = z
  .enum(WEBHOOK_EVENT_TYPES)
  .describe(
    'Exactly one event type per webhook (a string, not a list): record.create, record.update, record.delete, record.restore, comment.create, comment.delete, ' +
      'or app.update (fields or settings of the app changed). To receive several types, create one webhook per type.',
  );

// --- record filters: each field type's filter entry (discriminator, match types, operands) is in fields/table.ts ---

// --- views ---
export const viewId = id('Numeric id of the view (from getAppViews).');
export const viewAppId = id('Numeric id of the app the views belong to (from listApps).');
export const VIEW_LAYOUTS = ['table', 'list', 'board'] as const;
export const viewLayout = z
  .enum(VIEW_LAYOUTS)
  .describe('table (shows every field by default), list or board (both show only the title field by default).');
export const VIEW_RELATIVE_DATE_TYPES = ['today', 'yesterday', 'tomorrow', 'exact_date'] as const;
/** split_by: the field types a view can be split by (docs/vendors/tape.md#views). */
export const SPLIT_BY_FIELD_TYPES: ReadonlySet<string> = new Set([
  'single_category', 'multi_category', 'status', 'single_user', 'multi_user', 'single_relation', 'multi_relation',
  'single_date', 'range_date', 'created_on', 'last_modified_on', 'created_at', 'last_modified_at', 'calculation',
]);

// --- filter operands (filterRecords and views) ---

type Scalar = string | number | boolean;
const isScalar = (v: unknown): v is Scalar => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)) || typeof v === 'boolean';

/** The caller's own value to build an example from: the value itself, or the first plain value inside what they sent. */
function ownValue(v: unknown, depth = 0): Scalar | undefined {
  if (isScalar(v)) return typeof v === 'string' && v.length > 60 ? `${v.slice(0, 57)}...` : v;
  if (depth > 2 || typeof v !== 'object' || v === null) return undefined;
  for (const x of Object.values(v)) {
    const found = ownValue(x, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

const example = (input: unknown) => {
  const v = JSON.stringify(ownValue(input) ?? 'Won');
  return { item: `{"value": ${v}} or just ${v}`, list: `[{"value": ${v}}] or just [${v}]` };
};

/**
 * Filter operands: `[{"value": …}]` (Tape's form) or, as shorthands, the bare values (`["Won"]`)
 * or one value alone (`"Won"`), always passed on in Tape's form. A shape that is none of these is
 * refused with the expected form built from the caller's own value (`{"val": "Won"}` → `{"value": "Won"}`).
 */
export function filterValues(valueText: string, listText: string) {
  const one = (v: unknown) => (typeof v === 'object' && v !== null ? (v as { value: unknown }) : { value: v });
  const operand = z.strictObject({ value: z.unknown().describe(valueText) });
  const scalar = z.union([z.string(), z.number(), z.boolean()]);
  const item = z.union([operand, scalar], { error: (iss) => `an operand {"value": …} or the bare value, e.g. ${example(iss.input).item}` });
  return z
    .union([z.array(item), operand, scalar], { error: (iss) => `an array of operands, e.g. ${example(iss.input).list}` })
    .transform((vs) => (Array.isArray(vs) ? vs : [vs]).map(one))
    .optional()
    .describe(listText);
}

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

export const viewSplitBy = z
  .strictObject({
    field_id: id('The field to group the records into sections by (category, status, user, relation, date, created/modified on or calculation).'),
    period: z.enum(['day', 'weekday', 'week', 'month', 'year']).optional().describe('Bucket size; date fields only (default month).'),
    sorting: z.enum(['label_asc', 'label_desc', 'value_asc', 'value_desc']).optional().describe('Section order (category and status fields default to label_asc).'),
    // 100 is Tape's own ceiling: its view API refuses a split_by limit outside 1-100.
    limit: z.number().int().min(1).max(100).optional().describe('Maximum number of sections, 1-100 (default 100; Tape allows no more).'),
  })
  .describe('Group the view into sections by one field: {"field_id", "period"?, "sorting"?, "limit"?}.');

/** The `cursor` parameter of every dbapp listing (its descriptions say the same of the last page); `how` adds how to pass it. */
export const pageCursor = (how = '') => cursor(`A string: the cursor of the previous page, to get the next one${how}. The last page answers cursor: null (every dbapp listing does).`);
