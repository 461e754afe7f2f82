/**
 * The MCP protocol core: JSON-RPC 2.0 over Streamable HTTP, stateless, JSON responses, for a tools
 * server, in both eras (docs/mcp.md): revision 2026-07-28 (per-request `_meta`, server/discover,
 * multi round-trip input, the Tasks extension) and the legacy revisions up to 2025-11-25
 * (https://modelcontextprotocol.io/specification/2025-11-25/basic/transports). It takes the parsed
 * body with the caller and scope the edge resolved and returns the message to answer with its HTTP
 * status (shared/http/mcp.ts translates; shared/mcp/revision.ts chose the era). Our own
 * code: the official SDK's server evaluates its protocol schemas on first use (tens of ms of CPU in
 * a cold container), and a tools server needs a handful of methods. Its types are imported for the
 * shapes only. Loaded by shared/http/mcp.ts on the first MCP request. It maps tools/list to the
 * catalog, tools/call to a `Call` for execute and the `Outcome` back to a tool result; long tools
 * run as tasks where the host asks (shared/mcp/tasks.ts).
 */
import type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { log } from '../core/log';
import type { Runtime } from '../core/runtime';
import type { Caller } from '../core/call';
import { applyFilter, catalog, type CatalogEntry } from '../catalog/catalog';
import { platformIcons } from '../catalog/icons';
import { mcpListedTool, mcpToolsList } from '../catalog/providers';
import { requiredLine } from '../catalog/search';
import { SEARCH_TOOL, searchTool, type SearchResult } from '../catalog/search-tool';
import type { ToolError } from '../core/errors';
import type { ToolRef } from '../core/call';
import type { Platform } from '../core/tool';
import type { Registry } from '../core/registry';
import { LATEST_PROTOCOL_VERSION, LIST_TTL_MS, serverInfoOf, SUPPORTED_PROTOCOL_VERSIONS, type McpScope } from './list';
import { errorAnswer, type RpcAnswer, type RpcId } from './rpc';
import { callMetaOf, callTool } from './call';
import { callAskingPerson } from './person';
import { declaresTypedOutput, INVALID_PARAMS, META, METHOD_NOT_FOUND, modernStatus, SERVED_PROTOCOL_VERSIONS, TYPED_OUTPUT_EXTENSION, type McpReply, type ModernClient } from './revision';
import { InputRequired, missingCapability, openState, sealState, type InputRound } from './input';
import { RpcError } from './rpc';
import { McpTasks, TASKS_CAPABILITY, TASKS_EXTENSION, taskSupportOf, type Kept, type McpTask, type TaskCall, type TaskRun } from './tasks';
import { invokeWorker, taskJob } from './task-worker';
import { isObject } from '../core/is-object';

/** What one MCP request serves: a platform's tools, or (platform undefined) every platform's. */
export type { McpScope } from './list';

export interface McpCall {
  key: string;
  /** Who presents the key, resolved once by the MCP route: its tasks' owner, and every tools/call's caller. */
  caller: Caller;
  /** The connection a service key acts through (X-Connection-Id or ?connection=); `_meta.connection_id` overrides it per call. */
  connection?: string;
  /** This endpoint's URL: the audience an access token must have been granted for. */
  resource?: string;
  deadline?: number;
  requestId?: string;
  /** tools/call requests (by JSON-RPC id) whose arguments the HTTP edge refused (a key given twice). */
  refused?: ReadonlyMap<unknown, ToolError>;
  /** The process outlives the answer (the local server): a task's work runs on after it; in Lambda it does not. */
  background?: boolean;
  /** The MCP-Protocol-Version header, when sent. */
  protocolVersion?: string;
  /** A 2026-07-28 request: the client as its `_meta` declared it (shared/mcp/revision.ts); absent for legacy revisions. */
  modern?: ModernClient;
  /** In a Lambda function: its name, to start a task's worker invocation (shared/mcp/task-worker.ts). */
  workerFunction?: string;
}

export { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS };
/** At most this many messages in one JSON-RPC batch (the SDK transport's limit). */
export const MAX_BATCH = 100;

/** The combined endpoint's own tool: search the catalog when a host cannot load all tools. */

/**
 * Names on the combined endpoint are always `<platform>_<tool>`: a name stays the same when a
 * platform added later brings a tool of the same name (prefixing only on collision would rename
 * tools hosts already know). Per-platform endpoints use the plain tool names.
 */
export const combinedName = (e: Pick<CatalogEntry, 'platform' | 'name'>) => `${e.platform}_${e.name}`;

/**
 * MCP tool objects, built once per catalog entry, origin and output (the entries themselves are
 * cached per container): with the platform's icons, and the output schema on a typed endpoint.
 */
const mcpTools = new WeakMap<CatalogEntry, Map<string, McpTool>>();

function toMcp(entry: CatalogEntry, combined: boolean, origin: string | undefined, typed: boolean): McpTool {
  let built = mcpTools.get(entry);
  if (!built) mcpTools.set(entry, (built = new Map()));
  const key = `${combined ? 'c' : 'p'}|${typed ? 'typed' : 'text'}|${origin ?? ''}`;
  let tool = built.get(key);
  if (!tool) {
    tool = mcpListedTool(entry, combined ? combinedName(entry) : entry.name, origin ? platformIcons(origin, entry.platform) : undefined, { typed }) as McpTool;
    // Long tools may run as tasks (shared/mcp/tasks.ts): hosts that support tasks see it here.
    const taskSupport = taskSupportOf(entry);
    if (taskSupport) tool = { ...tool, execution: { taskSupport } };
    built.set(key, tool);
  }
  return tool;
}

let searchInputSchema: McpTool['inputSchema'] | undefined;
function searchInputJson(): McpTool['inputSchema'] {
  if (!searchInputSchema) {
    const { $schema: _, ...s } = z.toJSONSchema(searchTool.input, { io: 'input' });
    searchInputSchema = s as McpTool['inputSchema'];
  }
  return searchInputSchema;
}

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
    inputSchema: searchInputJson(),
    annotations: { title: 'Search tools', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  };
}
/** Built on first use: converting the search input to JSON Schema costs milliseconds a platform's first tools/list need not pay. */
const searchTools_: { all?: McpTool; byPlatform: WeakMap<Platform, McpTool> } = { byPlatform: new WeakMap() };
function searchToolFor(platform: Platform | undefined): McpTool {
  if (!platform) return (searchTools_.all ??= searchToolOf(undefined));
  let t = searchTools_.byPlatform.get(platform);
  if (!t) searchTools_.byPlatform.set(platform, (t = searchToolOf(platform)));
  return t;
}

/** Whether one scope serves an entry: what entriesOf keeps, for one entry. */
function serves(scope: McpScope, e: ToolRef): boolean {
  const { toolsets, readOnly } = scope.filter;
  if (toolsets && (e.group === undefined || !toolsets.includes(e.group))) return false;
  if (readOnly && !e.annotations.readOnly) return false;
  return !scope.allow || scope.allow(e);
}

/** The entries one scope serves (filters applied), in registry order. */
async function entriesOf(rt: Runtime, scope: McpScope): Promise<CatalogEntry[]> {
  const entries = applyFilter(await catalog(rt.registry, scope.platform ? [scope.platform] : undefined), scope.filter);
  return scope.allow ? entries.filter(scope.allow) : entries;
}


const encodeCursor = (offset: number) => Buffer.from(JSON.stringify({ offset }), 'utf8').toString('base64url');
function decodeCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  try {
    const { offset } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { offset?: unknown };
    if (typeof offset === 'number' && Number.isInteger(offset) && offset >= 0) return offset;
  } catch {
    // falls through to the protocol error
  }
  throw new RpcError(INVALID_PARAMS, 'Invalid cursor: pass the nextCursor of the previous tools/list answer unchanged.');
}

/**
 * The tools/list result of a scope from the entries it serves: also what the build serializes
 * for an endpoint's default list (infra/build.ts, prebuiltMcpLists; answered by shared/mcp/list.ts).
 */
export function toolsListResult(registry: Registry, scope: McpScope, served: readonly CatalogEntry[], cursor?: string): { tools: McpTool[]; nextCursor?: string } {
  const combined = !scope.platform;
  const mainGroups = Object.fromEntries([...registry.platforms.values()].map((p) => [p.name, p.mainGroup]));
  // Catalog order (stable across requests and pages); the search tool first where there is one.
  const tools = mcpToolsList(served, {
    profile: scope.profile ?? { kind: 'full' },
    mainGroups,
    // The search tool only where it is listed: its schema is converted from zod on first use.
    ...(combined || (scope.profile !== undefined && scope.profile.kind !== 'full') ? { search: { tool: searchToolFor(scope.platform), always: combined } } : {}),
    viewOf: (e) => toMcp(e, combined, scope.origin, scope.structured),
  }) as McpTool[];
  if (!scope.pageSize) return { tools };
  const offset = decodeCursor(cursor);
  const next = offset + scope.pageSize;
  return { tools: tools.slice(offset, next), ...(next < tools.length ? { nextCursor: encodeCursor(next) } : {}) };
}

/** A JSON-RPC id: a string or an integer (as the SDK's clients send them). */
type Id = RpcId;
/** A JSON-RPC request, once classified (named apart from the global fetch Request). */
interface RpcRequest {
  id: Id;
  method: string;
  params: Record<string, unknown> | undefined;
}

type Classified =
  | { kind: 'request'; req: RpcRequest }
  | { kind: 'notification' }
  | { kind: 'response' }
  | { kind: 'invalid'; answer: Answer };

type Answer = RpcAnswer;

const kindOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`);
const isId = (v: unknown): v is Id => typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v));

/** A message of the body: a request, a notification, a response (this server sends no requests: ignored), or invalid. */
function classify(m: unknown): Classified {
  const example = 'e.g. {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}';
  if (!isObject(m)) return { kind: 'invalid', answer: errorAnswer(null, -32600, `Invalid request: a JSON-RPC message is an object, ${example}; got ${kindOf(m)}.`) };
  const id = isId(m.id) ? m.id : null;
  if (m.jsonrpc !== '2.0') return { kind: 'invalid', answer: errorAnswer(id, -32600, `Invalid request: "jsonrpc" must be "2.0", ${example}.`) };
  if (m.method === undefined && ('result' in m || 'error' in m)) return { kind: 'response' };
  if (typeof m.method !== 'string') return { kind: 'invalid', answer: errorAnswer(id, -32600, `Invalid request: "method" must be the method's name as a string, ${example}; got ${m.method === undefined ? 'nothing' : kindOf(m.method)}.`) };
  if (!('id' in m)) return { kind: 'notification' };
  if (id === null) return { kind: 'invalid', answer: errorAnswer(null, -32600, `Invalid request: "id" must be a string or an integer; got ${Number.isFinite(m.id) ? 'a fraction' : kindOf(m.id)}.`) };
  const params = m.params;
  if (params !== undefined && !isObject(params)) {
    // tools/call says what it expects in its own words (malformedCall); other methods here.
    return { kind: 'invalid', answer: errorAnswer(id, INVALID_PARAMS, malformedCall(m) ?? `Invalid params: "params" must be an object (or left out); got ${kindOf(params)}.`) };
  }
  return { kind: 'request', req: { id, method: m.method, params } };
}

/** What is wrong with a tools/call request's shape, as a sentence; undefined when nothing is (or it is no tools/call). */
export function malformedCall(m: unknown): string | undefined {
  if (!isObject(m) || m.method !== 'tools/call') return undefined;
  const params = m.params;
  if (params === undefined) return 'Invalid tools/call request: "params" is missing; send {"name": "<tool>", "arguments": {…}}.';
  if (!isObject(params)) return `Invalid tools/call request: "params" must be an object {"name", "arguments"}; got ${kindOf(params)}.`;
  const { name, arguments: args, _meta: meta, task } = params;
  if (typeof name !== 'string') return `Invalid tools/call request: "params.name" must be the tool's name as a string; got ${name === undefined ? 'nothing' : kindOf(name)}. List the tools with tools/list.`;
  if (args !== undefined && !isObject(args)) return `Invalid tools/call request: "params.arguments" must be an object of the tool's parameters (or left out); got ${kindOf(args)}.`;
  if (meta !== undefined && !isObject(meta)) return `Invalid tools/call request: "params._meta" must be an object; got ${kindOf(meta)}.`;
  if (task !== undefined && !isObject(task)) return `Invalid tools/call request: "params.task" must be an object such as {"ttl": 60000} (or left out); got ${kindOf(task)}.`;
  if (isObject(task) && task.ttl !== undefined && (typeof task.ttl !== 'number' || !(task.ttl >= 0))) return `Invalid tools/call request: "params.task.ttl" must be milliseconds as a number; got ${kindOf(task.ttl)}.`;
  return undefined;
}

/** An error the transport answers before any message is handled: no id, HTTP 400. */
const transportError = (code: number, message: string): McpReply => ({ status: 400, body: errorAnswer(null, code, message) });

/**
 * Answers one POST: the parsed body (one message or a batch) under the transport's rules, each
 * request by its handler, every answer in one JSON body. Requests of a batch run concurrently,
 * answered in the order they came.
 */
export async function serveMcp(rt: Runtime, body: unknown, scope: McpScope, call: McpCall): Promise<McpReply> {
  // A 2026-07-28 request may ask for typed output itself (its client's declared extension), as ?format=json does for every request.
  if (call.modern) return serveModern(new Context(rt, declaresTypedOutput(call.modern.capabilities) ? { ...scope, structured: true } : scope, call), body, call.modern);
  const batch = Array.isArray(body);
  const messages: unknown[] = batch ? body : [body];
  if (batch && messages.length === 0) return transportError(-32600, 'Invalid Request: an empty batch; send one message or an array of them.');
  if (messages.length > MAX_BATCH) return transportError(-32600, `Invalid Request: Batch must not exceed ${MAX_BATCH} messages`);
  const classified = messages.map(classify);
  const initialize = classified.some((c) => c.kind === 'request' && c.req.method === 'initialize');
  if (initialize && messages.length > 1) return transportError(-32600, 'Invalid Request: Only one initialization request is allowed');
  // After initialize, a client names the revision it speaks; one this server does not is refused.
  const version = call.protocolVersion;
  if (!initialize && version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
    return transportError(-32000, `Bad Request: Unsupported protocol version: ${version} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`);
  }
  const ctx = new Context(rt, scope, call);
  const answers = (
    await Promise.all(classified.map((c) => (c.kind === 'request' ? answer(ctx, c.req) : c.kind === 'invalid' ? c.answer : undefined)))
  ).filter((a): a is Answer => a !== undefined);
  // Only notifications and responses: accepted, nothing to answer.
  if (answers.length === 0) return { status: 202 };
  if (batch) return { status: 200, body: answers };
  const only = answers[0]!;
  // An error tied to no request is HTTP 400 (as the SDK answers them); a request's error is its answer.
  return { status: only.id === null ? 400 : 200, body: only };
}

/**
 * A 2026-07-28 request (one message; shared/mcp/revision.ts checked its _meta and headers):
 * its result carries `resultType` and the server's identity in `_meta`; an unknown method is
 * HTTP 404, a missing client capability 400.
 */
async function serveModern(ctx: Context, body: unknown, client: ModernClient): Promise<McpReply> {
  const c = classify(body);
  if (c.kind === 'invalid') return { status: 400, body: c.answer };
  if (c.kind !== 'request') return { status: 202 };
  const { req } = c;
  let answer: Answer;
  try {
    const result = (await handleModern(ctx, req, client)) as Record<string, unknown>;
    const meta = isObject(result._meta) ? result._meta : {};
    answer = { jsonrpc: '2.0', id: req.id, result: { resultType: 'complete', ...result, _meta: { ...meta, [META.serverInfo]: ctx.serverInfo() } } };
  } catch (err) {
    if (err instanceof RpcError) answer = errorAnswer(req.id, err.code, err.message, err.data);
    else {
      log('error', 'mcp request failed', { method: req.method.slice(0, 40), error: err instanceof Error ? err.name : 'unknown' });
      answer = errorAnswer(req.id, -32603, 'Internal error');
    }
  }
  return { status: modernStatus(answer), body: answer };
}

/** Whether a 2026-07-28 request declared the Tasks extension: only then may a call become a task. */
const declaresTasks = (client: ModernClient) => {
  const ext = client.capabilities.extensions;
  return ext !== null && typeof ext === 'object' && (ext as Record<string, unknown>)[TASKS_EXTENSION] !== undefined;
};

const needsTasks = (why: string) => missingCapability({ extensions: { [TASKS_EXTENSION]: {} } }, `${why}; declare "extensions": {"${TASKS_EXTENSION}": {}} in the request's client capabilities.`);

/** A task as the Tasks extension shows it: flat, durations in ms under their extension names. */
function taskView(task: McpTask) {
  const { ttl, pollInterval, ...rest } = task;
  return { ...rest, ttlMs: ttl, pollIntervalMs: pollInterval };
}

/**
 * tasks/get, tasks/update and tasks/cancel of the Tasks extension, over the store the 2025-11-25
 * tasks use (shared/mcp/tasks.ts): get shows the result or error inline once terminal and
 * the pending input requests while input_required; update and cancel answer an empty ack.
 */
async function modernTasks(ctx: Context, req: RpcRequest, client: ModernClient): Promise<unknown> {
  if (!declaresTasks(client)) throw needsTasks(`${req.method} belongs to the Tasks extension`);
  const p = req.params ?? {};
  const taskId = taskIdOf(req.method, p);
  const tasks = await ctx.tasks();
  if (req.method === 'tasks/cancel') {
    await tasks.cancel(taskId, { terminalIsError: false });
    return {};
  }
  if (req.method === 'tasks/update') {
    if (!isObject(p.inputResponses)) throw new RpcError(INVALID_PARAMS, `Invalid tasks/update request: "params.inputResponses" must be an object of the answers by the keys of the task's inputRequests; got ${kindOf(p.inputResponses)}.`);
    // In Lambda a waiting task's next round runs in a new worker invocation (shared/mcp/task-worker.ts).
    const fn = ctx.call.background ? undefined : ctx.call.workerFunction;
    await tasks.update(taskId, p.inputResponses, client.capabilities, fn ? (ref) => invokeWorker(fn, ref) : undefined);
    return {};
  }
  const kept: Kept = await tasks.detail(taskId);
  const pending = kept.input ? Object.fromEntries(Object.entries(kept.input.requests).filter(([k]) => kept.input!.responses[k] === undefined)) : undefined;
  return {
    ...taskView(kept.task),
    ...(kept.task.status === 'completed' && kept.result ? { result: kept.result } : {}),
    ...(kept.task.status === 'failed' && kept.error ? { error: kept.error } : {}),
    ...(kept.task.status === 'input_required' && pending ? { inputRequests: pending } : {}),
  };
}

const MODERN_METHODS = 'server/discover, tools/list, tools/call, prompts/list, resources/list, resources/templates/list, resources/read, tasks/get, tasks/update and tasks/cancel';

function handleModern(ctx: Context, req: RpcRequest, client: ModernClient): Promise<unknown> | unknown {
  const p = req.params ?? {};
  // The list depends on the caller where a key's policy or a sign-in's grant filters it.
  const cache = { ttlMs: LIST_TTL_MS, cacheScope: ctx.scope.allow ? 'private' : 'public' };
  switch (req.method) {
    case 'server/discover':
      return { supportedVersions: SERVED_PROTOCOL_VERSIONS, ...ctx.discover(), ...cache };
    case 'tools/list':
      return ctx.listTools(cursorOf(p)).then((list) => ({ ...list, ...cache }));
    case 'tools/call': {
      const malformed = malformedCall({ method: req.method, params: req.params });
      if (malformed) throw new RpcError(INVALID_PARAMS, malformed);
      return ctx.callModern(req.id, p, client);
    }
    case 'prompts/list':
      return { prompts: ctx.scope.source?.prompts?.() ?? [], ...cache };
    case 'prompts/get':
      return ctx.getPrompt(p, client);
    case 'tasks/get':
    case 'tasks/update':
    case 'tasks/cancel':
      return modernTasks(ctx, req, client);
    case 'resources/list':
      return { resources: [], ...cache };
    case 'resources/templates/list':
      return { resourceTemplates: [], ...cache };
    case 'resources/read': {
      // This server has no resources: every URI is unknown (-32602, as the revision has it).
      const uri = typeof p.uri === 'string' ? p.uri : undefined;
      throw new RpcError(INVALID_PARAMS, `Resource not found: ${uri === undefined ? '"params.uri" must be a resource URI' : `"${uri.slice(0, 200)}"`}; this server serves tools only (resources/list is empty).`, uri === undefined ? undefined : { uri });
    }
    default:
      throw new RpcError(METHOD_NOT_FOUND, `Method not found: "${req.method.slice(0, 60)}". A ${client.version} client can call ${MODERN_METHODS}.`);
  }
}

async function answer(ctx: Context, req: RpcRequest): Promise<Answer> {
  try {
    return { jsonrpc: '2.0', id: req.id, result: await handle(ctx, req) };
  } catch (err) {
    if (err instanceof RpcError) return errorAnswer(req.id, err.code, err.message, err.data);
    log('error', 'mcp request failed', { method: req.method.slice(0, 40), error: err instanceof Error ? err.name : 'unknown' });
    return errorAnswer(req.id, -32603, 'Internal error');
  }
}

const METHODS = 'initialize, ping, tools/list, tools/call, tasks/get, tasks/result, tasks/list and tasks/cancel';

function handle(ctx: Context, req: RpcRequest): Promise<unknown> | unknown {
  const p = req.params ?? {};
  switch (req.method) {
    case 'initialize':
      return ctx.initialize(p);
    case 'ping':
      return {};
    case 'tools/list':
      return ctx.listTools(cursorOf(p));
    case 'tools/call': {
      const malformed = malformedCall({ method: req.method, params: req.params });
      if (malformed) throw new RpcError(INVALID_PARAMS, malformed);
      return ctx.toolsCall(req.id, p);
    }
    case 'tasks/get':
      return ctx.tasks().then((t) => t.get(taskIdOf(req.method, p)));
    case 'tasks/result':
      return ctx.tasks().then((t) => t.result(taskIdOf(req.method, p), ctx.waitUntil()));
    case 'tasks/list':
      return ctx.tasks().then((t) => t.list(cursorOf(p)));
    case 'tasks/cancel':
      return ctx.tasks().then((t) => t.cancel(taskIdOf(req.method, p)));
    default:
      throw new RpcError(-32601, `Method not found: "${req.method.slice(0, 60)}". This server answers ${METHODS}.`);
  }
}

function cursorOf(p: Record<string, unknown>): string | undefined {
  if (p.cursor === undefined) return undefined;
  if (typeof p.cursor !== 'string') throw new RpcError(INVALID_PARAMS, `Invalid params: "cursor" must be the nextCursor string of the previous answer; got ${kindOf(p.cursor)}.`);
  return p.cursor;
}

function taskIdOf(method: string, p: Record<string, unknown>): string {
  if (typeof p.taskId !== 'string' || p.taskId === '') {
    throw new RpcError(INVALID_PARAMS, `Invalid ${method} request: "params.taskId" must be the taskId a task-augmented tools/call answered; got ${p.taskId === undefined ? 'nothing' : kindOf(p.taskId)}.`);
  }
  return p.taskId;
}

/** What the requests of one POST share: the endpoint's scope, the caller, and the tools it serves (read once). */
class Context {
  private entries?: Promise<CatalogEntry[]>;
  private tasks_?: Promise<McpTasks>;
  readonly combined: boolean;

  constructor(
    readonly rt: Runtime,
    readonly scope: McpScope,
    readonly call: McpCall,
  ) {
    this.combined = !scope.platform;
  }

  served(): Promise<CatalogEntry[]> {
    return (this.entries ??= entriesOf(this.rt, this.scope));
  }

  /** The caller's tasks: those of its sign-in or key (Caller.owner), whichever token it presents now. */
  tasks(): Promise<McpTasks> {
    return (this.tasks_ ??= this.owner().then((owner) => new McpTasks(this.rt.store, owner)));
  }

  /** How long tasks/result may wait: the invocation's deadline less a second, or a minute. */
  waitUntil(): number {
    return this.call.deadline !== undefined ? this.call.deadline - 1_000 : Date.now() + 60_000;
  }

  serverInfo() {
    return serverInfoOf(this.scope.platform);
  }

  instructions(): string {
    const { platform, profile } = this.scope;
    return (
      (platform
        ? `Tools of ${platform.vendor} (platform "${platform.name}"). Results are compact text; errors name the parameter to fix.`
        : `Tools of every platform, named <platform>_<tool>. Use ${SEARCH_TOOL} to find the right one. Results are compact text; errors name the parameter to fix.`) +
      (profile && profile.kind !== 'full' ? ` Only the most used tools are listed: ${SEARCH_TOOL} finds the others with their parameters, and they are called by name like the listed ones.` : '')
    );
  }

  /** server/discover of a 2026-07-28 client: what this endpoint serves (tools; prompts and resources empty here), its extensions. */
  discover() {
    return {
      capabilities: { tools: { listChanged: false }, prompts: { listChanged: false }, resources: { listChanged: false, subscribe: false }, extensions: { [TASKS_EXTENSION]: {}, [TYPED_OUTPUT_EXTENSION]: {} } },
      instructions: this.instructions(),
    };
  }

  initialize(p: Record<string, unknown>) {
    if (typeof p.protocolVersion !== 'string') {
      throw new RpcError(INVALID_PARAMS, `Invalid initialize request: "params.protocolVersion" must be the revision the client speaks as a string, e.g. "${LATEST_PROTOCOL_VERSION}".`);
    }
    if (p.capabilities !== undefined && !isObject(p.capabilities)) throw new RpcError(INVALID_PARAMS, `Invalid initialize request: "params.capabilities" must be an object; got ${kindOf(p.capabilities)}.`);
    // The client's revision when this server speaks it, else the latest (the client then decides).
    const protocolVersion = SUPPORTED_PROTOCOL_VERSIONS.includes(p.protocolVersion) ? p.protocolVersion : LATEST_PROTOCOL_VERSION;
    // Tasks are offered to a client that announced its own tasks capability; others see today's answer.
    const tasks = isObject(p.capabilities) && isObject(p.capabilities.tasks);
    return {
      protocolVersion,
      capabilities: { tools: { listChanged: false }, ...(tasks ? { tasks: TASKS_CAPABILITY } : {}) },
      serverInfo: this.serverInfo(),
      instructions: this.instructions(),
    };
  }

  async listTools(cursor: string | undefined): Promise<{ tools: McpTool[]; nextCursor?: string }> {
    if (this.scope.source) return { tools: [...this.scope.source.tools()] };
    return toolsListResult(this.rt.registry, this.scope, await this.served(), cursor);
  }

  /**
   * tools/call of a 2026-07-28 client, with multi round-trip input (shared/mcp/input.ts):
   * a requestState is opened first (refused: nothing runs); a call that needs input answers
   * `input_required` with its requests and the sealed state of this round.
   */
  async callModern(id: Id, p: Record<string, unknown>, client: ModernClient): Promise<unknown> {
    const name = p.name as string;
    const args = (p.arguments ?? {}) as Record<string, unknown>;
    const tasks = declaresTasks(client);
    return this.withInput(name, args, p, client, async (round) => {
      const source = this.scope.source;
      if (!source) return this.toolsCall(id, p, round, tasks);
      if (!source.tools().some((t) => t.name === name)) throw new RpcError(INVALID_PARAMS, `Unknown tool "${name.slice(0, 100)}" on this endpoint. List the tools with tools/list.`);
      const support = source.taskSupport?.(name);
      if (support === 'required' && !tasks) throw needsTasks(`tool "${name.slice(0, 100)}" runs only as a task`);
      const work = (r?: InputRound) => source.call(name, args, r ?? round)!;
      if (!support || !tasks || source.runsAsTask?.(name, round) === false) return work();
      return this.createTask({ kind: 'here', work, background: this.call.background === true }, {}, { platform: this.scope.platform?.name ?? '', tool: name });
    });
  }

  /** A task of the call `how` runs, answered as the Tasks extension's CreateTaskResult. */
  async createTask(how: TaskRun, params: { ttl?: unknown; pollInterval?: unknown }, call: TaskCall): Promise<unknown> {
    const { task } = await (await this.tasks()).create(params, how, call);
    return { resultType: 'task', ...taskView(task) };
  }

  /** prompts/get of a 2026-07-28 client: the endpoint's prompts (none but a fixture's), with multi round-trip input. */
  async getPrompt(p: Record<string, unknown>, client: ModernClient): Promise<unknown> {
    if (typeof p.name !== 'string') throw new RpcError(INVALID_PARAMS, `Invalid prompts/get request: "params.name" must be the prompt's name as a string; got ${kindOf(p.name)}.`);
    const name = p.name;
    const args = isObject(p.arguments) ? p.arguments : {};
    return this.withInput(`prompt:${name}`, args, p, client, (round) => {
      const got = this.scope.source?.getPrompt?.(name, args, round);
      if (!got) throw new RpcError(INVALID_PARAMS, `Unknown prompt "${name.slice(0, 100)}": this endpoint serves no prompts of that name (see prompts/list).`);
      return got;
    });
  }

  /** One round of a request that may need input: opens the state it carries, runs, seals the next round's state. */
  private async withInput(subject: string, args: Record<string, unknown>, p: Record<string, unknown>, client: ModernClient, run: (round: InputRound) => Promise<unknown>): Promise<unknown> {
    if (p.inputResponses !== undefined && !isObject(p.inputResponses)) throw new RpcError(INVALID_PARAMS, `Invalid params: "inputResponses" must be an object of the answers by the keys of the inputRequests; got ${kindOf(p.inputResponses)}.`);
    if (p.requestState !== undefined && typeof p.requestState !== 'string') throw new RpcError(INVALID_PARAMS, `Invalid params: "requestState" must be the string the previous input_required result carried, unchanged; got ${kindOf(p.requestState)}.`);
    const binding = { owner: await this.owner(), tool: subject, args };
    const state = p.requestState === undefined ? undefined : await openState(this.rt, binding, p.requestState);
    const round: InputRound = { responses: (p.inputResponses as Record<string, unknown> | undefined) ?? {}, state, capabilities: client.capabilities };
    try {
      return await run(round);
    } catch (err) {
      if (!(err instanceof InputRequired)) throw err;
      return { resultType: 'input_required', inputRequests: err.inputRequests, requestState: await sealState(this.rt, binding, err.state) };
    }
  }

  /** Whose calls these are (a sign-in's grant or the key's hash, as the route resolved the caller): what tasks and requestState are bound to. */
  owner(): Promise<string> {
    return Promise.resolve(this.call.caller.owner);
  }

  /**
   * tools/call: the tool this endpoint serves by that name, through the one callTool
   * (shared/mcp/call.ts) — now, as a round of multi round-trip input, or as a task.
   */
  async toolsCall(id: Id, p: Record<string, unknown>, round?: InputRound, tasks = false): Promise<unknown> {
    const { rt, scope, call, combined } = this;
    const name = p.name as string;
    // The arguments as JSON.parse read them, as REST passes its body on ("__proto__" included, for the core to refuse by name).
    const args = (p.arguments ?? {}) as Record<string, unknown>;
    // Safe writes through the call's _meta, as the HTTP header and queries (shared/core/safe-writes.ts).
    const meta = callMetaOf(isObject(p._meta) ? p._meta : {});
    const caller = {
      key: call.key,
      caller: { ok: true as const, caller: call.caller },
      connection: call.connection,
      resource: call.resource,
      structured: scope.structured,
      deadline: call.deadline,
      requestId: call.requestId,
      refused: call.refused?.get(id),
      surface: p.task === undefined ? ('mcp' as const) : ('mcp-task' as const),
    };
    if (name === SEARCH_TOOL && (combined || (scope.profile !== undefined && scope.profile.kind !== 'full'))) {
      // A registered tool of the service (shared/catalog/search-tool.ts), run by execute as every tool,
      // over what this endpoint serves of what the caller may see.
      const seen = { ...call.caller, allows: (t: ToolRef) => (!scope.platform || t.platform === scope.platform.name) && serves(scope, t) };
      const searched = await callTool(rt, { platform: scope.platform?.name ?? '', name: SEARCH_TOOL }, { ...caller, caller: { ok: true, caller: seen } }, args, meta, (data) => searchResult(rt, scope, data as SearchResult));
      return searched.result;
    }
    // The one entry by name, then whether this endpoint serves it: no filtered copy of the catalog per call.
    const named = (await catalog(rt.registry, scope.platform ? [scope.platform] : undefined)).find((e) => (combined ? combinedName(e) : e.name) === name);
    // A tool the key's policy hides still goes to the core, which refuses it as REST does:
    // FORBIDDEN naming the policy ("this key is read-only"), not an unknown tool.
    const entry = named && serves({ ...scope, allow: undefined }, named) ? named : undefined;
    // An unknown tool is a protocol error (the MCP specification's own example); so is one this
    // endpoint does not serve (?toolsets, ?read_only): the host asked for a tool it was not given.
    if (!entry) throw new RpcError(INVALID_PARAMS, `Unknown tool "${name.slice(0, 100)}" on this endpoint. List the tools with tools/list.`);
    const run = async () => (await callTool(rt, entry, caller, args, meta)).result;
    // A 2026-07-28 call becomes a task where the tool can be one and the client declared the Tasks
    // extension (a legacy "task" parameter changes nothing there); a 2025-11-25 call where it asks.
    const asTask = round ? tasks && taskSupportOf(entry) !== undefined : p.task !== undefined;
    // A 2026-07-28 call may ask a person (a connection's sign-in, a write's approval): shared/mcp/person.ts.
    if (!asTask && round) return callAskingPerson(rt, entry, caller, args, meta, round);
    if (!asTask) return run();
    if (!taskSupportOf(entry)) {
      throw new RpcError(-32601, `Tool "${name.slice(0, 100)}" does not run as a task: call it without "task". Tools whose execution.taskSupport in tools/list is "optional" do.`);
    }
    // In Lambda a worker invocation of this function runs the task (shared/mcp/task-worker.ts):
    // this one is frozen once it answers. Arguments refused at the edge fail at once, here.
    const fn = call.workerFunction;
    // Inside a 2026-07-28 task, a person is asked through the task (input_required, tasks/update):
    // its rounds start afresh, as the extension keeps a task's input apart from the call's.
    const work = round ? (r?: InputRound) => callAskingPerson(rt, entry, caller, args, meta, r ?? { responses: {}, state: undefined, capabilities: round.capabilities }, true) : run;
    const how: TaskRun =
      !call.background && fn && !caller.refused
        ? { kind: 'worker', job: (ref) => taskJob(rt, ref, entry, caller, args, meta, round?.capabilities), dispatch: (ref) => invokeWorker(fn, ref) }
        : { kind: 'here', work, background: call.background === true };
    const of: TaskCall = { platform: entry.platform, tool: entry.name };
    if (round) return this.createTask(how, {}, of);
    return (await this.tasks()).create(p.task as { ttl?: unknown; pollInterval?: unknown }, how, of);
  }
}

/**
 * search_tools' hits as this endpoint answers them: named as they are called here (plain on a
 * platform's endpoint, <platform>_<tool> on the combined one); where tools/list leaves tools out
 * (a deferring profile), each with its definition as tools/list would give it, so a host with
 * deferred loading loads it and a model calls it without a listing it never got.
 */
async function searchResult(rt: Runtime, scope: McpScope, data: SearchResult): Promise<CallToolResult> {
  const { query, tools: hits } = data;
  const nameOf = (h: { platform: string; tool: string }) => (scope.platform ? h.tool : `${h.platform}_${h.tool}`);
  const deferring = scope.profile !== undefined && scope.profile.kind !== 'full';
  const entries = new Map(deferring ? (await entriesOf(rt, scope)).map((e) => [`${e.platform}/${e.name}`, e] as const) : []);
  const definitionOf = (h: { platform: string; tool: string }) => {
    const e = entries.get(`${h.platform}/${h.tool}`);
    return e && toMcp(e, !scope.platform, scope.origin, scope.structured);
  };
  const lines = hits.map((h) => {
    const def = definitionOf(h);
    return `${nameOf(h)} (${h.annotations.readOnly ? 'read' : 'write'}): ${h.description}\n  required: ${requiredLine(h.required)}${def ? `\n  parameters: ${JSON.stringify(def.inputSchema)}` : ''}`;
  });
  const text = hits.length
    ? `${lines.join('\n')}\n${hits.length} tools for "${query}"; call one by its name.`
    : `No tool matches "${query}". Try other words.`;
  // The hits as data only where the endpoint asked for typed results (shared/mcp/call.ts says why).
  return {
    content: [{ type: 'text', text }],
    ...(scope.structured
      ? {
          structuredContent: {
            query,
            tools: hits.map((h) => {
              const def = definitionOf(h);
              return { ...h, name: nameOf(h), ...(def ? { definition: def } : {}) };
            }),
          },
        }
      : {}),
  };
}
