/**
 * The identity routes (shared/identity/routes.ts, shared/identity/mcp-oauth/routes.ts) in the
 * OpenAPI document: service keys, connected accounts, their hosted pages, and MCP sign-in. One
 * table, which a test holds against the app's routes and serverless.yml's identity function.
 */

type Auth = 'admin' | 'service' | 'none' | 'registration';

interface IdentityRoute {
  method: 'get' | 'post' | 'put' | 'delete';
  /** OpenAPI form: {id}, not :id. */
  path: string;
  summary: string;
  auth: Auth;
  /** What the body is, when there is one. */
  body?: 'json' | 'form';
  /** An HTML page for a person, not an API answer. */
  page?: boolean;
}

export const IDENTITY_ROUTES: readonly IdentityRoute[] = [
  { method: 'post', path: '/v1/admin/keys', summary: 'Create a service key for a tenant with a policy (the key appears once, in this answer).', auth: 'admin', body: 'json' },
  { method: 'get', path: '/v1/admin/keys', summary: 'List service keys (?tenant= to filter); never the keys themselves.', auth: 'admin' },
  { method: 'get', path: '/v1/admin/keys/{id}', summary: 'One service key by id.', auth: 'admin' },
  { method: 'post', path: '/v1/admin/keys/{id}/rotate', summary: 'Rotate a key: a new key with the same policy; the old one is revoked.', auth: 'admin' },
  { method: 'delete', path: '/v1/admin/keys/{id}', summary: 'Revoke a service key (and every MCP sign-in granted with it).', auth: 'admin' },
  { method: 'get', path: '/v1/admin/approvals', summary: "listApprovals: a tenant's approval requests, newest first.", auth: 'admin' },
  { method: 'get', path: '/v1/admin/approvals/{id}', summary: 'getApproval: one approval request and its status.', auth: 'admin' },
  { method: 'post', path: '/v1/admin/approvals/{id}/approve', summary: 'Approve a pending approval request as the admin (the audit trail names who decided).', auth: 'admin' },
  { method: 'post', path: '/v1/admin/approvals/{id}/reject', summary: 'Reject a pending approval request as the admin (the audit trail names who decided).', auth: 'admin' },
  { method: 'get', path: '/v1/admin/audit', summary: "A tenant's audit trail, newest first, filtered.", auth: 'admin' },
  { method: 'get', path: '/v1/admin/connections', summary: 'Connections of every tenant (?tenant=, ?platform=, ?status= to filter; cursor pagination): status, vendor account, needs_reauth; never a credential.', auth: 'admin' },
  { method: 'post', path: '/v1/admin/connections/{tenant}/{id}/reconnect', summary: "A fresh connect link for a tenant's connection, to send its end user.", auth: 'admin' },
  { method: 'delete', path: '/v1/admin/connections/{tenant}/{id}', summary: "Delete a tenant's connection and its sealed credential (revoking the vendor's token where the vendor allows).", auth: 'admin' },
  { method: 'get', path: '/v1/admin/oauth/clients', summary: "The built-in authorization server's clients: registered ones and metadata documents that signed in (?tenant=: those with a sign-in there).", auth: 'admin' },
  { method: 'get', path: '/v1/admin/oauth/grants', summary: 'MCP sign-ins (grants) of every tenant (?tenant=, ?status=; cursor pagination): client, key, connection, toolsets, status; never a token.', auth: 'admin' },
  { method: 'delete', path: '/v1/admin/oauth/grants/{id}', summary: 'Revoke an MCP sign-in: every access and refresh token of it is refused.', auth: 'admin' },
  { method: 'get', path: '/v1/admin/subscriptions', summary: 'Event subscriptions of every tenant (?tenant=; cursor pagination) with their unacknowledged event counts.', auth: 'admin' },
  { method: 'get', path: '/v1/admin/tasks', summary: 'MCP tasks of every tenant (?tenant=, ?status=; cursor pagination): status, tool, created, owner key id.', auth: 'admin' },
  { method: 'get', path: '/v1/approvals/{id}', summary: 'The status of an approval request of the key\'s tenant.', auth: 'service' },
  { method: 'get', path: '/v1/approve/{token}', summary: 'The approval page of a held call.', auth: 'none', page: true },
  { method: 'post', path: '/v1/approve/{token}', summary: "The approval page's decision.", auth: 'none', page: true, body: 'form' },
  { method: 'post', path: '/v1/connections', summary: "Create a connection (an end user's account on a platform) and its connect link.", auth: 'service', body: 'json' },
  { method: 'get', path: '/v1/connections', summary: "The tenant's connections (?platform= to filter), without credentials.", auth: 'service' },
  { method: 'get', path: '/v1/connections/callback', summary: "The vendors' OAuth redirect URL: ends a connect flow.", auth: 'none', page: true },
  { method: 'get', path: '/v1/connections/{id}', summary: 'One connection: its platform, end user and status (active, pending, needs_reauth).', auth: 'service' },
  { method: 'post', path: '/v1/connections/{id}/reconnect', summary: 'A fresh connect link for a connection that needs its end user again.', auth: 'service' },
  { method: 'delete', path: '/v1/connections/{id}', summary: "Delete a connection and its sealed credential (revoking the vendor's token where the vendor allows).", auth: 'service' },
  { method: 'get', path: '/v1/connect/{token}', summary: 'The hosted connect page of a connect link.', auth: 'none', page: true },
  { method: 'post', path: '/v1/connect/{token}', summary: "The connect page's API-key form.", auth: 'none', page: true, body: 'form' },
  { method: 'get', path: '/v1/connect/{token}/authorize', summary: "Starts the vendor's OAuth sign-in of a connect link.", auth: 'none', page: true },
  { method: 'get', path: '/.well-known/oauth-protected-resource', summary: 'Protected resource metadata (RFC 9728) of the combined MCP endpoint.', auth: 'none' },
  { method: 'get', path: '/.well-known/oauth-protected-resource/v1/mcp', summary: 'Protected resource metadata (RFC 9728) of /v1/mcp.', auth: 'none' },
  { method: 'get', path: '/.well-known/oauth-protected-resource/v1/mcp/{platform}', summary: "Protected resource metadata (RFC 9728) of one platform's MCP endpoint.", auth: 'none' },
  { method: 'get', path: '/.well-known/oauth-authorization-server', summary: 'Authorization server metadata (RFC 8414) of the built-in server.', auth: 'none' },
  { method: 'post', path: '/oauth/register', summary: 'Dynamic client registration (RFC 7591) of a public client, for hosts without Client ID Metadata Documents; `application_type` (web or native) decides the redirect URIs it may use.', auth: 'none', body: 'json' },
  { method: 'get', path: '/oauth/register/{client_id}', summary: 'Read a registered client (RFC 7592) with its registration access token.', auth: 'registration' },
  { method: 'put', path: '/oauth/register/{client_id}', summary: 'Update a registered client (RFC 7592): its full metadata replaces the old; the registration access token is rotated.', auth: 'registration', body: 'json' },
  { method: 'delete', path: '/oauth/register/{client_id}', summary: 'Delete a registered client (RFC 7592); its tokens stop working.', auth: 'registration' },
  { method: 'get', path: '/oauth/authorize', summary: 'The consent page (authorization code with PKCE S256); a `scope` of toolsets starts chosen, an unknown one is refused (invalid_scope); every redirect back carries `iss` (RFC 9207).', auth: 'none', page: true },
  { method: 'post', path: '/oauth/authorize', summary: "The consent page's sign-in and consent forms.", auth: 'none', page: true, body: 'form' },
  { method: 'post', path: '/oauth/token', summary: 'Token endpoint: authorization_code (PKCE) and refresh_token (rotating) grants; the answer\'s `scope` is the toolsets granted.', auth: 'none', body: 'form' },
  { method: 'post', path: '/oauth/revoke', summary: 'Token revocation (RFC 7009) of an access or refresh token.', auth: 'none', body: 'form' },
];

const SECURITY: Record<Auth, unknown[]> = {
  admin: [{ admin: [] }],
  service: [{ serviceKey: [] }],
  registration: [{ registrationToken: [] }],
  none: [],
};

/** The identity routes as OpenAPI path items, and the security schemes they name. */
export function identityOpenApi(): { paths: Record<string, Record<string, unknown>>; securitySchemes: Record<string, unknown>; tag: { name: string; description: string } } {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of IDENTITY_ROUTES) {
    const params = [...r.path.matchAll(/\{([a-z_]+)\}/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
    const answer = r.page ? { 'text/html': { schema: { type: 'string' } } } : { 'application/json': { schema: { type: 'object' } } };
    (paths[r.path] ??= {})[r.method] = {
      operationId: `identity_${r.method}_${r.path.replace(/[^a-zA-Z0-9]+/g, '_').replace(/^_|_$/g, '')}`,
      summary: r.summary,
      tags: ['identity'],
      security: SECURITY[r.auth],
      ...(params.length ? { parameters: params } : {}),
      ...(r.body ? { requestBody: { required: true, content: r.body === 'json' ? { 'application/json': { schema: { type: 'object' } } } : { 'application/x-www-form-urlencoded': { schema: { type: 'object' } } } } } : {}),
      responses: { default: { description: r.page ? 'An HTML page (or a redirect) for the person in the browser.' : 'The answer (errors as the envelope, or OAuth errors {error, error_description} on /oauth/*).', content: answer } },
    };
  }
  return {
    paths,
    securitySchemes: {
      admin: { type: 'http', scheme: 'bearer', description: 'The admin credential (ADMIN_TOKEN / ADMIN_TOKEN_PARAMETER).' },
      serviceKey: { type: 'http', scheme: 'bearer', description: 'A service key (tes_…) of the tenant.' },
      registrationToken: { type: 'http', scheme: 'bearer', description: 'The registration_access_token of a dynamically registered client (RFC 7592).' },
    },
    tag: { name: 'identity', description: 'Service keys, connected accounts and MCP sign-in' },
  };
}
