import { describe, expect, it } from 'vitest';
import { ToolError } from '../../shared/core/errors';
import type { TapeAppField, TapeAppWithFields, TapeRecord } from '../../functions/dbapp/wire';
import {
  TAPE_FIELDS,
  currencyMatches,
  expectedShape,
  fieldValue,
  mergeChecklists,
  planFields,
  plainText,
  recordLine,
  recordListText,
  recordText,
  resolveFieldIds,
  shortDate,
  toRecord,
  valueText,
  type AppRecord,
} from '../../functions/dbapp/fields';

// An app with one field of every type the input table of docs/spec.md#dbapp-record names, plus the read-only ones.
let nextId = 100;
function field(external_id: string, field_type: string, settings: Record<string, unknown> = {}, required = false): TapeAppField {
  const label = external_id.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
  return { field_id: nextId++, external_id, label, type: field_type, field_type, config: { label, required, settings } };
}
const F = {
  name: field('name', 'single_text', {}, true),
  notes: field('notes', 'multi_text'),
  count: field('count', 'number'),
  amount: field('amount', 'number', { unit: '€', unit_location: 'suffix', decimals: 2 }),
  source: field('source', 'single_category', { options: [{ id: 1, text: 'Website' }, { id: 2, text: 'Referral' }, { id: 3, text: 'Event' }] }),
  tags: field('tags', 'multi_category', { options: [{ id: 1, text: 'Enterprise' }, { id: 2, text: 'SMB' }, { id: 3, text: 'Hot' }] }),
  stage: field('stage', 'status', { options: [{ id: 1, text: 'Open', means_completed: false }, { id: 2, text: 'Won', means_completed: true }] }),
  due: field('due', 'single_date', { time: 'disabled' }),
  period: field('period', 'range_date', { end: 'enabled' }),
  lead: field('lead', 'single_relation', { referenced_apps: [{ app_id: 901 }] }),
  deals: field('deals', 'multi_relation', { referenced_apps: [{ app_id: 902 }] }),
  owner: field('owner', 'single_user'),
  team: field('team', 'multi_user'),
  contract: field('contract', 'single_attachment'),
  files: field('files', 'multi_attachment'),
  photos: field('photos', 'multi_image'),
  email: field('email', 'multi_email'),
  phone: field('phone', 'multi_phone'),
  website: field('website', 'multi_link'),
  tasks: field('tasks', 'checklist'),
  address: field('address', 'single_location'),
  total: field('total', 'calculation', { script: '1+1', return_type: 'number' }),
  number_id: field('number_id', 'unique_id'),
  created: field('created', 'created_on'),
};
const APP: TapeAppWithFields = { app_id: 4711, workspace_id: 1, name: 'Everything', slug: 'everything', fields: Object.values(F) };

/** Plans a create with the required name plus `fields`; returns Tape's body. */
const create = (fields: Record<string, unknown>, path?: string) => planFields(APP, { name: 'Ada', ...fields }, 'create', path).body;
const update = (fields: Record<string, unknown>) => planFields(APP, fields, 'update').body;

/** The INVALID_PARAMETER a call throws: its parameter path, expected shape and message. */
function rejection(fn: () => unknown): { parameter: string; expected: string; message: string } {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ToolError);
    const e = err as ToolError;
    expect(e.code).toBe('INVALID_PARAMETER');
    return { parameter: String(e.details.parameter), expected: String(e.details.expected), message: e.message };
  }
  throw new Error('expected an INVALID_PARAMETER, nothing was thrown');
}

describe('planFields — keys', () => {
  it('takes external_ids and numeric field_ids and sends Tape field_ids', () => {
    expect(planFields(APP, { name: 'Ada', [String(F.count.field_id)]: 3 }, 'create').body).toEqual({ [F.name.field_id]: 'Ada', [F.count.field_id]: 3 });
  });

  it('refuses an unknown key, listing the valid ones', () => {
    const r = rejection(() => create({ nmae: 'x' }));
    expect(r.parameter).toBe('fields.nmae');
    expect(r.message).toContain(`name (${F.name.field_id})`);
    expect(r.message).toContain(`tasks (${F.tasks.field_id})`);
  });

  it('refuses a field named twice (by id and by external_id)', () => {
    const r = rejection(() => create({ count: 1, [String(F.count.field_id)]: 2 }));
    // JSON objects put integer-like keys first: the external_id is the second mention.
    expect(r.parameter).toBe('fields.count');
    expect(r.message).toContain(`"count" and "${F.count.field_id}" both name field ${F.count.field_id}`);
  });

  it('refuses an empty fields object', () => {
    expect(rejection(() => planFields(APP, {}, 'update')).parameter).toBe('fields');
  });

  it('refuses the read-only types', () => {
    for (const k of ['total', 'number_id', 'created'] as const) {
      const r = rejection(() => create({ [k]: 1 }));
      expect(r.parameter).toBe(`fields.${k}`);
      expect(r.message).toContain('cannot be written');
    }
  });

  it('checks required fields on create only, and never lets them be cleared', () => {
    const missing = rejection(() => planFields(APP, { count: 1 }, 'create'));
    expect(missing.parameter).toBe('fields.name');
    expect(missing.message).toContain('required');
    expect(update({ count: 1 })).toEqual({ [F.count.field_id]: 1 });
    expect(rejection(() => update({ name: null })).parameter).toBe('fields.name');
  });

  it('clears with null or [] on update and leaves it out on create', () => {
    expect(update({ count: null, tags: [] })).toEqual({ [F.count.field_id]: null, [F.tags.field_id]: null });
    expect(create({ count: null })).toEqual({ [F.name.field_id]: 'Ada' });
  });

  it('names the path it was given (batches)', () => {
    expect(rejection(() => create({ count: 'x' }, 'inputs.3.fields')).parameter).toBe('inputs.3.fields.count');
  });

  it('reports the fields written in app order', () => {
    expect(planFields(APP, { tags: [1], name: 'A' }, 'update').written.map((w) => w.label)).toEqual(['Name', 'Tags']);
  });
});

describe('planFields — values by type', () => {
  it('text and multi_text take strings', () => {
    expect(create({ notes: '<p>Hi</p>' })[F.notes.field_id]).toBe('<p>Hi</p>');
    const r = rejection(() => create({ notes: 42 }));
    expect(r.parameter).toBe('fields.notes');
    expect(r.expected).toContain('a string');
  });

  it('number takes numbers; a numeric string is refused with the fix', () => {
    expect(create({ count: 12.5 })[F.count.field_id]).toBe(12.5);
    const r = rejection(() => create({ count: '12.5' }));
    expect(r.message).toContain('Send it as a number: 12.5');
  });

  it('money {value, currency} maps onto a number field whose unit is the currency', () => {
    expect(create({ amount: { value: '1250.50', currency: 'EUR' } })[F.amount.field_id]).toBe(1250.5);
    expect(create({ amount: { value: '3', currency: '€' } })[F.amount.field_id]).toBe(3);
    const other = rejection(() => create({ amount: { value: '1', currency: 'USD' } }));
    expect(other.parameter).toBe('fields.amount.currency');
    expect(other.message).toContain('Convert the amount to €');
    expect(rejection(() => create({ count: { value: '1', currency: 'EUR' } })).message).toContain('has no unit');
    expect(rejection(() => create({ amount: { value: '12,50', currency: 'EUR' } })).parameter).toBe('fields.amount.value');
    expect(rejection(() => create({ amount: { value: '12.50' } })).parameter).toBe('fields.amount.currency');
    expect(rejection(() => create({ amount: { value: '1', currency: 'EUR', cents: 5 } })).parameter).toBe('fields.amount.cents');
    expect(currencyMatches('usd', '$')).toBe(true);
    expect(currencyMatches('GBP', '€')).toBe(false);
  });

  it('categories and status take option ids or texts; single ones at most one', () => {
    expect(create({ source: ['referral'] })[F.source.field_id]).toBe(2);
    expect(create({ source: 'Website' })[F.source.field_id]).toBe(1);
    expect(create({ stage: [2] })[F.stage.field_id]).toBe(2);
    expect(create({ tags: ['Hot', 1, 'hot'] })[F.tags.field_id]).toEqual([3, 1]);
    const unknown = rejection(() => create({ tags: ['SMB', 'Large'] }));
    expect(unknown.parameter).toBe('fields.tags.1');
    expect(unknown.message).toContain('"Large" is not an option');
    expect(unknown.expected).toContain('1 "Enterprise", 2 "SMB", 3 "Hot"');
    expect(rejection(() => create({ source: [1, 2] })).message).toContain('holds one value');
    expect(rejection(() => create({ stage: [9] })).message).toContain('9 is not an option id');
    expect(rejection(() => create({ tags: [true] })).parameter).toBe('fields.tags.0');
  });

  it('single_date takes exactly "YYYY-MM-DD HH:MM:SS" and refuses the {start} object, on create and update', () => {
    expect(create({ due: '2025-03-01 00:00:00' })[F.due.field_id]).toBe('2025-03-01 00:00:00');
    expect(update({ due: '2025-03-01 14:30:00' })[F.due.field_id]).toBe('2025-03-01 14:30:00');
    for (const plan of [create, update]) {
      const obj = rejection(() => plan({ due: { start: '2025-03-01' } }));
      expect(obj.parameter).toBe('fields.due');
      expect(obj.message).toContain('plain string, not an object with "start"');
      expect(obj.message).toContain('"due": "2025-03-01 00:00:00"');
    }
    expect(rejection(() => create({ due: '2025-03-01' })).message).toContain('Write "2025-03-01 00:00:00"');
    expect(rejection(() => create({ due: '2025-02-30 00:00:00' })).parameter).toBe('fields.due');
    expect(rejection(() => create({ due: 20250301 })).expected).toContain('e.g. "2025-03-01 00:00:00"');
  });

  it('range_date takes {start, end} and sends Tape\'s "START - END"', () => {
    expect(create({ period: { start: '2025-03-01 00:00:00', end: '2025-03-07 00:00:00' } })[F.period.field_id]).toBe('2025-03-01 00:00:00 - 2025-03-07 00:00:00');
    expect(create({ period: { start: '2025-03-01 09:00:00' } })[F.period.field_id]).toBe('2025-03-01 09:00:00');
    expect(rejection(() => create({ period: { start: '2025-03-07 00:00:00', end: '2025-03-01 00:00:00' } })).parameter).toBe('fields.period.end');
    expect(rejection(() => create({ period: { end: '2025-03-01 00:00:00' } })).parameter).toBe('fields.period.start');
    expect(rejection(() => create({ period: { start: '2025-03-01', end: null } })).message).toContain('Write "2025-03-01 00:00:00"');
    expect(rejection(() => create({ period: { from: '2025-03-01 00:00:00' } })).parameter).toBe('fields.period.from');
    expect(rejection(() => create({ period: '2025-03-01 00:00:00' })).message).toContain('{"start": "2025-03-01 00:00:00", "end": …}');
  });

  it('relations and users take ids; single ones at most one', () => {
    expect(create({ lead: [5001], deals: [1, 2, 2], owner: [10000], team: [10000, 10001] })).toMatchObject({
      [F.lead.field_id]: 5001,
      [F.deals.field_id]: [1, 2],
      [F.owner.field_id]: 10000,
      [F.team.field_id]: [10000, 10001],
    });
    expect(rejection(() => create({ deals: [1, '2'] })).parameter).toBe('fields.deals.1');
    expect(rejection(() => create({ owner: [1, 2] })).message).toContain('holds one value');
    expect(rejection(() => create({ team: [{ user_id: 1 }] })).expected).toContain('listOrganizationUsers');
  });

  it('attachments take file ids or https URLs; URLs are planned for upload', () => {
    const plan = planFields(APP, { name: 'A', files: [123, 'https://example.com/a.pdf'], contract: 'temporary-file-1' }, 'create');
    expect(plan.body[F.files.field_id]).toEqual([123, 'https://example.com/a.pdf']);
    expect(plan.body[F.contract.field_id]).toBe('temporary-file-1');
    expect(plan.uploads).toEqual([
      { fieldId: F.files.field_id, values: [123, 'https://example.com/a.pdf'], path: 'fields.files', single: false },
      { fieldId: F.contract.field_id, values: ['temporary-file-1'], path: 'fields.contract', single: true },
    ]);
    expect(rejection(() => create({ photos: [{ url: 'x' }] })).parameter).toBe('fields.photos.0');
    expect(rejection(() => create({ contract: [1, 2] })).message).toContain('holds one value');
  });

  it('multi_email takes [{type, email}] with type work/home/other', () => {
    expect(create({ email: [{ type: 'home', email: 'ada@example.com' }, { email: ' bo@example.com ' }] })[F.email.field_id]).toEqual([
      { type: 'home', email: 'ada@example.com' },
      { type: 'work', email: 'bo@example.com' },
    ]);
    expect(rejection(() => create({ email: ['ada@example.com'] })).message).toContain('{"type": "work", "email": "ada@example.com"}');
    expect(rejection(() => create({ email: [{ type: 'mobile', email: 'a@b.co' }] })).parameter).toBe('fields.email.0.type');
    expect(rejection(() => create({ email: [{ type: 'work', email: 'nope' }] })).parameter).toBe('fields.email.0.email');
    expect(rejection(() => create({ email: [{ type: 'work', value: 'a@b.co' }] })).message).toContain('Use "email"');
    expect(rejection(() => create({ email: 'a@b.co' })).parameter).toBe('fields.email');
  });

  it('multi_phone takes [{type, phone}] with type work/mobile/home/other', () => {
    expect(create({ phone: [{ type: 'mobile', phone: '+49 89 123 4567' }] })[F.phone.field_id]).toEqual([{ type: 'mobile', phone: '+49 89 123 4567' }]);
    expect(rejection(() => create({ phone: [{ type: 'fax', phone: '1234' }] })).parameter).toBe('fields.phone.0.type');
    expect(rejection(() => create({ phone: [{ type: 'work', phone: 'call me' }] })).parameter).toBe('fields.phone.0.phone');
    expect(rejection(() => create({ phone: [{ type: 'work', number: '1234' }] })).message).toContain('Use "phone"');
  });

  it('multi_link takes [{url, title}]', () => {
    expect(create({ website: [{ url: 'https://example.com', title: 'Home' }, { url: 'http://b.example' }] })[F.website.field_id]).toEqual([
      { url: 'https://example.com', title: 'Home' },
      { url: 'http://b.example' },
    ]);
    expect(rejection(() => create({ website: ['https://example.com'] })).message).toContain('{"url": "https://example.com"}');
    expect(rejection(() => create({ website: [{ url: 'ftp://example.com' }] })).parameter).toBe('fields.website.0.url');
    expect(rejection(() => create({ website: [{ url: 'https://a.example', label: 'x' }] })).parameter).toBe('fields.website.0.label');
  });

  it('single_location takes an address string', () => {
    expect(create({ address: ' Hessstr. 6, 80799 Munich ' })[F.address.field_id]).toBe('Hessstr. 6, 80799 Munich');
    expect(rejection(() => create({ address: { city: 'Munich' } })).message).toContain('as one string');
  });
});

describe('planFields — checklist', () => {
  it('converts items to Tape entries (due → due_at)', () => {
    expect(
      create({ tasks: [{ title: ' Send deck ', completed: false, description: 'PDF', due: '2025-03-01', assignee: 10000 }, { title: 'Call', due: '2025-03-02 15:00', assignee: { user_id: 10001 } }] })[F.tasks.field_id],
    ).toEqual([
      { title: 'Send deck', completed: false, description: 'PDF', due_at: '2025-03-01', assignee: 10000 },
      { title: 'Call', due_at: '2025-03-02 15:00', assignee: 10001 },
    ]);
  });

  it('points to the right key for text, checked and due_at', () => {
    const text = rejection(() => create({ tasks: [{ title: 'ok' }, { text: 'Call' }] }));
    expect(text.parameter).toBe('fields.tasks.1.text');
    expect(text.message).toContain('use "title", not "text"');
    expect(rejection(() => create({ tasks: [{ title: 'A', checked: true }] })).message).toContain('use "completed", not "checked"');
    expect(rejection(() => create({ tasks: [{ title: 'A', due_at: '2025-03-01' }] })).message).toContain('use "due", not "due_at"');
    expect(rejection(() => create({ tasks: [{ title: 'A', colour: 'red' }] })).message).toContain('unknown key "colour"');
  });

  it('refuses items without title, bad due dates, bad assignees, strings, and ids on create', () => {
    expect(rejection(() => create({ tasks: [{ title: 'A' }, { title: 'B' }, { completed: true }] })).parameter).toBe('fields.tasks.2.title');
    expect(rejection(() => create({ tasks: [{ title: 'A', due: '2025-03-01 15:00:00' }] })).message).toContain('write "2025-03-01 15:00"');
    expect(rejection(() => create({ tasks: [{ title: 'A', due: 'tomorrow' }] })).parameter).toBe('fields.tasks.0.due');
    expect(rejection(() => create({ tasks: [{ title: 'A', assignee: 'Ada' }] })).parameter).toBe('fields.tasks.0.assignee');
    expect(rejection(() => create({ tasks: [{ title: 'A', completed: 'yes' }] })).parameter).toBe('fields.tasks.0.completed');
    expect(rejection(() => create({ tasks: ['Call'] })).message).toContain('{"title": "Call"}');
    expect(rejection(() => create({ tasks: [{ id: 300, title: 'A' }] })).message).toContain('drop "id"');
  });

  it('on update keeps items by id (completing them from the record), adds new ones, drops the rest', () => {
    const plan = planFields(APP, { tasks: [{ id: 300, completed: true }, { title: 'New step' }] }, 'update');
    const current: TapeRecord = {
      record_id: 7,
      title: 'Ada',
      created_on: '2025-01-01 00:00:00',
      fields: [
        {
          field_id: F.tasks.field_id,
          external_id: 'tasks',
          label: 'Tasks',
          type: 'checklist',
          field_type: 'checklist',
          values: [
            { id: 300, title: 'Send deck', description: 'PDF', due_at: '2025-03-01', completed: false, completed_at: null, assignee: { user_id: 10000, name: 'John Doe' } },
            { id: 301, title: 'Old step', description: '', due_at: null, completed: false, completed_at: null, assignee: null },
          ],
        },
      ],
    };
    mergeChecklists(plan, current);
    expect(plan.body[F.tasks.field_id]).toEqual([
      { id: 300, title: 'Send deck', description: 'PDF', due_at: '2025-03-01', completed: true, assignee: 10000 },
      { title: 'New step' },
    ]);
    const wrong = planFields(APP, { tasks: [{ id: 999, title: 'X' }] }, 'update');
    const r = rejection(() => mergeChecklists(wrong, current));
    expect(r.parameter).toBe('fields.tasks.0.id');
    expect(r.message).toContain('its items: 300, 301');
    expect(rejection(() => planFields(APP, { tasks: [{ id: 300 }, { id: 300 }] }, 'update')).parameter).toBe('fields.tasks.1.id');
  });
});

// --- output ---

const WIRE: TapeRecord = {
  record_id: 7,
  app_record_id: 3,
  title: 'Ada Lovelace',
  created_on: '2025-01-06 09:37:00',
  created_by: { user_id: 10000, name: 'John Doe', mail: ['john@doe.com'], image: null, org_id: 1337, type: 'user' },
  app: { app_id: 4711, icon: 'x', name: 'Everything', record_name: 'Thing', workspace_id: 1 },
  fields: [
    { field_id: F.name.field_id, external_id: 'name', label: 'Name', type: 'text', field_type: 'single_text', values: [{ value: 'Ada Lovelace' }] },
    { field_id: F.notes.field_id, external_id: 'notes', label: 'Notes', type: 'text', field_type: 'multi_text', values: [{ value: '<p>Met at <b>the fair</b> &amp; more</p>' }] },
    { field_id: F.amount.field_id, external_id: 'amount', label: 'Amount', type: 'number', field_type: 'number', values: [{ value: 1250.5 }] },
    { field_id: F.tags.field_id, external_id: 'tags', label: 'Tags', type: 'category', field_type: 'multi_category', values: [{ value: { id: 1, text: 'Enterprise', color: 'DF245E' } }, { value: { id: 3, text: 'Hot', color: 'DC0080' } }] },
    { field_id: F.due.field_id, external_id: 'due', label: 'Due', type: 'date', field_type: 'single_date', values: [{ start: '2022-03-01 00:00:00', start_date: '2022-03-01', start_time: null, start_utc: '2022-03-01 00:00:00' }] },
    { field_id: F.period.field_id, external_id: 'period', label: 'Period', type: 'date', field_type: 'range_date', values: [{ start: '2022-03-07 09:30:00', start_date: '2022-03-07', end: '2022-03-14 00:00:00', end_date: '2022-03-14' }] },
    { field_id: F.lead.field_id, external_id: 'lead', label: 'Lead', type: 'relation', field_type: 'single_relation', values: [{ value: { record_id: 100, app_id: 7, title: 'Tape Technologies GmbH' } }] },
    { field_id: F.team.field_id, external_id: 'team', label: 'Team', type: 'user', field_type: 'multi_user', values: [{ value: { user_id: 4, mail: ['dan@tapeapp.com'], image: null, name: 'Dan Jacob', org_id: 1, type: 'user' } }] },
    { field_id: F.email.field_id, external_id: 'email', label: 'Email', type: 'email', field_type: 'multi_email', values: [{ id: 100, value: 'johndoe@samplebusiness.com', type: 'work' }, { id: 101, value: 'john@doe.com', type: 'home' }] },
    { field_id: F.phone.field_id, external_id: 'phone', label: 'Phone', type: 'phone', field_type: 'multi_phone', values: [{ id: 102, value: '+1 444 555', type: 'mobile' }] },
    { field_id: F.website.field_id, external_id: 'website', label: 'Website', type: 'link', field_type: 'multi_link', values: [{ embed_id: 100, url: 'https://somecustomerwebsite.com', title: 'Some awesome customer website', description: 'Welcome', type: 'link' }, { embed_id: 101, url: 'https://b.example' }] },
    { field_id: F.address.field_id, external_id: 'address', label: 'Address', type: 'location', field_type: 'single_location', values: [{ value: 'Hessstr. 6, 80799 Munich, Germany', city: 'Munich', original_formatted_address: 'Hessstr. 6, 80799 Munich, Germany' }] },
    { field_id: F.files.field_id, external_id: 'files', label: 'Files', type: 'attachment', field_type: 'multi_attachment', values: [{ value: { id: 101, filename: 'hr-1.pdf', size: 15000 } }] },
    { field_id: F.tasks.field_id, external_id: 'tasks', label: 'Tasks', type: 'checklist', field_type: 'checklist', values: [{ id: 300, title: 'Clean the kitchen', description: 'Sink too.', due_at: '2022-03-15', completed: false, completed_at: null, assignee: { user_id: 600, name: 'Dan Jacob' } }, { id: 301, title: 'Tidy up', description: '', due_at: null, completed: true, completed_at: '2022-03-15 14:55', assignee: null }] },
    { field_id: F.total.field_id, external_id: 'total', label: 'Total', type: 'calculation', field_type: 'calculation', values: [{ value: 12 }] },
    { field_id: F.created.field_id, external_id: 'created', label: 'Created', type: 'date', field_type: 'created_on', values: [{ start: '2025-01-06 09:37:00', start_date: '2025-01-06', start_time: '09:37:00' }] },
    { field_id: 999, external_id: 'rating', label: 'Rating', type: 'rating', field_type: 'rating', values: [{ value: 4 }] },
  ],
};
const URL = 'https://tapeapp.com/tape';
const byId = (r: AppRecord, ext: string) => r.fields.find((f) => f.external_id === ext)!;

describe('toRecord — the docs/spec.md#dbapp-record record', () => {
  const r = toRecord(WIRE, URL);

  it('has the record keys, the link and created_by as {user_id, name}', () => {
    expect({ ...r, fields: undefined }).toEqual({
      record_id: 7,
      app_record_id: 3,
      app_id: 4711,
      title: 'Ada Lovelace',
      record_url: 'https://tapeapp.com/tape/record/7',
      created_by: { user_id: 10000, name: 'John Doe' },
      created_on: '2025-01-06 09:37:00',
      fields: undefined,
    });
    expect(byId(r, 'name')).toEqual({ field_id: F.name.field_id, external_id: 'name', label: 'Name', type: 'single_text', value: 'Ada Lovelace' });
  });

  it('shapes every value by type', () => {
    const v = (ext: string) => byId(r, ext).value;
    expect(v('notes')).toBe('<p>Met at <b>the fair</b> &amp; more</p>');
    expect(v('amount')).toBe(1250.5);
    expect(v('tags')).toEqual([{ id: 1, text: 'Enterprise' }, { id: 3, text: 'Hot' }]);
    expect(v('due')).toEqual({ start: '2022-03-01 00:00:00', end: null });
    expect(v('period')).toEqual({ start: '2022-03-07 09:30:00', end: '2022-03-14 00:00:00' });
    expect(v('lead')).toEqual([{ record_id: 100, app_id: 7, title: 'Tape Technologies GmbH' }]);
    expect(v('team')).toEqual([{ user_id: 4, name: 'Dan Jacob' }]);
    expect(v('email')).toEqual([{ type: 'work', value: 'johndoe@samplebusiness.com' }, { type: 'home', value: 'john@doe.com' }]);
    expect(v('phone')).toEqual([{ type: 'mobile', value: '+1 444 555' }]);
    expect(v('website')).toEqual([{ url: 'https://somecustomerwebsite.com', title: 'Some awesome customer website' }, { url: 'https://b.example' }]);
    expect(v('address')).toBe('Hessstr. 6, 80799 Munich, Germany');
    expect(v('files')).toEqual([{ file_id: 101, name: 'hr-1.pdf', size: 15000, download_url: null }]);
    expect(v('tasks')).toEqual([
      { id: 300, title: 'Clean the kitchen', completed: false, assignee: { user_id: 600, name: 'Dan Jacob' }, description: 'Sink too.', due: '2022-03-15' },
      { id: 301, title: 'Tidy up', completed: true, assignee: null, description: null, due: null },
    ]);
    expect(v('total')).toBe(12);
    expect(v('created')).toEqual({ start: '2025-01-06 09:37:00', end: null });
    expect(v('rating')).toEqual([4]);
    expect(fieldValue('single_text', [])).toBeUndefined();
    expect(fieldValue('status', [{ value: { id: 2, text: 'Done', color: '007959', means_completed: true } }])).toEqual([{ id: 2, text: 'Done' }]);
    expect(fieldValue('multi_image', [{ value: { id: 5, filename: 'a.png', size: 9 } }])).toEqual([{ file_id: 5, name: 'a.png', size: 9, download_url: null }]);
  });

  it('selects fields by id and by kind', () => {
    expect(toRecord(WIRE, URL, { select: { types: 'calculation' } }).fields.map((f) => f.external_id)).toEqual(['total']);
    expect(toRecord(WIRE, URL, { select: { types: 'basic' } }).fields.map((f) => f.external_id)).not.toContain('total');
    const ids = resolveFieldIds(APP, ['tags', F.amount.field_id, String(F.due.field_id)]);
    expect(toRecord(WIRE, URL, { select: { ids } }).fields.map((f) => f.external_id)).toEqual(['amount', 'tags', 'due']);
    const r2 = rejection(() => resolveFieldIds(APP, ['tags', 'tagz']));
    expect(r2.parameter).toBe('field_ids.1');
    expect(r2.message).toContain('tags (');
  });

  it('takes app_id from the call when Tape\'s answer has no app, and leaves out empty fields', () => {
    const bare = toRecord({ record_id: 1, title: 'A', created_on: '2022-03-01 12:00:00', fields: [{ field_id: 1, external_id: 'x', label: 'X', type: 'text', field_type: 'single_text', values: [] }] }, URL, { appId: 12 });
    expect(bare).toEqual({ record_id: 1, app_id: 12, title: 'A', record_url: 'https://tapeapp.com/tape/record/1', created_on: '2022-03-01 12:00:00', fields: [] });
  });
});

describe('record text', () => {
  const r = toRecord(WIRE, URL);

  it('renders each value short', () => {
    const t = (ext: string, o = {}) => valueText(byId(r, ext), o);
    expect(t('notes')).toBe('Met at the fair & more');
    expect(t('tags')).toBe('Enterprise, Hot');
    expect(t('due')).toBe('2022-03-01');
    expect(t('period')).toBe('2022-03-07 09:30 → 2022-03-14');
    expect(t('lead')).toBe('Tape Technologies GmbH #100');
    expect(t('team')).toBe('Dan Jacob');
    expect(t('team', { verbose: true })).toBe('Dan Jacob #4');
    expect(t('email')).toBe('johndoe@samplebusiness.com, john@doe.com (home)');
    expect(t('phone')).toBe('+1 444 555 (mobile)');
    expect(t('website')).toBe('https://somecustomerwebsite.com, https://b.example');
    expect(t('files')).toBe('hr-1.pdf');
    expect(t('files', { verbose: true })).toBe('hr-1.pdf #101 (14.6 KB)');
    expect(t('tasks')).toBe('[ ] #300 Clean the kitchen (due 2022-03-15, Dan Jacob, "Sink too."); [x] #301 Tidy up');
    expect(t('tasks', { list: true })).toBe('[ ] Clean the kitchen (due 2022-03-15, Dan Jacob, "Sink too."); [x] Tidy up');
    expect(t('rating')).toBe('[4]');
  });

  it('a list line: id and title first, the title field not repeated, no empty fields', () => {
    const line = recordLine(r);
    expect(line.startsWith('#7 Ada Lovelace · Notes: Met at the fair & more · Amount: 1250.5 · Tags: Enterprise, Hot · Due: 2022-03-01')).toBe(true);
    expect(line).not.toContain('Name:');
    expect(line).not.toContain('\n');
    const verbose = recordLine(r, { verbose: true });
    expect(verbose).toContain(`Name [#${F.name.field_id} name single_text]: Ada Lovelace`);
    expect(verbose).toContain('https://tapeapp.com/tape/record/7');
  });

  it('cuts only very long texts in lists', () => {
    const long = { ...r, fields: [{ field_id: 1, external_id: 'n', label: 'N', type: 'multi_text', value: 'x'.repeat(600) }] };
    expect(recordLine(long)).toContain(`${'x'.repeat(500)}… (600 chars, getRecord shows all)`);
    expect(recordText(long)).toContain('x'.repeat(600));
  });

  it('one record: a head line, then every field as Label: value', () => {
    const [head, fields, ...rest] = recordText(r).split('\n');
    expect(head).toBe('#7 Ada Lovelace (app #4711, no. 3 · created 2025-01-06 09:37 by John Doe) https://tapeapp.com/tape/record/7');
    expect(fields!.startsWith('Name: Ada Lovelace · Notes: Met at the fair & more · Amount: 1250.5 · ')).toBe(true);
    expect(fields).toContain('Tasks: [ ] #300 Clean the kitchen');
    expect(rest).toEqual([]);
    expect(recordText(r)).not.toMatch(/undefined|null/);
    expect(recordText({ ...r, fields: [] }).split('\n')[1]).toBe('(no field values)');
  });

  it('a list ends with the count and how to get more', () => {
    expect(recordListText({ records: [r], total: 180, cursor: 'abc' })).toMatch(/\nshowing 1 of 180 — pass cursor "abc" for the next page · open one at https:\/\/tapeapp.com\/tape\/record\/<record_id>$/);
    expect(recordListText({ records: [r], total: 1, cursor: null })).toMatch(/\n1 record · open one at/);
    expect(recordListText({ records: [], total: 0, cursor: null })).toBe('no records');
    expect(recordListText({ records: [], total: 0, cursor: null }, {}, 'related record')).toBe('no related records');
  });

  it('helpers', () => {
    expect(shortDate('2025-03-01 00:00:00')).toBe('2025-03-01');
    expect(shortDate('2025-03-01 14:30:00')).toBe('2025-03-01 14:30');
    expect(shortDate('2025-03-01 14:30:15')).toBe('2025-03-01 14:30:15');
    expect(plainText('<p>a<br>b</p><p>c&nbsp;d</p>')).toBe('a b c d');
  });
});

describe("Tape's field table", () => {
  it('gives every writable type an expected shape with an example, and every read-only type no input', () => {
    const readOnly = ['calculation', 'unique_id', 'created_on'];
    for (const f of Object.values(F)) {
      if (readOnly.includes(f.field_type)) expect(TAPE_FIELDS.types[f.field_type]!.input).toBeUndefined();
      else expect(expectedShape(f)).toMatch(/e\.g\. /);
    }
  });
});
