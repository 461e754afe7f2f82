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
  requestCount?: number;
  matchCount?: number;
  noMatchCount?: number;
  errorCount?: number;
  resultCount?: number;
  resultsFound?: number;
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
  apiVersion?: string;
  performance?: { startTime?: string; endTime?: string; totalRequestTime?: number };
  requestId?: string;
  results?: BdMetaResults;
}

export interface BdAddress {
  street?: string;
  city?: string;
  state?: string;
  zip?: string;
  zipPlus4?: string;
  county?: string;
  countyFipsCode?: string;
  latitude?: number;
  longitude?: number;
  formattedStreet?: string;
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
  address?: BdAddress;
  ids?: Group<{ apn?: string; fipsCode?: string; taxId?: string; addressHash?: string }>;
  general?: Group<{ propertyTypeCategory?: string; propertyTypeDetail?: string; vacant?: boolean }>;
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
  }>;
  lot?: Group<{ lotSizeAcres?: number; lotSizeSquareFeet?: number; zoningCode?: string }>;
  valuation?: Group<{
    estimatedValue?: number;
    priceRangeMin?: number;
    priceRangeMax?: number;
    confidenceScore?: number;
    equityPercent?: number;
    equityCurrentEstimatedBalance?: number;
    ltv?: number;
  }>;
  assessment?: Group<{ assessmentYear?: number; totalAssessedValue?: number; totalMarketValue?: number }>;
  tax?: Group<{ taxAmount?: number; taxYear?: number; taxDelinquentYear?: number }>;
  sale?: Group<{ lastSale?: BdSale; priorSale?: BdSale }>;
  owner?: Group<{
    fullName?: string;
    names?: Group<{ first?: string; last?: string; full?: string }>[];
    ownerOccupied?: boolean;
    ownerStatusType?: string;
    ownershipStartDate?: string;
    mailingAddress?: Group<{ street?: string; city?: string; state?: string; zip?: string }>;
  }>;
  quickLists?: Record<string, boolean | undefined>;
  openLien?: Group<{ totalOpenLienCount?: number; totalOpenLienBalance?: number; mortgages?: Group<{ lenderName?: string; currentEstimatedInterestRate?: number; interestRateType?: string }>[] }>;
  involuntaryLien?: Group<{ liens?: Group<{ type?: string; amount?: number; recordingDate?: string }>[] }>;
  foreclosure?: Group<{ status?: string; recordingDate?: string; auctionDate?: string }>;
  listing?: Group<{ status?: string; price?: number; daysOnMarket?: number; forSaleByOwner?: boolean }>;
  deedHistory?: unknown[];
  /** Miles from the subject, on comparables. */
  distance?: number;
  [group: string]: unknown;
}

export interface BdResults {
  properties: BdProperty[];
  meta: BdMeta;
  quicklistCounts?: { name: string; count: number }[];
  searchCriteria?: Record<string, unknown>;
  options?: Record<string, unknown>;
  warnings?: string[];
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
