import { ToolError } from '../core/errors';
import type { CatalogEntry } from './catalog';

/**
 * Which tools a host loads up front and which it finds through tool search.
 *
 * - `full`: every tool up front.
 * - `deferred`: the core set up front, the rest found through search (Anthropic's and OpenAI's
 *   tool search, or the MCP endpoint's search_tools).
 * - `max`: at most `maxTools` definitions up front (the search tool counts as one), the most used
 *   first; the rest found through search. Cursor takes 40 tools per request, VS Code 128.
 *
 * The core set, by rule: of each platform's main object (the group the platform names as its
 * `mainGroup`: the object its vendor is about), the tool that finds them by conditions
 * (`search…`, else `filter…`, else `list…` of the plural noun). Finding the main object starts
 * nearly every task; reading one by id, and every write, is a next step the model searches for
 * with the object in hand. One tool per platform keeps every platform's tools reachable through
 * the combined endpoint within 10k tokens of definitions up front, output schemas included (the
 * get of each main object as well would take it to about 12k; test/bench/definitions.ts).
 *
 * The order beyond the core ("most used"): per platform, the main group's other tools, then the
 * other groups in the platform's manifest order, each group's tools in its own order; the
 * platforms interleaved one tool at a time, so a budget shares out evenly between them.
 */
export type Profile = { kind: 'full' } | { kind: 'deferred' } | { kind: 'max'; maxTools: number };

export const MAX_TOOLS_RANGE = { min: 2, max: 1000 } as const;

/** The core tools of one platform's entries: the find of its main group's object. */
export function coreOf(entries: readonly CatalogEntry[], mainGroup: string | undefined): CatalogEntry[] {
  if (!mainGroup) return [];
  const own = entries.filter((e) => e.group === mainGroup);
  const name = mainGroup.charAt(0).toUpperCase() + mainGroup.slice(1);
  const find = ['search', 'filter', 'list'].map((verb) => own.find((e) => e.name === `${verb}${name}`)).find(Boolean);
  return find ? [find] : [];
}

/**
 * Every entry in "most used" order (see above): each platform's core, then the platforms' other
 * tools interleaved. `mainGroups` maps a platform to its main group.
 */
export function byUse(entries: readonly CatalogEntry[], mainGroups: Readonly<Record<string, string | undefined>>): CatalogEntry[] {
  const platforms = [...new Set(entries.map((e) => e.platform))];
  const core = platforms.flatMap((p) => coreOf(entries.filter((e) => e.platform === p), mainGroups[p]));
  const coreSet = new Set(core);
  const queues = platforms.map((p) => {
    const own = entries.filter((e) => e.platform === p && !coreSet.has(e));
    const main = mainGroups[p];
    return [...own.filter((e) => e.group === main), ...own.filter((e) => e.group !== main)];
  });
  const rest: CatalogEntry[] = [];
  for (let i = 0; queues.some((q) => i < q.length); i++) for (const q of queues) if (i < q.length) rest.push(q[i]!);
  return [...core, ...rest];
}

/**
 * The entries a profile loads up front (`loaded`) and those left to search (`deferred`), each in
 * the catalog's own order (a stable listing). `searchSlots` is how many of `max`'s slots the
 * search tool itself takes (1 where the listing carries one).
 */
export function applyProfile(
  entries: readonly CatalogEntry[],
  profile: Profile,
  mainGroups: Readonly<Record<string, string | undefined>>,
  searchSlots = 1,
): { loaded: CatalogEntry[]; deferred: CatalogEntry[] } {
  if (profile.kind === 'full') return { loaded: [...entries], deferred: [] };
  const ranked = byUse(entries, mainGroups);
  const platforms = [...new Set(entries.map((e) => e.platform))];
  const keep = new Set(
    profile.kind === 'deferred'
      ? platforms.flatMap((p) => coreOf(entries.filter((e) => e.platform === p), mainGroups[p]))
      : ranked.slice(0, Math.max(0, profile.maxTools - searchSlots)),
  );
  return { loaded: entries.filter((e) => keep.has(e)), deferred: entries.filter((e) => !keep.has(e)) };
}

/**
 * `?profile=full|deferred` and `?max_tools=N` of a query; INVALID_PARAMETER naming the parameter
 * otherwise. max_tools alone means the `max` profile.
 */
export function parseProfile(query: { profile?: string | undefined; max_tools?: string | undefined }): Profile {
  const { profile, max_tools: raw } = query;
  if (profile !== undefined && profile !== 'full' && profile !== 'deferred') {
    throw new ToolError('INVALID_PARAMETER', `Query "profile" must be "full" or "deferred"; got "${profile}". For a tool budget use max_tools=N.`, { parameter: 'profile', expected: '"full" or "deferred"' });
  }
  if (raw !== undefined) {
    const n = Number(raw);
    if (!/^\d+$/.test(raw) || n < MAX_TOOLS_RANGE.min || n > MAX_TOOLS_RANGE.max) {
      throw new ToolError('INVALID_PARAMETER', `Query "max_tools" must be an integer from ${MAX_TOOLS_RANGE.min} to ${MAX_TOOLS_RANGE.max} (e.g. 40 for Cursor, 128 for VS Code); got "${raw}".`, {
        parameter: 'max_tools',
        expected: `integer ${MAX_TOOLS_RANGE.min}-${MAX_TOOLS_RANGE.max}`,
      });
    }
    if (profile !== undefined) {
      throw new ToolError('INVALID_PARAMETER', 'Query "max_tools" is a profile of its own: send either profile or max_tools, not both.', { parameter: 'max_tools', expected: 'no "profile" beside it' });
    }
    return { kind: 'max', maxTools: n };
  }
  return profile === 'deferred' ? { kind: 'deferred' } : { kind: 'full' };
}
