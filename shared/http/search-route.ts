import type { Hono } from 'hono';
import { failure } from '../core/envelope';
import { execute } from '../core/execute';
import type { Runtime } from '../core/runtime';
import { SEARCH_TOOL } from '../catalog/search-tool';
import { bearerKey } from '../identity/bearer';
import { respond } from './respond';

/**
 * `GET /v1/tools/search?query=…&platform=…&limit=…`: the tools for a task. The registered tool
 * search_tools (shared/catalog/search-tool.ts) run by `execute` as every tool call — the same
 * validation and messages as MCP's search_tools, the rate limit (a platform's counter when the
 * query names one, the service's own otherwise), the access log and the audit trail. Registered
 * before the tool list route.
 */
export function searchRoute(app: Hono<any>, rt: Runtime): void {
  app.get('/v1/tools/search', async (c) => {
    const auth = bearerKey(c.req.header('authorization'));
    if (!auth.ok) return respond(failure(auth.error, { platform: '', tool: '' }));
    const q = c.req.query();
    // The query string's text as the tool's parameters: a limit is a number (not one: the tool names it).
    const params = { query: q.query ?? '', ...(q.platform !== undefined ? { platform: q.platform } : {}), ...(q.limit !== undefined ? { limit: q.limit.trim() !== '' && Number.isFinite(Number(q.limit)) ? Number(q.limit) : q.limit } : {}) };
    const platform = q.platform !== undefined && rt.registry.platforms.has(q.platform) ? q.platform : '';
    return respond(await execute(rt, { platform, tool: SEARCH_TOOL, key: auth.key, caller: rt.identity.resolve({ key: auth.key }), params, format: 'json', surface: 'rest' }));
  });
}
