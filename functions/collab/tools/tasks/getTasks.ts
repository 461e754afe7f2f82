import * as z from 'zod';
import { numericId } from '../../../../shared/core/ids';
import { offset } from '../../../../shared/core/params';
import { listFooter, plural } from '../../../../shared/core/render';
import { collabTool } from '../../tool';
import { me } from '../../conversations/users';
import { taskQuery, type TaskFilters } from '../../tasks/query';
import type { PodioTaskQuery } from '../../wire';
import { groupedLines, taskLine, toTask, type Task } from '../../tasks/render';

const GROUPINGS = ['due_date', 'created_by', 'responsible', 'app', 'space', 'org'] as const;
/** The summary's buckets (docs/spec.md#collab-task) over Podio's due-date groups. */
const BUCKETS = { overdue: ['overdue'], today: ['due_today'], this_week: ['due_tomorrow', 'due_this_week'] } as const;
type Bucket = keyof typeof BUCKETS | 'other';
const BUCKET_TITLES: Record<Bucket, string> = { overdue: 'overdue', today: 'due today', this_week: 'due this week', other: 'other' };
/** The summary counts this many tasks at most (10 pages of Podio's maximum). */
const SUMMARY_SCAN = 1_000;
const PAGE = 100;

interface TaskList {
  tasks: Task[];
  grouping: string;
  /** Set when no filter said whose tasks: the key's own (responsible = this user id). */
  responsible_default?: number;
}

interface TaskSummary {
  summary: Record<Bucket, { total: number; tasks: Task[] }>;
  total: number;
  /** false when more than SUMMARY_SCAN tasks matched: the counts are of the first ones. */
  complete: boolean;
  responsible_default?: number;
}

type Result = TaskList | TaskSummary;

const ids = (what: string) => z.string().trim().min(1).max(1_000).optional().describe(what);
const range = (what: string) =>
  z.string().trim().min(1).max(50).optional().describe(`${what} as "YYYY-MM-DD-YYYY-MM-DD" (inclusive; "YYYY-MM-DD-" or "-YYYY-MM-DD" leave an end open; one date is that day).`);

const bucketOf = (group: string | undefined): Bucket => (Object.keys(BUCKETS) as (keyof typeof BUCKETS)[]).find((b) => (BUCKETS[b] as readonly string[]).includes(group ?? '')) ?? 'other';

export const getTasks = collabTool({
  name: 'getTasks',
  description:
    'List tasks with Podio\'s filters; without a filter saying whose or where (responsible, created_by, completed_by, reference, app, space, org, reassigned) ' +
    'it lists YOUR tasks. Grouped as Podio\'s task list groups them — by due date (Overdue, Today, Tomorrow, This week, Later, No due date, then Done; in your timezone) ' +
    'unless grouping says created_by, responsible, app, space or org. Filters: completed; responsible/created_by/completed_by user ids "1001,1002"; due_date, ' +
    'created_on, completed_on ranges "YYYY-MM-DD-YYYY-MM-DD"; label id; app/space/org ids; reference "item:30061;item:30062"; external_id; files; reassigned ' +
    '(tasks you gave to others); created_via (client id). sort_by rank (default), created_on or completed_on; limit up to 100, offset. summary: true answers ' +
    'counts instead — overdue, due today, due this week, other — with limit sample tasks per group (default 4) over open tasks unless completed is set. Read-only.',
  input: z.strictObject({
    summary: z.boolean().default(false).describe('Answer counts per group (overdue, today, this week, other) with sample tasks instead of the list.'),
    completed: z.boolean().optional().describe('true: done tasks only; false: open ones only; absent: both (summary: open only).'),
    responsible: ids('Tasks of these user ids, comma-separated ("1001,1002"); default: yours when no other filter says whose.'),
    created_by: ids('Tasks created by these user ids, comma-separated.'),
    completed_by: ids('Tasks completed by these user ids, comma-separated.'),
    due_date: range('Due between'),
    created_on: range('Created between'),
    completed_on: range('Completed between'),
    created_via: ids('Tasks created through this API client id.'),
    label: numericId().optional().describe('Tasks with this label id (getLabels).'),
    app: ids('Tasks on items of these app ids, comma-separated.'),
    space: ids('Tasks in these space ids, comma-separated.'),
    org: ids('Tasks in these org ids, comma-separated.'),
    reference: z.string().trim().min(1).max(1_000).optional().describe('Tasks attached to these objects: "type:id" separated by ";", e.g. "item:30061;item:30062".'),
    external_id: z.string().trim().min(1).max(200).optional().describe('The task with this external_id.'),
    files: z.boolean().optional().describe('true: only tasks with files; false: only without.'),
    reassigned: z.boolean().optional().describe('true: tasks you created and gave to someone else; false: the others.'),
    grouping: z.enum(GROUPINGS).default('due_date').describe('How the list is grouped: due_date (default, as Podio\'s task list), created_by, responsible, app, space or org.'),
    sort_by: z.enum(['rank', 'created_on', 'completed_on']).default('rank').describe('Order within a group: rank (Podio\'s manual order, default), created_on or completed_on.'),
    sort_desc: z.boolean().default(false).describe('Descending order (default false).'),
    limit: z.number().int().min(1).max(100).optional().describe('Tasks per page, 1-100 (default 30); with summary, sample tasks per group (default 4).'),
    offset: offset(),
    view: z.enum(['full']).optional().describe('"full" returns each task in full (description, files, ref) as getTask does.'),
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run(input, ctx): Promise<Result> {
    const { summary, grouping, sort_by, sort_desc, limit, offset, view, ...filters } = input;
    const self = await me(ctx);
    const query: PodioTaskQuery = { ...taskQuery(filters as TaskFilters, self.user_id), sort_by, sort_desc, ...(view ? { view } : {}) };
    const responsible_default = input.responsible === undefined && query.responsible === String(self.user_id) ? { responsible_default: self.user_id } : {};
    if (!summary) {
      const page = await ctx.client.listTasks({ ...query, grouping, limit: limit ?? 30, offset });
      return { tasks: page.map((t) => toTask(t, view !== 'full')), grouping, ...responsible_default };
    }
    // Podio's own summary (GET /task/summary) knows no "this week" and no filters: the list grouped by due date is counted instead.
    const sample = limit ?? 4;
    const out: TaskSummary = { summary: { overdue: { total: 0, tasks: [] }, today: { total: 0, tasks: [] }, this_week: { total: 0, tasks: [] }, other: { total: 0, tasks: [] } }, total: 0, complete: true, ...responsible_default };
    for (let at = 0; ; at += PAGE) {
      if (at >= SUMMARY_SCAN) {
        out.complete = false;
        break;
      }
      const page = await ctx.client.listTasks({ ...query, completed: input.completed ?? false, grouping: 'due_date', limit: PAGE, offset: at });
      for (const t of page) {
        const b = out.summary[bucketOf(typeof t.group === 'string' ? t.group : undefined)];
        b.total++;
        if (b.tasks.length < sample) b.tasks.push(toTask(t, true));
      }
      out.total += page.length;
      if (page.length < PAGE) break;
    }
    return out;
  },
  text: (r: Result, input) => {
    const whose = r.responsible_default !== undefined ? 'your tasks' : 'tasks';
    if ('summary' in r) {
      const lines = [`${whose}: ${plural(r.total, 'task')}${r.complete ? '' : ` counted (the first ${SUMMARY_SCAN.toLocaleString('en-US')}; narrow the filters for exact counts)`}`];
      for (const b of Object.keys(r.summary) as Bucket[]) {
        const g = r.summary[b];
        lines.push(`${BUCKET_TITLES[b]}: ${g.total}`, ...g.tasks.map((t) => `  ${taskLine(t)}`));
        if (g.total > g.tasks.length && g.tasks.length) lines.push(`  … ${g.total - g.tasks.length} more`);
      }
      return lines.join('\n');
    }
    const size = input.limit ?? 30;
    const by = r.grouping === 'due_date' ? 'by due date' : `by ${r.grouping.replace('_', ' ')}`;
    return [
      ...(r.tasks.length ? [`${whose}, grouped ${by}:`] : []),
      ...groupedLines(r.tasks),
      listFooter({ shown: r.tasks.length, noun: 'task', next: r.tasks.length >= size ? { param: 'offset', value: input.offset + r.tasks.length, also: 'with the same filters' } : undefined, empty: `no ${whose} match` }),
    ].join('\n');
  },
  example: {
    input: { completed: false, limit: 2, offset: 1 },
    result: {
      grouping: 'due_date',
      responsible_default: 1001,
      tasks: [
        {
          task_id: 40002,
          text: 'Prepare the Q1 pipeline review',
          description: null,
          status: 'active',
          private: false,
          started: false,
          due_date: '2026-01-15',
          due_time: null,
          due_on: null,
          responsible: 'Ann Becker',
          responsible_id: 1001,
          created_by: { user_id: 1001, name: 'Ann Becker' },
          created_on: '2025-12-02 09:00:00',
          completed_on: null,
          ref_type: null,
          ref_id: null,
          ref_title: null,
          ref_app: null,
          ref_link: null,
          labels: [{ label_id: 45002, text: 'Follow-up', color: 'F7F0C5' }],
          files: [],
          link: 'https://podio.com/tasks/40002',
          reminder: null,
          group: 'due_today',
        },
        {
          task_id: 40003,
          text: 'Call Northwind about the renewal',
          description: null,
          status: 'active',
          private: false,
          started: true,
          due_date: '2026-01-16',
          due_time: '10:00:00',
          due_on: '2026-01-16 10:00:00',
          responsible: 'Ann Becker',
          responsible_id: 1001,
          created_by: { user_id: 1001, name: 'Ann Becker' },
          created_on: '2025-12-03 09:00:00',
          completed_on: null,
          ref_type: 'item',
          ref_id: 30062,
          ref_title: 'Renewal — Bluefin Logistics',
          ref_app: { app_id: 8102, name: 'Deals' },
          ref_link: 'https://podio.com/sandbox-co/sales/apps/deals/items/62',
          labels: [],
          files: [],
          link: 'https://podio.com/tasks/40003',
          reminder: { remind_delta: 30 },
          group: 'due_tomorrow',
        },
      ],
    },
  },
});
