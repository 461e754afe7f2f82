import * as z from 'zod';
import type { TapeAutomation, TapeAutomationScope } from '../../wire';
import { cursorFor, wrapCursor } from '../../automations/cursors';
import { automationLine, automationText, isUnreadable, toAutomation, type AutomationFull, type AutomationSummary } from '../../automations/summary';
import { id, page } from '../../../../shared/core/params';
import { pageCursor } from '../../params';
import { listFooter } from '../../../../shared/core/render';
import { dbappTool } from '../../tool';
import { EXAMPLE_SUMMARY } from '../../automations/examples';

type Page = { total: number; cursor: string | null; automations: TapeAutomation[] };
type Result = { total: number; cursor: string | null; automations: (AutomationSummary | AutomationFull)[]; readable_limit?: number; warning?: string };

const describeScope = (s: string) => (s === 'org' ? 'the organization listing' : `the listing of ${s.replace(':', ' ')}`);

export const listAutomations = dbappTool({
  name: 'listAutomations',
  description:
    'List automations of one app (app_id), one workspace (workspace_id) or, with neither, every workspace the key administrates, oldest first. ' +
    'Each as a summary (trigger type, action types, paused, broken); verbose adds the full definition. Pages of up to 100 (default 50): pass the ' +
    'returned cursor with the same app_id / workspace_id for the next page; the last page answers cursor: null. If an automation on the page cannot be read, the readable part is ' +
    'returned with readable_limit and a warning.',
  input: z.strictObject({
    app_id: id('List the automations of this app (from listApps).').optional(),
    workspace_id: id('List the automations of this workspace (ignored when app_id is given).').optional(),
    limit: page({ default: 50, max: 100 }),
    cursor: pageCursor(', passed with the same scope (app_id / workspace_id) it came from'),
    verbose: z.boolean().default(false).describe('Full definitions (description, trigger, filter, actions) instead of summaries.'),
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run(input, { client }): Promise<Result> {
    const scope: TapeAutomationScope = input.app_id !== undefined ? { app_id: input.app_id } : input.workspace_id !== undefined ? { workspace_id: input.workspace_id } : {};
    const scopeKey = 'app_id' in scope ? `app:${scope.app_id}` : 'workspace_id' in scope ? `workspace:${scope.workspace_id}` : 'org';
    const cursor = cursorFor(input.cursor, scopeKey, describeScope);
    const page = (limit: number): Promise<Page> => client.listAutomations(scope, { limit, ...(cursor ? { cursor } : {}) });
    const shape = (p: Page) => ({ total: p.total, cursor: wrapCursor(scopeKey, p.cursor), automations: p.automations.map((a) => toAutomation(a, input.verbose)) });
    try {
      return shape(await page(input.limit));
    } catch (err) {
      if (!isUnreadable(err)) throw err;
    }
    // An unreadable automation fails the whole page: find the longest readable prefix (binary search on the page size).
    let good: Page | undefined;
    let lo = 0;
    let hi = input.limit;
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      try {
        good = await page(mid);
        lo = mid;
      } catch (err) {
        if (!isUnreadable(err)) throw err;
        hi = mid;
      }
    }
    const last = good?.automations.at(-1);
    const after = last ? `right after #${last.id}` : cursor ? 'first on this page' : 'the oldest in this scope';
    return {
      ...(good ? shape(good) : { total: 0, cursor: null, automations: [] }),
      readable_limit: lo,
      warning:
        `Only the first ${lo} automation(s) of this page can be read: the next one (${after}) has an unreadable pre-migration definition. ` +
        'Find its id with getAutomation on the ids that follow (it answers bricked: true) and heal it with updateAutomation {"actions": []}.' +
        (good ? '' : ' total is unknown while it stays unreadable.'),
    };
  },
  text: (r, input) => {
    const lines = r.automations.map((a) => (input.verbose ? automationText(a) : automationLine(a)));
    if (r.warning) lines.push(`WARNING: ${r.warning}`);
    // A cursor is pinned to its scope: the footer says to pass the same one.
    const also = input.app_id ? `with app_id ${input.app_id}` : input.workspace_id ? `with workspace_id ${input.workspace_id}` : undefined;
    const next = r.cursor ? { param: 'cursor', value: r.cursor, also } : undefined;
    lines.push(listFooter({ shown: r.automations.length, total: r.total, noun: 'automation', nounAfterTotal: true, next }));
    return lines.join('\n');
  },
  example: {
    input: { app_id: 87, limit: 2 },
    result: {
      total: 12,
      cursor: 'eyJzIjoiYXBwOjg3IiwiYyI6ImV5SmhiR2NpT2lKSS4uLiJ9',
      automations: [EXAMPLE_SUMMARY],
    },
  },
});
