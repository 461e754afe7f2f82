import * as z from 'zod';
import { invalidParameter } from '../../../shared/core/errors';
import { QUICK_LISTS, type QuickListName, stateInput, zipInput } from '../params';
import type { BdRange, BdSearchCriteria } from '../wire';
import { normaliseStreet } from './address';

/**
 * searchProperties' filter objects (docs/spec.md#realty-property) and their translation to BatchData's
 * `searchCriteria` (docs/vendors/batchdata.md#property-search): ranges become `{min, max}` on BatchData's field names,
 * address parts `{equals}` (the street `{contains}`, so a street name without the number matches),
 * the property type `general.propertyTypeCategory` or `…Detail` `{inList}`.
 */

const count = (what: string) => z.number().int().min(0).optional().describe(what);
const amount = (what: string) => z.number().min(0).optional().describe(what);

export const addressFilter = z
  .strictObject({
    city: z.string().trim().min(1).optional().describe('City, e.g. "Phoenix".'),
    state: stateInput().optional(),
    zip: zipInput().optional(),
    county: z.string().trim().min(1).optional().describe('County name without "County", e.g. "Maricopa".'),
    street: z.string().trim().min(1).optional().describe('Street name or part of it, e.g. "Palmaire Ave" (matches any house number).'),
  })
  .optional()
  .describe('Location filters, all AND-ed: city, state, zip, county, street.');

// Categories of BatchData's data dictionary, and the common details with the words people use for them.
const CATEGORIES = ['Residential', 'Commercial', 'Office', 'Industrial', 'Agricultural', 'Exempt', 'Miscellaneous', 'Recreational', 'Vacant Land'];
const DETAILS: Record<string, string[]> = {
  'single family': ['Single Family Residential'], 'single family residential': ['Single Family Residential'], sfr: ['Single Family Residential'], house: ['Single Family Residential'],
  condo: ['Condominium'], condominium: ['Condominium'], townhouse: ['Townhouse'], townhome: ['Townhouse'], duplex: ['Duplex'], triplex: ['Triplex'],
  'multi family': ['Duplex', 'Triplex', 'Quadruplex', 'Apartment'], 'multi-family': ['Duplex', 'Triplex', 'Quadruplex', 'Apartment'], apartment: ['Apartment'],
  'mobile home': ['Mobile/Manufactured Home'], manufactured: ['Mobile/Manufactured Home'], 'mobile/manufactured home': ['Mobile/Manufactured Home'],
  land: ['Residential Vacant Land'], lot: ['Residential Vacant Land'], 'residential vacant land': ['Residential Vacant Land'], retail: ['Retail'], 'office building': ['Office Building'],
};
const TYPE_WORDS = [...CATEGORIES, ...Object.keys(DETAILS).filter((k) => k === k.toLowerCase() && !k.includes('/'))];

export const buildingFilter = z
  .strictObject({
    minBedrooms: count('At least this many bedrooms.'),
    maxBedrooms: count('At most this many bedrooms.'),
    minBathrooms: amount('At least this many bathrooms (half baths count 0.5).'),
    maxBathrooms: amount('At most this many bathrooms.'),
    minAreaSqFt: amount('Living area of at least this many square feet.'),
    maxAreaSqFt: amount('Living area of at most this many square feet.'),
    minYearBuilt: z.number().int().min(1600).max(2100).optional().describe('Built in this year or later.'),
    maxYearBuilt: z.number().int().min(1600).max(2100).optional().describe('Built in this year or earlier.'),
    propertyType: z
      .string()
      .trim()
      .min(1)
      .optional()
      .describe(`A category (${CATEGORIES.join(', ')}) or a kind: single family, condo, townhouse, duplex, triplex, multi-family, mobile home, land, retail, office building.`),
  })
  .optional()
  .describe('Building filters, all AND-ed; each min must be <= its max.');

export const valuationFilter = z
  .strictObject({
    minEstimatedValue: amount("BatchData's estimated market value of at least this, in dollars."),
    maxEstimatedValue: amount('Estimated value of at most this, in dollars.'),
    minAssessedValue: amount("The county's total assessed value of at least this, in dollars (assessed value is often a fraction of market value)."),
    maxAssessedValue: amount('Total assessed value of at most this, in dollars.'),
  })
  .optional()
  .describe('Value filters, in dollars; each min must be <= its max.');

export interface SearchFilters {
  query?: string;
  quick_list?: QuickListName;
  address?: z.output<typeof addressFilter>;
  building?: z.output<typeof buildingFilter>;
  valuation?: z.output<typeof valuationFilter>;
}

/** `{min, max}` of two optional bounds, refusing min > max; undefined when neither is set. */
function range(group: string, lo: string, hi: string, min: number | undefined, max: number | undefined): BdRange | undefined {
  if (min === undefined && max === undefined) return undefined;
  if (min !== undefined && max !== undefined && min > max) {
    throw invalidParameter(`${group}.${lo}`, `a number <= ${group}.${hi} (${max})`, `${group}.${lo} (${min}) is greater than ${group}.${hi} (${max}): nothing could match. Swap them or widen the range.`);
  }
  return { ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) };
}

function propertyTypeCriteria(raw: string): NonNullable<BdSearchCriteria['general']> {
  const key = raw.toLowerCase().replace(/\s+/g, ' ');
  const category = CATEGORIES.find((c) => c.toLowerCase() === key);
  if (category) return { propertyTypeCategory: { inList: [category] } };
  const details = DETAILS[key];
  if (details) return { propertyTypeDetail: { inList: details } };
  throw invalidParameter('building.propertyType', `one of ${TYPE_WORDS.join(', ')}`, `Unknown property type "${raw}". Use a category (${CATEGORIES.join(', ')}) or one of: ${TYPE_WORDS.slice(CATEGORIES.length).join(', ')}.`);
}

const compact = <T extends object>(o: T): T | undefined => (Object.values(o).some((v) => v !== undefined) ? (JSON.parse(JSON.stringify(o)) as T) : undefined);

/** BatchData's searchCriteria for the filters; every range checked before anything is sent. */
export function searchCriteria(f: SearchFilters): BdSearchCriteria {
  const b = f.building ?? {};
  const v = f.valuation ?? {};
  const a = f.address ?? {};
  const building = compact({
    bedroomCount: range('building', 'minBedrooms', 'maxBedrooms', b.minBedrooms, b.maxBedrooms),
    bathroomCount: range('building', 'minBathrooms', 'maxBathrooms', b.minBathrooms, b.maxBathrooms),
    totalBuildingAreaSquareFeet: range('building', 'minAreaSqFt', 'maxAreaSqFt', b.minAreaSqFt, b.maxAreaSqFt),
    yearBuilt: range('building', 'minYearBuilt', 'maxYearBuilt', b.minYearBuilt, b.maxYearBuilt),
  });
  const valuation = compact({ estimatedValue: range('valuation', 'minEstimatedValue', 'maxEstimatedValue', v.minEstimatedValue, v.maxEstimatedValue) });
  const assessment = compact({ totalAssessedValue: range('valuation', 'minAssessedValue', 'maxAssessedValue', v.minAssessedValue, v.maxAssessedValue) });
  const address = compact({
    city: a.city !== undefined ? { equals: a.city } : undefined,
    state: a.state !== undefined ? { equals: a.state.toUpperCase() } : undefined,
    zip: a.zip !== undefined ? { equals: a.zip } : undefined,
    county: a.county !== undefined ? { equals: a.county.replace(/\s+county$/i, '') } : undefined,
    street: a.street !== undefined ? { contains: normaliseStreet(a.street) } : undefined,
  });
  return {
    ...(f.query !== undefined ? { query: f.query } : {}),
    ...(f.quick_list !== undefined ? { quickList: QUICK_LISTS[f.quick_list].wire } : {}),
    ...(address ? { address } : {}),
    ...(building ? { building } : {}),
    ...(b.propertyType !== undefined ? { general: propertyTypeCriteria(b.propertyType) } : {}),
    ...(valuation ? { valuation } : {}),
    ...(assessment ? { assessment } : {}),
  };
}
