import type { Platform } from '../../core/tool';

/**
 * The OAuth scopes of the MCP endpoints: toolsets, the tool groups (functions/<platform>/tools/<group>/,
 * and the event inbox's `events`, shared/events/group.ts) that policies (shared/identity/policy.ts),
 * `?toolsets=` and the 403 insufficient_scope challenge (resource.ts) name. A scope is a toolset as
 * `?toolsets=` writes it (`records`), or qualified by its platform as policies may (`dbapp:records`).
 *
 * Read from the platforms' descriptors (their `toolsets`, which createRegistry holds against the
 * groups of their tools): the identity function, which serves the metadata and the consent page,
 * is given every platform's descriptor without their tools (shared/lambda/handler.ts).
 */
export class Scopes {
  /** Each platform's toolsets by name, sorted. */
  private readonly toolsets: ReadonlyMap<string, readonly string[]>;

  constructor(platforms: Iterable<Pick<Platform<any>, 'name' | 'toolsets'>>) {
    this.toolsets = new Map([...platforms].map((p) => [p.name, Object.keys(p.toolsets).sort()]));
  }

  /** The toolsets of a platform; none for a platform this deployment does not know. */
  of(platform: string): readonly string[] {
    return this.toolsets.get(platform) ?? [];
  }

  private qualified(platform: string): string[] {
    return this.of(platform).map((t) => `${platform}:${t}`);
  }

  /**
   * `scopes_supported` of an endpoint's protected-resource metadata (RFC 9728 §2): a platform's
   * endpoint, its toolsets as `?toolsets=` names them; the combined endpoint (no platform), every
   * toolset name and every `platform:toolset`, as it serves every platform. The authorization server's
   * metadata (RFC 8414 §2) lists the combined endpoint's, which holds every scope it understands.
   */
  supported(platform?: string): string[] {
    if (platform !== undefined) return [...this.of(platform)];
    const platforms = [...this.toolsets.keys()].sort();
    return [...new Set(platforms.flatMap((p) => this.of(p))), ...platforms.flatMap((p) => this.qualified(p))];
  }

  /** The scopes an authorization request for an endpoint may ask for: the metadata's, and at a platform's endpoint its qualified names too. */
  understood(platform?: string): string[] {
    return platform === undefined ? this.supported() : [...this.supported(platform), ...this.qualified(platform)];
  }

  /**
   * The `scope` of a token (RFC 6749 §5.1) for a grant on `platform` with these toolsets: the names
   * as `?toolsets=` writes them; every toolset of the platform when the grant names none.
   */
  granted(platform: string, toolsets: readonly string[] | undefined): string {
    const own = this.of(platform);
    // A key's toolsets of another platform (qualified, or a name this platform has not) do not apply to a grant on this one.
    return (toolsets ? toolsetsOn(platform, toolsets).filter((t) => own.includes(t)) : own).join(' ');
  }
}

/** A `scope` parameter (RFC 6749 §3.3: space-delimited), its values once each. */
export const parseScope = (raw: string | undefined): string[] => [...new Set((raw ?? '').split(' ').filter(Boolean))];

/** The platform a qualified scope names (`dbapp:records` → dbapp); undefined for a bare toolset. */
export const platformOfScope = (scope: string): string | undefined => (scope.includes(':') ? scope.slice(0, scope.indexOf(':')) : undefined);

/** The toolset a scope names, without its platform (`dbapp:records` → records). */
export const toolsetOfScope = (scope: string): string => scope.slice(scope.indexOf(':') + 1);

/** The toolsets of `scopes` that apply on `platform` (bare, or qualified with it), by their short names, once each. */
export const toolsetsOn = (platform: string, scopes: readonly string[]): string[] => [...new Set(scopes.filter((s) => (platformOfScope(s) ?? platform) === platform).map(toolsetOfScope))];
