/**
 * The OAuth scopes of the MCP endpoints: toolsets, the tool groups (functions/<platform>/tools/<group>/,
 * and the event inbox's `events`, shared/events/group.ts) that policies (shared/identity/policy.ts),
 * `?toolsets=` and the 403 insufficient_scope challenge (resource.ts) name. A scope is a toolset as
 * `?toolsets=` writes it (`records`), or qualified by its platform as policies may (`dbapp:records`).
 *
 * Listed here, not read from the registry: the identity function that serves the metadata and the
 * consent page carries no tools (shared/lambda/app-handler.ts). test/identity/mcp-scopes.test.ts holds
 * this list against the registry's groups, so a new group folder fails it until it is added.
 */
export const TOOLSETS: Readonly<Record<string, readonly string[]>> = {
  collab: ['apps', 'comments', 'conversations', 'events', 'files', 'hooks', 'items', 'search', 'sharing', 'tasks', 'views'],
  crm: ['associations', 'companies', 'contacts', 'deals', 'events', 'properties', 'tickets'],
  dbapp: ['apps', 'automations', 'events', 'files', 'records', 'views', 'webhooks', 'workspaces'],
  filebox: ['access', 'events', 'groups', 'items', 'shares', 'users'],
  realty: ['properties'],
};

const qualified = (platform: string) => (TOOLSETS[platform] ?? []).map((t) => `${platform}:${t}`);

/**
 * `scopes_supported` of an endpoint's protected-resource metadata (RFC 9728 §2): a platform's
 * endpoint, its toolsets as `?toolsets=` names them; the combined endpoint (no platform), every
 * toolset name and every `platform:toolset`, as it serves every platform. The authorization server's
 * metadata (RFC 8414 §2) lists the combined endpoint's, which holds every scope it understands.
 */
export function scopesSupported(platform?: string): string[] {
  if (platform !== undefined) return [...(TOOLSETS[platform] ?? [])];
  const platforms = Object.keys(TOOLSETS);
  return [...new Set(platforms.flatMap((p) => TOOLSETS[p]!)), ...platforms.flatMap(qualified)];
}

/** The scopes an authorization request for an endpoint may ask for: the metadata's, and at a platform's endpoint its qualified names too. */
export function scopesUnderstood(platform?: string): string[] {
  return platform === undefined ? scopesSupported() : [...scopesSupported(platform), ...qualified(platform)];
}

/** A `scope` parameter (RFC 6749 §3.3: space-delimited), its values once each. */
export const parseScope = (raw: string | undefined): string[] => [...new Set((raw ?? '').split(' ').filter(Boolean))];

/** The platform a qualified scope names (`dbapp:records` → dbapp); undefined for a bare toolset. */
export const platformOfScope = (scope: string): string | undefined => (scope.includes(':') ? scope.slice(0, scope.indexOf(':')) : undefined);

/** The toolset a scope names, without its platform (`dbapp:records` → records). */
export const toolsetOfScope = (scope: string): string => scope.slice(scope.indexOf(':') + 1);

/** The toolsets of `scopes` that apply on `platform` (bare, or qualified with it), by their short names, once each. */
export const toolsetsOn = (platform: string, scopes: readonly string[]): string[] => [...new Set(scopes.filter((s) => (platformOfScope(s) ?? platform) === platform).map(toolsetOfScope))];

/**
 * The `scope` of a token (RFC 6749 §5.1) for a grant on `platform` with these toolsets: the names
 * as `?toolsets=` writes them; every toolset of the platform when the grant names none.
 */
export function grantedScope(platform: string, toolsets: readonly string[] | undefined): string {
  const own = TOOLSETS[platform] ?? [];
  // A key's toolsets of another platform (qualified, or a name this platform has not) do not apply to a grant on this one.
  return (toolsets ? toolsetsOn(platform, toolsets).filter((t) => own.includes(t)) : own).join(' ');
}
