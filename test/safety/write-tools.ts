import { localPlatforms } from '../../infra/local/platforms';
import type { Tool } from '../../shared/tool';

export interface WriteTool {
  /** `platform/tool` */
  id: string;
  platform: string;
  tool: Tool<any, any, any>;
}

/**
 * Every write tool (annotations.readOnly false) of every registered platform, loaded from the
 * registry: a platform added to infra/local/platforms.ts is covered without a line here.
 */
export async function writeTools(): Promise<WriteTool[]> {
  const out: WriteTool[] = [];
  for (const p of localPlatforms) {
    for (const [name, load] of Object.entries(p.platform.tools)) {
      const tool = await load();
      if (!tool.annotations.readOnly) out.push({ id: `${p.platform.name}/${name}`, platform: p.platform.name, tool });
    }
  }
  return out;
}

/** Requests that change state at the vendor: anything but GET/HEAD/OPTIONS. */
export const isWrite = (r: { method: string }) => !['GET', 'HEAD', 'OPTIONS'].includes(r.method.toUpperCase());
