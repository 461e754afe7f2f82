import { describe, expect, it } from 'vitest';
import { PODIO_DEMO } from '../../infra/twins/podio';
import { podioTwin } from './podio-call';

const D = PODIO_DEMO;
const F = D.fields;
const filter = (t: ReturnType<typeof podioTwin>, app: number, body: unknown) => t.call('POST', `/item/app/${app}/filter/`, body);
const valueOf = (item: any, fieldId: number) => item.fields.find((f: any) => f.field_id === fieldId)?.values;

describe('Podio twin: POST /item/app/{id}/filter/', () => {
  it('answers {total, filtered, items}; limit defaults to 30, max 500, offset pages', async () => {
    const t = podioTwin();
    const first = await filter(t, D.apps.deals, {});
    expect(first.body.total).toBe(160);
    expect(first.body.filtered).toBe(160);
    expect(first.body.items).toHaveLength(30);
    const next = await filter(t, D.apps.deals, { offset: 30, limit: 5 });
    expect(next.body.items.map((i: any) => i.item_id)).toEqual((await filter(t, D.apps.deals, { limit: 35 })).body.items.slice(30).map((i: any) => i.item_id));
    expect((await filter(t, D.apps.deals, { limit: 500 })).body.items).toHaveLength(160);
    expect((await filter(t, D.apps.deals, { limit: 501 })).status).toBe(400);
    expect((await filter(t, D.apps.deals, { limit: '10' })).status).toBe(400);
  });

  it('category, relation and contact filters take id lists', async () => {
    const t = podioTwin();
    const won = await filter(t, D.apps.deals, { filters: { [F.deals.stage]: [D.options.stage.won, D.options.stage.lost] }, limit: 500 });
    expect(won.body.filtered).toBeGreaterThan(0);
    expect(won.body.filtered).toBeLessThan(160);
    for (const i of won.body.items) expect([404, 405]).toContain(valueOf(i, F.deals.stage)[0].value.id);
    const company = D.items.firstCompany;
    const rel = await filter(t, D.apps.deals, { filters: { company: [company] }, limit: 500 });
    for (const i of rel.body.items) expect(valueOf(i, F.deals.company)[0].value.item_id).toBe(company);
    const mine = await filter(t, D.apps.deals, { filters: { [F.deals.owner]: [5102] }, limit: 500 });
    expect(mine.body.filtered).toBeGreaterThan(0);
    for (const i of mine.body.items) expect(valueOf(i, F.deals.owner)[0].value.profile_id).toBe(5102);
    expect((await filter(t, D.apps.deals, { filters: { [F.deals.stage]: ['won'] } })).status).toBe(400);
  });

  it('numbers, money, progress, calculations and dates take {from, to}', async () => {
    const t = podioTwin();
    const big = await filter(t, D.apps.deals, { filters: { amount: { from: 30000 } }, limit: 500 });
    expect(big.body.filtered).toBeGreaterThan(0);
    for (const i of big.body.items) expect(Number(valueOf(i, F.deals.amount)[0].value)).toBeGreaterThanOrEqual(30000);
    const likely = await filter(t, D.apps.deals, { filters: { probability: { from: 80, to: 90 } }, limit: 500 });
    for (const i of likely.body.items) expect(valueOf(i, F.deals.probability)[0].value).toBeGreaterThanOrEqual(80);
    const weighted = await filter(t, D.apps.deals, { filters: { 'weighted-value': { to: 1000 } }, limit: 500 });
    for (const i of weighted.body.items) expect(Number(valueOf(i, F.deals.weightedValue)[0].value)).toBeLessThanOrEqual(1000);
    const march = await filter(t, D.apps.deals, { filters: { 'close-date': { from: '2026-02-01', to: '2026-02-28' } }, limit: 500 });
    expect(march.body.filtered).toBeGreaterThan(0);
    for (const i of march.body.items) expect(valueOf(i, F.deals.closeDate)[0].start_date.slice(0, 7)).toBe('2026-02');
    expect((await filter(t, D.apps.deals, { filters: { amount: { from: 'lots' } } })).status).toBe(400);
    expect((await filter(t, D.apps.deals, { filters: { 'close-date': { from: '03/01/2025' } } })).status).toBe(400);
  });

  it('text fields match a part of the text, case-insensitively (the twin\'s extension)', async () => {
    const t = podioTwin();
    const r = await filter(t, D.apps.companies, { filters: { 'company-name': 'NORTHWIND' }, limit: 500 });
    expect(r.body.items.map((i: any) => i.title)).toEqual(['Northwind Traders Nord', 'Northwind Traders']);
  });

  it('metadata filters: created_on, created_by', async () => {
    const t = podioTwin();
    const created = await t.call('POST', `/item/app/${D.apps.deals}/`, { fields: { title: 'Today', stage: 401 } });
    const today = await filter(t, D.apps.deals, { filters: { created_on: { from: '2026-01-15', to: '2026-01-15' } } });
    expect(today.body.items.map((i: any) => i.item_id)).toEqual([created.body.item_id]);
    const byBen = await filter(t, D.apps.deals, { filters: { created_by: [{ type: 'user', id: 1002 }] }, limit: 500 });
    expect(byBen.body.filtered).toBeGreaterThan(0);
    for (const i of byBen.body.items) expect(i.created_by.user_id).toBe(1002);
    expect((await filter(t, D.apps.deals, { filters: { bogus: 1 } })).status).toBe(400);
  });

  it('sort_by a field id or metadata, sort_desc', async () => {
    const t = podioTwin();
    const asc = await filter(t, D.apps.deals, { sort_by: String(F.deals.amount), sort_desc: false, limit: 500 });
    const amounts = asc.body.items.map((i: any) => Number(valueOf(i, F.deals.amount)[0].value));
    expect(amounts).toEqual([...amounts].sort((a, b) => a - b));
    const byNumber = await filter(t, D.apps.deals, { sort_by: 'app_item_id', sort_desc: false, limit: 3 });
    expect(byNumber.body.items.map((i: any) => i.app_item_id)).toEqual([1, 2, 3]);
    expect((await filter(t, D.apps.deals, { sort_by: 'colour' })).status).toBe(400);
  });
});

describe('Podio twin: POST /item/app/{id}/calculate', () => {
  it('count and sum over a field, total over all items', async () => {
    const t = podioTwin();
    const all = (await filter(t, D.apps.deals, { limit: 500 })).body.items;
    const sum = all.reduce((s: number, i: any) => s + Number(valueOf(i, F.deals.amount)[0].value), 0);
    const count = await t.call('POST', `/item/app/${D.apps.deals}/calculate`, { aggregation: 'count' });
    expect(count.body).toEqual({ total: 160, count: 160, groups: [] });
    const total = await t.call('POST', `/item/app/${D.apps.deals}/calculate`, { aggregation: 'sum', formula: [{ type: 'field', value: F.deals.amount }] });
    expect(total.body.total).toBe(sum);
  });

  it('a formula of fields, numbers and operators; average/minimum/maximum; the same filters as the filter', async () => {
    const t = podioTwin();
    const won = { [F.deals.stage]: [D.options.stage.won] };
    const items = (await filter(t, D.apps.deals, { filters: won, limit: 500 })).body.items;
    const amounts = items.map((i: any) => Number(valueOf(i, F.deals.amount)[0].value));
    const calc = (body: object) => t.call('POST', `/item/app/${D.apps.deals}/calculate`, { filters: won, ...body });
    expect((await calc({ aggregation: 'maximum', formula: [{ type: 'field', value: F.deals.amount }, { type: 'operator', value: 'multiply' }, { type: 'number', value: 2 }] })).body.total).toBe(Math.max(...amounts) * 2);
    expect((await calc({ aggregation: 'minimum', formula: [{ type: 'field', value: F.deals.amount }] })).body).toMatchObject({ total: Math.min(...amounts), count: items.length });
    const avg = (await calc({ aggregation: 'average', formula: [{ type: 'field', value: F.deals.amount }] })).body.total;
    expect(avg).toBeCloseTo(amounts.reduce((a: number, b: number) => a + b, 0) / amounts.length, 3);
    expect((await calc({ aggregation: 'median' })).status).toBe(400);
    expect((await calc({ aggregation: 'sum' })).status).toBe(400);
    expect((await calc({ aggregation: 'sum', formula: [{ type: 'field', value: F.deals.title }] })).status).toBe(400);
  });

  it('groups by a category field: {value, label, total, count} per option', async () => {
    const t = podioTwin();
    const r = await t.call('POST', `/item/app/${D.apps.deals}/calculate`, { aggregation: 'count', groupings: [{ type: 'field', value: F.deals.stage }] });
    expect(r.body.groups.map((g: any) => g.label)).toEqual(['Lead', 'Qualified', 'Proposal', 'Won', 'Lost']);
    expect(r.body.groups.reduce((s: number, g: any) => s + g.count, 0)).toBe(160);
    for (const g of r.body.groups) expect(g.total).toBe(g.count);
    const won = (await filter(t, D.apps.deals, { filters: { [F.deals.stage]: [404] } })).body.filtered;
    expect(r.body.groups.find((g: any) => g.value === 404).count).toBe(won);
  });

  it('groups by a date field by month, by a contact, by a relation; limit cuts the groups', async () => {
    const t = podioTwin();
    const calc = (grouping: object, limit?: number) => t.call('POST', `/item/app/${D.apps.deals}/calculate`, { aggregation: 'sum', formula: [{ type: 'field', value: F.deals.amount }], groupings: [grouping], ...(limit ? { limit } : {}) });
    const months = (await calc({ type: 'field', value: F.deals.closeDate, sub_value: 'month' })).body.groups;
    expect(months[0].value).toMatch(/^\d{4}-\d{2}$/);
    expect(months[0].label).toMatch(/^[A-Z][a-z]+ \d{4}$/);
    expect(months.map((g: any) => g.value)).toEqual([...months.map((g: any) => g.value)].sort());
    const owners = (await calc({ type: 'field', value: F.deals.owner })).body.groups;
    expect(owners.map((g: any) => g.value).sort()).toEqual([5101, 5102, 5103, 5104, 5106]);
    expect(owners.find((g: any) => g.value === 5102).label).toBe('Ben Okafor');
    expect((await calc({ type: 'field', value: F.deals.company }, 3)).body.groups).toHaveLength(3);
    expect((await calc({ type: 'field', value: F.deals.amount })).status).toBe(400);
    expect((await calc({ type: 'field', value: F.deals.closeDate, sub_value: 'decade' })).status).toBe(400);
  });
});
