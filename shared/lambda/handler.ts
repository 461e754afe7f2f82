import type { APIGatewayProxyEvent, APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { ToolError } from '../core/errors';
import { execute } from '../core/execute';
import { failure, writeEnvelope, type Envelope } from '../core/envelope';
import { createRuntime, type Runtime, type RuntimeOptions } from './runtime';
import type { Platform } from '../core/tool';
import { log } from '../core/log';
import { badEvent, eventBodyBytes, eventHeaders, eventMethod, eventPath, eventQuery, eventText, httpAdapter, resultOf, type HttpEvent, type HttpResult } from './http-event';
import { readSecureKey } from '../aws/ssm';
import { answerToolRequest, bodyOf, MAX_BODY_BYTES, queryOf, tooLarge, toolRoute } from '../http/tool-request';
import { taskWorker } from './task-event';
import type { RouteMount } from '../http/tool-app';

/**
 * A scheduled job's event: the key is read from an SSM SecureString, never sent in the event.
 * Lambda's runtime parses the event before this code runs; the parameters' depth is then checked
 * by validation (iteratively, shared/core/validate.ts), like an HTTP body after its text scan.
 */
export interface DirectEvent {
  tool: string;
  params?: unknown;
  format?: 'text' | 'json';
  /** Name of the SSM Parameter Store SecureString holding the platform API key. */
  key_parameter: string;
  platform?: string;
  /** The connected account a service key (tes_…, in the SSM parameter) acts through, as the X-Connection-Id header. */
  connection_id?: string;
  /** Safe writes (shared/core/safe-writes.ts): as the HTTP `Idempotency-Key` header, `dry_run` and `max_tokens` queries. */
  idempotency_key?: string;
  dry_run?: boolean;
  max_tokens?: number;
  /** The approval a person gave for this exact call (shared/identity/approvals.ts), as the HTTP `Approval-Id` header. */
  approval_id?: string;
}

const isHttpEvent = (e: object): e is HttpEvent => 'requestContext' in e;

/** A function serving no single platform: the combined `mcp` function (every platform) or `identity` (none). */
export interface FunctionSpec {
  name: string;
  /** The platforms whose tools it serves. */
  platforms: readonly Platform<any>[];
  /** The platforms its identity connects and signs in to, when not those it serves (identity: every descriptor, no tools). */
  describes?: readonly Platform<any>[];
  /**
   * Routes mounted on the app beside the tool routes (the identity function's: service keys,
   * connections, MCP sign-in, the console, approvals), passed in by the function's handler so the
   * bundles of the functions API Gateway never sends them to do not carry them.
   */
  routes?: readonly RouteMount[];
}

/**
 * The one Lambda entry of every function (functions/<name>/handler.ts): a platform's own
 * (`lambdaHandler(platform)`), the combined MCP endpoint and the identity function
 * (`lambdaHandler({ name, platforms })`). Each event is, in this order:
 *
 * - an API Gateway HTTP API (v2) or REST (v1) event: checked first (a malformed one is answered
 *   with the envelope, never thrown). A tool call (POST /v1/tools/{platform}/{tool}) is read from
 *   the event and answered by this module itself (shared/http/tool-request.ts, the same routing,
 *   decoding and limits as the Hono route): no Request, Response or router on the path most
 *   invocations take. Every other route goes through the tool functions' Hono app
 *   (shared/http/tool-app.ts: MCP, catalog, OpenAPI, events; the identity function adds its own
 *   routes, FunctionSpec.routes), whose module loads at its first use, or on the turn after the
 *   container's first answer — in the idle time before the next event, not inside a tool call;
 * - an MCP task's worker event (shared/lambda/task-event.ts);
 * - any other event: a direct invocation {tool, params, format?, key_parameter}, where the
 *   function serves tools.
 *
 * The runtime (config, store client and its connection, registry, Blob store, identity) starts
 * here, when the module is loaded: Lambda's init phase runs that before the first request, which
 * then only awaits it. A failed start is not kept: the next invocation starts again. A function
 * serving no single platform (its traffic is the app's routes) builds the app at init too.
 */
export function lambdaHandler(served: Platform<any> | FunctionSpec, options: Partial<RuntimeOptions> = {}) {
  const spec: FunctionSpec = 'platforms' in served ? served : { name: served.name, platforms: [served] };
  const { name, platforms } = spec;
  /** The platform of a one-platform function: what its envelopes and direct invocations name. */
  const own = platforms.length === 1 ? platforms[0]!.name : '';
  let app: Promise<AppHandler> | undefined;
  const appOf = (rt: Runtime): Promise<AppHandler> => {
    // The dynamic import keeps the app's modules out of the bundle's load (esbuild evaluates them here, once).
    const made = (app ??= import('../http/tool-app').then(({ createToolApp }) => httpAdapter(createToolApp(rt, spec.routes))));
    made.catch(() => {
      if (app === made) app = undefined;
    });
    return made;
  };
  const start = (): Promise<Runtime> => {
    // The identity function connects and signs in to platforms whose tools it does not serve.
    const identity = spec.describes ? { ...options.identity, platforms: spec.describes } : options.identity;
    const started = createRuntime({ ...options, platforms: [...platforms], ...(identity ? { identity } : {}) });
    // Handled here, so a start failing before any invocation awaits it is no unhandled rejection.
    started.then(
      (rt) => void (own ? undefined : appOf(rt).catch(() => undefined)),
      (err: unknown) => {
        if (ready === started) ready = undefined;
        log('error', 'runtime start failed; the next invocation retries', { function: name, error: err instanceof Error ? err.message : String(err) });
      },
    );
    return started;
  };
  let ready: Promise<Runtime> | undefined = start();
  let warm = false;

  return async function handler(event: HttpEvent | DirectEvent, context: Context) {
    const rt = await (ready ??= start());
    if (event && typeof event === 'object' && isHttpEvent(event)) {
      const checked = checkHttpEvent(event);
      if (checked instanceof ToolError) return httpFailure(checked, own);
      try {
        const route = toolRoute(eventMethod(checked), eventPath(checked));
        if (route) return await answerTool(rt, checked, route, context);
        return await (await appOf(rt))(checked, context);
      } catch (err) {
        return httpFailure(err, own);
      } finally {
        // After the first answer, the next turn (Lambda's runtime posting it) loads what other
        // routes need: the app and Node's Request/Response (undici: tens of ms to compile).
        if (!warm) {
          warm = true;
          const first = checked;
          setImmediate(() => void appOf(rt).then((made) => warmApp(made, spec, addressOf(first)), () => undefined));
        }
      }
    }
    const worker = taskWorker(rt, event, context);
    if (worker) return worker;
    if (!platforms.length) {
      return failure(
        new ToolError('INVALID_PARAMETER', `The ${name} function serves no tools and takes API Gateway proxy events only; invoke a platform's function to call a tool.`, { parameter: '(event)', expected: 'an API Gateway HTTP API (2.0) or REST (1.0) proxy event' }),
        { platform: '', tool: '' },
      ).body;
    }
    if (!event || typeof event !== 'object' || Array.isArray(event)) {
      return failure(
        new ToolError('INVALID_PARAMETER', 'A direct invocation takes an object {tool, params, format?, key_parameter}.', { parameter: '(event)', expected: 'object' }),
        { platform: own, tool: '' },
      ).body;
    }
    return direct(rt, own, event, context);
  };
}

/**
 * One request through the app and back out as the adapter reads it: Node loads undici (Request,
 * Response, body streams) and V8 compiles what the request runs through — one-time work a
 * container's next request would otherwise carry. On a function serving tools it is the request
 * an MCP host sends first, a lone tools/list of the function's own endpoint, with a bearer that is
 * no key (WARM_BEARER): read as a vendor key passed through, it lists the tools from the build's
 * documents and never reaches a vendor (a list calls none); where vendor keys are refused
 * (PASS_THROUGH_KEYS=off) it stops at the 401. Elsewhere a path no route answers. The answer is
 * dropped: nothing is logged, stored or sent.
 */
const WARM_BEARER = 'warm-up-not-a-key';

/** What of a request names this deployment's address (the origin of icons and links): the warm-up asks as from there. */
interface Address {
  headers: Record<string, string>;
  domainName?: string;
}
function addressOf(event: HttpEvent): Address {
  const all = eventHeaders(event);
  const headers: Record<string, string> = {};
  for (const name of ['host', 'x-forwarded-host', 'x-forwarded-proto']) {
    const value = all.get(name);
    if (value !== undefined) headers[name] = value;
  }
  const domainName = (event.requestContext as { domainName?: unknown }).domainName;
  return { headers, ...(typeof domainName === 'string' ? { domainName } : {}) };
}

/** The warm-up request, from the address the first request came to: its list is then the one the next host gets (the build's list with that origin). */
function warmEvent(spec: FunctionSpec, from: Address): HttpEvent {
  const path = spec.platforms.length === 0 ? '/.warm' : spec.platforms.length === 1 ? `/v1/mcp/${spec.platforms[0]!.name}` : '/v1/mcp';
  const post = path !== '/.warm';
  return {
    version: '2.0',
    rawPath: path,
    rawQueryString: '',
    headers: post ? { host: 'localhost', ...from.headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${WARM_BEARER}` } : {},
    requestContext: { http: { method: post ? 'POST' : 'GET' }, ...(from.domainName ? { domainName: from.domainName } : {}) },
    ...(post ? { body: '{"jsonrpc":"2.0","id":0,"method":"tools/list"}' } : {}),
    isBase64Encoded: false,
  } as unknown as HttpEvent;
}
async function warmApp(app: AppHandler, spec: FunctionSpec, from: Address): Promise<void> {
  await app(warmEvent(spec, from), undefined);
}

/** The shared Hono app behind the API Gateway adapter. */
type AppHandler = ReturnType<typeof httpAdapter>;

/** A tool call straight from the event: what the Hono route reads from its Request, read here from the event by the same code. */
async function answerTool(rt: Runtime, event: HttpEvent, route: { platform: string; tool: string }, context: Context): Promise<HttpResult> {
  let headers: Map<string, string> | undefined;
  const { outcome, base64 } = await answerToolRequest(rt, {
    ...route,
    header: (name) => (headers ??= eventHeaders(event)).get(name),
    query: queryOf(eventQuery(event)),
    remainingMs: context?.getRemainingTimeInMillis?.(),
    awsRequestId: context?.awsRequestId,
    body: eventBodyBytes(event) > MAX_BODY_BYTES ? tooLarge() : bodyOf(eventText(event)),
  });
  return resultOf(event, writeEnvelope(outcome, { base64 }));
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const NO_BODY = new Set(['GET', 'HEAD']);

/**
 * What the Hono adapter would turn into a bare text answer (or a thrown error) is checked here so
 * that every answer is an envelope: the request line must be there, a base64 body must be base64,
 * and a GET/HEAD carries no body (Request refuses one; it would mean nothing to a GET route).
 */
function checkHttpEvent(event: HttpEvent): HttpEvent | ToolError {
  const rc = (event as { requestContext?: unknown }).requestContext;
  if (!rc || typeof rc !== 'object') return badEvent('requestContext is missing');
  let method: unknown;
  if ('rawPath' in event || (event as { version?: unknown }).version === '2.0') {
    const v2 = event as APIGatewayProxyEventV2;
    const http = (rc as { http?: unknown }).http;
    if (!http || typeof http !== 'object') return badEvent('requestContext.http is missing');
    method = (http as { method?: unknown }).method;
    if (typeof v2.rawPath !== 'string' || !v2.rawPath.startsWith('/')) return badEvent('rawPath is missing');
  } else {
    const v1 = event as APIGatewayProxyEvent;
    method = v1.httpMethod;
    if (typeof v1.path !== 'string' || !v1.path.startsWith('/')) return badEvent('path is missing');
  }
  if (typeof method !== 'string' || !/^[A-Z]+$/.test(method)) return badEvent('the HTTP method is missing');
  const body = (event as { body?: unknown }).body;
  if (event.isBase64Encoded && typeof body === 'string' && (body.length % 4 !== 0 || !BASE64.test(body))) {
    return new ToolError('INVALID_PARAMETER', 'The event says isBase64Encoded but its body is not base64; send the JSON body as text or encode it in base64 (RFC 4648).', { parameter: '(body)', expected: 'base64' });
  }
  if (NO_BODY.has(method) && body != null) return { ...event, body: null, isBase64Encoded: false } as HttpEvent;
  return event;
}

/** An envelope as API Gateway's proxy answer. */
function httpFailure(err: unknown, platform: string): HttpResult {
  const written = writeEnvelope(failure(err, { platform, tool: '' }));
  return { statusCode: written.status, headers: written.headers, body: written.body, isBase64Encoded: false };
}

async function direct(rt: Runtime, platform: string, event: DirectEvent, context: Context): Promise<Envelope> {
  const call = { platform: event.platform ?? platform, tool: String(event.tool ?? '') };
  try {
    if (['key', 'api_key', 'authorization', 'token'].some((k) => k in event)) {
      throw new ToolError('INVALID_PARAMETER', 'A plaintext key in the event is refused. Store the key as an SSM SecureString and pass its name as "key_parameter".', {
        parameter: 'key_parameter',
        expected: 'name of an SSM SecureString parameter',
      });
    }
    if (typeof event.key_parameter !== 'string' || event.key_parameter === '') {
      throw new ToolError('UNAUTHORIZED', 'Direct invocation needs "key_parameter": the name of the SSM SecureString that holds the API key.', {
        parameter: 'key_parameter',
        expected: 'name of an SSM SecureString parameter',
      });
    }
    if (event.format !== undefined && event.format !== 'text' && event.format !== 'json') {
      throw new ToolError('INVALID_PARAMETER', `"format" must be "json" or "text"; got ${JSON.stringify(event.format)}.`, { parameter: 'format', expected: '"json" or "text"' });
    }
    if (event.connection_id !== undefined && typeof event.connection_id !== 'string') {
      throw new ToolError('INVALID_PARAMETER', '"connection_id" must be the id of a connected account (con_…), as a string.', { parameter: 'connection_id', expected: 'string (con_…)' });
    }
    const key = await readSecureKey(event.key_parameter);
    const outcome = await execute(rt, {
      ...call,
      key,
      caller: rt.identity.resolve({ key }),
      ...(event.connection_id !== undefined ? { connection: event.connection_id } : {}),
      params: event.params ?? {},
      format: event.format ?? 'text',
      deadline: Date.now() + context.getRemainingTimeInMillis(),
      requestId: context.awsRequestId,
      idempotencyKey: event.idempotency_key,
      dryRun: event.dry_run,
      maxTokens: event.max_tokens,
      approvalId: event.approval_id,
      surface: 'direct',
    });
    return outcome.body;
  } catch (err) {
    return failure(err, call).body;
  }
}
