import { describe, expect, it } from 'vitest';
import { createBatchDataTwin, dataset, QUICK_LIST_NAMES, SANDBOX_KEYS, type BatchDataTwin } from '../../infra/twins/batchdata';
import { COUNTIES, milesBetween } from '../../infra/twins/batchdata/geography';
import { createClock } from '../../infra/twins/kit';

const BASE = 'https://api.batchdata.com/api/v1';
const SEARCH = '/property/search';
const LOOKUP = '/property/lookup/all-attributes';

async function post(t: BatchDataTwin, path: string, body: unknown, key: string | null = SANDBOX_KEYS.owner) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (key !== null) headers.authorization = `Bearer ${key}`;
  const res = await t.fetch(`${BASE}${path}`, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

const search = (t: BatchDataTwin, searchCriteria: unknown, options: unknown = {}) => post(t, SEARCH, { searchCriteria, options });
const statusError = (code: number, text: string) => ({ status: { code, text, message: expect.any(String) } });

describe('BatchData twin: dataset', () => {
  it('holds 12,000 properties in four counties, shared by every twin (built once per process, never per twin)', () => {
    const a = createBatchDataTwin();
    const b = createBatchDataTwin();
    expect(a.data).toBe(b.data);
    expect(a.data).toBe(dataset());
    expect(a.data.properties.length).toBe(12_000);
    expect(new Set(a.data.properties.map((p) => p.fips))).toEqual(new Set(['04013', '48453', '39049', '08031']));
    expect(a.data.byId.size).toBe(12_000);
    expect(a.data.byAddress.size).toBe(12_000);
  });

  it('has consistent geography: every property in a zip of its city, near its city, in its county and state', () => {
    const wrong: string[] = [];
    for (const p of dataset().properties) {
      const county = COUNTIES.find((c) => c.fips === p.fips)!;
      const city = county.cities.find((c) => c.name === p.city)!;
      // Streets run out from points within the city's radius: no house far beyond it.
      if (p.state !== county.state || !city.zips.includes(p.zip) || milesBetween(p, city) > city.radius * 2 * 69 + 3) wrong.push(`${p.id} ${p.street}, ${p.city} ${p.zip}`);
    }
    expect(wrong).toEqual([]);
  });

  it('is deterministic: the same seed gives the same records (ids, addresses, values, full record)', async () => {
    const t = createBatchDataTwin();
    const first = dataset().properties[1234]!;
    expect(first.id).toMatch(/^[0-9a-f]{24}$/);
    const one = await post(t, LOOKUP, { requests: [{ propertyId: first.id }] });
    const two = await post(createBatchDataTwin(), LOOKUP, { requests: [{ propertyId: first.id }] });
    expect(one.body.results.properties).toEqual(two.body.results.properties);
  });

  it('gives every record every group of docs/spec.md#realty-property with the documented fields', async () => {
    const t = createBatchDataTwin();
    // A mortgaged, sold, improved home: every group applies.
    const p = dataset().properties.find((x) => x.type.detail === 'Single Family Residential' && x.lastSaleDate && x.mortgageBalance > 0)!;
    const r = (await post(t, LOOKUP, { requests: [{ propertyId: p.id }] })).body.results.properties[0];
    expect(r._id).toBe(p.id);
    expect(Object.keys(r.ids)).toEqual(expect.arrayContaining(['apn', 'fipsCode', 'taxId', 'addressHash']));
    expect(Object.keys(r.address)).toEqual(expect.arrayContaining(['street', 'city', 'state', 'zip', 'county', 'countyFipsCode', 'latitude', 'longitude', 'formattedStreet']));
    for (const group of ['general', 'building', 'lot', 'valuation', 'assessment', 'tax', 'sale', 'owner', 'quickLists', 'deedHistory', 'openLien', 'mortgageHistory', 'intel', 'legal', 'propertyOwnerProfile']) {
      expect(r, group).toHaveProperty(group);
    }
    expect(r.sale.lastSale).toMatchObject({ saleDate: p.lastSaleDate, price: p.lastSalePrice });
    expect(Object.keys(r.owner)).toEqual(expect.arrayContaining(['fullName', 'names', 'ownerOccupied', 'ownershipStartDate', 'mailingAddress']));
    expect(Object.keys(r.quickLists)).toEqual(expect.arrayContaining(['absenteeOwner', 'vacant', 'preforeclosure', 'highEquity', 'cashBuyer', 'ownerOccupied']));
    expect(r.deedHistory[0]).toMatchObject({ saleDate: p.lastSaleDate, salePrice: p.lastSalePrice });
    expect(r.address.hash).toBe(r.ids.addressHash);
    // Sales are recorded after they happen.
    expect(r.sale.lastSale.recordingDate >= r.sale.lastSale.saleDate).toBe(true);
  });

  it('derives quick lists from the data: every list has members, and a record\'s flags agree with its data', async () => {
    const t = createBatchDataTwin();
    const counts = (await search(t, { query: 'AZ' }, { skip: 0, take: 0, quicklistCounts: true })).body.results.quicklistCounts as { name: string; count: number }[];
    expect(counts.map((c) => c.name)).toEqual(QUICK_LIST_NAMES);
    for (const name of ['preforeclosure', 'active-auction', 'bank-owned', 'vacant', 'tax-default', 'judgment-lien', 'hoa-lien', 'mechanics-lien', 'cash-buyer', 'absentee-owner', 'free-and-clear', 'high-equity', 'negative-equity']) {
      expect(counts.find((c) => c.name === name)!.count, name).toBeGreaterThan(0);
    }
    const free = (await search(t, { query: 'Austin, TX', quickList: 'free-and-clear' }, { take: 50 })).body.results.properties;
    expect(free.length).toBe(50);
    for (const r of free) {
      expect(r.quickLists.freeAndClear).toBe(true);
      expect(r.openLien.totalOpenLienBalance).toBe(0);
    }
    const underwater = (await search(t, { quickList: 'negative-equity' }, { take: 20 })).body.results.properties;
    for (const r of underwater) expect(r.valuation.equityCurrentEstimatedBalance).toBeLessThan(0);
    const absentee = (await search(t, { quickList: 'absentee-owner' }, { take: 20 })).body.results.properties;
    for (const r of absentee) expect(r.owner.ownerOccupied).toBe(false);
  });
});

describe('BatchData twin: auth, errors, limits', () => {
  it('401 in the status envelope without a token or with an unknown one; Bearer only', async () => {
    const t = createBatchDataTwin();
    expect(await post(t, SEARCH, { searchCriteria: { query: 'AZ' } }, null)).toMatchObject({ status: 401, body: statusError(401, 'Unauthorized') });
    expect(await post(t, SEARCH, { searchCriteria: { query: 'AZ' } }, 'not-a-token')).toMatchObject({ status: 401, body: { status: { code: 401, message: 'Invalid API token.' } } });
    const basic = await t.fetch(`${BASE}${SEARCH}`, { method: 'POST', headers: { authorization: `Basic ${Buffer.from(`${SANDBOX_KEYS.owner}:`).toString('base64')}` }, body: '{}' });
    expect(basic.status).toBe(401);
  });

  it('403 when the token lacks the endpoint: the member may search but not look up', async () => {
    const t = createBatchDataTwin();
    expect((await search(t, { query: '85021' }, { take: 1 })).status).toBe(200);
    expect((await post(t, SEARCH, { searchCriteria: { query: '85021' }, options: { take: 1 } }, SANDBOX_KEYS.member)).status).toBe(200);
    const denied = await post(t, LOOKUP, { requests: [{ propertyId: dataset().properties[0]!.id }] }, SANDBOX_KEYS.member);
    expect(denied).toMatchObject({ status: 403, body: { status: { code: 403, text: 'Forbidden', message: 'Provided token does not have permission to access this API.' } } });
  });

  it('429 past 3,000 requests a minute per token (window on the twin clock), with Retry-After', async () => {
    const clock = createClock(Date.parse('2025-10-01T12:00:00Z'));
    const t = createBatchDataTwin({ clock, rateLimit: { limit: 2, windowMs: 60_000 } });
    await search(t, { query: '85021' }, { take: 0 });
    await search(t, { query: '85021' }, { take: 0 });
    const over = await search(t, { query: '85021' }, { take: 0 });
    expect(over).toMatchObject({ status: 429, body: statusError(429, 'Too Many Requests') });
    expect(over.headers.get('retry-after')).toBe('60');
    expect((await post(t, SEARCH, { searchCriteria: { query: '85021' }, options: { take: 0 } }, SANDBOX_KEYS.member)).status).toBe(200);
    clock.advance(60_000);
    expect((await search(t, { query: '85021' }, { take: 0 })).status).toBe(200);
  });

  it('404 for an unknown route, 405 for a GET on a POST endpoint, 500 in the envelope for a fault', async () => {
    const t = createBatchDataTwin();
    expect(await post(t, '/property/nothing', {})).toMatchObject({ status: 404, body: statusError(404, 'Not Found') });
    const get = await t.fetch(`${BASE}${SEARCH}`, { headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}` } });
    expect(get.status).toBe(405);
    t.faults.inject({ path: '/api/v1/property/search', times: 1, fault: { status: 500, body: { status: { code: 500, text: 'Internal Server Error', message: 'boom' } } } });
    expect((await search(t, { query: 'AZ' })).status).toBe(500);
  });

  it('400 for bad bodies: missing searchCriteria, take over 500, min > max, unknown criterion or quick list, bad JSON', async () => {
    const t = createBatchDataTwin();
    const bad = async (body: unknown, words: RegExp) => {
      const r = await post(t, SEARCH, body);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject(statusError(400, 'Bad Request'));
      expect(r.body.status.message).toMatch(words);
    };
    await bad({}, /searchCriteria is required/);
    await bad({ searchCriteria: { query: 'AZ' }, options: { take: 501 } }, /take must be an integer between 0 and 500/);
    await bad({ searchCriteria: { building: { bedroomCount: { min: 4, max: 2 } } } }, /"min" \(4\) is greater than "max" \(2\)/);
    await bad({ searchCriteria: { building: { colour: { min: 1 } } } }, /Unknown search criterion "building.colour"/);
    await bad({ searchCriteria: { quickList: 'haunted' } }, /Unknown quick list "haunted"/);
    await bad('{not json', /could not be decoded/);
    await bad({ searchCriteria: { compAddress: { street: '1 Main St', city: 'Phoenix' } } }, /compAddress.state is required/);
  });
});

describe('BatchData twin: POST /property/search', () => {
  it('pages with skip/take (default take 25) and answers meta: apiVersion, performance, requestId, result counts', async () => {
    const t = createBatchDataTwin();
    const r = await search(t, { query: 'Phoenix, AZ' });
    expect(r.status).toBe(200);
    expect(r.body.status).toEqual({ code: 200, text: 'OK' });
    const { meta, properties, searchCriteria, options } = r.body.results;
    expect(properties.length).toBe(25);
    expect(meta).toMatchObject({
      apiVersion: expect.any(String),
      performance: { startTime: expect.any(String), endTime: expect.any(String), totalRequestTime: expect.any(Number) },
      requestId: expect.stringMatching(/^[A-Za-z0-9]{15}$/),
      results: { requestCount: 1, matchCount: 25, noMatchCount: 0, errorCount: 0, resultCount: 25, resultsFound: 2000 },
    });
    expect(searchCriteria).toEqual({ query: 'Phoenix, AZ' });
    expect(options).toMatchObject({ skip: 0, take: 25 });
    const next = (await search(t, { query: 'Phoenix, AZ' }, { skip: 25, take: 25 })).body.results.properties;
    expect(next[0]._id).not.toBe(properties[0]._id);
    const all = dataset().properties.filter((p) => p.city === 'Phoenix');
    expect(next.map((p: { _id: string }) => p._id)).toEqual(all.slice(25, 50).map((p) => p.id));
  });

  it('reads query as a location: "City, ST", a zip, "<name> County, ST", a street', async () => {
    const t = createBatchDataTwin();
    const found = async (query: string) => (await search(t, { query }, { take: 0 })).body.results.meta.results.resultsFound as number;
    const ps = dataset().properties;
    expect(await found('Austin, TX')).toBe(ps.filter((p) => p.city === 'Austin').length);
    expect(await found('85021')).toBe(ps.filter((p) => p.zip === '85021').length);
    expect(await found('Maricopa County, AZ')).toBe(ps.filter((p) => p.county === 'Maricopa').length);
    expect(await found('Columbus OH 43215')).toBe(ps.filter((p) => p.city === 'Columbus' && p.zip === '43215').length);
    const street = ps[10]!;
    expect(await found(`${street.streetName}, ${street.city}`)).toBe(ps.filter((p) => p.streetName === street.streetName && p.city === street.city).length);
    expect(await found('Springfield, IL')).toBe(0);
  });

  it('ANDs every criterion: ranges, property type, address parts, quickLists (AND), orQuickLists, not- prefix', async () => {
    const t = createBatchDataTwin();
    const r = await search(
      t,
      {
        address: { state: { equals: 'co' } },
        building: { bedroomCount: { min: 3, max: 4 }, yearBuilt: { min: 1950 } },
        general: { propertyTypeDetail: { inList: ['Single Family Residential'] } },
        valuation: { estimatedValue: { max: 700_000 } },
        quickLists: ['absentee-owner', 'not-vacant'],
      },
      { take: 500 },
    );
    const props = r.body.results.properties;
    expect(props.length).toBeGreaterThan(5);
    for (const p of props) {
      expect(p.address.state).toBe('CO');
      expect(p.building.bedroomCount).toBeGreaterThanOrEqual(3);
      expect(p.building.bedroomCount).toBeLessThanOrEqual(4);
      expect(p.building.yearBuilt).toBeGreaterThanOrEqual(1950);
      expect(p.general.propertyTypeDetail).toBe('Single Family Residential');
      expect(p.valuation.estimatedValue).toBeLessThanOrEqual(700_000);
      expect(p.quickLists.absenteeOwner).toBe(true);
      expect(p.quickLists.vacant).toBe(false);
    }
    const either = (await search(t, { query: 'TX', orQuickLists: ['preforeclosure', 'tax-default'] }, { take: 500 })).body.results.properties;
    for (const p of either) expect(p.quickLists.preforeclosure || p.quickLists.taxDefault).toBe(true);
  });

  it('counts quick lists only when skip and take are 0 (otherwise a warning); counts match the lists', async () => {
    const t = createBatchDataTwin();
    const counts = (await search(t, { query: 'Denver, CO' }, { skip: 0, take: 0, quicklistCounts: true })).body.results;
    expect(counts.properties).toEqual([]);
    const vacant = counts.quicklistCounts.find((c: { name: string }) => c.name === 'vacant').count;
    expect((await search(t, { query: 'Denver, CO', quickList: 'vacant' }, { take: 0 })).body.results.meta.results.resultsFound).toBe(vacant);
    const paged = (await search(t, { query: 'Denver, CO' }, { take: 5, quicklistCounts: true })).body.results;
    expect(paged.quicklistCounts).toBeUndefined();
    expect(paged.warnings).toEqual(['quicklistCounts is only honoured when skip and take are both 0.']);
  });

  it('answers dates as iso-date by default and iso-date-time on request', async () => {
    const t = createBatchDataTwin();
    const p = dataset().properties.find((x) => x.lastSaleDate)!;
    const short = (await post(t, LOOKUP, { requests: [{ propertyId: p.id }] })).body.results.properties[0];
    const long = (await post(t, LOOKUP, { requests: [{ propertyId: p.id }], options: { dateFormat: 'iso-date-time' } })).body.results.properties[0];
    expect(short.sale.lastSale.saleDate).toBe(p.lastSaleDate);
    expect(long.sale.lastSale.saleDate).toBe(`${p.lastSaleDate}T00:00:00.000Z`);
  });
});

describe('BatchData twin: comparables (compAddress)', () => {
  const subject = () => dataset().properties.find((p) => p.type.detail === 'Single Family Residential' && p.city === 'Austin' && p.index > 5000)!;
  const comps = (t: BatchDataTwin, options: Record<string, unknown> = {}) => {
    const s = subject();
    return search(t, { compAddress: { street: s.street, city: s.city, state: s.state, zip: s.zip } }, { take: 500, ...options });
  };

  it("applies BatchData's documented defaults: within 1 mile, bedrooms ±1, living area ±20 %, year built ±10; nearest first; never the subject", async () => {
    const t = createBatchDataTwin();
    const s = subject();
    const r = (await comps(t)).body.results;
    expect(r.properties.length).toBeGreaterThan(0);
    let last = 0;
    for (const p of r.properties) {
      expect(p._id).not.toBe(s.id);
      const miles = milesBetween(s, { lat: p.address.latitude, lng: p.address.longitude });
      expect(miles).toBeLessThanOrEqual(1);
      expect(p.distance).toBeCloseTo(miles, 1);
      expect(p.distance).toBeGreaterThanOrEqual(last);
      last = p.distance;
      expect(Math.abs(p.building.bedroomCount - s.beds)).toBeLessThanOrEqual(1);
      expect(Math.abs(p.building.yearBuilt - s.yearBuilt!)).toBeLessThanOrEqual(10);
      expect(p.building.livingAreaSquareFeet).toBeGreaterThanOrEqual(s.sqft * 0.8);
      expect(p.building.livingAreaSquareFeet).toBeLessThanOrEqual(s.sqft * 1.2);
    }
    // Exactly those: a brute-force count over the dataset agrees.
    const expected = dataset().properties.filter(
      (p) => p !== s && milesBetween(s, p) <= 1 && Math.abs(p.beds - s.beds) <= 1 && p.yearBuilt !== null && Math.abs(p.yearBuilt - s.yearBuilt!) <= 10 && p.sqft >= s.sqft * 0.8 && p.sqft <= s.sqft * 1.2,
    );
    expect(r.meta.results.resultsFound).toBe(expected.length);
  });

  it('switches criteria by option: lot size (off by default), distance in other units, bedrooms off', async () => {
    const t = createBatchDataTwin();
    const s = subject();
    const base = (await comps(t)).body.results.meta.results.resultsFound;
    const lot = (await comps(t, { useLotSize: true })).body.results;
    expect(lot.meta.results.resultsFound).toBeLessThanOrEqual(base);
    for (const p of lot.properties) {
      expect(p.lot.lotSizeSquareFeet).toBeGreaterThanOrEqual(s.lotSqft * 0.7);
      expect(p.lot.lotSizeSquareFeet).toBeLessThanOrEqual(s.lotSqft * 1.3);
    }
    const wide = (await comps(t, { useBedrooms: false, distanceKilometers: 3 })).body.results;
    expect(wide.meta.results.resultsFound).toBeGreaterThan(base);
    for (const p of wide.properties) expect(p.distance).toBeLessThanOrEqual(3 * 0.621371 + 0.01);
  });

  it('aggregates the comparables returned when asked (aggComparablesMetrics)', async () => {
    const t = createBatchDataTwin();
    const r = (await comps(t, { take: 5, aggComparablesMetrics: true, useDistance: false })).body.results;
    expect(r.properties.length).toBe(5);
    const sold = r.properties.filter((p: any) => p.sale?.lastSale?.price);
    const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(r.meta.results.aggComparablesMetrics).toEqual({
      averagePrice: Math.round(avg(sold.map((p: any) => p.sale.lastSale.price))),
      averagePricePerSqft: Math.round(avg(sold.map((p: any) => p.sale.lastSale.price / p.building.livingAreaSquareFeet)) * 100) / 100,
      estimatedValue: Math.round(avg(r.properties.map((p: any) => p.valuation.estimatedValue))),
    });
    expect((await comps(t, { take: 5 })).body.results.meta.results.aggComparablesMetrics).toBeUndefined();
  });

  it('answers 404 for a subject address it does not know', async () => {
    const t = createBatchDataTwin();
    const r = await search(t, { compAddress: { street: '1 Nowhere Ln', city: 'Austin', state: 'TX', zip: '78701' } });
    expect(r).toMatchObject({ status: 404, body: statusError(404, 'Not Found') });
  });
});

describe('BatchData twin: POST /property/lookup/all-attributes', () => {
  it('finds a property by address (case and spacing aside), propertyId, APN with countyFipsCode or county+state, and hash', async () => {
    const t = createBatchDataTwin();
    const p = dataset().properties[4321]!;
    const one = async (request: unknown) => (await post(t, LOOKUP, { requests: [request] })).body.results.properties.map((r: { _id: string }) => r._id);
    expect(await one({ address: { street: `  ${p.street.toLowerCase()} `, city: p.city.toUpperCase(), state: p.state.toLowerCase(), zip: p.zip } })).toEqual([p.id]);
    expect(await one({ propertyId: p.id })).toEqual([p.id]);
    expect(await one({ apn: p.apn, countyFipsCode: p.fips, address: { state: p.state } })).toEqual([p.id]);
    expect(await one({ apn: p.apn.replace(/-/g, ''), address: { county: p.county, state: p.state } })).toEqual([p.id]);
    const hash = (await post(t, LOOKUP, { requests: [{ propertyId: p.id }] })).body.results.properties[0].address.hash;
    expect(await one({ hash })).toEqual([p.id]);
    expect(await one({ address: { street: p.street, zip: p.zip } })).toEqual([p.id]);
  });

  it('batches requests: matched records carry their requestId; misses are counted, not errors', async () => {
    const t = createBatchDataTwin();
    const [a, b] = dataset().properties;
    const r = await post(t, LOOKUP, { requests: [{ propertyId: a!.id, requestId: 'r1' }, { propertyId: 'nope', requestId: 'r2' }, { propertyId: b!.id, requestId: 'r3' }] });
    expect(r.status).toBe(200);
    expect(r.body.results.properties.map((p: any) => [p._id, p.meta.requestId])).toEqual([[a!.id, 'r1'], [b!.id, 'r3']]);
    expect(r.body.results.meta.results).toMatchObject({ requestCount: 3, matchCount: 2, noMatchCount: 1, errorCount: 0, resultCount: 2 });
  });

  it('refuses malformed requests with 400: none, over 100, an APN without its county, an address without zip or city/state', async () => {
    const t = createBatchDataTwin();
    const p = dataset().properties[0]!;
    expect((await post(t, LOOKUP, { requests: [] })).status).toBe(400);
    expect((await post(t, LOOKUP, { requests: Array.from({ length: 101 }, () => ({ propertyId: p.id })) })).body.status.message).toMatch(/At most 100/);
    expect((await post(t, LOOKUP, { requests: [{ apn: p.apn }] })).body.status.message).toMatch(/countyFipsCode/);
    expect((await post(t, LOOKUP, { requests: [{ address: { street: p.street } }] })).status).toBe(400);
  });

  it('serves its own look at the seed (GET /api/v1/sandbox) with the owner key', async () => {
    const t = createBatchDataTwin();
    const res = await t.fetch(`${BASE}/sandbox`, { headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}` } });
    const body = (await res.json()) as any;
    expect(res.status).toBe(200);
    expect(body.results.properties).toBe(12_000);
    expect(body.results.counties.map((c: { county: string }) => c.county)).toEqual(['Maricopa', 'Travis', 'Franklin', 'Denver']);
    expect(body.results.samples).toHaveLength(4);
  });
});
