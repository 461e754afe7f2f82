import * as z from 'zod';
import { invalidParameter } from '../../../../shared/core/errors';
import type { TapeRunListBody } from '../../wire';
import { unwrapCursor, wrapCursor } from '../../automations/cursors';
import { runLine, toRun, type AutomationRun } from '../../automations/runs';
import { id, page } from '../../../../shared/core/params';
import { pageCursor } from '../../params';
import { listFooter } from '../../../../shared/core/render';
import { dbappTool } from '../../tool';
import { EXAMPLE_RUN } from '../../automations/examples';

const DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
/** A time that exists (no February 31st, no hour 25): read back, it is the text it was written as. */
const realTime = (v: string) => {
  const d = new Date(`${v.replace(' ', 'T')}Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 19) === v.replace(' ', 'T');
};
const utcTime = (what: string) =>
  z.string().regex(DATETIME).refine(realTime, 'a UTC time that exists, "YYYY-MM-DD HH:MM:SS"').optional().describe(what);
const STATUSES = ['pending', 'running', 'completed', 'failed', 'cancelled'] as const;
const SCOPE_KEYS = ['automation_id', 'app_id', 'workspace_id', 'status', 'created_at_from', 'created_at_to'] as const;

type Result = { total: number; cursor: string | null; runs: AutomationRun[] };

export const listAutomationRuns = dbappTool({
  name: 'listAutomationRuns',
  description:
    'Run history (last 30 days), newest first, without logs: of one automation (automation_id), one app (app_id), one workspace (workspace_id) or, with ' +
    'none, the whole organization; optionally only some statuses and a created_at window. Simulation runs appear only in an automation\'s history ' +
    'without status or date filters. Pages of up to 500 (default 50): for the next page pass the returned cursor alone (it keeps the scope and filters); the last page answers cursor: null. ' +
    'getAutomationRun shows one run with its log.',
  input: z.strictObject({
    automation_id: id('Runs of this automation (includes its simulation runs unless status or dates are given).').optional(),
    app_id: id('Runs of the automations of this app.').optional(),
    workspace_id: id('Runs of the automations of this workspace.').optional(),
    status: z.array(z.enum(STATUSES)).min(1).optional().describe('Only these statuses: pending, running, completed, failed, cancelled.'),
    created_at_from: utcTime('Only runs created at or after this UTC time, "YYYY-MM-DD HH:MM:SS".'),
    created_at_to: utcTime('Only runs created at or before this UTC time, "YYYY-MM-DD HH:MM:SS".'),
    limit: page({ default: 50, max: 500 }),
    cursor: pageCursor(', passed alone (with limit at most): it carries the scope and filters'),
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run(input, { client }): Promise<Result> {
    const scoped = SCOPE_KEYS.filter((k) => input[k] !== undefined);
    if (input.cursor !== undefined) {
      if (scoped.length) throw invalidParameter(scoped[0]!, 'nothing besides cursor and limit', `A cursor carries the scope and filters of its listing: pass cursor (and limit) alone, without ${scoped.join(', ')}.`);
      const { scope, cursor } = unwrapCursor(input.cursor);
      const [kind, idText] = scope.split(':');
      const page =
        kind === 'all'
          ? await client.listAutomationRuns({ cursor, limit: input.limit })
          : await client.listScopedAutomationRuns({ [`${kind}_id`]: Number(idText) } as { app_id: number }, { cursor, limit: input.limit });
      return { total: page.total, cursor: wrapCursor(scope, page.cursor), runs: page.automation_runs.map(toRun) };
    }
    const ids = [input.automation_id !== undefined, input.app_id !== undefined, input.workspace_id !== undefined].filter(Boolean).length;
    if (ids > 1) throw invalidParameter('automation_id', 'one of automation_id, app_id, workspace_id', 'Pick one scope: automation_id, app_id or workspace_id (none = the whole organization).');
    if (input.created_at_from && input.created_at_to && input.created_at_from > input.created_at_to) {
      throw invalidParameter('created_at_from', `a time at or before created_at_to (${input.created_at_to})`, 'created_at_from must not be later than created_at_to.');
    }
    const filtered = input.status !== undefined || input.created_at_from !== undefined || input.created_at_to !== undefined;
    if (!filtered && ids === 1) {
      // The scoped listings (the automation's one includes simulation runs) take only paging.
      const [kind, value] = input.automation_id !== undefined ? ['automation', input.automation_id] : input.app_id !== undefined ? ['app', input.app_id] : ['workspace', input.workspace_id!];
      const page = await client.listScopedAutomationRuns({ [`${kind}_id`]: value } as { app_id: number }, { limit: input.limit });
      return { total: page.total, cursor: wrapCursor(`${kind}:${value}`, page.cursor), runs: page.automation_runs.map(toRun) };
    }
    const body: TapeRunListBody = {
      limit: input.limit,
      ...(input.automation_id !== undefined ? { automation_ids: [input.automation_id] } : {}),
      ...(input.app_id !== undefined ? { app_ids: [input.app_id] } : {}),
      ...(input.workspace_id !== undefined ? { workspace_ids: [input.workspace_id] } : {}),
      ...(input.status ? { status: input.status } : {}),
      ...(input.created_at_from ? { created_at_from: input.created_at_from } : {}),
      ...(input.created_at_to ? { created_at_to: input.created_at_to } : {}),
    };
    const page = await client.listAutomationRuns(body);
    return { total: page.total, cursor: wrapCursor('all', page.cursor), runs: page.automation_runs.map(toRun) };
  },
  text: (r) =>
    [
      ...r.runs.map(runLine),
      listFooter({ shown: r.runs.length, total: r.total, noun: 'run', nounAfterTotal: true, next: r.cursor ? { param: 'cursor', value: r.cursor, also: 'alone' } : undefined }),
    ].join('\n'),
  example: { input: { automation_id: 88, limit: 1 }, result: { total: 37, cursor: null, runs: [EXAMPLE_RUN] } },
});
