import { describe, expect, it } from 'vitest';
import { ToolError } from '../../shared/core/errors';
import {
  fieldText,
  finishItemFields,
  itemFieldPairs,
  itemFieldValues,
  needsFinish,
  planItemFieldValue,
  planItemFields,
  planItemFilters,
  resolveItemFieldIds,
  type FieldPort,
  type OrgMember,
  type PodioApp,
  type PodioAppField,
  type PodioItemField,
} from '../../functions/collab/fields';

// A realistic Podio app (docs/vendors/podio.md#field-types, #apps-spaces-orgs-and-contacts): one field of every type, settings as GET /app returns them.
let nextId = 40001;
function field(external_id: string, type: string, settings: Record<string, unknown> = {}, required = false, status = 'active'): PodioAppField {
  const label = external_id.replace(/-/g, ' ').replace(/^./, (c) => c.toUpperCase());
  return { field_id: nextId++, external_id, type, label, status, config: { label, required, delta: nextId, settings } };
}
const F = {
  title: field('title', 'text', { size: 'small', format: 'plain' }, true),
  description: field('description', 'text', { size: 'large', format: 'html' }),
  hours: field('hours', 'number', { decimals: 2 }),
  budget: field('budget', 'money', { allowed_currencies: ['EUR', 'USD'] }),
  progress: field('progress', 'progress'),
  estimate: field('estimate', 'duration', { fields: ['hours', 'minutes'] }),
  due: field('due', 'date', { calendar: true, end: 'enabled', time: 'enabled' }),
  day: field('day', 'date', { calendar: false, end: 'disabled', time: 'disabled' }),
  status: field('status', 'category', {
    multiple: false,
    options: [
      { id: 1, text: 'Open', status: 'active', color: 'DCEBD8' },
      { id: 2, text: 'In progress', status: 'active', color: 'FFD5C2' },
      { id: 3, text: 'Done', status: 'active', color: 'E1D8ED' },
      { id: 4, text: 'Archived', status: 'deleted', color: 'CCCCCC' },
    ],
  }),
  tags: field('tags', 'category', { multiple: true, options: [{ id: 11, text: 'Bug', status: 'active' }, { id: 12, text: 'Feature', status: 'active' }, { id: 13, text: 'UX', status: 'active' }] }),
  project: field('project', 'app', { referenced_apps: [{ app_id: 2002, view_id: null }], multiple: false }),
  related: field('related', 'app', { referenced_apps: [{ app_id: 2001 }], multiple: true }),
  owner: field('owner', 'contact', { type: 'space_users', valid_types: ['user'] }),
  phone: field('phone', 'tel', { possible_types: ['mobile', 'work'] }),
  email: field('email', 'email', {}),
  logo: field('logo', 'image', {}),
  link: field('link', 'embed', {}),
  address: field('address', 'location', {}),
  total: field('total', 'calculation', { return_type: 'number', decimals: 2 }),
  deadline: field('deadline', 'calculation', { return_type: 'date' }),
  old: field('old', 'text', {}, false, 'deleted'),
};
const APP: PodioApp = { app_id: 2001, space_id: 301, status: 'active', config: { name: 'Tasks', item_name: 'Task' }, fields: Object.values(F) };
const id = (f: PodioAppField) => String(f.field_id);

/** A create with the required title plus `fields`: Podio's body. */
const create = (fields: Record<string, unknown>) => planItemFields(APP, { title: 'Fix login', ...fields }, 'create').body;
const update = (fields: Record<string, unknown>) => planItemFields(APP, fields, 'update').body;

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
async function rejectionOf(p: Promise<unknown>): Promise<{ parameter: string; message: string }> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(ToolError);
  expect((err as ToolError).code).toBe('INVALID_PARAMETER');
  return { parameter: String((err as ToolError).details.parameter), message: (err as ToolError).message };
}

// Org members whose user ids differ from their profile ids (as on Podio).
const MEMBERS: OrgMember[] = [
  { user_id: 101, profile_id: 5001, name: 'Ada Lovelace', email: 'ada@example.com' },
  { user_id: 102, profile_id: 5002, name: 'Grace Hopper', email: 'Grace@Example.com' },
];
/** A port that records what it was asked. */
function port() {
  const calls: string[] = [];
  let nextFile = 900;
  let nextEmbed = 700;
  const p: FieldPort = {
    members: async () => (calls.push('members'), MEMBERS),
    embed: async (url) => (calls.push(`embed ${url}`), nextEmbed++),
    upload: async (url) => (calls.push(`upload ${url}`), nextFile++),
    attachedTo: async (id) => (calls.push(`file ${id}`), null),
  };
  return { port: p, calls };
}

describe('planItemFields — keys and modes', () => {
  it('takes numeric field_ids and external_ids and sends field_ids', () => {
    expect(planItemFields(APP, { [id(F.title)]: 'A', hours: 2 }, 'create').body).toEqual({ [id(F.title)]: 'A', [id(F.hours)]: 2 });
  });

  it('refuses an unknown key, listing the app fields', () => {
    const r = rejection(() => create({ titel: 'x' }));
    expect(r.parameter).toBe('fields.titel');
    expect(r.message).toContain(`title (${F.title.field_id})`);
    expect(r.message).toContain(`address (${F.address.field_id})`);
  });

  it('treats a deleted field as unknown', () => {
    expect(rejection(() => create({ old: 'x' })).parameter).toBe('fields.old');
    expect(rejection(() => create({ nope: 1 })).message).not.toContain('old (');
  });

  it('refuses the read-only calculation', () => {
    const r = rejection(() => create({ total: 5 }));
    expect(r.parameter).toBe('fields.total');
    expect(r.message).toContain('Podio computes its value');
  });

  it('requires the required fields on create only, and never clears them', () => {
    expect(rejection(() => planItemFields(APP, { hours: 1 }, 'create')).parameter).toBe('fields.title');
    expect(update({ hours: 1 })).toEqual({ [id(F.hours)]: 1 });
    expect(rejection(() => update({ title: null })).message).toContain('required');
  });

  it('clears with null or [] on update (Podio: an empty array) and leaves them out on create', () => {
    expect(update({ hours: null, tags: [] })).toEqual({ [id(F.hours)]: [], [id(F.tags)]: [] });
    expect(create({ hours: null })).toEqual({ [id(F.title)]: 'Fix login' });
  });

  it('names the path it was given (batches) and lists what is written in app order', () => {
    expect(rejection(() => planItemFields(APP, { title: 'x', hours: 'x' }, 'create', 'items.3.fields')).parameter).toBe('items.3.fields.hours');
    expect(planItemFields(APP, { tags: [11], title: 'A' }, 'update').written.map((w) => w.label)).toEqual(['Title', 'Tags']);
  });

  it('single-field mode names field_id and field_value', () => {
    const { fieldId, plan } = planItemFieldValue(APP, 'progress', 40);
    expect(fieldId).toBe(F.progress.field_id);
    expect(plan.body[id(F.progress)]).toBe(40);
    expect(rejection(() => planItemFieldValue(APP, 'nope', 1)).parameter).toBe('field_id');
    expect(rejection(() => planItemFieldValue(APP, 'progress', 140)).parameter).toBe('field_value');
    expect(rejection(() => planItemFieldValue(APP, 'budget', { value: '1', currency: 'GBP' })).parameter).toBe('field_value.currency');
  });
});

describe('planItemFields — values by type', () => {
  it('text takes a string', () => {
    expect(create({ description: '<p>Hi</p>' })[id(F.description)]).toBe('<p>Hi</p>');
    const r = rejection(() => create({ description: 42 }));
    expect(r.expected).toContain('a string');
    expect(r.message).toContain('Send it as a string: "42"');
  });

  it('number takes a number; a numeric string is refused with the fix', () => {
    expect(create({ hours: 12.5 })[id(F.hours)]).toBe(12.5);
    expect(rejection(() => create({ hours: '12.5' })).message).toContain('Send it as a number: 12.5');
  });

  it('progress is a whole number 0-100', () => {
    expect(create({ progress: 75 })[id(F.progress)]).toBe(75);
    for (const bad of [101, -1, 50.5, '75']) expect(rejection(() => create({ progress: bad })).expected).toContain('0 to 100');
  });

  it('duration is whole seconds, not negative', () => {
    expect(create({ estimate: 5400 })[id(F.estimate)]).toBe(5400);
    expect(rejection(() => create({ estimate: -60 })).message).toContain('whole number of seconds');
    expect(rejection(() => create({ estimate: 1.5 })).expected).toContain('e.g. 5400');
  });

  describe('date', () => {
    it('takes {start, end} with times, sent as start_date/start_time (+ end)', () => {
      expect(create({ due: { start: '2024-05-01 09:00:00', end: '2024-05-02 17:30:00' } })[id(F.due)]).toEqual({
        start_date: '2024-05-01',
        start_time: '09:00:00',
        end_date: '2024-05-02',
        end_time: '17:30:00',
      });
    });

    it('refuses a bare date string, showing {start: "YYYY-MM-DD HH:MM:SS"}', () => {
      const r = rejection(() => create({ due: '2024-05-01' }));
      expect(r.parameter).toBe('fields.due');
      expect(r.expected).toContain('{"start": "YYYY-MM-DD HH:MM:SS"');
      expect(r.message).toContain('write {"start": "2024-05-01 00:00:00"}');
      expect(rejection(() => create({ due: '2024-05-01 09:00:00' })).message).toContain('{"start": "2024-05-01 09:00:00"}');
    });

    it('refuses a date without time, saying to use 00:00:00', () => {
      const r = rejection(() => create({ due: { start: '2024-05-01' } }));
      expect(r.parameter).toBe('fields.due.start');
      expect(r.message).toContain('the time is required: write "2024-05-01 00:00:00"');
      expect(r.expected).toContain('use 00:00:00');
    });

    it('refuses impossible dates, unknown keys and an end before the start', () => {
      expect(rejection(() => create({ due: { start: '2024-02-30 00:00:00' } })).parameter).toBe('fields.due.start');
      expect(rejection(() => create({ due: { start: '2024-05-01 00:00:00', until: 'x' } })).parameter).toBe('fields.due.until');
      expect(rejection(() => create({ due: { start: '2024-05-02 00:00:00', end: '2024-05-01 00:00:00' } })).parameter).toBe('fields.due.end');
    });

    it('a field without time keeps the day only; its end and non-midnight times are refused', () => {
      expect(create({ day: { start: '2024-05-01 00:00:00' } })[id(F.day)]).toEqual({ start_date: '2024-05-01' });
      expect(rejection(() => create({ day: { start: '2024-05-01 10:00:00' } })).message).toContain('without a time');
      expect(rejection(() => create({ day: { start: '2024-05-01 00:00:00', end: '2024-05-02 00:00:00' } })).parameter).toBe('fields.day.end');
    });
  });

  describe('money', () => {
    it('takes {value: decimal string, currency} of the allowed currencies', () => {
      expect(create({ budget: { value: '1250.50', currency: 'eur' } })[id(F.budget)]).toEqual({ value: '1250.50', currency: 'EUR' });
    });

    it('refuses another currency, listing the allowed ones', () => {
      const r = rejection(() => create({ budget: { value: '10', currency: 'GBP' } }));
      expect(r.parameter).toBe('fields.budget.currency');
      expect(r.message).toContain('EUR, USD');
    });

    it('says to pass a decimal string when the amount is a number', () => {
      const r = rejection(() => create({ budget: { value: 12.5, currency: 'EUR' } }));
      expect(r.parameter).toBe('fields.budget.value');
      expect(r.message).toContain('decimal string');
      expect(r.message).toContain('"value": "12.5"');
    });

    it('refuses a bare number with the object form, and a missing currency', () => {
      expect(rejection(() => create({ budget: 12 })).message).toContain('{"value": "12", "currency": "EUR"}');
      expect(rejection(() => create({ budget: { value: '12' } })).parameter).toBe('fields.budget.currency');
      expect(rejection(() => create({ budget: { value: '12', currency: 'EUR', cents: 1 } })).parameter).toBe('fields.budget.cents');
    });
  });

  describe('category', () => {
    it('takes an id, a text (any case) or arrays of them, sent as option ids', () => {
      expect(create({ status: 2 })[id(F.status)]).toEqual([2]);
      expect(create({ status: 'in PROGRESS' })[id(F.status)]).toEqual([2]);
      expect(create({ tags: ['bug', 12, 'Bug'] })[id(F.tags)]).toEqual([11, 12]);
    });

    it('lists the options with their ids for an unknown text or id', () => {
      const r = rejection(() => create({ tags: ['Bug', 'Chore'] }));
      expect(r.parameter).toBe('fields.tags.1');
      expect(r.message).toContain('11 "Bug", 12 "Feature", 13 "UX"');
      expect(rejection(() => create({ status: 9 })).message).toContain('1 "Open"');
    });

    it('takes several only when settings.multiple, and no deleted option', () => {
      expect(rejection(() => create({ status: [1, 2] })).message).toContain('holds one value');
      expect(rejection(() => create({ status: 'Archived' })).message).not.toContain('4 "Archived"');
    });
  });

  it('app relation takes item ids (one where the field is single), naming the referenced app', () => {
    expect(create({ related: [9001, 9002] })[id(F.related)]).toEqual([9001, 9002]);
    expect(create({ project: 9001 })[id(F.project)]).toEqual([9001]);
    const r = rejection(() => create({ project: [1, 2] }));
    expect(r.expected).toContain('app 2002');
    expect(rejection(() => create({ related: ['9001'] })).message).toContain('Send it as a number: 9001');
  });

  it('tel and email take [{type, value}] with the field types', () => {
    expect(create({ phone: [{ type: 'mobile', value: '+1 555 0100' }] })[id(F.phone)]).toEqual([{ type: 'mobile', value: '+1 555 0100' }]);
    expect(create({ email: [{ value: 'ada@example.com' }] })[id(F.email)]).toEqual([{ type: 'work', value: 'ada@example.com' }]);
    const t = rejection(() => create({ phone: [{ type: 'home', value: '+1 555 0100' }] }));
    expect(t.parameter).toBe('fields.phone.0.type');
    expect(t.message).toContain('mobile, work');
    expect(rejection(() => create({ email: [{ type: 'other', value: 'not-an-email' }] })).parameter).toBe('fields.email.0.value');
    expect(rejection(() => create({ email: 'ada@example.com' })).message).toContain('[{"type": "work", "value": "ada@example.com"}]');
    expect(rejection(() => create({ phone: [{ type: 'work', phone: '1' }] })).message).toContain('put the phone number in "value"');
  });

  it('location takes an address string, sent as the string', () => {
    expect(create({ address: ' 1 Main St, Springfield ' })[id(F.address)]).toBe('1 Main St, Springfield');
    expect(rejection(() => create({ address: { city: 'Springfield' } })).message).toContain('one string');
  });

  it('image takes file ids and https URLs, refusing http', () => {
    expect(create({ logo: 77 })[id(F.logo)]).toEqual([77]);
    expect(rejection(() => create({ logo: ['http://example.com/a.png'] })).message).toContain('only https');
    expect(rejection(() => create({ logo: [{}] })).parameter).toBe('fields.logo.0');
  });

  it('embed takes link URLs', () => {
    expect(rejection(() => create({ link: 'not a url' })).expected).toContain('link URL');
  });

  it('contact refuses what is neither a profile id nor {user_id}/{email}', () => {
    expect(rejection(() => create({ owner: 'ada@example.com' })).message).toContain('{"email": "ada@example.com"}');
    expect(rejection(() => create({ owner: [{ user_id: 101, email: 'x@y.z' }] })).parameter).toBe('fields.owner.0');
    expect(rejection(() => create({ owner: [{ email: 'nope' }] })).parameter).toBe('fields.owner.0.email');
  });
});

describe('finishItemFields — the network steps through the port', () => {
  it('needs no port call for plain values', async () => {
    const plan = planItemFields(APP, { title: 'A', hours: 1 }, 'create');
    expect(needsFinish(plan)).toBe(false);
    const { port: p, calls } = port();
    expect(await finishItemFields(plan, p)).toEqual({ [id(F.title)]: 'A', [id(F.hours)]: 1 });
    expect(calls).toEqual([]);
  });

  it('resolves {user_id} and {email} (any case) to profile ids and keeps profile ids', async () => {
    const plan = planItemFields(APP, { owner: [5001, { user_id: 102 }, { email: 'grace@example.COM' }] }, 'update');
    expect(needsFinish(plan)).toBe(true);
    const body = await finishItemFields(plan, port().port);
    expect(body[id(F.owner)]).toEqual([5001, 5002]);
  });

  it('refuses a user id given as a profile id, naming both', async () => {
    const r = await rejectionOf(finishItemFields(planItemFields(APP, { owner: [5002, 101] }, 'update'), port().port));
    expect(r.parameter).toBe('fields.owner.1');
    expect(r.message).toContain('contact fields take profile_id; getOrganizationMembers lists both');
    expect(r.message).toContain('Use 5001');
  });

  it('refuses an unknown user or email; passes a profile id outside the org to Podio', async () => {
    expect((await rejectionOf(finishItemFields(planItemFields(APP, { owner: { user_id: 999 } }, 'update'), port().port))).parameter).toBe('fields.owner.user_id');
    expect((await rejectionOf(finishItemFields(planItemFields(APP, { owner: [{ email: 'x@example.com' }] }, 'update'), port().port))).parameter).toBe('fields.owner.0.email');
    expect((await finishItemFields(planItemFields(APP, { owner: 8888 }, 'update'), port().port))[id(F.owner)]).toEqual([8888]);
  });

  it('turns embed URLs into {embed: embed_id}, each URL once', async () => {
    const { port: p, calls } = port();
    const body = await finishItemFields(planItemFields(APP, { link: ['https://example.com/a', 'https://example.com/a', 55] }, 'update'), p);
    expect(body[id(F.link)]).toEqual([{ embed: 700 }, { embed: 700 }, { embed: 55 }]);
    expect(calls).toEqual(['embed https://example.com/a']);
  });

  it('uploads image URLs and keeps file ids in order', async () => {
    const { port: p, calls } = port();
    const body = await finishItemFields(planItemFields(APP, { logo: [77, 'https://example.com/logo.png'] }, 'update'), p);
    expect(body[id(F.logo)]).toEqual([77, 900]);
    // The file id is checked (attached to one object only), the URL uploaded.
    expect(calls).toEqual(['file 77', 'upload https://example.com/logo.png']);
  });

  it('checks contacts before making any embed or upload', async () => {
    const { port: p, calls } = port();
    await rejectionOf(finishItemFields(planItemFields(APP, { link: 'https://example.com', logo: 'https://example.com/l.png', owner: 101 }, 'update'), p));
    expect(calls).toEqual(['members']);
  });
});

// An item as GET /item/{id} returns it (docs/vendors/podio.md#field-types, #items): every type, one field empty.
const wire = (f: PodioAppField, values: Record<string, unknown>[]): PodioItemField => ({ field_id: f.field_id, type: f.type, external_id: f.external_id, label: f.label, values });
const ITEM_FIELDS: PodioItemField[] = [
  wire(F.title, [{ value: 'Fix login' }]),
  wire(F.description, [{ value: '<p>Users <b>cannot</b> log in</p>' }]),
  wire(F.hours, [{ value: '12.5000' }]),
  wire(F.budget, [{ value: '1250.5000', currency: 'EUR' }]),
  wire(F.progress, [{ value: 75 }]),
  wire(F.estimate, [{ value: 5400 }]),
  wire(F.due, [{ start: '2024-05-01 09:00:00', start_date: '2024-05-01', start_time: '09:00:00', end: '2024-05-02 17:00:00', end_date: '2024-05-02', end_time: '17:00:00' }]),
  wire(F.day, [{ start_date: '2024-06-01', start_time: null }]),
  wire(F.status, [{ value: { id: 2, text: 'In progress', color: 'FFD5C2', status: 'active' } }]),
  wire(F.tags, [{ value: { id: 11, text: 'Bug' } }, { value: { id: 13, text: 'UX' } }]),
  wire(F.project, [{ value: { item_id: 9001, title: 'Website relaunch', app: { app_id: 2002, name: 'Projects' } } }]),
  wire(F.owner, [{ value: { profile_id: 5001, user_id: 101, name: 'Ada Lovelace', type: 'user' } }]),
  wire(F.phone, [{ type: 'mobile', value: '+1 555 0100' }]),
  wire(F.email, [{ type: 'work', value: 'ada@example.com' }]),
  wire(F.logo, [{ value: { file_id: 77, name: 'logo.png', mimetype: 'image/png', size: 2048, link: 'https://files.podio.com/77' } }]),
  wire(F.link, [{ embed: { embed_id: 55, original_url: 'https://example.com', title: 'Example' }, file: null }]),
  wire(F.address, [{ value: '1 Main St, Springfield', formatted: '1 Main St, Springfield, IL', lat: 39.8, lng: -89.6 }]),
  wire(F.total, [{ value: '123.5600' }]),
  wire(F.deadline, [{ start: '2024-07-01 00:00:00' }]),
  wire(F.related, []),
];
// Values Podio sends for fields emptied in place: no value, not 0 or ''.
const EMPTIED: PodioItemField[] = [wire(F.hours, [{ value: null }]), wire(F.description, [{ value: '' }]), wire(F.progress, [{}])];

describe('itemFieldValues — docs/spec.md#collab-item value shapes', () => {
  const values = itemFieldValues(ITEM_FIELDS);
  const of = (f: PodioAppField) => values.find((v) => v.field_id === f.field_id)?.value;

  it('converts every type', () => {
    expect(of(F.title)).toBe('Fix login');
    expect(of(F.hours)).toBe(12.5);
    expect(of(F.budget)).toEqual({ value: '1250.50', currency: 'EUR' });
    expect(of(F.progress)).toBe(75);
    expect(of(F.estimate)).toBe(5400);
    expect(of(F.due)).toEqual({ start: '2024-05-01 09:00:00', end: '2024-05-02 17:00:00' });
    expect(of(F.day)).toEqual({ start: '2024-06-01', end: null });
    expect(of(F.status)).toEqual([{ id: 2, text: 'In progress' }]);
    expect(of(F.tags)).toEqual([{ id: 11, text: 'Bug' }, { id: 13, text: 'UX' }]);
    expect(of(F.project)).toEqual([{ item_id: 9001, title: 'Website relaunch' }]);
    expect(of(F.owner)).toEqual([{ profile_id: 5001, user_id: 101, name: 'Ada Lovelace' }]);
    expect(of(F.phone)).toEqual([{ type: 'mobile', value: '+1 555 0100' }]);
    expect(of(F.logo)).toEqual([{ file_id: 77, name: 'logo.png', mimetype: 'image/png', size: 2048 }]);
    expect(of(F.link)).toEqual([{ embed_id: 55, url: 'https://example.com', title: 'Example' }]);
    expect(of(F.address)).toBe('1 Main St, Springfield');
    expect(of(F.total)).toBe(123.56);
    expect(of(F.deadline)).toEqual({ start: '2024-07-01 00:00:00', end: null });
  });

  it('leaves empty fields out and carries field_id, external_id, label, type', () => {
    expect(values.some((v) => v.field_id === F.related.field_id)).toBe(false);
    expect(itemFieldValues(EMPTIED)).toEqual([]);
    expect(values[0]).toEqual({ field_id: F.title.field_id, external_id: 'title', label: 'Title', type: 'text', value: 'Fix login' });
  });

  it('selects by field id and by kind', () => {
    expect(itemFieldValues(ITEM_FIELDS, { types: 'calculation' }).map((v) => v.external_id)).toEqual(['total', 'deadline']);
    expect(itemFieldValues(ITEM_FIELDS, { types: 'basic' }).some((v) => v.type === 'calculation')).toBe(false);
    expect(itemFieldValues(ITEM_FIELDS, { ids: resolveItemFieldIds(APP, ['budget', F.owner.field_id]) }).map((v) => v.external_id)).toEqual(['budget', 'owner']);
    expect(rejection(() => resolveItemFieldIds(APP, ['budget', 'nope'])).parameter).toBe('field_ids.1');
  });
});

describe('text — one short rendering per value', () => {
  const values = itemFieldValues(ITEM_FIELDS);
  const text = (f: PodioAppField) => fieldText(values.find((v) => v.field_id === f.field_id)!);

  it('money as 12.50 EUR, contacts by name, categories by text, dates as given', () => {
    expect(text(F.budget)).toBe('1250.50 EUR');
    expect(text(F.owner)).toBe('Ada Lovelace');
    expect(text(F.tags)).toBe('Bug, UX');
    expect(text(F.due)).toBe('2024-05-01 09:00:00 → 2024-05-02 17:00:00');
    expect(text(F.day)).toBe('2024-06-01');
  });

  it('the other types', () => {
    expect(text(F.description)).toBe('Users cannot log in');
    expect(text(F.progress)).toBe('75%');
    expect(text(F.estimate)).toBe('1h 30m');
    expect(text(F.project)).toBe('Website relaunch #9001');
    expect(text(F.phone)).toBe('+1 555 0100 (mobile)');
    expect(text(F.email)).toBe('ada@example.com');
    expect(text(F.logo)).toBe('logo.png');
    expect(text(F.link)).toBe('https://example.com');
    expect(text(F.total)).toBe('123.56');
  });

  it('pairs Label: text, empty values omitted; verbose adds ids', () => {
    const pairs = itemFieldPairs([...values, { field_id: 1, external_id: 'blank', label: 'Blank', type: 'text', value: '' }]);
    expect(pairs[0]).toBe('Title: Fix login');
    expect(pairs).toContain('Budget: 1250.50 EUR');
    expect(pairs.some((p) => p.startsWith('Blank'))).toBe(false);
    expect(itemFieldPairs(values, { verbose: true })).toContain(`Owner [#${F.owner.field_id} owner contact]: Ada Lovelace (profile 5001, user 101)`);
  });
});

describe('planItemFilters — filterItems filters per type', () => {
  it('converts each filterable type to its wire form, keyed by field_id', () => {
    expect(
      planItemFilters(APP, {
        title: 'login',
        status: ['open', 3],
        due: { from: '2024-01-01', to: '2024-01-31 23:59:59' },
        hours: { from: 1, to: '8.5' },
        budget: { from: 100 },
        progress: { to: 50 },
        estimate: { from: 3600 },
        total: { from: 10, to: 20 },
        deadline: { from: '2024-07-01' },
        related: [9001, 9002],
        owner: 5001,
      }),
    ).toEqual({
      [id(F.title)]: 'login',
      [id(F.status)]: [1, 3],
      [id(F.due)]: { from: '2024-01-01', to: '2024-01-31 23:59:59' },
      [id(F.hours)]: { from: 1, to: 8.5 },
      [id(F.budget)]: { from: 100 },
      [id(F.progress)]: { to: 50 },
      [id(F.estimate)]: { from: 3600 },
      [id(F.total)]: { from: 10, to: 20 },
      [id(F.deadline)]: { from: '2024-07-01' },
      [id(F.related)]: [9001, 9002],
      [id(F.owner)]: [5001],
    });
  });

  it('refuses unfilterable types and unknown keys', () => {
    for (const k of ['phone', 'email', 'logo', 'link', 'address']) {
      const r = rejection(() => planItemFilters(APP, { [k]: 'x' }));
      expect(r.parameter).toBe(`filters.${k}`);
      expect(r.message).toContain('cannot be filtered');
    }
    expect(rejection(() => planItemFilters(APP, { nope: 1 })).message).toContain(`title (${F.title.field_id})`);
  });

  it('checks the shapes: texts of options, dates, ranges, ids', () => {
    expect(rejection(() => planItemFilters(APP, { status: ['Closed'] })).message).toContain('1 "Open"');
    expect(rejection(() => planItemFilters(APP, { due: { from: 'last week' } })).parameter).toBe('filters.due.from');
    expect(rejection(() => planItemFilters(APP, { due: '2024-01-01' })).expected).toContain('{"from": "YYYY-MM-DD"');
    expect(rejection(() => planItemFilters(APP, { hours: { from: 5, to: 1 } })).parameter).toBe('filters.hours.to');
    expect(rejection(() => planItemFilters(APP, { hours: {} })).message).toContain('"from", "to" or both');
    expect(rejection(() => planItemFilters(APP, { deadline: { from: 5 } })).parameter).toBe('filters.deadline.from');
    expect(rejection(() => planItemFilters(APP, { total: { from: '2024-01-01' } })).parameter).toBe('filters.total.from');
    expect(rejection(() => planItemFilters(APP, { related: ['x'] })).parameter).toBe('filters.related.0');
    expect(rejection(() => planItemFilters(APP, { title: '' })).parameter).toBe('filters.title');
    expect(rejection(() => planItemFilters(APP, { hours: { from: 1 }, [id(F.hours)]: { to: 2 } })).message).toContain('filtered twice');
  });
});

describe('the Podio table', () => {
  it('has one entry per Podio field type, each input shape with an example; only calculation is read-only', async () => {
    const { COLLAB_FIELDS } = await import('../../functions/collab/fields');
    const types = ['text', 'number', 'calculation', 'money', 'progress', 'duration', 'date', 'category', 'app', 'contact', 'image', 'embed', 'location', 'tel', 'email'];
    expect(Object.keys(COLLAB_FIELDS.types).sort()).toEqual([...types].sort());
    for (const f of Object.values(F)) {
      const entry = COLLAB_FIELDS.types[f.type]!;
      if (f.type === 'calculation') expect(entry.input).toBeUndefined();
      else expect(entry.expected(f)).toMatch(/e\.g\. /);
    }
  });
});
