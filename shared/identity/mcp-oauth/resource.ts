/**
 * The MCP endpoints as OAuth 2.1 protected resources (RFC 9728): each endpoint URL is a resource,
 * its metadata at /.well-known/oauth-protected-resource followed by the endpoint's path.
 */

export const RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource';

/** The resource (the audience of its tokens) of the MCP endpoint for `platform`, or the combined one. */
export const mcpResource = (base: string, platform?: string) => `${base}/v1/mcp${platform ? `/${platform}` : ''}`;

/** Where the metadata of a resource is (RFC 9728 §3.1: the well-known segment before the path). */
export function resourceMetadataUrl(resource: string): string {
  const url = new URL(resource);
  return `${url.origin}${RESOURCE_METADATA_PATH}${url.pathname === '/' ? '' : url.pathname}`;
}

/**
 * The WWW-Authenticate challenge of a 401 at `resource` (RFC 6750 §3, RFC 9728 §5.1): it names the
 * metadata, so a host that was given only the URL finds how to sign in; `invalid_token` when a
 * bearer was presented and refused.
 */
export function bearerChallenge(resource: string, error?: { description: string }): string {
  const parts = [`resource_metadata="${resourceMetadataUrl(resource)}"`];
  if (error) parts.push('error="invalid_token"', `error_description="${error.description.replace(/["\\]/g, "'").slice(0, 200)}"`);
  return `Bearer ${parts.join(', ')}`;
}
