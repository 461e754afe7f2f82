import { describe, expect, it } from 'vitest';
import { harness } from '../helpers/harness';
import { PODIO_DEMO, SANDBOX_KEYS, type PodioTwin } from '../../infra/twins/podio';
import { getOrganizations } from '../../functions/collab/tools/apps/getOrganizations';

const json = { query: 'format=json' };
const D = PODIO_DEMO;
const U = D.users;
const memberKey = { key: SANDBOX_KEYS.member };

describe('getApp', () => {
  it('gives every field with what an item write needs: ids, type, required, options, relations, currencies, date rules, input shape', async () => {
    const h = await harness();
    const r = await h.call('collab/getApp', { app_id: D.apps.deals }, json);
    expect(r.status).toBe(200);
    const app = r.body.data;
    expect(app).toMatchObject({ app_id: D.apps.deals, space_id: D.spaces.sales, name: 'Deals', item_name: 'Deal', description: 'Opportunities in the sales pipeline.' });
    const byKey = Object.fromEntries(app.fields.map((f: { external_id: string }) => [f.external_id, f]));
    expect(app.fields.map((f: { field_id: number }) => f.field_id)).toEqual(Object.values(D.fields.deals));
    expect(byKey.title).toMatchObject({ field_id: D.fields.deals.title, label: 'Deal name', type: 'text', required: true });
    expect(byKey.stage).toMatchObject({
      type: 'category',
      required: true,
      multiple: false,
      options: [
        { id: 401, text: 'Lead' },
        { id: 402, text: 'Qualified' },
        { id: 403, text: 'Proposal' },
        { id: 404, text: 'Won' },
        { id: 405, text: 'Lost' },
      ],
    });
    expect(byKey.products).toMatchObject({ multiple: true });
    // The referenced app's name is read for the caller.
    expect(byKey.company).toMatchObject({ type: 'app', referenced_apps: [{ app_id: D.apps.companies, name: 'Companies' }] });
    expect(byKey.amount).toMatchObject({ type: 'money', allowed_currencies: ['EUR', 'USD'] });
    expect(byKey['close-date']).toMatchObject({ type: 'date', time: 'disabled', end: 'disabled' });
    expect(byKey['weighted-value']).toMatchObject({ type: 'calculation', read_only: true, return_type: 'number', decimals: 2 });
    expect(byKey.owner).toMatchObject({ type: 'contact', contact_type: 'space_users' });
    expect(byKey.notes).toMatchObject({ format: 'html' });
    expect(byKey['close-date'].input).toContain('"start": "YYYY-MM-DD HH:MM:SS"');
    expect(byKey.amount.input).toContain('currency one of EUR, USD');
    expect(byKey.owner.input).toContain('profile ids');
    expect(byKey.title.read_only).toBeUndefined();

    const projects = (await h.call('collab/getApp', { app_id: D.apps.projects }, json)).body.data;
    const timeline = projects.fields.find((f: { external_id: string }) => f.external_id === 'timeline');
    expect(timeline).toMatchObject({ time: 'enabled', end: 'enabled' });
  });

  it('answers in compact text: one line per field, then the value shapes once per type', async () => {
    const h = await harness();
    const text: string = (await h.call('collab/getApp', { app_id: D.apps.deals })).body.data;
    const lines = text.split('\n');
    expect(lines[0]).toBe(`app #${D.apps.deals} Deals (items: Deal) in space #${D.spaces.sales} — Opportunities in the sales pipeline.`);
    expect(lines).toContain(`#${D.fields.deals.stage} stage "Stage" category, required: 401 Lead | 402 Qualified | 403 Proposal | 404 Won | 405 Lost`);
    expect(lines).toContain(`#${D.fields.deals.company} company "Company" app (one item) → app #${D.apps.companies} Companies`);
    expect(lines).toContain(`#${D.fields.deals.amount} amount "Amount" money (EUR/USD)`);
    expect(lines).toContain(`#${D.fields.deals.closeDate} close-date "Expected close" date (days only: time 00:00:00, no end)`);
    expect(lines).toContain(`#${D.fields.deals.weightedValue} weighted-value "Weighted value" calculation, read-only (returns number, 2 decimals)`);
    expect(lines).toContain(`#${D.fields.deals.products} products "Products" category (several allowed): 411 Core platform | 412 Automations | 413 Analytics add-on | 414 Premium support | 415 Onboarding package`);
    // Field lines: one per field, between the head and the shapes.
    expect(lines.filter((l) => l.startsWith('#'))).toHaveLength(Object.keys(D.fields.deals).length);
    const shapes = lines.slice(lines.indexOf('values by type:') + 1, -1);
    expect(shapes.map((l) => l.trim().split(':')[0])).toEqual(['text', 'app', 'money', 'date', 'progress', 'contact']);
    expect(shapes.find((l) => l.trim().startsWith('date:'))).toContain('time required: use 00:00:00 for a day');
    expect(lines.at(-1)).toBe('10 fields — item fields are keyed by field_id (or external_id); categories take option ids or texts');
  });

  it('keeps a referenced app the key cannot read to its id', async () => {
    const h = await harness();
    const twin = h.twin<PodioTwin>('collab');
    twin.faults.inject({ method: 'GET', path: `/app/${D.apps.deals}`, fault: { status: 403, body: { error: 'forbidden', error_description: 'No access' } } });
    const projects = (await h.call('collab/getApp', { app_id: D.apps.projects }, json)).body.data;
    expect(projects.fields.find((f: { external_id: string }) => f.external_id === 'deal').referenced_apps).toEqual([{ app_id: D.apps.deals }]);
  });

  it('maps an unknown app to NOT_FOUND and refuses a bad app_id before any call', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    const bad = await h.call('collab/getApp', { app_id: 'deals' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'app_id' } });
    expect(sent).toHaveLength(0);
    const missing = await h.call('collab/getApp', { app_id: 999999 });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: 'NOT_FOUND', details: { upstream_status: 404 } });
  });
});

describe('getAppsBySpace', () => {
  it('lists the apps of a space in text and JSON', async () => {
    const h = await harness();
    const r = await h.call('collab/getAppsBySpace', { space_id: D.spaces.sales }, json);
    expect(r.body.data.space_id).toBe(D.spaces.sales);
    expect(r.body.data.apps.map((a: { app_id: number; name: string; item_name: string }) => [a.app_id, a.name, a.item_name])).toEqual([
      [D.apps.companies, 'Companies', 'Company'],
      [D.apps.deals, 'Deals', 'Deal'],
    ]);
    expect(r.body.data.apps[0]).not.toHaveProperty('fields');
    const text = (await h.call('collab/getAppsBySpace', { space_id: D.spaces.operations })).body.data;
    expect(text).toBe(`#${D.apps.projects} Projects (items: Project) — Delivery projects of won deals.\n1 app in space #${D.spaces.operations} — getApp app_id for an app's fields`);
  });

  it('answers FORBIDDEN for a space the key is not in', async () => {
    const h = await harness();
    const r = await h.call('collab/getAppsBySpace', { space_id: D.spaces.operations }, memberKey);
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe('FORBIDDEN');
  });
});

describe('getOrganizationMembers', () => {
  it('lists user_id and profile_id side by side, with name, email and role; org_id defaults to the only org', async () => {
    const h = await harness();
    const r = await h.call('collab/getOrganizationMembers', {}, json);
    expect(r.status).toBe(200);
    expect(r.body.data.org_id).toBe(D.org.org_id);
    expect(r.body.data.members).toHaveLength(6);
    expect(r.body.data.members).toContainEqual({ user_id: U.ben.user_id, profile_id: U.ben.profile_id, name: U.ben.name, email: U.ben.mail, role: 'regular' });
    expect(r.body.data.members).toContainEqual({ user_id: U.owner.user_id, profile_id: U.owner.profile_id, name: U.owner.name, email: U.owner.mail, role: 'admin' });
    expect(r.body.data.next_offset).toBeNull();
    const text: string = (await h.call('collab/getOrganizationMembers', { org_id: D.org.org_id })).body.data;
    expect(text.split('\n')).toContain(`user #${U.ben.user_id} profile #${U.ben.profile_id} ${U.ben.name} <${U.ben.mail}> regular`);
    expect(text.split('\n').at(-1)).toBe('6 members');
  });

  it('pages by offset and says how to get the next page', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    const first = await h.call('collab/getOrganizationMembers', { org_id: D.org.org_id, limit: 2 }, json);
    expect(first.body.data.members.map((m: { user_id: number }) => m.user_id)).toEqual([U.owner.user_id, U.ben.user_id]);
    expect(first.body.data.next_offset).toBe(2);
    expect(sent.at(-1)).toMatchObject({ method: 'GET', path: `/org/${D.org.org_id}/member/` });
    expect(Object.fromEntries(sent.at(-1)!.query)).toEqual({ limit: '2', offset: '0' });
    const text = (await h.call('collab/getOrganizationMembers', { org_id: D.org.org_id, limit: 2, offset: 2 })).body.data;
    expect(text.split('\n').at(-1)).toBe(`showing 2 — pass offset 4 with org_id ${D.org.org_id} for the next page`);
    const last = await h.call('collab/getOrganizationMembers', { org_id: D.org.org_id, limit: 4, offset: 4 }, json);
    expect(last.body.data.members.map((m: { user_id: number }) => m.user_id)).toEqual([U.elena.user_id, U.member.user_id]);
    expect(last.body.data.next_offset).toBeNull();
  });

  it('asks for org_id when the key sees several organizations', async () => {
    const h = await harness();
    h.twin<PodioTwin>('collab').faults.inject({
      method: 'GET',
      path: '/org/',
      fault: { status: 200, body: [{ org_id: 7001, name: 'Sandbox Co', spaces: [] }, { org_id: 7002, name: 'Partner Network', spaces: [] }] },
    });
    const r = await h.call('collab/getOrganizationMembers', {});
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'org_id' } });
    expect(r.body.error.message).toContain('7001 (Sandbox Co), 7002 (Partner Network)');
  });

  it('maps an unknown org to NOT_FOUND', async () => {
    const h = await harness();
    const r = await h.call('collab/getOrganizationMembers', { org_id: 424242 });
    expect(r.status).toBe(404);
  });
});

describe('getContacts', () => {
  it('finds contacts by part of the name or the email, with profile_id and user_id', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    const r = await h.call('collab/getContacts', { name: 'okafor' }, json);
    expect(r.body.data).toEqual({ contacts: [{ profile_id: U.ben.profile_id, user_id: U.ben.user_id, name: U.ben.name, email: U.ben.mail, type: 'user' }], next_offset: null });
    expect(sent[0]!.query.get('name')).toBe('okafor');
    const byMail = await h.call('collab/getContacts', { email: U.elena.mail }, json);
    expect(byMail.body.data.contacts.map((c: { profile_id: number }) => c.profile_id)).toEqual([U.elena.profile_id]);
    expect(sent.at(-1)!.query.get('mail')).toBe(U.elena.mail);
    const text = (await h.call('collab/getContacts', { name: 'okafor' })).body.data;
    expect(text).toBe(`profile #${U.ben.profile_id} ${U.ben.name} <${U.ben.mail}> user #${U.ben.user_id}\n1 contact`);
    expect((await h.call('collab/getContacts', { name: 'nobody-here' })).body.data).toBe('no contacts match name "nobody-here"');
  });

  it('pages by offset', async () => {
    const h = await harness();
    const first = await h.call('collab/getContacts', { limit: 4 }, json);
    expect(first.body.data.contacts).toHaveLength(4);
    expect(first.body.data.next_offset).toBe(4);
    const rest = await h.call('collab/getContacts', { limit: 4, offset: 4 });
    expect(rest.body.data.split('\n')).toHaveLength(3);
    expect(rest.body.data.split('\n').at(-1)).toBe('2 contacts');
  });
});

describe('getUserStatus', () => {
  it("gives the key's own user and profile ids, timezone, and the orgs and spaces it sees", async () => {
    const h = await harness();
    const r = await h.call('collab/getUserStatus', {}, json);
    expect(r.body.data).toEqual({
      user_id: U.owner.user_id,
      profile_id: U.owner.profile_id,
      name: U.owner.name,
      email: U.owner.mail,
      timezone: 'UTC',
      orgs: [
        {
          org_id: D.org.org_id,
          name: D.org.name,
          url: expect.stringContaining(D.org.url_label),
          role: 'admin',
          spaces: [
            { space_id: D.spaces.sales, name: 'Sales', url: expect.any(String) },
            { space_id: D.spaces.operations, name: 'Operations', url: expect.any(String) },
          ],
        },
      ],
    });
    const text = (await h.call('collab/getUserStatus', {})).body.data;
    expect(text).toBe(
      `user #${U.owner.user_id} profile #${U.owner.profile_id} ${U.owner.name} <${U.owner.mail}>, timezone UTC\n` +
        `org #${D.org.org_id} ${D.org.name} (admin): space #${D.spaces.sales} Sales, space #${D.spaces.operations} Operations`,
    );
  });

  it('answers for the plain member with its own ids and only its spaces', async () => {
    const h = await harness();
    const r = await h.call('collab/getUserStatus', {}, { ...json, ...memberKey });
    expect(r.body.data).toMatchObject({ user_id: U.member.user_id, profile_id: U.member.profile_id, name: U.member.name });
    expect(r.body.data.orgs[0].spaces.map((s: { space_id: number }) => s.space_id)).toEqual([D.spaces.sales]);
  });
});

describe('getOrganizations', () => {
  it('lists the orgs with their spaces, and says it is not in the spec', async () => {
    const h = await harness();
    const r = await h.call('collab/getOrganizations', {}, json);
    expect(r.body.data.orgs.map((o: { org_id: number; spaces: { space_id: number }[] }) => [o.org_id, o.spaces.map((s) => s.space_id)])).toEqual([[D.org.org_id, [D.spaces.sales, D.spaces.operations]]]);
    const text = (await h.call('collab/getOrganizations', {})).body.data;
    expect(text).toBe(`org #${D.org.org_id} ${D.org.name} (admin): space #${D.spaces.sales} Sales, space #${D.spaces.operations} Operations\n1 organization — getAppsBySpace space_id lists a space's apps`);
    const member = await h.call('collab/getOrganizations', {}, memberKey);
    expect(member.body.data).toContain(`(regular): space #${D.spaces.sales} Sales\n`);
    expect(getOrganizations.description).toContain('Not in the spec');
  });

  it('completes an org listed without its spaces from the org\'s space listing', async () => {
    const h = await harness();
    h.twin<PodioTwin>('collab').faults.inject({ method: 'GET', path: '/org/', times: 1, fault: { status: 200, body: [{ org_id: D.org.org_id, name: D.org.name }] } });
    const r = await h.call('collab/getOrganizations', {}, json);
    expect(r.body.data.orgs[0].spaces.map((s: { space_id: number }) => s.space_id)).toEqual([D.spaces.sales, D.spaces.operations]);
  });
});
