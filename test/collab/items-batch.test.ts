import { describe, expect, it } from 'vitest';
import { harness } from '../helpers/harness';
import { PODIO_DEMO, type PodioTwin } from '../../infra/twins/podio';

const json = { query: 'format=json' };
const D = PODIO_DEMO;
const U = D.users;
const F = D.fields;
const O = D.options;
const deal = D.items.firstDeal;
const project = D.items.firstProject;

const writes = (sent: { method: string; path: string }[]) => sent.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);
const dealFields = (title: string, more: Record<string, unknown> = {}) => ({ [F.deals.title]: title, [F.deals.stage]: 'Lead', ...more });
const deals = (n: number) => Array.from({ length: n }, (_, i) => ({ fields: dealFields(`Batch deal ${i}`) }));
const RATE_LIMIT = { error: 'rate_limit', error_description: 'You have hit the rate limit. Please wait 300 seconds before trying again' };

type Entry = { index: number; success: boolean; item_id?: number; error?: { code: string; message: string; details?: Record<string, unknown> } };

describe('batchCreateItems', () => {
  it('creates every item, one call each, and names each index with its item_id and link', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    const items = [
      { fields: dealFields('Alpha', { [F.deals.amount]: { value: '100.00', currency: 'EUR' } }), tags: ['a'] },
      { fields: dealFields('Beta', { [F.deals.owner]: { user_id: U.ben.user_id } }), external_id: 'b-2' },
      { fields: dealFields('Gamma') },
    ];
    const r = await h.call('collab/batchCreateItems', { app_id: D.apps.deals, items, silent: true }, json);
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ total: 3, successful: 3, failed: 0 });
    const twin = h.twin<PodioTwin>('collab');
    r.body.data.items.forEach((it: Entry & { link: string }, i: number) => {
      expect(it).toMatchObject({ index: i, success: true, link: expect.stringContaining('/apps/deals/items/') });
      expect(twin.state.items.has(it.item_id!)).toBe(true);
    });
    expect(twin.state.items.get(r.body.data.items[0].item_id)!.tags).toEqual(['a']);
    expect(twin.state.items.get(r.body.data.items[1].item_id)!.external_id).toBe('b-2');
    // One schema read, the members for the contact, then one create per item with the flags.
    const creates = sent.filter((s) => s.method === 'POST');
    expect(creates).toHaveLength(3);
    expect(creates.every((c) => c.query.get('silent') === 'true')).toBe(true);
    expect(creates.map((c) => c.body.fields[F.deals.title]).sort()).toEqual(['Alpha', 'Beta', 'Gamma']);
    expect(creates.find((c) => c.body.fields[F.deals.title] === 'Beta')!.body.fields[F.deals.owner]).toEqual([U.ben.profile_id]);

    const text = await h.call('collab/batchCreateItems', { app_id: D.apps.deals, items: deals(2) });
    const lines = (text.body.data as string).split('\n');
    expect(lines[0]).toBe(`created 2 of 2 items in app #${D.apps.deals}`);
    expect(lines[1]).toMatch(/^item ids by items index: 0→#\d+, 1→#\d+$/);
    expect(lines[2]).toBe('open one at https://podio.com/sandbox-co/sales/apps/deals/items/<app_item_id>');
  });

  it('one invalid entry: none is created, and the refusal names every bad index', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    const items = [
      { fields: dealFields('Fine') },
      { fields: dealFields('Bare date', { [F.deals.closeDate]: '2025-06-30' }) },
      { fields: dealFields('Fine too') },
      { fields: dealFields('Bad stage', { [F.deals.stage]: 'Maybe' }) },
    ];
    const r = await h.call('collab/batchCreateItems', { app_id: D.apps.deals, items }, json);
    expect(r.status).toBe(400);
    expect(r.body.error.details.parameter).toBe(`items.1.fields.${F.deals.closeDate}`);
    expect(r.body.error.details.invalid.map((p: { index: number; parameter: string }) => [p.index, p.parameter])).toEqual([
      [1, `items.1.fields.${F.deals.closeDate}`],
      [3, `items.3.fields.${F.deals.stage}`],
    ]);
    expect(r.body.error.message).toContain('2 of 4 items are invalid (items 1, 3); none was written.');
    expect(r.body.error.message).toContain('{"start": "YYYY-MM-DD HH:MM:SS"}');
    expect(r.body.error.message).toContain('Qualified');
    expect(writes(sent)).toEqual([]);
  });

  it('refuses a user id in a contact (checked against the org members) before any create', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    const items = [{ fields: dealFields('A', { [F.deals.owner]: U.ben.profile_id }) }, { fields: dealFields('B', { [F.deals.owner]: U.ben.user_id }) }];
    const r = await h.call('collab/batchCreateItems', { app_id: D.apps.deals, items }, json);
    expect(r.status).toBe(400);
    expect(r.body.error.details.parameter).toBe(`items.1.fields.${F.deals.owner}`);
    expect(r.body.error.message).toContain('contact fields take profile_id; getOrganizationMembers lists both');
    expect(writes(sent)).toEqual([]);
  });

  it('makes one embed of a URL repeated across items; a URL Podio refuses is named at every item that gave it', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    const site = (url: string) => ['East', 'West'].map((name) => ({ fields: { [F.companies.name]: name, [F.companies.website]: url } }));
    const ok = await h.call('collab/batchCreateItems', { app_id: D.apps.companies, items: site('https://shared.example.com/') }, json);
    expect(ok.body.data).toMatchObject({ successful: 2 });
    expect(writes(sent).filter((w) => w === 'POST /embed/')).toHaveLength(1);

    h.twin<PodioTwin>('collab').faults.inject({ method: 'POST', path: '/embed/', times: 1, fault: { status: 400, body: { error: 'invalid_value', error_description: 'The URL could not be embedded' } } });
    const bad = await h.call('collab/batchCreateItems', { app_id: D.apps.companies, items: site('https://gone.example.com/') }, json);
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.invalid.map((p: { parameter: string }) => p.parameter)).toEqual([`items.0.fields.${F.companies.website}`, `items.1.fields.${F.companies.website}`]);
    expect(writes(sent).filter((w) => w.startsWith('POST /item/'))).toHaveLength(2);
  });

  it('refuses more than 500 items before any call', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    const r = await h.call('collab/batchCreateItems', { app_id: D.apps.deals, items: deals(501) }, json);
    expect(r.status).toBe(400);
    expect(r.body.error.details.parameter).toBe('items');
    expect(sent).toEqual([]);
  });

  it("stops at Podio's rate limit (420): started items finish, the rest are NOT_ATTEMPTED with retry_after, every index named", async () => {
    // 5 calls an hour: the schema read and 4 creates pass, the other creates of the first wave get 420.
    const h = await harness({ twins: { collab: { rateLimit: { limit: 5, windowMs: 3_600_000 } } } });
    const twin = h.twin<PodioTwin>('collab');
    const before = twin.state.items.size;
    const r = await h.call('collab/batchCreateItems', { app_id: D.apps.deals, items: deals(30) }, json);
    expect(r.status).toBe(200);
    const items: Entry[] = r.body.data.items;
    expect(items.map((i) => i.index)).toEqual([...Array(30).keys()]);
    expect(r.body.data).toMatchObject({ total: 30, successful: 4, failed: 26 });
    expect(twin.state.items.size - before).toBe(4);
    const limited = items.filter((i) => i.error?.code === 'RATE_LIMITED');
    const skipped = items.filter((i) => i.error?.code === 'NOT_ATTEMPTED');
    // 10 in flight at once: the first wave was sent, nothing after it.
    expect(limited).toHaveLength(6);
    expect(skipped.map((i) => i.index)).toEqual([...Array(20).keys()].map((i) => i + 10));
    for (const s of skipped) expect(s.error!.details).toMatchObject({ retry_after: expect.any(Number), stopped_by: expect.any(Number) });
    expect(limited[0]!.error!.details).toMatchObject({ upstream_status: 420, upstream_code: 'rate_limit' });

    const text = await h.call('collab/batchCreateItems', { app_id: D.apps.deals, items: deals(12) });
    expect(text.status).toBe(200);
    expect(text.body.data).toMatch(/^created 0 of 12 items in app #8102 — 12 failed\n/);
    expect(text.body.data).toMatch(/items\.\d+ failed: RATE_LIMITED Podio rate limit reached/);
    expect(text.body.data).toMatch(/not sent \(items\.\d+ stopped the batch\) — resend items 10-11 after \d+ s$/);
  });
});

describe('batchUpdateItems', () => {
  it('updates items of different apps, in both modes, and answers revision and title per index', async () => {
    const h = await harness();
    const twin = h.twin<PodioTwin>('collab');
    const sent = h.recordRequests('collab');
    const r = await h.call(
      'collab/batchUpdateItems',
      {
        items: [
          { item_id: deal, fields: { [F.deals.stage]: 'Won', [F.deals.probability]: 100 }, tags: ['closed'] },
          { item_id: deal + 1, field_id: F.deals.stage, field_value: O.stage.lost },
          { item_id: project, fields: { [F.projects.completion]: 50, [F.projects.team]: [{ email: U.elena.mail }] } },
        ],
        hook: false,
      },
      json,
    );
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ total: 3, successful: 3, failed: 0 });
    expect(r.body.data.items[0]).toMatchObject({ index: 0, success: true, item_id: deal, revision: expect.any(Number), title: expect.any(String) });
    expect(twin.state.items.get(deal)!.tags).toEqual(['closed']);
    const puts = sent.filter((s) => s.method === 'PUT');
    expect(puts.map((p) => p.path).sort()).toEqual([`/item/${deal + 1}/value/${F.deals.stage}`, `/item/${deal}`, `/item/${project}`].sort());
    expect(puts.every((p) => p.query.get('hook') === 'false')).toBe(true);
    expect(puts.find((p) => p.path === `/item/${project}`)!.body.fields[F.projects.team]).toEqual([U.elena.profile_id]);
    // Each app's schema is read once.
    expect(sent.filter((s) => s.path === `/app/${D.apps.deals}`)).toHaveLength(1);

    const text = await h.call('collab/batchUpdateItems', { items: [{ item_id: deal, fields: { [F.deals.probability]: 90 } }] });
    expect(text.body.data).toBe(`updated 1 of 1 items in Podio\nitem ids by items index: 0→#${deal}`);
  });

  it('a missing item and a bad value are refused together, nothing written', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    const r = await h.call(
      'collab/batchUpdateItems',
      { items: [{ item_id: deal, fields: { [F.deals.probability]: 101 } }, { item_id: 999999, fields: { [F.deals.probability]: 1 } }, { item_id: deal + 1, fields: { [F.deals.probability]: 5 } }] },
      json,
    );
    expect(r.status).toBe(400);
    expect(r.body.error.details.invalid.map((p: { parameter: string }) => p.parameter)).toEqual([`items.0.fields.${F.deals.probability}`, 'items.1.item_id']);
    expect(writes(sent)).toEqual([]);
  });

  it('refuses a mode error and a repeated item before any call', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    const mode = await h.call('collab/batchUpdateItems', { items: [{ item_id: deal, fields: { x: 1 } }, { item_id: deal + 1, field_value: 'Won' }] }, json);
    expect(mode.body.error.details.parameter).toBe('items.1.field_id');
    const twice = await h.call('collab/batchUpdateItems', { items: [{ item_id: deal, tags: [] }, { item_id: deal + 1, tags: [] }, { item_id: deal, tags: ['x'] }] }, json);
    expect(twice.body.error.details.parameter).toBe('items.2.item_id');
    expect(twice.body.error.message).toContain('items.0');
    const value = await h.call('collab/batchUpdateItems', { items: [{ item_id: deal, field_id: F.deals.closeDate, field_value: '2025-01-01' }] }, json);
    expect(value.body.error.details.parameter).toBe('items.0.field_value');
    expect(writes(sent)).toEqual([]);
  });

  it('a stale revision fails its entry only (Podio 409), naming items.<i>.revision', async () => {
    const h = await harness();
    const r = await h.call('collab/batchUpdateItems', { items: [{ item_id: deal, fields: { [F.deals.probability]: 5 }, revision: 99 }, { item_id: deal + 1, fields: { [F.deals.probability]: 5 } }] }, json);
    expect(r.body.data).toMatchObject({ successful: 1, failed: 1 });
    expect(r.body.data.items[0]).toMatchObject({ index: 0, success: false, item_id: deal, error: { code: 'INVALID_PARAMETER', details: { parameter: 'items.0.revision', upstream_status: 409 } } });
  });
});

describe('batchDeleteItems', () => {
  it('deletes each item; one already gone fails with NOT_FOUND and names its item', async () => {
    const h = await harness();
    const twin = h.twin<PodioTwin>('collab');
    await h.call('collab/deleteItem', { item_id: deal + 1 }, json);
    const r = await h.call('collab/batchDeleteItems', { items: [{ item_id: deal }, { item_id: deal + 1 }, { item_id: deal + 2 }], silent: true }, json);
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ total: 3, successful: 2, failed: 1 });
    expect(r.body.data.items[0]).toEqual({ index: 0, success: true, item_id: deal, deleted: true });
    expect(r.body.data.items[1]).toMatchObject({ index: 1, success: false, item_id: deal + 1, error: { code: 'NOT_FOUND', details: { upstream_status: 410 } } });
    expect(twin.state.items.has(deal)).toBe(false);
    expect(twin.state.items.has(deal + 2)).toBe(false);

    const text = await h.call('collab/batchDeleteItems', { items: [{ item_id: deal + 3 }, { item_id: deal }] });
    const lines = (text.body.data as string).split('\n');
    expect(lines[0]).toBe('deleted 1 of 2 items in Podio — 1 failed');
    expect(lines[1]).toBe(`item ids by items index: 0→#${deal + 3}`);
    expect(lines[2]).toMatch(/^items\.1 failed: NOT_FOUND /);
    expect(lines[3]).toBe('(permanent)');
  });

  it('refuses an item given twice before any call', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    const r = await h.call('collab/batchDeleteItems', { items: [{ item_id: deal }, { item_id: deal }] }, json);
    expect(r.body.error.details.parameter).toBe('items.1.item_id');
    expect(sent).toEqual([]);
  });

  it('a 420 on one delete stops the batch: the rest are NOT_ATTEMPTED with retry_after', async () => {
    const h = await harness();
    const twin = h.twin<PodioTwin>('collab');
    twin.faults.inject({ method: 'DELETE', path: `/item/${deal + 3}`, times: 1, fault: { status: 420, body: RATE_LIMIT } });
    const ids = Array.from({ length: 25 }, (_, i) => deal + i);
    const r = await h.call('collab/batchDeleteItems', { items: ids.map((item_id) => ({ item_id })) }, json);
    const items: Entry[] = r.body.data.items;
    expect(r.body.data).toMatchObject({ total: 25, successful: 9, failed: 16 });
    expect(items[3]).toMatchObject({ success: false, item_id: deal + 3, error: { code: 'RATE_LIMITED', details: { retry_after: 300 } } });
    expect(items.slice(10).every((i) => i.error?.code === 'NOT_ATTEMPTED' && i.error.details?.retry_after === 300 && i.item_id === ids[i.index])).toBe(true);
    expect(ids.slice(10).every((id) => twin.state.items.has(id))).toBe(true);
  });
});
