import type * as z from 'zod';
import { groupsOf, type Platform, type Tool } from './tool';
import type { ToolRef } from './call';

type AnyTool = Tool<z.ZodType, unknown, unknown>;

export interface Registry {
  platforms: ReadonlyMap<string, Platform>;
  /** Loads (once) and returns a tool; undefined for an unknown platform or tool. */
  find(platform: string, tool: string): Promise<{ platform: Platform; tool: AnyTool } | undefined>;
  /** Every tool of a platform, in manifest order. */
  list(platform: Platform): Promise<AnyTool[]>;
  /**
   * A tool of the service itself (search_tools), on no platform: loaded once; undefined for any
   * other name. execute runs it as every tool, with the catalog as its client (CatalogClient).
   */
  service(tool: string): Promise<AnyTool> | undefined;
  /** The names of the service's own tools. */
  services: readonly string[];
}

/** How logs and the audit trail name the platform of a service tool's call on none. */
export const SERVICE_PLATFORM = '(service)';

/**
 * Which of a call's names the registry knows, for the access log and the audit trail (names it
 * does not know are the caller's, not repeated): a platform's tool, or a service tool on a
 * platform's endpoint or on none (platform "").
 */
export function knownNames(registry: Registry, platform: string, tool: string): { platform: boolean; tool: boolean } {
  const p = registry.platforms.get(platform);
  const service = registry.services.includes(tool);
  return { platform: p !== undefined || (platform === '' && service), tool: (p !== undefined && Object.hasOwn(p.tools, tool)) || service };
}

/** The client of a service tool: the catalog, as far as the caller may see it (its policy, an endpoint's filters). */
export interface CatalogClient {
  registry: Registry;
  allows?: ((tool: ToolRef) => boolean) | undefined;
}

export function createRegistry(platforms: readonly Platform<any>[], service: Readonly<Record<string, () => Promise<AnyTool>>> = {}): Registry {
  const byName = new Map<string, Platform>();
  for (const p of platforms) {
    if (byName.has(p.name)) throw new Error(`platform "${p.name}" registered twice`);
    checkToolsets(p);
    byName.set(p.name, p);
  }
  const loaded = new Map<string, Promise<AnyTool>>();

  function load(p: Platform, name: string): Promise<AnyTool> {
    const key = `${p.name}/${name}`;
    let pending = loaded.get(key);
    if (!pending) {
      pending = p.tools[name]!().then((t) => {
        // The manifest key, the tool's name and its platform must agree: a mismatch is a bug.
        if (t.name !== name) throw new Error(`tool listed as "${key}" is named "${t.name}"`);
        if (t.platform !== p.name) throw new Error(`tool "${t.name}" declares platform "${t.platform}" but is listed in "${p.name}"`);
        return t as AnyTool;
      });
      loaded.set(key, pending);
    }
    return pending;
  }

  return {
    platforms: byName,
    async find(platform, tool) {
      const p = byName.get(platform);
      // Own keys only: "constructor" or "__proto__" are not tools.
      if (!p || !Object.hasOwn(p.tools, tool)) return undefined;
      return { platform: p, tool: await load(p, tool) };
    },
    list: (p) => Promise.all(Object.keys(p.tools).map((name) => load(p, name))),
    services: Object.keys(service),
    service(tool) {
      if (!Object.hasOwn(service, tool)) return undefined;
      let pending = loaded.get(`/${tool}`);
      if (!pending) {
        pending = service[tool]!().then((t) => {
          if (t.name !== tool) throw new Error(`service tool listed as "${tool}" is named "${t.name}"`);
          return t;
        });
        loaded.set(`/${tool}`, pending);
      }
      return pending;
    },
  };
}

/** The toolsets a platform describes must be exactly the groups its tools are tagged with: scopes and listings read the one, calls the other. */
function checkToolsets(p: Platform<any>): void {
  const groups = groupsOf(p);
  if (groups.includes('')) throw new Error(`platform "${p.name}": a tool is in no group; list each group's tools with toolGroup`);
  const described = Object.keys(p.toolsets);
  const missing = groups.filter((g) => !described.includes(g));
  const extra = described.filter((g) => !groups.includes(g));
  if (missing.length || extra.length) throw new Error(`platform "${p.name}": toolsets must describe exactly its groups (${missing.length ? `not described: ${missing.join(', ')}` : ''}${missing.length && extra.length ? '; ' : ''}${extra.length ? `no such group: ${extra.join(', ')}` : ''})`);
}
