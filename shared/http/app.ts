import type { Runtime } from '../core/runtime';
import { identityRoutes } from '../identity/routes';
import { mcpOAuthRoutes } from '../identity/mcp-oauth/routes';
import { taskAdminRoutes } from '../mcp/admin';
import { subscriptionAdminRoutes } from '../events/admin';
import { createToolApp, type RouteMount } from './tool-app';
import { identityOpenApiRoute } from './identity-openapi-route';

export { MAX_BODY_BYTES, noRoute, type RouteMount } from './tool-app';

/**
 * Every route in one app (the local server, tests): the tool functions' app (shared/http/tool-app.ts)
 * with the identity routes — the operator's listings of MCP tasks (shared/mcp/admin.ts) and of
 * event subscriptions (shared/events/admin.ts), service keys, connected accounts and their admin
 * API (shared/identity/routes.ts, the operator console among them) and MCP sign-in:
 * protected-resource metadata and the built-in authorization server (shared/identity/mcp-oauth),
 * and their OpenAPI document — then `mounts`.
 * On AWS only the identity function serves those (functions/identity/handler.ts).
 */
export function createApp(rt: Runtime, mounts: readonly RouteMount[] = []) {
  return createToolApp(rt, [...IDENTITY_MOUNTS, ...mounts]);
}

/** The identity function's own routes, as it mounts them. */
export const IDENTITY_MOUNTS: readonly RouteMount[] = [taskAdminRoutes, subscriptionAdminRoutes, identityRoutes, mcpOAuthRoutes, identityOpenApiRoute];
