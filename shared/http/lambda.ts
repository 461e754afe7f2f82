import type { APIGatewayProxyEvent, APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { handle } from 'hono/aws-lambda';
import { ToolError } from '../errors';
import { execute } from '../execute';
import { failure, writeEnvelope, type Envelope } from '../envelope';
import { createRuntime, type Runtime, type RuntimeOptions } from '../runtime';
import type { Platform } from '../tool';
import { createApp } from './app';
import { log } from '../log';
import { readSecureKey } from './ssm';
import { taskWorker } from './task-event';

/**
 * A scheduled job's event: the key is read from an SSM SecureString, never sent in the event.
 * Lambda's runtime parses the event before this code runs; the parameters' depth is then checked
 * by validation (iteratively, shared/validate.ts), like an HTTP body after its text scan.
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
  /** Safe writes (shared/safe-call.ts): as the HTTP `Idempotency-Key` header, `dry_run` and `max_tokens` queries. */
  idempotency_key?: string;
  dry_run?: boolean;
  max_tokens?: number;
}

type HttpEvent = APIGatewayProxyEvent | APIGatewayProxyEventV2;

const isHttpEvent = (e: object): e is HttpEvent => 'requestContext' in e;

/**
 * The Lambda entry of one platform: API Gateway HTTP API (v2) and REST (v1) events go through
 * the shared Hono app; any other event is a direct invocation {tool, params, format?, key_parameter}.
 *
 * The runtime (config, store client and its connection, registry, Hono app, Blob store) starts
 * here, when the module is loaded: Lambda's init phase runs that at full speed before the first
 * request, which then only awaits it. A failed start is not kept: the next invocation starts again.
 */
export function lambdaHandler(platform: Platform<any>, options: Partial<RuntimeOptions> = {}) {
  type Ready = { rt: Runtime; http: ReturnType<typeof handle> };
  const init = async (): Promise<Ready> => {
    const rt = await createRuntime({ ...options, platforms: [platform] });
    return { rt, http: handle(createApp(rt)) };
  };
  const start = (): Promise<Ready> => {
    const started = init();
    // Handled here, so a start failing before any invocation awaits it is no unhandled rejection.
    started.catch((err: unknown) => {
      if (ready === started) ready = undefined;
      log('error', 'runtime start failed; the next invocation retries', { platform: platform.name, error: err instanceof Error ? err.message : String(err) });
    });
    return started;
  };
  let ready: Promise<Ready> | undefined = start();
  // Node's Request/Response (undici: tens of ms to compile), which the Hono adapter builds for every
  // event, load on first use, in the first request (vendor calls use shared/vendor-fetch.ts, not them).
  // Loaded on the next turn instead, once the store's warm-up request is out: at init, overlapping it.
  setImmediate(loadFetch);

  return async function handler(event: HttpEvent | DirectEvent, context: Context) {
    const { rt, http } = await (ready ??= start());
    if (event && typeof event === 'object' && isHttpEvent(event)) {
      const checked = checkHttpEvent(event);
      if (checked instanceof ToolError) return httpFailure(checked, platform.name);
      try {
        return await http(checked as never, context as never);
      } catch (err) {
        return httpFailure(err, platform.name);
      }
    }
    const worker = taskWorker(rt, event, context);
    if (worker) return worker;
    if (!event || typeof event !== 'object' || Array.isArray(event)) {
      return failure(
        new ToolError('INVALID_PARAMETER', 'A direct invocation takes an object {tool, params, format?, key_parameter}.', { parameter: '(event)', expected: 'object' }),
        { platform: platform.name, tool: '' },
      ).body;
    }
    return direct(rt, platform, event, context);
  };
}

/** Touching one of fetch's lazy globals makes Node load undici, which Request and Response then find ready. */
const loadFetch = (): void => void globalThis.Headers;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const NO_BODY = new Set(['GET', 'HEAD']);
const badEvent = (problem: string) => new ToolError('INVALID_PARAMETER', `Malformed API Gateway event: ${problem}.`, { parameter: '(event)', expected: 'an API Gateway HTTP API (2.0) or REST (1.0) proxy event' });

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
function httpFailure(err: unknown, platform: string) {
  const written = writeEnvelope(failure(err, { platform, tool: '' }));
  return { statusCode: written.status, headers: written.headers, body: written.body, isBase64Encoded: false };
}

async function direct(rt: Runtime, platform: Platform<any>, event: DirectEvent, context: Context): Promise<Envelope> {
  const call = { platform: event.platform ?? platform.name, tool: String(event.tool ?? '') };
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
      ...(event.connection_id !== undefined ? { connection: event.connection_id } : {}),
      params: event.params ?? {},
      format: event.format ?? 'text',
      deadline: Date.now() + context.getRemainingTimeInMillis(),
      requestId: context.awsRequestId,
      idempotencyKey: event.idempotency_key,
      dryRun: event.dry_run,
      maxTokens: event.max_tokens,
    });
    return outcome.body;
  } catch (err) {
    return failure(err, call).body;
  }
}
