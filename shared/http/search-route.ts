import type { Hono } from 'hono';
import { ToolError } from '../core/errors';
import { countCall, hashKey } from '../core/admission';
import { knownPlatform } from '../catalog/list-tools';
import type { Runtime } from '../core/runtime';
import { hitView, registryIndex, searchIndex, SEARCH_LIMIT } from '../catalog/search';
import { catalogFilter } from '../identity';
import { keyed } from './respond';

/** `GET /v1/tools/search?query=…`: the tools for a task, ranked by shared/catalog/search.ts. Registered before the tool list route. */
export function searchRoute(app: Hono<any>, rt: Runtime): void {
  app.get('/v1/tools/search', (c) => keyed(c, '', async (key, headers) => {
    const q = c.req.query();
    const query = (q.query ?? '').trim();
    if (!query) throw new ToolError('INVALID_PARAMETER', 'Query "query" is required: what you want to do, e.g. ?query=add a comment to a deal.', { parameter: 'query', expected: 'text' });
    if (query.length > 500) throw new ToolError('INVALID_PARAMETER', 'Query "query" is longer than 500 characters.', { parameter: 'query', expected: 'at most 500 characters' });
    const platform = q.platform;
    if (platform !== undefined) knownPlatform(rt, platform, 'platform');
    const limit = q.limit === undefined ? SEARCH_LIMIT.default : Number(q.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > SEARCH_LIMIT.max) {
      throw new ToolError('INVALID_PARAMETER', `Query "limit" must be an integer from 1 to ${SEARCH_LIMIT.max}; got "${q.limit}".`, { parameter: 'limit', expected: `integer 1-${SEARCH_LIMIT.max}` });
    }
    await countCall(rt, platform ?? 'search', hashKey(key), headers);
    // A service key's policy (shared/identity): search finds only what the key may call.
    const allow = await catalogFilter(rt, key);
    const tools = searchIndex(await registryIndex(rt.registry), query, limit, platform, allow).map(hitView);
    return { query, ...(platform ? { platform } : {}), tools };
  }));
}
