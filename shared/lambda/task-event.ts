import type { Context } from 'aws-lambda';
import type { Runtime } from '../core/runtime';

/**
 * An MCP task's worker invocation (a function serving MCP invoked itself for a task it took:
 * shared/mcp/task-worker.ts), run; undefined for any other event. The worker's module loads
 * on the first such event only, never in a plain call's cold start.
 */
export function taskWorker(rt: Runtime, event: unknown, context: Context): Promise<{ task: string; ran: boolean }> | undefined {
  if (typeof event !== 'object' || event === null || !('tes_task' in event)) return undefined;
  return import('../mcp/task-worker').then((m) => m.runTaskEvent(rt, event as never, context));
}
