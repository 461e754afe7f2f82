/**
 * The revisions this server speaks, and the answer to the request a host sends first and most: a
 * lone tools/list of an endpoint's default list. That one is answered here, by the MCP edge
 * (shared/http/mcp.ts), from the JSON the build made (shared/catalog/prebuilt.ts), before the MCP
 * server module (shared/mcp/server.ts, with the execute path and the search index behind it)
 * is loaded at all: a container's first list costs a file read and a copy of its bytes.
 */
import { mcpListKey, documentKeys, prebuiltWithOrigin, type CatalogEntry, type CatalogFilter } from '../catalog/catalog';
import type { Profile } from '../catalog/profiles';
import type { Registry } from '../core/registry';
import type { Platform } from '../core/tool';

/** What an MCP endpoint serves: its platform (or every one), filters, key policy and list shape. */
export interface McpScope {
  platform?: Platform;
  filter: CatalogFilter;
  /** A service key's policy (shared/identity): only the tools it may call are listed and served. */
  allow?: (entry: CatalogEntry) => boolean;
  /**
   * `?format=json` on the endpoint URL: tools/list carries each tool's output schema and results
   * the typed JSON result as structuredContent. Otherwise results are the compact text alone, what
   * every host hands its model as it is (docs/mcp-output.md).
   */
  structured: boolean;
  /** `?page_size=N`: tools/list in pages of N with cursors (all at once otherwise). */
  pageSize?: number;
  /** Which tools tools/list loads (shared/catalog/profiles.ts); every tool of the scope stays callable. */
  profile?: Profile;
  /** The service's public base URL: where the platforms' icons are served. */
  origin?: string;
}

const CLOSE = Buffer.from('}');

export const LATEST_PROTOCOL_VERSION = '2025-11-25';
/** The revisions this server speaks, newest first (the SDK's list: test/mcp/protocol.test.ts compares them). */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = [LATEST_PROTOCOL_VERSION, '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'];

/**
 * The answer to a lone default tools/list (one JSON-RPC request, no cursor; no filter, key
 * policy, page size, profile or typed output on the endpoint), written as the MCP server would write it, from
 * the build's JSON; undefined for any other request, or where there is none (from source): then
 * the MCP server answers, building the list from the catalog. Only messages the server would
 * classify as this very request are taken (test/mcp/prebuilt-list.test.ts).
 */
export function defaultListAnswer(registry: Registry, scope: McpScope, body: unknown, protocolVersion: string | undefined): Response | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const m = body as Record<string, unknown>;
  if (m.jsonrpc !== '2.0' || m.method !== 'tools/list') return undefined;
  const id = m.id;
  if (typeof id !== 'string' && !(typeof id === 'number' && Number.isInteger(id))) return undefined;
  const params = m.params;
  if (params !== undefined && (params === null || typeof params !== 'object' || Array.isArray(params) || (params as Record<string, unknown>).cursor !== undefined)) return undefined;
  if (protocolVersion !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(protocolVersion)) return undefined;
  if (scope.origin === undefined || scope.allow || scope.pageSize || scope.filter.toolsets || scope.filter.readOnly || scope.structured) return undefined;
  if (scope.profile !== undefined && scope.profile.kind !== 'full') return undefined;
  const result = prebuiltWithOrigin(documentKeys.mcpList(mcpListKey(registry, scope.platform)), scope.origin);
  if (result === undefined) return undefined;
  // As jsonResponse (shared/mcp/rpc.ts) writes {jsonrpc, id, result}, with the result already JSON (UTF-8).
  const answer = Buffer.concat([Buffer.from(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":`), result, CLOSE]);
  return new Response(answer, { status: 200, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } });
}
