import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ToolError } from '../errors';
import { execute } from '../execute';
import { failure } from '../envelope';
import type { Format } from '../call';
import { readJson, type BodyRead } from '../json-body';
import type { Runtime } from '../runtime';
import { bearerKey } from './auth';
import { httpDeadline } from './deadline';
import { catalogRoute } from './catalog-route';
import { corsRoutes } from './cors';
import { iconRoutes } from './icon-route';
import { mcpRoutes } from './mcp';
import { openApiRoutes } from './openapi-route';
import { respond } from './respond';
import { searchRoute } from './search-route';
import { mountReceiver } from '../events/receiver';
import { identityRoutes } from '../identity/routes';
import { mcpOAuthRoutes } from '../identity/mcp-oauth/routes';

/** Bindings a Lambda adapter passes in `c.env`: used for the time budget of batch tools. */
interface LambdaBindings {
  lambdaContext?: { getRemainingTimeInMillis(): number; awsRequestId?: string };
}

/** The largest request body read: AWS Lambda's synchronous payload limit (6 MB). */
export const MAX_BODY_BYTES = 6_000_000;

/**
 * The shared Hono app: every platform's tools under POST /v1/tools/{platform}/{tool}, their lists
 * (GET /v1/tools/{platform}), tool search, MCP and OpenAPI. Each route maps its request to the
 * core (shared/execute.ts, shared/list-tools.ts) and the answer back through one envelope writer.
 */
export function createApp(rt: Runtime): Hono<{ Bindings: LambdaBindings }> {
  const app = new Hono<{ Bindings: LambdaBindings }>();

  // Before the routes: browser hosts' preflights and CORS headers (shared/http/cors.ts).
  corsRoutes(app, rt);
  searchRoute(app, rt);
  catalogRoute(app, rt);
  mcpRoutes(app, rt, MAX_BODY_BYTES);
  openApiRoutes(app, rt);
  // Service keys, connected accounts and their admin API (shared/identity/routes.ts).
  identityRoutes(app, rt);
  iconRoutes(app, rt);
  // MCP sign-in: protected-resource metadata and the built-in authorization server (shared/identity/mcp-oauth).
  mcpOAuthRoutes(app, rt);

  // Lambda's own request limit; locally it keeps a 200 MB body from being read into memory. Refused
  // bodies and a bad `format` are reported through execute, after auth and the rate limit, so
  // their answers carry the RateLimit-* headers like every keyed answer.
  const tooLarge = (c: Context) =>
    callTool(c, {
      ok: false,
      refused: new ToolError('INVALID_PARAMETER', `The request body is larger than ${MAX_BODY_BYTES / 1_000_000} MB. Pass large files as https URLs rather than base64 content.`, { parameter: '(body)', expected: `at most ${MAX_BODY_BYTES} bytes` }),
    });
  // Vendors' webhook deliveries into the event inbox (shared/events/receiver.ts): keyless, authenticated per vendor.
  mountReceiver(app, rt);
  app.post('/v1/tools/:platform/:tool', bodyLimit({ maxSize: MAX_BODY_BYTES, onError: tooLarge }), (c) => callTool(c, readBody(c)));

  /** One tool call over HTTP: the key, the query options and the body (or why it was refused) into execute. */
  async function callTool(c: Context<{ Bindings: LambdaBindings }>, reading: BodyRead | Promise<BodyRead>): Promise<Response> {
    const { platform = '', tool = '' } = c.req.param();
    const base64 = c.req.query('base64') === 'true';
    const auth = bearerKey(c.req.header('authorization'));
    if (!auth.ok) return respond(failure(auth.error, { platform, tool }), { base64 });
    const format = parseFormat(c.req.query('format'));
    const deadline = httpDeadline(c.env?.lambdaContext);
    const requestId = c.env?.lambdaContext?.awsRequestId ?? c.req.header('x-request-id');
    const body = await reading;
    const refused = format instanceof ToolError ? format : body.ok ? undefined : body.refused;
    const outcome = await execute(rt, {
      ...(requestId ? { requestId: requestId.slice(0, 100) } : {}),
      platform,
      tool,
      key: auth.key,
      connection: c.req.header('x-connection-id'),
      params: body.ok ? body.value : undefined,
      ...(refused ? { refused } : {}),
      format: format instanceof ToolError ? 'text' : format,
      ...(deadline !== undefined ? { deadline } : {}),
      // Safe writes (shared/safe-call.ts): checked there, for every surface alike.
      idempotencyKey: c.req.header('idempotency-key'),
      dryRun: c.req.query('dry_run'),
      maxTokens: c.req.query('max_tokens'),
    });
    return respond(outcome, { base64 });
  }

  app.notFound(noRoute);
  app.onError((err, c) => respond(failure(err, { platform: safeParam(c, 'platform'), tool: safeParam(c, 'tool') })));
  return app;
}

/** A path parameter for the log of an unexpected error; a malformed percent-encoding reads as none. */
function safeParam(c: Context, name: string): string {
  try {
    return c.req.param(name) ?? '';
  } catch {
    return '';
  }
}

/** Any unmatched request, here or on a server that mounts this app: an envelope, never a bare 404. */
export function noRoute(c: Context): Response {
  const err = new ToolError('NOT_FOUND', `No route ${c.req.method} ${c.req.path}. Tools are called with POST /v1/tools/{platform}/{toolName}; GET /v1/tools/{platform} lists them.`);
  return respond(failure(err, { platform: '', tool: '' }));
}

function parseFormat(raw: string | undefined): Format | ToolError {
  if (raw === undefined || raw === 'text') return 'text';
  if (raw === 'json') return 'json';
  return new ToolError('INVALID_PARAMETER', `Query "format" must be "json" (structured result) or omitted (text); got "${raw}".`, {
    parameter: 'format',
    expected: '"json" or "text"',
  });
}

/** Empty body = no parameters; anything else is read by shared/json-body.ts (depth, JSON, duplicate keys). */
async function readBody(c: Context): Promise<BodyRead> {
  const text = await c.req.text();
  if (text.trim() === '') return { ok: true, value: {} };
  return readJson(text);
}
