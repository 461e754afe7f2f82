import { describe, expect, it } from 'vitest';
import { PODIO_DEMO, SANDBOX_KEYS } from '../../infra/twins/podio';
import { podioError, podioTwin } from './podio-call';

const D = PODIO_DEMO;
const F = D.fields;

describe('Podio twin: auth, errors, rate limit, URLs', () => {
  it('401 unauthorized without a token, invalid_token for an unknown one', async () => {
    const t = podioTwin();
    const none = await t.call('GET', '/user/status', undefined, null);
    expect(none.status).toBe(401);
    expect(none.body).toEqual(podioError('unauthorized', 'GET', '/user/status'));
    const bearer = await t.fetch('https://api.podio.com/user/status', { headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}` } });
    expect(bearer.status).toBe(401);
    const unknown = await t.call('GET', '/user/status', undefined, 'not-a-token');
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(podioError('invalid_token', 'GET', '/user/status'));
  });

  it('an unknown route is a 404 in Podio\'s error shape, with the query string echoed', async () => {
    const t = podioTwin();
    const r = await t.call('GET', '/no/such/thing?x=1');
    expect(r.status).toBe(404);
    expect(r.body).toEqual(podioError('not_found', 'GET', '/no/such/thing', 'x=1'));
  });

  it('non-integer ids are 400 invalid_value', async () => {
    const t = podioTwin();
    const r = await t.call('GET', '/item/12ab');
    expect(r.status).toBe(400);
    expect(r.body).toEqual(podioError('invalid_value', 'GET', '/item/12ab'));
    expect(r.body.error_description).toContain('item_id');
  });

  it('every answer carries X-Rate-Limit-Limit/Remaining; past the limit HTTP 420 rate_limit', async () => {
    const t = podioTwin({ rateLimit: { limit: 3, windowMs: 3_600_000 } });
    const first = await t.call('GET', '/user/status');
    expect(first.headers.get('x-rate-limit-limit')).toBe('3');
    expect(first.headers.get('x-rate-limit-remaining')).toBe('2');
    const missing = await t.call('GET', '/item/abc');
    expect(missing.headers.get('x-rate-limit-remaining')).toBe('1');
    await t.call('GET', '/user/status');
    const over = await t.call('GET', '/user/status');
    expect(over.status).toBe(420);
    expect(over.body).toEqual(podioError('rate_limit', 'GET', '/user/status'));
    expect(over.body.error_description).toBe('You have hit the rate limit. Please wait 3600 seconds before trying again');
    expect(over.headers.get('x-rate-limit-remaining')).toBe('0');
    // The member's token has its own budget; the window reopens on the twin's clock.
    expect((await t.call('GET', '/user/status', undefined, SANDBOX_KEYS.member)).status).toBe(200);
    t.clock.advance(3_600_000);
    expect((await t.call('GET', '/user/status')).status).toBe(200);
  });

  it('the default limit is 1000 calls per hour', async () => {
    const t = podioTwin();
    expect((await t.call('GET', '/user/status')).headers.get('x-rate-limit-limit')).toBe('1000');
  });

  it('URLs are slash-aware: each path answers with and without its trailing slash', async () => {
    const t = podioTwin();
    for (const path of ['/org/', '/org', `/app/space/${D.spaces.sales}/`, `/app/space/${D.spaces.sales}`, `/item/${D.items.firstDeal}`, `/item/${D.items.firstDeal}/`]) {
      expect((await t.call('GET', path)).status, path).toBe(200);
    }
    expect((await t.call('POST', `/item/app/${D.apps.deals}/filter`, { limit: 1 })).status).toBe(200);
  });

  it('silent/hook flags are read on writes: a non-boolean is 400', async () => {
    const t = podioTwin();
    const ok = await t.call('PUT', `/item/${D.items.firstDeal}?silent=true&hook=false`, { fields: { [F.deals.probability]: 55 } });
    expect(ok.status).toBe(200);
    const bad = await t.call('PUT', `/item/${D.items.firstDeal}?hook=maybe`, { fields: { [F.deals.probability]: 55 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error_description).toContain('hook');
  });
});

describe('Podio twin: user, orgs, spaces, members, contacts, apps', () => {
  it('GET /user/status: user and profile ids differ; timezone', async () => {
    const t = podioTwin();
    const r = await t.call('GET', '/user/status');
    expect(r.body.user).toMatchObject({ user_id: 1001, mail: D.users.owner.mail, timezone: 'UTC' });
    expect(r.body.profile).toMatchObject({ profile_id: 5101, user_id: 1001, name: 'Ann Becker', mail: [D.users.owner.mail] });
    const member = await t.call('GET', '/user/status', undefined, SANDBOX_KEYS.member);
    expect(member.body.profile).toMatchObject({ profile_id: D.users.member.profile_id, user_id: D.users.member.user_id });
  });

  it('GET /org/ lists the org with the spaces the user sees; the member sees Sales only', async () => {
    const t = podioTwin();
    const owner = await t.call('GET', '/org/');
    expect(owner.body).toHaveLength(1);
    expect(owner.body[0]).toMatchObject({ org_id: 7001, name: 'Sandbox Co', url_label: 'sandbox-co' });
    expect(owner.body[0].spaces.map((s: any) => [s.space_id, s.name, s.url_label])).toEqual([[7101, 'Sales', 'sales'], [7102, 'Operations', 'operations']]);
    const member = await t.call('GET', '/org/', undefined, SANDBOX_KEYS.member);
    expect(member.body[0].spaces.map((s: any) => s.space_id)).toEqual([7101]);
  });

  it('GET /org/{id}, /org/{id}/space/, /space/{id}: 404 for an unknown org, 403 for a space of others', async () => {
    const t = podioTwin();
    expect((await t.call('GET', '/org/7001')).body).toMatchObject({ org_id: 7001, url_label: 'sandbox-co' });
    expect((await t.call('GET', '/org/7002')).status).toBe(404);
    expect((await t.call('GET', '/org/7001/space/', undefined, SANDBOX_KEYS.member)).body.map((s: any) => s.space_id)).toEqual([7101]);
    expect((await t.call('GET', '/space/7102')).body).toMatchObject({ space_id: 7102, name: 'Operations', org: { org_id: 7001 } });
    const denied = await t.call('GET', '/space/7102', undefined, SANDBOX_KEYS.member);
    expect(denied.status).toBe(403);
    expect(denied.body.error).toBe('forbidden');
    expect((await t.call('GET', '/space/7999')).status).toBe(404);
  });

  it('GET /org/{id}/member/: user and profile, role, paged', async () => {
    const t = podioTwin();
    const all = await t.call('GET', '/org/7001/member/');
    expect(all.body).toHaveLength(6);
    expect(all.body[0]).toMatchObject({ user: { user_id: 1001, mail: D.users.owner.mail }, profile: { profile_id: 5101, user_id: 1001, name: 'Ann Becker' }, role: 'admin', employee: true });
    expect(all.body.map((m: any) => m.role)).toContain('regular');
    const page = await t.call('GET', '/org/7001/member/?limit=2&offset=4');
    expect(page.body.map((m: any) => m.user.user_id)).toEqual([1005, 1006]);
    expect((await t.call('GET', '/org/7001/member/?limit=-1')).status).toBe(400);
  });

  it('GET /contact/ and /contact/org/{id}: profiles filtered by name and mail', async () => {
    const t = podioTwin();
    const byName = await t.call('GET', '/contact/?name=okafor');
    expect(byName.body).toEqual([expect.objectContaining({ profile_id: 5102, user_id: 1002, type: 'user', name: 'Ben Okafor', mail: [D.users.ben.mail] })]);
    const byMail = await t.call('GET', `/contact/org/7001?mail=${encodeURIComponent('elena.rossi@')}`);
    expect(byMail.body.map((p: any) => p.profile_id)).toEqual([5105]);
    expect((await t.call('GET', '/contact/?limit=2&offset=1')).body.map((p: any) => p.profile_id)).toEqual([5102, 5103]);
  });

  it('GET /contact/user/{user_id} and /contact/{profile_id}/v2: one profile by either id', async () => {
    const t = podioTwin();
    expect((await t.call('GET', '/contact/user/1003')).body).toMatchObject({ profile_id: 5103, user_id: 1003, name: 'Chloé Martin' });
    expect((await t.call('GET', '/contact/5103/v2')).body).toMatchObject({ profile_id: 5103, user_id: 1003 });
    expect((await t.call('GET', '/contact/1003/v2')).status).toBe(404);
  });

  it('GET /app/space/{id}/ and /app/{id}: fields with ids, external ids, config', async () => {
    const t = podioTwin();
    const list = await t.call('GET', `/app/space/${D.spaces.sales}/`);
    expect(list.body.map((a: any) => [a.app_id, a.config.name])).toEqual([[8101, 'Companies'], [8102, 'Deals']]);
    const app = await t.call('GET', `/app/${D.apps.deals}`);
    expect(app.body).toMatchObject({ app_id: 8102, space_id: 7101, url_label: 'deals', config: { name: 'Deals', item_name: 'Deal' } });
    const stage = app.body.fields.find((f: any) => f.field_id === F.deals.stage);
    expect(stage).toMatchObject({ external_id: 'stage', type: 'category', label: 'Stage', status: 'active', config: { label: 'Stage', required: true, delta: 3 } });
    expect(stage.config.settings.options[0]).toEqual({ id: 401, text: 'Lead', color: 'F2F2F2', status: 'active' });
    const money = app.body.fields.find((f: any) => f.type === 'money');
    expect(money.config.settings.allowed_currencies).toEqual(['EUR', 'USD']);
    const relation = app.body.fields.find((f: any) => f.type === 'app');
    expect(relation.config.settings.referenced_apps).toEqual([{ app_id: 8101, view_id: null }]);
    expect((await t.call('GET', `/app/${D.apps.projects}`, undefined, SANDBOX_KEYS.member)).status).toBe(403);
    expect((await t.call('GET', '/app/9999')).status).toBe(404);
  });

  it('the seeded apps cover every field type of docs/vendors/podio.md#field-types', async () => {
    const t = podioTwin();
    const types = new Set<string>();
    for (const id of Object.values(D.apps)) for (const f of (await t.call('GET', `/app/${id}`)).body.fields) types.add(f.type);
    expect([...types].sort()).toEqual(['app', 'calculation', 'category', 'contact', 'date', 'duration', 'email', 'embed', 'image', 'location', 'money', 'number', 'progress', 'tel', 'text']);
  });

  it('GET /app/org/{org}/space/{space}/{app} resolves URL labels', async () => {
    const t = podioTwin();
    expect((await t.call('GET', '/app/org/sandbox-co/space/operations/projects')).body.app_id).toBe(8201);
    expect((await t.call('GET', '/app/org/sandbox-co/space/sales/projects')).status).toBe(404);
  });
});

describe('Podio twin: items', () => {
  it('POST /item/app/{id}/ creates an item above every seeded id; GET reads it in Podio\'s shape', async () => {
    const t = podioTwin();
    const created = await t.call('POST', `/item/app/${D.apps.deals}/`, {
      external_id: 'crm-7',
      fields: { title: 'New pilot', [F.deals.stage]: D.options.stage.qualified, amount: { value: '1200.50', currency: 'USD' }, [F.deals.probability]: 50 },
      tags: ['new'],
    });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ item_id: D.items.last + 1, app_item_id: D.counts.deals + 1, title: 'New pilot', link: `https://podio.com/sandbox-co/sales/apps/deals/items/${D.counts.deals + 1}` });
    const item = (await t.call('GET', `/item/${created.body.item_id}`)).body;
    expect(item).toMatchObject({
      item_id: D.items.last + 1,
      app: { app_id: 8102, name: 'Deals' },
      app_item_id: D.counts.deals + 1,
      external_id: 'crm-7',
      title: 'New pilot',
      created_on: '2026-01-15 10:00:00',
      created_by: { type: 'user', id: 1001, name: 'Ann Becker' },
      current_revision: { revision: 0, created_on: '2026-01-15 10:00:00' },
      tags: ['new'],
      files: [],
      comments: [],
    });
    expect(item.fields.find((f: any) => f.external_id === 'amount').values).toEqual([{ value: '1200.5000', currency: 'USD' }]);
    expect(item.fields.find((f: any) => f.external_id === 'weighted-value').values).toEqual([{ value: '600.2500' }]);
    // Newest first: the filter's default order puts the new item at the top.
    const list = await t.call('POST', `/item/app/${D.apps.deals}/filter/`, { limit: 1 });
    expect(list.body.items[0].item_id).toBe(created.body.item_id);
  });

  it('a required field missing on create is 400', async () => {
    const t = podioTwin();
    const r = await t.call('POST', `/item/app/${D.apps.deals}/`, { fields: { title: 'No stage' } });
    expect(r.status).toBe(400);
    expect(r.body.error_description).toContain('Stage');
  });

  it('GET /item/{id}/basic, /item/{id}/value and /item/{id}/value/{field}', async () => {
    const t = podioTwin();
    const full = (await t.call('GET', `/item/${D.items.firstDeal}`)).body;
    expect((await t.call('GET', `/item/${D.items.firstDeal}/basic`)).body.fields).toEqual(full.fields);
    expect((await t.call('GET', `/item/${D.items.firstDeal}/value`)).body).toEqual(full.fields);
    const stage = full.fields.find((f: any) => f.external_id === 'stage').values;
    expect((await t.call('GET', `/item/${D.items.firstDeal}/value/stage`)).body).toEqual(stage);
    expect((await t.call('GET', `/item/${D.items.firstDeal}/value/${F.deals.stage}`)).body).toEqual(stage);
    expect((await t.call('GET', `/item/${D.items.firstDeal}/value/colour`)).status).toBe(404);
  });

  it('GET /app/{app_id}/item/{app_item_id} finds by the per-app number', async () => {
    const t = podioTwin();
    const r = await t.call('GET', `/app/${D.apps.deals}/item/1`);
    expect(r.body.item_id).toBe(D.items.firstDeal);
    expect((await t.call('GET', `/app/${D.apps.deals}/item/9999`)).status).toBe(404);
  });

  it('PUT /item/{id}: only the given fields change; {revision, title}; a stale revision is 409', async () => {
    const t = podioTwin();
    const id = D.items.firstCompany;
    const before = (await t.call('GET', `/item/${id}`)).body;
    const r = await t.call('PUT', `/item/${id}`, { fields: { 'company-name': 'Renamed GmbH' }, revision: before.current_revision.revision });
    expect(r.body).toEqual({ revision: before.current_revision.revision + 1, title: 'Renamed GmbH' });
    const after = (await t.call('GET', `/item/${id}`)).body;
    expect(after.fields.find((f: any) => f.external_id === 'industry')).toEqual(before.fields.find((f: any) => f.external_id === 'industry'));
    const stale = await t.call('PUT', `/item/${id}`, { fields: { 'company-name': 'Again' }, revision: before.current_revision.revision });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toBe('conflict');
  });

  it('PUT /item/{id}/value/{field}: one field by id or external id; an empty array clears it', async () => {
    const t = podioTwin();
    const id = D.items.firstDeal;
    const r = await t.call('PUT', `/item/${id}/value/products`, [D.options.products.platform, D.options.products.support]);
    expect(r.status).toBe(200);
    const products = (await t.call('GET', `/item/${id}`)).body.fields.find((f: any) => f.field_id === F.deals.products);
    expect(products.values.map((v: any) => v.value.text)).toEqual(['Core platform', 'Premium support']);
    await t.call('PUT', `/item/${id}/value/${F.deals.products}`, []);
    expect((await t.call('GET', `/item/${id}`)).body.fields.some((f: any) => f.field_id === F.deals.products)).toBe(false);
    expect((await t.call('PUT', `/item/${id}/value/nope`, [1])).status).toBe(404);
  });

  it('DELETE /item/{id} is 204, then the item is gone (410)', async () => {
    const t = podioTwin();
    const r = await t.call('DELETE', `/item/${D.items.firstProject}`);
    expect(r.status).toBe(204);
    const after = await t.call('GET', `/item/${D.items.firstProject}`);
    expect(after.status).toBe(410);
    expect(after.body.error).toBe('gone');
    expect((await t.call('GET', '/item/1')).status).toBe(404);
  });

  it('POST /item/{id}/clone copies the values into a new item', async () => {
    const t = podioTwin();
    const r = await t.call('POST', `/item/${D.items.firstDeal}/clone`);
    expect(r.body).toEqual({ item_id: D.items.last + 1 });
    const [a, b] = [(await t.call('GET', `/item/${D.items.firstDeal}`)).body, (await t.call('GET', `/item/${r.body.item_id}`)).body];
    expect(b.fields.map((f: any) => f.values)).toEqual(a.fields.map((f: any) => f.values));
    expect(b.app_item_id).toBe(D.counts.deals + 1);
  });

  it('the member cannot read items of a space they are not in (403)', async () => {
    const t = podioTwin();
    expect((await t.call('GET', `/item/${D.items.firstProject}`, undefined, SANDBOX_KEYS.member)).status).toBe(403);
    expect((await t.call('GET', `/item/${D.items.firstDeal}`, undefined, SANDBOX_KEYS.member)).status).toBe(200);
  });
});
