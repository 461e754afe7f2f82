import { describe, expect, it } from 'vitest';
import { dataset, type Core } from '../../infra/twins/batchdata';
import { milesBetween } from '../../infra/twins/batchdata/geography';
import { harness } from '../helpers/harness';

const JSON_MODE = { query: 'format=json' };
const addressOf = (p: Core) => ({ street: p.street, city: p.city, state: p.state, zip: p.zip });

type Criterion = 'distance' | 'bedrooms' | 'year' | 'area' | 'lot';
const CRITERIA: Record<Criterion, (s: Core, p: Core) => boolean> = {
  distance: (s, p) => milesBetween(s, p) <= 1,
  bedrooms: (s, p) => Math.abs(p.beds - s.beds) <= 1,
  year: (s, p) => p.yearBuilt !== null && Math.abs(p.yearBuilt - s.yearBuilt!) <= 10,
  area: (s, p) => p.sqft >= s.sqft * 0.8 && p.sqft <= s.sqft * 1.2,
  lot: (s, p) => p.lotSqft >= s.lotSqft * 0.7 && p.lotSqft <= s.lotSqft * 1.3,
};
const NAMES = Object.keys(CRITERIA) as Criterion[];

/**
 * A single-family home in Columbus with at least 12 comparables under the default criteria, and
 * more with any one criterion dropped (so each switch shows). Found once, by brute force.
 */
let found: Core | undefined;
function subject(): Core {
  if (found) return found;
  const city = dataset().properties.filter((p) => p.city === 'Columbus');
  const count = (s: Core, on: Criterion[]) => city.filter((p) => p !== s && on.every((c) => CRITERIA[c](s, p))).length;
  found = city.find((s) => {
    if (s.type.detail !== 'Single Family Residential') return false;
    const base = count(s, NAMES);
    return base >= 12 && NAMES.every((off) => count(s, NAMES.filter((c) => c !== off)) > base);
  })!;
  return found;
}

const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('realty/comparableProperty', () => {
  it('sends every criterion explicitly (documented defaults; lot size ±30 %), take 10, nearest first', async () => {
    const h = await harness();
    const s = subject();
    const sent = h.recordRequests('realty');
    const r = await h.call('realty/comparableProperty', addressOf(s), JSON_MODE);
    expect(r.status).toBe(200);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ method: 'POST', path: '/api/v1/property/search' });
    expect(sent[0]!.body).toEqual({
      searchCriteria: { compAddress: addressOf(s) },
      options: {
        useDistance: true, distanceMiles: 1, useBedrooms: true, minBedrooms: -1, maxBedrooms: 1, useYearBuilt: true, minYearBuilt: -10, maxYearBuilt: 10,
        useArea: true, minAreaPercent: -20, maxAreaPercent: 20, useLotSize: true, minLotSizePercent: -30, maxLotSizePercent: 30, skip: 0, take: 10,
      },
    });
    const comps = r.body.data.results.properties;
    expect(comps).toHaveLength(10);
    let last = 0;
    for (const p of comps) {
      expect(p._id).not.toBe(s.id);
      expect(p.distance).toBeGreaterThanOrEqual(last);
      last = p.distance;
      expect(milesBetween(s, { lat: p.address.latitude, lng: p.address.longitude })).toBeLessThanOrEqual(1);
      expect(Math.abs(p.building.bedroomCount - s.beds)).toBeLessThanOrEqual(1);
      expect(Math.abs(p.building.yearBuilt - s.yearBuilt!)).toBeLessThanOrEqual(10);
      expect(p.lot.lotSizeSquareFeet).toBeGreaterThanOrEqual(s.lotSqft * 0.7);
      expect(p.lot.lotSizeSquareFeet).toBeLessThanOrEqual(s.lotSqft * 1.3);
    }
  });

  it('computes the aggregated metrics from the comparables returned', async () => {
    const h = await harness();
    const r = await h.call('realty/comparableProperty', { ...addressOf(subject()), take: 4 }, JSON_MODE);
    const comps = r.body.data.results.properties;
    expect(comps).toHaveLength(4);
    const sold = comps.filter((p: any) => p.sale?.lastSale?.price !== undefined);
    expect(r.body.data.results.meta.results.aggComparablesMetrics).toEqual({
      averagePrice: Math.round(avg(sold.map((p: any) => p.sale.lastSale.price))),
      averagePricePerSqft: Math.round(avg(sold.map((p: any) => p.sale.lastSale.price / p.building.livingAreaSquareFeet)) * 100) / 100,
      estimatedValue: Math.round(avg(comps.map((p: any) => p.valuation.estimatedValue))),
    });
    // Other page sizes, other metrics: they describe exactly the list returned.
    const more = await h.call('realty/comparableProperty', { ...addressOf(subject()), take: 12 }, JSON_MODE);
    expect(more.body.data.results.meta.results.aggComparablesMetrics).not.toEqual(r.body.data.results.meta.results.aggComparablesMetrics);
  });

  it('shows one line per comparable with its distance and sale, then the metrics and how many more there are', async () => {
    const h = await harness();
    const s = subject();
    const r = await h.call('realty/comparableProperty', { ...addressOf(s), take: 3 });
    const json = await h.call('realty/comparableProperty', { ...addressOf(s), take: 3 }, JSON_MODE);
    const lines = (r.body.data as string).split('\n');
    expect(lines[0]).toBe(`comparables of ${s.street}, ${s.city}, ${s.state} ${s.zip} (within 1 mile, bedrooms ±1, year built ±10, living area ±20 %, lot size ±30 %), nearest first:`);
    const comps = json.body.data.results.properties;
    comps.forEach((p: any, i: number) => {
      expect(lines[i + 1]).toMatch(new RegExp(`^#${p._id} ${p.address.street}, ${p.address.city}, OH ${p.address.zip} \\(Franklin\\) — .*, ${p.distance} mi away, (sold ${p.sale?.lastSale?.saleDate} \\$[\\d,]+|no sale on record), est\\. `));
    });
    const m = json.body.data.results.meta.results.aggComparablesMetrics;
    expect(lines[4]).toBe(`metrics of these 3 comparables: average sale price $${m.averagePrice.toLocaleString('en-US')}, average $${m.averagePricePerSqft.toLocaleString('en-US', { minimumFractionDigits: Number.isInteger(m.averagePricePerSqft) ? 0 : 2 })}/sqft, average estimated value $${m.estimatedValue.toLocaleString('en-US')}`);
    const found = json.body.data.results.meta.results.resultsFound;
    expect(lines[5]).toBe(`showing the nearest 3 of ${found} comparables — pass take ${found} for all of them`);
  });

  it('drops a criterion when its use_* switch is false: more comparables come back', async () => {
    const h = await harness();
    const s = subject();
    const sent = h.recordRequests('realty');
    const found = async (params: Record<string, unknown>) => (await h.call('realty/comparableProperty', { ...addressOf(s), ...params }, JSON_MODE)).body.data.results.meta.results.resultsFound as number;
    const all = await found({});
    for (const [flag, option] of [['use_distance', 'useDistance'], ['use_bedrooms', 'useBedrooms'], ['use_year_built', 'useYearBuilt'], ['use_area', 'useArea'], ['use_lot_size', 'useLotSize']] as const) {
      sent.length = 0;
      const n = await found({ [flag]: false });
      expect(sent[0]!.body.options[option], flag).toBe(false);
      expect(n, flag).toBeGreaterThan(all);
    }
    const r = await h.call('realty/comparableProperty', { ...addressOf(s), use_distance: false, use_lot_size: false, take: 1 });
    expect((r.body.data as string).split('\n')[0]).toContain('(bedrooms ±1, year built ±10, living area ±20 %), nearest first:');
  });

  it('abbreviates the subject address and answers NOT_FOUND with the address tried when BatchData does not know it', async () => {
    const h = await harness();
    const r = await h.call('realty/comparableProperty', { street: '1 South Nowhere Street', city: 'Columbus', state: 'oh', zip: '43215' });
    expect(r.status).toBe(404);
    expect(r.body.error).toMatchObject({ code: 'NOT_FOUND', details: { tried: '1 S Nowhere St, Columbus, OH 43215', upstream_status: 404 } });
    expect(r.body.error.message).toContain('1 S Nowhere St, Columbus, OH 43215');
  });

  it('needs the full subject address and a take of 1-500, before any call', async () => {
    const h = await harness();
    const sent = h.recordRequests('realty');
    const s = addressOf(subject());
    const { zip: _zip, ...noZip } = s;
    const partial = (await h.call('realty/comparableProperty', noZip)).body.error;
    expect(partial.details).toMatchObject({ parameter: 'zip', missing: ['zip'], expected: 'street, city, state and zip together, or property_id' });
    expect(partial.message).toContain('zip is missing');
    const both = (await h.call('realty/comparableProperty', { ...s, property_id: 'x' })).body.error;
    expect(both.details.parameter).toBe('property_id');
    expect((await h.call('realty/comparableProperty', { ...s, take: 501 })).body.error.details.parameter).toBe('take');
    expect((await h.call('realty/comparableProperty', { ...s, use_area: 'no' })).body.error.details.parameter).toBe('use_area');
    expect(sent).toEqual([]);
  });

  it('takes the property_id that searchProperties and lookupProperty show: the same comparables as by address', async () => {
    const h = await harness();
    const s = subject();
    const byAddress = await h.call('realty/comparableProperty', addressOf(s), JSON_MODE);
    const sent = h.recordRequests('realty');
    const byId = await h.call('realty/comparableProperty', { property_id: s.id }, JSON_MODE);
    expect(byId.status).toBe(200);
    // Its address is looked up first, then the comparables searched as by address.
    expect(sent.map((r) => r.path)).toEqual(['/api/v1/property/lookup/all-attributes', '/api/v1/property/search']);
    expect(sent[1]!.body.searchCriteria).toEqual({ compAddress: addressOf(s) });
    const ids = (r: typeof byId) => r.body.data.results.properties.map((p: { _id: string }) => p._id);
    expect(ids(byId)).toEqual(ids(byAddress));
    const text = await h.call('realty/comparableProperty', { property_id: s.id });
    expect((text.body.data as string).split('\n')[0]).toContain(`comparables of ${s.street}, ${s.city}, ${s.state} ${s.zip}`);
    const unknown = await h.call('realty/comparableProperty', { property_id: 'no-such-property' });
    expect(unknown.body.error).toMatchObject({ code: 'NOT_FOUND', details: { property_id: 'no-such-property' } });
  });

  it('says how to widen the search when nothing compares', async () => {
    const h = await harness();
    // A commercial building has no bedrooms: with bedrooms ±1 and ±20 % area nothing residential is comparable within a mile.
    const s = dataset().properties.find((p) => p.type.category === 'Office' && p.sqft > 15000)!;
    const r = await h.call('realty/comparableProperty', addressOf(s));
    expect(r.status).toBe(200);
    expect(r.body.data).toMatch(/^no comparables of .* — turn a use_\* criterion off to widen the search$/);
  });
});
