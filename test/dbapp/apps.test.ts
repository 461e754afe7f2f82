import { describe, expect, it } from 'vitest';
import { harness, SANDBOX_KEYS } from '../helpers/harness';

const json = { query: 'format=json' };

describe('listApps', () => {
  it('lists every app of the organization, in text and JSON', async () => {
    const h = await harness();
    const text = await h.call('dbapp/listApps');
    expect(text.status).toBe(200);
    expect(text.body.data).toBe(
      '#901 Leads (records: Lead) in workspace #2 Contact directory — Prospects before they become deals.\n' +
        '#902 Deals (records: Deal) in workspace #2 Contact directory — Opportunities in the sales pipeline.\n' +
        '2 apps — getApp shows the fields of one',
    );
    const r = await h.call('dbapp/listApps', {}, json);
    expect(r.body.data).toEqual({
      apps: [
        { app_id: 901, workspace_id: 2, workspace_name: 'Contact directory', name: 'Leads', item_name: 'Lead', slug: 'leads', type: 'database', description: 'Prospects before they become deals.' },
        { app_id: 902, workspace_id: 2, workspace_name: 'Contact directory', name: 'Deals', item_name: 'Deal', slug: 'deals', type: 'database', description: 'Opportunities in the sales pipeline.' },
      ],
      total: 2,
    });
  });

  it('lists the apps of one workspace', async () => {
    const h = await harness();
    const created = await h.tape.fetch('https://api.tapeapp.com/v1/app', {
      method: 'POST',
      headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}`, 'content-type': 'application/json' },
      body: JSON.stringify({ workspace_id: 1, name: 'Tasks', item_name: 'Task' }),
    });
    // New ids follow the demo's (901, 902).
    const id = ((await created.json()) as { app_id: number }).app_id;
    expect(id).toBe(903);
    const r = await h.call('dbapp/listApps', { workspace_id: 1 }, json);
    expect(r.body.data).toEqual({ apps: [{ app_id: id, workspace_id: 1, name: 'Tasks', item_name: 'Task', slug: 'tasks', type: 'database' }], total: 1 });
    expect((await h.call('dbapp/listApps', { workspace_id: 1 })).body.data).toBe(`#${id} Tasks (records: Task) in workspace #1\n1 app — getApp shows the fields of one`);
    const ws = await h.call('dbapp/createWorkspace', { name: 'Empty', type: 'open' }, json);
    expect((await h.call('dbapp/listApps', { workspace_id: ws.body.data.workspace_id })).body.data).toBe(`no apps in workspace #${ws.body.data.workspace_id}`);
  });

  it('answers NOT_FOUND for an unknown workspace and INVALID_PARAMETER for a bad one', async () => {
    const h = await harness();
    const missing = await h.call('dbapp/listApps', { workspace_id: 404 });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: 'NOT_FOUND', details: { upstream_status: 404, upstream_code: 'not_found' } });
    expect(missing.body.error.message).toContain('Workspace does not exist(404)!');
    const bad = await h.call('dbapp/listApps', { workspace_id: 'two' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'workspace_id', expected: 'a positive integer id: 123, "123" or "#123"' } });
    const extra = await h.call('dbapp/listApps', { app_id: 1 });
    expect(extra.body.error.details.parameter).toBe('app_id');
  });

  it('does not show the apps of a private workspace to a non-member', async () => {
    const h = await harness();
    const ws = await h.call('dbapp/createWorkspace', { name: 'Board room', type: 'private' }, json);
    await h.tape.fetch('https://api.tapeapp.com/v1/app', {
      method: 'POST',
      headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}`, 'content-type': 'application/json' },
      body: JSON.stringify({ workspace_id: ws.body.data.workspace_id, name: 'Salaries' }),
    });
    expect((await h.call('dbapp/listApps', {}, json)).body.data.total).toBe(3);
    expect((await h.call('dbapp/listApps', {}, { ...json, key: SANDBOX_KEYS.member })).body.data.apps.map((a: { name: string }) => a.name)).toEqual(['Leads', 'Deals']);
  });
});

describe('getApp', () => {
  it('returns the schema an agent needs to write records: one line per field', async () => {
    const h = await harness();
    const text = await h.call('dbapp/getApp', { app_id: 902 });
    expect(text.body.data).toBe(
      [
        'app #902 Deals (records: Deal, slug deals) in workspace #2 — Opportunities in the sales pipeline.',
        '#9015 deal_name "Deal name" single_text, required',
        '#9016 lead "Lead" single_relation → app #901 Leads',
        '#9017 amount "Amount" number (unit $ prefix, 2 decimals)',
        '#9018 stage "Stage" status, required: 1 Discovery | 2 Proposal | 3 Negotiation | 4 Won (done) | 5 Lost (done)',
        '#9019 priority "Priority" single_category: 1 Low | 2 Medium | 3 High',
        '#9020 products "Products" multi_category: 1 Core platform | 2 Automations | 3 Analytics add-on | 4 Premium support | 5 Onboarding package',
        '#9021 close_date "Close date" single_date (time disabled)',
        '#9022 contract_period "Contract period" range_date (time disabled, end enabled)',
        '#9023 account_manager "Account manager" single_user',
        '#9024 next_steps "Next steps" checklist',
        '#9025 notes "Notes" multi_text',
        '11 fields — record values are keyed by external_id or field_id; options by id or text',
      ].join('\n'),
    );
    const r = await h.call('dbapp/getApp', { app_id: 902 }, json);
    expect(r.body.data).toMatchObject({ app_id: 902, workspace_id: 2, name: 'Deals', item_name: 'Deal', slug: 'deals', description: 'Opportunities in the sales pipeline.' });
    const byKey = Object.fromEntries(r.body.data.fields.map((f: { external_id: string }) => [f.external_id, f]));
    expect(byKey.deal_name).toEqual({ field_id: 9015, external_id: 'deal_name', label: 'Deal name', field_type: 'single_text', required: true });
    expect(byKey.lead).toEqual({ field_id: 9016, external_id: 'lead', label: 'Lead', field_type: 'single_relation', required: false, referenced_apps: [{ app_id: 901, name: 'Leads' }] });
    expect(byKey.amount).toMatchObject({ unit: '$', unit_location: 'prefix', decimals: 2 });
    expect(byKey.stage.options).toEqual([
      { id: 1, text: 'Discovery', completed: false },
      { id: 2, text: 'Proposal', completed: false },
      { id: 3, text: 'Negotiation', completed: false },
      { id: 4, text: 'Won', completed: true },
      { id: 5, text: 'Lost', completed: true },
    ]);
    expect(byKey.priority.options).toEqual([{ id: 1, text: 'Low' }, { id: 2, text: 'Medium' }, { id: 3, text: 'High' }]);
    expect(byKey.contract_period).toMatchObject({ field_type: 'range_date', time: 'disabled', end: 'enabled' });
  });

  it('marks computed fields read-only and shows field descriptions', async () => {
    const h = await harness();
    const post = (method: string, path: string, body: unknown) =>
      h.tape.fetch(`https://api.tapeapp.com${path}`, { method, headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const app = (await (
      await post('POST', '/v1/app', {
        workspace_id: 1,
        name: 'Tickets',
        item_name: 'Ticket',
        fields: [
          { field_type: 'single_text', config: { label: 'Title', description: 'What is broken, in one line.', required: true } },
          { field_type: 'unique_id', config: { label: 'Ticket-ID', settings: { prefix: 'T-', min_digits: 4 } } },
        ],
      })
    ).json()) as { app_id: number; fields: { field_id: number }[] };
    const [title, ticket] = app.fields.map((f) => f.field_id) as [number, number];
    await post('PUT', `/v1/app/${app.app_id}`, { fields: [{ field_type: 'calculation', config: { label: 'Shout', settings: { script: `@[Title](field_${title}) + "!"` } } }] });
    const text = (await h.call('dbapp/getApp', { app_id: app.app_id })).body.data;
    expect(text).toBe(
      [
        `app #${app.app_id} Tickets (records: Ticket, slug tickets) in workspace #1`,
        `#${ticket + 1} shout "Shout" calculation, read-only (returns text)`,
        `#${title} title "Title" single_text, required — What is broken, in one line.`,
        `#${ticket} ticket_id "Ticket-ID" unique_id, read-only (prefix T-)`,
        '3 fields — record values are keyed by external_id or field_id; options by id or text',
      ].join('\n'),
    );
    const fields = (await h.call('dbapp/getApp', { app_id: app.app_id }, json)).body.data.fields;
    expect(fields[0]).toEqual({ field_id: ticket + 1, external_id: 'shout', label: 'Shout', field_type: 'calculation', required: false, read_only: true, return_type: 'text' });
    expect(fields[1].description).toBe('What is broken, in one line.');
  });

  it('answers NOT_FOUND for an unknown app and INVALID_PARAMETER for a bad id', async () => {
    const h = await harness();
    const missing = await h.call('dbapp/getApp', { app_id: 77 });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: 'NOT_FOUND', details: { upstream_status: 404 } });
    expect(missing.body.error.message).toContain('App does not exist(77)!');
    for (const params of [{}, { app_id: 0 }, { app_id: 1.5 }, { app_id: '902a' }, { app_id: '#0' }]) {
      const r = await h.call('dbapp/getApp', params);
      expect(r.status, JSON.stringify(params)).toBe(400);
      expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'app_id' } });
    }
  });
});

describe('getOrganization', () => {
  it('returns the organization of the key, in text and JSON', async () => {
    const h = await harness();
    expect((await h.call('dbapp/getOrganization')).body.data).toBe(
      'org #1337 Tape Technologies (slug tape, premium plan) — One shall dogfood all day all night · https://tapeapp.com/tape · https://tapeapp.com · Munich, Germany · created 2019-05-01 10:00 · key of user #10000',
    );
    const r = await h.call('dbapp/getOrganization', {}, json);
    expect(r.body.data).toEqual({
      org_id: 1337,
      active_user_id: 10000,
      name: 'Tape Technologies',
      slug: 'tape',
      url: 'https://tapeapp.com/tape',
      description: 'One shall dogfood all day all night',
      website: 'https://tapeapp.com',
      location: 'Munich, Germany',
      created_on: '2019-05-01 10:00',
      plan: 'premium',
      activity_count: 345,
    });
    expect((await h.call('dbapp/getOrganization', {}, { ...json, key: SANDBOX_KEYS.member })).body.data.active_user_id).toBe(10001);
  });

  it('takes no parameters and passes a rejected key on as UNAUTHORIZED', async () => {
    const h = await harness();
    expect((await h.call('dbapp/getOrganization', { org_id: 1337 })).body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'org_id' } });
    const r = await h.call('dbapp/getOrganization', {}, { key: 'user_key_unknownUnknownUnknown1234' });
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe('UNAUTHORIZED');
  });
});

describe('listOrganizationUsers', () => {
  it('lists user_id, name, email, role and status of every user', async () => {
    const h = await harness();
    expect((await h.call('dbapp/listOrganizationUsers')).body.data).toBe(
      '#10000 John Doe <john@doe.com> owner, active\n#10001 Zoe Maxwell <zoemaxwell10001@me.com> member, active\n2 users',
    );
    await h.tape.fetch('https://api.tapeapp.com/v1/org/user', {
      method: 'POST',
      headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Roger Sterling', email: 'rsterling-sc@me.com', role: 'admin' }),
    });
    const r = await h.call('dbapp/listOrganizationUsers', {}, json);
    expect(r.body.data.total).toBe(3);
    expect(r.body.data.users).toEqual([
      { user_id: 10000, name: 'John Doe', email: 'john@doe.com', role: 'owner', status: 'active' },
      { user_id: 10001, name: 'Zoe Maxwell', email: 'zoemaxwell10001@me.com', role: 'member', status: 'active' },
      { user_id: 10002, name: 'Roger Sterling', email: 'rsterling-sc@me.com', role: 'admin', status: 'invited' },
    ]);
  });

  it('takes no parameters', async () => {
    const h = await harness();
    const r = await h.call('dbapp/listOrganizationUsers', { role: 'admin' });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'role' } });
  });
});
