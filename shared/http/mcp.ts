import type { Context, Hono, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ToolError } from '../errors';
import { countCall, failure, hashKey, type Runtime } from '../execute';
import { openApiDocument } from '../openapi';
import { applyFilter, catalog, parseFilter, platformCatalog, type CatalogFilter } from '../schemas/catalog';
import { PROVIDERS, providerTools, type Provider } from '../schemas/providers';
import { hitView, registryIndex, searchIndex, SEARCH_LIMIT } from '../search';
import type { Platform } from '../tool';
import { bearerKey } from './auth';
import { catalogFilter } from '../identity';

/**
 * The agent surfaces on top of the one execute path, generic over the registry (no list of tools
 * or platforms here): MCP at /v1/mcp/{platform} (and /v1/mcp with every platform's tools), the
 * OpenAPI 3.1 document, provider-shaped catalogs (?schema=openai|anthropic|gemini|mcp), catalog
 * filters (?toolsets=, ?read_only=) and tool search. The MCP SDK is loaded by dynamic import on
 * the first MCP request only (shared/http/mcp-server.ts), so a plain tool call never pays for it.
 * Registered by createApp before its own routes.
 */
export function agentSurfaces(app: Hono<any>, rt: Runtime, maxBodyBytes: number): void {
  app.get('/v1/tools/search', (c) => guarded(c, '', async (key, headers) => {
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
    const allow = await catalogFilter(rt, key);
    const tools = searchIndex(await registryIndex(rt.registry), query, limit, platform, allow).map(hitView);
    return { query, ...(platform ? { platform } : {}), tools };
  }));

  // The catalog with filters or in a provider's shape; without those queries createApp's own
  // route answers (next()), unchanged.
  app.get('/v1/tools/:platform', async (c, next) => {
    const q = c.req.query();
    if (q.schema === undefined && q.toolsets === undefined && q.read_only === undefined) return next();
    const name = c.req.param('platform');
    return guarded(c, name, async (key, headers) => {
      const platform = knownPlatform(rt, name);
      const provider = q.schema;
      if (provider !== undefined && !(PROVIDERS as readonly string[]).includes(provider)) {
        throw new ToolError('INVALID_PARAMETER', `Query "schema" must be one of ${PROVIDERS.join(', ')}; got "${provider}".`, { parameter: 'schema', expected: `one of ${PROVIDERS.join(', ')}` });
      }
      const filter = parseFilter(q);
      await countCall(rt, name, hashKey(key), headers);
      const allow = await catalogFilter(rt, key);
      const entries = applyFilter(await platformCatalog(rt.registry, platform), filter).filter(allow ?? (() => true));
      if (provider) return { platform: name, schema: provider, tools: providerTools(provider as Provider, entries) };
      return { platform: name, tools: entries.map((e) => ({ name: e.name, description: e.description, annotations: e.annotations, input_schema: e.inputSchema, ...(e.group ? { group: e.group } : {}) })) };
    });
  });

  // MCP, Streamable HTTP, stateless: POST only (GET would open an SSE stream a stateless server
  // never writes to; the specification lets a server answer 405 instead).
  const mcp = async (c: Context) => {
    const name = c.req.param('platform');
    if (c.req.method !== 'POST') {
      return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: `Method not allowed: this MCP endpoint is stateless; send JSON-RPC requests with POST.` }, id: null }), {
        status: 405,
        headers: { allow: 'POST', 'content-type': 'application/json', 'cache-control': 'no-store' },
      });
    }
    const auth = bearerKey(c.req.header('authorization'));
    if (!auth.ok) return answer(failure(auth.error, { platform: name ?? '', tool: '' }), { 'WWW-Authenticate': 'Bearer' });
    let scope: import('./mcp-server').McpScope;
    try {
      const platform = name === undefined ? undefined : knownPlatform(rt, name);
      const allow = await catalogFilter(rt, auth.key);
      scope = { ...(platform ? { platform } : {}), ...mcpQuery(c.req.query()), ...(allow ? { allow } : {}) };
      // A bad ?toolsets= is refused here, before any MCP exchange.
      applyFilter(await catalog(rt.registry, platform ? [platform] : undefined), scope.filter);
    } catch (err) {
      return answer(failure(err, { platform: name ?? '', tool: '' }));
    }
    const remaining = c.env?.lambdaContext?.getRemainingTimeInMillis?.() as number | undefined;
    const requestId = (c.env?.lambdaContext?.awsRequestId as string | undefined) ?? c.req.header('x-request-id');
    const { serveMcp } = await import('./mcp-server');
    return serveMcp(rt, await lenientRequest(c.req.raw), scope, {
      key: auth.key,
      ...connectionOf(c),
      ...(remaining !== undefined ? { deadline: Date.now() + remaining } : {}),
      ...(requestId ? { requestId: requestId.slice(0, 100) } : {}),
    });
  };
  const limit = bodyLimit({
    maxSize: maxBodyBytes,
    onError: () => new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32600, message: `Request body larger than ${maxBodyBytes} bytes.` }, id: null }), { status: 413, headers: { 'content-type': 'application/json' } }),
  });
  app.all('/v1/mcp', limit, mcp);
  app.all('/v1/mcp/:platform', limit, mcp);

  // OpenAPI 3.1: every platform of this runtime (locally all; on a Lambda its one platform), or
  // one platform's. Public like any API description: tool names and schemas are no secret, and
  // code generators and gateways fetch it without a key.
  const openapi = async (c: Context, platforms: readonly Platform[]) => {
    const doc = openApiDocument(await catalog(rt.registry, platforms), platforms, origin(c));
    return new Response(JSON.stringify(doc), { status: 200, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'public, max-age=300' } });
  };
  app.get('/v1/openapi.json', (c) => openapi(c, [...rt.registry.platforms.values()]));
  app.get('/v1/openapi/:file', async (c, next) => {
    const m = /^(.+)\.json$/.exec(c.req.param('file'));
    const platform = m ? rt.registry.platforms.get(m[1]!) : undefined;
    if (!m) return next();
    if (!platform) return answer(failure(new ToolError('NOT_FOUND', `Unknown platform "${m[1]}". Platforms served here: ${[...rt.registry.platforms.keys()].join(', ')}.`, { platform: m[1] }), { platform: m[1]!, tool: '' }));
    return openapi(c, [platform]);
  });
}

/** The connection a service key acts through: X-Connection-Id, or ?connection= on the endpoint URL. */
function connectionOf(c: Context): { connection?: string } {
  const id = c.req.header('x-connection-id') ?? c.req.query('connection');
  return id ? { connection: id } : {};
}

/** The query of an MCP endpoint: catalog filters, ?format=json, ?page_size=. */
function mcpQuery(q: Record<string, string>): { filter: CatalogFilter; structured: boolean; pageSize?: number } {
  const filter = parseFilter(q);
  if (q.format !== undefined && q.format !== 'json' && q.format !== 'text') {
    throw new ToolError('INVALID_PARAMETER', `Query "format" must be "json" (results also carry structuredContent) or omitted (text); got "${q.format}".`, { parameter: 'format', expected: '"json" or "text"' });
  }
  let pageSize: number | undefined;
  if (q.page_size !== undefined) {
    pageSize = Number(q.page_size);
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 1000) {
      throw new ToolError('INVALID_PARAMETER', `Query "page_size" must be an integer from 1 to 1000; got "${q.page_size}".`, { parameter: 'page_size', expected: 'integer 1-1000' });
    }
  }
  return { filter, structured: q.format === 'json', ...(pageSize ? { pageSize } : {}) };
}

/**
 * The SDK answers 406 unless Accept names both JSON and SSE; many clients send neither or one.
 * Like the common Hono MCP middleware, any Accept is taken as both (answers are JSON anyway).
 */
async function lenientRequest(req: Request): Promise<Request> {
  const accept = req.headers.get('accept') ?? '';
  if (accept.includes('application/json') && accept.includes('text/event-stream')) return req;
  const headers = new Headers(req.headers);
  headers.set('accept', 'application/json, text/event-stream');
  return new Request(req.url, { method: req.method, headers, body: await req.text() });
}

/** The platform of a path (NOT_FOUND when unknown) or of a query parameter (INVALID_PARAMETER naming it). */
function knownPlatform(rt: Runtime, name: string, queryParameter?: string): Platform {
  const platform = rt.registry.platforms.get(name);
  if (platform) return platform;
  const known = [...rt.registry.platforms.keys()].join(', ');
  if (queryParameter) throw new ToolError('INVALID_PARAMETER', `Query "${queryParameter}": unknown platform "${name}"; platforms here: ${known}.`, { parameter: queryParameter, expected: `one of ${known}` });
  throw new ToolError('NOT_FOUND', `Unknown platform "${name}". Platforms served here: ${known}.`, { platform: name });
}

/** Auth first, then the route's work; every outcome an envelope with the rate-limit headers. */
async function guarded(c: Context, platform: string, work: (key: string, headers: Record<string, string>) => Promise<unknown>): Promise<Response> {
  const auth = bearerKey(c.req.header('authorization'));
  if (!auth.ok) return answer(failure(auth.error, { platform, tool: '' }));
  const headers: Record<string, string> = {};
  try {
    const data = await work(auth.key, headers);
    return answer({ status: 200, body: { success: true, data }, headers });
  } catch (err) {
    return answer(failure(err, { platform, tool: '' }, headers));
  }
}

function answer(outcome: { status: number; body: unknown; headers: Record<string, string> }, extra: Record<string, string> = {}): Response {
  const headers = new Headers({ ...outcome.headers, ...extra });
  headers.set('cache-control', 'no-store');
  headers.set('content-type', 'application/json; charset=utf-8');
  return new Response(JSON.stringify(outcome.body), { status: outcome.status, headers });
}

/** The public base URL of this request (API Gateway's domain on a Lambda), for the OpenAPI servers list. */
function origin(c: Context): string | undefined {
  const host = c.req.header('x-forwarded-host') ?? c.req.header('host');
  if (!host) return undefined;
  const proto = c.req.header('x-forwarded-proto') ?? new URL(c.req.url).protocol.replace(':', '');
  return `${proto}://${host}`;
}

/**
 * DNS-rebinding protection of the local server's MCP endpoints: a web page the user visits must
 * not drive a local MCP server through the browser. Host must be the server's own (or a loopback
 * alias of it, or one of MCP_ALLOWED_HOSTS); an Origin, when sent, must be one of those too.
 */
export function localOriginGuard(base: () => string, extraHosts: readonly string[] = []): MiddlewareHandler {
  return async (c, next) => {
    const own = new URL(base());
    const port = own.port;
    const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(own.hostname);
    const hosts = new Set([own.host, ...(loopback ? ['127.0.0.1', 'localhost', '[::1]'].map((h) => `${h}:${port}`) : []), ...extraHosts]);
    const host = c.req.header('host') ?? '';
    const originHeader = c.req.header('origin');
    let refused: string | undefined;
    if (!hosts.has(host)) refused = `Invalid Host header: ${host || '(none)'}`;
    else if (originHeader !== undefined) {
      let originHost: string | undefined;
      try {
        const u = new URL(originHeader);
        originHost = u.protocol === 'http:' || u.protocol === 'https:' ? u.host : undefined;
      } catch {
        originHost = undefined;
      }
      if (!originHost || !hosts.has(originHost)) refused = `Invalid Origin header: ${originHeader}`;
    }
    if (refused) {
      return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: `${refused}. This local MCP server answers its own host only.` }, id: null }), {
        status: 403,
        headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
      });
    }
    return next();
  };
}
