import type { BdCompMetrics, BdProperty } from '../wire';

/**
 * The comparable criteria of comparableProperty. BatchData documents its defaults for distance
 * (1 mile), bedrooms (-1/+1), living area (-20/+20 %) and year built (-10/+10), used as they are;
 * lot size has no documented default, so the service takes -30/+30 %. Every option is
 * sent explicitly, so the answer never depends on an account's defaults.
 */
export const COMP_CRITERIA = { distanceMiles: 1, bedrooms: 1, yearBuilt: 10, areaPercent: 20, lotSizePercent: 30 } as const;

export interface CompSwitches {
  use_distance: boolean;
  use_bedrooms: boolean;
  use_year_built: boolean;
  use_area: boolean;
  use_lot_size: boolean;
}

/** BatchData's comparable `options` for the switches (docs/vendors/batchdata.md#property-search). */
export function compOptions(s: CompSwitches): Record<string, unknown> {
  const c = COMP_CRITERIA;
  return {
    useDistance: s.use_distance, ...(s.use_distance ? { distanceMiles: c.distanceMiles } : {}),
    useBedrooms: s.use_bedrooms, ...(s.use_bedrooms ? { minBedrooms: -c.bedrooms, maxBedrooms: c.bedrooms } : {}),
    useYearBuilt: s.use_year_built, ...(s.use_year_built ? { minYearBuilt: -c.yearBuilt, maxYearBuilt: c.yearBuilt } : {}),
    useArea: s.use_area, ...(s.use_area ? { minAreaPercent: -c.areaPercent, maxAreaPercent: c.areaPercent } : {}),
    useLotSize: s.use_lot_size, ...(s.use_lot_size ? { minLotSizePercent: -c.lotSizePercent, maxLotSizePercent: c.lotSizePercent } : {}),
  };
}

/** "within 1 mile, bedrooms ±1, year built ±10, living area ±20 %, lot size ±30 %" — or "no criteria". */
export function compCriteriaText(s: CompSwitches): string {
  const c = COMP_CRITERIA;
  const parts = [
    s.use_distance ? `within ${c.distanceMiles} mile` : '',
    s.use_bedrooms ? `bedrooms ±${c.bedrooms}` : '',
    s.use_year_built ? `year built ±${c.yearBuilt}` : '',
    s.use_area ? `living area ±${c.areaPercent} %` : '',
    s.use_lot_size ? `lot size ±${c.lotSizePercent} %` : '',
  ].filter(Boolean);
  return parts.length ? parts.join(', ') : 'no criteria';
}

const avg = (xs: number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : 0);

/**
 * The aggregated metrics of the comparables returned (BatchData's `aggComparablesMetrics` names):
 * average last-sale price, average sale price per living square foot, average estimated value.
 * Comparables without a sale (or without living area) are left out of the averages that need it.
 */
export function compMetrics(comps: readonly BdProperty[]): BdCompMetrics {
  const prices = comps.map((p) => p.sale?.lastSale?.price).filter((x): x is number => typeof x === 'number');
  const perSqft = comps
    .map((p) => {
      const price = p.sale?.lastSale?.price;
      const area = p.building?.livingAreaSquareFeet ?? p.building?.totalBuildingAreaSquareFeet;
      return typeof price === 'number' && area ? price / area : undefined;
    })
    .filter((x): x is number => x !== undefined);
  const values = comps.map((p) => p.valuation?.estimatedValue).filter((x): x is number => typeof x === 'number');
  return { averagePrice: Math.round(avg(prices)), averagePricePerSqft: Math.round(avg(perSqft) * 100) / 100, estimatedValue: Math.round(avg(values)) };
}
