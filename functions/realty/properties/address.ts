import { invalidParameter } from '../../../shared/core/errors';
import type { BdLookupAddress, BdLookupRequest, BdPartialAddress } from '../wire';

/**
 * Addresses as BatchData matches them: USPS style ("622 W Palmaire Ave, Phoenix, AZ 85021").
 * The service abbreviates directions and street suffixes written out in full, collapses spaces and
 * upper-cases the state before sending, and says which normalised address it tried when nothing
 * matches.
 */

const DIRECTIONALS: Record<string, string> = {
  NORTH: 'N', SOUTH: 'S', EAST: 'E', WEST: 'W', NORTHEAST: 'NE', NORTHWEST: 'NW', SOUTHEAST: 'SE', SOUTHWEST: 'SW',
};

// USPS Publication 28 suffix abbreviations, the common ones.
const SUFFIXES: Record<string, string> = {
  STREET: 'St', AVENUE: 'Ave', AV: 'Ave', ROAD: 'Rd', DRIVE: 'Dr', LANE: 'Ln', COURT: 'Ct', PLACE: 'Pl', BOULEVARD: 'Blvd', CIRCLE: 'Cir',
  TERRACE: 'Ter', PARKWAY: 'Pkwy', HIGHWAY: 'Hwy', TRAIL: 'Trl', SQUARE: 'Sq', LOOP: 'Loop', WAY: 'Way', EXPRESSWAY: 'Expy', FREEWAY: 'Fwy',
};

const squash = (s: string) => s.replace(/[,]+/g, ' ').replace(/\.(?=\s|$)/g, '').replace(/\s+/g, ' ').trim();

/** "622 west palmaire avenue" → "622 W palmaire Ave": directions and suffix abbreviated, the rest kept as written. */
export function normaliseStreet(street: string): string {
  const words = squash(street).split(' ');
  const upper = (w: string) => w.toUpperCase();
  // The street may come without its house number (a search by street name).
  const first = /^\d/.test(words[0] ?? '') ? 1 : 0;
  // A direction right after the house number, or as the last word ("… Ave NW").
  if (words.length > first + 1 && DIRECTIONALS[upper(words[first]!)]) words[first] = DIRECTIONALS[upper(words[first]!)]!;
  let last = words.length - 1;
  if (last > first + 1 && DIRECTIONALS[upper(words[last]!)]) {
    words[last] = DIRECTIONALS[upper(words[last]!)]!;
    last--;
  }
  if (last > first && SUFFIXES[upper(words[last]!)]) words[last] = SUFFIXES[upper(words[last]!)]!;
  return words.join(' ');
}

export function normaliseAddress(a: BdLookupAddress): BdLookupAddress;
export function normaliseAddress(a: BdPartialAddress): BdPartialAddress;
export function normaliseAddress(a: BdPartialAddress): BdPartialAddress {
  // Only the four parts: an input object carrying other keys gives its address alone.
  return {
    street: normaliseStreet(a.street),
    ...(a.city !== undefined ? { city: squash(a.city) } : {}),
    ...(a.state !== undefined ? { state: a.state.trim().toUpperCase() } : {}),
    ...(a.zip !== undefined ? { zip: a.zip.trim() } : {}),
  };
}

export const formatAddress = (a: { street?: string | null; city?: string | null; state?: string | null; zip?: string | null }) =>
  [a.street, [a.city, [a.state, a.zip].filter(Boolean).join(' ')].filter(Boolean).join(', ')].filter(Boolean).join(', ');

// State FIPS codes (the first two digits of a county FIPS code) → USPS state codes.
const STATE_FIPS: Record<string, string> = Object.fromEntries(
  ('01AL 02AK 04AZ 05AR 06CA 08CO 09CT 10DE 11DC 12FL 13GA 15HI 16ID 17IL 18IN 19IA 20KS 21KY 22LA 23ME 24MD 25MA 26MI 27MN 28MS 29MO 30MT ' +
    '31NE 32NV 33NH 34NJ 35NM 36NY 37NC 38ND 39OH 40OK 41OR 42PA 44RI 45SC 46SD 47TN 48TX 49UT 50VT 51VA 53WA 54WV 55WI 56WY 72PR')
    .split(' ')
    .map((s) => [s.slice(0, 2), s.slice(2)]),
);

export interface PropertyIdentity {
  street?: string;
  city?: string;
  state?: string;
  zip?: string;
  property_id?: string;
  apn?: string;
  county_fips_code?: string;
}

/** How the property was asked for, and what the caller can be told was tried. */
export interface Identified {
  request: BdLookupRequest;
  /** "622 W Palmaire Ave, Phoenix, AZ 85021", "property id …", "APN … in county 04013". */
  tried: string;
}

const ADDRESS_PARTS = ['street', 'city', 'state', 'zip'] as const;

/** The forms of an address BatchData's lookup matches (street with zip, or with city and state). */
const ADDRESS_FORMS = 'street with zip, or street with city and state (all four is best)';

/**
 * Exactly one of the three ways to name a property: an address as BatchData takes it (street with
 * zip, or street with city and state), `property_id`, or `apn` with `county_fips_code`. An address
 * that is neither names exactly what is missing.
 */
export function identify(input: PropertyIdentity): Identified {
  const given = ADDRESS_PARTS.filter((k) => input[k] !== undefined);
  const modes = [given.length ? 'address' : null, input.property_id !== undefined ? 'property_id' : null, input.apn !== undefined || input.county_fips_code !== undefined ? 'apn' : null].filter(
    (m): m is string => m !== null,
  );
  const how = 'an address (street with zip, or street with city and state), or property_id, or apn + county_fips_code';
  if (modes.length === 0) throw invalidParameter('street', how, `Name the property one way: ${how}.`);
  if (modes.length > 1) {
    const first = modes[1] === 'property_id' ? 'property_id' : 'apn';
    throw invalidParameter(first, `exactly one of: ${how}`, `Name the property one way only; got ${modes.join(' and ')}. Pass ${how}.`, { modes });
  }
  if (modes[0] === 'address') {
    const address = normaliseAddress(completeAddress(input));
    return { request: { address }, tried: formatAddress(address) };
  }
  if (modes[0] === 'property_id') return { request: { propertyId: input.property_id! }, tried: `property id ${input.property_id}` };
  if (input.apn === undefined) throw invalidParameter('apn', 'the APN (parcel number) that goes with county_fips_code', 'county_fips_code alone does not name a property: add apn, the parcel number.');
  if (input.county_fips_code === undefined) {
    throw invalidParameter('county_fips_code', 'a 5-digit county FIPS code, e.g. "04013"', 'An APN is unique only within its county: add county_fips_code, e.g. "04013" for Maricopa County, AZ.');
  }
  const state = STATE_FIPS[input.county_fips_code.slice(0, 2)];
  if (!state) throw invalidParameter('county_fips_code', 'a 5-digit county FIPS code whose first two digits are a US state', `"${input.county_fips_code}" does not start with a US state's FIPS code.`);
  return {
    request: { apn: input.apn, countyFipsCode: input.county_fips_code, address: { state } },
    tried: `APN ${input.apn} in county ${input.county_fips_code} (${state})`,
  };
}

/**
 * An address as BatchData's lookup takes it: street with zip, or street with city and state. Else
 * INVALID_PARAMETER naming the first missing part and every part that would complete it.
 */
export function completeAddress(input: PropertyIdentity): BdPartialAddress {
  const { street, city, state, zip } = input;
  const missing = (parts: string[], why: string) =>
    invalidParameter(parts[0]!, ADDRESS_FORMS, `The address is incomplete: ${why}. An address lookup takes ${ADDRESS_FORMS}.`, { missing: parts });
  if (street === undefined) throw missing(['street'], `street is missing (${[city, state, zip].filter((v) => v !== undefined).length ? 'city, state and zip alone do not name a property' : 'no address part given'})`);
  if (zip === undefined && (city === undefined || state === undefined)) {
    const lacking = [...(city === undefined ? ['city'] : []), ...(state === undefined ? ['state'] : [])];
    throw missing(['zip', ...lacking], `with street, give zip, or city and state — ${lacking.join(' and ')} ${lacking.length > 1 ? 'are' : 'is'} missing and so is zip`);
  }
  return { street, ...(city !== undefined ? { city } : {}), ...(state !== undefined ? { state } : {}), ...(zip !== undefined ? { zip } : {}) };
}
