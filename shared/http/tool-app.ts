import { Hono, type Context } from 'hono';
import { ToolError } from '../core/errors';
import { failure } from '../core/envelope';
import { boundedBody, type BodyRead } from '../core/json-body';
import type { Runtime } from '../core/runtime';
import { catalogRoute } from './catalog-route';
import { corsRoutes } from './cors';
import { iconRoutes } from './icon-route';
import { mcpRoutes } from './mcp';
import { openApiRoutes } from './openapi-route';
import { respond } from './respond';
import { searchRoute } from './search-route';
import { answerToolRequest, bodyOf, MAX_BODY_BYTES, queryOf, tooLarge, toolRoute } from './tool-request';
import { mountReceiver } from '../events/receiver';

/** Bindings a Lambda adapter passes in `c.env`: used for the time budget of batch tools. */
interface LambdaBindings {
  lambdaContext?: { getRemainingTimeInMillis(): number; awsRequestId?: string };
}

export { MAX_BODY_BYTES };

/** Routes a function mounts beside the shared ones (shared/lambda/handler.ts, FunctionSpec.routes). */
export type RouteMount = (app: Hono<any>, rt: Runtime) => void;

/**
 * The Hono app of the tool functions: every platform's tools under POST /v1/tools/{platform}/{tool},
 * their lists (GET /v1/tools/{platform}), tool search, MCP, OpenAPI and the event receiver. Each
 * route maps its request to the core (shared/core/execute.ts, shared/catalog/list-tools.ts) and the
 * answer back through one envelope writer. The identity routes are not here: API Gateway sends
 * them to the identity function alone (serverless.yml), which passes them in as `mounts`, as the
 * full app (shared/http/app.ts: the local server, tests) does; a tool function's bundle leaves them out.
 */
export function createToolApp(rt: Runtime, mounts: readonly RouteMount[] = []): Hono<{ Bindings: LambdaBindings }> {
  const app = new Hono<{ Bindings: LambdaBindings }>();

  // Before the routes: browser hosts' preflights and CORS headers (shared/http/cors.ts).
  corsRoutes(app, rt);
  searchRoute(app, rt);
  catalogRoute(app, rt);
  mcpRoutes(app, rt, MAX_BODY_BYTES);
  openApiRoutes(app, rt);
  // Each in its order: a mount's middleware (a body bound on /v1/admin/*) covers the mounts after it.
  for (const mount of mounts) mount(app, rt);
  iconRoutes(app, rt);

  // Lambda's own request limit; locally it keeps a 200 MB body from being read into memory.
  const tooLargeBody = (c: Context<{ Bindings: LambdaBindings }>) => respondTool(c, tooLarge());
  // Vendors' webhook deliveries into the event inbox (shared/events/receiver.ts): keyless, authenticated per vendor.
  mountReceiver(app, rt);
  // Routed and decoded by toolRoute and queryOf (shared/http/tool-request.ts), as the Lambda entry does from the event.
  app.post('/v1/tools/*', boundedBody(MAX_BODY_BYTES, tooLargeBody), (c) => respondTool(c, c.req.text().then(bodyOf)));

  /** One tool call over HTTP (shared/http/tool-request.ts), answered as a Response. */
  async function respondTool(c: Context<{ Bindings: LambdaBindings }>, body: BodyRead | Promise<BodyRead>): Promise<Response> {
    const url = new URL(c.req.url);
    const route = toolRoute(c.req.method, url.pathname);
    if (!route) return noRoute(c);
    const lambda = c.env?.lambdaContext;
    const { outcome, base64 } = await answerToolRequest(rt, {
      ...route,
      header: (name) => c.req.header(name),
      query: queryOf(url.search.slice(1)),
      remainingMs: lambda?.getRemainingTimeInMillis(),
      awsRequestId: lambda?.awsRequestId,
      body,
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
