import { describe, expect, it } from 'vitest';
import type { HubSpotTwin } from '../../infra/twins/hubspot';
import type { CrmRecord } from '../../infra/twins/hubspot/state';
import { harness } from '../helpers/harness';

const json = { query: 'format=json' };
type H = Awaited<ReturnType<typeof harness>>;
const live = (h: H, type: 'deals' | 'contacts' | 'companies' | 'tickets') => [...h.twin<HubSpotTwin>('crm').state.records[type].values()].filter((r) => !r.archivedAt);
const ids = (rs: { id: string }[]) => rs.map((r) => r.id);
const byId = (a: CrmRecord, b: CrmRecord) => Number(a.id) - Number(b.id);

async function searchAll(h: H, tool: string, params: Record<string, unknown>) {
  const r = await h.call(`crm/${tool}`, { ...params, limit: 100 }, json);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data as { total: number; count: number; results: { id: string; properties: Record<string, string | null> }[]; after?: string };
}

describe('searchDeals', () => {
  it('defaults to 20 results with the default properties, paged by the after cursor to the end', async () => {
    const h = await harness();
    const all = live(h, 'deals').sort(byId);
    const first = await h.call('crm/searchDeals', {}, json);
    expect(first.body.data).toMatchObject({ total: all.length, count: 20, after: '20' });
    expect(Object.keys(first.body.data.results[0].properties)).toEqual(expect.arrayContaining(['dealname', 'amount', 'dealstage', 'pipeline', 'closedate', 'crm_object_id', 'crm_lastmodifieddate']));
    const seen: string[] = ids(first.body.data.results);
    let after: string | undefined = first.body.data.after;
    while (after) {
      const page = await h.call('crm/searchDeals', { after, limit: 100 }, json);
      seen.push(...ids(page.body.data.results));
      after = page.body.data.after;
    }
    expect(seen).toEqual(ids(all));
  });

  it('combines filters with AND inside a group and groups with OR; every comparison operator works on numbers', async () => {
    const h = await harness();
    const deals = live(h, 'deals');
    const amount = (r: CrmRecord) => Number(r.properties.amount);
    const want = (f: (r: CrmRecord) => boolean) => ids(deals.filter(f).sort(byId));
    const run = async (filter_groups: unknown) => ids((await searchAll(h, 'searchDeals', { filter_groups })).results);
    expect(await run([{ filters: [{ propertyName: 'amount', operator: 'GT', value: 50000 }, { propertyName: 'pipeline', operator: 'EQ', value: 'default' }] }]))
      .toEqual(want((r) => amount(r) > 50000 && r.properties.pipeline === 'default'));
    expect(await run([{ filters: [{ propertyName: 'amount', operator: 'LT', value: 5000 }] }, { filters: [{ propertyName: 'dealstage', operator: 'EQ', value: 'closedwon' }] }]))
      .toEqual(want((r) => amount(r) < 5000 || r.properties.dealstage === 'closedwon'));
    expect(await run([{ filters: [{ propertyName: 'amount', operator: 'BETWEEN', value: '10000', highValue: '20000' }] }]))
      .toEqual(want((r) => amount(r) >= 10000 && amount(r) <= 20000));
    expect(await run([{ filters: [{ propertyName: 'amount', operator: 'LTE', value: 2500 }, { propertyName: 'amount', operator: 'GTE', value: 2500 }] }]))
      .toEqual(want((r) => amount(r) === 2500));
    expect(await run([{ filters: [{ propertyName: 'dealstage', operator: 'IN', values: ['closedwon', 'closedlost'] }] }]))
      .toEqual(want((r) => ['closedwon', 'closedlost'].includes(r.properties.dealstage!)));
    expect(await run([{ filters: [{ propertyName: 'dealstage', operator: 'NOT_IN', values: ['closedwon', 'closedlost'] }, { propertyName: 'pipeline', operator: 'NEQ', value: '6482715' }] }]))
      .toEqual(want((r) => !['closedwon', 'closedlost'].includes(r.properties.dealstage!) && r.properties.pipeline !== '6482715'));
  });

  it('takes option labels and YYYY-MM-DD dates in filters, converted to HubSpot values', async () => {
    const h = await harness();
    const log = h.recordRequests('crm');
    const deals = live(h, 'deals');
    const r = await searchAll(h, 'searchDeals', {
      filter_groups: [{ filters: [{ propertyName: 'crm_priority', operator: 'EQ', value: 'High' }, { propertyName: 'closedate', operator: 'GTE', value: '2026-01-01' }] }],
    });
    expect(ids(r.results)).toEqual(ids(deals.filter((d) => d.properties.hs_priority === 'high' && Date.parse(d.properties.closedate!) >= Date.UTC(2026, 0, 1)).sort(byId)));
    const body = log.find((x) => x.path === '/crm/v3/objects/deals/search')!.body;
    expect(body.filterGroups[0].filters).toEqual([
      { propertyName: 'hs_priority', operator: 'EQ', value: 'high' },
      { propertyName: 'closedate', operator: 'GTE', value: String(Date.UTC(2026, 0, 1)) },
    ]);
  });

  it('HAS_PROPERTY / NOT_HAS_PROPERTY without a value, CONTAINS_TOKEN tokenised with * wildcards', async () => {
    const h = await harness();
    await h.call('crm/createDeal', { values: { dealname: 'No amount deal' } });
    const deals = live(h, 'deals');
    const none = await searchAll(h, 'searchDeals', { filter_groups: [{ filters: [{ propertyName: 'amount', operator: 'NOT_HAS_PROPERTY' }] }] });
    expect(ids(none.results)).toEqual(ids(deals.filter((d) => !d.properties.amount)));
    const has = await searchAll(h, 'searchDeals', { filter_groups: [{ filters: [{ propertyName: 'amount', operator: 'HAS_PROPERTY' }] }] });
    expect(has.total).toBe(deals.length - 1);
    const token = await searchAll(h, 'searchDeals', { filter_groups: [{ filters: [{ propertyName: 'dealname', operator: 'CONTAINS_TOKEN', value: 'renewal' }] }] });
    expect(token.total).toBe(deals.filter((d) => /\brenewal\b/i.test(d.properties.dealname!)).length);
    expect(token.total).toBeGreaterThan(0);
    const wild = await searchAll(h, 'searchDeals', { filter_groups: [{ filters: [{ propertyName: 'dealname', operator: 'CONTAINS_TOKEN', value: 'onboard*' }] }] });
    expect(wild.results.every((r) => /onboarding/i.test(r.properties.dealname!))).toBe(true);
    expect(wild.total).toBeGreaterThan(0);
    const not = await searchAll(h, 'searchDeals', { filter_groups: [{ filters: [{ propertyName: 'dealname', operator: 'NOT_CONTAINS_TOKEN', value: 'renewal' }] }] });
    expect(not.total).toBe(deals.length - token.total);
  });

  it('sorts by one property and searches full text with query', async () => {
    const h = await harness();
    const desc = await searchAll(h, 'searchDeals', { sorts: [{ propertyName: 'amount', direction: 'DESCENDING' }], return_properties: ['amount'] });
    const amounts = desc.results.map((r) => Number(r.properties.amount));
    expect(amounts).toEqual([...amounts].sort((a, b) => b - a));
    const log = h.recordRequests('crm');
    const recent = await searchAll(h, 'searchDeals', { sorts: [{ propertyName: 'crm_lastmodifieddate', direction: 'DESCENDING' }], return_properties: ['crm_lastmodifieddate'] });
    const stamps = recent.results.map((r) => r.properties.crm_lastmodifieddate!);
    expect(stamps).toEqual([...stamps].sort().reverse());
    expect(log.at(-1)!.body.sorts).toEqual([{ propertyName: 'hs_lastmodifieddate', direction: 'DESCENDING' }]);
    const q = await searchAll(h, 'searchDeals', { query: 'acme' });
    expect(q.total).toBeGreaterThan(0);
    expect(q.results.every((r) => /acme/i.test(r.properties.dealname!))).toBe(true);
  });

  it('checks HubSpot\'s limits before the call: 5 groups, 6 filters per group, 18 in all, one sort, limit ≤ 100, operator values', async () => {
    const h = await harness();
    await h.call('crm/getProperties', { object_type: 'deals' });
    await h.call('crm/getPipelines', {});
    const log = h.recordRequests('crm');
    const f = { propertyName: 'amount', operator: 'GT', value: 1 };
    const cases: [Record<string, unknown>, string, RegExp?][] = [
      [{ filter_groups: Array.from({ length: 6 }, () => ({ filters: [f] })) }, 'filter_groups'],
      [{ filter_groups: [{ filters: Array.from({ length: 7 }, () => f) }] }, 'filter_groups.0.filters'],
      [{ filter_groups: Array.from({ length: 4 }, () => ({ filters: Array.from({ length: 5 }, () => f) })) }, 'filter_groups', /20 filters; HubSpot allows 18 in all/],
      [{ sorts: [{ propertyName: 'amount' }, { propertyName: 'dealname' }] }, 'sorts'],
      [{ limit: 101 }, 'limit'],
      [{ filter_groups: [{ filters: [{ propertyName: 'amount', operator: 'BETWEEN', value: 1 }] }] }, 'filter_groups[0].filters[0].highValue', /BETWEEN needs highValue/],
      [{ filter_groups: [{ filters: [{ propertyName: 'dealstage', operator: 'IN', value: 'x' }] }] }, 'filter_groups[0].filters[0].values', /IN needs values/],
      [{ filter_groups: [{ filters: [{ propertyName: 'amount', operator: 'HAS_PROPERTY', value: 'x' }] }] }, 'filter_groups[0].filters[0].value', /takes no value/],
      [{ filter_groups: [{ filters: [{ propertyName: 'amout', operator: 'EQ', value: '1' }] }] }, 'filter_groups[0].filters[0].propertyName', /close matches: amount/],
      [{ filter_groups: [{ filters: [{ propertyName: 'hs_priority', operator: 'EQ', value: 'high' }] }] }, 'filter_groups[0].filters[0].propertyName', /close matches: crm_priority/],
      [{ sorts: [{ propertyName: 'nope' }] }, 'sorts[0].propertyName'],
      [{ after: '9990', limit: 20 }, 'after', /at most the first 10,000 results/],
    ];
    for (const [params, parameter, message] of cases) {
      const r = await h.call('crm/searchDeals', params);
      expect(r.status, parameter).toBe(400);
      expect(r.body.error.details.parameter).toBe(parameter);
      if (message) expect(r.body.error.message).toMatch(message);
    }
    expect(log).toEqual([]);
  });

  it('answers one line per deal with stage and pipeline labels, and a footer with the next cursor', async () => {
    const h = await harness();
    const r = await h.call('crm/searchDeals', { limit: 3 });
    const lines = (r.body.data as string).split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^#\d+ .+ — [\d,]+\.\d\d USD, stage .+ \((Sales Pipeline|Renewals)\), closes \d{4}-\d{2}-\d{2}/);
    expect(lines[3]).toMatch(/^showing 3 of 180 — pass after "3" for the next page$/);
  });

  it('says when HubSpot\'s 10,000-result ceiling stops the paging', async () => {
    const h = await harness();
    h.twin<HubSpotTwin>('crm').faults.inject({
      method: 'POST', path: '/crm/v3/objects/deals/search',
      fault: { status: 200, body: { total: 12000, results: [{ id: '1', properties: { dealname: 'Last' }, createdAt: '2025-01-01T00:00:00Z', updatedAt: '2025-01-01T00:00:00Z', archived: false }] } },
    });
    const r = await h.call('crm/searchDeals', { after: '9999', limit: 1 });
    expect(r.body.data).toMatch(/HubSpot's search stops at 10,000 results: narrow the filters/);
  });
});

describe('searchContacts, searchCompanies, searchTickets', () => {
  it('contacts default to 10 results with firstname, lastname, email (docs/spec.md#crm-objects)', async () => {
    const h = await harness();
    const r = await h.call('crm/searchContacts', {}, json);
    expect(r.body.data.count).toBe(10);
    expect(Object.keys(r.body.data.results[0].properties).sort()).toEqual(['createdate', 'crm_object_id', 'email', 'firstname', 'lastmodifieddate', 'lastname']);
    const text = await h.call('crm/searchContacts', { query: 'ada' });
    expect((text.body.data as string).split('\n')[0]).toMatch(/^#\d+ Ada \w+ <ada\.[^>]+>$/);
  });

  it('companies and tickets search with the same filter model and their own defaults', async () => {
    const h = await harness();
    const companies = await searchAll(h, 'searchCompanies', { filter_groups: [{ filters: [{ propertyName: 'industry', operator: 'EQ', value: 'Retail' }] }] });
    expect(companies.total).toBe(live(h, 'companies').filter((c) => c.properties.industry === 'RETAIL').length);
    expect(companies.results[0]!.properties).toHaveProperty('domain');
    const tickets = await searchAll(h, 'searchTickets', { filter_groups: [{ filters: [{ propertyName: 'crm_pipeline_stage', operator: 'EQ', value: 'Closed' }] }] });
    expect(tickets.total).toBe(live(h, 'tickets').filter((t) => t.properties.hs_pipeline_stage === '4').length);
    const text = await h.call('crm/searchTickets', { limit: 1 });
    expect(text.body.data).toMatch(/^#\d+ .+ — status (New|Waiting on contact|Waiting on us|Closed) \(Support Pipeline\)/);
  });
});
