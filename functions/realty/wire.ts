/**
 * BatchData Property API v1 wire types (docs/vendors/batchdata.md; docs/spec.md#realty-property). Only what the tools read is
 * typed; a record carries many more groups, kept as they come (JSON mode returns the envelope).
 */

export interface BdStatus {
  code: number;
  text: string;
  message?: string;
}

export interface BdMetaResults {
  requestCount?: number | null;
  matchCount?: number | null;
  noMatchCount?: number | null;
  errorCount?: number | null;
  resultCount?: number | null;
  resultsFound?: number | null;
  skipTraceMatchCount?: number;
  aggComparablesMetrics?: BdCompMetrics;
  [k: string]: unknown;
}

export interface BdCompMetrics {
  averagePrice: number;
  averagePricePerSqft: number;
  estimatedValue: number;
}

export interface BdMeta {
  apiVersion?: string | null;
  performance?: { startTime?: string; endTime?: string; totalRequestTime?: number };
  requestId?: string | null;
  results?: BdMetaResults | null;
}

export interface BdAddress {
  street?: string | null;
  city?: string | null;
  state?: string | null;
  zip?: string | null;
  zipPlus4?: string;
  county?: string | null;
  countyFipsCode?: string | null;
  latitude?: number | null;
  longitude?: number | null;
  formattedStreet?: string | null;
  [field: string]: unknown;
}

export interface BdSale {
  saleDate?: string;
  recordingDate?: string;
  price?: number;
  pricePerSquareFoot?: number;
  documentType?: string;
  transactionType?: string;
  [field: string]: unknown;
}

/** A group of a record: the fields the tools read, and the rest as the vendor sends them. */
type Group<T> = T & { [field: string]: unknown };

export interface BdProperty {
  _id: string;
  address?: BdAddress | null;
  ids?: Group<{ apn?: string | null; fipsCode?: string | null; taxId?: string | null; addressHash?: string | null }> | null;
  general?: Group<{ propertyTypeCategory?: string; propertyTypeDetail?: string; vacant?: boolean }> | null;
  building?: Group<{
    yearBuilt?: number;
    bedroomCount?: number;
    bathroomCount?: number;
    livingAreaSquareFeet?: number;
    totalBuildingAreaSquareFeet?: number;
    storyCount?: number;
    unitCount?: number;
    garageParkingSpaceCount?: number;
    pool?: boolean;
  }> | null;
  lot?: Group<{ lotSizeAcres?: number; lotSizeSquareFeet?: number; zoningCode?: string }> | null;
  valuation?: Group<{
    estimatedValue?: number;
    priceRangeMin?: number;
    priceRangeMax?: number;
    confidenceScore?: number;
    equityPercent?: number;
    equityCurrentEstimatedBalance?: number;
    ltv?: number;
  }> | null;
  assessment?: Group<{ assessmentYear?: number; totalAssessedValue?: number; totalMarketValue?: number }> | null;
  tax?: Group<{ taxAmount?: number; taxYear?: number; taxDelinquentYear?: number }> | null;
  sale?: Group<{ lastSale?: BdSale | null; priorSale?: BdSale }> | null;
  owner?: Group<{
    fullName?: string | null;
    names?: Group<{ first?: string; last?: string; full?: string }>[] | null;
    ownerOccupied?: boolean | null;
    ownerStatusType?: string;
    ownershipStartDate?: string | null;
    mailingAddress?: Group<{ street?: string; city?: string; state?: string; zip?: string }> | null;
  }> | null;
  quickLists?: Record<string, boolean | undefined> | null;
  openLien?: Group<{ totalOpenLienCount?: number; totalOpenLienBalance?: number; mortgages?: Group<{ lenderName?: string; currentEstimatedInterestRate?: number; interestRateType?: string }>[] }>;
  involuntaryLien?: Group<{ liens?: Group<{ type?: string; amount?: number; recordingDate?: string }>[] }>;
  foreclosure?: Group<{ status?: string; recordingDate?: string; auctionDate?: string }>;
  listing?: Group<{ status?: string; price?: number; daysOnMarket?: number; forSaleByOwner?: boolean }>;
  deedHistory?: unknown[] | null;
  /** Miles from the subject, on comparables. */
  distance?: number;
  [group: string]: unknown;
}

/** BatchData's `results`; the tools answer the same shape with their own property and meta types. */
export interface BdResults<P = BdProperty, M = BdMeta> {
  properties: P[];
  meta: M;
  quicklistCounts?: { name: string; count: number }[] | null;
  nextPageCursor?: string | null;
  previousPageCursor?: string | null;
  searchCriteria?: Record<string, unknown> | null;
  options?: Record<string, unknown> | null;
  warnings?: string[] | null;
  [k: string]: unknown;
}

/** Every answer: `{status, results}` (docs/spec.md#realty-property). */
export interface BdEnvelope {
  status: BdStatus;
  results: BdResults;
}

export interface BdRange {
  min?: number;
  max?: number;
}

export interface BdSearchCriteria {
  query?: string;
  quickList?: string;
  compAddress?: BdLookupAddress;
  address?: Partial<Record<string, { equals?: string; contains?: string; inList?: string[] }>>;
  building?: Partial<Record<string, BdRange>>;
  general?: Record<string, { inList: string[] }>;
  valuation?: Partial<Record<string, BdRange>>;
  assessment?: Partial<Record<string, BdRange>>;
}

export interface BdSearchBody {
  searchCriteria: BdSearchCriteria;
  options: Record<string, unknown>;
}

export interface BdLookupAddress {
  street: string;
  city: string;
  state: string;
  zip: string;
}

/** What a BatchData address lookup takes: street with zip, or street with city and state (or all four). */
export type BdPartialAddress = { street: string } & Partial<Omit<BdLookupAddress, 'street'>>;

/** One lookup request, in one of its key forms (docs/vendors/batchdata.md#property-lookup). */
export type BdLookupRequest =
  | { address: BdPartialAddress; requestId?: string }
  | { propertyId: string; requestId?: string }
  | { apn: string; countyFipsCode: string; address?: { state: string }; requestId?: string };

export interface BdLookupBody {
  requests: BdLookupRequest[];
  options?: Record<string, unknown>;
}
