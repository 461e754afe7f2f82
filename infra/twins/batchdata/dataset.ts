import { prng } from '../kit';
import { COUNTIES, DIRECTIONS, FIRST_NAMES, LAST_NAMES, OUT_OF_STATE_MAIL, STREET_NAMES, STREET_SUFFIXES, type City, type County } from './geography';

/**
 * The twin's dataset: 12,000 synthetic properties in four counties, generated from a fixed seed
 * the first time a twin needs it and then shared, read-only, by every twin of the process (a twin
 * is built in microseconds; the dataset once, in a few hundred ms). Each property is kept as a
 * compact core (what searches filter on and quick lists derive from); its full BatchData record
 * (deed history, mortgages, owner profile…) is built from the core and the property's own seed
 * only when an answer carries it (record.ts), so the same property always reads the same.
 */

/** The day the synthetic data is "as of" (valuations, recent sales, ages): fixed, so data never drifts with the clock. */
export const AS_OF = '2025-10-01';
const AS_OF_MS = Date.parse(`${AS_OF}T00:00:00Z`);
const DAY = 86_400_000;

export type OwnerType = 'Individual' | 'Corporate' | 'Trust';
export type ListingStatus = 'Active' | 'Pending' | 'Expired' | 'Canceled';

export interface PropertyType {
  category: 'Residential' | 'Commercial' | 'Office' | 'Vacant Land';
  detail: string;
  landUseCode: string;
  share: number;
}

export const PROPERTY_TYPES: readonly PropertyType[] = [
  { category: 'Residential', detail: 'Single Family Residential', landUseCode: '1001', share: 0.68 },
  { category: 'Residential', detail: 'Condominium', landUseCode: '1004', share: 0.1 },
  { category: 'Residential', detail: 'Townhouse', landUseCode: '1003', share: 0.07 },
  { category: 'Residential', detail: 'Duplex', landUseCode: '1101', share: 0.04 },
  { category: 'Residential', detail: 'Triplex', landUseCode: '1102', share: 0.01 },
  { category: 'Residential', detail: 'Mobile/Manufactured Home', landUseCode: '1009', share: 0.03 },
  { category: 'Vacant Land', detail: 'Residential Vacant Land', landUseCode: '8001', share: 0.04 },
  { category: 'Commercial', detail: 'Retail', landUseCode: '2001', share: 0.02 },
  { category: 'Office', detail: 'Office Building', landUseCode: '2301', share: 0.01 },
];

/** What searches filter on and quick lists derive from; record.ts builds the full record from it. */
export interface Core {
  index: number;
  id: string;
  /** The property's own seed: its record's details come from prng(seed). */
  seed: number;
  houseNumber: string;
  /** `W Palmaire Ave`: the street without the house number. */
  streetName: string;
  street: string;
  city: string;
  state: string;
  zip: string;
  zipPlus4: string;
  county: string;
  fips: string;
  countyRef: County;
  lat: number;
  lng: number;
  apn: string;
  type: PropertyType;
  beds: number;
  baths: number;
  fullBaths: number;
  halfBaths: number;
  /** Living area; 0 for vacant land. */
  sqft: number;
  stories: number;
  units: number;
  yearBuilt: number | null;
  lotSqft: number;
  pool: boolean;
  garageSpaces: number;
  estimatedValue: number;
  assessedValue: number;
  marketValue: number;
  taxAmount: number;
  lastSaleDate: string | null;
  lastSalePrice: number | null;
  lastSaleDocument: string | null;
  priorSaleDate: string | null;
  priorSalePrice: number | null;
  cashPurchase: boolean;
  mortgageBalance: number;
  mortgageOriginal: number;
  ownerType: OwnerType;
  ownerFirst: string;
  ownerLast: string;
  ownerName: string;
  ownerOccupied: boolean;
  mailing: { street: string; city: string; state: string; zip: string };
  mailingVacant: boolean;
  seniorOwner: boolean;
  vacant: boolean;
  preforeclosure: boolean;
  foreclosureRecording: string | null;
  auctionDate: string | null;
  bankOwned: boolean;
  taxDelinquentYear: number | null;
  judgmentLien: boolean;
  hoaLien: boolean;
  mechanicsLien: boolean;
  hasHoa: boolean;
  hoaFee: number;
  listing: ListingStatus | null;
  listPrice: number | null;
  fsbo: boolean;
  inherited: boolean;
  equity: number;
  equityPercent: number;
}

export interface Dataset {
  properties: readonly Core[];
  byId: ReadonlyMap<string, Core>;
  /** By normalised `street|city|state|zip` (addressKey). */
  byAddress: ReadonlyMap<string, Core>;
  /** By `fips|apn`, the APN without separators. */
  byApn: ReadonlyMap<string, Core>;
  counties: readonly County[];
}

let built: Dataset | undefined;

/** Whether the dataset has been built in this process (twins build it on their first request, not when made). */
export const datasetBuilt = () => built !== undefined;

/** The one dataset of the process, built on first use. */
export function dataset(): Dataset {
  return (built ??= generate(20251001));
}

/** Upper case, punctuation dropped, spaces collapsed: how the twin compares address parts (the service sends USPS abbreviations). */
export const normalisePart = (s: string) => s.toUpperCase().replace(/[.,#]/g, ' ').replace(/\s+/g, ' ').trim();
export const addressKey = (a: { street: string; city: string; state: string; zip: string }) =>
  [a.street, a.city, a.state, a.zip.slice(0, 5)].map(normalisePart).join('|');
export const apnKey = (fips: string, apn: string) => `${fips}|${apn.replace(/[^0-9A-Za-z]/g, '').toUpperCase()}`;

/** A YYYY-MM-DD date `days` before the as-of day. */
const daysAgo = (days: number) => new Date(AS_OF_MS - days * DAY).toISOString().slice(0, 10);
const roundTo = (n: number, step: number) => Math.round(n / step) * step;

function pickWeighted<T extends { share: number }>(r: () => number, xs: readonly T[]): T {
  let x = r();
  for (const t of xs) if ((x -= t.share) < 0) return t;
  return xs[xs.length - 1]!;
}

function apnOf(pattern: string, int: (a: number, b: number) => number): string {
  return pattern.replace(/#/g, () => String(int(0, 9)));
}

/** A 24-hex-digit id in the shape of BatchData's `_id` (a Mongo ObjectId), derived from the index. */
function objectId(index: number): string {
  let out = '';
  let h = (index + 1) * 0x9e3779b1;
  for (let i = 0; i < 3; i++) {
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    h ^= h >>> 16;
    out += (h >>> 0).toString(16).padStart(8, '0');
    h += index + i * 0x632be5ab;
  }
  return out;
}

interface Street {
  name: string;
  lat: number;
  lng: number;
  /** Unit step per house in degrees (lat, lng). */
  dLat: number;
  dLng: number;
  firstNumber: number;
  houses: number;
  /** Streets are built out together: the year houses on it were built around, and their typical lot. */
  era: number;
  lot: number;
}

function generate(seed: number): Dataset {
  const r = prng(seed);
  const properties: Core[] = [];
  for (const county of COUNTIES) {
    const total = county.cities.reduce((s, c) => s + c.weight, 0);
    let left = county.properties;
    county.cities.forEach((city, i) => {
      const n = i === county.cities.length - 1 ? left : Math.round((county.properties * city.weight) / total);
      left -= n;
      generateCity(r, county, city, n, properties);
    });
  }
  const byId = new Map<string, Core>();
  const byAddress = new Map<string, Core>();
  const byApn = new Map<string, Core>();
  for (const p of properties) {
    byId.set(p.id, p);
    byAddress.set(addressKey(p), p);
    byApn.set(apnKey(p.fips, p.apn), p);
  }
  return { properties, byId, byAddress, byApn, counties: COUNTIES };
}

function generateCity(r: ReturnType<typeof prng>, county: County, city: City, count: number, out: Core[]): void {
  const lngScale = 1 / Math.cos((city.lat * Math.PI) / 180);
  const centroids = city.zips.map((zip) => ({ zip, lat: city.lat + (r.next() * 2 - 1) * city.radius * 0.7, lng: city.lng + (r.next() * 2 - 1) * city.radius * 0.7 * lngScale }));
  const used = new Set<string>();
  let made = 0;
  let numbered = 1;
  while (made < count) {
    // A street: a straight run of houses on a grid line, numbered outward from the centre (as US grids are).
    const dir = r.pick(DIRECTIONS);
    let name = `${r.pick(STREET_NAMES)} ${r.pick(STREET_SUFFIXES)}`;
    if (used.has(name)) name = `${ordinal(numbered++)} ${r.pick(['St', 'Ave'])}`;
    used.add(name);
    const eastWest = dir === 'E' || dir === 'W';
    const along = r.next() * city.radius * 0.9;
    const across = (r.next() * 2 - 1) * city.radius;
    const sign = dir === 'W' || dir === 'S' ? -1 : 1;
    const step = 0.00022;
    const street: Street = {
      name: city.directional ? `${dir} ${name}` : name,
      lat: city.lat + (eastWest ? across : sign * along),
      lng: city.lng + (eastWest ? sign * along : across) * lngScale,
      dLat: eastWest ? 0 : sign * step,
      dLng: eastWest ? sign * step * lngScale : 0,
      firstNumber: 100 + roundTo((along / city.radius) * 9000, 100),
      houses: Math.min(count - made, r.int(12, 48)),
      era: r.int(1925, 2020),
      lot: r.int(4500, 11000),
    };
    for (let h = 0; h < street.houses; h++) {
      // Odd numbers on one side, even on the other: two houses share a position along the street.
      const pos = Math.floor(h / 2);
      const lat = street.lat + street.dLat * pos + (h % 2 ? 0.00008 : -0.00008) * (eastWest ? 1 : 0);
      const lng = street.lng + street.dLng * pos + (h % 2 ? 0.00008 : -0.00008) * (eastWest ? 0 : lngScale);
      const houseNumber = String(street.firstNumber + pos * 4 + (h % 2));
      const zip = centroids.reduce((best, c) => ((c.lat - lat) ** 2 + ((c.lng - lng) / lngScale) ** 2 < (best.lat - lat) ** 2 + ((best.lng - lng) / lngScale) ** 2 ? c : best)).zip;
      out.push(makeCore(r, out.length, county, city, street, houseNumber, zip, lat, lng));
      made++;
    }
  }
}

function ordinal(n: number): string {
  const s = n % 100 >= 11 && n % 100 <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th';
  return `${n}${s}`;
}

function makeCore(r: ReturnType<typeof prng>, index: number, county: County, city: City, street: Street, houseNumber: string, zip: string, lat: number, lng: number): Core {
  const streetName = street.name;
  const type = pickWeighted(r.next, PROPERTY_TYPES);
  const land = type.category === 'Vacant Land';
  const residential = type.category === 'Residential';
  const units = type.detail === 'Duplex' ? 2 : type.detail === 'Triplex' ? 3 : 1;
  const beds = land ? 0 : !residential ? 0 : type.detail === 'Condominium' ? r.int(1, 3) : units > 1 ? units * r.int(2, 3) : r.int(2, 5);
  const fullBaths = land || !residential ? (land ? 0 : r.int(1, 4)) : Math.max(1, Math.min(beds, r.int(1, 3)));
  const halfBaths = land ? 0 : r.chance(0.35) ? 1 : 0;
  const baths = fullBaths + halfBaths * 0.5;
  const sqft = land
    ? 0
    : !residential
      ? roundTo(r.int(2500, 18000), 10)
      : roundTo(beds * r.int(330, 560) + r.int(200, 700), 10);
  const yearBuilt = land ? null : r.chance(0.06) ? r.int(2015, 2024) : Math.min(2024, street.era + r.int(-5, 5));
  const stories = land ? 0 : type.detail === 'Townhouse' ? 2 : sqft > 2400 ? r.int(1, 2) : 1;
  const lotSqft = type.detail === 'Condominium' ? roundTo(r.int(800, 2500), 10) : land ? roundTo(r.int(5000, 45000), 10) : roundTo(street.lot * (0.85 + r.next() * 0.3), 10);
  const age = yearBuilt ? 2025 - yearBuilt : 0;
  const condition = 0.82 + r.next() * 0.36;
  const ageFactor = age < 10 ? 1.12 : age > 60 ? 0.92 : 1;
  const estimatedValue = land
    ? roundTo(lotSqft * city.pricePerSqft * 0.12 * condition, 1000)
    : roundTo(sqft * city.pricePerSqft * (residential ? 1 : 0.8) * condition * ageFactor + lotSqft * city.pricePerSqft * 0.02, 1000);
  const marketValue = roundTo(estimatedValue * (0.82 + r.next() * 0.12), 100);
  const assessedValue = roundTo(marketValue * county.assessmentRatio, 10);
  const taxAmount = Math.round(marketValue * county.taxRate * 100) / 100;

  // Ownership and the last sale.
  const ownerType: OwnerType = land || !residential ? (r.chance(0.7) ? 'Corporate' : 'Individual') : r.chance(0.09) ? 'Corporate' : r.chance(0.06) ? 'Trust' : 'Individual';
  const ownerFirst = r.pick(FIRST_NAMES);
  const ownerLast = r.pick(LAST_NAMES);
  let ownerName =
    ownerType === 'Corporate'
      ? `${ownerLast} ${r.pick(['Holdings', 'Properties', 'Investments', 'Capital', 'Realty'])} LLC`
      : ownerType === 'Trust'
        ? `${ownerLast} Family Trust`
        : `${ownerFirst} ${ownerLast}`;
  const yearsOwned = r.chance(0.25) ? r.int(0, 3) + r.next() : r.int(3, 30) + r.next();
  const saleDaysAgo = Math.round(yearsOwned * 365.25);
  const hasSale = r.chance(0.96);
  const lastSaleDate = hasSale ? daysAgo(saleDaysAgo) : null;
  const lastSalePrice = hasSale ? roundTo(estimatedValue / 1.045 ** yearsOwned * (0.9 + r.next() * 0.2), 500) : null;
  const flip = hasSale && yearsOwned < 3 && r.chance(0.06);
  const priorSaleDate = hasSale && (flip || r.chance(0.6)) ? daysAgo(saleDaysAgo + (flip ? r.int(90, 360) : r.int(800, 5000))) : null;
  const priorSalePrice = priorSaleDate && lastSalePrice ? roundTo(lastSalePrice * (flip ? 0.68 + r.next() * 0.1 : 0.55 + r.next() * 0.3), 500) : null;
  const cashPurchase = hasSale && r.chance(ownerType === 'Corporate' ? 0.6 : 0.16);
  const bankOwned = residential && hasSale && yearsOwned < 2 && r.chance(0.04);
  if (bankOwned) ownerName = r.pick(['Wells Fargo Bank N.A.', 'U.S. Bank Trust N.A.', 'Federal National Mortgage Association', 'JPMorgan Chase Bank N.A.']);
  const owner: OwnerType = bankOwned ? 'Corporate' : ownerType;
  const ownerOccupied = owner !== 'Corporate' && residential && r.chance(owner === 'Trust' ? 0.6 : 0.72);

  // Mortgage: amortised down from the purchase loan; a few owners are under water (a second loan or a falling market).
  const mortgageOriginal = !cashPurchase && !bankOwned && lastSalePrice ? roundTo(lastSalePrice * (0.75 + r.next() * 0.2), 100) : 0;
  let mortgageBalance = mortgageOriginal ? roundTo(mortgageOriginal * Math.max(0, 1 - (yearsOwned / 30) * 0.85), 100) : 0;
  if (mortgageOriginal && r.chance(0.04)) mortgageBalance = roundTo(estimatedValue * (1.02 + r.next() * 0.2), 100);
  const equity = estimatedValue - mortgageBalance;
  const equityPercent = estimatedValue ? Math.round((equity / estimatedValue) * 100) : 0;

  // Mailing address: the property itself for owner-occupants; elsewhere in the county or out of state for absentees.
  const inState = r.chance(0.55);
  const away = r.pick(OUT_OF_STATE_MAIL);
  const mailing = ownerOccupied
    ? { street: `${houseNumber} ${streetName}`, city: city.name, state: county.state, zip }
    : inState
      ? { street: `${r.int(100, 9999)} ${r.pick(STREET_NAMES)} ${r.pick(STREET_SUFFIXES)}`, city: r.pick(county.cities).name, state: county.state, zip: r.pick(county.cities[0]!.zips) }
      : { street: `${r.int(100, 9999)} ${r.pick(STREET_NAMES)} ${r.pick(STREET_SUFFIXES)}`, city: away.city, state: away.state, zip: away.zip };

  // Distress: foreclosure notices on mortgaged homes, auctions, tax default, involuntary liens.
  const preforeclosure = mortgageBalance > 0 && r.chance(0.035);
  const foreclosureRecording = preforeclosure ? daysAgo(r.int(10, 240)) : null;
  const auctionDate = preforeclosure && r.chance(0.4) ? new Date(AS_OF_MS + r.int(7, 90) * DAY).toISOString().slice(0, 10) : null;
  const taxDelinquentYear = r.chance(0.03) ? r.int(2021, 2024) : null;
  const hasHoa = type.detail === 'Condominium' || type.detail === 'Townhouse' || (residential && r.chance(county.state === 'OH' ? 0.1 : 0.35));
  const listing: ListingStatus | null = r.chance(0.05) ? 'Active' : r.chance(0.015) ? 'Pending' : r.chance(0.015) ? 'Expired' : r.chance(0.01) ? 'Canceled' : null;

  return {
    index,
    id: objectId(index),
    seed: Math.floor(r.next() * 2 ** 31),
    houseNumber,
    streetName,
    street: `${houseNumber} ${streetName}`,
    city: city.name,
    state: county.state,
    zip,
    zipPlus4: String(r.int(1000, 9999)),
    county: county.name,
    fips: county.fips,
    countyRef: county,
    lat: Math.round(lat * 1e6) / 1e6,
    lng: Math.round(lng * 1e6) / 1e6,
    apn: apnOf(county.apnPattern, r.int),
    type,
    beds,
    baths,
    fullBaths,
    halfBaths,
    sqft,
    stories,
    units,
    yearBuilt,
    lotSqft,
    pool: !land && residential && r.chance(county.state === 'AZ' ? 0.35 : 0.08),
    garageSpaces: land ? 0 : type.detail === 'Condominium' ? r.int(0, 1) : r.int(0, 3),
    estimatedValue,
    assessedValue,
    marketValue,
    taxAmount,
    lastSaleDate,
    lastSalePrice,
    lastSaleDocument: !hasSale ? null : bankOwned ? "Trustee's Deed" : ownerType === 'Trust' ? 'Quit Claim Deed' : r.chance(0.8) ? 'Warranty Deed' : 'Grant Deed',
    priorSaleDate,
    priorSalePrice,
    cashPurchase,
    mortgageBalance,
    mortgageOriginal,
    ownerType: owner,
    ownerFirst,
    ownerLast,
    ownerName,
    ownerOccupied,
    mailing,
    mailingVacant: !ownerOccupied && r.chance(0.02),
    seniorOwner: owner === 'Individual' && yearsOwned > 20 && r.chance(0.5),
    vacant: !land && !ownerOccupied && r.chance(0.09),
    preforeclosure,
    foreclosureRecording,
    auctionDate,
    bankOwned,
    taxDelinquentYear,
    judgmentLien: r.chance(0.015),
    hoaLien: hasHoa && r.chance(0.025),
    mechanicsLien: !land && r.chance(0.008),
    hasHoa,
    hoaFee: hasHoa ? roundTo(r.int(40, 480), 5) : 0,
    listing,
    listPrice: listing ? roundTo(estimatedValue * (0.85 + r.next() * 0.3), 1000) : null,
    fsbo: listing === 'Active' && r.chance(0.1),
    inherited: owner !== 'Corporate' && hasSale && r.chance(0.02),
    equity,
    equityPercent,
  };
}

/** Days between the as-of day and a YYYY-MM-DD date (positive for past dates). */
export const daysBefore = (date: string) => Math.round((AS_OF_MS - Date.parse(`${date}T00:00:00Z`)) / DAY);
