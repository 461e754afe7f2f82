import { describe, expect, it } from 'vitest';
import { crmCategory, crmName, crmProperties, nameMap, reservedName } from '../../functions/crm/properties/names';
import { defaultPropertyDefs } from '../../infra/twins/hubspot/model';

describe('crm_ name mapping', () => {
  const deals = nameMap(defaultPropertyDefs().deals.map((p) => p.name));
  const contacts = nameMap(defaultPropertyDefs().contacts.map((p) => p.name));

  it('shows HubSpot names the crm_ way (hs_ and hubspot_ prefixes), others unchanged', () => {
    expect(crmName('hs_lastmodifieddate')).toBe('crm_lastmodifieddate');
    expect(crmName('hs_object_id')).toBe('crm_object_id');
    expect(crmName('hs_lead_status')).toBe('crm_lead_status');
    expect(crmName('hubspot_owner_id')).toBe('crm_owner_id');
    expect(crmName('dealname')).toBe('dealname');
    expect(crmName('lastmodifieddate')).toBe('lastmodifieddate');
    expect(crmProperties({ hs_object_id: '1', hubspot_owner_id: '101', amount: '5' })).toEqual({ crm_object_id: '1', crm_owner_id: '101', amount: '5' });
  });

  it('goes back through the object\'s property list, not mechanically', () => {
    expect(deals.toWire('crm_owner_id')).toBe('hubspot_owner_id');
    expect(deals.toWire('crm_lastmodifieddate')).toBe('hs_lastmodifieddate');
    expect(deals.toWire('crm_object_id')).toBe('hs_object_id');
    expect(contacts.toWire('crm_lead_status')).toBe('hs_lead_status');
    expect(deals.toWire('dealname')).toBe('dealname');
    // Not a property of the object: no guess.
    expect(deals.toWire('crm_lead_status')).toBeUndefined();
    expect(deals.toWire('crm_nothing')).toBeUndefined();
    // HubSpot's own names are not accepted by the tools' side.
    expect(deals.toWire('hubspot_owner_id')).toBeUndefined();
    expect(deals.toWire('hs_object_id')).toBeUndefined();
  });

  it('round-trips every default property of every object', () => {
    for (const defs of Object.values(defaultPropertyDefs())) {
      const m = nameMap(defs.map((p) => p.name));
      for (const p of defs) expect(m.toWire(m.toCrm(p.name))).toBe(p.name);
    }
  });

  it('keeps hs_ when two HubSpot names meet on one crm_ name', () => {
    const m = nameMap(['hubspot_x', 'hs_x']);
    expect(m.toWire('crm_x')).toBe('hs_x');
    expect(m.names()).toEqual(['crm_x']);
  });

  it('reserves the prefixes a custom property could collide with', () => {
    expect(reservedName('hs_tier')).toBe(true);
    expect(reservedName('hubspot_tier')).toBe(true);
    expect(reservedName('crm_tier')).toBe(true);
    expect(reservedName('tier')).toBe(false);
  });

  it('writes the HUBSPOT_DEFINED association category as CRM_DEFINED (docs/spec.md#crm-objects)', () => {
    expect(crmCategory('HUBSPOT_DEFINED')).toBe('CRM_DEFINED');
    expect(crmCategory('USER_DEFINED')).toBe('USER_DEFINED');
  });
});
