import type { Context, Hono } from 'hono';
import { ToolError } from '../core/errors';
import { failure } from '../core/envelope';
import { boundedBody, nestedTooDeep, stringEnd, tooDeepError } from '../core/json-body';
import { knownPlatform } from '../catalog/list-tools';
import type { Runtime } from '../core/runtime';
import { applyFilter, catalog, parseFilter, type CatalogFilter } from '../catalog/catalog';
import { duplicateKeyError, duplicateKeyPath, MAX_NESTING } from '../core/validate';
import { bearerKey } from '../identity/bearer';
import { httpDeadline } from './deadline';
import { parseProfile, type Profile } from '../catalog/profiles';
import { origin } from './openapi-route';
import { respond } from './respond';
import type { McpCall, McpScope } from '../mcp/server';
import { errorAnswer, type RpcId } from '../mcp/rpc';
import { defaultListAnswer, LIST_ANSWER_HEADERS, type McpToolSource } from '../mcp/list';
import { textResponse } from './text-body';
import { negotiate, type McpReply } from '../mcp/revision';
import { identityOf, requireGrantedToolsets } from '../identity';
import type { Caller } from '../core/call';
import { bearerChallenge, mcpResource, missingScope, signInRequired } from '../identity/mcp-oauth/resource';

/** A JSON-RPC message as the HTTP answer (the MCP core returns messages; this edge writes them). */
const jsonResponse = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } });

/**
 * One error as the whole answer. Without a request's id it is HTTP 400 (or the status given), as
 * the SDK's transport answers what it cannot tie to a request; a request's error is its answer (200).
 */
const errorResponse = (code: number, message: string, id: RpcId | null, data?: unknown, status?: number) =>
  jsonResponse(errorAnswer(id, code, message, data), status ?? (id === null ? 400 : 200));

/**
 * MCP at /v1/mcp/{platform} (and /v1/mcp with every platform's tools), Streamable HTTP,
 * stateless, over the one execute path. This module reads the HTTP request: key, endpoint query,
 * the JSON-RPC body (Content-Type, depth checked before it is parsed, duplicate keys), and hands
 * the parsed messages to the MCP server (shared/mcp/server.ts), loaded by dynamic import on
 * the first MCP request.
 */
export function mcpRoutes(app: Hono<any>, rt: Runtime, maxBodyBytes: number, fixture?: { path: string; source: McpToolSource }): void {
  const mcp = async (c: Context) => {
    const name = c.req.param('platform');
    // Each endpoint is an OAuth protected resource (shared/identity/mcp-oauth): a 401 names its
    // metadata, so a host given only the URL can sign in.
    const resource = mcpResource((await identityOf(rt)).baseOr(c.req.url), name);
    const auth = bearerKey(c.req.header('authorization'));
    if (!auth.ok) {
      // No header at all: how to sign in; a malformed one: what is wrong with it. Both name the metadata.
      const error = c.req.header('authorization') ? auth.error : signInRequired(resource);
      return respond(failure(error, { platform: name ?? '', tool: '' }), { headers: { 'WWW-Authenticate': bearerChallenge(resource) } });
    }
    // POST only: GET would open an SSE stream a stateless server never writes to; the
    // specification lets a server answer 405 instead. After the key: a host probes with a GET
    // whether the endpoint wants a sign-in (mcp-remote binds its OAuth callback port on that 401).
    if (c.req.method !== 'POST') {
      return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: `Method not allowed: this MCP endpoint is stateless; send JSON-RPC requests with POST.` }, id: null }), {
        status: 405,
        headers: { allow: 'POST', 'content-type': 'application/json', 'cache-control': 'no-store' },
      });
    }
    let scope: McpScope;
    let caller: Caller;
    try {
      const platform = name === undefined ? undefined : knownPlatform(rt, name);
      // The caller, resolved once for the whole request: what tools/list shows, whose tasks, every tools/call.
      const resolved = await rt.identity.resolve({ key: auth.key, resource });
      if (!resolved.ok) throw resolved.error;
      caller = resolved.caller;
      const allow = caller.allows;
      const base = origin(c);
      scope = { ...(platform ? { platform } : {}), ...mcpQuery(c.req.query()), ...(base ? { origin: base } : {}), ...(allow ? { allow } : {}), ...(fixture ? { source: fixture.source } : {}) };
      // A bad ?toolsets= is refused here, before any MCP exchange.
      if (scope.filter.toolsets) applyFilter(await catalog(rt.registry, platform ? [platform] : undefined), scope.filter);
      if (scope.filter.toolsets) requireGrantedToolsets(caller, scope.filter.toolsets);
    } catch (err) {
      // A refused token gets the 401 invalid_token challenge; a valid one lacking a scope the 403
      // insufficient_scope one, naming the scopes a new sign-in must ask for.
      const scopeNeeded = missingScope(err);
      const refusedKey = err instanceof ToolError && (err.code === 'UNAUTHORIZED' || scopeNeeded !== undefined);
      return respond(failure(err, { platform: name ?? '', tool: '' }), refusedKey ? { headers: { 'WWW-Authenticate': bearerChallenge(resource, { description: err.message, ...(scopeNeeded !== undefined ? { scope: scopeNeeded } : {}) }) } } : {});
    }
    // The transport's header rules (as the SDK's Streamable HTTP transport has them): the body is JSON.
    if (!isJsonContentType(c.req.header('content-type'))) return errorResponse(-32000, 'Unsupported Media Type: Content-Type must be application/json', null, undefined, 415);
    const read = readMessages(await c.req.text());
    if ('error' in read) return errorResponse(read.error.code, read.error.message, read.error.id, read.error.data);
    // The revision, chosen per request (shared/mcp/revision.ts): a 2026-07-28 request's _meta and headers are checked there.
    const revision = negotiate(read.messages, (header) => c.req.header(header));
    if (revision.era === 'refused') return toResponse(revision.reply);
    const deadline = httpDeadline(c.env?.lambdaContext);
    // The function a task's worker invocation runs in (the Lambda runtime sets it); read here, not in the core.
    const workerFunction = process.env.AWS_LAMBDA_FUNCTION_NAME;
    const requestId = (c.env?.lambdaContext?.awsRequestId as string | undefined) ?? c.req.header('x-request-id');
    const version = c.req.header('mcp-protocol-version');
    const call: McpCall = {
      key: auth.key,
      caller,
      resource,
      ...connectionOf(c),
      ...(deadline !== undefined ? { deadline } : {}),
      ...(requestId ? { requestId: requestId.slice(0, 100) } : {}),
      refused: read.refused,
      // A Lambda function is frozen once it answers: a task's work runs on only where the process does.
      background: c.env?.lambdaContext === undefined,
      ...(version !== undefined ? { protocolVersion: version } : {}),
      ...(revision.era === 'modern' ? { modern: revision.client } : {}),
      ...(workerFunction ? { workerFunction } : {}),
    };
    // The request a host sends first: answered from the build's JSON without loading the MCP server.
    const listed = fixture ? undefined : defaultListAnswer(rt.registry, scope, read.messages, version, revision.era === 'modern');
    if (listed !== undefined) return textResponse(listed, { status: 200, headers: { ...LIST_ANSWER_HEADERS } });
    const { serveMcp } = await import('../mcp/server');
    return toResponse(await serveMcp(rt, read.messages, scope, call));
  };
  const limit = boundedBody(maxBodyBytes, () => new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32600, message: `Request body larger than ${maxBodyBytes} bytes.` }, id: null }), { status: 413, headers: { 'content-type': 'application/json' } }));
  if (fixture) {
    app.all(fixture.path, limit, mcp);
    return;
  }
  app.all('/v1/mcp', limit, mcp);
  app.all('/v1/mcp/:platform', limit, mcp);
}

/** The protocol core's answer as HTTP: its JSON-RPC message with its status, or 202 with no body. */
const toResponse = (reply: McpReply): Response => (reply.body === undefined ? new Response(null, { status: reply.status }) : jsonResponse(reply.body, reply.status));

/**
 * Levels of a JSON-RPC message around a tool's arguments (a batch array, the message, `params`):
 * the arguments themselves may nest MAX_NESTING levels, as a REST body may.
 */
const ENVELOPE_LEVELS = 3;

type Read =
  | { messages: unknown; refused: Map<unknown, ToolError> }
  | { error: { code: number; message: string; id: string | number | null; data?: unknown } };

/**
 * The JSON-RPC body, as REST reads its body: nesting checked by a linear scan before parsing
 * (shared/core/json-body.ts), then parsed, then each key once per object. A key given twice inside a
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
    // Not parsed (that is the point): the request's id is found by a scan of the top level, so the
    // host can tie the refusal to its call.
    return { error: { code: -32602, message: err.message, id: topLevelId(text), data: { code: err.code, details: err.details } } };
  }
  let messages: unknown;
  try {
    messages = JSON.parse(text);
  } catch {
    return { error: { code: -32700, id: null, message: 'Parse error: the request body is not valid JSON. Send one JSON-RPC 2.0 message, e.g. {"jsonrpc":"2.0","id":1,"method":"tools/list"}.' } };
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
      // A key given twice is ambiguous; the id is the request's unless "id" itself is the key.
      const id = inBatch || (path.length === 1 && path[0] === 'id') ? null : idOf(message);
      return { error: { code: -32600, id, message: `Invalid request: the key "${path.join('.').slice(0, 80)}" is given more than once in the same object; send each key once.` } };
    }
  }
  return { messages, refused };
}

const idOf = (m: unknown): string | number | null => {
  const id = m !== null && typeof m === 'object' ? (m as { id?: unknown }).id : undefined;
  return typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id)) ? id : null;
};

/**
 * The "id" member of a top-level object, read by a linear scan of text too deep to parse: a
 * string or an integer literal, else null. Strings are skipped whole, so an "id" inside the
 * arguments or inside a string never counts.
 */
export function topLevelId(text: string): string | number | null {
  let depth = 0;
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const start = i;
      i = stringEnd(text, i);
      if (depth === 1 && expectKey && text.slice(start, i + 1) === '"id"') {
        const value = /^\s*:\s*("(?:[^"\\]|\\.){0,200}"|-?\d{1,16})\s*[,}]/.exec(text.slice(i + 1, i + 260));
        if (!value) return null;
        const id = JSON.parse(value[1]!) as string | number;
        return typeof id === 'string' || Number.isSafeInteger(id) ? id : null;
      }
      expectKey = false;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      // Only a single message's members: a batch (top-level array) has no one id.
      if (depth === 0 && c === 0x5b) return null;
      depth++;
      expectKey = c === 0x7b && depth === 1;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth--;
    } else if (c === 0x2c /* , */ && depth === 1) {
      expectKey = true;
    }
  }
  return null;
}

/** The Content-Type names JSON (parameters such as charset aside), as the SDK's transport checks it. */
export function isJsonContentType(header: string | undefined): boolean {
  if (header === undefined) return false;
  return header.split(';', 1)[0]!.trim().toLowerCase() === 'application/json';
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
