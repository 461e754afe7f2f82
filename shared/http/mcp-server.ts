/**
 * The MCP server (Streamable HTTP, stateless, JSON responses) on the official SDK. Loaded by
 * shared/http/mcp.ts with a dynamic import on the first MCP request only: the SDK (and its ajv)
 * is ~300 KB that a plain tool call never evaluates. It maps tools/list to the catalog and
 * tools/call to a `Call` for execute, and the `Outcome` back to a tool result; nothing else.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, type CallToolResult, type Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { execute } from '../execute';
import { failure } from '../envelope';
import type { Runtime } from '../runtime';
import { applyFilter, catalog, type CatalogEntry, type CatalogFilter } from '../schemas/catalog';
import { mcpTool } from '../schemas/providers';
import { hitView, registryIndex, searchIndex, SEARCH_LIMIT } from '../search';
import { parseInput } from '../validate';
import { invalidParameter, type ToolError } from '../errors';
import type { Platform } from '../tool';

/** What one MCP request serves: a platform's tools, or (platform undefined) every platform's. */
export interface McpScope {
  platform?: Platform;
  filter: CatalogFilter;
  /** A service key's policy (shared/identity): only the tools it may call are listed and served. */
  allow?: (entry: CatalogEntry) => boolean;
  /** `?format=json` on the endpoint URL: results also carry the JSON result as structuredContent. */
  structured: boolean;
  /** `?page_size=N`: tools/list in pages of N with cursors (all at once otherwise). */
  pageSize?: number;
}

export interface McpCall {
  key: string;
  /** The connection a service key acts through (X-Connection-Id or ?connection=); `_meta.connection_id` overrides it per call. */
  connection?: string;
  deadline?: number;
  requestId?: string;
  /** tools/call requests (by JSON-RPC id) whose arguments the HTTP edge refused (a key given twice). */
  refused?: ReadonlyMap<unknown, ToolError>;
}

const VERSION = '0.1.0';

/** The server answers tools only and never elicits, so no JSON Schema is ever validated here. */
const NEVER_VALIDATES: jsonSchemaValidator = {
  getValidator() {
    throw new Error('this MCP server neither elicits nor validates client schemas');
  },
};

/** The combined endpoint's own tool: search the catalog when a host cannot load all tools. */
export const SEARCH_TOOL = 'search_tools';
const searchInput = z.strictObject({
  query: z.string().min(1).max(500).describe('What you want to do, in plain words, e.g. "add a comment to a deal".'),
  platform: z.string().optional().describe('Only tools of this platform, e.g. "crm".'),
  limit: z.number().int().min(1).max(SEARCH_LIMIT.max).default(SEARCH_LIMIT.default).describe(`How many tools, 1-${SEARCH_LIMIT.max} (default ${SEARCH_LIMIT.default}).`),
});

/**
 * Names on the combined endpoint are always `<platform>_<tool>`: a name stays the same when a
 * platform added later brings a tool of the same name (prefixing only on collision would rename
 * tools hosts already know). Per-platform endpoints use the plain tool names.
 */
export const combinedName = (e: Pick<CatalogEntry, 'platform' | 'name'>) => `${e.platform}_${e.name}`;

/** MCP tool objects, built once per catalog entry (the entries themselves are cached per container). */
const mcpTools = new WeakMap<CatalogEntry, { plain: McpTool; combined: McpTool }>();

function toMcp(entry: CatalogEntry, combined: boolean): McpTool {
  let built = mcpTools.get(entry);
  if (!built) {
    built = { plain: mcpTool(entry) as McpTool, combined: mcpTool(entry, combinedName(entry)) as McpTool };
    mcpTools.set(entry, built);
  }
  return combined ? built.combined : built.plain;
}

const searchTool: McpTool = {
  name: SEARCH_TOOL,
  title: 'Search tools',
  description:
    'Find the tools for a task among every platform\'s tools: ranks them by name, description and parameter names. Returns the best matches ' +
    '(platform, tool, first sentence of its description); call a match by its name here: <platform>_<tool>.',
  inputSchema: (() => {
    const { $schema: _, ...s } = z.toJSONSchema(searchInput, { io: 'input' });
    return s as McpTool['inputSchema'];
  })(),
  annotations: { title: 'Search tools', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
};

/** The entries one scope serves (filters applied), in registry order. */
async function entriesOf(rt: Runtime, scope: McpScope): Promise<CatalogEntry[]> {
  const entries = applyFilter(await catalog(rt.registry, scope.platform ? [scope.platform] : undefined), scope.filter);
  return scope.allow ? entries.filter(scope.allow) : entries;
}

/**
 * A JSON-RPC error: the SDK answers a thrown error with its code and message. (McpError would put
 * "MCP error -32602:" in the message, which the client's McpError prefixes once more.)
 */
const protocolError = (code: ErrorCode, message: string) => Object.assign(new Error(message), { code });

const encodeCursor = (offset: number) => Buffer.from(JSON.stringify({ offset }), 'utf8').toString('base64url');
function decodeCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  try {
    const { offset } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { offset?: unknown };
    if (typeof offset === 'number' && Number.isInteger(offset) && offset >= 0) return offset;
  } catch {
    // falls through to the protocol error
  }
  throw protocolError(ErrorCode.InvalidParams, 'Invalid cursor: pass the nextCursor of the previous tools/list answer unchanged.');
}

/** Our error envelope as the text of an isError result: code, message and details (parameter, expected…). */
const errorResult = (body: unknown): CallToolResult => ({ isError: true, content: [{ type: 'text', text: JSON.stringify(body) }] });

/** Answers one MCP request with a fresh server and transport (a stateless transport serves one request). */
export async function serveMcp(rt: Runtime, request: Request, messages: unknown, scope: McpScope, call: McpCall): Promise<Response> {
  const combined = !scope.platform;
  const server = new Server(
    { name: scope.platform ? `tool-execution-service-${scope.platform.name}` : 'tool-execution-service', version: VERSION },
    {
      capabilities: { tools: { listChanged: false } },
      instructions: scope.platform
        ? `Tools of ${scope.platform.vendor} (platform "${scope.platform.name}"). Results are compact text; errors name the parameter to fix.`
        : `Tools of every platform, named <platform>_<tool>. Use ${SEARCH_TOOL} to find the right one. Results are compact text; errors name the parameter to fix.`,
      jsonSchemaValidator: NEVER_VALIDATES,
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, async (req) => {
    const all = (await entriesOf(rt, scope)).map((e) => toMcp(e, combined));
    const tools = combined ? [searchTool, ...all] : all;
    if (!scope.pageSize) return { tools };
    const offset = decodeCursor(req.params?.cursor);
    const next = offset + scope.pageSize;
    return { tools: tools.slice(offset, next), ...(next < tools.length ? { nextCursor: encodeCursor(next) } : {}) };
  });

  server.setRequestHandler(CallToolRequestSchema, async (req, extra): Promise<CallToolResult> => {
    const name = req.params.name;
    const args = req.params.arguments ?? {};
    if (combined && name === SEARCH_TOOL) return searchTools(rt, args, scope.allow);
    const entry = (await entriesOf(rt, scope)).find((e) => (combined ? combinedName(e) : e.name) === name);
    // An unknown tool is a protocol error (the MCP specification's own example); so is one this
    // endpoint does not serve (?toolsets, ?read_only): the host asked for a tool it was not given.
    if (!entry) throw protocolError(ErrorCode.InvalidParams, `Unknown tool "${name.slice(0, 100)}" on this endpoint. List the tools with tools/list.`);
    // Safe writes through the call's _meta, as the HTTP header and queries (shared/safe-call.ts).
    const meta = (req.params._meta ?? {}) as Record<string, unknown>;
    const refused = call.refused?.get(extra.requestId);
    const outcome = await execute(rt, {
      platform: entry.platform,
      tool: entry.name,
      key: call.key,
      connection: typeof meta.connection_id === 'string' ? meta.connection_id : call.connection,
      params: args,
      ...(refused ? { refused } : {}),
      format: scope.structured ? 'structured' : 'text',
      ...(call.deadline !== undefined ? { deadline: call.deadline } : {}),
      ...(call.requestId ? { requestId: call.requestId } : {}),
      idempotencyKey: meta.idempotency_key,
      dryRun: meta.dry_run,
      maxTokens: meta.max_tokens,
    });
    // Tool errors (bad parameters, the vendor's refusal, rate limit) are results the model can act on.
    if (!outcome.body.success) return errorResult(outcome.body);
    // As HTTP's Idempotent-Replayed and Dry-Run headers say it.
    const said = {
      ...(outcome.headers['Idempotent-Replayed'] === 'true' ? { idempotent_replayed: true } : {}),
      ...(outcome.headers['Dry-Run'] === 'true' ? { dry_run: true } : {}),
    };
    const data = outcome.structured;
    return {
      content: [{ type: 'text', text: String(outcome.body.data) }],
      ...(data !== undefined ? { structuredContent: data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : { result: data } } : {}),
      ...(Object.keys(said).length ? { _meta: said } : {}),
    };
  });

  const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request, { parsedBody: messages });
  } finally {
    // JSON mode answers only once every response is in: nothing is left to send.
    void server.close();
  }
}

async function searchTools(rt: Runtime, args: Record<string, unknown>, allow?: (entry: CatalogEntry) => boolean): Promise<CallToolResult> {
  let input: z.output<typeof searchInput>;
  try {
    input = parseInput(searchInput, args);
    if (input.platform !== undefined && !rt.registry.platforms.has(input.platform)) {
      const known = [...rt.registry.platforms.keys()].join(', ');
      throw invalidParameter('platform', `one of ${known}`, `Unknown platform "${input.platform}"; platforms here: ${known}.`);
    }
  } catch (err) {
    return errorResult(failure(err, { platform: '', tool: SEARCH_TOOL }).body);
  }
  const { query, platform, limit } = input;
  const hits = searchIndex(await registryIndex(rt.registry), query, limit, platform, allow).map(hitView);
  const lines = hits.map((h) => `${h.platform}_${h.tool} (${h.annotations.readOnly ? 'read' : 'write'}): ${h.description}`);
  const text = hits.length ? `${lines.join('\n')}\n${hits.length} tools for "${query}"` : `No tool matches "${query}". Try other words.`;
  return { content: [{ type: 'text', text }], structuredContent: { query, tools: hits.map((h) => ({ ...h, name: `${h.platform}_${h.tool}` })) } };
}
