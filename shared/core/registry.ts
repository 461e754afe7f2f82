import type * as z from 'zod';
import { groupsOf, type Platform, type Tool } from './tool';

type AnyTool = Tool<z.ZodType, unknown, unknown>;

export interface Registry {
  platforms: ReadonlyMap<string, Platform>;
  /** Loads (once) and returns a tool; undefined for an unknown platform or tool. */
  find(platform: string, tool: string): Promise<{ platform: Platform; tool: AnyTool } | undefined>;
  /** Every tool of a platform, in manifest order. */
  list(platform: Platform): Promise<AnyTool[]>;
}

export function createRegistry(platforms: readonly Platform<any>[]): Registry {
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
