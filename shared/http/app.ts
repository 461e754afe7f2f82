import { Hono, type Context } from 'hono';
import { ToolError } from '../core/errors';
import { failure } from '../core/envelope';
import { boundedBody, type BodyRead } from '../core/json-body';
import type { Runtime } from '../core/runtime';
import { catalogRoute } from './catalog-route';
import { corsRoutes } from './cors';
import { iconRoutes } from './icon-route';
import { mcpRoutes } from './mcp';
import { taskAdminRoutes } from '../mcp/admin';
import { openApiRoutes } from './openapi-route';
import { respond } from './respond';
import { searchRoute } from './search-route';
import { answerToolRequest, bodyOf, MAX_BODY_BYTES, queryOf, tooLarge, toolRoute } from './tool-request';
import { mountReceiver } from '../events/receiver';
import { identityRoutes } from '../identity/routes';
import { mcpOAuthRoutes } from '../identity/mcp-oauth/routes';

/** Bindings a Lambda adapter passes in `c.env`: used for the time budget of batch tools. */
interface LambdaBindings {
  lambdaContext?: { getRemainingTimeInMillis(): number; awsRequestId?: string };
}

export { MAX_BODY_BYTES };

/**
 * The shared Hono app: every platform's tools under POST /v1/tools/{platform}/{tool}, their lists
 * (GET /v1/tools/{platform}), tool search, MCP and OpenAPI. Each route maps its request to the
 * core (shared/core/execute.ts, shared/catalog/list-tools.ts) and the answer back through one envelope writer.
 */
export function createApp(rt: Runtime): Hono<{ Bindings: LambdaBindings }> {
  const app = new Hono<{ Bindings: LambdaBindings }>();

  // Before the routes: browser hosts' preflights and CORS headers (shared/http/cors.ts).
  corsRoutes(app, rt);
  searchRoute(app, rt);
  catalogRoute(app, rt);
  mcpRoutes(app, rt, MAX_BODY_BYTES);
  taskAdminRoutes(app, rt);
  openApiRoutes(app, rt);
  // Service keys, connected accounts and their admin API (shared/identity/routes.ts).
  identityRoutes(app, rt);
  // The approval page and the approvals/audit admin routes (shared/identity/approval-routes.ts)
  // are mounted by the functions that serve them (functions/mcp/handler.ts, functions/identity/handler.ts) and the local
  // server, so the platforms' bundles do not carry them.
  iconRoutes(app, rt);
  // MCP sign-in: protected-resource metadata and the built-in authorization server (shared/identity/mcp-oauth).
  mcpOAuthRoutes(app, rt);

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
