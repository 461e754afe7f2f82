import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { harness } from '../helpers/harness';
import { loopbackServer } from '../helpers/loopback';
import { hasOpenssl, selfSignedServer, type TlsServer } from '../helpers/tls';
import { PODIO_DEMO, type PodioTwin } from '../../infra/twins/podio';

// Image URLs must be https: a TLS server on 127.0.0.1 with a certificate made at test time, trusted
// by the SSRF-guarded fetch through its `ca` option (every other rule of the guard stays on; the
// loopback address is allowed only because ALLOW_HTTP_HOSTS lists 127.0.0.1).
const testCa = vi.hoisted(() => ({ pem: '' }));
vi.mock('../../shared/vendor/fetch-url', async (importOriginal) => {
  const m = await importOriginal<typeof import('../../shared/vendor/fetch-url')>();
  return { ...m, fetchUrl: (url: string, o: Parameters<typeof m.fetchUrl>[1]) => m.fetchUrl(url, { ...o, ...(testCa.pem ? { ca: testCa.pem } : {}) }) };
});

const json = { query: 'format=json' };
const D = PODIO_DEMO;
const U = D.users;
const F = D.fields;
const O = D.options;
const deal = D.items.firstDeal;

// A file "on the internet": a server on 127.0.0.1, reachable only because ALLOW_HTTP_HOSTS lists it.
const base = loopbackServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/pdf' });
  res.end(Buffer.from('%PDF-1.4 signed order'));
});

/** The writes among the recorded requests (reads are the checks before them). */
const writes = (sent: { method: string; path: string }[]) => sent.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);
const asked = (sent: { method: string; path: string }[]) => sent.map((r) => `${r.method} ${r.path}`);

/** The minimal valid Deal: its two required fields. */
const dealFields = (more: Record<string, unknown> = {}) => ({ [F.deals.title]: 'Kestrel Labs — Core platform', [F.deals.stage]: O.stage.lead, ...more });

describe('createItem', () => {
  it('converts every input shape of a Companies item and answers {item_id, link}', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    const fields = {
      [F.companies.name]: 'Kestrel Labs',
      [F.companies.industry]: 'Retail',
      [F.companies.address]: 'Karl-Liebknecht-Str. 5, 10178 Berlin',
      [F.companies.phone]: [{ type: 'work', value: '+49 30 1234567' }],
      [F.companies.email]: [{ type: 'work', value: 'hello@kestrel.test' }],
      [F.companies.website]: 'https://kestrel.test/about',
      [F.companies.employees]: 42,
      [F.companies.accountManager]: { email: U.ben.mail },
    };
    const r = await h.call('collab/createItem', { app_id: D.apps.companies, fields }, json);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body.data).sort()).toEqual(['item_id', 'link']);
    expect(r.body.data.item_id).toBeGreaterThan(D.items.last);
    expect(r.body.data.link).toMatch(/^https:\/\/podio\.com\/sandbox-co\/sales\/apps\/companies\/items\/\d+$/);
    // The schema, the org's members (for the contact) and the embed come before the write.
    expect(asked(sent)).toEqual([
      `GET /app/${D.apps.companies}`,
      `GET /space/${D.spaces.sales}`,
      `GET /org/${D.org.org_id}/member/`,
      'POST /embed/',
      `POST /item/app/${D.apps.companies}/`,
    ]);
    expect(sent[3]!.body).toEqual({ url: 'https://kestrel.test/about' });
    const body = sent[4]!.body;
    expect(body.fields).toMatchObject({
      [F.companies.name]: 'Kestrel Labs',
      [F.companies.industry]: [O.industry.retail],
      [F.companies.accountManager]: [U.ben.profile_id],
      [F.companies.phone]: [{ type: 'work', value: '+49 30 1234567' }],
      [F.companies.email]: [{ type: 'work', value: 'hello@kestrel.test' }],
      [F.companies.employees]: 42,
    });
    expect(body.fields[F.companies.website]).toEqual([{ embed: expect.any(Number) }]);
    expect(JSON.stringify(body.fields[F.companies.address])).toContain('Karl-Liebknecht-Str. 5');
    const row = h.twin<PodioTwin>('collab').state.items.get(r.body.data.item_id)!;
    expect(row.values.get(F.companies.accountManager)).toBeDefined();
    expect(row.values.get(F.companies.website)).toBeDefined();
  });

  it('writes money, dates, progress, relations, categories by text and contacts; id_only false adds title and app_item_id; flags go on the query', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    const r = await h.call(
      'collab/createItem',
      {
        app_id: D.apps.deals,
        fields: dealFields({
          [F.deals.company]: D.items.firstCompany,
          [F.deals.amount]: { value: '18000.50', currency: 'USD' },
          [F.deals.products]: ['Core platform', 'Premium support'],
          [F.deals.closeDate]: { start: '2025-06-30 00:00:00' },
          [F.deals.probability]: 60,
          [F.deals.owner]: U.chloe.profile_id,
        }),
        tags: ['q3', 'inbound'],
        external_id: 'crm-7',
        hook: false,
        silent: true,
        id_only: false,
      },
      json,
    );
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ title: 'Kestrel Labs — Core platform', app_item_id: expect.any(Number), link: expect.stringContaining('/apps/deals/items/') });
    const post = sent.find((s) => s.method === 'POST')!;
    expect(post.query.get('hook')).toBe('false');
    expect(post.query.get('silent')).toBe('true');
    expect(post.body).toMatchObject({ external_id: 'crm-7', tags: ['q3', 'inbound'] });
    expect(post.body.fields).toMatchObject({
      [F.deals.company]: [D.items.firstCompany],
      [F.deals.amount]: { value: '18000.50', currency: 'USD' },
      [F.deals.products]: [O.products.platform, O.products.support],
      [F.deals.probability]: 60,
      [F.deals.owner]: [U.chloe.profile_id],
    });
    // No member list is read for a contact that is already a profile id of the org? It is: every contact is checked.
    expect(asked(sent)).toContain(`GET /org/${D.org.org_id}/member/`);
    const row = h.twin<PodioTwin>('collab').state.items.get(r.body.data.item_id)!;
    expect(row.tags).toEqual(['q3', 'inbound']);
    expect(row.external_id).toBe('crm-7');

    const text = await h.call('collab/createItem', { app_id: D.apps.deals, fields: dealFields(), id_only: false });
    expect(text.body.data).toMatch(/^created item #\d+ "Kestrel Labs — Core platform" \(app item \d+\) — https:\/\/podio\.com\/sandbox-co\/sales\/apps\/deals\/items\/\d+$/);
    const short = await h.call('collab/createItem', { app_id: D.apps.deals, fields: dealFields() });
    expect(short.body.data).toMatch(/^created item #\d+ — https:\/\/podio\.com\/\S+$/);
  });

  it('reads the app schema once per key for a while (cached)', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    await h.call('collab/createItem', { app_id: D.apps.deals, fields: dealFields() }, json);
    await h.call('collab/createItem', { app_id: D.apps.deals, fields: dealFields() }, json);
    expect(asked(sent).filter((s) => s === `GET /app/${D.apps.deals}`)).toHaveLength(1);
    // Podio's defaults, said out loud: hooks run, notifications go.
    const post = sent.find((s) => s.method === 'POST')!;
    expect([post.query.get('hook'), post.query.get('silent')]).toEqual(['true', 'false']);
  });

  it('resolves {user_id} and {email} contacts to profile ids', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    const r = await h.call('collab/createItem', { app_id: D.apps.projects, fields: { [F.projects.name]: 'Rollout', [F.projects.team]: [{ user_id: U.david.user_id }, { email: U.elena.mail.toUpperCase() }, U.ben.profile_id] } }, json);
    expect(r.status).toBe(200);
    expect(sent.find((s) => s.method === 'POST')!.body.fields[F.projects.team]).toEqual([U.david.profile_id, U.elena.profile_id, U.ben.profile_id]);
  });

  it('takes a date range with times and a duration in seconds', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    const r = await h.call(
      'collab/createItem',
      { app_id: D.apps.projects, fields: { [F.projects.name]: 'Rollout', [F.projects.timeline]: { start: '2025-07-01 09:00:00', end: '2025-07-15 17:30:00' }, [F.projects.effort]: 7200, [F.projects.completion]: 0 } },
      json,
    );
    expect(r.status).toBe(200);
    const body = sent.find((s) => s.method === 'POST')!.body.fields;
    expect(body[F.projects.effort]).toBe(7200);
    expect(JSON.stringify(body[F.projects.timeline])).toContain('2025-07-15');
  });

  it('uploads https URLs of file_ids (SSRF-guarded download) and attaches them to the new item', async () => {
    const h = await harness({ env: { ALLOW_HTTP_HOSTS: '127.0.0.1' } });
    const sent = h.recordRequests('collab');
    const r = await h.call('collab/createItem', { app_id: D.apps.deals, fields: dealFields(), file_ids: [`${base()}/orders/po-17.pdf`] }, json);
    expect(r.status).toBe(200);
    expect(writes(sent)).toEqual(['POST /file/', `POST /item/app/${D.apps.deals}/`]);
    const row = h.twin<PodioTwin>('collab').state.items.get(r.body.data.item_id)!;
    expect(row.file_ids).toHaveLength(1);
    expect(sent.find((s) => s.path.startsWith('/item/'))!.body.file_ids).toEqual(row.file_ids);
    expect(h.twin<PodioTwin>('collab').state.files.get(row.file_ids[0]!)!.name).toBe('po-17.pdf');
  });

  describe('refuses invalid values before any write, naming the field and the expected shape', () => {
    const cases: [string, Record<string, unknown>, string, RegExp][] = [
      ['a bare date string', { [F.deals.closeDate]: '2025-06-30' }, `fields.${F.deals.closeDate}`, /\{"start": "YYYY-MM-DD HH:MM:SS"\}/],
      ['a date without time', { [F.deals.closeDate]: { start: '2025-06-30' } }, `fields.${F.deals.closeDate}.start`, /YYYY-MM-DD HH:MM:SS/],
      ['money as a number', { [F.deals.amount]: 1200 }, `fields.${F.deals.amount}`, /currency/],
      ['a currency the app does not allow', { [F.deals.amount]: { value: '10.00', currency: 'GBP' } }, `fields.${F.deals.amount}.currency`, /EUR.*USD/],
      ['an unknown category text', { [F.deals.products]: ['Hosting'] }, `fields.${F.deals.products}.0`, /Core platform.*Automations/],
      ['progress over 100', { [F.deals.probability]: 150 }, `fields.${F.deals.probability}`, /0 to 100/],
      ['an unknown field', { nope: 1 }, 'fields.nope', /title \(9201\)/],
      ['the calculation field', { [F.deals.weightedValue]: 5 }, `fields.${F.deals.weightedValue}`, /computes/],
    ];
    it.each(cases)('%s', async (_what, extra, parameter, message) => {
      const h = await harness();
      const sent = h.recordRequests('collab');
      const r = await h.call('collab/createItem', { app_id: D.apps.deals, fields: dealFields(extra) }, json);
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe('INVALID_PARAMETER');
      expect(r.body.error.details.parameter).toBe(parameter);
      expect(r.body.error.message).toMatch(message);
      expect(asked(sent)).toEqual([`GET /app/${D.apps.deals}`]);
    });

    it('a phone of a type the field does not take, and an email without a value', async () => {
      const h = await harness();
      const sent = h.recordRequests('collab');
      const phone = await h.call('collab/createItem', { app_id: D.apps.companies, fields: { [F.companies.name]: 'X', [F.companies.phone]: [{ type: 'fax', value: '+1 555' }] } }, json);
      expect(phone.body.error.details.parameter).toMatch(new RegExp(`^fields\\.${F.companies.phone}`));
      expect(phone.body.error.message).toMatch(/work/);
      const email = await h.call('collab/createItem', { app_id: D.apps.companies, fields: { [F.companies.name]: 'X', [F.companies.email]: [{ type: 'work' }] } }, json);
      expect(email.body.error.details.parameter).toMatch(new RegExp(`^fields\\.${F.companies.email}`));
      expect(writes(sent)).toEqual([]);
    });

    it('a missing required field', async () => {
      const h = await harness();
      const r = await h.call('collab/createItem', { app_id: D.apps.deals, fields: { [F.deals.title]: 'No stage' } }, json);
      expect(r.body.error.details.parameter).toBe('fields.stage');
    });

    it('a user id in a contact field: refused before the call, naming the profile id to use', async () => {
      const h = await harness();
      const sent = h.recordRequests('collab');
      const r = await h.call('collab/createItem', { app_id: D.apps.deals, fields: dealFields({ [F.deals.owner]: U.ben.user_id }) }, json);
      expect(r.status).toBe(400);
      expect(r.body.error.details.parameter).toBe(`fields.${F.deals.owner}`);
      expect(r.body.error.message).toContain('contact fields take profile_id; getOrganizationMembers lists both');
      expect(r.body.error.message).toContain(String(U.ben.profile_id));
      expect(writes(sent)).toEqual([]);
    });

    it('a {user_id} or {email} that is no member of the org', async () => {
      const h = await harness();
      const sent = h.recordRequests('collab');
      const user = await h.call('collab/createItem', { app_id: D.apps.deals, fields: dealFields({ [F.deals.owner]: { user_id: 4242 } }) }, json);
      expect(user.body.error.details.parameter).toBe(`fields.${F.deals.owner}.user_id`);
      const mail = await h.call('collab/createItem', { app_id: D.apps.deals, fields: dealFields({ [F.deals.owner]: [{ email: 'nobody@example.com' }] }) }, json);
      expect(mail.body.error.details.parameter).toBe(`fields.${F.deals.owner}.0.email`);
      expect(writes(sent)).toEqual([]);
    });

    it('a file_ids entry that is neither an id nor a URL, and an http URL of a host that is not allowed', async () => {
      const h = await harness();
      const sent = h.recordRequests('collab');
      const text = await h.call('collab/createItem', { app_id: D.apps.deals, fields: dealFields(), file_ids: [60001, 'order.pdf'] }, json);
      expect(text.body.error.details.parameter).toBe('file_ids.1');
      const http = await h.call('collab/createItem', { app_id: D.apps.deals, fields: dealFields(), file_ids: ['http://files.example.com/a.pdf'] }, json);
      expect(http.body.error.details.parameter).toBe('file_ids.0');
      expect(writes(sent)).toEqual([]);
    });
  });

  it('a file_ids id attached elsewhere: Podio refuses it, the answer names file_ids and says to copyFile', async () => {
    const h = await harness();
    const twin = h.twin<PodioTwin>('collab');
    const attached = [...twin.state.files.values()].find((f) => f.context !== null)!.file_id;
    const before = twin.state.items.size;
    const r = await h.call('collab/createItem', { app_id: D.apps.deals, fields: dealFields(), file_ids: [attached] }, json);
    expect(r.status).toBe(400);
    expect(r.body.error.details).toMatchObject({ parameter: 'file_ids', upstream_code: 'file.already_attached' });
    expect(r.body.error.message).toContain('copyFile');
    expect(twin.state.items.size).toBe(before);
    const update = await h.call('collab/updateItem', { item_id: deal, file_ids: [attached] }, json);
    expect(update.body.error.details.parameter).toBe('file_ids');
  });

  it('refuses an embed URL Podio cannot embed, naming the field', async () => {
    const h = await harness();
    h.twin<PodioTwin>('collab').faults.inject({ method: 'POST', path: '/embed/', times: 1, fault: { status: 400, body: { error: 'invalid_value', error_description: 'The URL could not be embedded' } } });
    const sent = h.recordRequests('collab');
    const r = await h.call('collab/createItem', { app_id: D.apps.companies, fields: { [F.companies.name]: 'X', [F.companies.website]: 'https://unreachable.example.com/' } }, json);
    expect(r.status).toBe(400);
    expect(r.body.error.details).toMatchObject({ parameter: `fields.${F.companies.website}`, upstream_status: 400, upstream_code: 'invalid_value' });
    expect(writes(sent)).toEqual(['POST /embed/']);
  });

  it("maps Podio's errors with upstream_status and upstream_code", async () => {
    const h = await harness();
    const twin = h.twin<PodioTwin>('collab');
    const missing = await h.call('collab/createItem', { app_id: 999999, fields: { x: 1 } }, json);
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: 'NOT_FOUND', details: { upstream_status: 404, upstream_code: 'not_found' } });

    twin.faults.inject({ method: 'POST', path: `/item/app/${D.apps.deals}/`, times: 1, fault: { status: 420, body: { error: 'rate_limit', error_description: 'You have hit the rate limit. Please wait 300 seconds before trying again' } } });
    const limited = await h.call('collab/createItem', { app_id: D.apps.deals, fields: dealFields() }, json);
    expect(limited.status).toBe(429);
    expect(limited.body.error).toMatchObject({ code: 'RATE_LIMITED', details: { retry_after: 300, upstream_status: 420, upstream_code: 'rate_limit' } });

    const sent = h.recordRequests('collab');
    twin.faults.inject({ method: 'POST', path: `/item/app/${D.apps.deals}/`, times: 1, fault: { status: 503, body: { error: 'unavailable', error_description: 'Down for maintenance' } } });
    const down = await h.call('collab/createItem', { app_id: D.apps.deals, fields: dealFields() }, json);
    expect(down.status).toBe(500);
    expect(down.body.error).toMatchObject({ code: 'INTERNAL_ERROR', details: { upstream_status: 503, upstream_code: 'unavailable' } });
    // A create is never retried: a second one could duplicate the item.
    expect(writes(sent)).toEqual([`POST /item/app/${D.apps.deals}/`]);
  });
});

describe('updateItem', () => {
  it('updates several fields, answers {revision, title}, and passes hook and silent on', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    const r = await h.call('collab/updateItem', { item_id: deal, fields: { [F.deals.stage]: 'Won', [F.deals.probability]: 100 }, hook: false, silent: true }, json);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body.data).sort()).toEqual(['revision', 'title']);
    expect(r.body.data.revision).toBeGreaterThan(0);
    // The item names its app; then the app's schema checks the values.
    expect(asked(sent)).toEqual([`GET /item/${deal}`, `GET /app/${D.apps.deals}`, `PUT /item/${deal}`]);
    expect(sent[2]!.body).toEqual({ fields: { [F.deals.stage]: [O.stage.won], [F.deals.probability]: 100 } });
    expect(sent[2]!.query.get('hook')).toBe('false');
    expect(sent[2]!.query.get('silent')).toBe('true');

    const text = await h.call('collab/updateItem', { item_id: deal, fields: { [F.deals.probability]: 90 } });
    expect(text.body.data).toBe(`updated item #${deal} "${r.body.data.title}" — revision ${r.body.data.revision + 1}; set fields ${F.deals.probability}`);
  });

  it('single-field mode sends the value alone to the value endpoint; id_only false adds item_id, app_item_id and link', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    const r = await h.call('collab/updateItem', { item_id: deal, field_id: F.deals.stage, field_value: 'Lost', id_only: false }, json);
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ item_id: deal, app_item_id: expect.any(Number), link: expect.stringContaining('/apps/deals/items/'), revision: expect.any(Number) });
    const put = sent.find((s) => s.method === 'PUT')!;
    expect(put.path).toBe(`/item/${deal}/value/${F.deals.stage}`);
    expect(put.body).toEqual([O.stage.lost]);
  });

  it('tags replace the existing tags', async () => {
    const h = await harness();
    const twin = h.twin<PodioTwin>('collab');
    twin.state.items.get(deal)!.tags = ['old', 'stale'];
    const r = await h.call('collab/updateItem', { item_id: deal, tags: ['closed'] }, json);
    expect(r.status).toBe(200);
    expect(twin.state.items.get(deal)!.tags).toEqual(['closed']);
    await h.call('collab/updateItem', { item_id: deal, tags: [] }, json);
    expect(twin.state.items.get(deal)!.tags).toEqual([]);
  });

  it.each([
    ['both modes', { fields: { [F.deals.probability]: 10 }, field_id: F.deals.stage, field_value: 'Won' }, 'fields'],
    ['neither mode', {}, 'fields'],
    ['field_value without field_id', { field_value: 'Won' }, 'field_id'],
    ['field_id without field_value', { field_id: F.deals.stage }, 'field_value'],
    ['app_id', { app_id: D.apps.deals, fields: { [F.deals.probability]: 10 } }, 'app_id'],
  ])('refuses %s before any call', async (_what, params, parameter) => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    const r = await h.call('collab/updateItem', { item_id: deal, ...params }, json);
    expect(r.status).toBe(400);
    expect(r.body.error.details.parameter).toBe(parameter);
    expect(sent).toEqual([]);
    if (parameter === 'app_id') expect(r.body.error.message).toContain('item_id');
  });

  it('checks values against the item\'s app: a bad single value names field_value, a user id in a contact is refused', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    const bad = await h.call('collab/updateItem', { item_id: deal, field_id: F.deals.closeDate, field_value: '2025-07-01' }, json);
    expect(bad.body.error.details.parameter).toBe('field_value');
    expect(bad.body.error.message).toContain('{"start": "YYYY-MM-DD HH:MM:SS"}');
    const user = await h.call('collab/updateItem', { item_id: deal, fields: { owner: U.david.user_id } }, json);
    expect(user.body.error.message).toContain('contact fields take profile_id; getOrganizationMembers lists both');
    expect(writes(sent)).toEqual([]);
  });

  it('a stale revision is a clear conflict (Podio 409), nothing written', async () => {
    const h = await harness();
    const first = await h.call('collab/updateItem', { item_id: deal, fields: { [F.deals.probability]: 20 } }, json);
    const stale = first.body.data.revision - 1;
    const r = await h.call('collab/updateItem', { item_id: deal, fields: { [F.deals.probability]: 30 }, revision: stale }, json);
    expect(r.status).toBe(400);
    expect(r.body.error.details).toMatchObject({ parameter: 'revision', upstream_status: 409 });
    expect(r.body.error.message).toContain(`after revision ${stale}`);
    expect(r.body.error.message).toContain('getItem');
    const ok = await h.call('collab/updateItem', { item_id: deal, fields: { [F.deals.probability]: 30 }, revision: first.body.data.revision }, json);
    expect(ok.body.data.revision).toBe(first.body.data.revision + 1);
  });

  it('an unknown item is NOT_FOUND with Podio\'s status', async () => {
    const h = await harness();
    const r = await h.call('collab/updateItem', { item_id: 999999, fields: { x: 1 } }, json);
    expect(r.status).toBe(404);
    expect(r.body.error.details.upstream_status).toBe(404);
  });
});

describe('deleteItem', () => {
  it('deletes permanently: {deleted: true, item_id}; the item is then gone (410 → NOT_FOUND)', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    const r = await h.call('collab/deleteItem', { item_id: deal, hook: false }, json);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ deleted: true, item_id: deal });
    expect(asked(sent)).toEqual([`DELETE /item/${deal}`]);
    expect(sent[0]!.query.get('hook')).toBe('false');
    expect(h.twin<PodioTwin>('collab').state.items.has(deal)).toBe(false);
    const again = await h.call('collab/deleteItem', { item_id: deal }, json);
    expect(again.status).toBe(404);
    expect(again.body.error.details.upstream_status).toBe(410);
    const text = await h.call('collab/deleteItem', { item_id: deal + 1 });
    expect(text.body.data).toBe(`deleted item #${deal + 1} (permanent)`);
  });
});

describe('cloneItem', () => {
  it('copies an item to a new item_id with the same values; silent goes on the query', async () => {
    const h = await harness();
    const twin = h.twin<PodioTwin>('collab');
    const sent = h.recordRequests('collab');
    const r = await h.call('collab/cloneItem', { item_id: deal, silent: true }, json);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body.data)).toEqual(['item_id']);
    const copy = twin.state.items.get(r.body.data.item_id)!;
    expect([...copy.values]).toEqual([...twin.state.items.get(deal)!.values]);
    expect(sent[0]!.query.get('silent')).toBe('true');
    const text = await h.call('collab/cloneItem', { item_id: deal });
    expect(text.body.data).toMatch(new RegExp(`^cloned item #${deal} → new item #\\d+$`));
  });

  it('include_files copies each attached file to a new file id on the copy; the originals stay', async () => {
    const h = await harness();
    const twin = h.twin<PodioTwin>('collab');
    const source = [...twin.state.items.values()].find((i) => i.file_ids.length > 0)!;
    const originals = [...source.file_ids];
    const sent = h.recordRequests('collab');
    const r = await h.call('collab/cloneItem', { item_id: source.item_id, include_files: true }, json);
    expect(r.status).toBe(200);
    const copy = twin.state.items.get(r.body.data.item_id)!;
    expect(copy.file_ids).toHaveLength(originals.length);
    expect(copy.file_ids.some((id) => originals.includes(id))).toBe(false);
    expect(twin.state.items.get(source.item_id)!.file_ids).toEqual(originals);
    expect(r.body.data.files.map((f: { file_id: number }) => f.file_id)).toEqual(originals);
    expect(r.body.data.files.map((f: { new_file_id: number }) => f.new_file_id)).toEqual(copy.file_ids);
    expect(writes(sent).filter((w) => w.endsWith('/copy'))).toHaveLength(originals.length);
    const text = await h.call('collab/cloneItem', { item_id: source.item_id, include_files: true });
    expect(text.body.data).toMatch(new RegExp(`^cloned item #${source.item_id} → new item #\\d+; ${originals.length} files? copied$`));
  });
});

describe.skipIf(!hasOpenssl())('image fields: https URLs downloaded through the SSRF-guarded fetch and uploaded', () => {
  let port = 0;
  let server: TlsServer;
  const fetched: string[] = [];
  beforeAll(async () => {
    server = await selfSignedServer('IP:127.0.0.1', (req, res) => {
      fetched.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'image/png' }).end('PNGDATA');
    });
    testCa.pem = server.cert;
    port = server.port;
  });
  afterAll(async () => {
    testCa.pem = '';
    await server.close();
  });

  it('createItem uploads the image and writes its new file id', async () => {
    const h = await harness({ env: { ALLOW_HTTP_HOSTS: '127.0.0.1' } });
    const sent = h.recordRequests('collab');
    const url = `https://127.0.0.1:${port}/site/photo.png`;
    const r = await h.call('collab/createItem', { app_id: D.apps.projects, fields: { [F.projects.name]: 'Site survey', [F.projects.attachments]: url } }, json);
    expect(r.status).toBe(200);
    expect(writes(sent)).toEqual(['POST /file/', `POST /item/app/${D.apps.projects}/`]);
    const fileIds = sent[sent.length - 1]!.body.fields[F.projects.attachments];
    expect(fileIds).toHaveLength(1);
    const file = h.twin<PodioTwin>('collab').state.files.get(fileIds[0])!;
    expect(file.name).toBe('photo.png');
    expect(Buffer.from(file.content).toString()).toBe('PNGDATA');
    expect(fetched).toContain('/site/photo.png');
  });

  it('batchCreateItems downloads and uploads a URL repeated across items once', async () => {
    const h = await harness({ env: { ALLOW_HTTP_HOSTS: '127.0.0.1' } });
    const sent = h.recordRequests('collab');
    const logo = `https://127.0.0.1:${port}/brand/logo.png`;
    const items = ['North', 'South'].map((name) => ({ fields: { [F.companies.name]: name, [F.companies.logo]: logo } }));
    const r = await h.call('collab/batchCreateItems', { app_id: D.apps.companies, items }, json);
    expect(r.body.data).toMatchObject({ successful: 2 });
    expect(writes(sent).filter((w) => w === 'POST /file/')).toHaveLength(1);
    const creates = sent.filter((s) => s.path.startsWith('/item/app/'));
    expect(creates[0]!.body.fields[F.companies.logo]).toEqual(creates[1]!.body.fields[F.companies.logo]);
  });

  it('an http image URL is refused before any call: only https is downloaded', async () => {
    const h = await harness({ env: { ALLOW_HTTP_HOSTS: '127.0.0.1' } });
    const sent = h.recordRequests('collab');
    const r = await h.call('collab/createItem', { app_id: D.apps.projects, fields: { [F.projects.name]: 'X', [F.projects.attachments]: [`http://127.0.0.1:${port}/a.png`] } }, json);
    expect(r.body.error.details.parameter).toBe(`fields.${F.projects.attachments}.0`);
    expect(r.body.error.message).toContain('only https URLs are downloaded');
    expect(writes(sent)).toEqual([]);
  });
});

describe('image fields follow the file rules: a file is attached to one object only', () => {
  it('refuses a file attached elsewhere (as file_ids does), before any write; the item\'s own image is kept on update; an unattached file is taken', async () => {
    const h = await harness();
    const twin = h.twin<PodioTwin>('collab');
    const logo = D.firstIds.file;
    const owner = twin.state.files.get(logo)!.context!;
    const sent = h.recordRequests('collab');
    const r = await h.call('collab/createItem', { app_id: D.apps.companies, fields: { [F.companies.name]: 'Borrowed logo', [F.companies.logo]: [logo] } }, json);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: `fields.${F.companies.logo}.0` } });
    expect(r.body.error.message).toContain(`file ${logo} is already attached to item #${owner.id}`);
    expect(r.body.error.message).toMatch(/attached to one object only.*copyFile/);
    expect(writes(sent)).toEqual([]);
    // The same refusal on update of another item, naming the field of that update.
    const other = await h.call('collab/updateItem', { item_id: owner.id + 1, fields: { [F.companies.logo]: logo } }, json);
    expect(other.body.error?.details.parameter).toBe(`fields.${F.companies.logo}`);
    // The item that has it may give it again.
    const own = await h.call('collab/updateItem', { item_id: owner.id, fields: { [F.companies.logo]: [logo] } }, json);
    expect(own.status).toBe(200);
    // A copy (unattached) is taken.
    const copy = (await h.call('collab/copyFile', { file_id: logo }, json)).body.data.file_id;
    const ok = await h.call('collab/createItem', { app_id: D.apps.companies, fields: { [F.companies.name]: 'Own logo', [F.companies.logo]: [copy] } }, json);
    expect(ok.status).toBe(200);
    expect(twin.state.files.get(copy)!.context).toEqual({ type: 'item', id: ok.body.data.item_id });
  });
});
