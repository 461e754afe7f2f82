import type { Hono } from 'hono';
import type { Runtime } from '../core/runtime';
import { identityOpenApi } from '../identity/openapi';
import { openApiDocument } from '../catalog/openapi';
import { origin, sendJson } from './openapi-route';

/**
 * GET /v1/openapi/identity.json: the identity routes (service keys, connections, MCP sign-in) in a
 * document of their own, served where they are — the identity function and the local server — so
 * the tool functions' bundles do not carry their route table.
 */
export function identityOpenApiRoute(app: Hono<any>, rt: Runtime): void {
  app.get('/v1/openapi/identity.json', (c, next) => {
    if (rt.registry.platforms.has('identity')) return next();
    return sendJson(JSON.stringify(openApiDocument([], [], origin(c), identityOpenApi())));
  });
}
