/**
 * The Tape twin's record filter engine (infra/twins/tape/filter.ts) against docs/vendors/tape.md#record-filters:
 * every field type × match type on a fixture app (at least one matching and one non-matching
 * row each), the docs' example requests, and the 400s.
 */
import { describe, expect, it } from 'vitest';
import { recordMatches, validateFilters, type TapeFilter } from '../../infra/twins/tape/filter';
import { TapeHttpError } from '../../infra/twins/tape/http';
import type { TapeApp, TapeField, TapeRecordRow, TapeValue } from '../../infra/twins/tape/model';

// ---------------------------------------------------------------- fixtures

const ME = 10000;
const ZOE = 10001;
const DAN = 10002;
/** Wednesday, 15 July 2026. */
const NOW = new Date('2026-07-15T10:00:00.000Z');
const CTX = { userId: ME, now: NOW };

const FIELD_TYPE_TYPE: Record<string, string> = {
  single_text: 'text', multi_text: 'text', number: 'number', unique_id: 'unique_id', single_category: 'category', multi_category: 'category',
  status: 'status', single_relation: 'app', multi_relation: 'app', single_user: 'contact', multi_user: 'contact', created_by: 'contact',
  last_modified_by: 'contact', single_date: 'date', range_date: 'date', created_on: 'date', last_modified_on: 'date', calculation: 'calculation',
  multi_email: 'email', multi_phone: 'phone', multi_link: 'embed', single_location: 'location', single_attachment: 'file',
  multi_attachment: 'file', multi_image: 'file', checklist: 'checklist',
};

function field(field_id: number, field_type: string, label: string, settings: Record<string, unknown> = {}): TapeField {
  const external_id = label.toLowerCase().replace(/\W+/g, '_');
  return { field_id, external_id, label, type: FIELD_TYPE_TYPE[field_type] ?? field_type, field_type, config: { label, description: null, required: false, settings } };
}

function mkApp(fields: TapeField[]): TapeApp {
  return { app_id: 1, workspace_id: 1, name: 'Contacts', slug: 'contacts', external_id: 'contacts', item_name: 'Contact', type: 'database', config: { item_name: 'Contact', name: 'Contacts', description: '' }, fields };
}

interface RowSpec {
  app_record_id: number;
  created_on?: string;
  created_by?: number;
  last_modified_on?: string;
  last_modified_by?: number;
  values?: Record<number, unknown[]>;
}

function mkRow(name: string, spec: RowSpec): TapeRecordRow & { name: string } {
  const created_on = spec.created_on ?? '2026-07-01 09:00:00';
  return {
    name,
    record_id: 100 + spec.app_record_id,
    app_id: 1,
    app_record_id: spec.app_record_id,
    title: name,
    created_on,
    created_by: spec.created_by ?? ME,
    last_modified_on: spec.last_modified_on ?? created_on,
    last_modified_by: spec.last_modified_by ?? spec.created_by ?? ME,
    deleted_on: null,
    purged: false,
    values: new Map(Object.entries(spec.values ?? {}).map(([k, v]) => [Number(k), v as TapeValue[]])),
  };
}

/** A row whose field 1 holds `v1` (for the one-field apps of the docs' examples). */
const one = (name: string, app_record_id: number, v1: unknown[] | undefined, extra: Partial<RowSpec> = {}) => mkRow(name, { app_record_id, ...extra, values: v1 ? { 1: v1 } : {} });

const cat = (id: number, text: string) => ({ value: { id, text, color: 'CDCCC9' } });
const user = (user_id: number) => ({ value: { user_id, name: `User ${user_id}`, mail: [], image: null, org_id: 1337, type: 'user' } });
const rel = (record_id: number) => ({ value: { record_id, app_id: 7, title: `Record ${record_id}` } });
const file = (filename: string) => ({ value: { id: 1, filename, size: 1000 } });
/** A date value in docs/vendors/tape.md#fields-and-values's flat shape. */
const flatDate = (start: string, end?: string) => ({
  start,
  start_date: start.slice(0, 10),
  start_time: start.length > 10 ? start.slice(11) : null,
  start_utc: start,
  ...(end ? { end, end_date: end.slice(0, 10), end_time: end.length > 10 ? end.slice(11) : null, end_utc: end } : {}),
});

const APP = mkApp([
  field(1, 'single_text', 'Name'),
  field(2, 'multi_text', 'Notes'),
  field(3, 'number', 'Amount'),
  field(4, 'unique_id', 'ID'),
  field(5, 'single_category', 'Priority', { options: [{ id: 1, text: 'Low' }, { id: 2, text: 'High' }, { id: 3, text: 'Not Started' }] }),
  field(6, 'multi_category', 'Tags', { options: [{ id: 21, text: 'red' }, { id: 22, text: 'green' }, { id: 23, text: 'blue' }, { id: 24, text: 'BLUE ' }] }),
  field(7, 'status', 'Status', { options: [{ id: 11, text: 'Open', means_completed: false }, { id: 12, text: 'Doing', means_completed: false }, { id: 13, text: 'Done', means_completed: true }] }),
  field(8, 'single_relation', 'Company', { referenced_apps: [7] }),
  field(9, 'multi_relation', 'Tasks', { referenced_apps: [8] }),
  field(10, 'single_user', 'Owner'),
  field(11, 'multi_user', 'Reviewers'),
  field(12, 'created_by', 'Created by'),
  field(13, 'last_modified_by', 'Modified by'),
  field(14, 'single_date', 'Due'),
  field(15, 'range_date', 'Period'),
  field(16, 'created_on', 'Created'),
  field(17, 'last_modified_on', 'Modified'),
  field(18, 'calculation', 'Score', { return_type: 'number', decimals: 0 }),
  field(19, 'calculation', 'Tier', { return_type: 'text' }),
  field(20, 'calculation', 'Next date', { return_type: 'date' }),
  field(21, 'multi_email', 'Emails'),
  field(22, 'multi_phone', 'Phones'),
  field(23, 'multi_link', 'Links'),
  field(24, 'single_location', 'Address'),
  field(25, 'single_attachment', 'Contract'),
  field(26, 'multi_attachment', 'Documents'),
  field(27, 'multi_image', 'Photos'),
  field(28, 'checklist', 'Subtasks'),
]);

const ROWS = [
  mkRow('A', {
    app_record_id: 1, created_by: ME, last_modified_by: ZOE, created_on: '2026-07-01 09:00:00', last_modified_on: '2026-07-14 12:00:00',
    values: {
      1: [{ value: 'John Doe' }],
      2: [{ value: '<p>Registered <b>10</b> month ago &amp; active</p>' }],
      3: [{ value: 12.5 }],
      5: [cat(1, 'Low')],
      6: [cat(21, 'red'), cat(22, 'green')],
      7: [{ value: { id: 11, text: 'Open', color: 'DF245E', means_completed: false } }],
      8: [rel(100)],
      9: [rel(110), rel(111)],
      10: [user(ME)],
      11: [user(ME), user(ZOE)],
      14: [flatDate('2026-07-15 00:00:00')],
      15: [flatDate('2026-07-13 00:00:00', '2026-07-17 00:00:00')],
      18: [{ value: 12 }],
      19: [{ value: 'Gold tier' }],
      20: [{ value: '2026-08-01' }],
      21: [{ id: 100, value: 'johndoe@samplebusiness.com', type: 'work' }, { id: 101, value: 'john@doe.com', type: 'home' }],
      22: [{ id: 100, value: '+49 89 123', type: 'work' }],
      23: [{ embed_id: 100, url: 'https://github.com/tape', title: 'Tape', type: 'link' }],
      24: [{ city: 'Munich', country: 'Germany', original_formatted_address: 'Hessstr. 6, 80799 Munich, Germany', value: 'Hessstr. 6, 80799 Munich, Germany', state: 'Bavaria', postal_code: '80799', street_address: 'Hessstr. 6', latitude: 48.15397, longitude: 11.55993 }],
      25: [file('invoice-2026.pdf')],
      26: [file('hr_document-1.pdf'), file('Invoice_July.PDF')],
      27: [file('team.png')],
      28: [
        { id: 300, title: 'Design review', description: '', due_at: '2026-07-18', completed: false, completed_at: null, assignee: { user_id: ME, name: 'John Doe' } },
        { id: 301, title: 'Ship it', description: '', due_at: null, completed: true, completed_at: null, assignee: null },
      ],
    },
  }),
  mkRow('B', {
    app_record_id: 2, created_by: ZOE, last_modified_by: ZOE, created_on: '2026-06-30 23:30:00', // never modified
    values: {
      1: [{ value: 'Alison Johnsson' }],
      2: [{ value: '<p>VIP customer</p>' }],
      3: [{ value: 2000 }],
      5: [cat(2, 'High')],
      6: [cat(22, 'green')],
      7: [{ value: { id: 13, text: 'Done', color: '00FF00' } }], // completion read from the field's options
      8: [rel(200)],
      9: [rel(110)],
      10: [user(ZOE)],
      11: [user(ZOE)],
      14: [{ value: flatDate('2026-06-01 14:00:00') }], // the {value: …} shape is read too
      15: [flatDate('2026-06-28 00:00:00', '2026-07-02 00:00:00')],
      18: [{ value: 150 }],
      19: [{ value: 'Silver' }],
      20: [{ value: '2026-07-15 08:00:00' }],
      21: [{ value: 'alison@example.org' }],
      22: [{ value: '+1 444 555' }],
      23: [{ embed_id: 101, url: 'https://www.tapeapp.com/docs', type: 'link' }],
      24: [{ latitude: 52.52, longitude: 13.405 }], // coordinates only
      25: [file('contract.docx')],
      26: [file('notes.txt')],
      27: [file('logo.JPEG')],
      28: [
        { id: 310, title: 'Clean the kitchen', due_at: '2026-07-10 15:00', completed: true, assignee: { user_id: ZOE } },
        { id: 311, title: '', due_at: '2026-07-01', completed: true, assignee: { user_id: DAN } },
      ],
    },
  }),
  mkRow('C', {
    app_record_id: 3, created_by: ZOE, last_modified_by: ME, created_on: '2026-07-15 07:00:00', last_modified_on: '2026-07-15 09:30:00',
    values: {
      1: [{ value: 'Karl John III' }],
      2: [{ value: '<p>john&#39;s cousin</p>' }],
      3: [{ value: -5 }],
      5: [cat(3, 'Not Started')],
      6: [cat(21, 'red'), cat(22, 'green'), cat(23, 'blue')],
      7: [{ value: { id: 12, text: 'Doing', color: 'FFAA00', means_completed: false } }],
      9: [rel(111), rel(112)],
      10: [user(DAN)],
      11: [user(ME)],
      14: [flatDate('2026-12-24')],
      15: [flatDate('2026-08-01 00:00:00', '2026-08-31 00:00:00')],
      18: [{ value: 0 }],
      19: [{ value: 'Gold' }],
      21: [{ value: { type: 'work', value: 'Karl@Doe.com' } }],
      22: [{ value: '+49 30 555' }],
      23: [{ value: { url: 'https://github.com/karl' } }, { value: 'http://example.com/blog' }],
      24: [{ value: 'Alexanderplatz 1, 10178 Berlin, Germany', city: 'Berlin', country: 'Germany' }],
      26: [file('invoice-draft.txt')],
      28: [],
    },
  }),
  mkRow('E', { app_record_id: 4, created_by: DAN, last_modified_by: DAN, created_on: '2025-01-15 12:00:00', last_modified_on: '2026-07-15 09:59:00' }),
];
const ALL = ROWS.map((r) => r.name).join('');

function matching(filters: unknown, app: TapeApp = APP, rows = ROWS, ctx = CTX): string {
  const valid = validateFilters(app, filters);
  return rows.filter((r) => recordMatches(r, app, valid, ctx)).map((r) => r.name).join('');
}

function rejects(filters: unknown, ...fragments: string[]): void {
  let caught: unknown;
  try {
    validateFilters(APP, filters);
  } catch (err) {
    caught = err;
  }
  expect(caught, `expected a 400 for ${JSON.stringify(filters)}`).toBeInstanceOf(TapeHttpError);
  const e = caught as TapeHttpError;
  expect(e.status).toBe(400);
  expect(e.code).toBe('validation_error');
  for (const f of fragments) expect(e.message).toContain(f);
}

// ---------------------------------------------------------------- field type × match type

type Case = [match_type: string, extra: Record<string, unknown>, expected: string];

/** Per field: [field_id, field_type, type, cases]. Each case must match some rows but not all. */
const TABLE: [number, string, string, Case[]][] = [
  [1, 'single_text', 'text', [
    ['equal', { values: [{ value: ' John Doe ' }] }, 'A'],
    ['not_equal', { values: [{ value: 'John Doe' }] }, 'BCE'],
    ['contains', { values: [{ value: 'john' }] }, 'ABC'],
    ['not_contains', { values: [{ value: 'JOHN' }] }, 'E'],
    ['starts_with', { values: [{ value: 'karl' }] }, 'C'],
    ['ends_with', { values: [{ value: 'DOE' }] }, 'A'],
    ['empty', {}, 'E'],
    ['not_empty', {}, 'ABC'],
  ]],
  [2, 'multi_text', 'text', [
    ['equal', { values: [{ value: 'VIP customer' }] }, 'B'],
    ['not_equal', { values: [{ value: 'VIP customer' }] }, 'ACE'],
    ['contains', { values: [{ value: '10 month ago & active' }] }, 'A'],
    ['not_contains', { values: [{ value: 'cousin' }] }, 'ABE'],
    ['starts_with', { values: [{ value: 'REGISTERED' }] }, 'A'],
    ['ends_with', { values: [{ value: "john's cousin" }] }, 'C'],
    ['empty', {}, 'E'],
    ['not_empty', {}, 'ABC'],
  ]],
  [3, 'number', 'number', [
    ['equal', { values: [{ value: 12.5 }] }, 'A'],
    ['equal', { values: [{ value: '2000' }] }, 'B'],
    ['not_equal', { values: [{ value: 12.5 }] }, 'BCE'],
    ['smaller', { values: [{ value: 12.34 }] }, 'C'],
    ['smaller_or_equal', { values: [{ value: 12.5 }] }, 'AC'],
    ['larger', { values: [{ value: 12.5 }] }, 'B'],
    ['larger_or_equal', { values: [{ value: 12.5 }] }, 'AB'],
    ['empty', {}, 'E'],
    ['not_empty', {}, 'ABC'],
  ]],
  [4, 'unique_id', 'number', [
    ['equal', { values: [{ value: 2 }] }, 'B'],
    ['not_equal', { values: [{ value: 2 }] }, 'ACE'],
    ['smaller', { values: [{ value: 2 }] }, 'A'],
    ['smaller_or_equal', { values: [{ value: 2 }] }, 'AB'],
    ['larger', { values: [{ value: 3 }] }, 'E'],
    ['larger_or_equal', { values: [{ value: 3 }] }, 'CE'],
  ]],
  [5, 'single_category', 'category', [
    ['equal', { values: [{ value: 2 }] }, 'B'],
    ['equal', { values: [{ value: '  high ' }] }, 'B'],
    ['not_equal', { values: [{ value: 2 }] }, 'ACE'],
    ['any', { values: [{ value: 1 }, { value: 'Not Started' }] }, 'AC'],
    ['none', { values: [{ value: 1 }, { value: 2 }] }, 'CE'],
    ['empty', {}, 'E'],
    ['not_empty', {}, 'ABC'],
  ]],
  [6, 'multi_category', 'category', [
    ['equal', { values: [{ value: 22 }, { value: 21 }] }, 'A'],
    ['contains', { values: [{ value: 21 }, { value: 'GREEN' }] }, 'AC'],
    ['contains', { values: [{ value: 'green' }] }, 'ABC'],
    ['any', { values: [{ value: 23 }, { value: 'red' }] }, 'AC'],
    ['none', { values: [{ value: 21 }] }, 'BE'],
    ['empty', {}, 'E'],
    ['not_empty', {}, 'ABC'],
  ]],
  [7, 'status', 'status', [
    ['equal', { values: [{ value: 13 }] }, 'B'],
    ['equal', { values: [{ value: 'done' }] }, 'B'],
    ['not_equal', { values: [{ value: 13 }] }, 'ACE'],
    ['any', { values: [{ value: 11 }, { value: 'Doing' }] }, 'AC'],
    ['none', { values: [{ value: 11 }] }, 'BCE'],
    ['empty', {}, 'E'],
    ['not_empty', {}, 'ABC'],
    ['completed', {}, 'B'],
    ['incomplete', {}, 'AC'],
  ]],
  [8, 'single_relation', 'app', [
    ['equal', { values: [{ value: 100 }] }, 'A'],
    ['equal', { values: [{ value: '200' }] }, 'B'],
    ['not_equal', { values: [{ value: 100 }] }, 'BCE'],
    ['any', { values: [{ value: 100 }, { value: 200 }] }, 'AB'],
    ['none', { values: [{ value: 200 }] }, 'ACE'],
    ['empty', {}, 'CE'],
    ['not_empty', {}, 'AB'],
  ]],
  [9, 'multi_relation', 'app', [
    ['equal', { values: [{ value: 111 }, { value: 110 }] }, 'A'],
    ['contains', { values: [{ value: 110 }] }, 'AB'],
    ['contains', { values: [{ value: 111 }, { value: 112 }] }, 'C'],
    ['any', { values: [{ value: 112 }, { value: 999 }] }, 'C'],
    ['none', { values: [{ value: 110 }] }, 'CE'],
    ['empty', {}, 'E'],
    ['not_empty', {}, 'ABC'],
  ]],
  [10, 'single_user', 'contact', [
    ['equal', { values: [{ value: ZOE }] }, 'B'],
    ['equal', { include_active_user: true }, 'A'],
    ['not_equal', { values: [{ value: ZOE }] }, 'ACE'],
    ['any', { values: [{ value: ZOE }], include_active_user: true }, 'AB'],
    ['none', { values: [{ value: DAN }] }, 'ABE'],
    ['none', { include_active_user: true }, 'BCE'],
    ['empty', {}, 'E'],
    ['not_empty', {}, 'ABC'],
  ]],
  [11, 'multi_user', 'contact', [
    ['equal', { values: [{ value: ZOE }, { value: ME }] }, 'A'],
    ['equal', { include_active_user: true }, 'C'],
    ['contains', { values: [{ value: ZOE }] }, 'AB'],
    ['contains', { values: [{ value: ZOE }], include_active_user: true }, 'A'],
    ['any', { include_active_user: true }, 'AC'],
    ['none', { values: [{ value: ZOE }] }, 'CE'],
    ['empty', {}, 'E'],
    ['not_empty', {}, 'ABC'],
  ]],
  [12, 'created_by', 'contact', [
    ['equal', { values: [{ value: ZOE }] }, 'BC'],
    ['not_equal', { values: [{ value: ZOE }] }, 'AE'],
    ['any', { include_active_user: true }, 'A'],
    ['none', { values: [{ value: ZOE }], include_active_user: true }, 'E'],
  ]],
  [13, 'last_modified_by', 'contact', [
    ['equal', { include_active_user: true }, 'C'],
    ['not_equal', { values: [{ value: ZOE }] }, 'CE'],
    ['any', { values: [{ value: DAN }, { value: ME }] }, 'CE'],
    ['none', { values: [{ value: ZOE }, { value: DAN }] }, 'C'],
  ]],
  [14, 'single_date', 'date', [
    ['equal', { relative_date_type: 'exact_date', values: [{ value: { date: '2026-07-15T18:00:00.000Z' } }] }, 'A'],
    ['equal', { values: [{ value: '2026-06-01' }] }, 'B'],
    ['equal', { relative_date_type: 'today' }, 'A'],
    ['equal', { relative_date_type: 'num_days_before', values: [{ value: { date: '2026-07-16', offset_amount: 1 } }] }, 'A'],
    ['equal', { relative_date_type: 'num_weeks_after', values: [{ value: { date: '2026-07-08', offset_amount: 1 } }] }, 'A'],
    ['equal', { relative_date_type: 'num_months_before', values: [{ value: { date: '2026-07-01', offset_amount: 1 } }] }, 'B'],
    ['equal', { relative_date_type: 'num_days_after', values: [{ value: { offset_amount: 162 } }] }, 'C'],
    ['not_equal', { relative_date_type: 'today' }, 'BCE'],
    ['before', { relative_date_type: 'exact_date', values: [{ value: { date: '2026-07-15' } }] }, 'B'],
    ['on_or_before', { values: [{ value: { date: '2026-07-15' } }] }, 'AB'],
    ['on_or_before', { relative_date_type: 'tomorrow' }, 'AB'],
    ['after', { values: [{ value: { date: '2026-07-15' } }] }, 'C'],
    ['after', { relative_date_type: 'yesterday' }, 'AC'],
    ['on_or_after', { values: [{ value: { date: '2026-07-15' } }] }, 'AC'],
    ['within', { relative_date_range_type: 'current_week' }, 'A'],
    ['within', { relative_date_range_type: 'current_month' }, 'A'],
    ['within', { relative_date_range_type: 'current_year' }, 'ABC'],
    ['within', { relative_date_range_type: 'past_week' }, 'A'],
    ['within', { relative_date_range_type: 'past_month' }, 'A'],
    ['within', { relative_date_range_type: 'past_year' }, 'AB'],
    ['within', { relative_date_range_type: 'next_week' }, 'A'],
    ['within', { relative_date_range_type: 'next_month' }, 'A'],
    ['within', { relative_date_range_type: 'next_year' }, 'AC'],
    ['within', { relative_date_range_type: 'next_num_days', values: [{ value: { offset_amount: 7 } }] }, 'A'],
    ['within', { relative_date_range_type: 'past_num_days', values: [{ value: { offset_amount: 45 } }] }, 'AB'],
    ['within', { relative_date_range_type: 'exact_range', values: [{ value: { date: '2026-06-01T00:00:00.000Z' } }], end_date: '2026-07-14T00:00:00.000Z' }, 'B'],
    ['within', { relative_date_range_type: 'exact_range', values: [{ value: { date: '2026-07-01' } }], end_date: 1798675200 }, 'AC'],
    ['on_weekday', { weekday: 'monday' }, 'B'],
    ['on_weekday', { weekday: 'thursday' }, 'C'],
    ['in_quarter_of_year', { quarter_of_year: 'q2' }, 'B'],
    ['in_quarter_of_year', { quarter_of_year: 'q3' }, 'A'],
    ['in_month_of_year', { month_of_year: 'december' }, 'C'],
    ['empty', {}, 'E'],
    ['not_empty', {}, 'ABC'],
  ]],
  [15, 'range_date', 'date', [
    ['equal', { values: [{ value: { date: '2026-07-01' } }] }, 'B'],
    ['equal', { relative_date_type: 'today' }, 'A'],
    ['not_equal', { values: [{ value: { date: '2026-07-01' } }] }, 'ACE'],
    ['before', { values: [{ value: { date: '2026-07-13' } }] }, 'B'],
    ['on_or_before', { values: [{ value: { date: '2026-07-13' } }] }, 'AB'],
    ['after', { values: [{ value: { date: '2026-07-17' } }] }, 'C'],
    ['after', { values: [{ value: { date: '2026-07-15' } }] }, 'AC'],
    ['on_or_after', { values: [{ value: { date: '2026-07-02' } }] }, 'ABC'],
    ['on_or_after', { values: [{ value: { date: '2026-07-17' } }] }, 'AC'],
    ['on_or_after', { values: [{ value: { date: '2026-07-03' } }] }, 'AC'],
    ['within', { relative_date_range_type: 'exact_range', values: [{ value: { date: '2026-07-01' } }], end_date: '2026-07-14' }, 'AB'],
    ['within', { relative_date_range_type: 'current_week' }, 'A'],
    ['on_weekday', { weekday: 'sunday' }, 'BC'],
    ['on_weekday', { weekday: 'saturday' }, 'C'],
    ['in_quarter_of_year', { quarter_of_year: 'q2' }, 'B'],
    ['in_month_of_year', { month_of_year: 'july' }, 'AB'],
    ['empty', {}, 'E'],
    ['not_empty', {}, 'ABC'],
  ]],
  [16, 'created_on', 'date', [
    ['equal', { relative_date_type: 'today' }, 'C'],
    ['equal', { relative_date_type: 'num_days_before', values: [{ value: { date: '2020-01-01', offset_amount: 14 } }] }, 'A'],
    ['not_equal', { relative_date_type: 'today' }, 'ABE'],
    ['before', { values: [{ value: { date: '2026-07-01' } }] }, 'BE'],
    ['on_or_before', { values: [{ value: { date: '2026-06-30' } }] }, 'BE'],
    ['after', { values: [{ value: { date: '2026-06-30' } }] }, 'AC'],
    ['on_or_after', { values: [{ value: { date: '2026-07-01T23:00:00Z' } }] }, 'AC'],
    ['within', { relative_date_range_type: 'past_month' }, 'ABC'],
    ['on_weekday', { weekday: 'wednesday' }, 'ACE'],
    ['in_quarter_of_year', { quarter_of_year: 'q1' }, 'E'],
    ['in_month_of_year', { month_of_year: 'june' }, 'B'],
  ]],
  [17, 'last_modified_on', 'date', [
    ['equal', { relative_date_type: 'yesterday' }, 'A'],
    ['not_equal', { relative_date_type: 'today' }, 'AB'],
    ['before', { relative_date_type: 'today' }, 'AB'],
    ['on_or_before', { relative_date_type: 'yesterday' }, 'AB'],
    ['after', { relative_date_type: 'yesterday' }, 'CE'],
    ['on_or_after', { relative_date_type: 'num_weeks_before', values: [{ value: { offset_amount: 1 } }] }, 'ACE'],
    ['within', { relative_date_range_type: 'past_num_days', values: [{ value: { offset_amount: 1 } }] }, 'ACE'],
    ['on_weekday', { weekday: 'tuesday' }, 'AB'],
    ['in_quarter_of_year', { quarter_of_year: 'q2' }, 'B'],
    ['in_month_of_year', { month_of_year: 'july' }, 'ACE'],
  ]],
  [18, 'calculation', 'calculation', [
    ['equal', { values: [{ value: 150 }] }, 'B'],
    ['not_equal', { values: [{ value: 150 }] }, 'ACE'],
    ['smaller', { values: [{ value: 12.34 }] }, 'AC'],
    ['smaller_or_equal', { values: [{ value: 0 }] }, 'C'],
    ['larger', { values: [{ value: 12 }] }, 'B'],
    ['larger_or_equal', { values: [{ value: 12 }] }, 'AB'],
    ['empty', {}, 'E'],
    ['not_empty', {}, 'ABC'],
  ]],
  [19, 'calculation', 'calculation', [
    ['equal', { values: [{ value: 'Gold' }] }, 'C'],
    ['not_equal', { values: [{ value: 'Gold' }] }, 'ABE'],
    ['contains', { values: [{ value: 'gold' }] }, 'AC'],
    ['not_contains', { values: [{ value: 'gold' }] }, 'BE'],
    ['starts_with', { values: [{ value: 'sil' }] }, 'B'],
    ['ends_with', { values: [{ value: 'TIER' }] }, 'A'],
    ['empty', {}, 'E'],
    ['not_empty', {}, 'ABC'],
  ]],
  [20, 'calculation', 'calculation', [
    ['equal', { relative_date_type: 'today' }, 'B'],
    ['not_equal', { relative_date_type: 'today' }, 'ACE'],
    ['before', { values: [{ value: { date: '2026-08-01' } }] }, 'B'],
    ['on_or_before', { values: [{ value: { date: '2026-08-01' } }] }, 'AB'],
    ['after', { relative_date_type: 'today' }, 'A'],
    ['on_or_after', { relative_date_type: 'today' }, 'AB'],
    ['within', { relative_date_range_type: 'current_month' }, 'B'],
    ['on_weekday', { weekday: 'saturday' }, 'A'],
    ['in_quarter_of_year', { quarter_of_year: 'q3' }, 'AB'],
    ['in_month_of_year', { month_of_year: 'august' }, 'A'],
    ['empty', {}, 'CE'],
    ['not_empty', {}, 'AB'],
  ]],
  [21, 'multi_email', 'email', [
    ['fully_includes', { values: [{ value: ' JOHN@doe.com ' }] }, 'A'],
    ['contains', { values: [{ value: '@doe.com' }] }, 'AC'],
    ['not_contains', { values: [{ value: 'doe' }] }, 'BE'],
    ['starts_with', { values: [{ value: 'alison' }] }, 'B'],
    ['ends_with', { values: [{ value: '.ORG' }] }, 'B'],
    ['empty', {}, 'E'],
    ['not_empty', {}, 'ABC'],
  ]],
  [22, 'multi_phone', 'phone', [
    ['fully_includes', { values: [{ value: '+1 444 555' }] }, 'B'],
    ['contains', { values: [{ value: '555' }] }, 'BC'],
    ['not_contains', { values: [{ value: '555' }] }, 'AE'],
    ['starts_with', { values: [{ value: '+49' }] }, 'AC'],
    ['ends_with', { values: [{ value: '123' }] }, 'A'],
    ['empty', {}, 'E'],
    ['not_empty', {}, 'ABC'],
  ]],
  [23, 'multi_link', 'embed', [
    ['contains', { values: [{ value: 'GitHub.com' }] }, 'AC'],
    ['not_contains', { values: [{ value: 'github' }] }, 'BE'],
    ['starts_with', { values: [{ value: 'http://' }] }, 'C'],
    ['ends_with', { values: [{ value: '/DOCS' }] }, 'B'],
    ['empty', {}, 'E'],
    ['not_empty', {}, 'ABC'],
  ]],
  [24, 'single_location', 'location', [
    ['contains', { values: [{ value: '80799' }] }, 'A'],
    ['contains', { values: [{ value: 'germany' }] }, 'AC'],
    ['not_contains', { values: [{ value: 'berlin' }] }, 'ABE'],
    ['empty', {}, 'E'],
    ['not_empty', {}, 'ABC'],
  ]],
  [25, 'single_attachment', 'file', [
    ['equal', { values: [{ value: 'CONTRACT.DOCX' }] }, 'B'],
    ['not_equal', { values: [{ value: 'contract.docx' }] }, 'ACE'],
    ['contains', { values: [{ value: 'invoice' }] }, 'A'],
    ['not_contains', { values: [{ value: 'invoice' }] }, 'BCE'],
    ['starts_with', { values: [{ value: 'con' }] }, 'B'],
    ['ends_with', { values: [{ value: '.pdf' }] }, 'A'],
    ['empty', {}, 'CE'],
    ['not_empty', {}, 'AB'],
  ]],
  [26, 'multi_attachment', 'file', [
    ['equal', { values: [{ value: 'notes.txt' }] }, 'B'],
    ['not_equal', { values: [{ value: 'notes.txt' }] }, 'ACE'],
    ['contains', { values: [{ value: 'invoice' }] }, 'AC'],
    ['not_contains', { values: [{ value: 'invoice' }] }, 'BE'],
    ['starts_with', { values: [{ value: 'hr_' }] }, 'A'],
    ['ends_with', { values: [{ value: '.txt' }] }, 'BC'],
    ['empty', {}, 'E'],
    ['not_empty', {}, 'ABC'],
  ]],
  [27, 'multi_image', 'file', [
    ['equal', { values: [{ value: 'team.png' }] }, 'A'],
    ['not_equal', { values: [{ value: 'team.png' }] }, 'BCE'],
    ['contains', { values: [{ value: 'logo' }] }, 'B'],
    ['not_contains', { values: [{ value: 'logo' }] }, 'ACE'],
    ['starts_with', { values: [{ value: 'TEAM' }] }, 'A'],
    ['ends_with', { values: [{ value: '.jpeg' }] }, 'B'],
    ['empty', {}, 'CE'],
    ['not_empty', {}, 'AB'],
  ]],
  [28, 'checklist', 'checklist', [
    ['empty', {}, 'CE'],
    ['not_empty', {}, 'AB'],
    ['contains', { entry_property: 'title', values: [{ value: 'design REVIEW' }] }, 'A'],
    ['not_contains', { entry_property: 'title', values: [{ value: 'kitchen' }] }, 'ACE'],
    ['empty', { entry_property: 'title' }, 'B'],
    ['not_empty', { entry_property: 'title' }, 'ACE'],
    ['equal', { entry_property: 'assignee', values: [{ value: ZOE }] }, 'B'],
    ['equal', { entry_property: 'assignee', include_active_user: true }, 'A'],
    ['equal', { entry_property: 'assignee', values: [{ value: DAN }], include_active_user: true }, 'AB'],
    ['not_equal', { entry_property: 'assignee', include_active_user: true }, 'BCE'],
    ['empty', { entry_property: 'assignee' }, 'A'],
    ['not_empty', { entry_property: 'assignee' }, 'BCE'],
    ['equal', { entry_property: 'status', values: [{ value: false }] }, 'A'],
    ['equal', { entry_property: 'status', values: [{ value: true }] }, 'AB'],
    ['equal', { entry_property: 'due_date', values: [{ value: { date: '2026-07-10' } }] }, 'B'],
    ['equal', { entry_property: 'due_date', relative_date_type: 'num_days_after', values: [{ value: { offset_amount: 3 } }] }, 'A'],
    ['not_equal', { entry_property: 'due_date', values: [{ value: { date: '2026-07-10' } }] }, 'ACE'],
    ['before', { entry_property: 'due_date', relative_date_type: 'today' }, 'B'],
    ['after', { entry_property: 'due_date', relative_date_type: 'today' }, 'A'],
    ['on_or_before', { entry_property: 'due_date', values: [{ value: { date: '2026-07-10' } }] }, 'B'],
    ['on_or_after', { entry_property: 'due_date', values: [{ value: { date: '2026-07-18' } }] }, 'A'],
    ['within', { entry_property: 'due_date', relative_date_range_type: 'next_num_days', values: [{ value: { offset_amount: 7 } }] }, 'A'],
    ['within', { entry_property: 'due_date', relative_date_range_type: 'past_num_days', values: [{ value: { offset_amount: 10 } }] }, 'B'],
    ['within', { entry_property: 'due_date', relative_date_range_type: 'current_month' }, 'AB'],
    ['empty', { entry_property: 'due_date' }, 'A'],
    ['not_empty', { entry_property: 'due_date' }, 'BCE'],
  ]],
];

describe('Tape filter engine: every field type × match type', () => {
  for (const [field_id, field_type, type, cases] of TABLE) {
    describe(`${field_type} (field ${field_id})`, () => {
      it.each(cases.map((c) => [c[0], JSON.stringify(c[1]), c[1], c[2]] as const))('%s %s → %s', (match_type, _label, extra, expected) => {
        expect(expected, 'a case must match some rows and miss others').not.toBe('');
        expect(expected).not.toBe(ALL);
        expect(matching([{ field_id, field_type, type, match_type, ...extra }])).toBe(expected);
      });
    });
  }

  it('covers every match type filter.md documents for each field type', () => {
    const documented: Record<string, string[]> = {
      single_text: ['equal', 'not_equal', 'contains', 'not_contains', 'starts_with', 'ends_with', 'empty', 'not_empty'],
      number: ['equal', 'not_equal', 'smaller', 'smaller_or_equal', 'larger', 'larger_or_equal', 'empty', 'not_empty'],
      single_category: ['equal', 'not_equal', 'any', 'none', 'empty', 'not_empty'],
      multi_category: ['equal', 'contains', 'any', 'none', 'empty', 'not_empty'],
      status: ['equal', 'not_equal', 'any', 'none', 'empty', 'not_empty', 'completed', 'incomplete'],
      single_date: ['equal', 'not_equal', 'before', 'on_or_before', 'after', 'on_or_after', 'within', 'on_weekday', 'in_quarter_of_year', 'in_month_of_year', 'empty', 'not_empty'],
      multi_email: ['fully_includes', 'contains', 'not_contains', 'starts_with', 'ends_with', 'empty', 'not_empty'],
      multi_link: ['contains', 'not_contains', 'starts_with', 'ends_with', 'empty', 'not_empty'],
      single_location: ['contains', 'not_contains', 'empty', 'not_empty'],
    };
    const same: Record<string, string> = {
      multi_text: 'single_text', single_attachment: 'single_text', multi_attachment: 'single_text', multi_image: 'single_text',
      single_relation: 'single_category', single_user: 'single_category', multi_relation: 'multi_category', multi_user: 'multi_category',
      range_date: 'single_date', multi_phone: 'multi_email',
    };
    for (const [, ft, , cases] of TABLE) {
      const want = documented[ft] ?? documented[same[ft] ?? ''];
      if (!want) continue;
      expect(new Set(cases.map((c) => c[0])), ft).toEqual(new Set(want));
    }
  });

  it('unique_id, created_by, last_modified_by, created_on, last_modified_on: always set, so empty matches nothing and not_empty everything', () => {
    for (const [field_id, field_type, type] of [[4, 'unique_id', 'number'], [12, 'created_by', 'contact'], [13, 'last_modified_by', 'contact'], [16, 'created_on', 'date'], [17, 'last_modified_on', 'date']] as const) {
      expect(matching([{ field_id, field_type, type, match_type: 'empty' }]), field_type).toBe('');
      expect(matching([{ field_id, field_type, type, match_type: 'not_empty' }]), field_type).toBe(ALL);
    }
  });

  it('text equal is case-sensitive; contains ignores case', () => {
    expect(matching([{ field_id: 1, field_type: 'single_text', type: 'text', match_type: 'equal', values: [{ value: 'john doe' }] }])).toBe('');
    expect(matching([{ field_id: 2, field_type: 'multi_text', type: 'text', match_type: 'equal', values: [{ value: 'vip customer' }] }])).toBe('');
  });

  it('date filters are day-granular: before/after exclude the target day, on_or_* include it', () => {
    const f = (match_type: string) => [{ field_id: 14, field_type: 'single_date', type: 'date', match_type, values: [{ value: { date: '2026-06-01T23:59:00Z' } }] }];
    expect(matching(f('equal'))).toBe('B'); // B is 2026-06-01 14:00
    expect(matching(f('before'))).toBe('');
    expect(matching(f('on_or_before'))).toBe('B');
    expect(matching(f('after'))).toBe('AC');
    expect(matching(f('on_or_after'))).toBe('ABC');
  });

  it('ANDs several filters', () => {
    expect(
      matching([
        { field_id: 1, field_type: 'single_text', type: 'text', match_type: 'contains', values: [{ value: 'john' }] },
        { field_id: 3, field_type: 'number', type: 'number', match_type: 'larger', values: [{ value: 0 }] },
        { field_id: 7, field_type: 'status', type: 'status', match_type: 'incomplete' },
      ]),
    ).toBe('A');
    expect(matching([])).toBe(ALL);
    expect(matching(undefined)).toBe(ALL);
  });

  it('include_active_user follows the calling user', () => {
    const f = [{ field_id: 10, field_type: 'single_user', type: 'contact', match_type: 'equal', include_active_user: true }];
    expect(matching(f, APP, ROWS, { userId: ZOE, now: NOW })).toBe('B');
    expect(matching(f, APP, ROWS, { userId: DAN, now: NOW })).toBe('C');
  });

  it('relative dates move with ctx.now', () => {
    const f = [{ field_id: 14, field_type: 'single_date', type: 'date', match_type: 'equal', relative_date_type: 'today' }];
    expect(matching(f, APP, ROWS, { userId: ME, now: new Date('2026-12-24T23:00:00Z') })).toBe('C');
    const week = [{ field_id: 14, field_type: 'single_date', type: 'date', match_type: 'within', relative_date_range_type: 'current_week' }];
    // Sunday 2026-06-07 belongs to the week of Monday 2026-06-01.
    expect(matching(week, APP, ROWS, { userId: ME, now: new Date('2026-06-07T12:00:00Z') })).toBe('B');
  });

  it('rolling within ranges reach back / ahead whole days and include today', () => {
    const at = (range: string, now: string, offset?: number) =>
      matching([{ field_id: 14, field_type: 'single_date', type: 'date', match_type: 'within', relative_date_range_type: range, ...(offset === undefined ? {} : { values: [{ value: { offset_amount: offset } }] }) }], APP, ROWS, { userId: ME, now: new Date(now) }).includes('B');
    // B's date is Monday 2026-06-01 14:00.
    expect([at('past_week', '2026-06-08T23:00:00Z'), at('past_week', '2026-06-09T00:00:00Z')]).toEqual([true, false]);
    expect([at('next_week', '2026-05-25T00:00:00Z'), at('next_week', '2026-05-24T23:00:00Z')]).toEqual([true, false]);
    expect([at('past_month', '2026-07-01T12:00:00Z'), at('past_month', '2026-07-02T00:00:00Z')]).toEqual([true, false]);
    expect([at('next_month', '2026-05-01T12:00:00Z'), at('next_month', '2026-04-30T23:00:00Z')]).toEqual([true, false]);
    expect([at('past_year', '2027-06-01T00:00:00Z'), at('past_year', '2027-06-02T00:00:00Z')]).toEqual([true, false]);
    expect([at('next_year', '2025-06-01T00:00:00Z'), at('next_year', '2025-05-31T00:00:00Z')]).toEqual([true, false]);
    expect([at('past_num_days', '2026-06-04T00:00:00Z', 3), at('past_num_days', '2026-06-05T00:00:00Z', 3)]).toEqual([true, false]);
    expect([at('next_num_days', '2026-05-29T00:00:00Z', 3), at('next_num_days', '2026-05-28T00:00:00Z', 3)]).toEqual([true, false]);
    expect([at('current_month', '2026-06-30T23:59:00Z'), at('current_month', '2026-07-01T00:00:00Z')]).toEqual([true, false]);
    expect([at('current_year', '2026-01-01T00:00:00Z'), at('current_year', '2025-12-31T23:59:00Z')]).toEqual([true, false]);
    expect([at('current_week', '2026-06-01T00:00:00Z'), at('current_week', '2026-05-31T23:00:00Z')]).toEqual([true, false]);
  });

  it('num_months_* keep the day of month, clamped to the month end', () => {
    const app = mkApp([field(1, 'single_date', 'Due')]);
    const rows = [one('feb28', 1, [flatDate('2026-02-28')]), one('mar3', 2, [flatDate('2026-03-03')])];
    expect(matching([{ field_id: 1, type: 'date', match_type: 'equal', relative_date_type: 'num_months_before', values: [{ value: { date: '2026-03-31', offset_amount: 1 } }] }], app, rows)).toBe('feb28');
  });

  it('a calculation without a return_type takes the operand shape of the filter', () => {
    const app = mkApp([field(1, 'calculation', 'Legacy')]);
    const rows = [mkRow('N', { app_record_id: 1, values: { 1: [{ value: 42 }] } }), mkRow('T', { app_record_id: 2, values: { 1: [{ value: 'forty-two' }] } }), mkRow('D', { app_record_id: 3, values: { 1: [{ value: '2026-07-15' }] } })];
    expect(matching([{ field_id: 1, type: 'calculation', match_type: 'larger', values: [{ value: 40 }] }], app, rows)).toBe('N');
    expect(matching([{ field_id: 1, type: 'calculation', match_type: 'contains', values: [{ value: 'FORTY' }] }], app, rows)).toBe('T');
    expect(matching([{ field_id: 1, type: 'calculation', match_type: 'equal', relative_date_type: 'today' }], app, rows)).toBe('D');
  });

  it('ignores a stored filter whose field the app no longer has', () => {
    const stored = validateFilters(APP, [{ field_id: 1, field_type: 'single_text', type: 'text', match_type: 'contains', values: [{ value: 'karl' }] }]);
    const app = mkApp(APP.fields.filter((f) => f.field_id !== 1));
    expect(ROWS.filter((r) => recordMatches(r, app, stored, CTX)).length).toBe(ROWS.length);
  });
});

// ---------------------------------------------------------------- metadata filters

describe('Tape filter engine: record metadata filters', () => {
  it('created_at: the bounded window of filter.md (both bounds inclusive, instant-based)', () => {
    expect(
      matching([
        { type: 'created_at', match_type: 'on_or_after', values: [{ value: { date: '2026-07-01T00:00:00.000Z' } }] },
        { type: 'created_at', match_type: 'on_or_before', values: [{ value: { date: '2026-07-02T00:00:00.000Z' } }] },
      ]),
    ).toBe('A');
    // after ≡ on_or_after, before ≡ on_or_before; larger/smaller are aliases.
    expect(matching([{ type: 'created_at', match_type: 'after', values: [{ value: { date: '2026-07-15T07:00:00Z' } }] }])).toBe('C');
    expect(matching([{ type: 'created_at', match_type: 'larger_or_equal', values: [{ value: { date: '2026-07-15T07:00:00Z' } }] }])).toBe('C');
    expect(matching([{ type: 'created_at', match_type: 'before', values: [{ value: { date: '2026-06-30T23:30:00Z' } }] }])).toBe('BE');
    expect(matching([{ type: 'created_at', match_type: 'smaller', relative_date_type: 'exact_date', values: [{ value: { date: '2026-06-30T23:30:00Z', offset_amount: 5 } }] }])).toBe('BE');
  });

  it('repeating a bound narrows the window', () => {
    expect(
      matching([
        { type: 'created_at', match_type: 'on_or_after', values: [{ value: { date: '2025-01-01T00:00:00Z' } }] },
        { type: 'created_at', match_type: 'on_or_after', values: [{ value: { date: '2026-07-01T00:00:00Z' } }] },
      ]),
    ).toBe('AC');
  });

  it('last_modified_at: never-modified records match no filter, not even a far-past lower bound', () => {
    expect(matching([{ type: 'last_modified_at', match_type: 'on_or_after', values: [{ value: { date: '2026-07-01T00:00:00.000Z' } }] }])).toBe('ACE');
    expect(matching([{ type: 'last_modified_at', match_type: 'on_or_after', values: [{ value: { date: '1970-01-01T00:00:00.000Z' } }] }])).toBe('ACE');
    expect(matching([{ type: 'last_modified_at', match_type: 'before', values: [{ value: { date: '2026-07-15T00:00:00.000Z' } }] }])).toBe('A');
  });

  it('the incremental sync pattern: created since T ∪ modified since T', () => {
    const T = '2026-07-14T00:00:00.000Z';
    const created = matching([{ type: 'created_at', match_type: 'on_or_after', values: [{ value: { date: T } }] }]);
    const modified = matching([{ type: 'last_modified_at', match_type: 'on_or_after', values: [{ value: { date: T } }] }]);
    expect(created).toBe('C');
    expect(modified).toBe('ACE');
    expect([...new Set([...created, ...modified])].sort().join('')).toBe('ACE');
  });

  it('app_record_id: bare scalar; every match type', () => {
    const f = (match_type: string, value: unknown) => [{ type: 'app_record_id', match_type, values: [{ value }] }];
    expect(matching(f('larger_or_equal', 1000))).toBe('');
    expect(matching(f('larger_or_equal', 3))).toBe('CE');
    expect(matching(f('equal', 2))).toBe('B');
    expect(matching(f('not_equal', 2))).toBe('ACE');
    expect(matching(f('larger', 3))).toBe('E');
    expect(matching(f('smaller', 2))).toBe('A');
    expect(matching(f('smaller_or_equal', '2'))).toBe('AB');
    expect(matching(f('empty', 0))).toBe('');
    expect(matching(f('not_empty', 0))).toBe(ALL);
  });

  it('metadata filters are returned as sent, without field_id / field_type', () => {
    expect(validateFilters(APP, [{ type: 'app_record_id', match_type: 'equal', values: [{ value: '7' }] }])).toEqual([{ type: 'app_record_id', match_type: 'equal', values: [{ value: 7 }] }]);
  });
});

// ---------------------------------------------------------------- the docs' examples

/** One app whose field 1 (and 2) have the types of a docs/vendors/tape.md#record-filters example, plus rows for it. */
function docCase(fields: TapeField[], rows: ReturnType<typeof mkRow>[], body: { filters: unknown[] }, ctx = CTX): string {
  return matching(body.filters, mkApp(fields), rows, ctx);
}

describe('Tape filter engine: the example requests of filter.md, record.md and view.md', () => {
  it('record.md: POST /v1/record/filter/app/1 with a SINGLE_TEXT contains "John" returns the three Johns', () => {
    const rows = [one('John Doe', 3, [{ value: 'John Doe' }]), one('Alison Johnsson', 2, [{ value: 'Alison Johnsson' }]), one('Karl John III', 1, [{ value: 'Karl John III' }]), one('Zoe Maxwell', 4, [{ value: 'Zoe Maxwell' }])];
    const body = { filters: [{ field_id: '1', field_type: 'SINGLE_TEXT', match_type: 'contains', values: [{ value: 'John' }], type: 'text' }] };
    const app = mkApp([field(1, 'single_text', 'Full Name')]);
    expect(validateFilters(app, body.filters)).toEqual([{ field_id: 1, field_type: 'single_text', type: 'text', match_type: 'contains', values: [{ value: 'John' }] }]);
    expect(rows.filter((r) => recordMatches(r, app, validateFilters(app, body.filters), CTX)).map((r) => r.title)).toEqual(['John Doe', 'Alison Johnsson', 'Karl John III']);
  });

  it('Combined Filter: field 1 contains "John" AND status field 2 equal option 123', () => {
    const fields = [field(1, 'single_text', 'Name'), field(2, 'status', 'Status', { options: [{ id: 123, text: 'Open', means_completed: false }, { id: 124, text: 'Done', means_completed: true }] })];
    const rows = [
      mkRow('hit', { app_record_id: 1, values: { 1: [{ value: 'John' }], 2: [cat(123, 'Open')] } }),
      mkRow('wrong status', { app_record_id: 2, values: { 1: [{ value: 'Johnny' }], 2: [cat(124, 'Done')] } }),
      mkRow('wrong name', { app_record_id: 3, values: { 1: [{ value: 'Zoe' }], 2: [cat(123, 'Open')] } }),
    ];
    const body = {
      filters: [
        { field_id: '1', field_type: 'single_text', match_type: 'contains', values: [{ value: 'John' }], type: 'text' },
        { field_id: '2', field_type: 'status', match_type: 'equal', values: [{ value: 123 }], type: 'status' },
      ],
    };
    expect(docCase(fields, rows, body)).toBe('hit');
  });

  const examples: [title: string, fields: TapeField[], rows: ReturnType<typeof mkRow>[], filter: Record<string, unknown>, expected: string][] = [
    ['Multi Text', [field(1, 'multi_text', 'Notes')], [one('a', 1, [{ value: '<p>Met <b>John</b></p>' }]), one('b', 2, [{ value: '<p>Met Zoe</p>' }])],
      { field_id: '1', field_type: 'multi_text', match_type: 'contains', values: [{ value: 'John' }], type: 'text' }, 'a'],
    ['Number', [field(1, 'number', 'Amount')], [one('a', 1, [{ value: 12.33 }]), one('b', 2, [{ value: 12.34 }])],
      { field_id: '1', field_type: 'number', match_type: 'smaller', values: [{ value: 12.34 }], type: 'number' }, 'a'],
    ['Unique ID', [field(1, 'unique_id', 'ID')], [one('a', 999, undefined), one('b', 1000, undefined), one('c', 1001, undefined)],
      { field_id: '1', field_type: 'unique_id', match_type: 'larger_or_equal', values: [{ value: 1000 }], type: 'number' }, 'bc'],
    ['Single Category', [field(1, 'single_category', 'Stage', { options: [{ id: 1, text: 'New' }, { id: 2, text: 'Not Started' }, { id: 3, text: 'Won' }] })],
      [one('a', 1, [cat(1, 'New')]), one('b', 2, [cat(2, 'Not Started')]), one('c', 3, [cat(3, 'Won')])],
      { field_id: '1', field_type: 'single_category', match_type: 'any', values: [{ value: 1 }, { value: 'Not Started' }], type: 'category' }, 'ab'],
    ['Multi Category', [field(1, 'multi_category', 'Tags', { options: [{ id: 1, text: 'New' }, { id: 2, text: 'Not Started' }, { id: 3, text: 'Won' }] })],
      [one('a', 1, [cat(1, 'New'), cat(2, 'Not Started'), cat(3, 'Won')]), one('b', 2, [cat(1, 'New')])],
      { field_id: '1', field_type: 'multi_category', match_type: 'contains', values: [{ value: 1 }, { value: 'Not Started' }], type: 'category' }, 'a'],
    ['Status', [field(1, 'status', 'Status', { options: [{ id: 1, text: 'Open', means_completed: false }, { id: 2, text: 'Not Started', means_completed: false }, { id: 3, text: 'Done', means_completed: true }] })],
      [one('a', 1, [cat(1, 'Open')]), one('b', 2, [cat(2, 'Not Started')]), one('c', 3, [cat(3, 'Done')])],
      { field_id: '1', field_type: 'status', match_type: 'any', values: [{ value: 1 }, { value: 'Not Started' }], type: 'status' }, 'ab'],
    ['Single Relation', [field(1, 'single_relation', 'Company')], [one('a', 1, [rel(1)]), one('b', 2, [rel(2)])],
      { field_id: '1', field_type: 'single_relation', match_type: 'any', values: [{ value: 1 }], type: 'app' }, 'a'],
    ['Multi Relation', [field(1, 'multi_relation', 'Tasks')], [one('a', 1, [rel(1), rel(2), rel(3)]), one('b', 2, [rel(1)])],
      { field_id: '1', field_type: 'multi_relation', match_type: 'contains', values: [{ value: 1 }, { value: 2 }], type: 'app' }, 'a'],
    ['Single User', [field(1, 'single_user', 'Owner')], [one('a', 1, [user(1)]), one('b', 2, [user(2)])],
      { field_id: '1', field_type: 'single_user', match_type: 'any', values: [{ value: 1 }], type: 'contact' }, 'a'],
    ['Multi User', [field(1, 'multi_user', 'Team')], [one('a', 1, [user(2), user(1)]), one('b', 2, [user(2)])],
      { field_id: '1', field_type: 'multi_user', match_type: 'contains', values: [{ value: 1 }, { value: 2 }], type: 'contact' }, 'a'],
    ['Created By', [field(1, 'created_by', 'Created by')], [one('a', 1, undefined, { created_by: 1 }), one('b', 2, undefined, { created_by: 2 })],
      { field_id: '1', field_type: 'created_by', match_type: 'any', values: [{ value: 1 }], type: 'contact' }, 'a'],
    ['Last Modified By', [field(1, 'last_modified_by', 'Modified by')], [one('a', 1, undefined, { last_modified_by: 1 }), one('b', 2, undefined, { last_modified_by: 2 })],
      { field_id: '1', field_type: 'last_modified_by', match_type: 'any', values: [{ value: 1 }], type: 'contact' }, 'a'],
    ['Single Date', [field(1, 'single_date', 'Date')], [one('a', 1, [flatDate('2019-12-31 23:00:00')]), one('b', 2, [flatDate('2020-01-01 00:00:00')])],
      { field_id: '1', field_type: 'single_date', match_type: 'before', relative_date_type: 'exact_date', values: [{ value: { date: '2020-01-01T00:00:00.000Z' } }], type: 'date' }, 'a'],
    ['Range Date', [field(1, 'range_date', 'Period')],
      [one('a', 1, [flatDate('2019-12-20 00:00:00', '2020-01-05 00:00:00')]), one('b', 2, [flatDate('2020-12-31 00:00:00', '2021-01-10 00:00:00')]), one('c', 3, [flatDate('2021-01-01 00:00:00', '2021-02-01 00:00:00')])],
      { field_id: '1', field_type: 'range_date', match_type: 'within', relative_date_range_type: 'exact_range', values: [{ value: { date: '2020-01-01T00:00:00.000Z' } }], end_date: '2020-12-31T00:00:00.000Z', type: 'date' }, 'ab'],
    ['Created At (field)', [field(1, 'created_on', 'Created')], [one('a', 1, undefined, { created_on: '2019-12-31 23:59:59' }), one('b', 2, undefined, { created_on: '2020-01-01 00:00:00' })],
      { field_id: '1', field_type: 'created_on', match_type: 'on_or_after', relative_date_type: 'exact_date', values: [{ value: { date: '2020-01-01T00:00:00.000Z' } }], type: 'date' }, 'b'],
    ['Last Modified At (field)', [field(1, 'last_modified_on', 'Modified')],
      [one('a', 1, undefined, { last_modified_on: '2026-07-07 23:00:00' }), one('b', 2, undefined, { last_modified_on: '2026-07-08 00:00:00' })],
      { field_id: '1', field_type: 'last_modified_on', match_type: 'on_or_after', relative_date_type: 'num_weeks_before', values: [{ value: { offset_amount: 1 } }], type: 'date' }, 'b'],
    ['Calculation', [field(1, 'calculation', 'Score', { return_type: 'number' })], [one('a', 1, [{ value: 12 }]), one('b', 2, [{ value: 13 }])],
      { field_id: '1', field_type: 'calculation', match_type: 'smaller', values: [{ value: 12.34 }], type: 'calculation' }, 'a'],
    ['Multi Email', [field(1, 'multi_email', 'Email')], [one('a', 1, [{ id: 1, value: 'John.Doe@gmail.com', type: 'work' }]), one('b', 2, [{ id: 2, value: 'john.doe@gmail.com.evil', type: 'work' }])],
      { field_id: '1', field_type: 'multi_email', match_type: 'fully_includes', values: [{ value: 'john.doe@gmail.com' }], type: 'email' }, 'a'],
    ['Multi Phone', [field(1, 'multi_phone', 'Phone')], [one('a', 1, [{ id: 1, value: '+1 444 555', type: 'work' }, { id: 2, value: '+49 89 1', type: 'home' }]), one('b', 2, [{ id: 3, value: '0049 89', type: 'work' }])],
      { field_id: '1', field_type: 'multi_phone', match_type: 'starts_with', values: [{ value: '+49' }], type: 'phone' }, 'a'],
    ['Multi Link', [field(1, 'multi_link', 'Website')], [one('a', 1, [{ embed_id: 1, url: 'https://github.com/tape', type: 'link' }]), one('b', 2, [{ embed_id: 2, url: 'https://gitlab.com', type: 'link' }])],
      { field_id: '1', field_type: 'multi_link', match_type: 'contains', values: [{ value: 'github.com' }], type: 'embed' }, 'a'],
    ['Single Location', [field(1, 'single_location', 'Address')], [one('a', 1, [{ value: 'Unter den Linden 1, 10117 Berlin, Germany', city: 'Berlin' }]), one('b', 2, [{ value: 'Hessstr. 6, 80799 Munich, Germany', city: 'Munich' }])],
      { field_id: '1', field_type: 'single_location', match_type: 'contains', values: [{ value: 'Berlin' }], type: 'location' }, 'a'],
    ['Single Attachment', [field(1, 'single_attachment', 'Letter')], [one('a', 1, [file('Invoice-42.pdf')]), one('b', 2, [file('letter.pdf')])],
      { field_id: '1', field_type: 'single_attachment', match_type: 'contains', values: [{ value: 'invoice' }], type: 'file' }, 'a'],
    ['Multi Attachment', [field(1, 'multi_attachment', 'Docs')], [one('a', 1, [file('cv.pdf'), file('invoice.pdf')]), one('b', 2, [file('cv.pdf')])],
      { field_id: '1', field_type: 'multi_attachment', match_type: 'contains', values: [{ value: 'invoice' }], type: 'file' }, 'a'],
    ['Multi Image', [field(1, 'multi_image', 'Photos')], [one('a', 1, [file('photo_1.jpeg'), file('photo_2.png')]), one('b', 2, [file('photo.png.jpeg')])],
      { field_id: '1', field_type: 'multi_image', match_type: 'ends_with', values: [{ value: '.png' }], type: 'file' }, 'a'],
    ['Checklist', [field(1, 'checklist', 'Subtasks')], [one('a', 1, [{ id: 1, title: 'Design review', completed: false, assignee: null, due_at: null }]), one('b', 2, [{ id: 2, title: 'Code review', completed: false, assignee: null, due_at: null }])],
      { field_id: '1', field_type: 'checklist', entry_property: 'title', match_type: 'contains', values: [{ value: 'Design review' }], type: 'checklist' }, 'a'],
    ['Checklist — incomplete entries', [field(1, 'checklist', 'Subtasks')], [one('a', 1, [{ id: 1, title: 'x', completed: true }, { id: 2, title: 'y', completed: false }]), one('b', 2, [{ id: 3, title: 'z', completed: true }])],
      { field_id: '1', field_type: 'checklist', entry_property: 'status', match_type: 'equal', values: [{ value: false }], type: 'checklist' }, 'a'],
    ['Checklist — due within the next 7 days', [field(1, 'checklist', 'Subtasks')],
      [one('a', 1, [{ id: 1, title: 'x', completed: false, due_at: '2026-07-22 15:00' }]), one('b', 2, [{ id: 2, title: 'y', completed: false, due_at: '2026-07-23' }]), one('c', 3, [{ id: 3, title: 'z', completed: false, due_at: '2026-07-14' }])],
      { field_id: '1', field_type: 'checklist', entry_property: 'due_date', match_type: 'within', relative_date_range_type: 'next_num_days', values: [{ value: { offset_amount: 7 } }], type: 'checklist' }, 'a'],
    ['Checklist — assigned to me', [field(1, 'checklist', 'Subtasks')], [one('a', 1, [{ id: 1, title: 'x', assignee: { user_id: ME } }]), one('b', 2, [{ id: 2, title: 'y', assignee: { user_id: ZOE } }])],
      { field_id: '1', field_type: 'checklist', entry_property: 'assignee', match_type: 'equal', include_active_user: true, type: 'checklist' }, 'a'],
    ['view.md: status any [9001, 9002]', [field(1, 'status', 'Status', { options: [{ id: 9001, text: 'New', means_completed: false }, { id: 9002, text: 'Open', means_completed: false }, { id: 9003, text: 'Closed', means_completed: true }] })],
      [one('a', 1, [cat(9001, 'New')]), one('b', 2, [cat(9003, 'Closed')])],
      { field_id: 1, field_type: 'status', type: 'status', match_type: 'any', values: [{ value: 9001 }, { value: 9002 }] }, 'a'],
    ['view.md: single_user equal @me', [field(1, 'single_user', 'Owner')], [one('a', 1, [user(ME)]), one('b', 2, [user(ZOE)])],
      { field_id: 1, field_type: 'single_user', type: 'contact', match_type: 'equal', include_active_user: true }, 'a'],
    ['view.md: single_date within next_week', [field(1, 'single_date', 'Due')], [one('a', 1, [flatDate('2026-07-20 00:00:00')]), one('b', 2, [flatDate('2026-07-30 00:00:00')])],
      { field_id: 1, field_type: 'single_date', type: 'date', match_type: 'within', relative_date_range_type: 'next_week' }, 'a'],
  ];
  it.each(examples)('%s', (_title, fields, rows, filter, expected) => {
    expect(docCase(fields, rows, { filters: [filter] })).toBe(expected);
  });
});

// ---------------------------------------------------------------- normalization

describe('Tape filter engine: validateFilters normalizes', () => {
  it('field ids to numbers, field types to lower case, option labels to ids, bare dates to the nested form', () => {
    const out = validateFilters(APP, [
      { field_id: '5', field_type: 'Single_Category', type: 'category', match_type: 'any', values: [{ value: 'low' }, { value: 3 }, { value: '2' }] },
      { field_id: 7, type: 'status', match_type: 'equal', values: [{ value: ' DONE ' }] },
      { field_id: 14, field_type: 'single_date', type: 'date', match_type: 'equal', values: [{ value: '2026-07-15' }] },
      { field_id: 3, field_type: 'number', type: 'number', match_type: 'empty', values: [{ value: 1 }] },
      { field_id: 8, field_type: 'single_relation', type: 'app', match_type: 'any', values: [{ value: '100' }] },
    ]);
    expect(out).toEqual<TapeFilter[]>([
      { field_id: 5, field_type: 'single_category', type: 'category', match_type: 'any', values: [{ value: 1 }, { value: 3 }, { value: 2 }] },
      { field_id: 7, field_type: 'status', type: 'status', match_type: 'equal', values: [{ value: 13 }] },
      { field_id: 14, field_type: 'single_date', type: 'date', match_type: 'equal', values: [{ value: { date: '2026-07-15' } }] },
      { field_id: 3, field_type: 'number', type: 'number', match_type: 'empty' },
      { field_id: 8, field_type: 'single_relation', type: 'app', match_type: 'any', values: [{ value: 100 }] },
    ]);
  });

  it('keeps the operand keys', () => {
    const [f] = validateFilters(APP, [{ field_id: 28, field_type: 'checklist', type: 'checklist', entry_property: 'due_date', match_type: 'within', relative_date_range_type: 'next_num_days', values: [{ value: { offset_amount: 7 } }] }]);
    expect(f).toEqual({ field_id: 28, field_type: 'checklist', type: 'checklist', entry_property: 'due_date', match_type: 'within', relative_date_range_type: 'next_num_days', values: [{ value: { offset_amount: 7 } }] });
    const [u] = validateFilters(APP, [{ field_id: 10, type: 'contact', match_type: 'any', values: [{ value: ZOE }], include_active_user: true }]);
    expect(u).toEqual({ field_id: 10, field_type: 'single_user', type: 'contact', match_type: 'any', values: [{ value: ZOE }], include_active_user: true });
  });

  it('accepts created_at / last_modified_at as field types of the created_on / last_modified_on fields', () => {
    const app = mkApp([field(1, 'created_at', 'Created')]);
    const [f] = validateFilters(app, [{ field_id: 1, field_type: 'created_on', type: 'date', match_type: 'equal', relative_date_type: 'today' }]);
    expect(f!.field_type).toBe('created_on');
  });
});

// ---------------------------------------------------------------- 400s

describe('Tape filter engine: validation errors (400 validation_error)', () => {
  const text = { field_id: 1, field_type: 'single_text', type: 'text' };
  const date = { field_id: 14, field_type: 'single_date', type: 'date' };
  const checklist = { field_id: 28, field_type: 'checklist', type: 'checklist' };

  it.each<[string, unknown, string[]]>([
    ['filters is not an array', { field_id: 1 }, ['"filters" must be an array']],
    ['a filter is not an object', ['x'], ['filters[0]', 'must be a filter object']],
    ['type missing', [{ field_id: 1, field_type: 'single_text', match_type: 'contains', values: [{ value: 'x' }] }], ['filters[0]', '"type" is required']],
    ['the message names the index and the field', [{ ...text, match_type: 'empty' }, { field_id: 3, field_type: 'number', type: 'number', match_type: 'contains', values: [{ value: 1 }] }], ['filters[1] (field 3 "Amount", number)', 'match_type "contains" is not supported for number']],
    ['type of another field type', [{ field_id: 12, field_type: 'created_by', type: 'created_by', match_type: 'any', values: [{ value: 1 }] }], ['"type" must be "contact"']],
    ['link type is embed, not link', [{ field_id: 23, field_type: 'multi_link', type: 'link', match_type: 'contains', values: [{ value: 'x' }] }], ['"type" must be "embed"']],
    ['unique_id type is number', [{ field_id: 4, field_type: 'unique_id', type: 'unique_id', match_type: 'equal', values: [{ value: 1 }] }], ['"type" must be "number"']],
    ['field_id missing', [{ field_type: 'single_text', type: 'text', match_type: 'empty' }], ['"field_id" is required']],
    ['field_id not numeric', [{ ...text, field_id: 'name', match_type: 'empty' }], ['"field_id" must be a numeric field id']],
    ['field of another app', [{ ...text, field_id: 999, match_type: 'empty' }], ['field 999 is not a field of app 1']],
    ['field_type does not match the field', [{ ...text, field_type: 'multi_text', match_type: 'empty' }], ['"field_type" is "multi_text" but the field is "single_text"']],
    ['unknown key', [{ ...text, match_type: 'empty', foo: 1 }], ['unknown key "foo"']],
    ['match_type missing', [{ ...text, values: [{ value: 'x' }] }], ['"match_type" is required']],
    ['text: larger', [{ ...text, match_type: 'larger', values: [{ value: 'x' }] }], ['match_type "larger" is not supported for single_text']],
    ['single_category: contains', [{ field_id: 5, field_type: 'single_category', type: 'category', match_type: 'contains', values: [{ value: 1 }] }], ['"contains" is not supported']],
    ['multi_category: not_equal', [{ field_id: 6, field_type: 'multi_category', type: 'category', match_type: 'not_equal', values: [{ value: 21 }] }], ['"not_equal" is not supported']],
    ['status: completed on a category', [{ field_id: 5, field_type: 'single_category', type: 'category', match_type: 'completed' }], ['"completed" is not supported']],
    ['multi_email: equal', [{ field_id: 21, field_type: 'multi_email', type: 'email', match_type: 'equal', values: [{ value: 'a@b.c' }] }], ['"equal" is not supported']],
    ['multi_link: equal', [{ field_id: 23, field_type: 'multi_link', type: 'embed', match_type: 'equal', values: [{ value: 'x' }] }], ['no exact-match arm']],
    ['multi_link: fully_includes', [{ field_id: 23, field_type: 'multi_link', type: 'embed', match_type: 'fully_includes', values: [{ value: 'x' }] }], ['no exact-match arm']],
    ['location: starts_with', [{ field_id: 24, field_type: 'single_location', type: 'location', match_type: 'starts_with', values: [{ value: 'x' }] }], ['"starts_with" is not supported']],
    ['values missing', [{ ...text, match_type: 'contains' }], ['needs one value']],
    ['values not an array', [{ ...text, match_type: 'contains', values: { value: 'x' } }], ['"values" must be an array']],
    ['value entry without value', [{ ...text, match_type: 'contains', values: ['x'] }], ['values[0] must be an object {"value": …}']],
    ['blank text', [{ ...text, match_type: 'contains', values: [{ value: '  ' }] }], ['must not be blank']],
    ['two values for a text operator', [{ ...text, match_type: 'contains', values: [{ value: 'a' }, { value: 'b' }] }], ['exactly one value']],
    ['number: not a number', [{ field_id: 3, field_type: 'number', type: 'number', match_type: 'larger', values: [{ value: 'ten' }] }], ['must be a bare number']],
    ['category: unknown label', [{ field_id: 5, field_type: 'single_category', type: 'category', match_type: 'any', values: [{ value: 'Urgent' }] }], ['no option is labelled "Urgent"', '1 "Low"']],
    ['category: ambiguous label', [{ field_id: 6, field_type: 'multi_category', type: 'category', match_type: 'any', values: [{ value: 'Blue' }] }], ['matches 2 options', 'use the option id']],
    ['category: unknown id', [{ field_id: 5, field_type: 'single_category', type: 'category', match_type: 'equal', values: [{ value: 99 }] }], ['99 is not an option of this field']],
    ['single equal with two options', [{ field_id: 5, field_type: 'single_category', type: 'category', match_type: 'equal', values: [{ value: 1 }, { value: 2 }] }], ['exactly one option', 'use "any"/"none"']],
    ['any without values', [{ field_id: 8, field_type: 'single_relation', type: 'app', match_type: 'any' }], ['needs at least one record id']],
    ['relation: not an id', [{ field_id: 9, field_type: 'multi_relation', type: 'app', match_type: 'any', values: [{ value: 'Tape GmbH' }] }], ['values[0] must be a record id']],
    ['user: include_active_user with not_empty', [{ field_id: 10, field_type: 'single_user', type: 'contact', match_type: 'not_empty', include_active_user: true }], ['cannot be combined with match_type "not_empty"']],
    ['user: include_active_user not boolean', [{ field_id: 10, field_type: 'single_user', type: 'contact', match_type: 'equal', include_active_user: 'yes' }], ['must be a boolean']],
    ['include_active_user on a text field', [{ ...text, match_type: 'empty', include_active_user: true }], ['"include_active_user" is not accepted for single_text']],
    ['weekday on a text field', [{ ...text, match_type: 'empty', weekday: 'monday' }], ['"weekday" is not accepted for single_text']],
    ['date: exact_date without date', [{ ...date, match_type: 'equal' }], ['needs a date']],
    ['date: epoch number', [{ ...date, match_type: 'equal', values: [{ value: { date: 1577836800 } }] }], ['numeric epoch is not honored']],
    ['date: relative token', [{ ...date, match_type: 'after', values: [{ value: '-7d' }] }], ['"-7d" is not a valid ISO-8601 date']],
    ['date: impossible day', [{ ...date, match_type: 'after', values: [{ value: '2026-02-30' }] }], ['is not a valid ISO-8601 date']],
    ['date: unknown relative_date_type', [{ ...date, match_type: 'equal', relative_date_type: 'last_week' }], ['"relative_date_type" must be one of']],
    ['date: num_* without offset_amount', [{ ...date, match_type: 'equal', relative_date_type: 'num_days_before', offset_amount: 3 }], ['needs an integer values[0].value.offset_amount', 'belongs inside values[0].value']],
    ['date: negative offset', [{ ...date, match_type: 'equal', relative_date_type: 'num_days_before', values: [{ value: { offset_amount: -1 } }] }], ['non-negative integer']],
    ['date: within without range type', [{ ...date, match_type: 'within' }], ['needs "relative_date_range_type"']],
    ['date: exact_range without end_date', [{ ...date, match_type: 'within', relative_date_range_type: 'exact_range', values: [{ value: { date: '2026-01-01' } }] }], ['top-level "end_date"']],
    ['date: exact_range ending before it starts', [{ ...date, match_type: 'within', relative_date_range_type: 'exact_range', values: [{ value: { date: '2026-01-02' } }], end_date: '2026-01-01' }], ['lies before the range start']],
    ['date: on_weekday without weekday', [{ ...date, match_type: 'on_weekday' }], ['needs "weekday"']],
    ['date: unknown weekday', [{ ...date, match_type: 'on_weekday', weekday: 'funday' }], ['"weekday" must be one of']],
    ['date: in_quarter_of_year without quarter', [{ ...date, match_type: 'in_quarter_of_year' }], ['needs "quarter_of_year"']],
    ['date: bad month', [{ ...date, match_type: 'in_month_of_year', month_of_year: 'jan' }], ['"month_of_year" must be one of']],
    ['calculation (number): on_weekday', [{ field_id: 18, field_type: 'calculation', type: 'calculation', match_type: 'on_weekday', weekday: 'monday' }], ['only valid when the calculation returns a date']],
    ['calculation (text): today', [{ field_id: 19, field_type: 'calculation', type: 'calculation', match_type: 'equal', relative_date_type: 'today' }], ['only valid when the calculation returns a date']],
    ['calculation (number): contains', [{ field_id: 18, field_type: 'calculation', type: 'calculation', match_type: 'contains', values: [{ value: '1' }] }], ['does not apply to a calculation returning number']],
    ['checklist: no entry_property with contains', [{ ...checklist, match_type: 'contains', values: [{ value: 'x' }] }], ['match_type "contains" is not supported for checklist (no entry_property)']],
    ['checklist: unknown entry_property', [{ ...checklist, entry_property: 'description', match_type: 'empty' }], ['"entry_property" must be one of']],
    ['checklist: title equal', [{ ...checklist, entry_property: 'title', match_type: 'equal', values: [{ value: 'x' }] }], ['not supported for checklist title']],
    ['checklist: status not_equal', [{ ...checklist, entry_property: 'status', match_type: 'not_equal', values: [{ value: true }] }], ['not supported for checklist status']],
    ['checklist: status not boolean', [{ ...checklist, entry_property: 'status', match_type: 'equal', values: [{ value: 'done' }] }], ['takes a boolean value']],
    ['checklist: include_active_user on title', [{ ...checklist, entry_property: 'title', match_type: 'contains', values: [{ value: 'x' }], include_active_user: true }], ['valid only with entry_property "assignee"']],
    ['checklist: include_active_user with empty', [{ ...checklist, entry_property: 'assignee', match_type: 'empty', include_active_user: true }], ['valid only with entry_property "assignee"']],
    ['checklist: due_date exact_range', [{ ...checklist, entry_property: 'due_date', match_type: 'within', relative_date_range_type: 'exact_range', values: [{ value: { date: '2026-01-01' } }] }], ['"exact_range" is not available for checklist']],
    ['checklist: weekday', [{ ...checklist, entry_property: 'due_date', match_type: 'equal', relative_date_type: 'today', weekday: 'monday' }], ['"weekday" is not accepted for checklist']],
    ['checklist: relative_date_type on title', [{ ...checklist, entry_property: 'title', match_type: 'empty', relative_date_type: 'today' }], ['valid only with entry_property "due_date"']],
    ['entry_property on a text field', [{ ...text, match_type: 'empty', entry_property: 'title' }], ['"entry_property" is not accepted for single_text']],
    ['file: a file id', [{ field_id: 26, field_type: 'multi_attachment', type: 'file', match_type: 'equal', values: [{ value: 101 }] }], ['never on file ids']],
    ['created_at: equal', [{ type: 'created_at', match_type: 'equal', values: [{ value: { date: '2026-07-01T00:00:00Z' } }] }], ['created_at metadata filter', 'match_type "equal" is not supported']],
    ['created_at: empty', [{ type: 'created_at', match_type: 'empty' }], ['match_type "empty" is not supported']],
    ['created_at: relative', [{ type: 'created_at', match_type: 'after', relative_date_type: 'num_days_before', values: [{ value: { date: '2026-07-01T00:00:00Z', offset_amount: 1 } }] }], ['only absolute dates']],
    ['created_at: bare scalar', [{ type: 'created_at', match_type: 'after', values: [{ value: '2026-07-01T00:00:00Z' }] }], ['the match value is nested']],
    ['created_at: missing date', [{ type: 'created_at', match_type: 'after', values: [{ value: {} }] }], ['values[0].value.date is missing']],
    ['created_at: unparseable date', [{ type: 'last_modified_at', match_type: 'after', values: [{ value: { date: 'yesterday' } }] }], ['not a valid ISO-8601 timestamp']],
    ['created_at: year 0', [{ type: 'created_at', match_type: 'after', values: [{ value: { date: '0000-01-01T00:00:00Z' } }] }], ['year between 1 and 9999']],
    ['app_record_id: empty without value', [{ type: 'app_record_id', match_type: 'empty' }], ['a numeric values[0].value is required']],
    ['app_record_id: not numeric', [{ type: 'app_record_id', match_type: 'equal', values: [{ value: 'abc' }] }], ['must be a bare number']],
    ['app_record_id: contains', [{ type: 'app_record_id', match_type: 'contains', values: [{ value: 1 }] }], ['"contains" is not supported']],
  ])('%s', (_name, filters, fragments) => rejects(filters, ...fragments));

  it('view filters: field_type is required and metadata filters are refused', () => {
    expect(() => validateFilters(APP, [{ field_id: 1, type: 'text', match_type: 'empty' }], { forView: true })).toThrow(/"field_type" is required for view filters/);
    expect(() => validateFilters(APP, [{ type: 'app_record_id', match_type: 'equal', values: [{ value: 1 }] }], { forView: true })).toThrow(/view filters accept field filters only/);
    expect(validateFilters(APP, [{ field_id: 1, field_type: 'single_text', type: 'text', match_type: 'empty' }], { forView: true })).toHaveLength(1);
  });
});
