import type * as z from 'zod';
import type { Platform, Tool } from './tool';

export interface Registry {
  platforms: ReadonlyMap<string, Platform>;
  find(platform: string, tool: string): { platform: Platform; tool: Tool<z.ZodType, unknown, unknown> } | undefined;
}

export function createRegistry(platforms: readonly Platform<any>[]): Registry {
  const byName = new Map<string, Platform>();
  const tools = new Map<string, Map<string, Tool<z.ZodType, unknown, unknown>>>();
  for (const p of platforms) {
    if (byName.has(p.name)) throw new Error(`platform "${p.name}" registered twice`);
    byName.set(p.name, p);
    const own = new Map<string, Tool<z.ZodType, unknown, unknown>>();
    for (const t of p.tools) {
      if (own.has(t.name)) throw new Error(`tool "${p.name}/${t.name}" registered twice`);
      if (t.platform !== p.name) throw new Error(`tool "${t.name}" declares platform "${t.platform}" but is listed in "${p.name}"`);
      own.set(t.name, t);
    }
    tools.set(p.name, own);
  }
  return {
    platforms: byName,
    find(platform, tool) {
      const p = byName.get(platform);
      const t = tools.get(platform)?.get(tool);
      return p && t ? { platform: p, tool: t } : undefined;
    },
  };
}
