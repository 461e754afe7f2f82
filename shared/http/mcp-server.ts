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
import { platformIcons } from '../schemas/icons';
import type { Profile } from '../schemas/profiles';
import { mcpListedTool, mcpToolsList, structuredOf } from '../schemas/providers';
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
  /**
   * `?format=json` on the endpoint URL: results also carry the JSON result as structuredContent.
   * A tool with an output schema always does (its listing promises it).
   */
  structured: boolean;
  /** `?page_size=N`: tools/list in pages of N with cursors (all at once otherwise). */
  pageSize?: number;
  /** Which tools tools/list loads (shared/schemas/profiles.ts); every tool of the scope stays callable. */
  profile?: Profile;
  /** The service's public base URL: where the platforms' icons are served. */
  origin?: string;
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

/**
 * MCP tool objects, built once per catalog entry and origin (the entries themselves are cached per
 * container): with the output schema and the platform's icons.
 */
const mcpTools = new WeakMap<CatalogEntry, Map<string, McpTool>>();

function toMcp(entry: CatalogEntry, combined: boolean, origin: string | undefined): McpTool {
  let built = mcpTools.get(entry);
  if (!built) mcpTools.set(entry, (built = new Map()));
  const key = `${combined ? 'c' : 'p'}|${origin ?? ''}`;
  let tool = built.get(key);
  if (!tool) {
    tool = mcpListedTool(entry, combined ? combinedName(entry) : entry.name, origin ? platformIcons(origin, entry.platform) : undefined) as McpTool;
    built.set(key, tool);
  }
  return tool;
}

const searchInputSchema = (() => {
  const { $schema: _, ...s } = z.toJSONSchema(searchInput, { io: 'input' });
  return s as McpTool['inputSchema'];
})();

/** The search tool of an endpoint: every platform's tools on the combined one, its own platform's (plain names) on a platform's. */
function searchToolOf(platform: Platform | undefined): McpTool {
  return {
    name: SEARCH_TOOL,
    title: 'Search tools',
    description: platform
      ? `Find the tool for a task among ${platform.vendor}'s tools here, listed or not: ranks them by name, description and parameter names. ` +
        'Returns the best matches (tool, first sentence of its description); call a match by its name.'
      : 'Find the tools for a task among every platform\'s tools, listed or not: ranks them by name, description and parameter names. Returns the best matches ' +
        '(platform, tool, first sentence of its description); call a match by its name here: <platform>_<tool>.',
    inputSchema: searchInputSchema,
    annotations: { title: 'Search tools', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  };
}
const searchTools_ = { all: searchToolOf(undefined), byPlatform: new WeakMap<Platform, McpTool>() };
function searchToolFor(platform: Platform | undefined): McpTool {
  if (!platform) return searchTools_.all;
  let t = searchTools_.byPlatform.get(platform);
  if (!t) searchTools_.byPlatform.set(platform, (t = searchToolOf(platform)));
  return t;
}

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
      instructions:
        (scope.platform
          ? `Tools of ${scope.platform.vendor} (platform "${scope.platform.name}"). Results are compact text; errors name the parameter to fix.`
          : `Tools of every platform, named <platform>_<tool>. Use ${SEARCH_TOOL} to find the right one. Results are compact text; errors name the parameter to fix.`) +
        (scope.profile && scope.profile.kind !== 'full' ? ` Only the most used tools are listed: ${SEARCH_TOOL} finds the others with their parameters, and they are called by name like the listed ones.` : ''),
      jsonSchemaValidator: NEVER_VALIDATES,
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, async (req) => {
    const mainGroups = Object.fromEntries([...rt.registry.platforms.values()].map((p) => [p.name, p.mainGroup]));
    // Catalog order (stable across requests and pages); the search tool first where there is one.
    const tools = mcpToolsList(await entriesOf(rt, scope), {
      profile: scope.profile ?? { kind: 'full' },
      mainGroups,
      search: { tool: searchToolFor(scope.platform), always: combined },
      viewOf: (e) => toMcp(e, combined, scope.origin),
    }) as McpTool[];
    if (!scope.pageSize) return { tools };
    const offset = decodeCursor(req.params?.cursor);
    const next = offset + scope.pageSize;
    return { tools: tools.slice(offset, next), ...(next < tools.length ? { nextCursor: encodeCursor(next) } : {}) };
  });

  const rawArguments = new Map<unknown, Record<string, unknown>>();
  for (const m of Array.isArray(messages) ? messages : [messages]) {
    const { method, id, params } = (m ?? {}) as { method?: unknown; id?: unknown; params?: { arguments?: unknown } };
    const args = params?.arguments;
    if (method === 'tools/call' && id !== undefined && args !== null && typeof args === 'object' && !Array.isArray(args)) rawArguments.set(id, args as Record<string, unknown>);
  }
  server.setRequestHandler(CallToolRequestSchema, async (req, extra): Promise<CallToolResult> => {
    const name = req.params.name;
    // The arguments as JSON.parse read them, as REST passes its body on: the SDK's own parse of the
    // request drops a "__proto__" key, which the core must see to refuse it by name.
    const args = rawArguments.get(extra.requestId) ?? req.params.arguments ?? {};
    if (name === SEARCH_TOOL && (combined || (scope.profile !== undefined && scope.profile.kind !== 'full'))) return searchTools(rt, args, scope);
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
      format: scope.structured || entry.outputSchema !== undefined ? 'structured' : 'text',
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
      ...(data !== undefined ? { structuredContent: structuredOf(entry.outputSchema, data, { plan: said.dry_run === true }) } : {}),
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

/**
 * search_tools: over every platform on the combined endpoint, over the platform's own tools on a
 * platform's (which lists it with a deferring profile); only tools the endpoint serves
 * (?toolsets=, ?read_only=) are answered.
 */
async function searchTools(rt: Runtime, args: Record<string, unknown>, scope: McpScope): Promise<CallToolResult> {
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
  const { query, limit } = input;
  const platform = scope.platform?.name ?? input.platform;
  const served = new Set((await entriesOf(rt, scope)).map((e) => `${e.platform}/${e.name}`));
  const nameOf = (h: { platform: string; tool: string }) => (scope.platform ? h.tool : `${h.platform}_${h.tool}`);
  const hits = searchIndex(await registryIndex(rt.registry), query, SEARCH_LIMIT.max, platform)
    .map(hitView)
    .filter((h) => served.has(`${h.platform}/${h.tool}`))
    .slice(0, limit);
  // Where tools/list leaves tools out, a match comes with its parameters: the model can call it
  // without a listing it never got.
  const deferring = scope.profile !== undefined && scope.profile.kind !== 'full';
  const schemas = new Map(deferring ? (await entriesOf(rt, scope)).map((e) => [`${e.platform}/${e.name}`, e.inputSchema] as const) : []);
  const schemaOf = (h: { platform: string; tool: string }) => {
    const s = schemas.get(`${h.platform}/${h.tool}`);
    if (!s) return undefined;
    const { $schema: _, ...rest } = s;
    return rest;
  };
  const lines = hits.map((h) => {
    const params = schemaOf(h);
    return `${nameOf(h)} (${h.annotations.readOnly ? 'read' : 'write'}): ${h.description}${params ? `\n  parameters: ${JSON.stringify(params)}` : ''}`;
  });
  const text = hits.length ? `${lines.join('\n')}\n${hits.length} tools for "${query}"` : `No tool matches "${query}". Try other words.`;
  return {
    content: [{ type: 'text', text }],
    structuredContent: { query, tools: hits.map((h) => ({ ...h, name: nameOf(h), ...(schemaOf(h) ? { input_schema: schemaOf(h) } : {}) })) },
  };
}
