import { describe, expect, it } from 'vitest';
import { createClock, type Clock } from '../../infra/twins/kit';
import { createTapeTwin, SANDBOX_KEYS } from '../../infra/twins/tape';
import type { TapeEvent } from '../../infra/twins/tape/model';
import { paginate } from '../../infra/twins/tape/records';

/** A twin without the demo apps (ids start at 1 as in the docs); `call` speaks HTTP, `events` collects what the twin emits. */
function twin(clock?: Clock) {
  const t = createTapeTwin({ demo: false, ...(clock ? { clock } : {}) });
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
  /** Creates an app in workspace 1 from `[field_type, label, settings?, required?]` entries. */
  const app = async (name: string, fields: [string, string, Record<string, unknown>?, boolean?][], ws = 1) => {
    const r = await call('POST', '/v1/app', {
      workspace_id: ws,
      name,
      fields: fields.map(([field_type, label, settings, required]) => ({ field_type, config: { label, required: required ?? false, ...(settings ? { settings } : {}) } })),
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body as { app_id: number; fields: { field_id: number; external_id: string }[] };
  };
  const upload = async (name: string, content: string, type: string) => {
    const form = new FormData();
    form.append('file', new File([content], name, { type }));
    const res = await t.fetch('https://api.tapeapp.com/v1/file/upload', { method: 'POST', headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}` }, body: form });
    return ((await res.json()) as { file_id: string }).file_id;
  };
  return { ...t, call, app, upload, events };
}

const DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const fullName = { field_id: 1, external_id: 'full_name', label: 'Full Name', type: 'text', field_type: 'single_text' };
/** The record's `fields` entry for one external_id. */
const field = (rec: any, externalId: string) => rec.fields.find((f: any) => f.external_id === externalId);

describe('Tape twin: the examples of record.md', () => {
  it('creates, retrieves, updates, deletes and restores a record', async () => {
    const clock = createClock(Date.parse('2022-03-01T12:00:00Z'));
    const t = twin(clock);
    await t.app('Contacts', [['single_text', 'Full Name']]);
    const created = await t.call('POST', '/v1/record/app/1', { fields: { full_name: 'Adam Smith' } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ record_id: 1, title: 'Adam Smith', created_on: '2022-03-01 12:00:00', fields: [{ ...fullName, values: [{ value: 'Adam Smith' }] }] });
    expect(created.body).toMatchObject({ app_record_id: 1, app: { app_id: 1, icon: 'event_available', name: 'Contacts', record_name: 'Contacts', workspace_id: 1 } });
    expect(created.body.created_by).toEqual({ user_id: 10000, mail: ['john@doe.com'], image: null, name: 'John Doe', org_id: 1337, type: 'user' });

    expect((await t.call('GET', '/v1/record/1')).body).toEqual(created.body);

    const updated = await t.call('PUT', '/v1/record/1', { fields: { full_name: 'Andrea Lim' } });
    expect(updated.body).toMatchObject({ record_id: 1, title: 'Andrea Lim', fields: [{ ...fullName, values: [{ value: 'Andrea Lim' }] }] });

    clock.set(Date.parse('2022-03-01T13:00:00Z'));
    const deleted = await t.call('DELETE', '/v1/record/1');
    expect(deleted.body).toMatchObject({ record_id: 1, title: 'Andrea Lim', created_on: '2022-03-01 12:00:00', deleted_on: '2022-03-01 13:00:00', fields: [{ ...fullName, values: [{ value: 'Andrea Lim' }] }] });

    const again = await t.call('DELETE', '/v1/record/1');
    expect(again).toEqual({ status: 400, body: { status_code: 400, endpoint: '/v1/record/1', error_code: 'record_deleted', error_message: 'Record is deleted(1)!' } });
    expect((await t.call('GET', '/v1/record/1')).body).toEqual({ status_code: 400, endpoint: '/v1/record/1', error_code: 'record_deleted', error_message: 'Record is deleted(1)!' });
    expect((await t.call('GET', '/v1/record/1?include_deleted=true')).body).toMatchObject({ record_id: 1, deleted_on: deleted.body.deleted_on });
    expect((await t.call('GET', '/v1/record/app/1')).body.total).toBe(0);

    const restored = await t.call('POST', '/v1/record/1/restore');
    expect(restored.body).toMatchObject({ record_id: 1, title: 'Andrea Lim' });
    expect(restored.body.deleted_on).toBeUndefined();
    expect((await t.call('POST', '/v1/record/1/restore')).body).toMatchObject({ status_code: 400, error_code: 'validation_error' });
    expect((await t.call('GET', '/v1/record/1')).status).toBe(200);
  });

  it('emits record.create/update/delete/restore with the revision and the hook/workflow flags of the query', async () => {
    const t = twin();
    await t.app('Contacts', [['single_text', 'Full Name']]);
    await t.call('POST', '/v1/record/app/1?workflow=false', { fields: { full_name: 'Adam Smith' } });
    await t.call('PUT', '/v1/record/1?hook=false&silent=true', { fields: { full_name: 'Andrea Lim' } });
    // An update that changes nothing makes no revision and no event.
    await t.call('PUT', '/v1/record/1', { fields: { full_name: 'Andrea Lim' } });
    await t.call('DELETE', '/v1/record/1');
    await t.call('POST', '/v1/record/1/restore?hook=false');
    const base = { app_id: 1, record_id: 1, user_id: 10000 };
    // (Creating the app emits nothing: app.update is for changes.)
    expect(t.events).toEqual([
      { ...base, type: 'record.create', revision_id: 0, hook: true, workflow: false },
      { ...base, type: 'record.update', revision_id: 1, hook: false, workflow: true },
      { ...base, type: 'record.delete', revision_id: 2, hook: true, workflow: true },
      { ...base, type: 'record.restore', revision_id: 3, hook: false, workflow: true },
    ]);
    expect((await t.call('GET', '/v1/record/1')).body.revision).toBe(3);
  });

  it('skip_trash removes a record for good', async () => {
    const t = twin();
    await t.app('Contacts', [['single_text', 'Full Name']]);
    await t.call('POST', '/v1/record/app/1', { fields: { full_name: 'Adam Smith' } });
    expect((await t.call('DELETE', '/v1/record/1?skip_trash=true')).status).toBe(200);
    const gone = { status_code: 404, endpoint: '/v1/record/1', error_code: 'record_not_exists', error_message: 'Record does not exist(1)!' };
    expect((await t.call('GET', '/v1/record/1?include_deleted=true')).body).toEqual(gone);
    expect((await t.call('POST', '/v1/record/1/restore')).body.error_code).toBe('record_not_exists');
    expect((await t.call('GET', '/v1/record/99')).body).toEqual({ ...gone, endpoint: '/v1/record/99', error_message: 'Record does not exist(99)!' });
  });

  it('rejects a bad query flag, an unknown app and a record of an invisible app', async () => {
    const t = twin();
    await t.app('Contacts', [['single_text', 'Full Name']]);
    expect((await t.call('POST', '/v1/record/app/1?hook=maybe', { fields: {} })).body).toMatchObject({ status_code: 400, error_code: 'validation_error' });
    expect((await t.call('POST', '/v1/record/app/42', { fields: {} })).body).toMatchObject({ status_code: 404, error_code: 'not_found', error_message: 'App does not exist(42)!' });
  });
});

describe('Tape twin: field values (docs/vendors/tape.md#fields-and-values)', () => {
  it('text: single_text and multi_text (HTML)', async () => {
    const t = twin();
    await t.app('People', [['single_text', 'First Name'], ['multi_text', 'Notes']]);
    const r = await t.call('POST', '/v1/record/app/1', { fields: { first_name: 'Adam Smith', notes: '<p>Registered <b>10</b> month ago.</p>' } });
    expect(r.body).toMatchObject({
      record_id: 1,
      title: 'Adam Smith',
      fields: [
        { field_id: 1, external_id: 'first_name', type: 'text', field_type: 'single_text', label: 'First Name', values: [{ value: 'Adam Smith' }] },
        { field_id: 2, external_id: 'notes', type: 'text', field_type: 'multi_text', label: 'Notes', values: [{ value: '<p>Registered <b>10</b> month ago.</p>' }] },
      ],
    });
    const long = await t.call('POST', '/v1/record/app/1', { fields: { first_name: 'x'.repeat(501) } });
    expect(long.body.error_message).toContain('"first_name"');
    expect(long.body.error_message).toContain('500');
  });

  it('number: the title shows the unit', async () => {
    const t = twin();
    await t.app('Salaries', [['number', 'Salary', { unit: '$', unit_location: 'suffix' }]]);
    const r = await t.call('POST', '/v1/record/app/1', { fields: { salary: 2000 } });
    expect(r.body).toMatchObject({ title: '2000$', fields: [{ field_id: 1, external_id: 'salary', type: 'number', field_type: 'number', label: 'Salary', values: [{ value: 2000 }] }] });
    expect((await t.call('PUT', '/v1/record/1', { fields: { salary: 4000 } })).body).toMatchObject({ title: '4000$', fields: [{ values: [{ value: 4000 }] }] });
    const bad = await t.call('PUT', '/v1/record/1', { fields: { salary: '4000' } });
    expect(bad.body).toMatchObject({ status_code: 400, error_code: 'validation_error' });
    expect(bad.body.error_message).toContain('"salary"');
  });

  it('category: option ids (or texts) in, {id, text, color} out', async () => {
    const t = twin();
    await t.app('Candidates', [
      ['single_text', 'Name'],
      ['single_category', 'Salutation', { options: [{ text: 'Mr.', color: 'gray' }, { text: 'Mrs.', color: 'pink' }] }],
      ['multi_category', 'Tags', { options: ['Senior', 'Junior', 'Remote', 'Interview outstanding', 'Missing contact details'].map((text) => ({ text })) }],
    ]);
    const r = await t.call('POST', '/v1/record/app/1', { fields: { salutation: 1, tags: [4, 5] } });
    expect(r.body.title).toBe('Mr.');
    expect(field(r.body, 'salutation')).toEqual({ field_id: 2, external_id: 'salutation', label: 'Salutation', type: 'category', field_type: 'single_category', values: [{ value: { id: 1, text: 'Mr.', color: 'CDCCC9' } }] });
    expect(field(r.body, 'tags').values.map((v: any) => [v.value.id, v.value.text])).toEqual([[4, 'Interview outstanding'], [5, 'Missing contact details']]);
    const u = await t.call('PUT', '/v1/record/1', { fields: { salutation: 'Mrs.', tags: [5] } });
    expect(field(u.body, 'salutation').values).toEqual([{ value: { id: 2, text: 'Mrs.', color: 'DC0080' } }]);
    expect(field(u.body, 'tags').values).toHaveLength(1);
    const two = await t.call('PUT', '/v1/record/1', { fields: { salutation: [1, 2] } });
    expect(two.body.error_message).toContain('holds one option');
    const unknown = await t.call('PUT', '/v1/record/1', { fields: { tags: [9] } });
    expect(unknown.body.error_message).toContain('"tags"');
    expect(unknown.body.error_message).toContain('1 "Senior"');
  });

  it('category values follow option changes: a rename shows, a deleted option disappears, a deleted status option migrates', async () => {
    const t = twin();
    await t.app('Tasks', [
      ['single_text', 'Title'],
      ['single_category', 'Kind', { options: [{ text: 'Bug' }, { text: 'Feature' }] }],
      ['status', 'Status', { options: [{ text: 'Open', means_completed: false }, { text: 'In Progress', means_completed: false }, { text: 'Done', means_completed: true }] }, true],
    ]);
    await t.call('POST', '/v1/record/app/1', { fields: { title: 'Fix login', kind: 1, status: 1 } });
    await t.call('PUT', '/v1/app/1', { fields: [{ field_id: 2, config: { settings: { options: [{ id: 1, text: 'Defect' }], options_to_delete: [2] } } }] });
    expect(field((await t.call('GET', '/v1/record/1')).body, 'kind').values[0].value.text).toBe('Defect');
    await t.call('PUT', '/v1/app/1', { fields: [{ field_id: 2, config: { settings: { options_to_delete: [1] } } }, { field_id: 3, config: { settings: { options_to_delete: [1] } } }] });
    const rec = (await t.call('GET', '/v1/record/1')).body;
    expect(field(rec, 'kind')).toBeUndefined();
    expect(field(rec, 'status').values[0].value).toMatchObject({ id: 2, text: 'In Progress', means_completed: false });
  });

  it('status: {id, text, color, means_completed}; the field is required', async () => {
    const t = twin();
    await t.app('Onboarding', [['status', 'Onboarding status', { options: [{ text: 'Not started', color: 'red', means_completed: false }, { text: 'Done', color: 'green', means_completed: true }] }, true]]);
    const r = await t.call('POST', '/v1/record/app/1', { fields: { onboarding_status: 1 } });
    expect(r.body).toMatchObject({
      title: 'Not started',
      fields: [{ external_id: 'onboarding_status', label: 'Onboarding status', type: 'status', field_type: 'status', values: [{ value: { id: 1, text: 'Not started', color: 'DF245E', means_completed: false } }] }],
    });
    expect((await t.call('PUT', '/v1/record/1', { fields: { onboarding_status: 2 } })).body).toMatchObject({ title: 'Done', fields: [{ values: [{ value: { id: 2, text: 'Done', color: '007959', means_completed: true } }] }] });
    const missing = await t.call('POST', '/v1/record/app/1', { fields: {} });
    expect(missing.body.error_message).toContain('"onboarding_status"');
    expect(missing.body.error_message).toContain('required');
    const cleared = await t.call('PUT', '/v1/record/1', { fields: { onboarding_status: null } });
    expect(cleared.body.error_message).toContain('required');
  });

  it('date: single_date and range_date, the docs example exactly', async () => {
    const t = twin();
    await t.app('Employees', [
      ['single_date', 'Date of employment'],
      ['range_date', 'Onboarding week', { end: 'enabled' }],
    ]);
    const r = await t.call('POST', '/v1/record/app/1', { fields: { date_of_employment: '2022-03-01', onboarding_week: '2022-03-07 - 2022-03-14' } });
    expect(r.body.title).toBe('Tuesday, 1. March 2022');
    expect(r.body.fields).toEqual([
      {
        field_id: 1,
        external_id: 'date_of_employment',
        label: 'Date of employment',
        type: 'date',
        field_type: 'single_date',
        values: [{ start: '2022-03-01 00:00:00', start_date: '2022-03-01', start_time: null, start_utc: '2022-03-01 00:00:00', start_date_utc: '2022-03-01', start_time_utc: null }],
      },
      {
        field_id: 2,
        external_id: 'onboarding_week',
        label: 'Onboarding week',
        field_type: 'range_date',
        type: 'date',
        values: [
          {
            start: '2022-03-07 00:00:00', start_date: '2022-03-07', start_time: '00:00:00', start_utc: '2022-03-07 00:00:00', start_date_utc: '2022-03-07', start_time_utc: '00:00:00',
            end: '2022-03-14 00:00:00', end_date: '2022-03-14', end_time: '00:00:00', end_utc: '2022-03-14 00:00:00', end_date_utc: '2022-03-14', end_time_utc: '00:00:00',
          },
        ],
      },
    ]);
    const u = await t.call('PUT', '/v1/record/1', { fields: { date_of_employment: '2022-03-02', onboarding_week: { start: '2022-03-08', end: '2022-03-15' } } });
    expect(u.body.title).toBe('Wednesday, 2. March 2022');
    expect(field(u.body, 'onboarding_week').values[0]).toMatchObject({ start_date: '2022-03-08', end_date: '2022-03-15' });
    const withTime = await t.call('PUT', '/v1/record/1', { fields: { date_of_employment: '2022-03-02 14:30:00' } });
    expect(field(withTime.body, 'date_of_employment').values[0]).toMatchObject({ start: '2022-03-02 14:30:00', start_time: '14:30:00' });
    for (const [input, text] of [
      [{ start: '2022-03-02 00:00:00' }, 'expected a date string'],
      ['2022-02-30', 'must be a date'],
      ['03/02/2022', 'must be a date'],
    ] as const) {
      const bad = await t.call('PUT', '/v1/record/1', { fields: { date_of_employment: input } });
      expect(bad.body.error_message).toContain('"date_of_employment"');
      expect(bad.body.error_message).toContain(text);
    }
    expect((await t.call('PUT', '/v1/record/1', { fields: { onboarding_week: '2022-03-15 - 2022-03-08' } })).body.error_message).toContain('before the start');
  });

  it('relation: record ids in, {record_id, app_id, title} out; only records of the referenced apps', async () => {
    const t = twin();
    await t.app('Companies', [['single_text', 'Name']]);
    await t.app('Tasks', [['single_text', 'Name']]);
    await t.app('Employees', [
      ['single_relation', 'Belongs to Company', { referenced_apps: [{ app_id: 1 }] }],
      ['multi_relation', 'Tasks assigned', { referenced_apps: [{ app_id: 2 }] }],
    ]);
    const company = (await t.call('POST', '/v1/record/app/1', { fields: { name: 'Tape Technologies GmbH' } })).body.record_id;
    const t1 = (await t.call('POST', '/v1/record/app/2', { fields: { name: 'Complete onboarding' } })).body.record_id;
    const t2 = (await t.call('POST', '/v1/record/app/2', { fields: { name: 'Fill out compliance documents' } })).body.record_id;
    const r = await t.call('POST', '/v1/record/app/3', { fields: { belongs_to_company: company, tasks_assigned: [t1, t2] } });
    expect(r.body.title).toBe('Tape Technologies GmbH');
    expect(field(r.body, 'belongs_to_company')).toEqual({
      field_id: 3,
      external_id: 'belongs_to_company',
      label: 'Belongs to Company',
      type: 'relation',
      field_type: 'single_relation',
      values: [{ value: { record_id: company, app_id: 1, title: 'Tape Technologies GmbH' } }],
    });
    expect(field(r.body, 'tasks_assigned').values.map((v: any) => v.value)).toEqual([
      { record_id: t1, app_id: 2, title: 'Complete onboarding' },
      { record_id: t2, app_id: 2, title: 'Fill out compliance documents' },
    ]);
    // A renamed related record shows its new title; a deleted one disappears.
    await t.call('PUT', `/v1/record/${t1}`, { fields: { name: 'Onboarding done' } });
    await t.call('DELETE', `/v1/record/${t2}`);
    expect(field((await t.call('GET', `/v1/record/${r.body.record_id}`)).body, 'tasks_assigned').values.map((v: any) => v.value.title)).toEqual(['Onboarding done']);
    const wrongApp = await t.call('POST', '/v1/record/app/3', { fields: { belongs_to_company: t1 } });
    expect(wrongApp.body.error_message).toContain('"belongs_to_company"');
    expect(wrongApp.body.error_message).toContain('references app(s) 1');
    expect((await t.call('POST', '/v1/record/app/3', { fields: { tasks_assigned: [999] } })).body.error_message).toContain('record 999 does not exist');
  });

  it('user: user ids in, user objects out', async () => {
    const t = twin();
    await t.app('Hiring', [['single_user', 'Supervisor'], ['multi_user', 'Interviewed by']]);
    const r = await t.call('POST', '/v1/record/app/1', { fields: { supervisor: 10001, interviewed_by: [10000, 10001] } });
    expect(r.body.title).toBe('Zoe Maxwell');
    expect(field(r.body, 'supervisor')).toEqual({
      field_id: 1,
      external_id: 'supervisor',
      label: 'Supervisor',
      type: 'user',
      field_type: 'single_user',
      values: [{ value: { user_id: 10001, mail: ['zoemaxwell10001@me.com'], image: null, name: 'Zoe Maxwell', org_id: 1337, type: 'user' } }],
    });
    expect(field(r.body, 'interviewed_by').values.map((v: any) => v.value.name)).toEqual(['John Doe', 'Zoe Maxwell']);
    expect((await t.call('PUT', '/v1/record/1', { fields: { supervisor: 4 } })).body.error_message).toContain('user 4 is not a user of organization 1337');
  });

  it('email and phone: entries get ids; an entry keeps its id on update, others are new', async () => {
    const t = twin();
    await t.app('Customers', [['multi_email', 'Customer email'], ['multi_phone', 'Customer phone']]);
    const r = await t.call('POST', '/v1/record/app/1', {
      fields: {
        customer_email: [{ type: 'work', email: 'johndoe@samplebusiness.com' }, { type: 'home', email: 'john@doe.com' }],
        customer_phone: [{ type: 'work', phone: '+1 444 555' }, { type: 'home', phone: '+1 777 111' }],
      },
    });
    expect(field(r.body, 'customer_email')).toEqual({
      field_id: 1,
      external_id: 'customer_email',
      label: 'Customer email',
      type: 'email',
      field_type: 'multi_email',
      values: [{ id: 100, value: 'johndoe@samplebusiness.com', type: 'work' }, { id: 101, value: 'john@doe.com', type: 'home' }],
    });
    expect(field(r.body, 'customer_phone').values).toEqual([{ id: 102, value: '+1 444 555', type: 'work' }, { id: 103, value: '+1 777 111', type: 'home' }]);
    const u = await t.call('PUT', '/v1/record/1', {
      fields: {
        customer_email: [{ id: 100, type: 'work', email: 'johndoeNEW@samplebusiness.com' }, { type: 'other', email: 'johndoe@gmail.com' }],
        customer_phone: ['+1 888 888'],
      },
    });
    expect(field(u.body, 'customer_email').values).toEqual([{ id: 100, value: 'johndoeNEW@samplebusiness.com', type: 'work' }, { id: 104, value: 'johndoe@gmail.com', type: 'other' }]);
    expect(field(u.body, 'customer_phone').values).toEqual([{ id: 105, value: '+1 888 888', type: 'work' }]);
    expect((await t.call('PUT', '/v1/record/1', { fields: { customer_email: [{ type: 'private', email: 'a@b.co' }] } })).body.error_message).toContain('type must be one of work, home, other');
    expect((await t.call('PUT', '/v1/record/1', { fields: { customer_email: 'not-an-email' } })).body.error_message).toContain('is not an email address');
    expect((await t.call('PUT', '/v1/record/1', { fields: { customer_phone: [{ type: 'mobile', number: '+1' }] } })).body.error_message).toContain('unknown key "number"');
  });

  it('link: url strings or {url} in, {embed_id, url} out; an entry with its embed_id is kept', async () => {
    const t = twin();
    await t.app('Customers', [['multi_link', 'Customer website']]);
    const r = await t.call('POST', '/v1/record/app/1', { fields: { customer_website: [{ url: 'https://somecustomerwebsite.com' }] } });
    expect(field(r.body, 'customer_website')).toEqual({
      field_id: 1,
      external_id: 'customer_website',
      label: 'Customer website',
      type: 'link',
      field_type: 'multi_link',
      values: [{ embed_id: 100, url: 'https://somecustomerwebsite.com' }],
    });
    const u = await t.call('PUT', '/v1/record/1', { fields: { customer_website: [{ embed_id: 100, url: 'https://somecustomerwebsite.com' }, 'https://secondcustomerwebsite.com'] } });
    expect(field(u.body, 'customer_website').values).toEqual([{ embed_id: 100, url: 'https://somecustomerwebsite.com' }, { embed_id: 101, url: 'https://secondcustomerwebsite.com' }]);
    expect((await t.call('PUT', '/v1/record/1', { fields: { customer_website: 'ftp://x' } })).body.error_message).toContain('http(s) URL');
  });

  it('location: the address object, the docs example exactly', async () => {
    const t = twin();
    await t.app('Companies', [['single_location', 'Company Address']]);
    const address = { city: 'Munich', map_in_sync: true, country: 'Germany', value: 'Hessstr. 6, 80799 Munich, Germany', state: 'Bavaria', postal_code: '80799', street_address: 'Hessstr. 6' };
    const r = await t.call('POST', '/v1/record/app/1', { fields: { company_address: address } });
    expect(r.body.title).toBe('Hessstr. 6, 80799 Munich, Germany');
    expect(r.body.fields).toEqual([
      {
        field_id: 1,
        external_id: 'company_address',
        type: 'location',
        field_type: 'single_location',
        label: 'Company Address',
        values: [{ ...address, original_formatted_address: 'Hessstr. 6, 80799 Munich, Germany' }],
      },
    ]);
    const u = await t.call('PUT', '/v1/record/1', { fields: { company_address: { ...address, latitude: 48.15397, longitude: 11.55993 } } });
    expect(field(u.body, 'company_address').values[0]).toMatchObject({ latitude: 48.15397, longitude: 11.55993 });
    expect((await t.call('PUT', '/v1/record/1', { fields: { company_address: { zip: '1' } } })).body.error_message).toContain('unknown key "zip"');
  });

  it('attachment and image: temporary file ids of uploads, or ids of attached files', async () => {
    const t = twin();
    await t.app('Candidates', [['single_attachment', 'Letter of recommendation'], ['multi_attachment', 'HR documents'], ['multi_image', 'Recruiting Photos']]);
    const letter = await t.upload('200301_letter-of-recommendation.pdf', 'x'.repeat(123), 'application/pdf');
    const doc1 = await t.upload('200301_hr_document-1.pdf', 'y'.repeat(150), 'application/pdf');
    const doc2 = await t.upload('200301_hr_document-2.pdf', 'z'.repeat(160), 'application/pdf');
    const r = await t.call('POST', '/v1/record/app/1', { fields: { letter_of_recommendation: letter, hr_documents: [doc1, doc2] } });
    expect(r.body.title).toBe('200301_letter-of-recommendation.pdf');
    expect(field(r.body, 'letter_of_recommendation')).toEqual({
      field_id: 1,
      external_id: 'letter_of_recommendation',
      label: 'Letter of recommendation',
      type: 'attachment',
      field_type: 'single_attachment',
      values: [{ value: { id: 100, filename: '200301_letter-of-recommendation.pdf', size: 123, download_url: expect.stringMatching(/^https:\/\/api\.tapeapp\.com\/files\/100\/[0-9a-f]+\/200301_letter-of-recommendation\.pdf$/) } }],
    });
    expect(field(r.body, 'hr_documents').values).toEqual([
      { value: { id: 101, filename: '200301_hr_document-1.pdf', size: 150, download_url: expect.stringMatching(/^https:\/\/api\.tapeapp\.com\/files\/101\/[0-9a-f]+\/200301_hr_document-1\.pdf$/) } },
      { value: { id: 102, filename: '200301_hr_document-2.pdf', size: 160, download_url: expect.stringMatching(/^https:\/\/api\.tapeapp\.com\/files\/102\/[0-9a-f]+\/200301_hr_document-2\.pdf$/) } },
    ]);
    const doc6 = await t.upload('200301_hr_document-6.pdf', 'w', 'application/pdf');
    const u = await t.call('PUT', '/v1/record/1', { fields: { hr_documents: [doc6, 102] } });
    expect(field(u.body, 'hr_documents').values.map((v: any) => [v.value.id, v.value.filename])).toEqual([
      [103, '200301_hr_document-6.pdf'],
      [102, '200301_hr_document-2.pdf'],
    ]);
    const photo = await t.upload('200301_recruiting_photo_1.jpeg', 'jpeg', 'image/jpeg');
    const p = await t.call('PUT', '/v1/record/1', { fields: { recruiting_photos: [photo] } });
    expect(field(p.body, 'recruiting_photos')).toMatchObject({ type: 'image', field_type: 'multi_image', values: [{ value: { filename: '200301_recruiting_photo_1.jpeg', size: 4 } }] });
    expect((await t.call('PUT', '/v1/record/1', { fields: { recruiting_photos: [102] } })).body.error_message).toContain('is not an image');
    expect((await t.call('PUT', '/v1/record/1', { fields: { hr_documents: ['temporary-file-404'] } })).body.error_message).toContain('does not exist');
    expect((await t.call('PUT', '/v1/record/1', { fields: { letter_of_recommendation: [doc1, doc2] } })).body.error_message).toContain('holds one file');
  });

  it('checklist: entries get ids; update by id, completion time recorded; title/completed, not text/checked', async () => {
    const t = twin();
    await t.app('Chores', [['checklist', 'Subtasks']]);
    const r = await t.call('POST', '/v1/record/app/1', {
      fields: {
        subtasks: [
          { title: 'Clean the kitchen', description: 'Please do not forget the sink.', due_at: '2022-03-15', assignee: 10000 },
          { title: 'Tidy up the living room', due_at: '2022-03-15 15:00' },
        ],
      },
    });
    const john = { user_id: 10000, mail: ['john@doe.com'], image: null, name: 'John Doe', org_id: 1337, type: 'user' };
    expect(field(r.body, 'subtasks')).toEqual({
      field_id: 1,
      external_id: 'subtasks',
      label: 'Subtasks',
      type: 'checklist',
      field_type: 'checklist',
      values: [
        { id: 100, title: 'Clean the kitchen', description: 'Please do not forget the sink.', due_at: '2022-03-15', completed: false, completed_at: null, assignee: john },
        { id: 101, title: 'Tidy up the living room', description: '', due_at: '2022-03-15 15:00', completed: false, completed_at: null, assignee: null },
      ],
    });
    const u = await t.call('PUT', '/v1/record/1', {
      fields: {
        subtasks: [
          { id: 100, title: 'Clean the kitchen', description: 'Please do not forget the sink.', due_at: '2022-03-15', completed: false, assignee: 10001 },
          { id: 101, title: 'Tidy up the living room', description: '', due_at: '2022-03-15 15:00', completed: true },
        ],
      },
    });
    const [first, second] = field(u.body, 'subtasks').values;
    expect(first).toMatchObject({ id: 100, assignee: { user_id: 10001, name: 'Zoe Maxwell' }, completed: false });
    expect(second).toMatchObject({ id: 101, completed: true });
    expect(second.completed_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    for (const [entry, text] of [
      [{ text: 'Wrong key' }, 'unknown key "text"'],
      [{ title: 'x', checked: true }, 'unknown key "checked"'],
      [{ description: 'no title' }, 'needs "title"'],
      [{ title: 'x', due_at: 'tomorrow' }, '"due_at"'],
    ] as const) {
      const bad = await t.call('PUT', '/v1/record/1', { fields: { subtasks: [entry] } });
      expect(bad.body.error_message).toContain('"subtasks"');
      expect(bad.body.error_message).toContain(text);
    }
    // An entry left out is deleted; a plain string is a new entry.
    const s = await t.call('PUT', '/v1/record/1', { fields: { subtasks: [{ id: 101, title: 'Tidy up the living room' }, 'Water the plants'] } });
    expect(field(s.body, 'subtasks').values.map((v: any) => [v.id, v.title, v.completed])).toEqual([
      [101, 'Tidy up the living room', true],
      [102, 'Water the plants', false],
    ]);
  });

  it('calculation: computed from the script, read-only; unique_id is not returned but app_record_id counts per app', async () => {
    const t = twin();
    await t.app('Contacts', [['single_text', 'First Name'], ['single_text', 'Last Name'], ['unique_id', 'Contact-ID', { prefix: 'C-' }], ['number', 'Price'], ['number', 'Quantity']]);
    await t.call('PUT', '/v1/app/1', {
      fields: [
        { field_type: 'calculation', config: { label: 'Full Name', settings: { script: '@[First Name](field_1) +" "+ @[Last Name](field_2)' } } },
        { field_type: 'calculation', config: { label: 'Total', settings: { script: '@[Price](field_4) * @[Quantity](field_5)', decimals: 2 } } },
      ],
    });
    const r = await t.call('POST', '/v1/record/app/1', { fields: { first_name: 'Adam', last_name: 'Smith', price: 2.5, quantity: 3 } });
    expect(field(r.body, 'full_name')).toEqual({ field_id: 6, external_id: 'full_name', label: 'Full Name', type: 'calculation', field_type: 'calculation', values: [{ value: 'Adam Smith' }] });
    expect(field(r.body, 'total').values).toEqual([{ value: 7.5 }]);
    expect(field(r.body, 'contact_id')).toBeUndefined();
    expect(r.body.app_record_id).toBe(1);
    expect((await t.call('PUT', `/v1/record/${r.body.record_id}`, { fields: { last_name: 'Jones' } })).body.fields.find((f: any) => f.external_id === 'full_name').values).toEqual([{ value: 'Adam Jones' }]);
    expect((await t.call('POST', '/v1/record/app/1', { fields: { first_name: 'B' } })).body.app_record_id).toBe(2);
    const bad = await t.call('POST', '/v1/record/app/1', { fields: { full_name: 'X' } });
    expect(bad.body.error_message).toContain('"full_name"');
    expect(bad.body.error_message).toContain('cannot be provided');
    expect((await t.call('POST', '/v1/record/app/1', { fields: { contact_id: 5 } })).body.error_message).toContain('"contact_id"');
  });

  it('fields are named by external_id or field_id; an unknown field is refused naming it', async () => {
    const t = twin();
    await t.app('Contacts', [['single_text', 'Full Name', undefined, true], ['multi_text', 'Notes']]);
    const byId = await t.call('POST', '/v1/record/app/1', { fields: { 1: 'By Id', 2: 'note' } });
    expect(byId.body.title).toBe('By Id');
    const unknown = await t.call('POST', '/v1/record/app/1', { fields: { full_name: 'A', nickname: 'B' } });
    expect(unknown.body).toMatchObject({ status_code: 400, error_code: 'validation_error' });
    expect(unknown.body.error_message).toContain('Field "nickname" does not exist in app 1');
    const required = await t.call('POST', '/v1/record/app/1', { fields: { notes: 'only notes' } });
    expect(required.body.error_message).toContain('"full_name"');
    expect((await t.call('POST', '/v1/record/app/1', {})).body.error_message).toContain('"fields" is required');
    expect(t.state.records.size).toBe(1);
  });
});

describe('Tape twin: batch create and update (record.md)', () => {
  it('creates the docs example batch and refuses more than 50 inputs', async () => {
    const t = twin();
    await t.app('Contacts', [['single_text', 'First Name']]);
    const r = await t.call('POST', '/v1/record/app/batch/1', { inputs: [{ fields: { first_name: 'Adam Smith' } }, { fields: { first_name: 'Pete Miller' } }] });
    expect(r.body.records.map((x: any) => [x.record_id, x.title])).toEqual([
      [1, 'Adam Smith'],
      [2, 'Pete Miller'],
    ]);
    const inputs = Array.from({ length: 51 }, (_, i) => ({ fields: { first_name: `P${i}` } }));
    const tooMany = await t.call('POST', '/v1/record/app/batch/1', { inputs });
    expect(tooMany.body).toMatchObject({ status_code: 400, error_code: 'validation_error' });
    expect(tooMany.body.error_message).toContain('at most 50');
    expect((await t.call('POST', '/v1/record/app/batch/1', { inputs: inputs.slice(0, 50) })).body.records).toHaveLength(50);
    expect(t.events.filter((e) => e.type === 'record.create')).toHaveLength(52);
  });

  it('is all or nothing: one invalid input fails the batch and names its index', async () => {
    const t = twin();
    await t.app('Contacts', [['single_text', 'First Name'], ['number', 'Age']]);
    const r = await t.call('POST', '/v1/record/app/batch/1', { inputs: [{ fields: { first_name: 'Adam' } }, { fields: { age: 'old' } }] });
    expect(r.status).toBe(400);
    expect(r.body.error_message).toMatch(/^inputs\[1\]: .*"age"/);
    expect(t.state.records.size).toBe(0);
  });

  it('updates a batch (docs example), all or nothing, and empty_response leaves the records out', async () => {
    const t = twin();
    await t.app('Contacts', [['single_text', 'First Name']]);
    await t.call('POST', '/v1/record/app/batch/1', { inputs: [{ fields: { first_name: 'A' } }, { fields: { first_name: 'B' } }] });
    const r = await t.call('PUT', '/v1/record/app/batch/1', { inputs: [{ record_id: 1, fields: { first_name: 'Adam Smith' } }, { record_id: 2, fields: { first_name: 'Pete Miller' } }] });
    expect(r.body.records.map((x: any) => x.title)).toEqual(['Adam Smith', 'Pete Miller']);
    const bad = await t.call('PUT', '/v1/record/app/batch/1', { inputs: [{ record_id: 1, fields: { first_name: 'Changed' } }, { record_id: 77, fields: { first_name: 'X' } }] });
    expect(bad.body).toMatchObject({ status_code: 404, error_code: 'record_not_exists' });
    expect(bad.body.error_message).toContain('inputs[1]');
    expect(t.state.records.get(1)!.title).toBe('Adam Smith');
    const empty = await t.call('PUT', '/v1/record/app/batch/1?empty_response=true', { inputs: [{ record_id: 1, fields: { first_name: 'Ann' } }] });
    expect(empty.body).toEqual({ records: [] });
    expect(t.state.records.get(1)!.title).toBe('Ann');
  });
});

describe('Tape twin: listing, sorting and pagination (record.md, pagination.md)', () => {
  async function people(n: number) {
    const t = twin();
    await t.app('People', [['single_text', 'Name'], ['number', 'Age']]);
    for (let i = 0; i < n; i += 50) {
      const inputs = Array.from({ length: Math.min(50, n - i) }, (_, k) => ({ fields: { name: `Person ${String(i + k).padStart(3, '0')}`, ...((i + k) % 5 ? { age: ((i + k) * 37) % 90 } : {}) } }));
      await t.call('POST', '/v1/record/app/batch/1', { inputs });
    }
    return t;
  }

  it('walks all pages with the cursor until a short page; newest first by default', async () => {
    const t = await people(23);
    const seen: number[] = [];
    let cursor: string | undefined;
    let pages = 0;
    for (;;) {
      const r = await t.call('GET', `/v1/record/app/1?limit=5${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(r.body.total).toBe(23);
      seen.push(...r.body.records.map((x: any) => x.record_id));
      pages++;
      if (r.body.records.length < 5) break;
      cursor = r.body.cursor;
    }
    expect(pages).toBe(5);
    expect(seen).toEqual(Array.from({ length: 23 }, (_, i) => 23 - i));
    expect((await t.call('GET', '/v1/record/app/1')).body.records).toHaveLength(23);
  });

  it('defaults to 50 per page, caps at 500, and refuses a cursor it did not make', async () => {
    const t = await people(60);
    expect((await t.call('GET', '/v1/record/app/1')).body.records).toHaveLength(50);
    expect((await t.call('GET', '/v1/record/app/1?limit=500')).body.records).toHaveLength(60);
    expect((await t.call('GET', '/v1/record/app/1?limit=501')).body).toMatchObject({ status_code: 400, error_code: 'validation_error' });
    expect((await t.call('GET', '/v1/record/app/1?cursor=garbage')).body.error_message).toContain('cursor');
  });

  it('sorts by a field external_id, ascending or descending, empty values last', async () => {
    const t = await people(10);
    const asc = (await t.call('GET', '/v1/record/app/1?sort_by=age')).body.records.map((x: any) => x.fields.find((f: any) => f.external_id === 'age')?.values[0].value ?? null);
    const ages = Array.from({ length: 10 }, (_, i) => (i % 5 ? (i * 37) % 90 : null));
    expect(asc).toEqual([...ages.filter((a) => a !== null).sort((a, b) => a! - b!), null, null]);
    expect(asc[0]).toBe(21);
    const desc = (await t.call('GET', '/v1/record/app/1?sort_by=name&sort_desc=true')).body.records.map((x: any) => x.title);
    expect(desc[0]).toBe('Person 009');
    expect(desc.at(-1)).toBe('Person 000');
    expect((await t.call('GET', '/v1/record/app/1?sort_by=shoe_size')).body.error_message).toContain('sort_by');
  });

  it('paginate() helper: total, opaque cursor, pages', () => {
    const rows = Array.from({ length: 7 }, (_, i) => i);
    const p1 = paginate(rows, 3);
    expect(p1).toMatchObject({ total: 7, page: [0, 1, 2] });
    const p3 = paginate(rows, 3, paginate(rows, 3, p1.cursor).cursor);
    expect(p3.page).toEqual([6]);
    expect(paginate(rows, 3, p3.cursor)).toEqual({ total: 7, cursor: null, page: [] });
  });

  it('filters with the filter engine, cursor and limit in the query (record.md example)', async () => {
    const t = twin();
    await t.app('Contacts', [['single_text', 'Full Name']]);
    for (const name of ['Karl John III', 'Alison Johnsson', 'Adam Smith', 'John Doe']) await t.call('POST', '/v1/record/app/1', { fields: { full_name: name } });
    const filters = [{ field_id: '1', field_type: 'SINGLE_TEXT', match_type: 'contains', values: [{ value: 'John' }], type: 'text' }];
    const p1 = await t.call('POST', '/v1/record/filter/app/1?limit=2', { filters });
    expect(p1.body.total).toBe(3);
    expect(p1.body.records.map((x: any) => x.title)).toEqual(['John Doe', 'Alison Johnsson']);
    expect(p1.body.records[0].app).toEqual({ app_id: 1, icon: 'event_available', name: 'Contacts', record_name: 'Contacts', workspace_id: 1 });
    const p2 = await t.call('POST', `/v1/record/filter/app/1?limit=2&cursor=${encodeURIComponent(p1.body.cursor)}`, { filters });
    expect(p2.body.records.map((x: any) => x.title)).toEqual(['Karl John III']);
    const bad = await t.call('POST', '/v1/record/filter/app/1', { filters: [{ field_id: 1, match_type: 'contains', values: [{ value: 'x' }] }] });
    expect(bad.body).toMatchObject({ status_code: 400, error_code: 'validation_error' });
  });
});

describe('Tape twin: related and relatable records (record.md)', () => {
  async function crm() {
    const t = twin();
    await t.app('Contacts', [['single_text', 'Full Name']]);
    await t.app('Deals', [['single_text', 'Deal'], ['multi_relation', 'Contacts', { referenced_apps: [{ app_id: 1 }] }]]);
    for (const name of ['Andrea Lim', 'Adam Smith', 'Adam West']) await t.call('POST', '/v1/record/app/1', { fields: { full_name: name } });
    await t.call('POST', '/v1/record/app/2', { fields: { deal: 'Big deal', contacts: [1, 2] } });
    await t.call('POST', '/v1/record/app/2', { fields: { deal: 'Small deal', contacts: [2] } });
    return t;
  }

  it('forward, reverse and both, with total = records returned', async () => {
    const t = await crm();
    const fwd = await t.call('POST', '/v1/record/app/2/ref/1?limit=10', { recordIds: [4], direction: 'forward' });
    expect(fwd.body.total).toBe(2);
    expect(fwd.body.records.map((x: any) => x.title)).toEqual(['Adam Smith', 'Andrea Lim']);
    expect(fwd.body.records[0]).toMatchObject({ app: { app_id: 1, name: 'Contacts' }, fields: [{ external_id: 'full_name' }] });
    const rev = await t.call('POST', '/v1/record/app/1/ref/2', { recordIds: [2], direction: 'reverse' });
    expect(rev.body.records.map((x: any) => x.title)).toEqual(['Small deal', 'Big deal']);
    expect((await t.call('POST', '/v1/record/app/1/ref/2', { recordIds: [2], direction: 'forward' })).body).toEqual({ total: 0, records: [] });
    expect((await t.call('POST', '/v1/record/app/1/ref/2', { recordIds: [1], direction: 'both' })).body.records.map((x: any) => x.title)).toEqual(['Big deal']);
    expect((await t.call('POST', '/v1/record/app/2/ref/1?limit=1', { recordIds: [4], direction: 'forward' })).body.total).toBe(1);
    expect((await t.call('POST', '/v1/record/app/2/ref/1?limit=1001', { recordIds: [4] })).body.error_message).toContain('limit');
    expect((await t.call('POST', '/v1/record/app/2/ref/1', { recordIds: [1] })).body.error_message).toContain('record 1 is not a record of app 2');
    expect((await t.call('POST', '/v1/record/app/2/ref/1', { recordIds: [4], direction: 'sideways' })).body.error_message).toContain('direction');
  });

  it('finds relatable records by title, at most 10, without fields', async () => {
    const t = await crm();
    const r = await t.call('GET', '/v1/record/field/3/find?text=adam');
    expect(r.body.total).toBe(2);
    expect(r.body.records.map((x: any) => x.title)).toEqual(['Adam West', 'Adam Smith']);
    expect(r.body.records[0]).toMatchObject({ record_id: 3, title: 'Adam West', app: { app_id: 1, icon: 'event_available', name: 'Contacts', record_name: 'Contacts', workspace_id: 1 } });
    expect(r.body.records[0].fields).toBeUndefined();
    expect(r.body.records[0].created_on).toMatch(DATETIME);
    for (let i = 0; i < 12; i++) await t.call('POST', '/v1/record/app/1', { fields: { full_name: `Adam ${i}` } });
    expect((await t.call('GET', '/v1/record/field/3/find?text=adam')).body.total).toBe(10);
    expect((await t.call('GET', '/v1/record/field/1/find?text=a')).body.error_message).toContain('relation');
    expect((await t.call('GET', '/v1/record/field/99/find?text=a')).body).toMatchObject({ status_code: 404, error_code: 'not_found' });
  });
});

describe('Tape twin: revisions (record-revision.md)', () => {
  it('lists revisions and answers the delta to the previous revision', async () => {
    const t = twin();
    await t.app('Contacts', [['single_text', 'Full Name'], ['single_text', 'Notes']]);
    await t.call('POST', '/v1/record/app/1', { fields: { full_name: 'Dan Jacob' } });
    await t.call('PUT', '/v1/record/1', { fields: { notes: 'Some important notes' } });
    const list = await t.call('GET', '/v1/record/1/revision');
    expect(list.body.total).toBe(2);
    expect(list.body.revisions.map((r: any) => [r.revision, r.type, r.created_by])).toEqual([
      [0, 'creation', { user_id: 10000, name: 'John Doe', type: 'user', image: null }],
      [1, 'update', { user_id: 10000, name: 'John Doe', type: 'user', image: null }],
    ]);
    expect(list.body.revisions[1].created_on).toMatch(DATETIME);
    const delta = await t.call('GET', '/v1/record/1/revision/previous/1');
    expect(delta.body).toEqual({
      record_id: 1,
      from_revision_id: 0,
      to_revision_id: 1,
      revision_deltas: [
        {
          from: [],
          external_id: 'notes',
          field_id: 2,
          label: 'Notes',
          to: [{ value: 'Some important notes' }],
          type: 'text',
          field_type: 'single_text',
          config: { description: null, required: false, label: 'Notes' },
        },
      ],
    });
    expect((await t.call('GET', '/v1/record/1/revision/previous/0')).status).toBe(400);
    expect((await t.call('GET', '/v1/record/1/revision/previous/7')).status).toBe(404);
    await t.call('DELETE', '/v1/record/1');
    expect((await t.call('GET', '/v1/record/1/revision')).body.error_code).toBe('record_deleted');
    expect((await t.call('GET', '/v1/record/1/revision?include_deleted=true')).body.revisions.map((r: any) => r.type)).toEqual(['creation', 'update', 'delete']);
  });
});

describe('Tape twin: comments (record-comment.md)', () => {
  it('creates, retrieves, lists (paginated, max 100) and deletes comments, emitting comment events', async () => {
    const t = twin();
    await t.app('Contacts', [['single_text', 'Full Name']]);
    await t.call('POST', '/v1/record/app/1', { fields: { full_name: 'Adam Smith' } });
    const c = await t.call('POST', '/v1/comment/record/1', { value: 'This is a comment on record with ID 1.' });
    const john = { user_id: 10000, mail: ['john@doe.com'], image: null, name: 'John Doe', org_id: 1337, type: 'user' };
    expect(c.body).toEqual({ comment_id: 1, value: 'This is a comment on record with ID 1.', created_on: expect.stringMatching(DATETIME), ref: { type: 'record', id: 1 }, files: [], created_by: john, user: john });
    expect((await t.call('GET', '/v1/comment/1')).body).toEqual(c.body);
    await t.call('POST', '/v1/comment/record/1?hook=false', { value: 'This is another comment on record with ID 1.' });
    await t.call('POST', '/v1/comment/record/1', { value: 'Third, mentioning @[Zoe Maxwell](user:10001)' }, SANDBOX_KEYS.member);
    const p1 = await t.call('GET', '/v1/comment/record/1?limit=2');
    expect(p1.body.total).toBe(3);
    expect(p1.body.comments.map((x: any) => x.comment_id)).toEqual([1, 2]);
    const p2 = await t.call('GET', `/v1/comment/record/1?limit=2&cursor=${encodeURIComponent(p1.body.cursor)}`);
    expect(p2.body.comments.map((x: any) => x.comment_id)).toEqual([3]);
    expect((await t.call('GET', '/v1/comment/record/1?limit=101')).status).toBe(400);
    // Only the author or an org admin deletes a comment.
    expect((await t.call('DELETE', '/v1/comment/1', undefined, SANDBOX_KEYS.member)).body.error_code).toBe('restricted_resource');
    expect((await t.call('DELETE', '/v1/comment/1')).body).toEqual({});
    expect((await t.call('GET', '/v1/comment/1')).body).toMatchObject({ status_code: 404, error_message: 'Comment does not exist(1)!' });
    const commentEvents = t.events.filter((e) => e.type.startsWith('comment.'));
    expect(commentEvents).toEqual([
      { type: 'comment.create', app_id: 1, record_id: 1, comment_id: 1, hook: true, user_id: 10000 },
      { type: 'comment.create', app_id: 1, record_id: 1, comment_id: 2, hook: false, user_id: 10000 },
      { type: 'comment.create', app_id: 1, record_id: 1, comment_id: 3, hook: true, user_id: 10001 },
      { type: 'comment.delete', app_id: 1, record_id: 1, comment_id: 1, hook: true, user_id: 10000 },
    ]);
  });

  it('refuses an empty comment and a comment on a deleted record; attaches uploaded files', async () => {
    const t = twin();
    await t.app('Contacts', [['single_text', 'Full Name']]);
    await t.call('POST', '/v1/record/app/1', { fields: { full_name: 'Adam Smith' } });
    expect((await t.call('POST', '/v1/comment/record/1', { value: '  ' })).body.error_message).toContain('"value"');
    const file = await t.upload('notes.txt', 'twenty bytes of text', 'text/plain');
    const withFile = await t.call('POST', '/v1/comment/record/1', { value: 'See attached.', file_ids: [file] });
    expect(withFile.body.files).toEqual([{ file_id: file, name: 'notes.txt', size: 20 }]);
    await t.call('DELETE', '/v1/record/1');
    expect((await t.call('POST', '/v1/comment/record/1', { value: 'Too late' })).body.error_code).toBe('record_deleted');
  });
});

describe('Tape twin: record access', () => {
  it('closed workspaces are read-only for non-members; default workspaces are open to all', async () => {
    const t = twin();
    await t.app('Tasks', [['single_text', 'Title']], 1);
    await t.app('Contacts', [['single_text', 'Name']], 2);
    await t.call('POST', '/v1/record/app/1', { fields: { title: 'Write docs' } });
    // Zoe is a member of the closed workspace 1 and not of the default workspace 2.
    expect((await t.call('POST', '/v1/record/app/1', { fields: { title: 'Mine' } }, SANDBOX_KEYS.member)).status).toBe(200);
    expect((await t.call('POST', '/v1/record/app/2', { fields: { name: 'Zoe' } }, SANDBOX_KEYS.member)).status).toBe(200);
    t.state.members.get(1)!.delete(10001);
    expect((await t.call('GET', '/v1/record/1', undefined, SANDBOX_KEYS.member)).status).toBe(200);
    const w = await t.call('PUT', '/v1/record/1', { fields: { title: 'Hijacked' } }, SANDBOX_KEYS.member);
    expect(w.body).toMatchObject({ status_code: 403, error_code: 'restricted_resource' });
    expect((await t.call('DELETE', '/v1/record/1', undefined, SANDBOX_KEYS.member)).status).toBe(403);
  });
});
