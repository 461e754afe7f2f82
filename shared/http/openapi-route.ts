import type { Context, Hono } from 'hono';
import { ToolError } from '../core/errors';
import { failure } from '../core/envelope';
import { openApiDocument } from '../catalog/openapi';
import type { Runtime } from '../core/runtime';
import { catalog, documentKeys, prebuiltWithOrigin } from '../catalog/catalog';
import type { Platform } from '../core/tool';
import { respond } from './respond';

/** An OpenAPI document's JSON as the answer: public and cacheable for five minutes. */
export const sendJson = (json: string | Uint8Array) => new Response(json, { status: 200, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'public, max-age=300' } });

/**
 * OpenAPI 3.1: every platform of this runtime (locally all; on a Lambda its one platform), or one
 * platform's. Public like any API description: tool names and schemas are no secret, and code
 * generators and gateways fetch it without a key.
 */
export function openApiRoutes(app: Hono<any>, rt: Runtime): void {
  const send = (doc: unknown) => sendJson(JSON.stringify(doc));
  const openapi = async (c: Context, platforms: readonly Platform[]) => {
    const base = origin(c);
    // The document the build made for these platforms (infra/build.ts), its servers set to this origin.
    const built = base === undefined ? undefined : prebuiltWithOrigin(documentKeys.openApi(platforms), base);
    return built !== undefined ? sendJson(built) : send(openApiDocument(await catalog(rt.registry, platforms), platforms, base));
  };
  app.get('/v1/openapi.json', (c) => openapi(c, [...rt.registry.platforms.values()]));
  app.get('/v1/openapi/:file', async (c, next) => {
    const m = /^(.+)\.json$/.exec(c.req.param('file'));
    if (!m) return next();
    // The identity routes' document is the identity function's (shared/http/identity-openapi-route.ts, mounted after this).
    if (m[1] === 'identity' && !rt.registry.platforms.has('identity')) return next();
    const platform = rt.registry.platforms.get(m[1]!);
    if (!platform) return respond(failure(new ToolError('NOT_FOUND', `Unknown platform "${m[1]}". Platforms served here: ${[...rt.registry.platforms.keys()].join(', ')}.`, { platform: m[1] }), { platform: m[1]!, tool: '' }));
    return openapi(c, [platform]);
  });
}

/** The public base URL of this request (API Gateway's domain on a Lambda): the OpenAPI servers list, MCP icon URLs. */
export function origin(c: Context): string | undefined {
  const host = c.req.header('x-forwarded-host') ?? c.req.header('host');
  if (!host) return undefined;
  const proto = c.req.header('x-forwarded-proto') ?? new URL(c.req.url).protocol.replace(':', '');
  return `${proto}://${host}`;
}
