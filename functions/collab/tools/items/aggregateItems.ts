import * as z from 'zod';
import { collabTool } from '../../tool';
import { appIdInput } from '../../params';
import { appSchema } from '../../apps/lookups';
import { filtersInput, planFilters } from '../../items/read';
import { aggregateText, AGGREGATIONS, DATE_INTERVALS, planAggregate, REVISION_GROUPS, toAggregateResult, type AggregateResult } from '../../items/read-aggregate';

/** Podio's calculate returns 15 groups unless told (docs/vendors/podio.md#items); the twin and Podio cap it at 100. */
const GROUPS = { default: 15, max: 100 };

export const aggregateItems = collabTool({
  name: 'aggregateItems',
  description:
    "Compute over an app's items without listing them (Podio's item calculation): count, or the sum, average, minimum or maximum of a number, money, " +
    'progress, duration or numeric calculation field — optionally grouped by a category, app relation, contact or date field (date_interval: date, weekday, ' +
    'week, month (default) or year) or by created_by / created_on, and filtered with the same filters as filterItems. Returns total, count (items counted) ' +
    'and groups [{value, label, total, count}]; money totals keep their currency. The field and grouping are checked against the app before the call. ' +
    'One call whatever the number of items. Read-only.',
  input: z.strictObject({
    app_id: appIdInput,
    aggregation: z.enum(AGGREGATIONS).default('count').describe('"count" (default; takes no field), "sum", "average", "minimum" or "maximum" of field.'),
    field: z
      .union([z.number().int().positive(), z.string().min(1)])
      .optional()
      .describe('The field to aggregate (field_id or external_id): number, money, progress, duration or a calculation returning a number. Required unless aggregation is "count".'),
    group_by: z
      .union([z.number().int().positive(), z.string().min(1)])
      .optional()
      .describe(`Group by a category, app relation, contact or date field (field_id or external_id), or by ${REVISION_GROUPS.join(' or ')}.`),
    date_interval: z.enum(DATE_INTERVALS).optional().describe('Bucket of a date grouping: date, weekday, week, month (default) or year. Only with a date group_by or created_on.'),
    filters: filtersInput,
    limit: z.number().int().min(1).max(GROUPS.max).default(GROUPS.default).describe(`Groups to return, 1-${GROUPS.max} (default ${GROUPS.default}).`),
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run({ app_id, aggregation, field, group_by, date_interval, filters, limit }, ctx): Promise<AggregateResult> {
    const app = await appSchema(ctx, app_id);
    const plan = planAggregate(app, { aggregation, field, group_by, date_interval, limit });
    const planned = planFilters(app, filters);
    const calc = await ctx.client.calculateItems(app_id, { ...plan.body, ...(planned ? { filters: planned } : {}) });
    return toAggregateResult(app_id, aggregation, plan, calc);
  },
  text: (r: AggregateResult, input) => aggregateText(r, { limit: input.limit, filtered: !!input.filters && Object.keys(input.filters).length > 0 }),
  example: {
    input: { app_id: 8102, aggregation: 'sum', field: 'amount', group_by: 'stage', filters: { created_on: { from: '2025-01-01' } } },
    result: {
      app_id: 8102,
      aggregation: 'sum',
      field: { field_id: 9203, external_id: 'amount', label: 'Amount', type: 'money' },
      currencies: ['EUR', 'USD'],
      group_by: { key: 'stage', label: 'Stage', type: 'category' },
      total: 3528050,
      count: 160,
      groups: [
        { value: 401, label: 'Lead', total: 712400, count: 33 },
        { value: 404, label: 'Won', total: 820150, count: 36 },
      ],
    },
  },
});
