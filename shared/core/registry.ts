import type * as z from 'zod';
import type { Platform, Tool } from './tool';

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
