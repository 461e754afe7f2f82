import { describe, expect, it } from 'vitest';
import { dataset, SANDBOX_KEYS, type BatchDataTwin } from '../../infra/twins/batchdata';
import { harness } from '../helpers/harness';

const JSON_MODE = { query: 'format=json' };

/** An improved home with a directional street, a sale and a mortgage: every text line applies. */
const home = () => dataset().properties.find((p) => p.city === 'Phoenix' && /^[NSEW] .* Ave$/.test(p.streetName) && p.lastSaleDate && p.mortgageBalance > 0 && !p.ownerOccupied)!;
/** "622 W Palmaire Ave" written out: "622 West Palmaire Avenue". */
const longForm = (street: string) => street.replace(/ W /, ' West ').replace(/ E /, ' East ').replace(/ N /, ' North ').replace(/ S /, ' South ').replace(/ Ave$/, ' Avenue');

describe('realty/lookupProperty', () => {
  it('finds a property by its full address, abbreviating what the caller wrote out, and shows one line per record group', async () => {
    const h = await harness();
    const p = home();
    const sent = h.recordRequests('realty');
    const r = await h.call('realty/lookupProperty', { street: longForm(p.street).toLowerCase(), city: p.city.toUpperCase(), state: 'az', zip: p.zip });
    expect(r.status).toBe(200);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ method: 'POST', path: '/api/v1/property/lookup/all-attributes' });
    // Directions and suffix abbreviated (USPS), state upper-cased; the rest goes as written (BatchData ignores case).
    const [dir, ...name] = p.streetName.split(' ');
    const street = `${p.houseNumber} ${dir} ${name.slice(0, -1).join(' ').toLowerCase()} Ave`;
    expect(sent[0]!.body).toEqual({ requests: [{ address: { street, city: p.city.toUpperCase(), state: 'AZ', zip: p.zip } }] });
    const text = r.body.data as string;
    expect(text.split('\n')[0]).toBe(`#${p.id} ${p.street}, ${p.city}, AZ ${p.zip} (Maricopa County, FIPS 04013, APN ${p.apn}) at ${p.lat},${p.lng}`);
    expect(text).toContain(`${p.type.detail}, ${p.beds} bd/${p.baths} ba, ${p.sqft.toLocaleString('en-US')} sqft, built ${p.yearBuilt}`);
    expect(text).toContain(`estimated value $${p.estimatedValue.toLocaleString('en-US')}`);
    expect(text).toContain(`last sale ${p.lastSaleDate} $${p.lastSalePrice!.toLocaleString('en-US')}`);
    expect(text).toContain(`owner `);
    expect(text).toMatch(/\(.*absentee.*\), mails to /);
    expect(text).toContain(`open mortgage balance $${p.mortgageBalance.toLocaleString('en-US')}`);
    expect(text).toMatch(/quick lists: .*absentee_owner/);
    expect(text).not.toMatch(/undefined|null|NaN/);
  });

  it('returns the BatchData envelope with the one record in JSON mode (meta without the vendor timings)', async () => {
    const h = await harness();
    const p = home();
    const r = await h.call('realty/lookupProperty', { property_id: p.id }, JSON_MODE);
    expect(r.status).toBe(200);
    const env = r.body.data;
    expect(env.status).toEqual({ code: 200, text: 'OK' });
    expect(env.results.properties).toHaveLength(1);
    expect(env.results.properties[0]).toMatchObject({ _id: p.id, address: { street: p.street, zip: p.zip }, ids: { apn: p.apn }, valuation: { estimatedValue: p.estimatedValue } });
    expect(env.results.meta).toMatchObject({ apiVersion: '1.0.0', requestId: expect.stringMatching(/^[A-Za-z0-9]{15}$/), results: { requestCount: 1, matchCount: 1, noMatchCount: 0, resultCount: 1 } });
    expect(env.results.meta).not.toHaveProperty('performance');
  });

  it('finds a property by apn + county_fips_code, sending the state its FIPS code names', async () => {
    const h = await harness();
    const p = dataset().properties.find((x) => x.fips === '48453')!;
    const sent = h.recordRequests('realty');
    const r = await h.call('realty/lookupProperty', { apn: p.apn, county_fips_code: '48453' }, JSON_MODE);
    expect(r.body.data.results.properties[0]._id).toBe(p.id);
    expect(sent[0]!.body).toEqual({ requests: [{ apn: p.apn, countyFipsCode: '48453', address: { state: 'TX' } }] });
  });

  it('takes what BatchData takes: street with zip, or street with city and state', async () => {
    const h = await harness();
    const p = home();
    const sent = h.recordRequests('realty');
    const byZip = await h.call('realty/lookupProperty', { street: p.street, zip: p.zip });
    expect(byZip.status).toBe(200);
    expect((byZip.body.data as string).split('\n')[0]).toMatch(new RegExp(`^#${p.id} `));
    const byCity = await h.call('realty/lookupProperty', { street: p.street, city: p.city, state: 'az' });
    expect(byCity.status).toBe(200);
    expect((byCity.body.data as string).split('\n')[0]).toMatch(new RegExp(`^#${p.id} `));
    expect(sent.map((s) => s.body.requests[0].address)).toEqual([
      { street: p.street, zip: p.zip },
      { street: p.street, city: p.city, state: 'AZ' },
    ]);
  });

  it('refuses an address that is neither, naming exactly what is missing, before any call', async () => {
    const h = await harness();
    const sent = h.recordRequests('realty');
    const r = await h.call('realty/lookupProperty', { street: '622 W Palmaire Ave', city: 'Phoenix' });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'zip', missing: ['zip', 'state'], expected: 'street with zip, or street with city and state (all four is best)' } });
    expect(r.body.error.message).toContain('with street, give zip, or city and state — state is missing and so is zip');
    const bare = await h.call('realty/lookupProperty', { street: '622 W Palmaire Ave' });
    expect(bare.body.error.details).toMatchObject({ parameter: 'zip', missing: ['zip', 'city', 'state'] });
    expect(bare.body.error.message).toContain('city and state are missing and so is zip');
    const zipOnly = await h.call('realty/lookupProperty', { zip: '85021' });
    expect(zipOnly.body.error.details).toMatchObject({ parameter: 'street', missing: ['street'] });
    expect(zipOnly.body.error.message).toContain('street is missing (city, state and zip alone do not name a property)');
    expect(sent).toEqual([]);
  });

  it('takes exactly one way of naming the property: none, two, or half of the APN form are refused', async () => {
    const h = await harness();
    const sent = h.recordRequests('realty');
    const none = await h.call('realty/lookupProperty', {});
    expect(none.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'street' } });
    expect(none.body.error.message).toContain('an address (street with zip, or street with city and state), or property_id, or apn + county_fips_code');
    const two = await h.call('realty/lookupProperty', { property_id: 'abc', apn: '1', county_fips_code: '04013' });
    expect(two.body.error.details).toMatchObject({ parameter: 'apn', modes: ['property_id', 'apn'] });
    const both = await h.call('realty/lookupProperty', { street: '1 Main St', city: 'Mesa', state: 'AZ', zip: '85201', property_id: 'abc' });
    expect(both.body.error.details).toMatchObject({ parameter: 'property_id', modes: ['address', 'property_id'] });
    expect((await h.call('realty/lookupProperty', { apn: '123-45-678' })).body.error.details.parameter).toBe('county_fips_code');
    expect((await h.call('realty/lookupProperty', { county_fips_code: '04013' })).body.error.details.parameter).toBe('apn');
    expect((await h.call('realty/lookupProperty', { apn: '1', county_fips_code: '99013' })).body.error.details.parameter).toBe('county_fips_code');
    expect(sent).toEqual([]);
  });

  it('checks the shapes: a two-letter state, a five-digit zip, a five-digit FIPS code', async () => {
    const h = await harness();
    const base = { street: '622 W Palmaire Ave', city: 'Phoenix', state: 'AZ', zip: '85021' };
    expect((await h.call('realty/lookupProperty', { ...base, state: 'Arizona' })).body.error.details).toMatchObject({ parameter: 'state' });
    expect((await h.call('realty/lookupProperty', { ...base, zip: '8502' })).body.error.details).toMatchObject({ parameter: 'zip' });
    expect((await h.call('realty/lookupProperty', { apn: '1', county_fips_code: '4013' })).body.error.details).toMatchObject({ parameter: 'county_fips_code' });
  });

  it('answers NOT_FOUND with the normalised address that was tried', async () => {
    const h = await harness();
    const r = await h.call('realty/lookupProperty', { street: '9999  north  nowhere  avenue', city: 'Phoenix', state: 'az', zip: '85021' });
    expect(r.status).toBe(404);
    expect(r.body.error).toMatchObject({
      code: 'NOT_FOUND',
      details: { tried: '9999 N nowhere Ave, Phoenix, AZ 85021', address: { street: '9999 N nowhere Ave', city: 'Phoenix', state: 'AZ', zip: '85021' } },
    });
    expect(r.body.error.message).toContain('9999 N nowhere Ave, Phoenix, AZ 85021');
    const id = await h.call('realty/lookupProperty', { property_id: 'ffffffffffffffffffffffff' });
    expect(id.body.error).toMatchObject({ code: 'NOT_FOUND', details: { tried: 'property id ffffffffffffffffffffffff' } });
  });

  it('is FORBIDDEN for a token without lookup permission (BatchData 403)', async () => {
    const h = await harness();
    const r = await h.call('realty/lookupProperty', { property_id: home().id }, { key: SANDBOX_KEYS.member });
    expect(r.status).toBe(403);
    expect(r.body.error).toMatchObject({ code: 'FORBIDDEN', details: { upstream_status: 403 } });
    expect(r.body.error.message).toContain('Provided token does not have permission to access this API.');
    expect(h.twin<BatchDataTwin>('realty').requests.find({ path: '/api/v1/property/lookup/all-attributes' }).at(-1)).toMatchObject({ status: 403 });
  });
});
