import type { Hono } from 'hono';
import type { Runtime } from '../core/runtime';
import { adminListing } from '../identity/admin-page';
import { taskOwnersOf } from '../identity/owners';
import { McpTasks } from './tasks';

/**
 * GET /v1/admin/tasks: every tenant's MCP tasks (or ?tenant='s; ?status= one status), newest
 * first, with their tool and whose they are (the service key, or the MCP sign-in they were made
 * through), for the operator console. A task is kept by its owner (Caller.owner), not its tenant:
 * identity names the tenant's owners (shared/identity/owners.ts) and each one's tasks are listed by
 * McpTasks, which keeps them. Paged as the other admin listings; never a task's arguments, result,
 * input or the sealed key of its worker.
 */
export function taskAdminRoutes(app: Hono<any>, rt: Runtime): void {
  adminListing(app, rt, '/v1/admin/tasks', 'tasks', async (c, id, tenant) => {
    const status = c.req.query('status');
    const owners = await taskOwnersOf(id, tenant);
    const lists = await Promise.all(
      owners.map(async (o) =>
        (await new McpTasks(rt.store, o.owner).listing()).map((t) => ({
          ...t,
          tenant,
          ...(o.key_id ? { key_id: o.key_id } : {}),
          ...(o.sign_in ? { grant_id: o.sign_in } : {}),
        })),
      ),
    );
    return lists.flat().filter((t) => !status || t.status === status).sort((a, b) => b.created_at.localeCompare(a.created_at));
  });
}
