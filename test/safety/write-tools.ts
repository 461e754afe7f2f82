import { localPlatforms } from '../../infra/local/platforms';
import type { Tool } from '../../shared/core/tool';

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

/**
 * The vendors' reads sent as POST, as their docs describe them (searches and filters): a dry run
 * may send these. Written here from the docs, not taken from the clients, so the test judges them.
 */
const POST_READS = [
  /\/item\/app\/\d+\/(filter|calculate)\/?$/, // Podio item filter and calculate
  /^\/search\//, // Podio search
  /^\/crm\/v3\/objects\/[^/]+\/search$/, // HubSpot CRM search
  /^\/v1\/record\/filter\/app\/\d+$/, // Tape record filter
  /^\/v1\/record\/app\/\d+\/ref\/\d+$/, // Tape related records
  /^\/v1\/automation-run$/, // Tape automation run listing
  /\/Items\/AdvancedSimpleSearch$/, // ShareFile search
  /^\/api\/v1\/property\//, // BatchData lookups and searches
];

/** Requests that change state at the vendor: anything but GET/HEAD/OPTIONS and the documented reads over POST. */
export const isWrite = (r: { method: string; path?: string }) =>
  !['GET', 'HEAD', 'OPTIONS'].includes(r.method.toUpperCase()) && !(r.method.toUpperCase() === 'POST' && r.path !== undefined && POST_READS.some((re) => re.test(r.path!)));
