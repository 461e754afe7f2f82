import * as z from 'zod';
import { page } from '../../../../shared/core/params';
import type { TapeUsageBucket } from '../../wire';
import { dbappTool } from '../../tool';

export const getAutomationUsageReport = dbappTool({
  name: 'getAutomationUsageReport',
  description:
    'Automation consumption of the key\'s organization per time bucket, most recent first: action credits used and runs succeeded / failed / cancelled. ' +
    'Buckets without activity are left out; figures lag live activity (periodic snapshots).',
  input: z.strictObject({
    interval_resolution: z.enum(['hourly', 'daily', 'weekly', 'monthly', 'yearly']).default('daily').describe('Bucket size (default daily; weekly buckets start Monday 00:00 UTC).'),
    limit: page({ default: 30, max: 100, what: 'How many buckets' }),
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run(input, { client }) {
    const r = await client.getAutomationUsageReport({ limit: input.limit, interval_resolution: input.interval_resolution });
    return { organization_id: r.organization_id, usage_reports: r.usage_reports };
  },
  text: (r: { organization_id: number; usage_reports: TapeUsageBucket[] }, input) =>
    [
      ...r.usage_reports.map((b) => `${b.from} → ${b.to}: ${b.num_consumed_actions} actions · ${b.num_succeeded_runs} ok · ${b.num_failed_runs} failed · ${b.num_cancelled_runs} cancelled`),
      `${r.usage_reports.length} ${input.interval_resolution} bucket(s) of org ${r.organization_id}`,
    ].join('\n'),
  example: {
    input: { interval_resolution: 'daily', limit: 30 },
    result: {
      organization_id: 1337,
      usage_reports: [
        { organization_id: 1337, from: '2024-01-18 08:12:04', to: '2024-01-18 22:47:51', num_consumed_actions: 320, num_succeeded_runs: 540, num_failed_runs: 12, num_cancelled_runs: 3 },
      ],
    },
  },
});
