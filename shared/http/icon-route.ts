import type { Hono } from 'hono';
import { ToolError } from '../core/errors';
import { failure } from '../core/envelope';
import type { Runtime } from '../core/runtime';
import { platformIconSvg } from '../catalog/icons';
import { respond } from './respond';

/** GET /v1/icons/{platform}.svg: the icon MCP tools/list names for a platform's tools. Public, like the OpenAPI document. */
export function iconRoutes(app: Hono<any>, rt: Runtime): void {
  app.get('/v1/icons/:file', async (c, next) => {
    const m = /^(.+)\.svg$/.exec(c.req.param('file'));
    if (!m) return next();
    if (!rt.registry.platforms.has(m[1]!)) {
      return respond(failure(new ToolError('NOT_FOUND', `Unknown platform "${m[1]}". Platforms served here: ${[...rt.registry.platforms.keys()].join(', ')}.`, { platform: m[1] }), { platform: m[1]!, tool: '' }));
    }
    return new Response(platformIconSvg(m[1]!), { status: 200, headers: { 'content-type': 'image/svg+xml', 'cache-control': 'public, max-age=86400', 'x-content-type-options': 'nosniff' } });
  });
}
