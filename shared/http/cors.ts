import type { Hono, MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { identityOf } from '../identity';
import type { Runtime } from '../core/runtime';

/**
 * CORS for browser-based MCP hosts (https://fetch.spec.whatwg.org/#http-cors-protocol).
 * - The sign-in metadata (RFC 9728, RFC 8414) is public and carries nothing of anyone's: any origin.
 * - The MCP endpoints and the built-in authorization server's token, registration and revocation
 *   endpoints answer only the origins of CORS_ALLOWED_ORIGINS (none by default): a page the user
 *   happens to visit gets no readable answer from them, and a deployment names the web hosts it
 *   serves. No cookies are involved anywhere (bearer tokens only), so credentials are never allowed.
 * The answers' sign-in and session headers are exposed, so a browser host can follow a 401.
 * Only a browser sends Origin: without it there is no CORS to answer, and the middleware is
 * skipped (setting headers before the route answers makes Hono copy the answer into a new
 * Response, which for a large tools/list costs milliseconds).
 */
export function corsRoutes(app: Hono<any>, rt: Runtime): void {
  const metadata = browserOnly(cors({ origin: '*', allowMethods: ['GET', 'OPTIONS'], maxAge: 86_400 }));
  for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/*', '/.well-known/oauth-authorization-server']) app.use(path, metadata);

  const listed = browserOnly(cors({
    origin: async (origin) => {
      const allowed = (await identityOf(rt)).config.corsOrigins;
      if (allowed.includes('*')) return '*';
      return origin && allowed.includes(origin) ? origin : null;
    },
    allowMethods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
    allowHeaders: ['Authorization', 'Content-Type', 'Accept', 'MCP-Protocol-Version', 'Mcp-Session-Id', 'Last-Event-ID', 'X-Connection-Id', 'Idempotency-Key', 'Approval-Id'],
    exposeHeaders: ['WWW-Authenticate', 'Mcp-Session-Id', 'MCP-Protocol-Version', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After'],
    maxAge: 600,
  }));
  for (const path of ['/v1/mcp', '/v1/mcp/*', '/oauth/token', '/oauth/register', '/oauth/register/*', '/oauth/revoke']) app.use(path, listed);
}

const browserOnly = (middleware: MiddlewareHandler): MiddlewareHandler => (c, next) => (c.req.header('origin') === undefined ? next() : middleware(c, next));
