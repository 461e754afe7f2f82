import type { Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ToolError } from '../errors';
import { failure } from '../envelope';
import { nestedTooDeep, tooDeepError } from '../json-body';
import { knownPlatform } from '../list-tools';
import type { Runtime } from '../runtime';
import { applyFilter, catalog, parseFilter, type CatalogFilter } from '../schemas/catalog';
import { duplicateKeyError, duplicateKeyPath, MAX_NESTING } from '../validate';
import { bearerKey } from './auth';
import { parseProfile, type Profile } from '../schemas/profiles';
import { origin } from './openapi-route';
import { respond } from './respond';
import type { McpScope } from './mcp-server';
import { catalogFilter } from '../identity';

/**
 * MCP at /v1/mcp/{platform} (and /v1/mcp with every platform's tools), Streamable HTTP,
 * stateless, over the one execute path. This module reads the HTTP request: key, endpoint query,
 * the JSON-RPC body (depth checked before it is parsed, duplicate keys, malformed tools/call
 * requests answered -32602 with a sentence), and hands the parsed messages to the MCP server
 * (shared/http/mcp-server.ts), loaded by dynamic import on the first MCP request only, so a plain
 * tool call never pays for the SDK.
 */
export function mcpRoutes(app: Hono<any>, rt: Runtime, maxBodyBytes: number): void {
  // POST only: GET would open an SSE stream a stateless server never writes to; the
  // specification lets a server answer 405 instead.
  const mcp = async (c: Context) => {
    const name = c.req.param('platform');
    if (c.req.method !== 'POST') {
      return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: `Method not allowed: this MCP endpoint is stateless; send JSON-RPC requests with POST.` }, id: null }), {
        status: 405,
        headers: { allow: 'POST', 'content-type': 'application/json', 'cache-control': 'no-store' },
      });
    }
    const auth = bearerKey(c.req.header('authorization'));
    if (!auth.ok) return respond(failure(auth.error, { platform: name ?? '', tool: '' }), { headers: { 'WWW-Authenticate': 'Bearer' } });
    let scope: McpScope;
    try {
      const platform = name === undefined ? undefined : knownPlatform(rt, name);
      const allow = await catalogFilter(rt, auth.key);
      const base = origin(c);
      scope = { ...(platform ? { platform } : {}), ...mcpQuery(c.req.query()), ...(base ? { origin: base } : {}), ...(allow ? { allow } : {}) };
      // A bad ?toolsets= is refused here, before any MCP exchange.
      applyFilter(await catalog(rt.registry, platform ? [platform] : undefined), scope.filter);
    } catch (err) {
      return respond(failure(err, { platform: name ?? '', tool: '' }));
    }
    const read = readMessages(await c.req.text());
    if ('error' in read) return rpcError(read.error.code, read.error.message, null, read.error.data);
    const remaining = c.env?.lambdaContext?.getRemainingTimeInMillis?.() as number | undefined;
    const requestId = (c.env?.lambdaContext?.awsRequestId as string | undefined) ?? c.req.header('x-request-id');
    const call = {
      key: auth.key,
      ...connectionOf(c),
      ...(remaining !== undefined ? { deadline: Date.now() + remaining } : {}),
      ...(requestId ? { requestId: requestId.slice(0, 100) } : {}),
      refused: read.refused,
    };
    const { serveMcp } = await import('./mcp-server');
    const request = lenientRequest(c.req.raw);
    if (!Array.isArray(read.messages)) {
      const malformed = malformedCall(read.messages);
      if (malformed) return rpcError(-32602, malformed, idOf(read.messages));
      return serveMcp(rt, request, read.messages, scope, call);
    }
    // A batch: malformed tools/call requests answered here, the rest by the server, in one array.
    const errors: unknown[] = [];
    const rest: unknown[] = [];
    for (const m of read.messages) {
      const malformed = malformedCall(m);
      if (malformed) errors.push({ jsonrpc: '2.0', id: idOf(m), error: { code: -32602, message: malformed } });
      else rest.push(m);
    }
    if (errors.length === 0) return serveMcp(rt, request, read.messages, scope, call);
    const answered = rest.length ? await serveMcp(rt, request, rest, scope, call) : undefined;
    const others = answered && answered.status === 200 && (answered.headers.get('content-type') ?? '').includes('json') ? ((await answered.json()) as unknown) : [];
    return new Response(JSON.stringify([...(Array.isArray(others) ? others : [others]), ...errors]), { status: 200, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } });
  };
  const limit = bodyLimit({
    maxSize: maxBodyBytes,
    onError: () => new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32600, message: `Request body larger than ${maxBodyBytes} bytes.` }, id: null }), { status: 413, headers: { 'content-type': 'application/json' } }),
  });
  app.all('/v1/mcp', limit, mcp);
  app.all('/v1/mcp/:platform', limit, mcp);
}

/**
 * Levels of a JSON-RPC message around a tool's arguments (a batch array, the message, `params`):
 * the arguments themselves may nest MAX_NESTING levels, as a REST body may.
 */
const ENVELOPE_LEVELS = 3;

type Read =
  | { messages: unknown; refused: Map<unknown, ToolError> }
  | { error: { code: number; message: string; data?: unknown } };

/**
 * The JSON-RPC body, as REST reads its body: nesting checked by a linear scan before parsing
 * (shared/json-body.ts), then parsed, then each key once per object. A key given twice inside a
 * tools/call's `arguments` is that call's INVALID_PARAMETER (refused by name, after auth and the
 * rate limit, as REST does); anywhere else it makes the message ambiguous: -32600.
 */
function readMessages(text: string): Read {
  const max = MAX_NESTING + ENVELOPE_LEVELS;
  const deep = nestedTooDeep(text, max);
  if (deep) {
    // Named as REST names it: the path inside the tool's arguments.
    const inArgs = deep.indexOf('arguments');
    const err = tooDeepError(inArgs >= 0 && deep[inArgs - 1] === 'params' ? deep.slice(inArgs + 1) : deep, MAX_NESTING);
    return { error: { code: -32602, message: err.message, data: { code: err.code, details: err.details } } };
  }
  let messages: unknown;
  try {
    messages = JSON.parse(text);
  } catch {
    return { error: { code: -32700, message: 'Parse error: the request body is not valid JSON. Send one JSON-RPC 2.0 message, e.g. {"jsonrpc":"2.0","id":1,"method":"tools/list"}.' } };
  }
  const refused = new Map<unknown, ToolError>();
  const dup = duplicateKeyPath(text);
  if (dup) {
    const inBatch = Array.isArray(messages);
    const message = (inBatch ? (messages as unknown[])[Number(dup[0])] : messages) as Record<string, unknown> | undefined;
    const path = inBatch ? dup.slice(1) : dup;
    if (path[0] === 'params' && path[1] === 'arguments' && path.length > 2 && message?.method === 'tools/call' && message.id !== undefined) {
      refused.set(message.id, duplicateKeyError(path.slice(2)));
    } else {
      return { error: { code: -32600, message: `Invalid request: the key "${path.join('.').slice(0, 80)}" is given more than once in the same object; send each key once.` } };
    }
  }
  return { messages, refused };
}

const idOf = (m: unknown): unknown => {
  const id = m !== null && typeof m === 'object' ? (m as { id?: unknown }).id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
};

const kindOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`);

/** What is wrong with a tools/call request's shape, as a sentence; undefined when nothing is (or it is no tools/call). */
export function malformedCall(m: unknown): string | undefined {
  if (m === null || typeof m !== 'object' || Array.isArray(m) || (m as { method?: unknown }).method !== 'tools/call') return undefined;
  const params = (m as { params?: unknown }).params;
  if (params === undefined) return 'Invalid tools/call request: "params" is missing; send {"name": "<tool>", "arguments": {…}}.';
  if (params === null || typeof params !== 'object' || Array.isArray(params)) return `Invalid tools/call request: "params" must be an object {"name", "arguments"}; got ${kindOf(params)}.`;
  const { name, arguments: args, _meta: meta } = params as Record<string, unknown>;
  if (typeof name !== 'string') return `Invalid tools/call request: "params.name" must be the tool's name as a string; got ${name === undefined ? 'nothing' : kindOf(name)}. List the tools with tools/list.`;
  if (args !== undefined && (args === null || typeof args !== 'object' || Array.isArray(args))) {
    return `Invalid tools/call request: "params.arguments" must be an object of the tool's parameters (or left out); got ${kindOf(args)}.`;
  }
  if (meta !== undefined && (meta === null || typeof meta !== 'object' || Array.isArray(meta))) return `Invalid tools/call request: "params._meta" must be an object; got ${kindOf(meta)}.`;
  return undefined;
}

function rpcError(code: number, message: string, id: unknown, data?: unknown): Response {
  const error = { code, message, ...(data !== undefined ? { data } : {}) };
  // Errors the server cannot tie to a request (no id) are HTTP 400, as the SDK answers them; a request's error is its answer.
  return new Response(JSON.stringify({ jsonrpc: '2.0', id, error }), { status: id === null ? 400 : 200, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } });
}

/** The connection a service key acts through: X-Connection-Id, or ?connection= on the endpoint URL. */
function connectionOf(c: Context): { connection?: string } {
  const id = c.req.header('x-connection-id') ?? c.req.query('connection');
  return id ? { connection: id } : {};
}

/** The query of an MCP endpoint: catalog filters, ?format=json, ?page_size=, the profile (?profile=deferred, ?max_tools=N). */
function mcpQuery(q: Record<string, string>): { filter: CatalogFilter; structured: boolean; pageSize?: number; profile: Profile } {
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
  return { filter, structured: q.format === 'json', ...(pageSize ? { pageSize } : {}), profile: parseProfile(q) };
}

/**
 * The SDK answers 406 unless Accept names both JSON and SSE; many clients send neither or one.
 * Like the common Hono MCP middleware, any Accept is taken as both (answers are JSON anyway). The
 * body was read and parsed here: the server gets the messages, not the body.
 */
function lenientRequest(req: Request): Request {
  const headers = new Headers(req.headers);
  const accept = headers.get('accept') ?? '';
  if (!(accept.includes('application/json') && accept.includes('text/event-stream'))) headers.set('accept', 'application/json, text/event-stream');
  return new Request(req.url, { method: req.method, headers });
}
