import type { Registry } from './registry';
import { catalog, type CatalogEntry, type JsonSchema } from './schemas/catalog';

/**
 * Tool search: BM25 over each tool's name, parameter names, description and platform, a compact
 * scorer of our own (a few hundred tools need no search library, and the bundle stays small).
 * Fields are weighted by repeating their terms (a simplified BM25F): a word in the tool's name
 * says more about it than one in its description.
 */

const WEIGHTS = { name: 5, params: 1.5, platform: 1, description: 1 } as const;
const K1 = 1.2;
const B = 0.75;

const STOPWORDS = new Set(
  'a an the to of in on at by for from with and or is are be it its this that these those my me i we our you your all any some into as do does can how what which who'.split(' '),
);

/**
 * Verbs and nouns people use for what the tools call otherwise (names follow the vendors: create,
 * get, filter…). Each query word also looks for these; the word itself still scores higher.
 */
const SYNONYMS: Record<string, readonly string[]> = {
  add: ['create', 'attach'],
  new: ['create'],
  make: ['create'],
  find: ['search', 'filter', 'lookup', 'get', 'list'],
  look: ['lookup', 'search', 'get'],
  show: ['get', 'list'],
  fetch: ['get', 'download'],
  read: ['get', 'list'],
  remove: ['delete'],
  erase: ['delete'],
  edit: ['update'],
  change: ['update'],
  modify: ['update'],
  rename: ['update'],
  note: ['comment'],
  grant: ['access'],
  reply: ['comment'],
  customer: ['contact', 'company'],
  person: ['contact', 'user'],
  people: ['contact', 'user', 'member'],
  file: ['upload', 'download'],
  send: ['upload', 'notification'],
  house: ['property'],
  home: ['property'],
  similar: ['comparable'],
  comps: ['comparable'],
};
const SYNONYM_WEIGHT = 0.5;
/** SYNONYMS by the stem of the word, as queries are looked up ("remove" → "remov"). */
let stemmedSynonyms: Map<string, string[]> | undefined;
const synonymsOf = (word: string): readonly string[] =>
  (stemmedSynonyms ??= new Map(Object.entries(SYNONYMS).map(([w, syns]) => [stem(w), syns.map(stem)]))).get(word) ?? [];
const FIRST_WORD_WEIGHT = 2;

/** Light English stemming: enough to meet "properties"/"property", "comments"/"commenting". */
export function stem(word: string): string {
  if (word.length <= 3) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith('es') && /(ss|sh|ch|x)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('ing') && word.length > 5) return word.slice(0, -3);
  if (word.endsWith('ed') && word.length > 4) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss')) return dropE(word.slice(0, -1));
  return dropE(word);
}

/** "share", "shares", "shared" and "sharing" all end up "shar". */
const dropE = (w: string) => (w.length > 4 && w.endsWith('e') ? w.slice(0, -1) : w);

/** Words of a text or an identifier: camelCase and snake_case split, lower-cased, stemmed, stopwords out. */
export function tokenize(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1 && !STOPWORDS.has(w))
    .map(stem);
}

/** Parameter names of a JSON Schema, nested objects and array items included. */
function paramNames(schema: JsonSchema, out: string[] = [], depth = 0): string[] {
  if (depth > 4) return out;
  const props = schema.properties as Record<string, JsonSchema> | undefined;
  if (props) {
    for (const [name, sub] of Object.entries(props)) {
      out.push(name);
      paramNames(sub, out, depth + 1);
    }
  }
  const items = schema.items as JsonSchema | undefined;
  if (items && typeof items === 'object') paramNames(items, out, depth + 1);
  return out;
}

type Field = keyof typeof WEIGHTS;
const FIELDS = Object.keys(WEIGHTS) as Field[];

interface Doc {
  entry: CatalogEntry;
  /** Term counts per field. */
  tf: Record<Field, Map<string, number>>;
  length: Record<Field, number>;
}

export interface SearchIndex {
  docs: Doc[];
  df: Map<string, number>;
  avgLength: Record<Field, number>;
}

function counts(words: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const w of words) m.set(w, (m.get(w) ?? 0) + 1);
  return m;
}

export function buildIndex(entries: readonly CatalogEntry[], vendors: Readonly<Record<string, string>> = {}): SearchIndex {
  const df = new Map<string, number>();
  const docs = entries.map((entry) => {
    const words: Record<Field, string[]> = {
      name: tokenize(entry.name),
      params: [...new Set(paramNames(entry.inputSchema).flatMap(tokenize))],
      // The vendor as one word: "ShareFile" must not make every filebox tool match "share".
      platform: tokenize(`${entry.platform} ${(vendors[entry.platform] ?? '').toLowerCase()}`),
      description: tokenize(entry.description),
    };
    const tf = {} as Doc['tf'];
    const length = {} as Doc['length'];
    for (const f of FIELDS) {
      tf[f] = counts(words[f]);
      length[f] = words[f].length;
    }
    for (const w of new Set(FIELDS.flatMap((f) => words[f]))) df.set(w, (df.get(w) ?? 0) + 1);
    return { entry, tf, length };
  });
  const avgLength = {} as SearchIndex['avgLength'];
  for (const f of FIELDS) avgLength[f] = Math.max(1, docs.reduce((s, d) => s + d.length[f], 0) / Math.max(1, docs.length));
  return { docs, df, avgLength };
}

export interface SearchHit {
  entry: CatalogEntry;
  score: number;
}

/**
 * The best `limit` tools for a free-text query, best first; tools matching no query word are
 * left out. BM25F: each field's term count is normalised by that field's length before the
 * fields are weighted and summed, so a long description does not drown a match in the name.
 */
export function searchIndex(index: SearchIndex, query: string, limit: number, platform?: string, allow?: (entry: CatalogEntry) => boolean): SearchHit[] {
  const terms = new Map<string, number>();
  tokenize(query).forEach((word, i) => {
    // A request's first word is usually its verb ("share a folder…", "add a comment…"), which
    // tool names carry too: it counts double, so the action outweighs a rare object word.
    const weight = i === 0 ? FIRST_WORD_WEIGHT : 1;
    terms.set(word, Math.max(terms.get(word) ?? 0, weight));
    for (const s of synonymsOf(word)) terms.set(s, Math.max(terms.get(s) ?? 0, weight * SYNONYM_WEIGHT));
  });
  const n = index.docs.length;
  const hits: SearchHit[] = [];
  for (const doc of index.docs) {
    if (platform && doc.entry.platform !== platform) continue;
    // A service key's policy (shared/identity): search finds only what the key may call.
    if (allow && !allow(doc.entry)) continue;
    let score = 0;
    for (const [term, weight] of terms) {
      let tf = 0;
      for (const f of FIELDS) {
        const c = doc.tf[f].get(term);
        if (c) tf += (WEIGHTS[f] * c) / (1 - B + (B * doc.length[f]) / index.avgLength[f]);
      }
      if (tf === 0) continue;
      const df = index.df.get(term) ?? 0;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      score += weight * idf * ((tf * (K1 + 1)) / (tf + K1));
    }
    if (score > 0) hits.push({ entry: doc.entry, score });
  }
  // Ties keep registry order: deterministic answers.
  return hits.sort((a, b) => b.score - a.score).slice(0, limit);
}

/** The first sentence of a description: what a search result shows. */
export function firstSentence(description: string): string {
  return description.split(/(?<=\.)\s(?=[A-Z])/)[0]!;
}

const indexes = new WeakMap<Registry, Promise<SearchIndex>>();

/** The index of every tool of a registry, built once per container. */
export function registryIndex(registry: Registry): Promise<SearchIndex> {
  let index = indexes.get(registry);
  if (!index) {
    const vendors = Object.fromEntries([...registry.platforms.values()].map((p) => [p.name, p.vendor]));
    index = catalog(registry).then((entries) => buildIndex(entries, vendors));
    index.catch(() => indexes.delete(registry));
    indexes.set(registry, index);
  }
  return index;
}

export const SEARCH_LIMIT = { default: 5, max: 50 } as const;

/** A search result as the HTTP route and the MCP tool search_tools return it. */
export function hitView(hit: SearchHit) {
  const { entry } = hit;
  return {
    platform: entry.platform,
    tool: entry.name,
    score: Math.round(hit.score * 1000) / 1000,
    description: firstSentence(entry.description),
    annotations: entry.annotations,
    ...(entry.group ? { group: entry.group } : {}),
  };
}
