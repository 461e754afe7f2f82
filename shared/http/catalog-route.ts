import type { Hono } from 'hono';
import { knownPlatform, listTools, parseProvider } from '../catalog/list-tools';
import type { Runtime } from '../core/runtime';
import { parseFilter } from '../catalog/catalog';
import { parseProfile } from '../catalog/profiles';
import { keyed } from './respond';

/**
 * `GET /v1/tools/{platform}`: the platform's tools (names, descriptions, annotations, groups, JSON
 * Schemas) from the catalog built once per container, with the filters ?toolsets= and ?read_only=
 * and in a provider's shape with ?schema=openai|anthropic|gemini|mcp (with ?profile=deferred or
 * ?max_tools=N, the provider's deferred loading).
 */
export function catalogRoute(app: Hono<any>, rt: Runtime): void {
  app.get('/v1/tools/:platform', (c) => {
    const name = c.req.param('platform');
    return keyed(c, name, async (key, headers) => {
      knownPlatform(rt, name);
      const q = c.req.query();
      const provider = parseProvider(q.schema);
      const profile = q.profile !== undefined || q.max_tools !== undefined ? parseProfile(q) : undefined;
      return listTools(rt, { platform: name, key, filter: parseFilter(q), provider, ...(profile ? { profile } : {}) }, headers);
    });
  });
}
