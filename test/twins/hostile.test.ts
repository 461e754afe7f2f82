import { describe, expect, it } from 'vitest';
import { createHubSpotTwin, SANDBOX_KEYS as HUBSPOT_KEYS } from '../../infra/twins/hubspot';
import { wildcardMatch } from '../../infra/twins/hubspot/search';
import { jsonDepth, MAX_BODY_DEPTH } from '../../infra/twins/kit';
import { createShareFileTwin, SANDBOX_KEYS as SHAREFILE_KEYS, SHAREFILE_DEMO } from '../../infra/twins/sharefile';
import { PODIO_DEMO } from '../../infra/twins/podio';
import { podioTwin } from './podio-call';
import { slowdown } from '../helpers/ratio';

/** However hostile the input, a twin answers in time linear in it, and refuses as its vendor does: never a stack overflow or a 500. */

const nested = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;

describe('twins under hostile input', () => {
  it('wildcards match without backtracking: pieces between stars found left to right', () => {
    const cases: [string, string, boolean][] = [
      ['abc', 'a*c', true],
      ['abc', '*b*', true],
      ['ab', 'a*b*', true],
      ['a', 'a*a', false],
      ['aa', 'a*a', true],
      ['abcbc', '*bc', true],
      ['abcb', '*bc', false],
      ['renewal', 'ren*al', true],
      ['renewal', 're*new*w*', false],
      ['', '*', true],
      ['x', '**', true],
      ['aXbXc', 'a*b*c', true],
      ['acb', 'a*b*c', false],
    ];
    for (const [text, pattern, expected] of cases) expect(wildcardMatch(text, pattern), `${pattern} on ${text}`).toBe(expected);
    // 2,000 stars over 10,000 characters: one pass per piece, no blow-up (a regex would never finish).
    const text = 'a'.repeat(10_000);
    expect(wildcardMatch(text, `${'*a'.repeat(2_000)}*b`)).toBe(false);
  });

  it('HubSpot CONTAINS_TOKEN with stars costs no more than a plain word of the same length', async () => {
    const t = createHubSpotTwin();
    const headers = { authorization: `Bearer ${HUBSPOT_KEYS.owner}`, 'content-type': 'application/json' };
    const post = async (path: string, body: unknown) => {
      const res = await t.fetch(`https://api.hubapi.com${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as any };
    };
    expect((await post('/crm/v3/objects/deals', { properties: { dealname: 'a'.repeat(60) } })).status).toBe(201);
    const search = (value: string) => post('/crm/v3/objects/deals/search', { filterGroups: [{ filters: [{ propertyName: 'dealname', operator: 'CONTAINS_TOKEN', value }] }] });
    const hostile = '*a*a*a*a*a*a*a*b';
    const benign = 'aaaaaaaaaaaaaaab';
    expect(hostile.length).toBe(benign.length);
    expect((await search(hostile)).body.total).toBe(0);
    expect((await search('*a*a*a')).body.total).toBeGreaterThan(0);
    expect(await slowdown(() => search(hostile), () => search(benign))).toBeLessThan(10);
  });

  it('ShareFile: a $filter nested 1,800 parentheses deep is a 400 in ShareFile\'s body, at the level it passes the limit', async () => {
    const twin = createShareFileTwin();
    const headers = { authorization: `Bearer ${SHAREFILE_KEYS.owner}` };
    const get = async (filter: string) => {
      const res = await twin.fetch(`https://acme.sf-api.com/sf/v3/Items(${SHAREFILE_DEMO.folders.contracts})/Children?$filter=${encodeURIComponent(filter)}`, { headers });
      return { status: res.status, body: (await res.json()) as any };
    };
    const deep = await get('('.repeat(1_800));
    expect(deep.status).toBe(400);
    expect(deep.body).toMatchObject({ code: 'BadRequest', message: { lang: 'en-US', value: expect.stringMatching(/deeper than 32 levels at position 33/) } });
    // A long flat filter is read in one pass: as quick per character as a single long comparison.
    const terms = Array.from({ length: 150 }, (_, i) => `Name eq 'n${i}'`).join(' or ');
    const flat = `Name eq '${'x'.repeat(terms.length - 10)}'`;
    expect((await get(terms)).status).toBe(200);
    expect(await slowdown(() => get(terms), () => get(flat))).toBeLessThan(10);
  });

  it('Podio calculate: a formula of 20,000 signs, or one that ends early, is Podio\'s 400, not a 500', async () => {
    const t = podioTwin();
    const calc = (formula: unknown[]) => t.call('POST', `/item/app/${PODIO_DEMO.apps.deals}/calculate`, { aggregation: 'sum', formula });
    const signs = await calc([...Array.from({ length: 20_000 }, () => ({ type: 'operator', value: 'minus' })), { type: 'number', value: 1 }]);
    expect(signs.status).toBe(400);
    expect(signs.body).toMatchObject({ error: 'invalid_value', error_description: expect.stringMatching(/nests deeper than 32 levels/) });
    const early = await calc([{ type: 'number', value: 1 }, { type: 'operator', value: 'plus' }]);
    expect(early.status).toBe(400);
    expect(early.body.error_description).toMatch(/ends early/);
    expect((await calc([{ type: 'number', value: 2 }, { type: 'operator', value: 'minus' }, { type: 'operator', value: 'minus' }, { type: 'number', value: 1 }])).status).toBe(200);
  });

  it('request bodies nested beyond the limit are the vendor\'s 400, whatever reads them', async () => {
    expect(jsonDepth('{"a": [1, {"b": "[[[[{{{"}], "c": "\\"["}')).toBe(3);
    expect(jsonDepth(nested(MAX_BODY_DEPTH))).toBe(MAX_BODY_DEPTH);
    const t = createHubSpotTwin();
    const headers = { authorization: `Bearer ${HUBSPOT_KEYS.owner}`, 'content-type': 'application/json' };
    const body = `{"properties": {"dealname": ${nested(200_000)}}}`;
    const res = await t.fetch('https://api.hubapi.com/crm/v3/objects/deals', { method: 'POST', headers, body });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ status: 'error', category: 'VALIDATION_ERROR', message: expect.stringMatching(/deeper than 100 levels/) });
    const podio = podioTwin();
    const r = await podio.call('PUT', `/item/${PODIO_DEMO.items.firstDeal}/value/title`, nested(200_000));
    expect(r.status).toBe(400);
    expect(r.body.error_description).toMatch(/deeper than 100 levels/);
  });
});
