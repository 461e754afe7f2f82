import { describe, expect, it } from 'vitest';
import { harness } from '../helpers/harness';
import { PODIO_DEMO, SANDBOX_KEYS, type PodioTwin } from '../../infra/twins/podio';
import { createClock } from '../../infra/twins/kit';

const json = { query: 'format=json' };
const D = PODIO_DEMO;
const F = D.fields;
const O = D.options;
type H = Awaited<ReturnType<typeof harness>>;

/** Podio's own answer, straight from the twin (the ground truth the tools are checked against). */
async function podio(h: H, method: string, path: string, body?: unknown): Promise<any> {
  const res = await h.twin<PodioTwin>('collab').fetch(`https://api.podio.com${path}`, {
    method,
    headers: { authorization: `OAuth2 ${SANDBOX_KEYS.owner}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return text ? JSON.parse(text) : null;
}

const fieldOf = (item: any, key: string) => item.fields.find((f: any) => f.external_id === key);

/** The seeded deal with app_item_id 1: created, then a proposal PDF attached (a second revision). */
const DEAL = D.items.firstDeal;

describe('getItem', () => {
  it('returns the compact item of docs/spec.md#collab-item with the output value shapes, empty fields left out', async () => {
    const h = await harness();
    const raw = await podio(h, 'GET', `/item/${DEAL}`);
    const r = await h.call('collab/getItem', { item_id: DEAL }, json);
    expect(r.status).toBe(200);
    const item = r.body.data;
    expect(item).toMatchObject({ item_id: DEAL, app_item_id: 1, title: raw.title, link: 'https://podio.com/sandbox-co/sales/apps/deals/items/1', created_on: raw.created_on, tags: raw.tags });
    expect(item.created_by).toEqual({ user_id: raw.created_by.user_id ?? raw.created_by.id, name: raw.created_by.name });
    const rawField = (key: string) => raw.fields.find((f: any) => f.external_id === key);
    expect(fieldOf(item, 'title')).toEqual({ field_id: F.deals.title, external_id: 'title', label: 'Deal name', type: 'text', value: raw.title });
    // money: a decimal string with its currency (Podio sends "37500.0000").
    const money = rawField('amount').values[0];
    expect(fieldOf(item, 'amount').value).toEqual({ value: Number(money.value).toFixed(2), currency: money.currency });
    expect(fieldOf(item, 'stage').value).toEqual([{ id: rawField('stage').values[0].value.id, text: rawField('stage').values[0].value.text }]);
    expect(fieldOf(item, 'close-date').value).toEqual({ start: rawField('close-date').values[0].start, end: null });
    expect(fieldOf(item, 'owner').value).toEqual([expect.objectContaining({ user_id: rawField('owner').values[0].value.user_id, name: rawField('owner').values[0].value.name })]);
    expect(fieldOf(item, 'company').value).toEqual([{ item_id: rawField('company').values[0].value.item_id, title: rawField('company').values[0].value.title }]);
    // Every field of the item is there, and only those with a value.
    expect(item.fields.map((f: any) => f.field_id).sort()).toEqual(raw.fields.map((f: any) => f.field_id).sort());
    const empty = Object.values(F.deals).filter((id) => !raw.fields.some((f: any) => f.field_id === id));
    expect(empty.length).toBeGreaterThan(0);
    for (const id of empty) expect(item.fields.some((f: any) => f.field_id === id)).toBe(false);
    expect(item.files).toEqual([expect.objectContaining({ file_id: raw.files[0].file_id, name: raw.files[0].name })]);
  });

  it('answers in compact text: ids first, money as "12.50 EUR", contacts by name, categories by text', async () => {
    const h = await harness();
    const item = (await h.call('collab/getItem', { item_id: DEAL }, json)).body.data;
    const text: string = (await h.call('collab/getItem', { item_id: DEAL })).body.data;
    const lines = text.split('\n');
    expect(lines[0]).toMatch(new RegExp(`^#${DEAL} \\[1\\] ${item.title} · created \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} by ${item.created_by.name}$`));
    expect(lines[1]).toBe(item.link);
    const amount = fieldOf(item, 'amount').value;
    expect(lines[2]).toContain(`Amount: ${amount.value} ${amount.currency}`);
    expect(lines[2]).toContain(`Stage: ${fieldOf(item, 'stage').value[0].text}`);
    expect(lines[2]).toContain(`Deal owner: ${fieldOf(item, 'owner').value[0].name}`);
    expect(lines[2]).not.toMatch(/profile|\{|\[#/);
    expect(lines[3]).toBe(`files: ${item.files[0].name} #${item.files[0].file_id}`);
    // An item without notes shows no "Notes" at all.
    expect(fieldOf(item, 'notes')).toBeUndefined();
    expect(text).not.toContain('Notes');
  });

  it('verbose adds field ids, external ids, types and the item metadata', async () => {
    const h = await harness();
    const text: string = (await h.call('collab/getItem', { item_id: DEAL, verbose: true })).body.data;
    expect(text.split('\n')[0]).toContain(`app #${D.apps.deals} Deals · revision 1`);
    expect(text).toContain(`Stage [#${F.deals.stage} stage category]: `);
    expect(text).toMatch(/Deal owner \[#9208 owner contact\]: [^·]+ \(profile \d+, user \d+\)/);
    const data = (await h.call('collab/getItem', { item_id: DEAL, verbose: true }, json)).body.data;
    expect(data).toMatchObject({ app: { app_id: D.apps.deals, name: 'Deals' }, revision: 1 });
  });

  it('resolves podio_url through the app (its number is the app_item_id), never as an item_id', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    // app_item_id 5 of Deals is item 30065; item 5 does not exist.
    const r = await h.call('collab/getItem', { podio_url: 'https://podio.com/sandbox-co/sales/apps/deals/items/5' }, json);
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ item_id: D.items.firstDeal + 4, app_item_id: 5 });
    expect(sent.map((s) => `${s.method} ${s.path}`)).toEqual(['GET /app/org/sandbox-co/space/sales/deals', `GET /app/${D.apps.deals}/item/5`]);
    // Query strings, a trailing slash and www. are fine.
    const again = await h.call('collab/getItem', { podio_url: 'https://www.podio.com/sandbox-co/operations/apps/projects/items/2/?ref=mail#c' }, json);
    expect(again.body.data).toMatchObject({ item_id: D.items.firstProject + 1, app_item_id: 2 });
    // field_ids by external id are checked against the app the URL named, with no further call.
    sent.length = 0;
    const some = await h.call('collab/getItem', { podio_url: 'https://podio.com/sandbox-co/sales/apps/deals/items/5', field_ids: ['stage'] }, json);
    expect(some.body.data.fields.map((f: any) => f.external_id)).toEqual(['stage']);
    expect(sent).toHaveLength(2);
  });

  it('refuses a malformed podio_url, both or neither of item_id/podio_url, before any call', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    for (const url of ['https://podio.com/sandbox-co/sales/apps/deals', 'https://example.com/o/s/apps/a/items/1', 'podio.com/o/s/apps/a/items/1', 'https://podio.com/o/s/apps/a/items/one']) {
      const r = await h.call('collab/getItem', { podio_url: url });
      expect(r.status).toBe(400);
      expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'podio_url' } });
      expect(r.body.error.details.expected).toContain('https://podio.com/<org>/<space>/apps/<app>/items/<number>');
    }
    const both = await h.call('collab/getItem', { item_id: DEAL, podio_url: 'https://podio.com/sandbox-co/sales/apps/deals/items/1' });
    expect(both.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'podio_url', expected: 'exactly one of item_id and podio_url' } });
    const neither = await h.call('collab/getItem', {});
    expect(neither.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'item_id' } });
    expect(sent).toHaveLength(0);
  });

  it('an URL of an unknown app or number is NOT_FOUND saying what to check', async () => {
    const h = await harness();
    const app = await h.call('collab/getItem', { podio_url: 'https://podio.com/sandbox-co/sales/apps/nope/items/1' });
    expect(app.status).toBe(404);
    expect(app.body.error).toMatchObject({ code: 'NOT_FOUND', details: { parameter: 'podio_url', upstream_status: 404 } });
    expect(app.body.error.message).toContain('No app "nope" in space "sales"');
    const item = await h.call('collab/getItem', { podio_url: 'https://podio.com/sandbox-co/sales/apps/deals/items/9999' });
    expect(item.status).toBe(404);
    expect(item.body.error.message).toContain(`Item 9999 of app ${D.apps.deals} "Deals"`);
  });

  it('field_ids by id or external id; an unknown one is INVALID_PARAMETER listing the fields', async () => {
    const h = await harness();
    const r = await h.call('collab/getItem', { item_id: DEAL, field_ids: [F.deals.amount, 'stage', 'notes'] }, json);
    expect(r.body.data.fields.map((f: any) => f.external_id)).toEqual(['amount', 'stage']);
    const bad = await h.call('collab/getItem', { item_id: DEAL, field_ids: ['stage', 'stag'] });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'field_ids.1' } });
    expect(bad.body.error.message).toContain('stage (9204)');
  });

  it('field_types picks calculation or basic fields; files_only gives the files alone', async () => {
    const h = await harness();
    const calc = (await h.call('collab/getItem', { item_id: DEAL, field_types: 'calculation' }, json)).body.data;
    expect(calc.fields.map((f: any) => f.type)).toEqual(['calculation']);
    const basic = (await h.call('collab/getItem', { item_id: DEAL, field_types: 'basic' }, json)).body.data;
    expect(basic.fields.length).toBeGreaterThan(3);
    expect(basic.fields.some((f: any) => f.type === 'calculation')).toBe(false);
    const files = (await h.call('collab/getItem', { item_id: DEAL, files_only: true }, json)).body.data;
    expect(files.fields).toEqual([]);
    expect(files.files).toEqual([expect.objectContaining({ file_id: expect.any(Number), name: 'proposal-1.pdf', mimetype: 'application/pdf' })]);
    const text: string = (await h.call('collab/getItem', { item_id: DEAL, files_only: true })).body.data;
    expect(text.split('\n')).toHaveLength(3);
    expect(text).not.toContain('Stage');
    expect(text.split('\n')[2]).toMatch(/^files: proposal-1\.pdf #\d+$/);
    // Image field files count as the item's files.
    const company = (await h.call('collab/getItem', { item_id: D.items.firstCompany, files_only: true }, json)).body.data;
    expect(company.files.map((f: any) => f.name)).toEqual(['northwindtraders-logo.png']);
  });

  it('a wrong item_id is NOT_FOUND with a hint; a deleted item says it was deleted (Podio 410)', async () => {
    const h = await harness();
    const missing = await h.call('collab/getItem', { item_id: 1 });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: 'NOT_FOUND', details: { parameter: 'item_id', upstream_status: 404 } });
    expect(missing.body.error.message).toContain('not the number at the end of an item URL');
    await podio(h, 'DELETE', `/item/${DEAL + 1}`);
    const gone = await h.call('collab/getItem', { item_id: DEAL + 1 });
    expect(gone.status).toBe(404);
    expect(gone.body.error).toMatchObject({ code: 'NOT_FOUND', details: { upstream_status: 410, upstream_code: 'gone' } });
    expect(gone.body.error.message).toContain('was deleted');
  });
});

describe('filterItems', () => {
  const deals = async (h: H) => (await podio(h, 'POST', `/item/app/${D.apps.deals}/filter/`, { limit: 500 })).items as any[];
  const rawValue = (item: any, id: number) => item.fields.find((f: any) => f.field_id === id)?.values ?? [];

  it('filters by field id or external id with the per-type shapes, sent keyed by field_id', async () => {
    // On the seed's reference day, where its close dates are as written (infra/twins/kit/seed-day.ts).
    const h = await harness({ twins: { collab: { clock: createClock(D.today + 10 * 3_600_000) } } });
    const sent = h.recordRequests('collab');
    const filters = {
      stage: ['Won', O.stage.proposal],
      [F.deals.amount]: { from: 20000, to: 40000 },
      'close-date': { from: '2025-10-01', to: '2026-01-31' },
      title: 'licence',
    };
    const r = await h.call('collab/filterItems', { app_id: D.apps.deals, filters, limit: 500 }, json);
    expect(r.status).toBe(200);
    const body = sent.find((s) => s.path === `/item/app/${D.apps.deals}/filter/`)!.body;
    expect(body.filters).toEqual({
      [F.deals.stage]: [O.stage.won, O.stage.proposal],
      [F.deals.amount]: { from: 20000, to: 40000 },
      [F.deals.closeDate]: { from: '2025-10-01', to: '2026-01-31' },
      [F.deals.title]: 'licence',
    });
    // The tool's answer is exactly what the filters select from all deals.
    const expected = (await deals(h)).filter((d) => {
      const stage = rawValue(d, F.deals.stage)[0]?.value.id;
      const amount = Number(rawValue(d, F.deals.amount)[0]?.value);
      const close = rawValue(d, F.deals.closeDate)[0]?.start_date;
      return [O.stage.won, O.stage.proposal].includes(stage) && amount >= 20000 && amount <= 40000 && close >= '2025-10-01' && close <= '2026-01-31' && d.title.toLowerCase().includes('licence');
    });
    expect(expected.length).toBeGreaterThan(0);
    expect(r.body.data.items.map((i: any) => i.item_id).sort()).toEqual(expected.map((d) => d.item_id).sort());
    expect(r.body.data).toMatchObject({ app_id: D.apps.deals, total: D.counts.deals, filtered: expected.length, offset: 0 });
  });

  it('relations by item ids, contacts by profile ids, and the system keys created_on, created_by, tags', async () => {
    const h = await harness();
    const all = await deals(h);
    const company = rawValue(all[0], F.deals.company)[0].value.item_id;
    const byCompany = (await h.call('collab/filterItems', { app_id: D.apps.deals, filters: { company: [company] }, limit: 500 }, json)).body.data;
    expect(byCompany.items.map((i: any) => i.item_id).sort()).toEqual(all.filter((d) => rawValue(d, F.deals.company)[0]?.value.item_id === company).map((d) => d.item_id).sort());
    const sent = h.recordRequests('collab');
    const r = await h.call('collab/filterItems', { app_id: D.apps.deals, filters: { created_by: D.users.ben.user_id, created_on: { from: '2025-02-01' }, tags: 'priority', owner: D.users.ben.profile_id }, limit: 500 }, json);
    expect(r.status).toBe(200);
    expect(sent.at(-1)!.body.filters).toEqual({
      created_by: [{ type: 'user', id: D.users.ben.user_id }],
      created_on: { from: '2025-02-01' },
      tags: ['priority'],
      [F.deals.owner]: [D.users.ben.profile_id],
    });
    const expected = all.filter((d) => d.created_by.id === D.users.ben.user_id && d.created_on >= '2025-02-01' && d.tags.includes('priority'));
    expect(expected.length).toBeGreaterThan(0);
    expect(r.body.data.items.map((i: any) => i.item_id).sort()).toEqual(expected.map((d) => d.item_id).sort());
  });

  it('refuses a bad filter before any call, naming filters.<key>', async () => {
    const h = await harness();
    await h.call('collab/getApp', { app_id: D.apps.deals });
    const sent = h.recordRequests('collab');
    const cases: [Record<string, unknown>, string][] = [
      [{ stage: 'Nope' }, 'filters.stage'],
      [{ amount: 5 }, 'filters.amount'],
      [{ nope: 1 }, 'filters.nope'],
      [{ created_on: '2025-01-01' }, 'filters.created_on'],
      [{ created_by: ['ben'] }, 'filters.created_by.0'],
      [{ 'close-date': { from: '2025-13-45' } }, 'filters.close-date.from'],
    ];
    for (const [filters, parameter] of cases) {
      const r = await h.call('collab/filterItems', { app_id: D.apps.deals, filters });
      expect(r.status, parameter).toBe(400);
      expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter } });
    }
    // Only the schema read (cached per key) could be sent; no filter call.
    expect(sent.filter((s) => s.path.includes('/filter'))).toHaveLength(0);
  });

  it('pages with limit (default 30, max 500) and offset, and says total, filtered and how to get the next page', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    const first = await h.call('collab/filterItems', { app_id: D.apps.deals }, json);
    expect(first.body.data.items).toHaveLength(30);
    expect(sent.at(-1)!.body).toMatchObject({ limit: 30, offset: 0, sort_desc: true });
    const text: string = (await h.call('collab/filterItems', { app_id: D.apps.deals, filters: { stage: 'Won' }, limit: 10, offset: 10 })).body.data;
    const won = (await h.call('collab/filterItems', { app_id: D.apps.deals, filters: { stage: 'Won' }, count_only: true }, json)).body.data.filtered;
    const lines = text.split('\n');
    expect(lines).toHaveLength(11);
    expect(lines.at(-1)).toMatch(new RegExp(`^showing 10 of ${won} items — pass offset 20 with the same filters for the next page · app #${D.apps.deals} has 160 items · open one at https://podio\\.com/sandbox-co/sales/apps/deals/items/<n>`));
    const last: string = (await h.call('collab/filterItems', { app_id: D.apps.deals, filters: { stage: 'Won' }, limit: 10, offset: won - 3 })).body.data;
    expect(last.split('\n').at(-1)).toMatch(new RegExp(`^showing 3 of ${won} items \\(last page\\)`));
    const over = await h.call('collab/filterItems', { app_id: D.apps.deals, limit: 501 });
    expect(over.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'limit' } });
    const all = await h.call('collab/filterItems', { app_id: D.apps.deals, limit: 500 }, json);
    expect(all.body.data.items).toHaveLength(160);
  });

  it('one line per item: ids first, the title field not repeated, values as text, tags', async () => {
    const h = await harness();
    const page = (await h.call('collab/filterItems', { app_id: D.apps.deals, filters: { tags: 'priority' }, limit: 5 }, json)).body.data;
    const text: string = (await h.call('collab/filterItems', { app_id: D.apps.deals, filters: { tags: 'priority' }, limit: 5 })).body.data;
    const lines = text.split('\n');
    page.items.forEach((item: any, n: number) => {
      const line = lines[n]!;
      expect(line.startsWith(`#${item.item_id} [${item.app_item_id}] ${item.title} · `)).toBe(true);
      expect(line).not.toContain('Deal name:');
      const amount = fieldOf(item, 'amount').value;
      expect(line).toContain(`Amount: ${amount.value} ${amount.currency}`);
      expect(line).toContain(`Stage: ${fieldOf(item, 'stage').value[0].text}`);
      expect(line.endsWith(' · tags: priority')).toBe(true);
    });
  });

  it('sort_by a field (by external id) or a Podio key; sort_desc; a field that cannot order items is refused', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    const r = await h.call('collab/filterItems', { app_id: D.apps.deals, sort_by: 'amount', sort_desc: false, limit: 500 }, json);
    expect(sent.at(-1)!.body).toMatchObject({ sort_by: String(F.deals.amount), sort_desc: false });
    const amounts = r.body.data.items.map((i: any) => Number(fieldOf(i, 'amount')?.value.value ?? NaN)).filter((n: number) => !Number.isNaN(n));
    expect(amounts).toEqual([...amounts].sort((a, b) => a - b));
    await h.call('collab/filterItems', { app_id: D.apps.deals, sort_by: 'app_item_id' });
    expect(sent.at(-1)!.body.sort_by).toBe('app_item_id');
    const bad = await h.call('collab/filterItems', { app_id: D.apps.deals, sort_by: 'owner' });
    expect(bad.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'sort_by' } });
    expect(bad.body.error.message).toContain('contact field');
    const unknown = await h.call('collab/filterItems', { app_id: D.apps.deals, sort_by: 'nope' });
    expect(unknown.body.error.details.parameter).toBe('sort_by');
  });

  it('field_ids keeps some fields; count_only gives the counts; verbose adds metadata, links and field ids', async () => {
    const h = await harness();
    const some = (await h.call('collab/filterItems', { app_id: D.apps.deals, field_ids: ['stage', F.deals.amount], limit: 3 }, json)).body.data;
    for (const i of some.items) expect(i.fields.map((f: any) => f.external_id).every((k: string) => ['stage', 'amount'].includes(k))).toBe(true);
    const count = await h.call('collab/filterItems', { app_id: D.apps.deals, filters: { stage: 'Won' }, count_only: true }, json);
    expect(count.body.data).toEqual({ app_id: D.apps.deals, total: 160, filtered: expect.any(Number), count_only: true });
    expect(count.body.data).not.toHaveProperty('items');
    const countText = (await h.call('collab/filterItems', { app_id: D.apps.deals, filters: { stage: 'Won' }, count_only: true })).body.data;
    expect(countText).toBe(`${count.body.data.filtered} items match (app #${D.apps.deals} has 160 items)`);
    const verbose: string = (await h.call('collab/filterItems', { app_id: D.apps.deals, limit: 1, verbose: true })).body.data;
    expect(verbose.split('\n')[0]).toMatch(/ · created \d{4}-\d{2}-\d{2} .* · app #8102 Deals · revision \d+ · .* · https:\/\/podio\.com\/sandbox-co\/sales\/apps\/deals\/items\/\d+ · Deal name \[#9201 title text\]: /);
  });
});

describe('getItemRevisions', () => {
  it('lists revisions newest first with who, when and each changed field before → after, as readable values', async () => {
    const h = await harness();
    const created = await podio(h, 'POST', `/item/app/${D.apps.deals}/`, { fields: { title: 'History', stage: O.stage.lead, probability: 10, amount: { value: '100.00', currency: 'EUR' } } });
    await podio(h, 'PUT', `/item/${created.item_id}`, { fields: { stage: O.stage.qualified, probability: 40 } });
    await podio(h, 'PUT', `/item/${created.item_id}`, { fields: { amount: { value: '250.50', currency: 'USD' }, notes: '<p>Called <b>them</b></p>', probability: [] } });
    const r = await h.call('collab/getItemRevisions', { item_id: created.item_id }, json);
    expect(r.status).toBe(200);
    const revs = r.body.data.revisions;
    expect(r.body.data).toMatchObject({ item_id: created.item_id, total: 3 });
    expect(revs.map((x: any) => [x.revision, x.type])).toEqual([[2, 'update'], [1, 'update'], [0, 'creation']]);
    expect(revs[2].changes).toBeNull();
    expect(revs[0].created_by).toEqual({ user_id: D.users.owner.user_id, name: D.users.owner.name });
    expect(revs[1].changes).toEqual([
      { field_id: F.deals.stage, external_id: 'stage', label: 'Stage', type: 'category', before: [{ id: O.stage.lead, text: 'Lead' }], after: [{ id: O.stage.qualified, text: 'Qualified' }] },
      { field_id: F.deals.probability, external_id: 'probability', label: 'Probability', type: 'progress', before: 10, after: 40 },
    ]);
    expect(revs[0].changes).toEqual([
      expect.objectContaining({ external_id: 'amount', before: { value: '100.00', currency: 'EUR' }, after: { value: '250.50', currency: 'USD' } }),
      expect.objectContaining({ external_id: 'probability', before: 40, after: null }),
      expect.objectContaining({ external_id: 'notes', before: null, after: '<p>Called <b>them</b></p>' }),
    ]);
    const text: string = (await h.call('collab/getItemRevisions', { item_id: created.item_id })).body.data;
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^rev 2 update \d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})? by Ann Becker: Amount: 100\.00 EUR → 250\.50 USD · Probability: 40% → \(empty\) · Notes: \(empty\) → Called them$/);
    expect(lines[1]).toContain('Stage: Lead → Qualified · Probability: 10% → 40%');
    expect(lines[2]).toMatch(/^rev 0 creation .* by Ann Becker$/);
    expect(lines[3]).toBe(`3 revisions of item #${created.item_id}, newest first`);
  });

  it('limit bounds the diffs fetched (one call each) and says how to see older ones', async () => {
    const h = await harness();
    const created = await podio(h, 'POST', `/item/app/${D.apps.deals}/`, { fields: { title: 'Busy', stage: O.stage.lead, probability: 10 } });
    for (const p of [20, 30, 40, 50]) await podio(h, 'PUT', `/item/${created.item_id}`, { fields: { probability: p } });
    const sent = h.recordRequests('collab');
    const r = await h.call('collab/getItemRevisions', { item_id: created.item_id, limit: 2 });
    const diffs = sent.filter((s) => /\/revision\/\d+\/\d+$/.test(s.path)).map((s) => s.path);
    expect(diffs.sort()).toEqual([`/item/${created.item_id}/revision/2/3`, `/item/${created.item_id}/revision/3/4`]);
    expect(r.body.data.split('\n')).toEqual([
      expect.stringMatching(/^rev 4 update .*: Probability: 40% → 50%$/),
      expect.stringMatching(/^rev 3 update .*: Probability: 30% → 40%$/),
      `showing the newest 2 of 5 revisions of item #${created.item_id} — pass a larger limit (up to 50; each revision is one Podio call) for older ones`,
    ]);
    const over = await h.call('collab/getItemRevisions', { item_id: created.item_id, limit: 51 });
    expect(over.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'limit' } });
  });

  it('a revision that changed no field (a file attached) says so; a deleted item is NOT_FOUND', async () => {
    const h = await harness();
    const text: string = (await h.call('collab/getItemRevisions', { item_id: DEAL })).body.data;
    expect(text.split('\n')[0]).toMatch(/^rev 1 update .*: no field values changed \(tags, files or external_id\)$/);
    await podio(h, 'DELETE', `/item/${DEAL}`);
    const gone = await h.call('collab/getItemRevisions', { item_id: DEAL });
    expect(gone.status).toBe(404);
    expect(gone.body.error).toMatchObject({ code: 'NOT_FOUND', details: { upstream_status: 410, parameter: 'item_id' } });
    expect(gone.body.error.message).toContain('was deleted');
  });
});

describe('getItemReferences', () => {
  it('lists the items pointing at an item, grouped by app, with ids and titles', async () => {
    const h = await harness();
    const company = D.items.firstCompany;
    const all = (await podio(h, 'POST', `/item/app/${D.apps.deals}/filter/`, { limit: 500, filters: { [F.deals.company]: [company] } })).items;
    const project = await podio(h, 'POST', `/item/app/${D.apps.projects}/`, { fields: { 'project-name': 'Points at a deal', deal: all[0].item_id } });
    const r = await h.call('collab/getItemReferences', { item_id: company }, json);
    expect(r.status).toBe(200);
    expect(r.body.data.item_id).toBe(company);
    expect(r.body.data.apps).toEqual([{ app_id: D.apps.deals, name: 'Deals', items: expect.any(Array) }]);
    expect(r.body.data.apps[0].items.map((i: any) => i.item_id).sort()).toEqual(all.map((d: any) => d.item_id).sort());
    expect(r.body.data.apps[0].items[0]).toEqual({ item_id: expect.any(Number), app_item_id: expect.any(Number), title: expect.any(String), link: expect.stringContaining('/apps/deals/items/') });
    expect(r.body.data.total).toBe(all.length);
    const deal = (await h.call('collab/getItemReferences', { item_id: all[0].item_id })).body.data as string;
    const lines = deal.split('\n');
    expect(lines[0]).toBe(`app #${D.apps.projects} Projects (${lines.length - 2 === 1 ? '1 item' : `${lines.length - 2} items`}):`);
    expect(lines).toContain(`  #${project.item_id} [${project.app_item_id}] Points at a deal`);
    expect(lines.at(-1)).toMatch(new RegExp(`^\\d+ items? in 1 app point at item #${all[0].item_id}$`));
  });

  it('says when nothing points at the item, and maps a missing item to NOT_FOUND', async () => {
    const h = await harness();
    const lone = await podio(h, 'POST', `/item/app/${D.apps.companies}/`, { fields: { 'company-name': 'Lonely Ltd' } });
    expect((await h.call('collab/getItemReferences', { item_id: lone.item_id })).body.data).toBe(`no items point at item #${lone.item_id}`);
    const missing = await h.call('collab/getItemReferences', { item_id: 1 });
    expect(missing.body.error).toMatchObject({ code: 'NOT_FOUND', details: { parameter: 'item_id' } });
  });
});

describe('findReferenceableItems', () => {
  it('finds the items a relation field can point to by a part of their title (field by external id with app_id)', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    const r = await h.call('collab/findReferenceableItems', { app_id: D.apps.deals, field_id: 'company', text: ' northwind ', limit: 5 }, json);
    expect(r.status).toBe(200);
    expect(r.body.data.field_id).toBe(F.deals.company);
    expect(r.body.data.items.map((i: any) => i.title)).toEqual(['Northwind Traders Nord', 'Northwind Traders']);
    expect(r.body.data.items[1]).toEqual({ item_id: D.items.firstCompany, app_item_id: 1, title: 'Northwind Traders', link: 'https://podio.com/sandbox-co/sales/apps/companies/items/1', app: { app_id: D.apps.companies, name: 'Companies' } });
    const find = sent.find((s) => s.path.endsWith('/find'))!;
    expect(find.path).toBe(`/item/field/${F.deals.company}/find`);
    expect(Object.fromEntries(find.query)).toEqual({ text: 'northwind', limit: '5' });
    const text: string = (await h.call('collab/findReferenceableItems', { field_id: F.deals.company, text: 'northwind' })).body.data;
    expect(text).toBe(
      `#30031 [31] Northwind Traders Nord (Companies #${D.apps.companies})\n#${D.items.firstCompany} [1] Northwind Traders (Companies #${D.apps.companies})\n2 items field #${F.deals.company} can point to; put the item_id in the field's value`,
    );
  });

  it('limit bounds the answer and says how to see more', async () => {
    const h = await harness();
    const text: string = (await h.call('collab/findReferenceableItems', { field_id: F.projects.deal, limit: 3 })).body.data;
    const lines = text.split('\n');
    expect(lines).toHaveLength(4);
    expect(lines.at(-1)).toBe(`3 items field #${F.projects.deal} can point to — showing the first 3: narrow text or raise limit (max 100); put the item_id in the field's value`);
    expect((await h.call('collab/findReferenceableItems', { field_id: F.deals.company, text: 'zzz' })).body.data).toBe(`no items matching "zzz" for field #${F.deals.company}`);
  });

  it('with app_id, a field that is no relation is refused before the call, listing the relation fields', async () => {
    const h = await harness();
    await h.call('collab/getApp', { app_id: D.apps.deals });
    const sent = h.recordRequests('collab');
    const r = await h.call('collab/findReferenceableItems', { app_id: D.apps.deals, field_id: 'stage', text: 'x' });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'field_id' } });
    expect(r.body.error.message).toContain(`company (${F.deals.company}) "Company"`);
    const unknown = await h.call('collab/findReferenceableItems', { app_id: D.apps.deals, field_id: 'nope' });
    expect(unknown.body.error.details.parameter).toBe('field_id');
    // An external id needs the app to be resolved.
    const ext = await h.call('collab/findReferenceableItems', { field_id: 'company' });
    expect(ext.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'field_id' } });
    expect(ext.body.error.message).toContain('pass app_id');
    expect(sent.filter((s) => s.path.endsWith('/find'))).toHaveLength(0);
  });

  it("without app_id, Podio's refusal of a non-relation or unknown field is explained and names field_id", async () => {
    const h = await harness();
    const cat = await h.call('collab/findReferenceableItems', { field_id: F.deals.stage });
    expect(cat.status).toBe(400);
    expect(cat.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'field_id', upstream_status: 400 } });
    expect(cat.body.error.message).toContain('not an app relation field');
    const none = await h.call('collab/findReferenceableItems', { field_id: 1 });
    expect(none.status).toBe(404);
    expect(none.body.error).toMatchObject({ code: 'NOT_FOUND', details: { parameter: 'field_id' } });
  });
});
