/**
 * The revisions this server speaks, and the answer to the request a host sends first and most: a
 * lone tools/list of an endpoint's default list. That one is answered here, by the MCP edge
 * (shared/http/mcp.ts), from the JSON the build made (shared/catalog/prebuilt.ts), before the MCP
 * server module (shared/mcp/server.ts, with the execute path and the search index behind it)
 * is loaded at all: a container's first list costs a file read and one decoding of its bytes.
 */
import { mcpListKey, documentKeys, prebuiltWithOrigin, type CatalogEntry, type CatalogFilter } from '../catalog/catalog';
import type { Profile } from '../catalog/profiles';
import type { Registry } from '../core/registry';
import type { ToolRef } from '../core/call';
import type { Platform } from '../core/tool';
import type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { InputRound } from './input';
import { declaresTypedOutput, LATEST_PROTOCOL_VERSION, META, SUPPORTED_PROTOCOL_VERSIONS } from './revision';

/** What an MCP endpoint serves: its platform (or every one), filters, key policy and list shape. */
export interface McpScope {
  platform?: Platform;
  filter: CatalogFilter;
  /** A service key's policy (shared/identity): only the tools it may call are listed and served. */
  allow?: (entry: ToolRef) => boolean;
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
  /**
   * Tools (and prompts) served instead of the catalog's, on the same protocol core: only the
   * conformance fixture sets it (test/mcp/fixture.ts); production endpoints serve the catalog.
   */
  source?: McpToolSource;
}

/** Tools and prompts an endpoint serves when they do not come from the catalog (McpScope.source). */
export interface McpToolSource {
  tools(): readonly McpTool[];
  /** A call of one of `tools()`; undefined for a name it does not serve. May throw InputRequired or RpcError. */
  call(name: string, args: Record<string, unknown>, round: InputRound | undefined): Promise<CallToolResult> | undefined;
  /** Whether a call of this tool may become a task (the Tasks extension), or must. */
  taskSupport?(name: string): 'optional' | 'required' | undefined;
  /**
   * Whether this round of a task-capable call becomes a task now (default: yes; the server
   * decides); may throw InputRequired to gather input by a round before the task.
   */
  runsAsTask?(name: string, round: InputRound | undefined): boolean;
  prompts?(): readonly Record<string, unknown>[];
  /** prompts/get of one of `prompts()`; undefined for a name it does not serve. */
  getPrompt?(name: string, args: Record<string, unknown>, round: InputRound | undefined): Promise<Record<string, unknown>> | undefined;
}

/** The build's list with a request's origin (one Buffer per origin, prebuiltWithOrigin) as text, decoded once. */
const listTexts = new WeakMap<Buffer, string>();
const isObjectLike = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

export { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS };

/** The server's name and version, in initialize (legacy) and in each 2026-07-28 result's `_meta`. */
export const serverInfoOf = (platform: Platform | undefined) => ({ name: platform ? `tool-execution-service-${platform.name}` : 'tool-execution-service', version: '0.1.0' });

/** How long a 2026-07-28 client may keep a list or discovery answer: the catalog changes with a deployment. */
export const LIST_TTL_MS = 300_000;

/**
 * The body of the answer to a lone default tools/list (one JSON-RPC request, no cursor; no filter, key
 * policy, page size, profile or typed output on the endpoint), written as the MCP server would write it, from
 * the build's JSON; undefined for any other request, or where there is none (from source): then
 * the MCP server answers, building the list from the catalog. Only messages the server would
 * classify as this very request are taken (test/mcp/prebuilt-list.test.ts).
 */
export function defaultListAnswer(registry: Registry, scope: McpScope, body: unknown, protocolVersion: string | undefined, modern = false): string | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const m = body as Record<string, unknown>;
  if (m.jsonrpc !== '2.0' || m.method !== 'tools/list') return undefined;
  const id = m.id;
  if (typeof id !== 'string' && !(typeof id === 'number' && Number.isInteger(id))) return undefined;
  const params = m.params;
  if (params !== undefined && (params === null || typeof params !== 'object' || Array.isArray(params) || (params as Record<string, unknown>).cursor !== undefined)) return undefined;
  if (!modern && protocolVersion !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(protocolVersion)) return undefined;
  if (scope.origin === undefined || scope.allow || scope.pageSize || scope.filter.toolsets || scope.filter.readOnly || scope.structured) return undefined;
  if (scope.profile !== undefined && scope.profile.kind !== 'full') return undefined;
  // A 2026-07-28 client that asked for typed output gets the core's list, with output schemas.
  if (modern && isObjectLike(params) && isObjectLike(params._meta) && declaresTypedOutput(params._meta[META.clientCapabilities])) return undefined;
  const bytes = prebuiltWithOrigin(documentKeys.mcpList(mcpListKey(registry, scope.platform)), scope.origin);
  if (bytes === undefined) return undefined;
  let result = listTexts.get(bytes);
  if (result === undefined) listTexts.set(bytes, (result = bytes.toString('utf8')));
  // As jsonResponse (shared/http/mcp.ts) writes {jsonrpc, id, result}, with the result already JSON;
  // for a 2026-07-28 request (the edge checked it) the result also carries what the core adds to
  // every list. Joined, not copied: V8 keeps the parts of a long string built with + (and a slice) as they are.
  const open = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":`;
  return modern
    ? `${open}${result.slice(0, result.lastIndexOf('}'))},"resultType":"complete","ttlMs":${LIST_TTL_MS},"cacheScope":"public","_meta":${JSON.stringify({ [META.serverInfo]: serverInfoOf(scope.platform) })}}}`
    : `${open}${result}}`;
}

/** The headers of that answer, as jsonResponse (shared/http/mcp.ts) writes them. */
export const LIST_ANSWER_HEADERS: Readonly<Record<string, string>> = { 'content-type': 'application/json', 'cache-control': 'no-store' };
