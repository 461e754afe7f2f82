import { describe, expect, it } from 'vitest';
import { PODIO_DEMO, SANDBOX_KEYS } from '../../infra/twins/podio';
import { podioTwin } from './podio-call';

const D = PODIO_DEMO;
const F = D.fields;

describe('Podio twin: item revisions and their diff', () => {
  it('every change is a revision; a write that changes nothing is none', async () => {
    const t = podioTwin();
    const id = (await t.call('POST', `/item/app/${D.apps.deals}/`, { fields: { title: 'Rev', stage: 401, probability: 10 } })).body.item_id;
    t.clock.advance(60_000);
    expect((await t.call('PUT', `/item/${id}`, { fields: { stage: 402, probability: 40 } })).body.revision).toBe(1);
    t.clock.advance(60_000);
    expect((await t.call('PUT', `/item/${id}/value/probability`, 60, SANDBOX_KEYS.member)).body.revision).toBe(2);
    expect((await t.call('PUT', `/item/${id}/value/probability`, 60)).body.revision).toBe(2);
    const list = await t.call('GET', `/item/${id}/revision/`);
    expect(list.body.map((r: any) => [r.revision, r.type, r.created_on, r.created_by.user_id])).toEqual([
      [0, 'creation', '2026-01-15 10:00:00', 1001],
      [1, 'update', '2026-01-15 10:01:00', 1001],
      [2, 'update', '2026-01-15 10:02:00', D.users.member.user_id],
    ]);
    expect((await t.call('GET', `/item/${id}/revision/1`)).body.revision).toBe(1);
    expect((await t.call('GET', `/item/${id}/revision/3`)).status).toBe(404);
  });

  it('GET /item/{id}/revision/{from}/{to}: the changed fields with their values before and after', async () => {
    const t = podioTwin();
    const id = (await t.call('POST', `/item/app/${D.apps.deals}/`, { fields: { title: 'Diff', stage: 401, probability: 10 } })).body.item_id;
    await t.call('PUT', `/item/${id}`, { fields: { stage: 403, probability: 70, notes: 'Sent' } });
    const diff = await t.call('GET', `/item/${id}/revision/0/1`);
    expect(diff.body).toEqual([
      { field_id: F.deals.stage, type: 'category', external_id: 'stage', label: 'Stage', from: [{ value: { id: 401, text: 'Lead', color: 'F2F2F2', status: 'active' } }], to: [{ value: { id: 403, text: 'Proposal', color: 'F7F0C5', status: 'active' } }] },
      { field_id: F.deals.probability, type: 'progress', external_id: 'probability', label: 'Probability', from: [{ value: 10 }], to: [{ value: 70 }] },
      { field_id: F.deals.notes, type: 'text', external_id: 'notes', label: 'Notes', from: [], to: [{ value: 'Sent' }] },
    ]);
    expect((await t.call('GET', `/item/${id}/revision/1/0`)).body[1]).toMatchObject({ from: [{ value: 70 }], to: [{ value: 10 }] });
  });

  it('seeded won deals carry a second revision from the proposal stage', async () => {
    const t = podioTwin();
    const item = [...t.state.items.values()].find((i) => i.app_id === D.apps.deals && i.revisions.length === 2 && i.file_ids.length === 0)!;
    const diff = await t.call('GET', `/item/${item.item_id}/revision/0/1`);
    expect(diff.body).toEqual([expect.objectContaining({ external_id: 'stage', from: [{ value: expect.objectContaining({ text: 'Proposal' }) }], to: [{ value: expect.objectContaining({ text: 'Won' }) }] })]);
  });
});

describe('Podio twin: references and referenceable items', () => {
  it('GET /item/{id}/reference/: items pointing at the item, by app', async () => {
    const t = podioTwin();
    const deal = (await t.call('POST', `/item/app/${D.apps.deals}/`, { fields: { title: 'Ref target', stage: 404, company: D.items.firstCompany } })).body.item_id;
    const p1 = (await t.call('POST', `/item/app/${D.apps.projects}/`, { fields: { 'project-name': 'Rollout A', deal } })).body.item_id;
    const p2 = (await t.call('POST', `/item/app/${D.apps.projects}/`, { fields: { 'project-name': 'Rollout B', deal } })).body.item_id;
    const refs = await t.call('GET', `/item/${deal}/reference/`);
    expect(refs.body).toEqual([{ app: expect.objectContaining({ app_id: D.apps.projects, name: 'Projects' }), items: [expect.objectContaining({ item_id: p2, title: 'Rollout B' }), expect.objectContaining({ item_id: p1, title: 'Rollout A' })] }]);
    // The member does not see the Operations space, so not its references either.
    expect((await t.call('GET', `/item/${deal}/reference/`, undefined, SANDBOX_KEYS.member)).body).toEqual([]);
    const company = await t.call('GET', `/item/${D.items.firstCompany}/reference/`);
    expect(company.body[0].app.app_id).toBe(D.apps.deals);
    expect(company.body[0].items.map((i: any) => i.item_id)).toContain(deal);
  });

  it('GET /item/field/{field_id}/find: items of the referenced apps whose title contains the text', async () => {
    const t = podioTwin();
    const r = await t.call('GET', `/item/field/${F.deals.company}/find?text=northwind&limit=5`);
    expect(r.body.map((i: any) => i.title)).toEqual(['Northwind Traders Nord', 'Northwind Traders']);
    expect(r.body[0]).toMatchObject({ item_id: expect.any(Number), app: { app_id: D.apps.companies, name: 'Companies' }, link: expect.stringContaining('/apps/companies/items/') });
    expect((await t.call('GET', `/item/field/${F.deals.company}/find?limit=3`)).body).toHaveLength(3);
    expect((await t.call('GET', `/item/field/${F.deals.stage}/find?text=x`)).status).toBe(400);
    expect((await t.call('GET', '/item/field/1/find?text=x')).status).toBe(404);
  });
});
