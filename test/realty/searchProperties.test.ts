import { describe, expect, it } from 'vitest';
import { dataset } from '../../infra/twins/batchdata';
import { harness } from '../helpers/harness';

const JSON_MODE = { query: 'format=json' };
const usd = (n: number) => `$${n.toLocaleString('en-US')}`;
const SEARCH = '/api/v1/property/search';

describe('realty/searchProperties', () => {
  it('shows one line per property with every field a user filters on, the quick-list counts and the next skip', async () => {
    const h = await harness();
    const r = await h.call('realty/searchProperties', { query: 'Denver, CO', take: 5 });
    expect(r.status).toBe(200);
    const lines = (r.body.data as string).split('\n');
    const denver = dataset().properties.filter((p) => p.city === 'Denver');
    expect(lines).toHaveLength(7);
    denver.slice(0, 5).forEach((p, i) => {
      const line = lines[i]!;
      expect(line.startsWith(`#${p.id} ${p.street}, Denver, CO ${p.zip} (Denver) — ${p.type.detail}`)).toBe(true);
      if (p.sqft) expect(line).toContain(`${p.beds ? `${p.beds} bd/` : ''}${p.baths} ba, ${p.sqft.toLocaleString('en-US')} sqft, built ${p.yearBuilt}`);
      expect(line).toContain(`est. ${usd(p.estimatedValue)}, assessed ${usd(p.assessedValue)}`);
    });
    expect(lines[5]).toMatch(/^quick lists among the 2,200 matches: (\w+ [\d,]+, )*\w+ [\d,]+$/);
    expect(lines[6]).toBe('showing 5 of 2,200 properties — pass skip 5 with the same filters for the next page');
  });

  it('lists after each property the quick lists it is on, by the service\'s names', async () => {
    const h = await harness();
    const r = await h.call('realty/searchProperties', { query: 'Travis County, TX', quick_list: 'free_clear', take: 20 });
    const lines = (r.body.data as string).split('\n').filter((l) => l.startsWith('#'));
    expect(lines).toHaveLength(20);
    for (const l of lines) expect(l).toMatch(/ · (\w+, )*free_clear(, \w+)*$/);
  });

  it('returns the envelope in JSON mode with the counts of all matches (a second, count-only call) and resultsFound', async () => {
    const h = await harness();
    const sent = h.recordRequests('realty');
    const r = await h.call('realty/searchProperties', { query: 'Austin, TX', building: { minBedrooms: 3 } }, JSON_MODE);
    const env = r.body.data;
    expect(env.status).toEqual({ code: 200, text: 'OK' });
    const austin3 = dataset().properties.filter((p) => p.city === 'Austin' && p.type.category !== 'Vacant Land' && p.beds >= 3);
    expect(env.results.properties.map((p: { _id: string }) => p._id)).toEqual(austin3.slice(0, 10).map((p) => p.id));
    expect(env.results.meta.results).toMatchObject({ resultCount: 10, resultsFound: austin3.length });
    expect(env.results.meta).not.toHaveProperty('performance');
    const vacant = env.results.quicklistCounts.find((c: { name: string }) => c.name === 'vacant').count;
    expect(vacant).toBe(austin3.filter((p) => p.vacant).length);
    // Page and counts, both with the same criteria; the counts call bills nothing (take 0).
    const criteria = { query: 'Austin, TX', building: { bedroomCount: { min: 3 } } };
    expect(sent.map((s) => [s.path, s.body])).toEqual(
      expect.arrayContaining([
        [SEARCH, { searchCriteria: criteria, options: { skip: 0, take: 10 } }],
        [SEARCH, { searchCriteria: criteria, options: { skip: 0, take: 0, quicklistCounts: true } }],
      ]),
    );
    expect(sent).toHaveLength(2);
  });

  it('maps the docs/spec.md#realty-property quick-list names to BatchData\'s (tax_lien → tax-default, free_clear → free-and-clear, …)', async () => {
    const h = await harness();
    const sent = h.recordRequests('realty');
    for (const [ours, wire] of [['tax_lien', 'tax-default'], ['free_clear', 'free-and-clear'], ['auction', 'active-auction'], ['lis_pendens', 'notice-of-lis-pendens'], ['bank_owned', 'bank-owned']]) {
      sent.length = 0;
      const r = await h.call('realty/searchProperties', { quick_list: ours, take: 3 }, JSON_MODE);
      expect(r.status).toBe(200);
      expect(sent[0]!.body.searchCriteria).toEqual({ quickList: wire });
      expect(r.body.data.results.properties.length).toBeGreaterThan(0);
    }
  });

  it('refuses an unknown quick list, listing the names, before any call', async () => {
    const h = await harness();
    const sent = h.recordRequests('realty');
    const r = await h.call('realty/searchProperties', { quick_list: 'free-and-clear' });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('INVALID_PARAMETER');
    expect(r.body.error.details.parameter).toBe('quick_list');
    expect(r.body.error.details.expected).toContain('"free_clear"');
    expect(r.body.error.details.expected).toContain('"negative_equity"');
    expect(sent).toEqual([]);
  });

  it('checks every min <= max before any call, naming the parameter', async () => {
    const h = await harness();
    const sent = h.recordRequests('realty');
    const cases: [Record<string, unknown>, string][] = [
      [{ building: { minBedrooms: 4, maxBedrooms: 2 } }, 'building.minBedrooms'],
      [{ building: { minBathrooms: 3, maxBathrooms: 1.5 } }, 'building.minBathrooms'],
      [{ building: { minAreaSqFt: 3000, maxAreaSqFt: 1000 } }, 'building.minAreaSqFt'],
      [{ building: { minYearBuilt: 2000, maxYearBuilt: 1990 } }, 'building.minYearBuilt'],
      [{ valuation: { minEstimatedValue: 500000, maxEstimatedValue: 100000 } }, 'valuation.minEstimatedValue'],
      [{ valuation: { minAssessedValue: 50000, maxAssessedValue: 100 } }, 'valuation.minAssessedValue'],
    ];
    for (const [params, parameter] of cases) {
      const r = await h.call('realty/searchProperties', params);
      expect(r.status, parameter).toBe(400);
      expect(r.body.error.details.parameter).toBe(parameter);
      expect(r.body.error.message).toContain('is greater than');
    }
    expect(sent).toEqual([]);
  });

  it('takes 10 by default and at most 500', async () => {
    const h = await harness();
    const sent = h.recordRequests('realty');
    await h.call('realty/searchProperties', { query: '85021' });
    expect(sent[0]!.body.options).toEqual({ skip: 0, take: 10 });
    const over = await h.call('realty/searchProperties', { query: '85021', take: 501 });
    expect(over.body.error.details).toMatchObject({ parameter: 'take', expected: 'number at most 500' });
    const zero = await h.call('realty/searchProperties', { query: '85021', take: 0 });
    expect(zero.body.error.details.parameter).toBe('take');
    const many = await h.call('realty/searchProperties', { query: 'Phoenix, AZ', take: 500 }, JSON_MODE);
    expect(many.body.data.results.properties).toHaveLength(500);
  });

  it('applies building, valuation, property type and address filters as BatchData criteria', async () => {
    const h = await harness();
    const sent = h.recordRequests('realty');
    const r = await h.call(
      'realty/searchProperties',
      {
        address: { state: 'az', city: 'Mesa' },
        building: { minBedrooms: 2, maxBedrooms: 3, minBathrooms: 2, minAreaSqFt: 1000, maxAreaSqFt: 2000, minYearBuilt: 1980, propertyType: 'condo' },
        valuation: { maxEstimatedValue: 600000, minAssessedValue: 10000 },
        take: 50,
      },
      JSON_MODE,
    );
    expect(sent[0]!.body.searchCriteria).toEqual({
      address: { city: { equals: 'Mesa' }, state: { equals: 'AZ' } },
      building: { bedroomCount: { min: 2, max: 3 }, bathroomCount: { min: 2 }, totalBuildingAreaSquareFeet: { min: 1000, max: 2000 }, yearBuilt: { min: 1980 } },
      general: { propertyTypeDetail: { inList: ['Condominium'] } },
      valuation: { estimatedValue: { max: 600000 } },
      assessment: { totalAssessedValue: { min: 10000 } },
    });
    const props = r.body.data.results.properties;
    expect(props.length).toBeGreaterThan(0);
    for (const p of props) {
      expect(p.address.city).toBe('Mesa');
      expect(p.general.propertyTypeDetail).toBe('Condominium');
      expect(p.building.bedroomCount).toBeGreaterThanOrEqual(2);
      expect(p.building.bathroomCount).toBeGreaterThanOrEqual(2);
      expect(p.valuation.estimatedValue).toBeLessThanOrEqual(600000);
    }
  });

  it('reads propertyType as a category or a kind, and refuses an unknown one', async () => {
    const h = await harness();
    const sent = h.recordRequests('realty');
    await h.call('realty/searchProperties', { building: { propertyType: 'residential' }, take: 1 });
    expect(sent[0]!.body.searchCriteria.general).toEqual({ propertyTypeCategory: { inList: ['Residential'] } });
    sent.length = 0;
    await h.call('realty/searchProperties', { building: { propertyType: 'Multi-Family' }, take: 1 });
    expect(sent[0]!.body.searchCriteria.general).toEqual({ propertyTypeDetail: { inList: ['Duplex', 'Triplex', 'Quadruplex', 'Apartment'] } });
    sent.length = 0;
    const r = await h.call('realty/searchProperties', { building: { propertyType: 'castle' } });
    expect(r.body.error.details).toMatchObject({ parameter: 'building.propertyType' });
    expect(r.body.error.message).toContain('Unknown property type "castle"');
    expect(sent).toEqual([]);
  });

  it('matches a street by name (abbreviated, any house number)', async () => {
    const h = await harness();
    const p = dataset().properties.find((x) => x.city === 'Phoenix' && /^W .* Ave$/.test(x.streetName))!;
    const sent = h.recordRequests('realty');
    const spelled = p.streetName.replace(/^W /, 'West ').replace(/ Ave$/, ' Avenue');
    const r = await h.call('realty/searchProperties', { address: { street: spelled, city: 'Phoenix' }, take: 100 }, JSON_MODE);
    expect(sent[0]!.body.searchCriteria.address.street).toEqual({ contains: p.streetName });
    const want = dataset().properties.filter((x) => x.city === 'Phoenix' && x.street.toUpperCase().includes(p.streetName.toUpperCase()));
    expect(r.body.data.results.meta.results.resultsFound).toBe(want.length);
  });

  it('pages with skip: the last page says so, past the end says how many there are, no match says to loosen', async () => {
    const h = await harness();
    const n = dataset().properties.filter((p) => p.zip === '78660').length;
    const last = await h.call('realty/searchProperties', { query: '78660', skip: n - 2, take: 10 });
    expect((last.body.data as string).split('\n').at(-1)).toBe(`showing 2 of ${n.toLocaleString('en-US')} properties (last page)`);
    const past = await h.call('realty/searchProperties', { query: '78660', skip: n + 5 });
    expect((past.body.data as string).split('\n').at(-1)).toBe(`no properties past skip ${n + 5} (${n} in all)`);
    const none = await h.call('realty/searchProperties', { query: 'Springfield, IL' });
    expect(none.body.data).toBe('no properties match — loosen a filter or check the location');
  });

  it('answers the page even when the counts call fails, with a warning saying why', async () => {
    const h = await harness({ twins: { realty: { rateLimit: { limit: 1, windowMs: 60_000 } } } });
    const r = await h.call('realty/searchProperties', { query: 'Denver, CO', take: 2 }, JSON_MODE);
    expect(r.status).toBe(200);
    expect(r.body.data.results.properties).toHaveLength(2);
    expect(r.body.data.results.quicklistCounts).toBeNull();
    expect(r.body.data.results.warnings).toEqual([expect.stringMatching(/^quick-list counts unavailable: BatchData rate limit reached/)]);
    const h2 = await harness({ twins: { realty: { rateLimit: { limit: 1, windowMs: 60_000 } } } });
    const text = (await h2.call('realty/searchProperties', { query: 'Denver, CO', take: 2 })).body.data as string;
    expect(text.split('\n')[2]).toMatch(/^quick-list counts unavailable: /);
    expect(text.split('\n')[3]).toBe('showing 2 of 2,200 properties — pass skip 2 with the same filters for the next page');
  });
});
