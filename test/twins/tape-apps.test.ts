import { describe, expect, it } from 'vitest';
import { createTapeTwin, SANDBOX_KEYS } from '../../infra/twins/tape';
import { DEMO_DEALS_APP_ID, DEMO_DEAL_COUNT, DEMO_LEADS_APP_ID, DEMO_LEAD_COUNT } from '../../infra/twins/tape/demo';
import type { TapeEvent } from '../../infra/twins/tape/model';

/** A twin without the demo apps, so ids start at 1 as in the docs' examples; `call` speaks HTTP to it. */
function twin(opts: Parameters<typeof createTapeTwin>[0] = { demo: false }) {
  const t = createTapeTwin(opts);
  const events: TapeEvent[] = [];
  t.state.events.on((e) => events.push(e));
  const call = async (method: string, path: string, body?: unknown, key: string = SANDBOX_KEYS.owner) => {
    const res = await t.fetch(`https://api.tapeapp.com${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  return { ...t, call, events };
}

const contactsRequest = {
  workspace_id: 1,
  name: 'Contacts',
  item_name: 'Contact',
  description: 'A simple contact app.',
  icon: { id: 'person', type: 'graphic' },
  item_icon: { emoji: '🧑', type: 'emoji' },
  fields: [
    { field_type: 'single_text', config: { label: 'Name', description: 'The full name of the contact.', required: true } },
    { field_type: 'multi_text', config: { label: 'Notes', description: 'Notes about the contact.', required: false } },
  ],
};

const textField = (field_id: number, slug: string, label: string, field_type: string, description: string, required: boolean) => ({
  field_id,
  external_id: slug,
  slug,
  label,
  type: 'text',
  field_type,
  config: { label, slug, external_id: slug, description, required, always_hidden: false, hidden_if_empty: false, settings: { formatted: field_type === 'multi_text' } },
});

describe('Tape twin: the examples of app.md', () => {
  it('POST /v1/app creates the Contacts app of the example', async () => {
    const t = twin();
    const r = await t.call('POST', '/v1/app', contactsRequest);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      app_id: 1,
      workspace_id: 1,
      slug: 'contacts',
      external_id: 'contacts',
      name: 'Contacts',
      record_name: 'Contact',
      item_name: 'Contact',
      type: 'database',
      description: 'A simple contact app.',
      position: 0,
      config: {
        description: 'A simple contact app.',
        item_name: 'Contact',
        name: 'Contacts',
        icon: { type: 'graphic', id: 'person' },
        item_icon: { emoji: '🧑', type: 'emoji' },
      },
      fields: [
        textField(1, 'name', 'Name', 'single_text', 'The full name of the contact.', true),
        textField(2, 'notes', 'Notes', 'multi_text', 'Notes about the contact.', false),
      ],
    });
  });

  it('GET /v1/app/workspace/{id} and GET /v1/app list apps without fields', async () => {
    const t = twin();
    await t.call('POST', '/v1/app', { workspace_id: 1, name: 'Tasks', item_name: 'Task' });
    await t.call('POST', '/v1/app', { workspace_id: 1, name: 'Projects', item_name: 'Project' });
    await t.call('POST', '/v1/app', { workspace_id: 2, name: 'Contacts', item_name: 'Contact' });
    const ws = await t.call('GET', '/v1/app/workspace/1');
    expect(ws.body).toEqual({
      total: 2,
      apps: [
        { app_id: 1, workspace_id: 1, name: 'Tasks', slug: 'tasks', type: 'database', config: { item_name: 'Task', name: 'Tasks', description: '' } },
        { app_id: 2, workspace_id: 1, name: 'Projects', slug: 'projects', type: 'database', config: { item_name: 'Project', name: 'Projects', description: '' } },
      ],
    });
    const all = await t.call('GET', '/v1/app');
    expect(all.body.total).toBe(3);
    expect(all.body.apps[2]).toEqual({
      app_id: 3,
      workspace_id: 2,
      workspace_name: 'Contact directory',
      name: 'Contacts',
      slug: 'contacts',
      type: 'database',
      config: { item_name: 'Contact', name: 'Contacts', description: '' },
    });
    expect(all.body.apps[0].workspace_name).toBe('Task management');
  });

  it('GET /v1/app/{id} returns the app with its fields', async () => {
    const t = twin();
    await t.call('POST', '/v1/app', { workspace_id: 1, name: 'Tasks', item_name: 'Task', fields: [{ field_type: 'single_text', config: { label: 'Full Name' } }] });
    const r = await t.call('GET', '/v1/app/1');
    expect(r.body).toMatchObject({ app_id: 1, workspace_id: 1, name: 'Tasks', slug: 'tasks', type: 'database', config: { item_name: 'Task', name: 'Tasks', description: '' } });
    expect(r.body.fields).toEqual([textField(1, 'full_name', 'Full Name', 'single_text', null as unknown as string, false)]);
  });

  it('PUT /v1/app/{id} deletes "Name" and adds "First Name" and "Last Name"; Notes is unchanged; app.update is emitted', async () => {
    const t = twin();
    await t.call('POST', '/v1/app', contactsRequest);
    const r = await t.call('PUT', '/v1/app/1', {
      fields: [
        { field_type: 'single_text', config: { label: 'First Name', description: 'The first name of the contact.', required: true } },
        { field_type: 'single_text', config: { label: 'Last Name', description: 'The last name of the contact.', required: true } },
      ],
      fields_to_delete: [{ field_id: 1 }],
    });
    expect(r.status).toBe(200);
    expect(r.body.fields).toEqual([
      textField(3, 'first_name', 'First Name', 'single_text', 'The first name of the contact.', true),
      textField(4, 'last_name', 'Last Name', 'single_text', 'The last name of the contact.', true),
      textField(2, 'notes', 'Notes', 'multi_text', 'Notes about the contact.', false),
    ]);
    expect(t.events).toEqual([{ type: 'app.update', app_id: 1, hook: true, user_id: 10000 }]);
  });

  it('PUT renames a field (its external_id stays) and puts a new field after the previous entry (text.md)', async () => {
    const t = twin();
    await t.call('POST', '/v1/app', { workspace_id: 1, name: 'Contacts', item_name: 'Contact', fields: contactsRequest.fields });
    const r = await t.call('PUT', '/v1/app/1', {
      app_id: 1,
      fields: [
        { field_id: 1, config: { label: 'First Name', description: 'The first name of the contact.', required: true } },
        { field_type: 'single_text', config: { label: 'Last Name', description: 'The last name of the contact.', required: true } },
      ],
    });
    expect(r.body.fields.map((f: any) => [f.field_id, f.external_id, f.label])).toEqual([
      [1, 'name', 'First Name'],
      [3, 'last_name', 'Last Name'],
      [2, 'notes', 'Notes'],
    ]);
  });

  it('PUT /v1/app/{id}/fields/order moves notes first', async () => {
    const t = twin();
    await t.call('POST', '/v1/app', contactsRequest);
    const r = await t.call('PUT', '/v1/app/1/fields/order', { fields: [{ field_id: 2 }, { field_id: 1 }] });
    expect(r.body.fields.map((f: any) => f.external_id)).toEqual(['notes', 'name']);
    expect(t.events.map((e) => e.type)).toEqual(['app.update']);
  });

  it('DELETE /v1/app/{id} removes the app with its records', async () => {
    const t = twin();
    await t.call('POST', '/v1/app', contactsRequest);
    const rec = await t.call('POST', '/v1/record/app/1', { fields: { name: 'Adam Smith' } });
    expect((await t.call('DELETE', '/v1/app/1')).status).toBe(200);
    expect((await t.call('GET', '/v1/app/1')).body).toMatchObject({ status_code: 404, error_code: 'not_found', error_message: 'App does not exist(1)!' });
    expect((await t.call('GET', `/v1/record/${rec.body.record_id}`)).body.error_code).toBe('record_not_exists');
    expect(t.state.records.size).toBe(0);
  });

  it('holds at most 500 apps per workspace', async () => {
    const t = twin();
    await t.call('POST', '/v1/app', { workspace_id: 1, name: 'Seed' });
    const seed = t.state.apps.get(1)!;
    for (let i = 0; i < 499; i++) t.state.apps.set(1000 + i, { ...seed, app_id: 1000 + i });
    const r = await t.call('POST', '/v1/app', { workspace_id: 1, name: 'One too many' });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error_code: 'validation_error', endpoint: '/v1/app' });
    expect(r.body.error_message).toContain('500 apps');
    expect((await t.call('POST', '/v1/app', { workspace_id: 2, name: 'Elsewhere' })).status).toBe(200);
  });

  it.each([
    [{ name: 'X' }, 'workspace_id'],
    [{ workspace_id: 1 }, 'name'],
    [{ workspace_id: 1, name: 'X', fields: [{ field_type: 'money', config: { label: 'Price' } }] }, 'field_type must be one of'],
    [{ workspace_id: 1, name: 'X', fields: [{ field_type: 'single_text', config: {} }] }, 'config.label is required'],
    [{ workspace_id: 1, name: 'X', fields: [{ field_type: 'single_category', config: { label: 'Stage', settings: { options: [{ text: 'New', color: 'teal' }] } } }] }, 'color must be one of'],
    [{ workspace_id: 1, name: 'X', fields: [{ field_type: 'range_date', config: { label: 'Period', settings: {} } }] }, 'settings.end is required'],
    [{ workspace_id: 1, name: 'X', fields: [{ field_type: 'single_relation', config: { label: 'Epic', settings: { referenced_apps: [{ app_id: 77 }] } } }] }, 'referenced app 77'],
    [{ workspace_id: 1, name: 'X', fields: [{ field_type: 'number', config: { label: 'N', settings: { decimals: 9 } } }] }, 'decimals'],
    [{ workspace_id: 1, name: 'X', fields: [{ field_type: 'calculation', config: { label: 'Full', settings: { script: '@[A](field_1)' } } }] }, 'cannot be created upon app creation'],
  ])('rejects %j with validation_error mentioning %s, and creates nothing', async (body, text) => {
    const t = twin();
    const r = await t.call('POST', '/v1/app', body);
    expect(r.status).toBe(400);
    expect(r.body.error_code).toBe('validation_error');
    expect(r.body.error_message).toContain(text);
    expect(t.state.apps.size).toBe(0);
  });

  it('answers 404 for an unknown workspace and 403 for a user who may not create apps there', async () => {
    const t = twin();
    expect((await t.call('POST', '/v1/app', { workspace_id: 9, name: 'X' })).body).toMatchObject({ status_code: 404, error_message: 'Workspace does not exist(9)!' });
    // Zoe is a member of workspace 1 but not of workspace 2.
    expect((await t.call('POST', '/v1/app', { workspace_id: 1, name: 'Mine' }, SANDBOX_KEYS.member)).status).toBe(200);
    expect((await t.call('POST', '/v1/app', { workspace_id: 2, name: 'Mine' }, SANDBOX_KEYS.member)).body).toMatchObject({ status_code: 403, error_code: 'restricted_resource' });
  });

  it('hides the apps of a private workspace from non-members', async () => {
    const t = twin();
    const ws = await t.call('POST', '/v1/workspace', { name: 'Board room', type: 'private' });
    await t.call('POST', '/v1/app', { workspace_id: ws.body.workspace_id, name: 'Secrets' });
    expect((await t.call('GET', '/v1/app', undefined, SANDBOX_KEYS.member)).body).toEqual({ total: 0, apps: [] });
    expect((await t.call('GET', '/v1/app/1', undefined, SANDBOX_KEYS.member)).status).toBe(404);
  });
});

describe('Tape twin: field definitions (docs/vendors/tape.md#fields-and-values)', () => {
  const create = async (fields: unknown[]) => {
    const t = twin();
    const r = await t.call('POST', '/v1/app', { workspace_id: 1, name: 'Example', fields });
    return { t, r };
  };

  it('category: options get ids, colors are upper-cased; update keeps ids, adds, recolors and deletes options', async () => {
    const { t, r } = await create([
      {
        field_type: 'single_category',
        config: {
          label: 'Pipeline Stage',
          description: 'The current stage of the lead in the sales pipeline.',
          required: true,
          settings: { options: [{ text: 'New', color: 'gray' }, { text: 'Contacted', color: 'blue' }, { text: 'Won', color: 'green' }, { text: 'Lost', color: 'red' }] },
        },
      },
    ]);
    expect(r.body.fields[0]).toMatchObject({ field_id: 1, external_id: 'pipeline_stage', type: 'category', field_type: 'single_category' });
    expect(r.body.fields[0].config.settings).toEqual({
      multiple: false,
      options: [
        { id: 1, text: 'New', color: 'GRAY' },
        { id: 2, text: 'Contacted', color: 'BLUE' },
        { id: 3, text: 'Won', color: 'GREEN' },
        { id: 4, text: 'Lost', color: 'RED' },
      ],
    });
    const u = await t.call('PUT', '/v1/app/1', {
      app_id: 1,
      fields: [
        {
          field_id: 1,
          config: {
            label: 'Pipeline Stage',
            settings: {
              options: [
                { id: 1, text: 'New', color: 'gray' },
                { id: 2, text: 'Contacted', color: 'blue' },
                { text: 'Negotiating', color: 'yellow' },
                { id: 3, text: 'Won', color: 'green' },
                { id: 4, text: 'Lost', color: 'orange' },
              ],
              options_to_delete: [],
            },
          },
        },
      ],
    });
    expect(u.body.fields[0].config.settings.options).toEqual([
      { id: 1, text: 'New', color: 'GRAY' },
      { id: 2, text: 'Contacted', color: 'BLUE' },
      { id: 5, text: 'Negotiating', color: 'YELLOW' },
      { id: 3, text: 'Won', color: 'GREEN' },
      { id: 4, text: 'Lost', color: 'ORANGE' },
    ]);
    const d = await t.call('PUT', '/v1/app/1', { fields: [{ field_id: 1, config: { settings: { options_to_delete: [5] } } }] });
    expect(d.body.fields[0].config.settings.options.map((o: any) => o.id)).toEqual([1, 2, 3, 4]);
    // A deleted id is not given again.
    const again = await t.call('PUT', '/v1/app/1', { fields: [{ field_id: 1, config: { settings: { options: [{ text: 'Paused' }] } } }] });
    expect(again.body.fields[0].config.settings.options.at(-1)).toEqual({ id: 6, text: 'Paused', color: 'GRAY' });
  });

  it('status: means_completed is required, one completed and one open option are needed, one status field per app, always required', async () => {
    const options = [
      { text: 'Open', color: 'blue', means_completed: false },
      { text: 'In Progress', color: 'yellow', means_completed: false },
      { text: 'Done', color: 'green', means_completed: true },
    ];
    const { r } = await create([{ field_type: 'status', config: { label: 'Status', description: 'The current status of the task.', required: true, settings: { options } } }]);
    expect(r.body.fields[0]).toMatchObject({ type: 'status', field_type: 'status', config: { required: true } });
    expect(r.body.fields[0].config.settings).toEqual({
      multiple: false,
      options: [
        { id: 1, text: 'Open', color: 'BLUE', means_completed: false },
        { id: 2, text: 'In Progress', color: 'YELLOW', means_completed: false },
        { id: 3, text: 'Done', color: 'GREEN', means_completed: true },
      ],
    });
    expect((await create([{ field_type: 'status', config: { label: 'S', settings: { options: [{ text: 'Open' }] } } }])).r.body.error_message).toContain('means_completed');
    expect((await create([{ field_type: 'status', config: { label: 'S', settings: { options: options.slice(0, 2) } } }])).r.body.error_message).toContain('at least one option');
    const two = await create([
      { field_type: 'status', config: { label: 'S1', settings: { options } } },
      { field_type: 'status', config: { label: 'S2', settings: { options } } },
    ]);
    expect(two.r.body.error_message).toContain('at most one status field');
    expect((await create([{ field_type: 'status', config: { label: 'S', required: false, settings: { options } } }])).r.body.error_message).toContain('must be required');
  });

  it('number, dates, users, email, phone, link, location, attachments, image, checklist, unique_id: types and settings', async () => {
    const { r } = await create([
      { field_type: 'number', config: { label: 'Closing Amount', description: 'The amount of the deal.', settings: { decimals: 2, unit: '€', unit_location: 'suffix' } } },
      { field_type: 'single_date', config: { label: 'Event date', required: true, settings: { calendar: false, time: 'disabled', is_due_date_of_status_field: false } } },
      { field_type: 'range_date', config: { label: 'Preparation period', settings: { calendar: false, time: 'disabled', end: 'required' } } },
      { field_type: 'single_user', config: { label: 'Responsible for Note taking' } },
      { field_type: 'multi_user', config: { label: 'Participants' } },
      { field_type: 'multi_email', config: { label: 'Email', settings: { only_allow_single_entry: false } } },
      { field_type: 'multi_phone', config: { label: 'Phone', settings: { only_allow_single_entry: false, call_link_scheme: 'tel' } } },
      { field_type: 'multi_link', config: { label: 'Social Media' } },
      { field_type: 'single_location', config: { label: 'Location', settings: { has_map: true } } },
      { field_type: 'multi_attachment', config: { label: 'Screenshots' } },
      { field_type: 'multi_image', config: { label: 'Portraits' } },
      { field_type: 'checklist', config: { label: 'Subtasks', settings: { show_in_focus: true } } },
      { field_type: 'unique_id', config: { label: 'Ticket-ID', settings: { min_digits: 4, prefix: 'Ticket-' } } },
    ]);
    expect(r.status).toBe(200);
    const byLabel = Object.fromEntries(r.body.fields.map((f: any) => [f.label, f]));
    expect(byLabel['Closing Amount']).toMatchObject({ external_id: 'closing_amount', type: 'number', config: { settings: { unit_location: 'suffix', decimals: 2, unit_label: '€', unit: '€' } } });
    expect(byLabel['Event date']).toMatchObject({ type: 'date', field_type: 'single_date', config: { required: true, settings: { calendar: false, time: 'disabled', is_due_date_of_status_field: false } } });
    expect(byLabel['Preparation period'].config.settings).toEqual({ calendar: false, time: 'disabled', end: 'required', is_due_date_of_status_field: false });
    expect(byLabel['Responsible for Note taking']).toMatchObject({ type: 'contact', field_type: 'single_user', config: { settings: { multiple: false } } });
    expect(byLabel.Participants.config.settings).toEqual({ multiple: true });
    expect(byLabel.Email).toMatchObject({ type: 'email', config: { settings: { only_allow_single_entry: false } } });
    expect(byLabel.Phone).toMatchObject({ type: 'phone', config: { settings: { call_link_scheme: 'tel', only_allow_single_entry: false } } });
    expect(byLabel['Social Media']).toMatchObject({ type: 'embed', field_type: 'multi_link' });
    expect(byLabel.Location).toMatchObject({ type: 'location', config: { settings: { has_map: true } } });
    expect(byLabel.Screenshots).toMatchObject({ type: 'file', field_type: 'multi_attachment', config: { settings: { multiple: true } } });
    expect(byLabel.Portraits).toMatchObject({ type: 'file', field_type: 'multi_image' });
    expect(byLabel.Subtasks).toMatchObject({ type: 'checklist', config: { settings: { show_in_focus: true } } });
    expect(byLabel['Ticket-ID']).toMatchObject({ external_id: 'ticket_id', type: 'unique_id', config: { settings: { prefix: 'Ticket-', min_digits: 4 } } });
  });

  it('relation: referenced_apps carry a summary of the app (relation.md)', async () => {
    const t = twin();
    await t.call('POST', '/v1/app', { workspace_id: 1, name: 'Development-Issues', item_name: 'Issue' });
    await t.call('POST', '/v1/app', { workspace_id: 1, name: 'Epics', item_name: 'Epic' });
    const r = await t.call('PUT', '/v1/app/1', {
      fields: [{ field_type: 'single_relation', config: { label: 'Belongs to Epic', description: 'The epic this issue belongs to.', required: true, settings: { referenced_apps: [{ app_id: 2 }] } } }],
    });
    expect(r.body.fields[0]).toMatchObject({ external_id: 'belongs_to_epic', type: 'app', field_type: 'single_relation' });
    expect(r.body.fields[0].config.settings).toEqual({
      multiple: false,
      referenced_apps: [
        {
          app_id: 2,
          app: { app_id: 2, icon: 'event_available', name: 'Epics', slug: 'epics', item_name: 'Epic', workspace_id: 1, config: { name: 'Epics', icon: 'event_available', record_name: 'Epic', workspace_id: 1 } },
        },
      ],
    });
  });

  it('calculation: added with PUT; the script needs a field reference; return_type follows the script', async () => {
    const t = twin();
    await t.call('POST', '/v1/app', {
      workspace_id: 1,
      name: 'Contacts',
      fields: [
        { field_type: 'single_text', config: { label: 'First Name', required: true } },
        { field_type: 'single_text', config: { label: 'Last Name', required: true } },
      ],
    });
    const r = await t.call('PUT', '/v1/app/1', {
      app_id: 1,
      fields: [{ field_type: 'calculation', config: { label: 'Full Name', description: 'The full name of the contact.', settings: { script: '@[First Name](field_1) +" "+ @[Last Name](field_2)' } } }],
    });
    expect(r.body.fields.map((f: any) => f.external_id)).toEqual(['full_name', 'first_name', 'last_name']);
    expect(r.body.fields[0]).toMatchObject({ type: 'calculation', field_type: 'calculation' });
    expect(r.body.fields[0].config.settings).toEqual({ decimals: 0, return_type: 'text', script: '@[First Name](field_1) +" "+ @[Last Name](field_2)', calendar: false, unit: null, time: 'enabled' });
    const bad = await t.call('PUT', '/v1/app/1', { fields: [{ field_type: 'calculation', config: { label: 'X', settings: { script: '1 + 1' } } }] });
    expect(bad.body.error_message).toContain('at least one field reference');
    const missing = await t.call('PUT', '/v1/app/1', { fields: [{ field_type: 'calculation', config: { label: 'X', settings: { script: '@[Y](field_99)' } } }] });
    expect(missing.body.error_message).toContain('field_99');
  });

  it('changing the field type of an existing field is refused', async () => {
    const t = twin();
    await t.call('POST', '/v1/app', contactsRequest);
    const r = await t.call('PUT', '/v1/app/1', { fields: [{ field_id: 1, field_type: 'multi_text', config: {} }] });
    expect(r.body.error_message).toContain('cannot be changed');
  });
});

describe('Tape twin: demo apps', () => {
  it('seeds Leads and Deals in workspace 2, with a relation from Deals to Leads and many field types', async () => {
    const t = twin({});
    const ws = await t.call('GET', '/v1/app/workspace/2');
    expect(ws.body.apps.map((a: any) => [a.app_id, a.name])).toEqual([
      [DEMO_LEADS_APP_ID, 'Leads'],
      [DEMO_DEALS_APP_ID, 'Deals'],
    ]);
    const leads = (await t.call('GET', `/v1/app/${DEMO_LEADS_APP_ID}`)).body;
    const deals = (await t.call('GET', `/v1/app/${DEMO_DEALS_APP_ID}`)).body;
    const types = new Set([...leads.fields, ...deals.fields].map((f: any) => f.field_type));
    for (const ft of ['single_text', 'multi_text', 'number', 'single_category', 'multi_category', 'status', 'single_date', 'range_date', 'single_user', 'multi_email', 'multi_phone', 'multi_link', 'single_location', 'checklist', 'single_relation']) {
      expect(types, ft).toContain(ft);
    }
    const lead = deals.fields.find((f: any) => f.external_id === 'lead');
    expect(lead.config.settings.referenced_apps[0].app_id).toBe(DEMO_LEADS_APP_ID);
    expect(deals.fields.find((f: any) => f.external_id === 'amount').config.settings).toMatchObject({ unit: '$', unit_location: 'prefix', decimals: 2 });
    const page = await t.call('GET', `/v1/record/app/${DEMO_LEADS_APP_ID}?limit=1`);
    expect(page.body.total).toBe(DEMO_LEAD_COUNT);
    expect((await t.call('GET', `/v1/record/app/${DEMO_DEALS_APP_ID}?limit=1`)).body.total).toBe(DEMO_DEAL_COUNT);
    expect(t.events).toEqual([]);
  });

  it('gives everything created after the seed an id above every seeded one, so "newest first" lists it first', async () => {
    const t = twin({});
    const seeded = {
      app: Math.max(...t.state.apps.keys()),
      field: Math.max(...[...t.state.apps.values()].flatMap((a) => a.fields.map((f) => f.field_id))),
      record: Math.max(...t.state.records.keys()),
    };
    expect(seeded).toEqual({ app: DEMO_DEALS_APP_ID, field: expect.any(Number), record: 5000 + DEMO_LEAD_COUNT + DEMO_DEAL_COUNT });
    const app = (await t.call('POST', '/v1/app', { workspace_id: 1, name: 'Tasks', fields: [{ field_type: 'single_text', config: { label: 'Title' } }] })).body;
    expect(app.app_id).toBeGreaterThan(seeded.app);
    expect(app.fields[0].field_id).toBeGreaterThan(seeded.field);
    const more = (await t.call('PUT', `/v1/app/${DEMO_LEADS_APP_ID}`, { fields: [{ field_type: 'single_text', config: { label: 'Twitter' } }] })).body;
    expect(more.fields.find((f: any) => f.external_id === 'twitter').field_id).toBeGreaterThan(app.fields[0].field_id);
    const lead = (await t.call('POST', `/v1/record/app/${DEMO_LEADS_APP_ID}`, { fields: { name: 'Newest Lead', status: 1 } })).body;
    expect(lead.record_id).toBeGreaterThan(seeded.record);
    const first = (await t.call('GET', `/v1/record/app/${DEMO_LEADS_APP_ID}?limit=1`)).body.records[0];
    expect(first.record_id).toBe(lead.record_id);
    // Workspaces and users continue after the seeded 1–2 and 10000–10001 (the demo seeds no comments, views, hooks or automations).
    expect((await t.call('POST', '/v1/workspace', { name: 'Ops', type: 'open' })).body.workspace_id).toBe(3);
  });

  it('is the same in every twin (deterministic) and every deal relates to a lead', async () => {
    const a = twin({});
    const b = twin({});
    const pa = await a.call('GET', `/v1/record/app/${DEMO_DEALS_APP_ID}?limit=500`);
    const pb = await b.call('GET', `/v1/record/app/${DEMO_DEALS_APP_ID}?limit=500`);
    const strip = (recs: any[]) => JSON.stringify(recs);
    expect(strip(pa.body.records)).toBe(strip(pb.body.records));
    for (const d of pa.body.records) {
      const rel = d.fields.find((f: any) => f.external_id === 'lead');
      expect(rel.values[0].value.app_id).toBe(DEMO_LEADS_APP_ID);
      expect(rel.values[0].value.title).toBeTruthy();
    }
  });
});
