import { describe, expect, it } from 'vitest';
import { loopbackServer } from '../helpers/loopback';
import { execute } from '../../shared/core/execute';
import type { TapeRecordRow } from '../../infra/twins/tape/model';
import { valueText, type AppRecord } from '../../functions/dbapp/fields';
import { harness, SANDBOX_KEYS, type HarnessOptions } from '../helpers/harness';
import { createClock } from '../../infra/twins/kit';
import { DEMO_TODAY } from '../../infra/twins/tape/demo';

const json = { query: 'format=json' };
/** The Tape twin started on its seed's reference day, where the seed's dates are as written (infra/twins/kit/seed-day.ts). */
const onSeedDay = { twin: { clock: createClock(DEMO_TODAY) } };
const LEADS = 901;
const DEALS = 902;
// Demo field ids (infra/twins/tape/demo.ts): Leads 9001-9014, Deals 9015-9025.
const D = { deal_name: 9015, lead: 9016, amount: 9017, stage: 9018, priority: 9019, products: 9020, close_date: 9021, contract_period: 9022, account_manager: 9023, next_steps: 9024, notes: 9025 };

/** The harness with every request to Tape recorded. */
async function setup(opts: HarnessOptions = {}) {
  const h = await harness(opts);
  const sent = h.recordRequests('dbapp');
  const rows = (appId: number) => [...h.tape.state.records.values()].filter((r) => r.app_id === appId && !r.deleted_on && !r.purged);
  const row = (id: number) => h.tape.state.records.get(id)!;
  /** Requests that change something at Tape (reads over POST excluded). */
  const writes = () => sent.filter((s) => s.method !== 'GET' && !s.path.startsWith('/v1/record/filter/') && !/\/ref\//.test(s.path));
  return { ...h, sent, rows, row, writes };
}

type H = Awaited<ReturnType<typeof setup>>;
const optionId = (r: TapeRecordRow, fieldId: number) => (r.values.get(fieldId)?.[0]?.value as { id: number } | undefined)?.id;
const plain = (r: TapeRecordRow, fieldId: number) => r.values.get(fieldId)?.[0]?.value;

/** A twin request with the owner's key (test setup beside the tools). */
async function tape(h: H, method: string, path: string, body?: unknown) {
  const res = await h.tape.fetch(`https://api.tapeapp.com${path}`, {
    method,
    headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}`, 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return (await res.json()) as Record<string, unknown>;
}

function expectInvalid(r: { status: number; body: { error?: { code: string; details: Record<string, unknown>; message: string } } }, parameter: string) {
  expect(r.status).toBe(400);
  expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter } });
  return r.body.error!;
}

// Files "on the internet" for attachment URLs: reachable only because ALLOW_HTTP_HOSTS lists 127.0.0.1.
const pdf = Buffer.from('%PDF-1.4 signed order form');
const base = loopbackServer((req, res) => {
  if (req.url === '/order-form.pdf') res.writeHead(200, { 'content-type': 'application/pdf' }).end(pdf);
  else res.writeHead(404).end();
});

describe('getRecord', () => {
  it('returns the spec record in JSON and a compact text', async () => {
    const h = await setup(onSeedDay);
    const r = await h.call('dbapp/getRecord', { record_id: 5300 }, json);
    expect(r.status).toBe(200);
    const rec = r.body.data as AppRecord;
    expect({ ...rec, fields: rec.fields.slice(0, 4) }).toEqual({
      record_id: 5300,
      app_record_id: 120,
      app_id: DEALS,
      title: 'Copperline Media — Automations',
      record_url: 'https://tapeapp.com/tape/record/5300',
      created_by: { user_id: 10000, name: 'John Doe' },
      created_on: '2025-02-25 23:35:00',
      fields: [
        { field_id: D.deal_name, external_id: 'deal_name', label: 'Deal name', type: 'single_text', value: 'Copperline Media — Automations' },
        { field_id: D.lead, external_id: 'lead', label: 'Lead', type: 'single_relation', value: [{ record_id: 5180, app_id: LEADS, title: 'Jonas Moreau' }] },
        { field_id: D.amount, external_id: 'amount', label: 'Amount', type: 'number', value: 93500, unit: '$', display: '$93,500.00' },
        { field_id: D.stage, external_id: 'stage', label: 'Stage', type: 'status', value: [{ id: 2, text: 'Proposal' }] },
      ],
    });
    expect(rec.fields.find((f) => f.external_id === 'close_date')!.value).toEqual({ start: '2025-04-17 00:00:00', end: null });
    const text = (await h.call('dbapp/getRecord', { record_id: 5300 })).body.data;
    expect(text).toBe(
      '#5300 Copperline Media — Automations (app #902, no. 120 · created 2025-02-25 23:35 by John Doe) https://tapeapp.com/tape/record/5300\n' +
        'Deal name: Copperline Media — Automations · Lead: Jonas Moreau #5180 · Amount: $93,500.00 · Stage: Proposal · Priority: High · ' +
        'Products: Core platform, Onboarding package · Close date: 2025-04-17 · Contract period: 2025-04-17 → 2026-04-17 · Account manager: John Doe',
    );
  });

  it('limits the fields by field_ids (ids or external ids) and names an unknown key', async () => {
    const h = await setup();
    const r = await h.call('dbapp/getRecord', { record_id: 5300, field_ids: ['stage', D.amount, 'next_steps'] }, json);
    expect(r.body.data.fields.map((f: { external_id: string }) => f.external_id)).toEqual(['amount', 'stage']);
    const bad = expectInvalid(await h.call('dbapp/getRecord', { record_id: 5300, field_ids: ['stage', 'stagee'] }), 'field_ids.1');
    expect(bad.message).toContain('deal_name (9015)');
  });

  it('picks calculation or basic fields with field_types', async () => {
    const h = await setup();
    await tape(h, 'PUT', `/v1/app/${DEALS}`, { fields: [{ field_type: 'calculation', config: { label: 'Amount x2', settings: { script: `@[Amount](field_${D.amount}) * 2` } } }] });
    const calc = await h.call('dbapp/getRecord', { record_id: 5300, field_types: 'calculation' }, json);
    expect(calc.body.data.fields).toEqual([expect.objectContaining({ label: 'Amount x2', type: 'calculation', value: 187000 })]);
    const basic = await h.call('dbapp/getRecord', { record_id: 5300, field_types: 'basic' }, json);
    expect(basic.body.data.fields.some((f: { type: string }) => f.type === 'calculation')).toBe(false);
    expect(basic.body.data.fields).toHaveLength(9);
  });

  it('verbose text shows field ids, external ids and types', async () => {
    const h = await setup();
    const text = (await h.call('dbapp/getRecord', { record_id: 5300, verbose: true })).body.data;
    expect(text).toContain('Stage [#9018 stage status]: Proposal (2)');
    expect(text).toContain('Account manager [#9023 account_manager single_user]: John Doe #10000');
  });

  it('maps Tape\'s errors: unknown → NOT_FOUND; deleted → NOT_FOUND naming record_id and how to restore it, on every record tool', async () => {
    const h = await setup();
    const missing = await h.call('dbapp/getRecord', { record_id: 999999 });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('NOT_FOUND');
    await h.call('dbapp/deleteRecord', { record_id: 5300 });
    const calls: [string, Record<string, unknown>][] = [
      ['getRecord', { record_id: 5300 }],
      ['updateRecord', { record_id: 5300, fields: { amount: 5 } }],
      ['deleteRecord', { record_id: 5300 }],
      ['getRecordRevisions', { record_id: 5300 }],
      ['listRecordComments', { record_id: 5300 }],
      ['createRecordComment', { record_id: 5300, value: 'hello' }],
    ];
    for (const [tool, params] of calls) {
      const r = await h.call(`dbapp/${tool}`, params);
      expect(r.status, tool).toBe(404);
      expect(r.body.error, tool).toMatchObject({ code: 'NOT_FOUND', details: { parameter: 'record_id', record_id: 5300, deleted: true } });
      expect(r.body.error.message, tool).toMatch(/Record is deleted\(5300\).*restoreRecord with record_id 5300 brings it back/);
    }
    const printed = await h.call('dbapp/restoreRecord', { record_id: '#5300' }, json);
    expect(printed.body.data).toMatchObject({ record_id: 5300 });
  });
});

describe('listRecords', () => {
  it('pages an app: default 100, the cursor while there is more, none on the last page', async () => {
    const h = await setup();
    const first = await h.call('dbapp/listRecords', { app_id: LEADS }, json);
    expect(first.body.data.total).toBe(180);
    expect(first.body.data.records).toHaveLength(100);
    expect(first.body.data.records[0].record_id).toBe(5180);
    expect(h.sent.find((s) => s.path === `/v1/record/app/${LEADS}`)!.query.get('limit')).toBe('100');
    const cursor = first.body.data.cursor;
    expect(typeof cursor).toBe('string');
    const second = await h.call('dbapp/listRecords', { app_id: LEADS, cursor }, json);
    expect(second.body.data.records).toHaveLength(80);
    expect(second.body.data.records[0].record_id).toBe(5080);
    expect(second.body.data.cursor).toBeNull();
    const text = (await h.call('dbapp/listRecords', { app_id: LEADS, limit: 2 })).body.data as string;
    const lines = text.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^#5180 Jonas Moreau · Company: Copperline Media · Email: jonas\.moreau@copperlinemedi\.com · /);
    expect(lines[2]).toMatch(/^showing 2 of 180 — pass cursor ".+" for the next page · open one at https:\/\/tapeapp\.com\/tape\/record\/<record_id>$/);
    const last = (await h.call('dbapp/listRecords', { app_id: LEADS, cursor })).body.data as string;
    expect(last.split('\n').at(-1)).toBe('showing 80 of 180 (last page) · open one at https://tapeapp.com/tape/record/<record_id>');
  });

  it('takes limit up to 500 and refuses more', async () => {
    const h = await setup();
    const r = await h.call('dbapp/listRecords', { app_id: LEADS, limit: 500 }, json);
    expect(r.body.data.records).toHaveLength(180);
    expect(r.body.data.cursor).toBeNull();
    expectInvalid(await h.call('dbapp/listRecords', { app_id: LEADS, limit: 501 }), 'limit');
  });

  it('count_only answers {total, count_only: true}', async () => {
    const h = await setup();
    expect((await h.call('dbapp/listRecords', { app_id: DEALS, count_only: true }, json)).body.data).toEqual({ total: 120, count_only: true });
    expect((await h.call('dbapp/listRecords', { app_id: DEALS, count_only: true })).body.data).toBe('120 records');
  });

  it('view_id wins over app_id: the view\'s records in its order', async () => {
    const h = await setup();
    const view = await h.call('dbapp/createView', { app_id: DEALS, name: 'Won deals', layout: 'table', filters: [{ field_label: 'Stage', match_type: 'any', values: [{ value: 4 }] }], sort_by: D.amount, sort_desc: true }, json);
    const viewId = view.body.data.view.id;
    const r = await h.call('dbapp/listRecords', { app_id: LEADS, view_id: viewId }, json);
    const won = h.rows(DEALS).filter((x) => optionId(x, D.stage) === 4);
    expect(r.body.data.total).toBe(won.length);
    expect(r.body.data.records.every((x: AppRecord) => x.app_id === DEALS)).toBe(true);
    const amounts = r.body.data.records.map((x: AppRecord) => x.fields.find((f) => f.external_id === 'amount')?.value as number);
    expect(amounts).toEqual([...amounts].sort((a, b) => b - a));
    expect(h.sent.some((s) => s.path === `/v1/record/view/${viewId}` && s.query.get('limit') === '100')).toBe(true);
    expect(h.sent.some((s) => s.path === `/v1/record/app/${LEADS}`)).toBe(false);
    // field_ids are resolved against the view's app (Deals), not app_id.
    const trimmed = await h.call('dbapp/listRecords', { app_id: LEADS, view_id: viewId, field_ids: ['stage'], limit: 1 }, json);
    expect(trimmed.body.data.records[0].fields).toEqual([{ field_id: D.stage, external_id: 'stage', label: 'Stage', type: 'status', value: [{ id: 4, text: 'Won' }] }]);
  });

  it('sorts an app listing by a field given by id or external_id', async () => {
    const h = await setup();
    const r = await h.call('dbapp/listRecords', { app_id: DEALS, sort_by: 'amount', sort_desc: true, limit: 5, field_ids: ['amount'] }, json);
    const amounts = r.body.data.records.map((x: AppRecord) => x.fields[0]!.value);
    const top = h.rows(DEALS).map((x) => plain(x, D.amount) as number).sort((a, b) => b - a).slice(0, 5);
    expect(amounts).toEqual(top);
    expect(h.sent.find((s) => s.path === `/v1/record/app/${DEALS}`)!.query.get('sort_by')).toBe('amount');
    expect(r.body.data.records[0].fields).toHaveLength(1);
  });

  it('refuses missing scope, sort_by with a view, and unknown field keys before listing', async () => {
    const h = await setup();
    expectInvalid(await h.call('dbapp/listRecords', {}), 'app_id');
    expectInvalid(await h.call('dbapp/listRecords', { view_id: 500, sort_by: 'amount' }), 'sort_by');
    expectInvalid(await h.call('dbapp/listRecords', { app_id: DEALS, field_ids: ['amount', 'amnt'] }), 'field_ids.1');
    expectInvalid(await h.call('dbapp/listRecords', { app_id: DEALS, sort_by: 'amnt' }), 'sort_by');
    expect(h.sent.some((s) => s.path.startsWith('/v1/record/'))).toBe(false);
  });

  it('verbose lines carry metadata, links and field ids', async () => {
    const h = await setup(onSeedDay);
    const text = (await h.call('dbapp/listRecords', { app_id: DEALS, limit: 1, verbose: true })).body.data as string;
    expect(text.split('\n')[0]).toMatch(/^#5300 Copperline Media — Automations · app #902, no\. 120 · created 2025-02-25 23:35 by John Doe · https:\/\/tapeapp\.com\/tape\/record\/5300 · Deal name \[#9015 deal_name single_text\]: /);
  });

  it('default text of 100 records keeps every non-empty value and is at least 3x smaller than Tape\'s JSON', async () => {
    const h = await setup();
    const raw = await (await h.tape.fetch(`https://api.tapeapp.com/v1/record/app/${LEADS}?limit=100`, { headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}` } })).text();
    const text = (await h.call('dbapp/listRecords', { app_id: LEADS })).body.data as string;
    const data = (await h.call('dbapp/listRecords', { app_id: LEADS }, json)).body.data as { records: AppRecord[] };
    // A rough tokenizer: words, numbers and single punctuation marks (the benchmark uses a real one).
    const tokens = (s: string) => (s.match(/[A-Za-z]+|\d+|[^\sA-Za-z\d]/g) ?? []).length;
    expect(tokens(raw) / tokens(text)).toBeGreaterThan(3);
    const lines = text.split('\n');
    data.records.forEach((rec, i) => {
      expect(lines[i]!.startsWith(`#${rec.record_id} ${rec.title} · `)).toBe(true);
      for (const f of rec.fields) expect(lines[i]).toContain(f.display ?? valueText(f, { list: true }));
    });
  });
});

describe('createRecord', () => {
  it('converts every input form to Tape\'s and answers {record_id, record_url}', async () => {
    const h = await setup();
    const r = await h.call(
      'dbapp/createRecord',
      {
        app_id: DEALS,
        fields: {
          deal_name: 'Orbit Telecom — Analytics add-on',
          lead: [5180],
          amount: { value: '18250.50', currency: 'USD' },
          stage: ['negotiation'],
          priority: [3],
          products: ['Automations', 'Premium support'],
          close_date: '2025-06-30 00:00:00',
          contract_period: { start: '2025-07-01 00:00:00', end: '2026-06-30 00:00:00' },
          account_manager: [10001],
          next_steps: [{ title: 'Send proposal', due: '2025-06-01', assignee: 10000 }, { title: 'Legal review', completed: true, description: 'MSA v3' }],
          notes: '<p>Budget approved.</p>',
        },
      },
      json,
    );
    expect(r.status).toBe(200);
    const id = r.body.data.record_id;
    expect(r.body.data).toEqual({ record_id: id, record_url: `https://tapeapp.com/tape/record/${id}` });
    const row = h.row(id);
    expect(row.app_id).toBe(DEALS);
    expect(plain(row, D.amount)).toBe(18250.5);
    expect(optionId(row, D.stage)).toBe(3);
    expect(optionId(row, D.priority)).toBe(3);
    expect(row.values.get(D.products)!.map((v) => (v.value as { id: number }).id)).toEqual([2, 4]);
    expect(row.values.get(D.close_date)![0]).toMatchObject({ start: '2025-06-30 00:00:00' });
    expect(row.values.get(D.contract_period)![0]).toMatchObject({ start: '2025-07-01 00:00:00', end: '2026-06-30 00:00:00' });
    expect((plain(row, D.lead) as { record_id: number }).record_id).toBe(5180);
    expect((plain(row, D.account_manager) as { user_id: number }).user_id).toBe(10001);
    expect(row.values.get(D.next_steps)).toEqual([
      expect.objectContaining({ title: 'Send proposal', due_at: '2025-06-01', completed: false, assignee: expect.objectContaining({ user_id: 10000 }) }),
      expect.objectContaining({ title: 'Legal review', completed: true, description: 'MSA v3', assignee: null }),
    ]);
    const text = (await h.call('dbapp/createRecord', { app_id: DEALS, fields: { deal_name: 'Tiny deal', stage: 'Discovery' } })).body.data;
    expect(text).toMatch(/^created record #\d+ in app #902 \(set deal_name, stage\) https:\/\/tapeapp\.com\/tape\/record\/\d+$/);
  });

  it('writes the contact, link and location forms of the Leads app', async () => {
    const h = await setup();
    const r = await h.call(
      'dbapp/createRecord',
      {
        app_id: LEADS,
        fields: {
          name: 'Ada Lovelace',
          email: [{ type: 'home', email: 'ada@example.com' }],
          phone: [{ type: 'mobile', phone: '+44 20 7946 0000' }],
          website: [{ url: 'https://ada.example', title: 'Ada' }],
          address: '10 St James Square, London',
          status: ['New'],
          first_contact: '2025-03-01 00:00:00',
        },
        id_only: false,
      },
      json,
    );
    const rec = r.body.data as AppRecord;
    const v = (ext: string) => rec.fields.find((f) => f.external_id === ext)?.value;
    expect(rec.title).toBe('Ada Lovelace');
    expect(rec.app_id).toBe(LEADS);
    expect(v('email')).toEqual([{ type: 'home', value: 'ada@example.com' }]);
    expect(v('phone')).toEqual([{ type: 'mobile', value: '+44 20 7946 0000' }]);
    expect(v('website')).toEqual([{ url: 'https://ada.example', title: 'Ada' }]);
    expect(v('address')).toBe('10 St James Square, London');
    expect(v('first_contact')).toEqual({ start: '2025-03-01 00:00:00', end: null });
    const text = (await h.call('dbapp/createRecord', { app_id: LEADS, fields: { name: 'Bo', status: [1] }, id_only: false })).body.data as string;
    expect(text).toMatch(/^created record\n#\d+ Bo \(app #901, no\. 182 · created .+\) https:\/\/tapeapp\.com\/tape\/record\/\d+\nName: Bo · Status: New$/);
  });

  it('refuses invalid values before anything reaches Tape', async () => {
    const h = await setup();
    const before = h.tape.state.records.size;
    const cases: [Record<string, unknown>, string, string][] = [
      [{ deal_name: 'x', stage: ['Closed'] }, 'fields.stage.0', '1 "Discovery", 2 "Proposal", 3 "Negotiation", 4 "Won", 5 "Lost"'],
      [{ deal_name: 'x', stage: [1], close_date: { start: '2025-06-30 00:00:00' } }, 'fields.close_date', 'not an object with "start"'],
      [{ deal_name: 'x', stage: [1], close_date: '2025-06-30' }, 'fields.close_date', 'Write "2025-06-30 00:00:00"'],
      [{ deal_name: 'x', stage: [1], next_steps: [{ text: 'Call' }] }, 'fields.next_steps.0.text', 'use "title", not "text"'],
      [{ deal_name: 'x', stage: [1], next_steps: [{ title: 'Call', checked: true }] }, 'fields.next_steps.0.checked', 'use "completed", not "checked"'],
      [{ deal_name: 'x', stage: [1], amount: { value: '10', currency: 'EUR' } }, 'fields.amount.currency', 'holds amounts in $'],
      [{ deal_name: 'x', stage: [1], dealname: 'y' }, 'fields.dealname', 'deal_name (9015)'],
      [{ stage: [1] }, 'fields.deal_name', 'required'],
    ];
    for (const [fields, parameter, text] of cases) {
      const err = expectInvalid(await h.call('dbapp/createRecord', { app_id: DEALS, fields }), parameter);
      expect(err.message).toContain(text);
      expect(String(err.details.expected).length).toBeGreaterThan(10);
    }
    expect(h.writes()).toEqual([]);
    expect(h.tape.state.records.size).toBe(before);
  });

  it('passes silent, hook and workflow to Tape', async () => {
    const h = await setup();
    await h.call('dbapp/createRecord', { app_id: DEALS, fields: { deal_name: 'Quiet', stage: [1] }, silent: true, hook: false, workflow: false });
    const post = h.writes().find((s) => s.path === `/v1/record/app/${DEALS}`)!;
    expect(Object.fromEntries(post.query)).toEqual({ silent: 'true', hook: 'false', workflow: 'false' });
    expect(post.body).toEqual({ fields: { [D.deal_name]: 'Quiet', [D.stage]: 1 } });
  });

  it('uploads https URLs of attachment fields and attaches the files', async () => {
    const h = await setup({ env: { ALLOW_HTTP_HOSTS: '127.0.0.1' } });
    await tape(h, 'PUT', `/v1/app/${DEALS}`, { fields: [{ field_type: 'multi_attachment', config: { label: 'Contracts' } }] });
    const contracts = h.tape.state.apps.get(DEALS)!.fields.find((f) => f.label === 'Contracts')!;
    const r = await h.call('dbapp/createRecord', { app_id: DEALS, fields: { deal_name: 'Signed', stage: [4], contracts: [`${base()}/order-form.pdf`] }, id_only: false }, json);
    expect(r.status).toBe(200);
    const files = r.body.data.fields.find((f: { field_id: number }) => f.field_id === contracts.field_id).value;
    expect(files).toEqual([{ file_id: expect.any(Number), name: 'order-form.pdf', size: pdf.length, download_url: expect.stringMatching(/\/files\/\d+\/[0-9a-f]+\/order-form\.pdf$/) }]);
    const missing = await h.call('dbapp/createRecord', { app_id: DEALS, fields: { deal_name: 'Signed', stage: [4], contracts: [`${base()}/missing.pdf`] } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details.parameter).toBe('fields.contracts.0');
  });

  it('maps an unknown app to NOT_FOUND', async () => {
    const h = await setup();
    const r = await h.call('dbapp/createRecord', { app_id: 4040, fields: { name: 'x' } });
    expect(r.status).toBe(404);
  });
});

describe('updateRecord', () => {
  it('changes only the fields given and answers {record_id}', async () => {
    const h = await setup();
    const before = new Map(h.row(5300).values);
    const r = await h.call('dbapp/updateRecord', { record_id: 5300, fields: { stage: ['Won'], amount: 99000, notes: null } }, json);
    expect(r.body.data).toEqual({ record_id: 5300 });
    const row = h.row(5300);
    expect(optionId(row, D.stage)).toBe(4);
    expect(plain(row, D.amount)).toBe(99000);
    expect(row.values.has(D.notes)).toBe(false);
    for (const id of [D.deal_name, D.lead, D.priority, D.products, D.close_date]) expect(row.values.get(id)).toEqual(before.get(id));
    const text = (await h.call('dbapp/updateRecord', { record_id: 5300, fields: { priority: 'Low', contract_period: null } })).body.data;
    expect(text).toBe('updated record #5300: set priority; cleared contract_period');
  });

  it('takes single_date as the plain string and refuses the {start} object, like create', async () => {
    const h = await setup();
    await h.call('dbapp/updateRecord', { record_id: 5300, fields: { close_date: '2025-05-02 00:00:00' } });
    expect(h.row(5300).values.get(D.close_date)![0]).toMatchObject({ start: '2025-05-02 00:00:00' });
    const err = expectInvalid(await h.call('dbapp/updateRecord', { record_id: 5300, fields: { close_date: { start: '2025-05-03 00:00:00' } } }), 'fields.close_date');
    expect(err.message).toContain('"close_date": "2025-05-03 00:00:00"');
    expect(h.writes().filter((s) => s.method === 'PUT')).toHaveLength(1);
  });

  it('checklist: items with id kept (only given keys change), without id added, left out deleted', async () => {
    const h = await setup();
    const created = await h.call('dbapp/createRecord', { app_id: DEALS, fields: { deal_name: 'Checklist deal', stage: [1], next_steps: [{ title: 'A', due: '2025-03-01', assignee: 10000 }, { title: 'B' }, { title: 'C' }] } }, json);
    const id = created.body.data.record_id;
    const [a, b] = (await h.call('dbapp/getRecord', { record_id: id, field_ids: ['next_steps'] }, json)).body.data.fields[0].value;
    const r = await h.call('dbapp/updateRecord', { record_id: id, fields: { next_steps: [{ id: a.id, completed: true }, { id: b.id, title: 'B2' }, { title: 'D' }] }, id_only: false }, json);
    expect(r.body.data.fields.find((f: { external_id: string }) => f.external_id === 'next_steps').value).toEqual([
      { id: a.id, title: 'A', completed: true, assignee: { user_id: 10000, name: 'John Doe' }, description: null, due: '2025-03-01' },
      { id: b.id, title: 'B2', completed: false, assignee: null, description: null, due: null },
      expect.objectContaining({ title: 'D', completed: false }),
    ]);
    const wrong = expectInvalid(await h.call('dbapp/updateRecord', { record_id: id, fields: { next_steps: [{ id: 1, completed: true }] } }), 'fields.next_steps.0.id');
    expect(wrong.message).toContain(`its items: ${a.id}, ${b.id}`);
  });

  it('id_only false returns the updated record; errors keep their meaning', async () => {
    const h = await setup();
    const r = await h.call('dbapp/updateRecord', { record_id: 5300, fields: { deal_name: 'Renamed deal' }, id_only: false });
    expect(r.body.data).toMatch(/^updated record\n#5300 Renamed deal \(app #902/);
    expect((await h.call('dbapp/updateRecord', { record_id: 999999, fields: { deal_name: 'x' } })).status).toBe(404);
    expectInvalid(await h.call('dbapp/updateRecord', { record_id: 5300, fields: { deal_name: 'x', stage: ['Gone'] } }), 'fields.stage.0');
  });
});

describe('batchCreateRecords', () => {
  const deal = (i: number) => ({ fields: { deal_name: `Batch deal ${i}`, stage: ['Discovery'], amount: 1000 + i } });

  it('writes chunks of 50 through Tape\'s batch endpoint, every item accounted for in order', async () => {
    const h = await setup();
    const r = await h.call('dbapp/batchCreateRecords', { app_id: DEALS, inputs: Array.from({ length: 120 }, (_, i) => deal(i)), silent: true, workflow: false }, json);
    expect(r.status).toBe(200);
    const d = r.body.data;
    expect({ total: d.total, successful: d.successful, failed: d.failed }).toEqual({ total: 120, successful: 120, failed: 0 });
    const batches = h.writes().filter((s) => s.path === `/v1/record/app/batch/${DEALS}`);
    expect(batches.map((b) => (b.body as { inputs: unknown[] }).inputs.length)).toEqual([50, 50, 20]);
    expect(Object.fromEntries(batches[0]!.query)).toEqual({ silent: 'true', hook: 'true', workflow: 'false' });
    d.items.forEach((item: { index: number; success: boolean; record_id: number; record_url: string }, i: number) => {
      expect(item).toEqual({ index: i, success: true, record_id: item.record_id, record_url: `https://tapeapp.com/tape/record/${item.record_id}` });
      expect(plain(h.row(item.record_id), D.deal_name)).toBe(`Batch deal ${i}`);
    });
  });

  it('takes more than the 1,000 items the input guard allows a list without its own bound, up to 10,000', async () => {
    const h = await setup();
    const r = await h.call('dbapp/batchCreateRecords', { app_id: DEALS, inputs: Array.from({ length: 1_200 }, (_, i) => deal(i)) }, json);
    expect(r.body.data).toMatchObject({ total: 1_200, successful: 1_200, failed: 0 });
    expect(h.writes().filter((s) => s.path === `/v1/record/app/batch/${DEALS}`)).toHaveLength(24);
    const before = h.writes().length;
    const refused = expectInvalid(await h.call('dbapp/batchCreateRecords', { app_id: DEALS, inputs: Array.from({ length: 10_001 }, () => ({ fields: {} })) }), 'inputs');
    expect(refused.message).toContain('10000');
    expect(h.writes()).toHaveLength(before);
  });

  it('validates every input first: one bad input, nothing written, the error names inputs.<i>.fields.<key>', async () => {
    const h = await setup();
    const inputs = Array.from({ length: 10 }, (_, i) => deal(i));
    inputs[7] = { fields: { deal_name: 'Bad', stage: ['Closed won'], amount: 1 } };
    const err = expectInvalid(await h.call('dbapp/batchCreateRecords', { app_id: DEALS, inputs }), 'inputs.7.fields.stage.0');
    expect(err.message).toContain('"Closed won" is not an option of "Stage"');
    expect(h.writes()).toEqual([]);
  });

  it('when Tape refuses a chunk for one input, re-sends the others in halves and reports that one', async () => {
    const h = await setup();
    const inputs = [deal(0), { fields: { deal_name: 'Ghost lead', stage: [1], lead: [999999] } }, deal(2)];
    const r = await h.call('dbapp/batchCreateRecords', { app_id: DEALS, inputs }, json);
    const d = r.body.data;
    expect({ total: d.total, successful: d.successful, failed: d.failed }).toEqual({ total: 3, successful: 2, failed: 1 });
    expect(d.items[1]).toEqual({ index: 1, success: false, error: { code: 'INVALID_PARAMETER', message: expect.stringContaining('record 999999 does not exist'), details: expect.any(Object) } });
    expect(d.items[0].success && d.items[2].success).toBe(true);
    // [0,1,2] refused → [0,1] refused and [2] alone → 0 and 1 alone.
    expect(h.writes().map((s) => s.path).sort()).toEqual([...Array(3).fill(`/v1/record/app/${DEALS}`), ...Array(2).fill(`/v1/record/app/batch/${DEALS}`)]);
    const text = (await h.call('dbapp/batchCreateRecords', { app_id: DEALS, inputs })).body.data as string;
    expect(text.split('\n').slice(0, 3)).toEqual([
      'created 2 of 3 records in app #902 — 1 failed',
      expect.stringMatching(/^record ids by inputs index: 0→#\d+, 2→#\d+$/),
      expect.stringMatching(/^inputs\.1 failed: INVALID_PARAMETER .*record 999999 does not exist/),
    ]);
  });

  it('reports Tape\'s rate limit on every item of the chunk, none written', async () => {
    const h = await setup({ twin: { credits: 20 } });
    const r = await h.call('dbapp/batchCreateRecords', { app_id: DEALS, inputs: [deal(0), deal(1)] }, json);
    expect(r.body.data).toMatchObject({ total: 2, successful: 0, failed: 2 });
    for (const item of r.body.data.items) expect(item.error.code).toBe('RATE_LIMITED');
    expect(h.rows(DEALS)).toHaveLength(120);
  });

  it('sends nothing once the time budget is gone and says what to resend', async () => {
    const h = await setup();
    const out = await execute(h.rt, { platform: 'dbapp', tool: 'batchCreateRecords', key: SANDBOX_KEYS.owner, caller: h.rt.identity.resolve({ key: SANDBOX_KEYS.owner }), params: { app_id: DEALS, inputs: [deal(0), deal(1), deal(2)] }, format: 'text', deadline: Date.now() + 500 });
    expect(out.body).toMatchObject({ success: true });
    expect((out.body as { data: string }).data).toBe('created 0 of 3 records in app #902 — 3 failed\nnot sent (the time budget ran out) — resend inputs 0-2');
    expect(h.writes()).toEqual([]);
  });
});

describe('batchUpdateRecords', () => {
  it('updates in one batch call per chunk; only the given fields change', async () => {
    const h = await setup();
    const r = await h.call('dbapp/batchUpdateRecords', { app_id: DEALS, updates: [{ record_id: 5300, fields: { stage: ['Won'] } }, { record_id: 5299, fields: { amount: 1 } }], hook: false }, json);
    expect(r.body.data).toEqual({
      total: 2,
      successful: 2,
      failed: 0,
      items: [
        { index: 0, success: true, record_id: 5300, record_url: 'https://tapeapp.com/tape/record/5300' },
        { index: 1, success: true, record_id: 5299, record_url: 'https://tapeapp.com/tape/record/5299' },
      ],
    });
    expect(optionId(h.row(5300), D.stage)).toBe(4);
    expect(plain(h.row(5300), D.amount)).toBe(93500);
    expect(plain(h.row(5299), D.amount)).toBe(1);
    const puts = h.writes();
    expect(puts.map((s) => `${s.method} ${s.path}`)).toEqual([`PUT /v1/record/app/batch/${DEALS}`]);
    expect(Object.fromEntries(puts[0]!.query)).toMatchObject({ hook: 'false', empty_response: 'true' });
  });

  it('applies none when one update is invalid, naming updates.<i>', async () => {
    const h = await setup();
    const stage = optionId(h.row(5300), D.stage);
    expectInvalid(await h.call('dbapp/batchUpdateRecords', { app_id: DEALS, updates: [{ record_id: 5300, fields: { stage: ['Won'] } }, { record_id: 5299, fields: { close_date: { start: '2025-01-01 00:00:00' } } }] }), 'updates.1.fields.close_date');
    expectInvalid(await h.call('dbapp/batchUpdateRecords', { app_id: DEALS, updates: [{ record_id: 5300, fields: { stage: ['Won'] } }, { record_id: 5300, fields: { amount: 1 } }] }), 'updates.1.record_id');
    expect(h.writes()).toEqual([]);
    expect(optionId(h.row(5300), D.stage)).toBe(stage);
  });

  it('a record Tape refuses fails alone; the others are applied', async () => {
    const h = await setup();
    const r = await h.call('dbapp/batchUpdateRecords', { app_id: DEALS, updates: [{ record_id: 5300, fields: { amount: 7 } }, { record_id: 5180, fields: { amount: 8 } }] }, json);
    expect(r.body.data).toMatchObject({ total: 2, successful: 1, failed: 1 });
    expect(r.body.data.items[1]).toMatchObject({ index: 1, success: false, error: { code: 'INVALID_PARAMETER' } });
    expect(plain(h.row(5300), D.amount)).toBe(7);
  });

  it('completes checklist items given by id from each record', async () => {
    const h = await setup();
    const created = await h.call('dbapp/createRecord', { app_id: DEALS, fields: { deal_name: 'C', stage: [1], next_steps: [{ title: 'One' }, { title: 'Two' }] } }, json);
    const id = created.body.data.record_id;
    const entries = h.row(id).values.get(D.next_steps)!;
    const r = await h.call('dbapp/batchUpdateRecords', { app_id: DEALS, updates: [{ record_id: id, fields: { next_steps: [{ id: entries[1]!.id, completed: true }] } }] }, json);
    expect(r.body.data.successful).toBe(1);
    expect(h.row(id).values.get(D.next_steps)).toEqual([expect.objectContaining({ id: entries[1]!.id, title: 'Two', completed: true })]);
    expectInvalid(await h.call('dbapp/batchUpdateRecords', { app_id: LEADS, updates: [{ record_id: id, fields: { follow_ups: [{ id: 1, completed: true }] } }] }), 'updates.0.record_id');
  });
});

describe('deleteRecord and restoreRecord', () => {
  it('moves a record to the trash and back', async () => {
    const h = await setup();
    const del = await h.call('dbapp/deleteRecord', { record_id: 5300, hook: false }, json);
    expect(del.body.data).toEqual({ record_id: 5300, title: 'Copperline Media — Automations', deleted_on: expect.any(String), restorable: true });
    expect(h.sent.at(-1)!.query.get('hook')).toBe('false');
    expect(h.row(5300).deleted_on).not.toBeNull();
    const again = await h.call('dbapp/deleteRecord', { record_id: 5300 });
    expect(again.body.error.message).toContain('Record is deleted(5300)');
    const res = await h.call('dbapp/restoreRecord', { record_id: 5300 });
    expect(res.body.data).toBe('restored record #5300 Copperline Media — Automations https://tapeapp.com/tape/record/5300');
    expect(h.row(5300).deleted_on).toBeNull();
    expect((await h.call('dbapp/restoreRecord', { record_id: 5300 })).status).toBe(400);
  });

  it('skip_trash removes it for good', async () => {
    const h = await setup();
    const text = (await h.call('dbapp/deleteRecord', { record_id: 5299, skip_trash: true })).body.data;
    expect(text).toMatch(/^deleted record #5299 .+ — permanently \(skip_trash\): it cannot be restored$/);
    expect(h.sent.at(-1)!.query.get('skip_trash')).toBe('true');
    expect((await h.call('dbapp/restoreRecord', { record_id: 5299 })).status).toBe(404);
  });
});

describe('filterRecords', () => {
  it('filters by option text, number and date; type and field_type derived', async () => {
    const h = await setup();
    const r = await h.call(
      'dbapp/filterRecords',
      {
        app_id: DEALS,
        filters: [
          { field_id: 'stage', match_type: 'any', values: [{ value: 'won' }, { value: 'Negotiation' }] },
          { field_id: D.amount, match_type: 'larger', values: [{ value: 50000 }] },
          { field_id: 'close_date', match_type: 'on_or_after', values: [{ value: '2025-04-01 00:00:00' }] },
        ],
        limit: 500,
      },
      json,
    );
    const expected = h
      .rows(DEALS)
      .filter((x) => [3, 4].includes(optionId(x, D.stage)!) && (plain(x, D.amount) as number) > 50000 && String(h.row(x.record_id).values.get(D.close_date)?.[0]?.start) >= '2025-04-01')
      .map((x) => x.record_id)
      .sort((a, b) => b - a);
    expect(expected.length).toBeGreaterThan(0);
    expect(r.body.data.records.map((x: AppRecord) => x.record_id)).toEqual(expected);
    const body = h.sent.find((s) => s.path === `/v1/record/filter/app/${DEALS}`)!;
    expect(body.query.get('limit')).toBe('500');
    expect((body.body as { filters: unknown[] }).filters).toEqual([
      { field_id: D.stage, field_type: 'status', type: 'status', match_type: 'any', values: [{ value: 4 }, { value: 3 }] },
      { field_id: D.amount, field_type: 'number', type: 'number', match_type: 'larger', values: [{ value: 50000 }] },
      { field_id: D.close_date, field_type: 'single_date', type: 'date', match_type: 'on_or_after', values: [{ value: { date: '2025-04-01T00:00:00.000Z' } }] },
    ]);
  });

  it('pages with limit and cursor in the query; count_only; metadata filters', async () => {
    const h = await setup();
    const filters = [{ field_id: 'priority', match_type: 'equal', values: [{ value: 'High' }] }];
    const high = h.rows(DEALS).filter((x) => optionId(x, D.priority) === 3).length;
    expect((await h.call('dbapp/filterRecords', { app_id: DEALS, filters, count_only: true }, json)).body.data).toEqual({ total: high, count_only: true });
    const first = await h.call('dbapp/filterRecords', { app_id: DEALS, filters, limit: 10 }, json);
    const next = await h.call('dbapp/filterRecords', { app_id: DEALS, filters, limit: 10, cursor: first.body.data.cursor }, json);
    expect(h.sent.filter((s) => s.path.startsWith('/v1/record/filter/')).at(-1)!.query.get('cursor')).toBe(first.body.data.cursor);
    expect(next.body.data.records[0].record_id).toBeLessThan(first.body.data.records[9].record_id);
    const since = await h.call('dbapp/filterRecords', { app_id: DEALS, filters: [{ type: 'created_at', match_type: 'on_or_after', values: [{ value: '2025-02-20 00:00:00' }] }], count_only: true }, json);
    expect(since.body.data.total).toBe(h.rows(DEALS).filter((x) => x.created_on >= '2025-02-20').length);
    expect((await h.call('dbapp/filterRecords', { app_id: DEALS, filters, count_only: true })).body.data).toBe(`${high} records match`);
  });

  it.each([
    [[{ field_id: 'stagee', match_type: 'any', values: [{ value: 1 }] }], 'filters.0.field_id', 'deal_name (9015)'],
    [[{ field_id: 'stage', match_type: 'contains', values: [{ value: 1 }] }], 'filters.0.match_type', 'equal, not_equal, any, none, empty, not_empty, completed, incomplete'],
    [[{ field_id: 'stage', match_type: 'any', values: [{ value: 'Closed' }] }], 'filters.0.values.0.value', '4 "Won"'],
    [[{ field_id: 'amount', match_type: 'larger' }], 'filters.0.values', 'needs a value'],
    [[{ field_id: 'amount', field_type: 'single_text', match_type: 'larger', values: [{ value: 1 }] }], 'filters.0.field_type', 'is a number field'],
    [[{ field_id: 'amount', type: 'text', match_type: 'larger', values: [{ value: 1 }] }], 'filters.0.type', 'is "number"'],
    [[{ field_id: 'next_steps', match_type: 'contains', values: [{ value: 'Legal' }] }], 'filters.0.match_type', 'Set entry_property'],
    [[{ field_id: 'close_date', match_type: 'before', values: [{ value: 'last week' }] }], 'filters.0.values.0.value', 'is not a date'],
    [[{ field_id: 'close_date', match_type: 'on_weekday' }], 'filters.0.weekday', 'needs weekday'],
    [[{ match_type: 'equal', values: [{ value: 1 }] }], 'filters.0.field_id', 'metadata filters'],
    [[{ type: 'created_at', match_type: 'equal', values: [{ value: '2025-01-01 00:00:00' }] }], 'filters.0.match_type', 'two filters'],
  ])('refuses a bad filter before the call: %j', async (filters, parameter, text) => {
    const h = await setup();
    const err = expectInvalid(await h.call('dbapp/filterRecords', { app_id: DEALS, filters }), parameter);
    expect(err.message).toContain(text);
    expect(h.sent.some((s) => s.path.startsWith('/v1/record/filter/'))).toBe(false);
  });

  it('filters checklists by entry_property and users by "@me"', async () => {
    const h = await setup();
    const mine = await h.call('dbapp/filterRecords', { app_id: DEALS, filters: [{ field_id: 'account_manager', match_type: 'equal', include_active_user: true }], count_only: true }, json);
    expect(mine.body.data.total).toBe(h.rows(DEALS).filter((x) => (plain(x, D.account_manager) as { user_id: number }).user_id === 10000).length);
    const open = await h.call('dbapp/filterRecords', { app_id: DEALS, filters: [{ field_id: 'next_steps', entry_property: 'status', match_type: 'equal', values: [{ value: false }] }], count_only: true }, json);
    expect(open.body.data.total).toBe(h.rows(DEALS).filter((x) => (x.values.get(D.next_steps) ?? []).some((e) => e.completed === false)).length);
  });
});

describe('getRelatedRecords and findRelatableRecords', () => {
  it('returns the deals of a lead (reverse) and the lead of a deal (forward)', async () => {
    const h = await setup();
    const deals = h.rows(DEALS).filter((x) => (plain(x, D.lead) as { record_id: number }).record_id === 5180).map((x) => x.record_id).sort((a, b) => b - a);
    const r = await h.call('dbapp/getRelatedRecords', { app_id: LEADS, record_ids: [5180], related_app_id: DEALS }, json);
    expect(r.body.data.records.map((x: AppRecord) => x.record_id)).toEqual(deals);
    expect(r.body.data.cursor).toBeNull();
    const fwd = await h.call('dbapp/getRelatedRecords', { app_id: DEALS, record_ids: [5300], related_app_id: LEADS, direction: 'forward' });
    expect(fwd.body.data).toMatch(/^#5180 Jonas Moreau · .+\n1 related record · open one at /);
    expect(h.sent.find((s) => s.path === `/v1/record/app/${DEALS}/ref/${LEADS}`)!.body).toEqual({ recordIds: [5300], direction: 'forward' });
  });

  it('finds relatable records by title text', async () => {
    const h = await setup();
    const r = await h.call('dbapp/findRelatableRecords', { field_id: D.lead, text: 'jonas' }, json);
    const titles = r.body.data.records.map((x: { title: string }) => x.title);
    expect(titles.length).toBeGreaterThan(0);
    expect(titles.length).toBeLessThanOrEqual(10);
    for (const t of titles) expect(t.toLowerCase()).toContain('jonas');
    expect(r.body.data.records[0]).toMatchObject({ app_id: LEADS, record_url: expect.stringMatching(/^https:\/\/tapeapp\.com\/tape\/record\/\d+$/) });
    const text = (await h.call('dbapp/findRelatableRecords', { field_id: D.lead, text: 'zzz' })).body.data;
    expect(text).toBe('no record matches "zzz" for relation field #9016');
    expect((await h.call('dbapp/findRelatableRecords', { field_id: D.amount, text: 'x' })).status).toBe(400);
  });
});

describe('getRecordRevisions', () => {
  it('lists revisions newest first and shows what one changed', async () => {
    const h = await setup(onSeedDay);
    await h.call('dbapp/updateRecord', { record_id: 5300, fields: { stage: ['Won'], notes: '<p>Signed.</p>' } });
    const list = await h.call('dbapp/getRecordRevisions', { record_id: 5300 }, json);
    expect(list.body.data).toMatchObject({ record_id: 5300, total: 2, revisions: [{ revision: 1, type: 'update', created_by: { user_id: 10000, name: 'John Doe' } }, { revision: 0, type: 'creation' }] });
    const delta = await h.call('dbapp/getRecordRevisions', { record_id: 5300, revision: 1 }, json);
    expect(delta.body.data).toEqual({
      record_id: 5300,
      from_revision: 0,
      to_revision: 1,
      changes: [
        { field_id: D.stage, external_id: 'stage', label: 'Stage', type: 'status', from: [{ id: 2, text: 'Proposal' }], to: [{ id: 4, text: 'Won' }] },
        { field_id: D.notes, external_id: 'notes', label: 'Notes', type: 'multi_text', from: null, to: '<p>Signed.</p>' },
      ],
    });
    expect((await h.call('dbapp/getRecordRevisions', { record_id: 5300, revision: 1 })).body.data).toBe('record #5300 revision 1 (against 0): 2 fields changed\nStage: Proposal → Won\nNotes: (empty) → Signed.');
    expect((await h.call('dbapp/getRecordRevisions', { record_id: 5300 })).body.data).toMatch(/^rev 1 update .+ by John Doe\nrev 0 creation 2025-02-25 23:35 by John Doe\n2 revisions of record #5300 — pass revision N to see what it changed$/);
    expectInvalid(await h.call('dbapp/getRecordRevisions', { record_id: 5300, revision: 0 }), 'revision');
  });
});

describe('record comments', () => {
  it('creates comments (files by URL uploaded) and lists them', async () => {
    const h = await setup({ env: { ALLOW_HTTP_HOSTS: '127.0.0.1' } });
    const c = await h.call('dbapp/createRecordComment', { record_id: 5300, value: 'Proposal sent.\n@[Zoe Maxwell](user:10001) please follow up.', silent: true }, json);
    expect(c.body.data).toMatchObject({ record_id: 5300, value: 'Proposal sent.\n@[Zoe Maxwell](user:10001) please follow up.', created_by: { user_id: 10000, name: 'John Doe' }, files: [] });
    expect(h.sent.at(-1)!.query.get('silent')).toBe('true');
    const withFile = await h.call('dbapp/createRecordComment', { record_id: 5300, value: 'Signed form attached.', files: [`${base()}/order-form.pdf`] });
    expect(withFile.body.data).toMatch(/^commented #\d+ on record #5300 as John Doe with order-form\.pdf$/);
    const list = await h.call('dbapp/listRecordComments', { record_id: 5300 }, json);
    expect(list.body.data.total).toBe(2);
    expect(list.body.data.cursor).toBeNull();
    expect(list.body.data.comments[1].files).toEqual([{ file_id: expect.anything(), name: 'order-form.pdf', size: pdf.length }]);
    const text = (await h.call('dbapp/listRecordComments', { record_id: 5300, limit: 1 })).body.data as string;
    expect(text).toMatch(/^#\d+ \S+ \S+ John Doe: Proposal sent\. @\[Zoe Maxwell\]\(user:10001\) please follow up\.\nshowing 1 of 2 — pass cursor ".+" for the next page$/);
    expectInvalid(await h.call('dbapp/listRecordComments', { record_id: 5300, limit: 101 }), 'limit');
    expectInvalid(await h.call('dbapp/createRecordComment', { record_id: 5300, value: '  ' }), 'value');
  });
});

describe('cursors of dbapp listings', () => {
  it('every dbapp listing says, in its description and its cursor parameter, that the last page answers cursor: null; listRecords does', async () => {
    const { platforms } = await import('../../infra/local/platforms');
    const { createRegistry } = await import('../../shared/core/registry');
    const dbapp = platforms.find((p) => p.name === 'dbapp')!;
    // listEvents pages an inbox: its next_cursor is the position to acknowledge up to, set on every
    // page, and `more` says whether another page waits (shared/events/tools.ts, the same on every platform).
    const tools = (await createRegistry(platforms).list(dbapp)).filter((t) => t.name !== 'listEvents' && 'cursor' in ((t.input as unknown as { shape?: object }).shape ?? {}));
    expect(tools.map((t) => t.name).sort()).toEqual(['filterRecords', 'listAutomationRuns', 'listAutomations', 'listRecordComments', 'listRecords']);
    for (const t of tools) {
      expect(t.description, t.name).toContain('the last page answers cursor: null');
      const schema = (await import('zod')).toJSONSchema(t.input, { io: 'input' }) as unknown as { properties: { cursor: { type: string; description: string } } };
      expect(schema.properties.cursor, t.name).toMatchObject({ type: 'string', description: expect.stringContaining('The last page answers cursor: null') });
    }
    const h = await setup();
    const last = await h.call('dbapp/listRecords', { app_id: LEADS, limit: 500 }, json);
    expect(last.body.data.records).toHaveLength(180);
    expect(last.body.data.cursor).toBeNull();
  });
});
