import { describe, expect, it } from 'vitest';
import { HUBSPOT_DEMO, SANDBOX_KEYS, type HubSpotTwin } from '../../infra/twins/hubspot';
import { harness } from '../helpers/harness';

const json = { query: 'format=json' };

describe('getProperties', () => {
  it('lists definitions with crm_ names, options and read-only flags', async () => {
    const h = await harness();
    const r = await h.call('crm/getProperties', { object_type: 'deals' }, json);
    expect(r.body.data.objectType).toBe('deals');
    expect(r.body.data.count).toBe(r.body.data.properties.length);
    const by = Object.fromEntries(r.body.data.properties.map((p: { name: string }) => [p.name, p]));
    expect(by.crm_owner_id).toMatchObject({ label: 'Owner', type: 'enumeration' });
    expect(by.crm_lastmodifieddate).toMatchObject({ readOnly: true });
    expect(by.crm_priority.options).toEqual([{ label: 'Low', value: 'low' }, { label: 'Medium', value: 'medium' }, { label: 'High', value: 'high' }]);
    expect(Object.keys(by).some((n) => n.startsWith('hs_') || n.startsWith('hubspot_'))).toBe(false);
    const text = await h.call('crm/getProperties', { object_type: 'contacts' });
    expect(text.body.data).toContain('crm_lead_status "Lead Status" enumeration/radio options NEW=New, OPEN=Open,');
    expect(text.body.data).toMatch(/\n\d+ contacts properties$/);
  });
});

describe('createProperty', () => {
  it('creates an enumeration property in the default group; values then accept it (the cached definitions are refreshed)', async () => {
    const h = await harness();
    await h.call('crm/createDeal', { values: { dealname: 'warm the cache' } });
    const r = await h.call('crm/createProperty', {
      object_type: 'deals', name: 'contract_tier', label: 'Contract tier', type: 'enumeration', field_type: 'select',
      options: [{ label: 'Gold', value: 'gold' }, { label: 'Silver', value: 'silver' }],
    }, json);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({
      created: true,
      property: { name: 'contract_tier', label: 'Contract tier', type: 'enumeration', fieldType: 'select', groupName: 'dealinformation', options: [{ label: 'Gold', value: 'gold' }, { label: 'Silver', value: 'silver' }], readOnly: false },
    });
    const d = await h.call('crm/createDeal', { values: { dealname: 'Tiered', contract_tier: 'Gold' } }, json);
    expect(d.status).toBe(200);
    expect(h.twin<HubSpotTwin>('crm').state.records.deals.get(d.body.data.id)!.properties.contract_tier).toBe('gold');
  });

  it('refuses names that would collide with the crm_ names, existing names, misfit field types and missing options, before any call', async () => {
    const h = await harness();
    await h.call('crm/getProperties', { object_type: 'contacts' });
    const log = h.recordRequests('crm');
    const base = { object_type: 'contacts', label: 'L', type: 'string', field_type: 'text' };
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ ...base, name: 'crm_score' }, 'name', /reserved for HubSpot's own properties/],
      [{ ...base, name: 'hs_score' }, 'name', /reserved/],
      [{ ...base, name: 'hubspot_score' }, 'name', /reserved/],
      [{ ...base, name: 'Has Space' }, 'name', /lowercase/],
      [{ ...base, name: 'email' }, 'name', /already have a property "email"/],
      [{ ...base, name: 'score', type: 'number', field_type: 'text' }, 'field_type', /does not fit type "number"; use number/],
      [{ ...base, name: 'tier', type: 'enumeration', field_type: 'select' }, 'options', /required for an enumeration/],
      [{ ...base, name: 'tier', options: [{ label: 'A', value: 'a' }] }, 'options', /only apply to enumerations/],
      [{ ...base, name: 'tier', type: 'enumeration', field_type: 'radio', options: [{ label: 'A', value: 'a' }, { label: 'B', value: 'a' }] }, 'options', /unique/],
    ];
    for (const [params, parameter, message] of cases) {
      const r = await h.call('crm/createProperty', params);
      expect(r.status, JSON.stringify(params)).toBe(400);
      expect(r.body.error.details.parameter).toBe(parameter);
      expect(r.body.error.message).toMatch(message);
    }
    expect(log).toEqual([]);
  });

  it('names group_name when HubSpot has no such property group (known only to HubSpot: checked there)', async () => {
    const h = await harness();
    const sent = h.recordRequests('crm');
    const r = await h.call('crm/createProperty', { object_type: 'deals', name: 'tier', label: 'Tier', type: 'string', field_type: 'text', group_name: 'no_such_group' });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'group_name', upstream_status: 400 } });
    expect(r.body.error.message).toContain('Property group "no_such_group" does not exist for deals.');
    expect(sent.filter((s) => s.method === 'POST').map((s) => s.path)).toEqual(['/crm/v3/properties/deals']);
  });

  it('answers FORBIDDEN for a key without the schema scope', async () => {
    const h = await harness();
    const r = await h.call('crm/createProperty', { object_type: 'tickets', name: 'sla_hours', label: 'SLA hours', type: 'number', field_type: 'number' }, { key: SANDBOX_KEYS.member });
    expect(r.status).toBe(403);
    expect(r.body.error).toMatchObject({ code: 'FORBIDDEN', details: { upstream_code: 'MISSING_SCOPES' } });
  });
});

describe('associations', () => {
  const contactId = String(HUBSPOT_DEMO.firstId + HUBSPOT_DEMO.companies);
  const dealId = String(HUBSPOT_DEMO.firstId + HUBSPOT_DEMO.companies + HUBSPOT_DEMO.contacts);

  it('getAssociations answers the docs/spec.md#crm-objects shape: toObjectId a number, types with category, typeId, label', async () => {
    const h = await harness();
    const r = await h.call('crm/getAssociations', { from_object_type: 'contacts', object_id: contactId, to_object_type: 'companies' }, json);
    expect(r.body.data.results).toEqual([
      { toObjectId: HUBSPOT_DEMO.firstId, associationTypes: [{ category: 'CRM_DEFINED', typeId: 1, label: 'Primary' }, { category: 'CRM_DEFINED', typeId: 279, label: null }] },
    ]);
    const text = await h.call('crm/getAssociations', { from_object_type: 'contacts', object_id: contactId, to_object_type: 'companies' });
    expect(text.body.data).toBe(`companies #${HUBSPOT_DEMO.firstId} — Primary (type 1), unlabeled (type 279)\n1 company linked to contacts/${contactId}`);
  });

  it('createAssociation links with the default type of the pair and is idempotent', async () => {
    const h = await harness();
    const r = await h.call('crm/createAssociation', { from_object_type: 'deals', from_object_id: dealId, to_object_type: 'tickets', to_object_id: String(HUBSPOT_DEMO.firstId + 600) }, json);
    expect(r.body.data).toEqual({ associated: true, from: `deals/${dealId}`, to: `tickets/${HUBSPOT_DEMO.firstId + 600}`, typeId: 27 });
    const again = await h.call('crm/createAssociation', { from_object_type: 'deals', from_object_id: dealId, to_object_type: 'tickets', to_object_id: String(HUBSPOT_DEMO.firstId + 600) });
    expect(again.status).toBe(200);
    const links = await h.call('crm/getAssociations', { from_object_type: 'tickets', object_id: String(HUBSPOT_DEMO.firstId + 600), to_object_type: 'deals' }, json);
    expect(links.body.data.results.filter((l: { toObjectId: number }) => l.toObjectId === Number(dealId))).toEqual([
      { toObjectId: Number(dealId), associationTypes: [{ category: 'CRM_DEFINED', typeId: 28, label: null }] },
    ]);
  });

  it('refuses same-type pairs before the call, and answers NOT_FOUND for unknown records', async () => {
    const h = await harness();
    const same = await h.call('crm/createAssociation', { from_object_type: 'deals', from_object_id: dealId, to_object_type: 'deals', to_object_id: dealId });
    expect(same.body.error.details.parameter).toBe('to_object_type');
    const missing = await h.call('crm/createAssociation', { from_object_type: 'deals', from_object_id: dealId, to_object_type: 'contacts', to_object_id: '999999' });
    expect(missing.status).toBe(404);
    const none = await h.call('crm/getAssociations', { from_object_type: 'deals', object_id: '999999', to_object_type: 'contacts' });
    expect(none.status).toBe(404);
    expect(none.body.error.message).toMatch(/No deals record #999999/);
  });
});
