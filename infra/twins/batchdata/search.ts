import { addressKey, dataset, normalisePart, type Core } from './dataset';
import { milesBetween } from './geography';
import { badRequest, notFound } from './http';
import { isQuickList, onQuickList } from './quicklists';
import { isObject } from '../kit/request';

/**
 * `searchCriteria` and the comparable options of POST /property/search (docs/vendors/batchdata.md#property-search): every
 * criterion is compiled to a predicate on a property's core, all AND-ed. Operator shapes are the
 * documented ones: numbers `{min, max}`, dates `{minDate, maxDate}`, enumerations `{inList}`, and
 * `{equals}` (3p TS). Strings also take `{contains}` — the twin's guess for partial street names.
 * An unknown group or field is refused with 400 rather than silently ignored, so a client bug shows.
 */

type Json = Record<string, unknown>;
type Predicate = (p: Core) => boolean;

type Field = { kind: 'number'; get: (p: Core) => number | null } | { kind: 'string'; get: (p: Core) => string } | { kind: 'date'; get: (p: Core) => string | null } | { kind: 'boolean'; get: (p: Core) => boolean };

const num = (get: (p: Core) => number | null): Field => ({ kind: 'number', get });
const str = (get: (p: Core) => string): Field => ({ kind: 'string', get });

const FIELDS: Record<string, Record<string, Field>> = {
  address: {
    street: str((p) => p.street), city: str((p) => p.city), state: str((p) => p.state), zip: str((p) => p.zip), county: str((p) => p.county),
    countyFipsCode: str((p) => p.fips),
  },
  building: {
    yearBuilt: num((p) => p.yearBuilt), bedroomCount: num((p) => (p.type.category === 'Vacant Land' ? null : p.beds)), bathroomCount: num((p) => (p.sqft ? p.baths : null)),
    totalBuildingAreaSquareFeet: num((p) => p.sqft || null), livingAreaSquareFeet: num((p) => p.sqft || null), storyCount: num((p) => p.stories || null),
    unitCount: num((p) => (p.sqft ? p.units : null)), garageParkingSpaceCount: num((p) => p.garageSpaces), pool: { kind: 'boolean', get: (p) => p.pool },
  },
  general: { propertyTypeCategory: str((p) => p.type.category), propertyTypeDetail: str((p) => p.type.detail), vacant: { kind: 'boolean', get: (p) => p.vacant } },
  valuation: { estimatedValue: num((p) => p.estimatedValue), equityPercent: num((p) => p.equityPercent), equityCurrentEstimatedBalance: num((p) => p.equity) },
  assessment: { totalAssessedValue: num((p) => p.assessedValue), totalMarketValue: num((p) => p.marketValue) },
  lot: { lotSizeSquareFeet: num((p) => p.lotSqft), lotSizeAcres: num((p) => p.lotSqft / 43560) },
  sale: { lastSalePrice: num((p) => p.lastSalePrice), lastSaleDate: { kind: 'date', get: (p) => p.lastSaleDate } },
  owner: { ownerOccupied: { kind: 'boolean', get: (p) => p.ownerOccupied } },
  tax: { taxDelinquentYear: num((p) => p.taxDelinquentYear) },
};

function rangePredicate(path: string, field: Field & { kind: 'number' }, op: Json): Predicate {
  const bound = (k: 'min' | 'max') => {
    const v = op[k];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'number' || !Number.isFinite(v)) throw badRequest(`searchCriteria.${path}.${k} must be a number.`);
    return v;
  };
  const min = bound('min');
  const max = bound('max');
  if (min === undefined && max === undefined) throw badRequest(`searchCriteria.${path} needs "min" and/or "max".`);
  if (min !== undefined && max !== undefined && min > max) throw badRequest(`searchCriteria.${path}: "min" (${min}) is greater than "max" (${max}).`);
  return (p) => {
    const v = field.get(p);
    return v !== null && (min === undefined || v >= min) && (max === undefined || v <= max);
  };
}

function stringPredicate(path: string, field: Field & { kind: 'string' }, op: Json): Predicate {
  const text = (v: unknown, what: string) => {
    if (typeof v !== 'string' || v.trim() === '') throw badRequest(`searchCriteria.${path}.${what} must be a non-empty string.`);
    return normalisePart(v);
  };
  if (op.equals !== undefined) {
    const want = text(op.equals, 'equals');
    return (p) => normalisePart(field.get(p)) === want;
  }
  if (op.inList !== undefined) {
    if (!Array.isArray(op.inList) || op.inList.length === 0) throw badRequest(`searchCriteria.${path}.inList must be a non-empty array of strings.`);
    const want = new Set(op.inList.map((v, i) => text(v, `inList[${i}]`)));
    return (p) => want.has(normalisePart(field.get(p)));
  }
  if (op.contains !== undefined) {
    const want = text(op.contains, 'contains');
    return (p) => normalisePart(field.get(p)).includes(want);
  }
  throw badRequest(`searchCriteria.${path} takes "equals", "inList" or "contains".`);
}

function compileField(group: string, name: string, op: unknown): Predicate {
  const field = FIELDS[group]?.[name];
  const path = `${group}.${name}`;
  if (!field) throw badRequest(`Unknown search criterion "${path}".`);
  if (!isObject(op)) throw badRequest(`searchCriteria.${path} must be an object of operators.`);
  switch (field.kind) {
    case 'number':
      return rangePredicate(path, field, op);
    case 'string':
      return stringPredicate(path, field, op);
    case 'boolean': {
      if (typeof op.equals !== 'boolean') throw badRequest(`searchCriteria.${path} takes {"equals": true|false}.`);
      const want = op.equals;
      return (p) => field.get(p) === want;
    }
    case 'date': {
      const date = (k: string) => {
        const v = op[k];
        if (v === undefined) return undefined;
        if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(v)) throw badRequest(`searchCriteria.${path}.${k} must be a date YYYY-MM-DD.`);
        return v;
      };
      const from = date('minDate');
      const to = date('maxDate');
      if (!from && !to) throw badRequest(`searchCriteria.${path} needs "minDate" and/or "maxDate".`);
      return (p) => {
        const v = field.get(p);
        return v !== null && (!from || v >= from) && (!to || v <= to);
      };
    }
  }
}

/**
 * `query`: a partial location, e.g. "Phoenix, AZ", "85021", "Maricopa County, AZ", "Palmaire Ave,
 * Phoenix". Each comma-separated part must match: a 5-digit zip, a 2-letter state, "<name> County",
 * a city or county name, or else a piece of the street.
 */
const STATES = new Set(
  'AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY PR'.split(' '),
);

function queryPredicate(query: string): Predicate {
  const parts = query.split(',').map((s) => normalisePart(s)).filter(Boolean);
  const tests: Predicate[] = [];
  for (let part of parts) {
    // "PHOENIX AZ 85021" and "AZ 85021": peel a trailing zip and state off the part.
    const zip = / (\d{5})$/.exec(part);
    if (zip) {
      tests.push((p) => p.zip === zip[1]);
      part = part.slice(0, zip.index).trim();
    }
    const state = / ([A-Z]{2})$/.exec(` ${part}`);
    if (state && part.length > 2 && STATES.has(state[1]!)) {
      tests.push((p) => p.state === state[1]);
      part = part.slice(0, -2).trim();
    }
    if (part === '') continue;
    if (/^\d{5}$/.test(part)) tests.push((p) => p.zip === part);
    else if (STATES.has(part)) tests.push((p) => p.state === part);
    else if (/ COUNTY$/.test(part)) {
      const county = part.replace(/ COUNTY$/, '');
      tests.push((p) => normalisePart(p.county) === county);
    } else tests.push((p) => normalisePart(p.city) === part || normalisePart(p.county) === part || normalisePart(p.street).includes(part));
  }
  return (p) => tests.every((t) => t(p));
}

function quickListNames(v: unknown, what: string): string[] {
  const names = typeof v === 'string' ? [v] : Array.isArray(v) ? v : null;
  if (!names || names.some((n) => typeof n !== 'string')) throw badRequest(`searchCriteria.${what} must be ${what === 'quickList' ? 'a string' : 'an array of strings'}.`);
  for (const n of names as string[]) if (!isQuickList(n)) throw badRequest(`Unknown quick list "${n}" in searchCriteria.${what}.`);
  return names as string[];
}

/** The predicates of a `searchCriteria` object (compAddress excepted: see comparables). */
export function compileCriteria(criteria: Json): Predicate[] {
  const out: Predicate[] = [];
  for (const [key, value] of Object.entries(criteria)) {
    if (value === undefined || value === null) continue;
    if (key === 'compAddress') continue;
    if (key === 'query') {
      if (typeof value !== 'string') throw badRequest('searchCriteria.query must be a string.');
      out.push(queryPredicate(value));
    } else if (key === 'quickList') {
      const [name] = quickListNames(value, key);
      out.push((p) => onQuickList(p, name!));
    } else if (key === 'quickLists') {
      const names = quickListNames(value, key);
      out.push((p) => names.every((n) => onQuickList(p, n)));
    } else if (key === 'orQuickLists') {
      const names = quickListNames(value, key);
      out.push((p) => names.some((n) => onQuickList(p, n)));
    } else if (FIELDS[key]) {
      if (!isObject(value)) throw badRequest(`searchCriteria.${key} must be an object.`);
      for (const [name, op] of Object.entries(value)) out.push(compileField(key, name, op));
    } else {
      throw badRequest(`Unknown search criterion "${key}".`);
    }
  }
  return out;
}

export interface CompOptions {
  useDistance: boolean;
  distanceMiles: number;
  useBedrooms: boolean;
  minBedrooms: number;
  maxBedrooms: number;
  useBathrooms: boolean;
  minBathrooms: number;
  maxBathrooms: number;
  useArea: boolean;
  minAreaPercent: number;
  maxAreaPercent: number;
  useYearBuilt: boolean;
  minYearBuilt: number;
  maxYearBuilt: number;
  useLotSize: boolean;
  minLotSizePercent: number;
  maxLotSizePercent: number;
}

const MILES_PER: Record<string, number> = { distanceMiles: 1, distanceYards: 1 / 1760, distanceFeet: 1 / 5280, distanceKilometers: 0.621371, distanceMeters: 0.000621371 };

/**
 * The comparable options with BatchData's documented defaults (docs/vendors/batchdata.md#property-search options): distance
 * on, 1 mile; bedrooms on, -1/+1; area on, -20/+20 %; year built on, -10/+10; bathrooms off. Lot
 * size is off by default as documented; its percentages are undocumented, the twin takes -30/+30.
 */
export function compOptions(o: Json): CompOptions {
  const bool = (k: string, d: boolean) => {
    const v = o[k];
    if (v === undefined) return d;
    if (typeof v !== 'boolean') throw badRequest(`options.${k} must be true or false.`);
    return v;
  };
  const n = (k: string, d: number) => {
    const v = o[k];
    if (v === undefined) return d;
    if (typeof v !== 'number' || !Number.isFinite(v)) throw badRequest(`options.${k} must be a number.`);
    return v;
  };
  const unit = Object.keys(MILES_PER).find((k) => o[k] !== undefined);
  const distanceMiles = unit ? n(unit, 1) * MILES_PER[unit]! : 1;
  if (!(distanceMiles > 0)) throw badRequest('options.distanceMiles must be greater than 0.');
  return {
    useDistance: bool('useDistance', true), distanceMiles,
    useBedrooms: bool('useBedrooms', true), minBedrooms: n('minBedrooms', -1), maxBedrooms: n('maxBedrooms', 1),
    useBathrooms: bool('useBathrooms', false), minBathrooms: n('minBathrooms', -1), maxBathrooms: n('maxBathrooms', 1),
    useArea: bool('useArea', true), minAreaPercent: n('minAreaPercent', -20), maxAreaPercent: n('maxAreaPercent', 20),
    useYearBuilt: bool('useYearBuilt', true), minYearBuilt: n('minYearBuilt', -10), maxYearBuilt: n('maxYearBuilt', 10),
    useLotSize: bool('useLotSize', false), minLotSizePercent: n('minLotSizePercent', -30), maxLotSizePercent: n('maxLotSizePercent', 30),
  };
}

/** The subject of a comparables search, by its address (the same matching as a lookup). */
export function compSubject(compAddress: unknown): Core {
  if (!isObject(compAddress)) throw badRequest('searchCriteria.compAddress must be an object {street, city, state, zip}.');
  const a = compAddress as { street?: unknown; city?: unknown; state?: unknown; zip?: unknown };
  for (const k of ['street', 'city', 'state', 'zip'] as const) if (typeof a[k] !== 'string' || (a[k] as string).trim() === '') throw badRequest(`searchCriteria.compAddress.${k} is required.`);
  const subject = dataset().byAddress.get(addressKey(a as { street: string; city: string; state: string; zip: string }));
  if (!subject) throw notFound(`No property found at the comparable address "${a.street}, ${a.city}, ${a.state} ${a.zip}".`);
  return subject;
}

/** The comparables criteria around `s`, each switched by its option; the subject itself never is its own comparable. */
export function compPredicates(s: Core, o: CompOptions): Predicate[] {
  const out: Predicate[] = [(p) => p !== s];
  const within = (v: number | null, base: number | null, lo: number, hi: number) => v !== null && base !== null && v >= base + lo && v <= base + hi;
  const pct = (v: number, base: number, lo: number, hi: number) => v > 0 && base > 0 && v >= base * (1 + lo / 100) && v <= base * (1 + hi / 100);
  if (o.useDistance) out.push((p) => milesBetween(s, p) <= o.distanceMiles);
  if (o.useBedrooms) out.push((p) => within(p.beds, s.beds, o.minBedrooms, o.maxBedrooms));
  if (o.useBathrooms) out.push((p) => within(p.baths, s.baths, o.minBathrooms, o.maxBathrooms));
  if (o.useArea) out.push((p) => pct(p.sqft, s.sqft, o.minAreaPercent, o.maxAreaPercent));
  if (o.useYearBuilt) out.push((p) => within(p.yearBuilt, s.yearBuilt, o.minYearBuilt, o.maxYearBuilt));
  if (o.useLotSize) out.push((p) => pct(p.lotSqft, s.lotSqft, o.minLotSizePercent, o.maxLotSizePercent));
  return out;
}

/**
 * `aggComparablesMetrics` over the comparables returned (not documented beyond its three names):
 * the average last-sale price, the average of each sale's price per living square foot, and the
 * average of the comparables' estimated values.
 */
export function compMetrics(comps: readonly Core[]): { averagePrice: number; averagePricePerSqft: number; estimatedValue: number } {
  const sold = comps.filter((p) => p.lastSalePrice !== null);
  const perSqft = sold.filter((p) => p.sqft > 0);
  const averagePrice = sold.length ? Math.round(sold.reduce((s, p) => s + p.lastSalePrice!, 0) / sold.length) : 0;
  const averagePricePerSqft = perSqft.length ? Math.round((perSqft.reduce((s, p) => s + p.lastSalePrice! / p.sqft, 0) / perSqft.length) * 100) / 100 : 0;
  const estimatedValue = comps.length ? Math.round(comps.reduce((s, p) => s + p.estimatedValue, 0) / comps.length) : 0;
  return { averagePrice, averagePricePerSqft, estimatedValue };
}
