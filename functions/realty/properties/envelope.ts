import { listed, type Listed } from '../../../shared/core/listed';
import type { BdAddress, BdEnvelope, BdMeta, BdMetaResults, BdProperty, BdResults, BdStatus } from '../wire';

/**
 * What a tool answers in JSON mode: BatchData's envelope (docs/spec.md#realty-property) with the
 * tool's changes, less `meta.performance` — the vendor's server timings, different on every call
 * and of no use to a caller (a repeated call then answers the same; `requestId` stays for support
 * requests). Every field the spec lists is present, null where BatchData gives none: the record
 * groups of each property (and the listed fields of `ids`, `address`, `owner`, `sale`), the
 * meta and its counts, and on a search its paging and criteria. What else BatchData sends is kept.
 */

const GROUPS = ['ids', 'address', 'general', 'building', 'lot', 'valuation', 'assessment', 'tax', 'sale', 'owner', 'quickLists', 'deedHistory'] as const;
const IDS = ['apn', 'fipsCode', 'taxId', 'addressHash'] as const;
const ADDRESS = ['street', 'city', 'state', 'zip', 'county', 'countyFipsCode', 'latitude', 'longitude', 'formattedStreet'] as const;
const OWNER = ['fullName', 'names', 'ownerOccupied', 'ownershipStartDate', 'mailingAddress'] as const;
const SALE = ['lastSale'] as const;
const META = ['apiVersion', 'requestId', 'results'] as const;
const COUNTS = ['errorCount', 'matchCount', 'noMatchCount', 'requestCount', 'resultCount', 'resultsFound'] as const;
/** What a search answers beside the properties (docs/spec.md#realty-property: "Search adds"). */
const SEARCH = ['quicklistCounts', 'nextPageCursor', 'previousPageCursor', 'options', 'searchCriteria', 'warnings'] as const;

type Of<K extends keyof BdProperty> = NonNullable<BdProperty[K]>;
/** A group with its listed fields present, and whatever else BatchData sent. */
type Filled<G, K extends keyof G> = Listed<G, K> & { [field: string]: unknown };

/** A property record as the tools return it. */
export type PropertyRecord = Listed<BdProperty, Exclude<(typeof GROUPS)[number], 'ids' | 'address' | 'owner' | 'sale'>> & {
  _id: string;
  ids: Filled<Of<'ids'>, (typeof IDS)[number]> | null;
  address: Filled<BdAddress, (typeof ADDRESS)[number]> | null;
  owner: Filled<Of<'owner'>, (typeof OWNER)[number]> | null;
  sale: Filled<Of<'sale'>, (typeof SALE)[number]> | null;
  /** Miles from the subject, on comparables. */
  distance?: number;
  [group: string]: unknown;
};

export type ToolMeta = Listed<BdMeta, 'apiVersion' | 'requestId'> & { results: (Filled<BdMetaResults, (typeof COUNTS)[number]> & Pick<BdMetaResults, 'aggComparablesMetrics'>) | null };

export type ToolResults = BdResults<PropertyRecord, ToolMeta>;

/** The envelope a realty tool answers with in JSON mode. */
export interface ToolEnvelope {
  status: BdStatus;
  results: ToolResults;
}

/** `{...group, every listed field}`: null for a listed field the group lacks; null for a missing group. */
function fill<G extends object, K extends keyof G>(group: G | null | undefined, keys: readonly K[]): Filled<G, K> | null {
  return group ? ({ ...group, ...listed(group, keys) } as Filled<G, K>) : null;
}

export function toRecord(p: BdProperty): PropertyRecord {
  return {
    ...p,
    ...listed(p, GROUPS),
    ids: fill(p.ids, IDS),
    address: fill(p.address, ADDRESS),
    owner: fill(p.owner, OWNER),
    sale: fill(p.sale, SALE),
  };
}

function toMeta(meta: BdMeta): ToolMeta {
  const { performance: _timings, ...rest } = meta;
  return { ...rest, ...listed(meta, META), results: fill(meta.results, COUNTS) };
}

/** `search`: a search's envelope (searchProperties, comparableProperty), which lists its paging and criteria too. */
export function toolEnvelope(env: BdEnvelope, o: { search?: boolean; changes?: Partial<BdResults> } = {}): ToolEnvelope {
  const results = { ...env.results, ...o.changes };
  return {
    status: env.status,
    results: { ...results, ...(o.search ? listed(results, SEARCH) : {}), properties: results.properties.map(toRecord), meta: toMeta(results.meta) },
  };
}
