import { describe, expect, it } from 'vitest';
import { harness } from '../helpers/harness';
import { PODIO_DEMO } from '../../infra/twins/podio';

// Every collab batch answers a refused request as every platform's batches do: each invalid entry in
// details.errors, named by its own index, the first also in details.parameter; nothing written.
const json = { query: 'format=json' };
const D = PODIO_DEMO;
const F = D.fields;
const deal = D.items.firstDeal;
type Problem = { parameter: string; expected: string; message: string };
const writes = (sent: { method: string }[]) => sent.filter((r) => r.method !== 'GET');

describe('collab batches list every invalid entry in details.errors', () => {
  it('batchCreateItems: 3 items, 2 invalid → both reported at their indexes, none created', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    const items = [
      { fields: { [F.deals.title]: 'Bare date', [F.deals.stage]: 'Lead', [F.deals.closeDate]: '2025-06-30' } },
      { fields: { [F.deals.title]: 'Fine', [F.deals.stage]: 'Lead' } },
      { fields: { [F.deals.title]: 'Bad stage', [F.deals.stage]: 'Maybe' } },
    ];
    const r = await h.call('collab/batchCreateItems', { app_id: D.apps.deals, items }, json);
    expect(r.status).toBe(400);
    const { details } = r.body.error;
    expect(details.parameter).toBe(`items.0.fields.${F.deals.closeDate}`);
    expect(details.errors.map((e: Problem) => e.parameter)).toEqual([`items.0.fields.${F.deals.closeDate}`, `items.2.fields.${F.deals.stage}`]);
    for (const e of details.errors) expect(Object.keys(e).sort()).toEqual(['expected', 'message', 'parameter']);
    expect(details.errors[1].message).toContain('Qualified');
    expect(writes(sent)).toEqual([]);
  });

  it('batchUpdateItems: 3 updates, 2 invalid → both reported at their indexes, none written', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    const items = [
      { item_id: deal, fields: { [F.deals.probability]: 50 } },
      { item_id: deal + 1, fields: { [F.deals.probability]: 101 } },
      { item_id: 999999, fields: { [F.deals.probability]: 1 } },
    ];
    const r = await h.call('collab/batchUpdateItems', { items }, json);
    expect(r.status).toBe(400);
    expect(r.body.error.details.errors.map((e: Problem) => e.parameter)).toEqual([`items.1.fields.${F.deals.probability}`, 'items.2.item_id']);
    expect(r.body.error.details.parameter).toBe(`items.1.fields.${F.deals.probability}`);
    expect(writes(sent)).toEqual([]);
  });

  it('createTasks: 3 tasks, 2 invalid → both reported at their indexes, none written', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    const tasks = [{ text: 'Half a reference', ref_id: deal }, { text: 'Fine' }, { text: 'Half the other way', ref_type: 'item' }];
    const r = await h.call('collab/createTasks', { tasks }, json);
    expect(r.status).toBe(400);
    expect(r.body.error.details.parameter).toBe('tasks.0.ref_type');
    expect(r.body.error.details.errors.map((e: Problem) => e.parameter)).toEqual(['tasks.0.ref_type', 'tasks.2.ref_id']);
    expect(writes(sent)).toEqual([]);
  });
});
