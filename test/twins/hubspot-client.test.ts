/**
 * HubSpot's official Node client (@hubspot/api-client) against the twin, unchanged, over a
 * loopback socket (the client sends with its own HTTP transport): the client is strict about
 * statuses and shapes, so what it accepts the twin answers as HubSpot does.
 */
import { getRequestListener } from '@hono/node-server';
import { Client } from '@hubspot/api-client';
import { describe, expect, it } from 'vitest';
import { createHubSpotTwin, HUBSPOT_DEMO, SANDBOX_KEYS } from '../../infra/twins/hubspot';
import { loopbackServer } from '../helpers/loopback';

const twin = createHubSpotTwin({ rateLimit: { limit: 100_000, windowMs: 10_000 } });
const base = loopbackServer(getRequestListener(twin.app.fetch));
const client = () => new Client({ accessToken: SANDBOX_KEYS.owner, basePath: base() });

type Api = 'deals' | 'contacts' | 'companies' | 'tickets';
const firstValues: Record<Api, Record<string, string>> = {
  deals: { dealname: 'Client deal', amount: '1500', pipeline: 'default', dealstage: 'qualifiedtobuy' },
  contacts: { email: 'client.judge@judge.example', firstname: 'Client', lastname: 'Judge' },
  companies: { name: 'Judge Corp', domain: 'judge.example' },
  tickets: { subject: 'Client ticket', hs_pipeline: '0', hs_pipeline_stage: '1' },
};
const changed: Record<Api, Record<string, string>> = {
  deals: { amount: '2500' },
  contacts: { jobtitle: 'Tester' },
  companies: { city: 'Austin' },
  tickets: { hs_ticket_priority: 'HIGH' },
};
const searchProp: Record<Api, string> = { deals: 'dealname', contacts: 'firstname', companies: 'name', tickets: 'subject' };

describe('@hubspot/api-client against the HubSpot twin', () => {
  for (const type of ['deals', 'contacts', 'companies', 'tickets'] as const) {
    it(`${type}: create (201), read, update, search, archive, read archived`, async () => {
      const api = client().crm[type];
      const made = await api.basicApi.create({ properties: firstValues[type], associations: [] });
      expect(made.id).toMatch(/^\d+$/);
      expect(made.createdAt).toBeInstanceOf(Date);
      expect(made.properties).toMatchObject(firstValues[type]);
      const got = await api.basicApi.getById(made.id, Object.keys(firstValues[type]));
      expect(got.properties).toMatchObject(firstValues[type]);
      const updated = await api.basicApi.update(made.id, { properties: changed[type] });
      expect(updated.properties).toMatchObject(changed[type]);
      const found = await api.searchApi.doSearch({
        filterGroups: [{ filters: [{ propertyName: 'hs_object_id', operator: 'EQ' as never, value: made.id }] }],
        sorts: [], properties: [searchProp[type]], limit: 10, after: '0',
      });
      expect(found.total).toBe(1);
      expect(found.results[0]!.properties[searchProp[type]]).toBe(firstValues[type][searchProp[type]]);
      await api.basicApi.archive(made.id);
      await expect(api.basicApi.getById(made.id)).rejects.toMatchObject({ code: 404, body: { category: 'OBJECT_NOT_FOUND' } });
      const archived = await api.basicApi.getById(made.id, undefined, undefined, undefined, true);
      expect(archived.archived).toBe(true);
    });
  }

  it('getAll follows paging.next.after to the end', async () => {
    const all = await client().crm.companies.getAll(25);
    expect(all.length).toBe([...twin.state.records.companies.values()].filter((r) => !r.archivedAt).length);
    expect(new Set(all.map((c) => c.id)).size).toBe(all.length);
    const deals = await client().crm.deals.getAll(100, undefined, ['dealname']);
    expect(deals.length).toBeGreaterThanOrEqual(HUBSPOT_DEMO.deals);
  });

  it('search pages with after and sorts', async () => {
    const api = client().crm.deals.searchApi;
    const page1 = await api.doSearch({ filterGroups: [], sorts: ['-amount'] as never, properties: ['amount'], limit: 5, after: '0' });
    expect(page1.results).toHaveLength(5);
    expect(page1.paging?.next?.after).toBe('5');
    const amounts = page1.results.map((r) => Number(r.properties.amount));
    expect(amounts).toEqual([...amounts].sort((a, b) => b - a));
    const page2 = await api.doSearch({ filterGroups: [], sorts: ['-amount'] as never, properties: ['amount'], limit: 5, after: page1.paging!.next!.after });
    expect(Number(page2.results[0]!.properties.amount)).toBeLessThanOrEqual(amounts[4]!);
  });

  it('properties: list, create (201), read one', async () => {
    const core = client().crm.properties.coreApi;
    const list = await core.getAll('deals');
    expect(list.results.map((p) => p.name)).toEqual(expect.arrayContaining(['dealname', 'dealstage', 'hubspot_owner_id']));
    const made = await core.create('contacts', {
      name: 'judge_score', label: 'Judge score', type: 'number' as never, fieldType: 'number' as never, groupName: 'contactinformation',
    });
    expect(made).toMatchObject({ name: 'judge_score', type: 'number', hubspotDefined: false });
    const one = await core.getByName('contacts', 'judge_score');
    expect(one.label).toBe('Judge score');
    const groups = await client().crm.properties.groupsApi.getAll('tickets');
    expect(groups.results[0]!.name).toBe('ticketinformation');
  });

  it('pipelines and stages', async () => {
    const api = client().crm.pipelines;
    const deals = await api.pipelinesApi.getAll('deals');
    expect(deals.results.map((p) => p.label)).toEqual(['Sales Pipeline', 'Renewals']);
    const stages = await api.pipelineStagesApi.getAll('tickets', '0');
    expect(stages.results.map((s) => s.label)).toEqual(['New', 'Waiting on contact', 'Waiting on us', 'Closed']);
  });

  it('associations v4: default link, labelled link, page, delete', async () => {
    const c = client();
    const deal = await c.crm.deals.basicApi.create({ properties: { dealname: 'Linked deal' }, associations: [] });
    const contactId = String(HUBSPOT_DEMO.firstId + HUBSPOT_DEMO.companies);
    const companyId = String(HUBSPOT_DEMO.firstId);
    const def = await c.crm.associations.v4.basicApi.createDefault('deals', deal.id, 'contacts', contactId);
    expect(def.status).toBe('COMPLETE');
    expect(def.results[0]!.associationSpec.associationTypeId).toBe(3);
    const labelled = await c.crm.associations.v4.basicApi.create('deals', deal.id, 'companies', companyId, [{ associationCategory: 'HUBSPOT_DEFINED' as never, associationTypeId: 5 }]);
    expect(labelled.labels).toEqual(['Primary']);
    const page = await c.crm.associations.v4.basicApi.getPage('deals', deal.id, 'companies');
    expect(page.results).toHaveLength(1);
    expect(page.results[0]!.associationTypes.map((t) => t.typeId)).toEqual([5]);
    await c.crm.associations.v4.basicApi.archive('deals', deal.id, 'companies', companyId);
    expect((await c.crm.associations.v4.basicApi.getPage('deals', deal.id, 'companies')).results).toEqual([]);
    const batch = await c.crm.associations.v4.batchApi.getPage('deals', 'contacts', { inputs: [{ id: deal.id }] });
    expect(batch.results[0]!.to.map((t) => String(t.toObjectId))).toEqual([contactId]);
  });

  it('batch create, read, update and archive', async () => {
    const api = client().crm.contacts.batchApi;
    const made = await api.create({ inputs: [{ properties: { email: 'b1@batch.example' }, associations: [] }, { properties: { email: 'b2@batch.example' }, associations: [] }] });
    expect(made.status).toBe('COMPLETE');
    const ids = made.results.map((r) => r.id);
    const read = await api.read({ inputs: ids.map((id) => ({ id })), properties: ['email'], propertiesWithHistory: [] });
    expect(read.results.map((r) => r.properties.email).sort()).toEqual(['b1@batch.example', 'b2@batch.example']);
    const upd = await api.update({ inputs: ids.map((id) => ({ id, properties: { lifecyclestage: 'customer' } })) });
    expect(upd.results.every((r) => r.properties.lifecyclestage === 'customer')).toBe(true);
    await api.archive({ inputs: ids.map((id) => ({ id })) });
    expect(ids.every((id) => twin.state.records.contacts.get(id)!.archivedAt !== undefined)).toBe(true);
  });

  it('surfaces HubSpot\'s error bodies: 400 VALIDATION_ERROR, 401 for a wrong token, and a 429 with the policyName the client retries on', async () => {
    await expect(client().crm.deals.basicApi.create({ properties: { dealname: 'x', dealstage: 'nope' }, associations: [] }))
      .rejects.toMatchObject({ code: 400, body: { status: 'error', category: 'VALIDATION_ERROR' } });
    const stranger = new Client({ accessToken: 'pat-na1-00000000-0000-0000-0000-000000000000', basePath: base() });
    await expect(stranger.crm.deals.basicApi.getPage(1)).rejects.toMatchObject({ code: 401, body: { category: 'INVALID_AUTHENTICATION' } });
    twin.faults.inject({ path: '/crm/v3/pipelines/deals', times: 1, fault: { status: 429, body: { status: 'error', message: 'You have reached your ten_secondly_rolling limit.', errorType: 'RATE_LIMIT', correlationId: 'c', policyName: 'TEN_SECONDLY_ROLLING' } } });
    await expect(client().crm.pipelines.pipelinesApi.getAll('deals')).rejects.toMatchObject({ code: 429, body: { policyName: 'TEN_SECONDLY_ROLLING' } });
    const limited = createHubSpotTwin({ rateLimit: { limit: 1, windowMs: 10_000 } });
    await limited.fetch('https://api.hubapi.com/crm/v3/pipelines/deals', { headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}` } });
    const over = await limited.fetch('https://api.hubapi.com/crm/v3/pipelines/deals', { headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}` } });
    expect(over.status).toBe(429);
    expect(await over.json()).toMatchObject({ status: 'error', policyName: 'TEN_SECONDLY_ROLLING', errorType: 'RATE_LIMIT' });
  });
});
