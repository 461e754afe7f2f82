import type { Store } from '../core/store';

/**
 * MCP tasks as the admin API lists them, read from the Store where shared/mcp/tasks.ts keeps them:
 * per owner a sequence `mcptasks#<owner>` (a counter) numbering slots `mcptasks#<owner>#<n>` →
 * task id, the task at `mcptask#<owner>#<id>`, and beside it, while a Lambda worker has yet to run
 * it, its job (`…#job`: the platform and tool among what it holds). Identity sits below the MCP
 * layer (docs/architecture.md#layers), so it reads these keys rather than importing McpTasks;
 * test/identity/console-admin.test.ts holds the two together through a real MCP task. Only what a
 * listing shows is read out: never the result, arguments or the sealed key of a job.
 */

interface StoredTask {
  task: { taskId: string; status: string; statusMessage?: string; createdAt: string; lastUpdatedAt: string; ttl: number };
}

/** Tasks read per owner at most. */
const MAX_TASKS = 200;

export interface ListedTask {
  task_id: string;
  status: string;
  status_message?: string;
  created_at: string;
  updated_at: string;
  expires_at: string;
  platform?: string;
  tool?: string;
}

const many = <T>(store: Store, keys: string[]): Promise<(T | undefined)[]> => (store.getMany ? store.getMany<T>(keys) : Promise.all(keys.map((k) => store.get<T>(k))));

/** An owner's live tasks, newest first. */
export async function tasksOf(store: Store, owner: string, now = Date.now()): Promise<ListedTask[]> {
  const count = store.add ? await store.add(`mcptasks#${owner}`, 0, 86_400) : 0;
  const slots = Array.from({ length: Math.min(count, MAX_TASKS) }, (_, i) => `mcptasks#${owner}#${count - i}`);
  const ids = (await many<string>(store, slots)).filter((v): v is string => typeof v === 'string');
  const kept = await many<StoredTask>(store, ids.map((id) => `mcptask#${owner}#${id}`));
  const jobs = await many<{ platform?: unknown; tool?: unknown }>(store, ids.map((id) => `mcptask#${owner}#${id}#job`));
  return kept.flatMap((k, i) => {
    if (!k?.task) return [];
    const t = k.task;
    const expires = Date.parse(t.createdAt) + t.ttl;
    // Past its ttl a working task can no longer end (shared/mcp/tasks.ts reads it as failed).
    const status = expires <= now && (t.status === 'working' || t.status === 'input_required') ? 'failed' : t.status;
    const job = jobs[i];
    return [{
      task_id: t.taskId,
      status,
      ...(t.statusMessage ? { status_message: t.statusMessage.slice(0, 300) } : {}),
      created_at: t.createdAt,
      updated_at: t.lastUpdatedAt,
      expires_at: new Date(expires).toISOString(),
      ...(typeof job?.platform === 'string' ? { platform: job.platform } : {}),
      ...(typeof job?.tool === 'string' ? { tool: job.tool } : {}),
    }];
  });
}

/** A task with its tenant and whose it is: the service key, or the MCP sign-in (grant) it was made through. */
export const taskView = (tenant: string, owner: { key_id?: string; sign_in?: string }, t: ListedTask) => ({
  ...t,
  tenant,
  ...(owner.key_id ? { key_id: owner.key_id } : {}),
  ...(owner.sign_in ? { grant_id: owner.sign_in } : {}),
});
