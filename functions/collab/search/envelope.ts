import type { PodioSearchResult } from '../wire';

/** The docs/spec.md#collab-search search envelope: results, fuzzy counts and the exact read to follow each result type with. */

export type SearchLevel = 'global' | 'org' | 'space' | 'app';

export interface SearchEntry {
  type: string;
  id: number;
  title: string;
  link?: string;
  /** The id under its own name (item_id, file_id, …), for the exact read. */
  [idKey: string]: unknown;
  app_id?: number;
  app_name?: string;
  space?: { space_id: number; name: string };
}

export interface SearchEnvelope {
  query: string;
  scope: { level: SearchLevel; id?: number };
  returned: number;
  has_more: boolean;
  next_offset: number | null;
  approximate_match_counts: Record<string, number>;
  counts_caveat: string;
  next_step: string;
  results: SearchEntry[];
}

/** The exact read tool of each result type, and the parameter it takes. */
export const EXACT_READ: Record<string, { tool: string; param: string }> = {
  item: { tool: 'getItem', param: 'item_id' },
  file: { tool: 'getFile', param: 'file_id' },
  app: { tool: 'getApp', param: 'app_id' },
  profile: { tool: 'getContacts', param: 'profile_id' },
  task: { tool: 'getTask', param: 'task_id' },
  conversation: { tool: 'getConversation', param: 'conversation_id' },
  status: { tool: 'getCommentsOnObject', param: 'status_id' },
};

export function toEntry(r: PodioSearchResult): SearchEntry {
  const idKey = EXACT_READ[r.type]?.param ?? `${r.type}_id`;
  return {
    type: r.type,
    id: r.id,
    [idKey]: r.id,
    title: r.title,
    ...(r.link ? { link: r.link } : {}),
    ...(r.type === 'item' && r.app ? { app_id: r.app.app_id, ...(r.app.name ? { app_name: r.app.name } : {}) } : {}),
    ...(r.type === 'file' && r.space ? { space: { space_id: r.space.space_id, name: r.space.name ?? '' } } : {}),
  };
}

/** `item → getItem with item_id; file → getFile with file_id` for the types present. */
export function nextStep(types: string[]): string {
  if (!types.length) return 'No match: try other words, fewer words, or a wider scope (drop app_id/space_id, ref_type or search_fields).';
  const reads = types.map((t) => (EXACT_READ[t] ? `${t} → ${EXACT_READ[t]!.tool} with ${EXACT_READ[t]!.param}` : `${t} → read it by its id`));
  return `Search is a fuzzy locator: confirm a result with its exact read (${reads.join('; ')}) before acting on it.`;
}

export function searchText(e: SearchEnvelope): string {
  const lines = e.results.map((r) => {
    const where = r.app_name ? ` (${r.app_name})` : r.space ? ` (${r.space.name})` : '';
    return `${r.type} #${r.id} ${r.title}${where}`;
  });
  const counts = Object.entries(e.approximate_match_counts).map(([t, n]) => `${t} ~${n}`).join(', ');
  const scope = e.scope.level === 'global' ? 'everywhere' : `in ${e.scope.level} #${e.scope.id}`;
  const more = e.has_more && e.next_offset !== null ? ` — pass offset ${e.next_offset} for more` : '';
  return [
    ...lines,
    e.returned ? `${e.returned} result${e.returned === 1 ? '' : 's'} for "${e.query}" ${scope}${counts ? ` (about: ${counts})` : ''}${more}` : `no results for "${e.query}" ${scope}`,
    e.next_step,
  ].join('\n');
}
