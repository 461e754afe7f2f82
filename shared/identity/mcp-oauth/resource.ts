import { ToolError } from '../../core/errors';

/**
 * The MCP endpoints as OAuth 2.1 protected resources (RFC 9728): each endpoint URL is a resource,
 * its metadata at /.well-known/oauth-protected-resource followed by the endpoint's path.
 */

export const RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource';

/** The resource (the audience of its tokens) of the MCP endpoint for `platform`, or the combined one. */
export const mcpResource = (base: string, platform?: string) => `${base}/v1/mcp${platform ? `/${platform}` : ''}`;

/** The platform of an MCP resource (`…/v1/mcp/crm` → crm); undefined for the combined endpoint. */
export function platformOfResource(resource: string): string | undefined {
  return /\/v1\/mcp\/([^/?#]+)$/.exec(resource)?.[1];
}

/** Where the metadata of a resource is (RFC 9728 §3.1: the well-known segment before the path). */
export function resourceMetadataUrl(resource: string): string {
  const url = new URL(resource);
  return `${url.origin}${RESOURCE_METADATA_PATH}${url.pathname === '/' ? '' : url.pathname}`;
}

/**
 * The WWW-Authenticate challenge of a refusal at `resource` (RFC 6750 §3, RFC 9728 §5.1): it names
 * the metadata, so a host that was given only the URL finds how to sign in. A 401 says
 * `invalid_token` when a bearer was presented and refused; a 403 for a valid token that lacks a
 * scope says `insufficient_scope` and the scopes to ask for (RFC 6750 §3.1), so the host signs in
 * again asking for them.
 */
export function bearerChallenge(resource: string, error?: { description: string; scope?: string }): string {
  const parts: string[] = [];
  if (error?.scope !== undefined) parts.push('error="insufficient_scope"', `scope="${quoted(error.scope)}"`);
  parts.push(`resource_metadata="${resourceMetadataUrl(resource)}"`);
  // Without a credential: no error code (RFC 6750 §3.1), and the realm names what to send.
  if (!error) parts.unshift('realm="MCP: sign in with OAuth, or Authorization: Bearer <service key or API key>"');
  if (error) {
    if (error.scope === undefined) parts.push('error="invalid_token"');
    parts.push(`error_description="${quoted(error.description).slice(0, 200)}"`);
  }
  return `Bearer ${parts.join(', ')}`;
}

/**
 * The refusal of an MCP call without credentials: how to sign in, both ways — OAuth from the
 * resource's metadata (what a host does when a person adds the URL as a connector), or the header
 * with a service key or the platform's own API key (scripts, and hosts that take headers).
 */
export function signInRequired(resource: string): ToolError {
  const metadata = resourceMetadataUrl(resource);
  return new ToolError(
    'UNAUTHORIZED',
    `Sign in to use ${resource}. A host signs in with OAuth 2.1: its sign-in starts from ${metadata} (adding this URL as a connector does that; the person signs in with their account in the browser). Or send "Authorization: Bearer <key>" with a service key (tes_…) from this service's operator, or the platform's own API key.`,
    { header: 'Authorization', resource_metadata: metadata, sign_in: 'oauth' },
  );
}

/** RFC 6750 §3: an error_description holds printable ASCII only, no quote or backslash (a header must not carry more). */
const quoted = (v: string) => v.replace(/["\\]/g, "'").replace(/\u2026/g, '...').replace(/[^\x20-\x7e]/g, ' ');

/**
 * The refusal of a valid token that lacks scopes: FORBIDDEN, its details naming the scopes the
 * endpoint requires (all of them, as a new sign-in must ask for each), which the MCP edge turns into
 * a 403 `insufficient_scope` challenge.
 */
export function insufficientScope(message: string, required: readonly string[]): ToolError {
  return new ToolError('FORBIDDEN', message, { header: 'Authorization', error: 'insufficient_scope', scope: required.join(' ') });
}

/** The scopes to ask for when `err` is the refusal of a token lacking them, else undefined. */
export function missingScope(err: unknown): string | undefined {
  if (!(err instanceof ToolError) || err.code !== 'FORBIDDEN') return undefined;
  const d = err.details as { error?: unknown; scope?: unknown } | undefined;
  return d?.error === 'insufficient_scope' && typeof d.scope === 'string' ? d.scope : undefined;
}
