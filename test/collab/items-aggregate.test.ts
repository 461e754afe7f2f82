import { describe, expect, it } from 'vitest';
import { harness } from '../helpers/harness';
import { PODIO_DEMO, SANDBOX_KEYS, type PodioTwin } from '../../infra/twins/podio';
import { createClock } from '../../infra/twins/kit';

const json = { query: 'format=json' };
const D = PODIO_DEMO;
const F = D.fields;
const O = D.options;
type H = Awaited<ReturnType<typeof harness>>;

/** Every item of an app as Podio returns them (the ground truth). */
async function allItems(h: H, appId: number, filters?: Record<string, unknown>): Promise<any[]> {
  const res = await h.twin<PodioTwin>('collab').fetch(`https://api.podio.com/item/app/${appId}/filter/`, {
    method: 'POST',
    headers: { authorization: `OAuth2 ${SANDBOX_KEYS.owner}`, 'content-type': 'application/json' },
    body: JSON.stringify({ limit: 500, ...(filters ? { filters } : {}) }),
  });
  return ((await res.json()) as { items: any[] }).items;
}
const values = (item: any, fieldId: number) => item.fields.find((f: any) => f.field_id === fieldId)?.values ?? [];
const sum = (xs: number[]) => Math.round(xs.reduce((a, b) => a + b, 0) * 100) / 100;

describe('aggregateItems', () => {
  it('counts items by default, in one call with no formula', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    const r = await h.call('collab/aggregateItems', { app_id: D.apps.deals }, json);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ app_id: D.apps.deals, aggregation: 'count', total: D.counts.deals, count: D.counts.deals, groups: [] });
    const calc = sent.filter((s) => s.path.endsWith('/calculate'));
    expect(calc).toHaveLength(1);
    expect(calc[0]!.body).toEqual({ aggregation: 'count', limit: 15 });
    expect((await h.call('collab/aggregateItems', { app_id: D.apps.deals })).body.data).toBe(`160 items of app #${D.apps.deals}`);
  });

  it('sums a money field keeping its currency, grouped by a category with labels', async () => {
    const h = await harness();
    const projects = await allItems(h, D.apps.projects);
    const r = await h.call('collab/aggregateItems', { app_id: D.apps.projects, aggregation: 'sum', field: 'budget', group_by: 'status' }, json);
    expect(r.status).toBe(200);
    const data = r.body.data;
    expect(data).toMatchObject({ aggregation: 'sum', field: { field_id: F.projects.budget, external_id: 'budget', label: 'Budget', type: 'money' }, currency: 'EUR', group_by: { key: 'status', label: 'Status', type: 'category' } });
    expect(data.total).toBe(sum(projects.map((p) => Number(values(p, F.projects.budget)[0]?.value ?? 0))));
    expect(data.count).toBe(D.counts.projects);
    const done = projects.filter((p) => values(p, F.projects.status)[0]?.value.id === O.status.done);
    expect(data.groups).toContainEqual({ value: O.status.done, label: 'Done', total: sum(done.map((p) => Number(values(p, F.projects.budget)[0].value))), count: done.length });
    expect(data.groups.reduce((n: number, g: any) => n + g.count, 0)).toBe(D.counts.projects);
    const text: string = (await h.call('collab/aggregateItems', { app_id: D.apps.projects, aggregation: 'sum', field: 'budget', group_by: 'status' })).body.data;
    const lines = text.split('\n');
    expect(lines[0]).toBe(`sum of Budget over 80 items of app #${D.apps.projects}: ${data.total.toFixed(2)} EUR`);
    expect(lines[1]).toBe('by Status:');
    expect(lines).toContain(`Done #${O.status.done}: ${sum(done.map((p) => Number(values(p, F.projects.budget)[0].value))).toFixed(2)} EUR (${done.length} items)`);
    expect(lines.at(-1)).toBe(`${data.groups.length} groups`);
  });

  it('applies the filters of filterItems (checked, keyed by field_id) and groups dates by an interval (default month)', async () => {
    // On the seed's reference day, where its close dates are as written (infra/twins/kit/seed-day.ts).
    const h = await harness({ twins: { collab: { clock: createClock(PODIO_DEMO.today + 10 * 3_600_000) } } });
    const sent = h.recordRequests('collab');
    const r = await h.call('collab/aggregateItems', { app_id: D.apps.deals, aggregation: 'average', field: 'probability', group_by: 'close-date', filters: { stage: ['Won', 'Proposal'], created_on: { from: '2025-02-01' } } }, json);
    expect(r.status).toBe(200);
    const body = sent.find((s) => s.path.endsWith('/calculate'))!.body;
    expect(body).toEqual({
      aggregation: 'average',
      formula: [{ type: 'field', value: F.deals.probability }],
      groupings: [{ type: 'field', value: F.deals.closeDate, sub_value: 'month' }],
      filters: { [F.deals.stage]: [O.stage.won, O.stage.proposal], created_on: { from: '2025-02-01' } },
      limit: 15,
    });
    const matching = await allItems(h, D.apps.deals, { [F.deals.stage]: [O.stage.won, O.stage.proposal], created_on: { from: '2025-02-01' } });
    expect(r.body.data.count).toBe(matching.length);
    expect(r.body.data.group_by).toEqual({ key: 'close-date', label: 'Expected close', type: 'date', interval: 'month' });
    const text: string = (await h.call('collab/aggregateItems', { app_id: D.apps.deals, aggregation: 'average', field: 'probability', group_by: 'close-date', date_interval: 'year', filters: { stage: 'Won' } })).body.data;
    expect(text.split('\n')[0]).toMatch(new RegExp(`^average of Probability over \\d+ items matching the filters of app #${D.apps.deals}: 100%$`));
    expect(text.split('\n')).toContain('by Expected close (per year):');
    expect(text).toContain('2025: 100% (');
  });

  it('groups by a contact, a relation, or who created the items; limit bounds the groups', async () => {
    const h = await harness();
    const byOwner = (await h.call('collab/aggregateItems', { app_id: D.apps.deals, group_by: 'owner' }, json)).body.data;
    expect(byOwner.groups).toContainEqual({ value: D.users.ben.profile_id, label: D.users.ben.name, total: expect.any(Number), count: expect.any(Number) });
    const sent = h.recordRequests('collab');
    const byCreator: string = (await h.call('collab/aggregateItems', { app_id: D.apps.projects, aggregation: 'maximum', field: 'estimated-effort', group_by: 'created_by' })).body.data;
    expect(sent.at(-1)!.body.groupings).toEqual([{ type: 'revision', value: 'created_by' }]);
    // Durations read as hours and minutes.
    expect(byCreator.split('\n')[0]).toMatch(/^maximum of Estimated effort over 80 items of app #8201: \d+h( \d+m)?$/);
    expect(byCreator).toContain(`${D.users.elena.name} #${D.users.elena.user_id}: `);
    const byDeal = await h.call('collab/aggregateItems', { app_id: D.apps.projects, group_by: 'deal', limit: 3 });
    const lines = byDeal.body.data.split('\n');
    expect(lines).toHaveLength(6);
    expect(lines[1]).toBe('by Deal:');
    expect(lines.at(-1)).toBe('showing the first 3 groups — pass a larger limit (up to 100) for more');
    expect(sent.at(-1)!.body.limit).toBe(3);
  });

  it('aggregates a calculation field; a money field allowing several currencies says the amounts are added as numbers', async () => {
    const h = await harness();
    const deals = await allItems(h, D.apps.deals);
    const weighted = (await h.call('collab/aggregateItems', { app_id: D.apps.deals, aggregation: 'sum', field: F.deals.weightedValue }, json)).body.data;
    expect(weighted.total).toBeCloseTo(sum(deals.map((d) => Number(values(d, F.deals.weightedValue)[0]?.value ?? 0))), 2);
    const mixed = await h.call('collab/aggregateItems', { app_id: D.apps.deals, aggregation: 'minimum', field: 'amount' }, json);
    expect(mixed.body.data).toMatchObject({ currencies: ['EUR', 'USD'] });
    expect(mixed.body.data).not.toHaveProperty('currency');
    expect(mixed.body.data.total).toBe(Math.min(...deals.map((d) => Number(values(d, F.deals.amount)[0].value))));
    const text: string = (await h.call('collab/aggregateItems', { app_id: D.apps.deals, aggregation: 'minimum', field: 'amount' })).body.data;
    expect(text.split('\n')[1]).toBe('note: Amount allows EUR, USD; Podio adds the amounts as plain numbers whatever their currency');
  });

  it('checks the field and the grouping against the app before the call', async () => {
    const h = await harness();
    await h.call('collab/getApp', { app_id: D.apps.deals });
    const sent = h.recordRequests('collab');
    const cases: [Record<string, unknown>, string, string][] = [
      [{ aggregation: 'sum' }, 'field', 'needs the field'],
      [{ aggregation: 'sum', field: 'title' }, 'field', '"Deal name" is a text field, which cannot be summed'],
      [{ aggregation: 'average', field: 'stage' }, 'field', 'cannot be averaged'],
      [{ aggregation: 'sum', field: 'nope' }, 'field', 'amount (9203, money)'],
      [{ aggregation: 'count', field: 'amount' }, 'field', 'takes no field'],
      [{ group_by: 'amount' }, 'group_by', '"Amount" is a money field'],
      [{ group_by: 'nope' }, 'group_by', 'stage (9204, category)'],
      [{ group_by: 'stage', date_interval: 'week' }, 'date_interval', 'buckets a date grouping'],
      [{ date_interval: 'week' }, 'date_interval', 'group_by is not set'],
      [{ filters: { stage: 'Nope' } }, 'filters.stage', 'not an option'],
    ];
    for (const [input, parameter, message] of cases) {
      const r = await h.call('collab/aggregateItems', { app_id: D.apps.deals, ...input });
      expect(r.status, parameter).toBe(400);
      expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter } });
      expect(r.body.error.message).toContain(message);
    }
    const limit = await h.call('collab/aggregateItems', { app_id: D.apps.deals, limit: 101 });
    expect(limit.body.error.details.parameter).toBe('limit');
    expect(sent.filter((s) => s.path.endsWith('/calculate'))).toHaveLength(0);
  });
});
