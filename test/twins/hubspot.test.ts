import { describe, expect, it } from 'vitest';
import { createClock } from '../../infra/twins/kit';
import { createHubSpotTwin, HUBSPOT_DEMO, SANDBOX_KEYS, type HubSpotTwin } from '../../infra/twins/hubspot';
import { linksOf } from '../../infra/twins/hubspot/state';

const owner = { authorization: `Bearer ${SANDBOX_KEYS.owner}`, 'content-type': 'application/json' };
async function call(t: HubSpotTwin, method: string, path: string, body?: unknown, headers: Record<string, string> = owner) {
  const res = await t.fetch(`https://api.hubapi.com${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

describe('HubSpot twin', () => {
  it('seeds a realistic pipeline once per process; each twin is a cheap, independent copy', async () => {
    const a = createHubSpotTwin();
    const b = createHubSpotTwin();
    // The seed's records are shared, not rebuilt or cloned per twin (a write replaces the twin's own entry).
    const deal = String(HUBSPOT_DEMO.firstId + HUBSPOT_DEMO.companies + HUBSPOT_DEMO.contacts);
    expect(a.state.records.deals.get(deal)).toBe(b.state.records.deals.get(deal));
    expect(a.state.records.companies.size).toBe(HUBSPOT_DEMO.companies);
    expect(a.state.records.contacts.size).toBe(HUBSPOT_DEMO.contacts);
    expect(a.state.records.deals.size).toBe(HUBSPOT_DEMO.deals);
    expect(a.state.records.tickets.size).toBe(HUBSPOT_DEMO.tickets);
    const id = String(HUBSPOT_DEMO.firstId);
    await call(a, 'PATCH', `/crm/v3/objects/companies/${id}`, { properties: { city: 'Changed' } });
    expect(a.state.records.companies.get(id)!.properties.city).toBe('Changed');
    expect(b.state.records.companies.get(id)!.properties.city).not.toBe('Changed');
    expect(createHubSpotTwin().state.records.companies.get(id)!.properties.city).not.toBe('Changed');
    // Every contact has its company as primary; every deal a primary company.
    const contact = String(HUBSPOT_DEMO.firstId + HUBSPOT_DEMO.companies);
    expect(linksOf(a.state, 'contacts', contact, 'companies')[0]!.typeIds).toEqual([1, 279]);
    expect(linksOf(a.state, 'companies', id, 'contacts').length).toBeGreaterThan(0);
  });

  it('takes Bearer tokens only: the owner and member keys; anything else is 401 in HubSpot\'s body', async () => {
    const t = createHubSpotTwin();
    expect((await call(t, 'GET', '/crm/v3/objects/deals', undefined, { authorization: `Bearer ${SANDBOX_KEYS.member}` })).status).toBe(200);
    for (const headers of [{} as Record<string, string>, { authorization: `Basic ${Buffer.from(`${SANDBOX_KEYS.owner}:`).toString('base64')}` }, { authorization: 'Bearer nope' }]) {
      const r = await call(t, 'GET', '/crm/v3/objects/deals', undefined, headers);
      expect(r.status).toBe(401);
      expect(r.body).toMatchObject({ status: 'error', category: 'INVALID_AUTHENTICATION', correlationId: expect.any(String) });
    }
    const viaQuery = await call(t, 'GET', `/crm/v3/objects/deals?hapikey=${SANDBOX_KEYS.owner}`, undefined, {});
    expect(viaQuery.status).toBe(401);
  });

  it('sends X-HubSpot-RateLimit-* on every answer and a 429 with policyName when the window is spent; the clock opens the next window', async () => {
    const clock = createClock(Date.UTC(2026, 0, 1));
    const t = createHubSpotTwin({ clock, rateLimit: { limit: 2, windowMs: 10_000 } });
    const first = await call(t, 'GET', '/crm/v3/pipelines/deals');
    expect(first.headers.get('x-hubspot-ratelimit-max')).toBe('2');
    expect(first.headers.get('x-hubspot-ratelimit-remaining')).toBe('1');
    expect(first.headers.get('x-hubspot-ratelimit-interval-milliseconds')).toBe('10000');
    expect(first.headers.get('x-hubspot-ratelimit-daily')).toBe('250000');
    await call(t, 'GET', '/crm/v3/pipelines/deals');
    const over = await call(t, 'GET', '/crm/v3/pipelines/deals');
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ status: 'error', errorType: 'RATE_LIMIT', policyName: 'TEN_SECONDLY_ROLLING', category: 'RATE_LIMITS' });
    expect(over.headers.get('x-hubspot-ratelimit-remaining')).toBe('0');
    clock.advance(10_000);
    expect((await call(t, 'GET', '/crm/v3/pipelines/deals')).status).toBe(200);
  });

  it('validates writes as HubSpot does: unknown properties, options, numbers, read-only values, stage of pipeline, required ticket stage', async () => {
    const t = createHubSpotTwin();
    const bad = await call(t, 'POST', '/crm/v3/objects/deals', { properties: { dealname: 'x', amount: 'ten', nope: '1', hs_object_id: '5', dealstage: '6482717' } });
    expect(bad.status).toBe(400);
    expect(bad.body.category).toBe('VALIDATION_ERROR');
    const errors = bad.body.errors.map((e: { code: string }) => e.code).sort();
    expect(errors).toEqual(['INVALID_INTEGER', 'PROPERTY_DOESNT_EXIST', 'READ_ONLY_VALUE']);
    const stage = await call(t, 'POST', '/crm/v3/objects/deals', { properties: { dealname: 'x', dealstage: '6482717' } });
    expect(stage.body.errors[0].code).toBe('INVALID_PIPELINE_STAGE');
    const ticket = await call(t, 'POST', '/crm/v3/objects/tickets', { properties: { subject: 'x' } });
    expect(ticket.body.errors[0]).toMatchObject({ code: 'REQUIRED', context: { propertyName: ['hs_pipeline_stage'] } });
    const ok = await call(t, 'POST', '/crm/v3/objects/deals', { properties: { dealname: 'x', closedate: '2026-03-01', amount: '12.5' } });
    expect(ok.status).toBe(201);
    expect(ok.body.properties).toMatchObject({ closedate: '2026-03-01T00:00:00.000Z', pipeline: 'default', dealstage: 'appointmentscheduled', hs_deal_stage_probability: '0.2' });
  });

  it('keeps contact emails unique (409) and links a contact\'s company (matched or created) as primary', async () => {
    const t = createHubSpotTwin();
    const email = t.state.records.contacts.get(String(HUBSPOT_DEMO.firstId + HUBSPOT_DEMO.companies))!.properties.email;
    const dup = await call(t, 'POST', '/crm/v3/objects/contacts', { properties: { email: email!.toUpperCase() } });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toMatch(/Contact already exists. Existing ID: \d+/);
    const before = t.state.records.companies.size;
    const c = await call(t, 'POST', '/crm/v3/objects/contacts', { properties: { email: 'new@q.example', company: 'Quasar Ltd' } });
    expect(t.state.records.companies.size).toBe(before + 1);
    const [link] = linksOf(t.state, 'contacts', c.body.id, 'companies');
    expect(t.state.records.companies.get(link!.toId)!.properties.name).toBe('Quasar Ltd');
    expect(link!.typeIds).toEqual([1, 279]);
  });

  it('search: HubSpot\'s limits, tokenised CONTAINS_TOKEN, query by word prefix, 10,000-result window', async () => {
    const t = createHubSpotTwin();
    const f = { propertyName: 'amount', operator: 'GT', value: '1' };
    const search = (body: unknown) => call(t, 'POST', '/crm/v3/objects/deals/search', body);
    expect((await search({ filterGroups: Array.from({ length: 6 }, () => ({ filters: [f] })) })).status).toBe(400);
    expect((await search({ filterGroups: [{ filters: Array.from({ length: 7 }, () => f) }] })).status).toBe(400);
    expect((await search({ filterGroups: Array.from({ length: 4 }, () => ({ filters: Array.from({ length: 5 }, () => f) })) })).body.message).toMatch(/Too many filters: 20/);
    expect((await search({ limit: 201 })).status).toBe(400);
    expect((await search({ after: '9990', limit: 20 })).body.message).toMatch(/at most 10000 results/);
    expect((await search({ filterGroups: [{ filters: [{ propertyName: 'nope', operator: 'EQ', value: '1' }] }] })).status).toBe(400);
    const token = await search({ filterGroups: [{ filters: [{ propertyName: 'dealname', operator: 'CONTAINS_TOKEN', value: 'RENEWAL' }] }], limit: 200 });
    expect(token.body.total).toBeGreaterThan(0);
    expect(token.body.results.every((r: { properties: { dealname: string } }) => / renewal$/.test(r.properties.dealname))).toBe(true);
    // A token is a whole word: "renew" alone does not match "renewal".
    expect((await search({ filterGroups: [{ filters: [{ propertyName: 'dealname', operator: 'CONTAINS_TOKEN', value: 'renew' }] }] })).body.total).toBe(0);
    const q = await call(t, 'POST', '/crm/v3/objects/contacts/search', { query: 'ad alv', limit: 200, properties: ['firstname', 'lastname'] });
    expect(q.body.total).toBeGreaterThan(0);
    expect(q.body.results.every((r: { properties: Record<string, string> }) => r.properties.firstname!.startsWith('Ad') && r.properties.lastname!.startsWith('Alv'))).toBe(true);
  });

  it('archives softly: 204, then 404 unless archived=true, and archived records leave searches and association lists', async () => {
    const t = createHubSpotTwin();
    const contact = String(HUBSPOT_DEMO.firstId + HUBSPOT_DEMO.companies);
    const company = linksOf(t.state, 'contacts', contact, 'companies')[0]!.toId;
    expect((await call(t, 'DELETE', `/crm/v3/objects/contacts/${contact}`)).status).toBe(204);
    expect((await call(t, 'GET', `/crm/v3/objects/contacts/${contact}`)).body).toMatchObject({ category: 'OBJECT_NOT_FOUND' });
    expect((await call(t, 'GET', `/crm/v3/objects/contacts/${contact}?archived=true`)).body).toMatchObject({ id: contact, archived: true, archivedAt: expect.any(String) });
    const s = await call(t, 'POST', '/crm/v3/objects/contacts/search', { filterGroups: [{ filters: [{ propertyName: 'hs_object_id', operator: 'EQ', value: contact }] }] });
    expect(s.body.total).toBe(0);
    const links = await call(t, 'GET', `/crm/v4/objects/companies/${company}/associations/contacts`);
    expect(links.body.results.map((l: { toObjectId: string }) => l.toObjectId)).not.toContain(contact);
  });
});
