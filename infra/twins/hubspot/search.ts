/**
 * HubSpot's CRM search (POST /crm/v3/objects/{type}/search) over the twin's records: filter
 * groups OR-combined, filters AND-combined, every operator of the `Filter` schema, `query` over
 * the type's default searchable properties, one sort, paging by `after` (an offset, as HubSpot's
 * is) with HubSpot's limits: 5 groups, 6 filters per group, 18 filters in all, limit ≤ 200, and
 * no page beyond the 10,000th result.
 */
import { validationError } from './http';
import { SEARCHABLE, type ObjectType, type PropertyDef } from './model';
import type { CrmRecord, HubSpotState } from './state';

export const SEARCH_LIMITS = { groups: 5, filtersPerGroup: 6, filters: 18, limit: 200, window: 10_000 } as const;

interface Filter {
  propertyName: string;
  operator: string;
  value?: unknown;
  highValue?: unknown;
  values?: unknown[];
}

const OPERATORS = new Set(['EQ', 'NEQ', 'LT', 'LTE', 'GT', 'GTE', 'BETWEEN', 'IN', 'NOT_IN', 'HAS_PROPERTY', 'NOT_HAS_PROPERTY', 'CONTAINS_TOKEN', 'NOT_CONTAINS_TOKEN']);

/** Comparable form of a value by property type: numbers and dates as numbers, the rest lower-case text. */
function comparable(def: PropertyDef | undefined, v: string): number | string {
  if (def?.type === 'number') return Number(v);
  if (def?.type === 'date' || def?.type === 'datetime') return /^\d+$/.test(v) ? Number(v) : Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00Z` : v);
  return v.toLowerCase();
}

const tokens = (s: string) => s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/**
 * Whether `text` matches `pattern`, `*` standing for any characters (none included). No regular
 * expression: `.*` runs backtrack exponentially on hostile patterns (`*a*a*a*b` over `aaaa…`).
 * The literal pieces between stars are found left to right, each at its first place after the
 * previous one (the leftmost place leaves the most room for the rest, so it never misses a match):
 * one pass over the text per piece, at most.
 */
export function wildcardMatch(text: string, pattern: string): boolean {
  const pieces = pattern.split('*');
  if (pieces.length === 1) return text === pattern;
  const head = pieces[0]!;
  const tail = pieces[pieces.length - 1]!;
  if (text.length < head.length + tail.length || !text.startsWith(head) || !text.endsWith(tail)) return false;
  const end = text.length - tail.length;
  let at = head.length;
  for (let k = 1; k < pieces.length - 1; k++) {
    const piece = pieces[k]!;
    if (piece === '') continue;
    const found = text.indexOf(piece, at);
    if (found < 0 || found + piece.length > end) return false;
    at = found + piece.length;
  }
  return true;
}

/** CONTAINS_TOKEN: a token of the value equals the word, `*` standing for any characters. */
function containsToken(value: string, word: string): boolean {
  const w = word.toLowerCase().trim();
  if (w.includes('*')) {
    const v = value.toLowerCase();
    return wildcardMatch(v, w) || tokens(v).some((t) => wildcardMatch(t, w));
  }
  const ws = tokens(w);
  const vs = tokens(value);
  // Several words: they must appear in sequence (HubSpot matches a phrase of tokens).
  return ws.length > 0 && vs.some((_, i) => ws.every((x, j) => vs[i + j] === x));
}

function matches(rec: CrmRecord, f: Filter, defs: Map<string, PropertyDef>): boolean {
  const def = defs.get(f.propertyName);
  const raw = rec.properties[f.propertyName];
  const has = raw !== undefined && raw !== '';
  const str = (x: unknown) => String(x ?? '');
  switch (f.operator) {
    case 'HAS_PROPERTY':
      return has;
    case 'NOT_HAS_PROPERTY':
      return !has;
    case 'NOT_CONTAINS_TOKEN':
      return !has || !containsToken(raw!, str(f.value));
    case 'NEQ':
      return !has || comparable(def, raw!) !== comparable(def, str(f.value));
    case 'NOT_IN':
      return !has || !(f.values ?? []).some((v) => matchesOne(def, raw!, str(v)));
  }
  if (!has) return false;
  const a = comparable(def, raw!);
  const b = comparable(def, str(f.value));
  switch (f.operator) {
    case 'EQ':
      return matchesOne(def, raw!, str(f.value));
    case 'LT':
      return a < b;
    case 'LTE':
      return a <= b;
    case 'GT':
      return a > b;
    case 'GTE':
      return a >= b;
    case 'BETWEEN':
      return a >= b && a <= comparable(def, str(f.highValue));
    case 'IN':
      return (f.values ?? []).some((v) => matchesOne(def, raw!, str(v)));
    case 'CONTAINS_TOKEN':
      return containsToken(raw!, str(f.value));
  }
  return false;
}

/** EQ on a multi-select matches one of its values, as HubSpot's does. */
function matchesOne(def: PropertyDef | undefined, raw: string, v: string): boolean {
  if (def?.fieldType === 'checkbox') return raw.toLowerCase().split(';').includes(v.toLowerCase());
  return comparable(def, raw) === comparable(def, v);
}

/** `query`: every word must start a token of one of the default searchable properties. */
function matchesQuery(rec: CrmRecord, type: ObjectType, query: string): boolean {
  const words = tokens(query);
  const hay = SEARCHABLE[type].flatMap((p) => tokens(rec.properties[p] ?? ''));
  return words.every((w) => hay.some((t) => t.startsWith(w)));
}

export interface SearchOutcome {
  total: number;
  results: CrmRecord[];
  next?: string;
}

/** Runs a search body; bad bodies answer HubSpot's VALIDATION_ERROR. */
export function search(state: HubSpotState, type: ObjectType, body: Record<string, unknown>): SearchOutcome {
  const defs = state.properties[type];
  const groups = (body.filterGroups ?? []) as { filters?: Filter[] }[];
  if (!Array.isArray(groups)) throw validationError('filterGroups must be an array');
  if (groups.length > SEARCH_LIMITS.groups) throw validationError(`Too many filter groups: ${groups.length}. The maximum is ${SEARCH_LIMITS.groups}.`);
  let count = 0;
  for (const g of groups) {
    const filters = g?.filters ?? [];
    if (!Array.isArray(filters)) throw validationError('filters must be an array');
    if (filters.length > SEARCH_LIMITS.filtersPerGroup) throw validationError(`Too many filters in a filter group: ${filters.length}. The maximum is ${SEARCH_LIMITS.filtersPerGroup}.`);
    count += filters.length;
    for (const f of filters) {
      if (!f || typeof f.propertyName !== 'string' || !OPERATORS.has(f.operator)) throw validationError(`Invalid filter: ${JSON.stringify(f)}`);
      if (!defs.has(f.propertyName)) throw validationError(`There was a problem with the request. Property "${f.propertyName}" does not exist.`, { errors: [{ message: `Unknown property ${f.propertyName}`, in: 'propertyName' }] });
      if (f.operator === 'BETWEEN' && f.highValue === undefined) throw validationError(`BETWEEN on ${f.propertyName} needs highValue.`);
      if ((f.operator === 'IN' || f.operator === 'NOT_IN') && !Array.isArray(f.values)) throw validationError(`${f.operator} on ${f.propertyName} needs values.`);
    }
  }
  if (count > SEARCH_LIMITS.filters) throw validationError(`Too many filters: ${count}. The maximum is ${SEARCH_LIMITS.filters}.`);
  const limit = body.limit === undefined ? 10 : Number(body.limit);
  if (!Number.isInteger(limit) || limit < 0 || limit > SEARCH_LIMITS.limit) throw validationError(`limit must be between 0 and ${SEARCH_LIMITS.limit}, got ${JSON.stringify(body.limit)}`);
  const after = body.after === undefined || body.after === null || body.after === '' ? 0 : Number(body.after);
  if (!Number.isInteger(after) || after < 0) throw validationError(`after must be a paging cursor from a previous answer, got ${JSON.stringify(body.after)}`);
  if (after + limit > SEARCH_LIMITS.window) throw validationError(`The search API returns at most ${SEARCH_LIMITS.window} results: after + limit must not exceed ${SEARCH_LIMITS.window}. Narrow the filters.`);

  const sorts = (body.sorts ?? []) as unknown[];
  if (!Array.isArray(sorts) || sorts.length > 1) throw validationError('Only one sort is allowed per search.');
  const sort = sorts[0] === undefined ? undefined : typeof sorts[0] === 'string'
    ? { propertyName: (sorts[0] as string).replace(/^-/, ''), direction: (sorts[0] as string).startsWith('-') ? 'DESCENDING' : 'ASCENDING' }
    : (sorts[0] as { propertyName: string; direction?: string });
  if (sort && !defs.has(sort.propertyName)) throw validationError(`Cannot sort by unknown property "${sort.propertyName}".`);

  const query = typeof body.query === 'string' ? body.query : '';
  let hits = [...state.records[type].values()].filter(
    (r) => !r.archivedAt && (groups.length === 0 || groups.some((g) => (g.filters ?? []).every((f) => matches(r, f, defs)))) && (!query || matchesQuery(r, type, query)),
  );
  if (sort) {
    const def = defs.get(sort.propertyName);
    const dir = sort.direction === 'DESCENDING' ? -1 : 1;
    hits = hits.sort((x, y) => {
      const a = x.properties[sort.propertyName];
      const b = y.properties[sort.propertyName];
      // Records without the value come last either way.
      if (a === undefined || b === undefined) return a === b ? Number(x.id) - Number(y.id) : a === undefined ? 1 : -1;
      const ca = comparable(def, a);
      const cb = comparable(def, b);
      return (ca < cb ? -1 : ca > cb ? 1 : Number(x.id) - Number(y.id)) * dir;
    });
  } else hits.sort((x, y) => Number(x.id) - Number(y.id));
  const page = hits.slice(after, after + limit);
  const more = after + limit < hits.length && after + limit < SEARCH_LIMITS.window;
  return { total: hits.length, results: page, ...(more ? { next: String(after + limit) } : {}) };
}
