import { plural } from '../../shared/core/render';
import { flaggedQuickLists, QUICK_LIST_NAMES, quickListOfWire, type QuickListName } from './params';
import { formatAddress } from './properties/address';
import type { BdProperty } from './wire';

/** Text pieces of the realty tools: one line per property, money, quick lists. */

const n = (x: number) => x.toLocaleString('en-US', { maximumFractionDigits: 2 });
/** $412,000; cents only when there are some ($2,207.20). */
export const usd = (x: number) => `$${Number.isInteger(x) ? n(x) : x.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

const has = <T>(x: T | undefined | null): x is T => x !== undefined && x !== null;

/** "622 W Palmaire Ave, Phoenix, AZ 85021" from a record. */
export const recordAddress = (p: BdProperty) => formatAddress(p.address ?? {});

/** "3 bd/2 ba, 1,470 sqft, built 2010": the building in a few words (vacant land has none). */
export function buildingText(p: BdProperty): string {
  const b = p.building;
  if (!b) return '';
  const rooms = [has(b.bedroomCount) ? `${b.bedroomCount} bd` : '', has(b.bathroomCount) ? `${b.bathroomCount} ba` : ''].filter(Boolean).join('/');
  const area = b.livingAreaSquareFeet ?? b.totalBuildingAreaSquareFeet;
  return [rooms, has(area) ? `${n(area)} sqft` : '', has(b.yearBuilt) ? `built ${b.yearBuilt}` : ''].filter(Boolean).join(', ');
}

/** The service's quick-list names a record is on ("absentee_owner, high_equity"). */
export const quickListText = (p: BdProperty) => flaggedQuickLists(p.quickLists).join(', ');

/**
 * One property on one line, id first: address (county), type, building, estimated and assessed
 * value, then the quick lists it is on — every field searchProperties filters on.
 * `#66a1… 622 W Palmaire Ave, Phoenix, AZ 85021 (Maricopa) — Single Family Residential, 3 bd/2 ba, 1,450 sqft, built 1962, est. $412,000, assessed $41,200 · absentee_owner`
 */
export function propertyLine(p: BdProperty, extra: string[] = []): string {
  const county = p.address?.county ? ` (${p.address.county})` : '';
  const facts = [
    p.general?.propertyTypeDetail ?? p.general?.propertyTypeCategory,
    buildingText(p),
    ...extra,
    has(p.valuation?.estimatedValue) ? `est. ${usd(p.valuation.estimatedValue)}` : '',
    has(p.assessment?.totalAssessedValue) ? `assessed ${usd(p.assessment.totalAssessedValue)}` : '',
  ].filter(Boolean);
  const lists = quickListText(p);
  return `#${p._id} ${recordAddress(p)}${county}${facts.length ? ` — ${facts.join(', ')}` : ''}${lists ? ` · ${lists}` : ''}`;
}

/** "quick lists: absentee_owner 1,634, preforeclosure 119" — the service's lists with a count above 0. */
export function quickListCountsText(counts: { name: string; count: number }[] | undefined, of: number): string {
  if (!counts) return '';
  const ours = new Map<QuickListName, number>();
  for (const c of counts) {
    const name = quickListOfWire(c.name);
    if (name && c.count > 0) ours.set(name, c.count);
  }
  if (ours.size === 0) return `quick lists: none of the ${plural(of, 'match', 'matches')} is on one`;
  return `quick lists among the ${plural(of, 'match', 'matches')}: ${QUICK_LIST_NAMES.filter((q) => ours.has(q)).map((q) => `${q} ${n(ours.get(q)!)}`).join(', ')}`;
}
