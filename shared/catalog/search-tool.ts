import * as z from 'zod';
import { invalidParameter } from '../core/errors';
import type { CatalogClient } from '../core/registry';
import { defineTool } from '../core/tool';
import { hitView, registryIndex, requiredLine, searchIndex, SEARCH_LIMIT } from './search';

/**
 * `search_tools`: the tools for a task, ranked by shared/catalog/search.ts — a tool of the service
 * itself, registered beside the platforms' (shared/lambda/runtime.ts) and run by `execute` like
 * every other (rate limit, validation, access log, audit trail), for `GET /v1/tools/search`
 * (shared/http/search-route.ts) and MCP's `search_tools` (shared/mcp/server.ts) alike: one input
 * schema, one set of messages. It reaches no vendor: its client is the catalog as far as the
 * caller may see it (a key's policy, an MCP endpoint's ?toolsets= and ?read_only=).
 */
export const SEARCH_TOOL = 'search_tools';

const input = z.strictObject({
  query: z.string().trim().min(1).max(500).describe('What you want to do, in plain words, e.g. "add a comment to a deal".'),
  platform: z.string().optional().describe('Only tools of this platform, e.g. "crm".'),
  limit: z.number().int().min(1).max(SEARCH_LIMIT.max).default(SEARCH_LIMIT.default).describe(`How many tools, 1-${SEARCH_LIMIT.max} (default ${SEARCH_LIMIT.default}).`),
});

export type SearchHitView = ReturnType<typeof hitView>;
export interface SearchResult {
  query: string;
  platform?: string;
  tools: SearchHitView[];
}

export const searchTool = defineTool<typeof input, SearchResult, CatalogClient>({
  name: SEARCH_TOOL,
  platform: '',
  description:
    'Find the tools for a task among every platform\'s tools, listed or not: ranks them by name, description and parameter names. Returns the best matches ' +
    '(platform, tool, first sentence of its description, required parameters).',
  input,
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run({ query, platform, limit }, { client }) {
    if (platform !== undefined && !client.registry.platforms.has(platform)) {
      const known = [...client.registry.platforms.keys()].join(', ');
      throw invalidParameter('platform', `one of ${known}`, `Unknown platform "${platform.slice(0, 40)}"; platforms here: ${known}.`);
    }
    const tools = searchIndex(await registryIndex(client.registry), query, limit, platform, client.allows).map(hitView);
    return { query, ...(platform ? { platform } : {}), tools };
  },
  text: ({ query, tools }) =>
    tools.length
      ? `${tools.map((h) => `${h.platform}/${h.tool} (${h.annotations.readOnly ? 'read' : 'write'}): ${h.description}\n  required: ${requiredLine(h.required)}`).join('\n')}\n${tools.length} tools for "${query}".`
      : `No tool matches "${query}". Try other words.`,
  example: { input: { query: 'add a comment to a deal', limit: 1 }, result: { query: 'add a comment to a deal', tools: [] } },
});
