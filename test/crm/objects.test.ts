import { describe, expect, it } from 'vitest';
import { HUBSPOT_DEMO, type HubSpotTwin } from '../../infra/twins/hubspot';
import { linksOf } from '../../infra/twins/hubspot/state';
import { harness } from '../helpers/harness';

const json = { query: 'format=json' };
type H = Awaited<ReturnType<typeof harness>>;
const state = (h: H) => h.twin<HubSpotTwin>('crm').state;
const firstContact = String(HUBSPOT_DEMO.firstId + HUBSPOT_DEMO.companies);

describe('contacts', () => {
  it('createContact maps crm_lead_status to hs_lead_status, takes option labels, and answers the id', async () => {
    const h = await harness();
    const r = await h.call('crm/createContact', { values: { email: 'nia@newco.example', firstname: 'Nia', lastname: 'Long', crm_lead_status: 'In Progress', lifecyclestage: 'lead' } }, json);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ id: expect.any(String) });
    expect(state(h).records.contacts.get(r.body.data.id)!.properties).toMatchObject({ hs_lead_status: 'IN_PROGRESS', lifecyclestage: 'lead', email: 'nia@newco.example' });
    const got = await h.call('crm/getContact', { contact_id: r.body.data.id, return_properties: ['crm_lead_status'] }, json);
    expect(got.body.data.properties).toMatchObject({ firstname: 'Nia', crm_lead_status: 'IN_PROGRESS' });
    expect(got.body.data.url).toMatch(new RegExp(`/record/0-1/${r.body.data.id}$`));
  });

  it('createContact with company matches an existing company and links it as primary; the answer says which', async () => {
    const h = await harness();
    const acme = [...state(h).records.companies.values()].find((c) => c.properties.name === 'Acme Labs')!;
    const companiesBefore = state(h).records.companies.size;
    const r = await h.call('crm/createContact', { values: { email: 'joe@acmelabs.example', firstname: 'Joe', company: 'acme labs' } }, json);
    expect(r.body.data.company).toEqual({ id: acme.id, name: 'acme labs', created: false });
    expect(state(h).records.companies.size).toBe(companiesBefore);
    expect(linksOf(state(h), 'contacts', r.body.data.id, 'companies')).toEqual([{ toId: acme.id, typeIds: [1, 279] }]);
    const text = await h.call('crm/createContact', { values: { email: 'kim@newcorp.example', company: 'Brand New Corp' } });
    expect(text.body.data).toMatch(/^created contact #\d+\nprimary company #\d+ Brand New Corp \(created for this contact\)$/);
    const made = [...state(h).records.companies.values()].find((c) => c.properties.name === 'Brand New Corp');
    expect(made).toBeDefined();
  });

  it('links the company itself when HubSpot did not (auto-association off)', async () => {
    const h = await harness();
    const log = h.recordRequests('crm');
    // The twin's auto-association answers no links: as a portal with the setting off.
    h.twin<HubSpotTwin>('crm').faults.inject({ method: 'GET', path: /\/crm\/v4\/objects\/contacts\/\d+\/associations\/companies/, times: 1, fault: { status: 200, body: { results: [] } } });
    const r = await h.call('crm/createContact', { values: { email: 'eve@x.example', company: 'Globex Labs' } }, json);
    const globex = [...state(h).records.companies.values()].find((c) => c.properties.name === 'Globex Labs')!;
    expect(r.body.data.company).toEqual({ id: globex.id, name: 'Globex Labs', created: false });
    const put = log.find((x) => x.method === 'PUT')!;
    expect(put.path).toBe(`/crm/v4/objects/contacts/${r.body.data.id}/associations/companies/${globex.id}`);
    expect(put.body).toEqual([{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 1 }]);
  });

  it('refuses a contact without email or name, a malformed email; HubSpot\'s duplicate-email 409 becomes INVALID_PARAMETER', async () => {
    const h = await harness();
    const none = await h.call('crm/createContact', { values: { jobtitle: 'CEO' } });
    expect(none.body.error.details).toMatchObject({ parameter: 'values' });
    const bad = await h.call('crm/createContact', { values: { email: 'not-an-email' } });
    expect(bad.body.error.details).toMatchObject({ parameter: 'values.email' });
    const existing = state(h).records.contacts.get(firstContact)!;
    const dup = await h.call('crm/createContact', { values: { email: existing.properties.email } });
    expect(dup.status).toBe(400);
    expect(dup.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'values.email', upstream_status: 409 } });
    expect(dup.body.error.message).toMatch(new RegExp(`Contact already exists. Existing ID: ${firstContact}`));
    const other = String(Number(firstContact) + 1);
    const taken = await h.call('crm/updateContact', { contact_id: other, values: { email: existing.properties.email } });
    expect(taken.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'values.email', upstream_status: 409 } });
  });

  it('updateContact, deleteContact (soft, with the restore hint) and getContact of a deleted contact', async () => {
    const h = await harness();
    const u = await h.call('crm/updateContact', { contact_id: firstContact, values: { jobtitle: 'CFO', crm_owner_id: 'Priya Patel' } }, json);
    expect(u.body.data).toEqual({ id: firstContact, updated: true, changed: ['jobtitle', 'crm_owner_id'] });
    expect(state(h).records.contacts.get(firstContact)!.properties).toMatchObject({ jobtitle: 'CFO', hubspot_owner_id: '103' });
    const d = await h.call('crm/deleteContact', { contact_id: firstContact }, json);
    expect(d.body.data).toEqual({ deleted: true, contactId: firstContact });
    const g = await h.call('crm/getContact', { contact_id: firstContact });
    expect(g.status).toBe(404);
    expect(g.body.error.message).toMatch(/Contact #\d+ was deleted .*restorable/);
  });
});

describe('companies and tickets: the same tools with their own names and defaults', () => {
  it('companies: create (name required, industry by label), get, update, delete', async () => {
    const h = await harness();
    const missing = await h.call('crm/createCompany', { values: { domain: 'x.example' } });
    expect(missing.body.error.details.parameter).toBe('values.name');
    const c = await h.call('crm/createCompany', { values: { name: 'Initrode', domain: 'initrode.example', industry: 'Computer Software', numberofemployees: 40 } }, json);
    const id = c.body.data.id;
    expect(state(h).records.companies.get(id)!.properties).toMatchObject({ industry: 'COMPUTER_SOFTWARE', numberofemployees: '40' });
    const g = await h.call('crm/getCompany', { company_id: id });
    expect(g.body.data.split('\n')[0]).toBe(`#${id} Initrode (initrode.example) — industry COMPUTER_SOFTWARE`);
    expect((await h.call('crm/updateCompany', { company_id: id, values: { city: 'Austin' } }, json)).body.data.updated).toBe(true);
    expect((await h.call('crm/deleteCompany', { company_id: id }, json)).body.data).toEqual({ deleted: true, companyId: id });
  });

  it('tickets: subject required, pipeline and first stage by default, a stage by label, multi-select categories', async () => {
    const h = await harness();
    const missing = await h.call('crm/createTicket', { values: { content: 'x' } });
    expect(missing.body.error.details.parameter).toBe('values.subject');
    const t = await h.call('crm/createTicket', { values: { subject: 'Printer on fire', crm_ticket_priority: 'Urgent', crm_ticket_category: ['Billing issue', 'PRODUCT_ISSUE'] } }, json);
    const id = t.body.data.id;
    expect(state(h).records.tickets.get(id)!.properties).toMatchObject({ hs_pipeline: '0', hs_pipeline_stage: '1', hs_ticket_priority: 'URGENT', hs_ticket_category: 'BILLING_ISSUE;PRODUCT_ISSUE' });
    const badCat = await h.call('crm/createTicket', { values: { subject: 'x', crm_ticket_category: 'BILLING_ISSUE;Nope' } });
    expect(badCat.body.error.details.parameter).toBe('values.crm_ticket_category');
    expect(badCat.body.error.message).toMatch(/"Nope" is not an option/);
    const single = await h.call('crm/createTicket', { values: { subject: 'x', crm_ticket_priority: ['HIGH'] } });
    expect(single.body.error.message).toMatch(/takes one value, not a list/);
    const u = await h.call('crm/updateTicket', { ticket_id: id, values: { crm_pipeline_stage: 'Waiting on us' } }, json);
    expect(u.status).toBe(200);
    expect(state(h).records.tickets.get(id)!.properties.hs_pipeline_stage).toBe('3');
    const g = await h.call('crm/getTicket', { ticket_id: id });
    expect(g.body.data.split('\n')[0]).toBe(`#${id} Printer on fire — status Waiting on us (Support Pipeline), crm_ticket_priority URGENT, crm_ticket_category BILLING_ISSUE;PRODUCT_ISSUE`);
    expect((await h.call('crm/deleteTicket', { ticket_id: id }, json)).body.data).toEqual({ deleted: true, ticketId: id });
  });

  it('refuses ids that are not HubSpot ids before any call', async () => {
    const h = await harness();
    const log = h.recordRequests('crm');
    const r = await h.call('crm/getTicket', { ticket_id: 'abc' });
    expect(r.body.error.details.parameter).toBe('ticket_id');
    expect(log).toEqual([]);
  });
});

describe('contacts as the spec reads them', () => {
  it('getContact returns the spec\'s default properties; return_properties adds to them', async () => {
    const h = await harness();
    const c = state(h).records.contacts.get(firstContact)!.properties;
    const r = await h.call('crm/getContact', { contact_id: firstContact }, json);
    expect(Object.keys(r.body.data.properties)).toEqual(expect.arrayContaining(['firstname', 'lastname', 'email', 'phone', 'company', 'lifecyclestage']));
    expect(r.body.data.properties).not.toHaveProperty('jobtitle');
    expect(r.body.data.properties).toMatchObject({ phone: c.phone, company: c.company, lifecyclestage: c.lifecyclestage });
    const more = await h.call('crm/getContact', { contact_id: firstContact, return_properties: ['jobtitle'] }, json);
    expect(more.body.data.properties).toMatchObject({ jobtitle: c.jobtitle, phone: c.phone, email: c.email });
  });

  it('updateContact with company links the matched company as primary (the old one stays linked, not primary), or creates it', async () => {
    const h = await harness();
    const s = state(h);
    const old = linksOf(s, 'contacts', firstContact, 'companies').find((l) => l.typeIds.includes(1))!.toId;
    const other = [...s.records.companies.values()].find((c) => c.id !== old)!;
    const r = await h.call('crm/updateContact', { contact_id: firstContact, values: { company: other.properties.name!.toUpperCase() } }, json);
    expect(r.body.data).toEqual({ id: firstContact, updated: true, changed: ['company'], company: { id: other.id, name: other.properties.name!.toUpperCase(), created: false } });
    const links = linksOf(s, 'contacts', firstContact, 'companies');
    expect(links.filter((l) => l.typeIds.includes(1)).map((l) => l.toId)).toEqual([other.id]);
    expect(links.find((l) => l.toId === old)!.typeIds).toEqual([279]);
    // Again: already the primary company, nothing else linked or made.
    const companies = s.records.companies.size;
    const again = await h.call('crm/updateContact', { contact_id: firstContact, values: { company: other.properties.name } });
    expect(again.body.data).toBe(`updated contact #${firstContact}: company\nprimary company #${other.id} ${other.properties.name} (existing company matched)`);
    expect(s.records.companies.size).toBe(companies);
    const made = await h.call('crm/updateContact', { contact_id: firstContact, values: { company: 'Fresh Start Ltd' } }, json);
    const fresh = [...s.records.companies.values()].find((c) => c.properties.name === 'Fresh Start Ltd')!;
    expect(made.body.data.company).toEqual({ id: fresh.id, name: 'Fresh Start Ltd', created: true });
    expect(linksOf(s, 'contacts', firstContact, 'companies').filter((l) => l.typeIds.includes(1)).map((l) => l.toId)).toEqual([fresh.id]);
  });

  it('takes ids as numbers and in the printed #id form, everywhere an id is taken', async () => {
    const h = await harness();
    const byNumber = await h.call('crm/getContact', { contact_id: Number(firstContact) }, json);
    expect(byNumber.body.data.id).toBe(firstContact);
    const printed = await h.call('crm/updateContact', { contact_id: `#${firstContact}`, values: { jobtitle: 'CTO' } }, json);
    expect(printed.body.data).toMatchObject({ id: firstContact, updated: true });
    const company = linksOf(state(h), 'contacts', firstContact, 'companies')[0]!.toId;
    const assoc = await h.call('crm/getAssociations', { from_object_type: 'contacts', object_id: Number(firstContact), to_object_type: 'companies' }, json);
    expect(assoc.status).toBe(200);
    const link = await h.call('crm/createAssociation', { from_object_type: 'companies', from_object_id: `#${company}`, to_object_type: 'contacts', to_object_id: Number(firstContact) }, json);
    expect(link.body.data).toMatchObject({ associated: true, from: `companies/${company}`, to: `contacts/${firstContact}` });
    const bad = await h.call('crm/getContact', { contact_id: -4 });
    expect(bad.body.error.details).toMatchObject({ parameter: 'contact_id', expected: expect.stringMatching(/digits/) });
  });

  it('a repeated delete of an archived contact, company or ticket answers success', async () => {
    const h = await harness();
    for (const [tool, key, values] of [
      ['Contact', 'contact_id', { email: 'twice@x.example' }],
      ['Company', 'company_id', { name: 'Twice Inc' }],
      ['Ticket', 'ticket_id', { subject: 'Twice' }],
    ] as const) {
      const id = (await h.call(`crm/create${tool}`, { values }, json)).body.data.id;
      const first = await h.call(`crm/delete${tool}`, { [key]: id }, json);
      const second = await h.call(`crm/delete${tool}`, { [key]: id }, json);
      expect(first.body.data, tool).toEqual({ deleted: true, [`${tool.toLowerCase()}Id`]: id });
      expect(second.status, tool).toBe(200);
      expect(second.body.data, tool).toEqual({ deleted: true, [`${tool.toLowerCase()}Id`]: id, already_deleted: true });
    }
  });
});
