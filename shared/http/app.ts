import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import * as z from 'zod';
import { ToolError } from '../errors';
import { countCall, execute, failure, hashKey, INVALID_JSON, type Envelope, type Format, type Runtime } from '../execute';
import { bearerKey } from './auth';
import { agentSurfaces } from './mcp';
import { catalogFilter } from '../identity';
import { identityRoutes } from '../identity/routes';
import { omitNullsFor } from '../schemas/nulls';
import { duplicateKeyError, duplicateKeyPath } from '../validate';

/** Bindings a Lambda adapter passes in `c.env`: used for the time budget of batch tools. */
interface LambdaBindings {
  lambdaContext?: { getRemainingTimeInMillis(): number; awsRequestId?: string };
}

/** The largest request body read: AWS Lambda's synchronous payload limit (6 MB). */
export const MAX_BODY_BYTES = 6_000_000;

/** The shared Hono app: every platform's tools under POST /v1/tools/{platform}/{tool}. */
export function createApp(rt: Runtime): Hono<{ Bindings: LambdaBindings }> {
  const app = new Hono<{ Bindings: LambdaBindings }>();

  // MCP, OpenAPI, provider schemas, catalog filters and tool search (issue 12): before the routes below.
  agentSurfaces(app, rt, MAX_BODY_BYTES);
  // Service keys, connected accounts and their admin API (shared/identity/routes.ts).
  identityRoutes(app, rt);

  // Lambda's own request limit; locally it keeps a 200 MB body from being read into memory. Refused
  // bodies and a bad `format` are reported through execute, after auth and the rate limit, so
  // their answers carry the RateLimit-* headers like every keyed answer.
  const tooLarge = (c: Context) =>
    callTool(c, new ToolError('INVALID_PARAMETER', `The request body is larger than ${MAX_BODY_BYTES / 1_000_000} MB. Pass large files as https URLs rather than base64 content.`, { parameter: '(body)', expected: `at most ${MAX_BODY_BYTES} bytes` }));
  app.post('/v1/tools/:platform/:tool', bodyLimit({ maxSize: MAX_BODY_BYTES, onError: tooLarge }), (c) => callTool(c, readBody(c)));

  /** One tool call over HTTP: the key, the query options and the body (or why it was refused) into execute. */
  async function callTool(c: Context<{ Bindings: LambdaBindings }>, body: unknown): Promise<Response> {
    const { platform = '', tool = '' } = c.req.param();
    const base64 = c.req.query('base64') === 'true';
    const auth = bearerKey(c.req.header('authorization'));
    if (!auth.ok) return send(c, failure(auth.error, { platform, tool }), base64);
    const format = parseFormat(c.req.query('format'));
    const remaining = c.env?.lambdaContext?.getRemainingTimeInMillis();
    const requestId = c.env?.lambdaContext?.awsRequestId ?? c.req.header('x-request-id');
    const params = format instanceof ToolError ? format : await body;
    const outcome = await execute(rt, {
      ...(requestId ? { requestId: requestId.slice(0, 100) } : {}),
      platform,
      tool,
      key: auth.key,
      connection: c.req.header('x-connection-id'),
      // A null for an optional parameter is its omission (OpenAI strict mode sends them): shared/schemas/nulls.ts.
      params: params instanceof ToolError ? params : await omitNullsFor(rt.registry, platform, tool, params),
      format: format instanceof ToolError ? 'text' : format,
      ...(remaining !== undefined ? { deadline: Date.now() + remaining } : {}),
      // Safe writes (shared/safe-call.ts): checked there, for every surface alike.
      idempotencyKey: c.req.header('idempotency-key'),
      dryRun: c.req.query('dry_run'),
      maxTokens: c.req.query('max_tokens'),
    });
    return send(c, outcome, base64);
  }

  // Tool discovery for agent hosts: names, descriptions, annotations and JSON Schemas.
  app.get('/v1/tools/:platform', async (c) => {
    const auth = bearerKey(c.req.header('authorization'));
    const name = c.req.param('platform');
    if (!auth.ok) return send(c, failure(auth.error, { platform: name, tool: '' }), false);
    const platform = rt.registry.platforms.get(name);
    if (!platform) return send(c, failure(new ToolError('NOT_FOUND', `Unknown platform "${name}".`, { platform: name }), { platform: name, tool: '' }), false);
    const headers: Record<string, string> = {};
    let allow;
    try {
      await countCall(rt, name, hashKey(auth.key), headers);
      allow = await catalogFilter(rt, auth.key);
    } catch (err) {
      return send(c, failure(err, { platform: name, tool: '' }, headers), false);
    }
    const tools = (await rt.registry.list(platform)).filter((t) => !allow || allow({ ...t, platform: name })).map((t) => ({
      name: t.name,
      description: t.description,
      annotations: t.annotations,
      input_schema: z.toJSONSchema(t.input, { io: 'input' }),
    }));
    return send(c, { status: 200, body: { success: true, data: { platform: name, tools } }, headers }, false);
  });

  app.notFound(noRoute);
  app.onError((err, c) => send(c, failure(err, { platform: c.req.param('platform') ?? '', tool: c.req.param('tool') ?? '' }), false));
  return app;
}

/** Any unmatched request, here or on a server that mounts this app: an envelope, never a bare 404. */
export function noRoute(c: Context): Response {
  const err = new ToolError('NOT_FOUND', `No route ${c.req.method} ${c.req.path}. Tools are called with POST /v1/tools/{platform}/{toolName}; GET /v1/tools/{platform} lists them.`);
  return send(c, failure(err, { platform: '', tool: '' }), false);
}

function parseFormat(raw: string | undefined): Format | ToolError {
  if (raw === undefined || raw === 'text') return 'text';
  if (raw === 'json') return 'json';
  return new ToolError('INVALID_PARAMETER', `Query "format" must be "json" (structured result) or omitted (text); got "${raw}".`, {
    parameter: 'format',
    expected: '"json" or "text"',
  });
}

/**
 * Empty body = no parameters; anything else must be JSON with each key once per object (a
 * duplicate answers a ToolError naming it; execute reports it, like INVALID_JSON, after auth and
 * the rate limit). JSON.parse is not recursive in V8, so a deeply nested body parses here and is
 * refused by depth in validation.
 */
async function readBody(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === '') return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return INVALID_JSON;
  }
  const duplicate = duplicateKeyPath(text);
  return duplicate ? duplicateKeyError(duplicate) : body;
}

function send(c: Context, outcome: { status: number; body: Envelope; headers: Record<string, string> }, base64: boolean): Response {
  const json = JSON.stringify(outcome.body);
  const headers = new Headers(outcome.headers);
  headers.set('cache-control', 'no-store');
  if (base64) {
    // The whole envelope, UTF-8 JSON, base64 (RFC 4648, padded) as plain text.
    headers.set('content-type', 'text/plain; charset=utf-8');
    return new Response(Buffer.from(json, 'utf8').toString('base64'), { status: outcome.status, headers });
  }
  headers.set('content-type', 'application/json; charset=utf-8');
  return new Response(json, { status: outcome.status, headers });
}
