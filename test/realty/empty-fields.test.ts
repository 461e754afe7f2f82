import { describe, expect, it } from 'vitest';
import type { BatchDataTwin } from '../../infra/twins/batchdata';
import { harness } from '../helpers/harness';

// Every field the specification lists for a realty answer is in the JSON: the record groups of a
// property (and the listed fields of ids, address, owner and sale), the meta and its counts, and on
// a search its paging and criteria — its value, or null when BatchData gives none, never left out.
// Each row makes the twin answer a bare envelope; the text of the same answer prints no "null".
const json = { query: 'format=json' };
const GROUPS = ['ids', 'address', 'general', 'building', 'lot', 'valuation', 'assessment', 'tax', 'sale', 'owner', 'quickLists', 'deedHistory'];
const ADDRESS = ['street', 'city', 'state', 'zip', 'county', 'countyFipsCode', 'latitude', 'longitude', 'formattedStreet'];
const OWNER = ['fullName', 'names', 'ownerOccupied', 'ownershipStartDate', 'mailingAddress'];
const COUNTS = ['errorCount', 'matchCount', 'noMatchCount', 'requestCount', 'resultCount', 'resultsFound'];
const SEARCH = ['quicklistCounts', 'nextPageCursor', 'previousPageCursor', 'options', 'searchCriteria', 'warnings'];

const record = { _id: '66a1f0c2e4b0a1b2c3d4e5f6', address: { street: '622 W Palmaire Ave', city: 'Phoenix', state: 'AZ', zip: '85021' }, owner: { fullName: 'Maria Lopez' } };
const envelope = { status: { code: 200, text: 'OK' }, results: { properties: [record], meta: { results: { resultCount: 1 } } } };
const address = { street: '622 W Palmaire Ave', city: 'Phoenix', state: 'AZ', zip: '85021' };

const rows = [
  { tool: 'lookupProperty', params: address, path: /\/property\/lookup/, search: false },
  { tool: 'searchProperties', params: { query: 'Phoenix, AZ' }, path: /\/property\/search/, search: true },
  { tool: 'comparableProperty', params: address, path: /\/property\/search/, search: true },
];

describe('realty: listed fields present as null when empty', () => {
  it.each(rows.map((r) => [r.tool, r] as const))('%s', async (_name, row) => {
    const h = await harness();
    h.twin<BatchDataTwin>('realty').faults.inject({ method: 'POST', path: row.path, fault: { status: 200, body: envelope } });
    const r = await h.call(`realty/${row.tool}`, row.params, json);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const results = r.body.data.results;
    const p = results.properties[0];
    expect(Object.keys(p)).toEqual(expect.arrayContaining(['_id', ...GROUPS]));
    for (const g of ['ids', 'general', 'building', 'lot', 'valuation', 'assessment', 'tax', 'sale', 'quickLists', 'deedHistory']) expect(p[g], g).toBeNull();
    expect(p.address).toEqual({ ...address, county: null, countyFipsCode: null, latitude: null, longitude: null, formattedStreet: null });
    expect(Object.keys(p.owner).sort()).toEqual([...OWNER].sort());
    expect(p.owner).toMatchObject({ fullName: 'Maria Lopez', names: null, ownerOccupied: null, ownershipStartDate: null, mailingAddress: null });
    expect(results.meta).toMatchObject({ apiVersion: null, requestId: null });
    expect(results.meta).not.toHaveProperty('performance');
    for (const k of COUNTS) expect(results.meta.results[k], k).toBe(k === 'resultCount' ? 1 : null);
    for (const k of SEARCH) {
      if (row.search) expect(results[k], k).toBeNull();
      else expect(results, k).not.toHaveProperty(k);
    }
    const text = await h.call(`realty/${row.tool}`, row.params);
    expect(text.status).toBe(200);
    expect(text.body.data).toContain('622 W Palmaire Ave');
    expect(text.body.data).not.toMatch(/\bnull\b|undefined|NaN/);
  });
});
