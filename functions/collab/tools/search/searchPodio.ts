import * as z from 'zod';
import { numericId } from '../../../../shared/core/ids';
import { invalidParameter } from '../../../../shared/core/errors';
import { collabTool } from '../../tool';
import { nextStep, searchText, toEntry, type SearchEnvelope, type SearchLevel } from '../../search/envelope';

/** One read of this many hits gives the page and the approximate counts (Podio's search has no totals). */
const COUNT_WINDOW = 100;

export const searchPodio = collabTool({
  name: 'searchPodio',
  description:
    'Fuzzy full-text search over what the key can see: items, files, profiles, apps, tasks and conversations, everywhere or narrowed to an org, a space or an app ' +
    '(the narrowest given wins); ref_type keeps one kind; search_fields narrows the fields searched (e.g. ["title"]). A locator only: results are ranked guesses ' +
    'and approximate_match_counts are fuzzy — follow each result with its exact read (next_step names it: getItem, getFile, getApp…). For exact filtering of ' +
    'an app\'s items use filterItems. limit 1-20 (default 20), offset to page.',
  input: z.strictObject({
    query: z.string().trim().min(1).max(200).describe('The words to look for (at least one letter or digit); typos are tolerated, every word must match.'),
    ref_type: z.enum(['item', 'task', 'file', 'conversation', 'profile', 'app']).optional().describe('Only results of this kind.'),
    org_id: numericId().optional().describe('Search only this organization.'),
    space_id: numericId().optional().describe('Search only this space (workspace).'),
    app_id: numericId().optional().describe('Search only the items and files of this app.'),
    search_fields: z.array(z.string().trim().min(1).max(50)).min(1).max(10).optional().describe('Fields to search, e.g. ["title"] (default all: title, text values, tags, …).'),
    limit: z.number().int().min(1).max(20).default(20).describe('Results per page, 1-20 (default 20).'),
    offset: z.number().int().min(0).default(0).describe('Results to skip (default 0).'),
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run({ query, ref_type, org_id, space_id, app_id, search_fields, limit, offset }, { client }): Promise<SearchEnvelope> {
    // Podio searches words (runs of letters and digits, compatibility forms such as ㎏ included): punctuation alone has none and is refused.
    if (!/[\p{L}\p{N}]/u.test(query.normalize('NFKD'))) {
      throw invalidParameter('query', 'at least one letter or digit', `Invalid parameter "query": ${JSON.stringify(query)} has no word to search for; give at least one letter or digit.`);
    }
    const scope: { type: 'org' | 'space' | 'app'; id: number } | null =
      app_id !== undefined ? { type: 'app', id: app_id } : space_id !== undefined ? { type: 'space', id: space_id } : org_id !== undefined ? { type: 'org', id: org_id } : null;
    const body = { query, ...(ref_type ? { ref_type } : {}), ...(search_fields ? { search_fields: search_fields.join(',') } : {}) };
    // Within the first 100 hits one read serves the page and the counts; deeper pages read just the page (+1 to know if more follow).
    const windowed = offset + limit < COUNT_WINDOW;
    const hits = windowed ? await client.search(scope, { ...body, limit: COUNT_WINDOW, offset: 0 }) : await client.search(scope, { ...body, limit: limit + 1, offset });
    const page = windowed ? hits.slice(offset, offset + limit) : hits.slice(0, limit);
    const has_more = windowed ? hits.length > offset + limit : hits.length > limit;
    const counts: Record<string, number> = {};
    for (const h of hits) counts[h.type] = (counts[h.type] ?? 0) + 1;
    const full = windowed && hits.length === COUNT_WINDOW;
    const results = page.map(toEntry);
    const level: SearchLevel = scope ? scope.type : 'global';
    return {
      query,
      scope: scope ? { level, id: scope.id } : { level },
      returned: results.length,
      has_more,
      next_offset: has_more ? offset + limit : null,
      approximate_match_counts: counts,
      counts_caveat: windowed
        ? `Fuzzy counts of the best ${full ? `${COUNT_WINDOW} matches (there are more)` : `${hits.length} matches`}, by type: search matches loosely (prefixes, typos), so they are no exact totals — use filterItems with count_only for an exact item count.`
        : 'Counts of this page only (offset beyond the first 100 matches): search matches loosely, so they are no exact totals.',
      next_step: nextStep([...new Set(results.map((r) => r.type))]),
      results,
    };
  },
  text: (e: SearchEnvelope) => searchText(e),
  example: {
    input: { query: 'northwind renewal', space_id: 7101, limit: 2 },
    result: {
      query: 'northwind renewal',
      scope: { level: 'space', id: 7101 },
      returned: 2,
      has_more: true,
      next_offset: 2,
      approximate_match_counts: { item: 4, file: 1 },
      counts_caveat: 'Fuzzy counts of the best 5 matches, by type: search matches loosely (prefixes, typos), so they are no exact totals — use filterItems with count_only for an exact item count.',
      next_step: 'Search is a fuzzy locator: confirm a result with its exact read (item → getItem with item_id) before acting on it.',
      results: [
        { type: 'item', id: 30061, item_id: 30061, title: 'Renewal — Northwind Traders', link: 'https://podio.com/sandbox-co/sales/apps/deals/items/1', app_id: 8102, app_name: 'Deals' },
        { type: 'item', id: 30001, item_id: 30001, title: 'Northwind Traders', link: 'https://podio.com/sandbox-co/sales/apps/companies/items/1', app_id: 8101, app_name: 'Companies' },
      ],
    },
  },
});
