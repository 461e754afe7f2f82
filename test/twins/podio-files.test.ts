import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { inProcessFetch } from '../../infra/twins/kit';
import { PODIO_DEMO, SANDBOX_KEYS, UNATTACHED_FILE_TTL_MS } from '../../infra/twins/podio';
import { podioTwin } from './podio-call';

const D = PODIO_DEMO;
const auth = { authorization: `OAuth2 ${SANDBOX_KEYS.owner}` };

/** POST /file/ as podio-js sends it: multipart with the parts "source" and "filename". */
async function upload(fetcher: typeof fetch, base: string, name: string, text: string, type = 'text/plain') {
  const form = new FormData();
  form.append('source', new Blob([text], { type }), name);
  form.append('filename', name);
  const res = await fetcher(`${base}/file/`, { method: 'POST', headers: auth, body: form });
  return { status: res.status, body: (await res.json()) as any };
}

describe('Podio twin: embeds', () => {
  it('POST /embed/ {url} → {embed_id, url, title, type: link}; a bad URL is 400', async () => {
    const t = podioTwin();
    const r = await t.call('POST', '/embed/', { url: 'https://example.com/pricing/' });
    expect(r.body).toMatchObject({ embed_id: D.firstIds.embed + 30, url: 'https://example.com/pricing/', title: 'example.com/pricing', type: 'link' });
    expect((await t.call('POST', '/embed/', { url: 'ftp://example.com' })).status).toBe(400);
    expect((await t.call('POST', '/embed/', {})).status).toBe(400);
  });
});

describe('Podio twin: files', () => {
  it('POST /file/ multipart → a file object; GET /file/{id}; the bytes on /raw with the key, on its link without', async () => {
    const t = podioTwin();
    const up = await upload(t.fetch, 'https://api.podio.com', 'notes.txt', 'hello podio');
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ file_id: D.firstIds.file + 18, name: 'notes.txt', mimetype: 'text/plain', size: 11, hosted_by: 'podio', context: null, created_on: '2026-01-15 10:00:00' });
    expect((await t.call('GET', `/file/${up.body.file_id}`)).body).toEqual(up.body);
    const raw = await t.fetch(`https://api.podio.com/file/${up.body.file_id}/raw`, { headers: auth });
    expect(await raw.text()).toBe('hello podio');
    expect((await t.fetch(`https://api.podio.com/file/${up.body.file_id}/raw`)).status).toBe(401);
    expect(await (await t.fetch(up.body.link)).text()).toBe('hello podio');
    expect((await t.call('POST', '/file/', { filename: 'x' })).status).toBe(400);
  });

  it('links point back into the twin where it is mounted', async () => {
    const t = podioTwin();
    const server = new Hono();
    server.route('/twins/podio', t.app);
    const fetcher = inProcessFetch(server);
    const up = await upload(fetcher, 'http://localhost:3000/twins/podio', 'a.png', 'png-bytes', 'image/png');
    expect(up.body.link).toMatch(new RegExp(`^http://localhost:3000/twins/podio/files/${up.body.file_id}/[0-9a-f]{24}/a\\.png$`));
    // The link opens without the token, as a signed link does; its secret part is what guards it.
    expect(await (await fetcher(up.body.link)).text()).toBe('png-bytes');
    expect((await fetcher(up.body.link.replace(/\/[0-9a-f]{24}\//, '/000000000000000000000000/'))).status).toBe(404);
    expect(await (await fetcher(`http://localhost:3000/twins/podio/file/${up.body.file_id}/raw`, { headers: auth })).text()).toBe('png-bytes');
  });

  it('POST /file/{id}/attach {ref_type, ref_id}; attaching again elsewhere is 400 file.already_attached', async () => {
    const t = podioTwin();
    const up = await upload(t.fetch, 'https://api.podio.com', 'offer.pdf', '%PDF', 'application/pdf');
    const r = await t.call('POST', `/file/${up.body.file_id}/attach`, { ref_type: 'item', ref_id: D.items.firstDeal });
    expect(r.status).toBe(204);
    const item = (await t.call('GET', `/item/${D.items.firstDeal}`)).body;
    expect(item.files.map((f: any) => f.file_id)).toContain(up.body.file_id);
    expect((await t.call('GET', `/file/${up.body.file_id}`)).body.context).toEqual({ type: 'item', id: D.items.firstDeal });
    const again = await t.call('POST', `/file/${up.body.file_id}/attach`, { ref_type: 'item', ref_id: D.items.firstDeal + 1 });
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('file.already_attached');
    expect((await t.call('POST', `/file/${up.body.file_id}/attach`, { ref_type: 'planet', ref_id: 1 })).status).toBe(400);
  });

  it('file_ids of an item write attach the files; one attached elsewhere is refused', async () => {
    const t = podioTwin();
    const up = await upload(t.fetch, 'https://api.podio.com', 'spec.txt', 'spec');
    const created = await t.call('POST', `/item/app/${D.apps.deals}/`, { fields: { title: 'With file', stage: 401 }, file_ids: [up.body.file_id] });
    expect((await t.call('GET', `/item/${created.body.item_id}`)).body.files.map((f: any) => f.name)).toEqual(['spec.txt']);
    const other = await t.call('PUT', `/item/${D.items.firstDeal}`, { file_ids: [up.body.file_id] });
    expect(other.status).toBe(400);
    expect(other.body.error).toBe('file.already_attached');
  });

  it('unattached uploads are garbage-collected after UNATTACHED_FILE_TTL_MS of twin clock; attached ones stay', async () => {
    const t = podioTwin();
    const loose = await upload(t.fetch, 'https://api.podio.com', 'loose.txt', 'x');
    const kept = await upload(t.fetch, 'https://api.podio.com', 'kept.txt', 'y');
    await t.call('POST', `/file/${kept.body.file_id}/attach`, { ref_type: 'item', ref_id: D.items.firstDeal });
    t.clock.advance(UNATTACHED_FILE_TTL_MS - 1000);
    expect((await t.call('GET', `/file/${loose.body.file_id}`)).status).toBe(200);
    t.clock.advance(1000);
    expect((await t.call('GET', `/file/${loose.body.file_id}`)).status).toBe(404);
    expect((await t.call('GET', `/file/${kept.body.file_id}`)).status).toBe(200);
    expect(UNATTACHED_FILE_TTL_MS).toBe(4 * 3_600_000);
  });

  it('seeded files: logos and photos on image fields, proposals on deals', async () => {
    const t = podioTwin();
    const logo = await t.call('GET', `/file/${D.firstIds.file}`);
    expect(logo.body).toMatchObject({ name: 'northwindtraders-logo.png', mimetype: 'image/png', context: { type: 'item', id: D.items.firstCompany } });
    const deal = (await t.call('GET', `/item/${D.items.firstDeal}`)).body;
    expect(deal.files.map((f: any) => f.mimetype)).toEqual(['application/pdf']);
  });
});

describe('Podio twin: comments', () => {
  const on = `/comment/item/${D.items.firstDeal + 30}/`;

  it('POST /comment/item/{id}/ → {comment_id}; GET renders mentions of known users, drops unknown ones', async () => {
    const t = podioTwin();
    const r = await t.call('POST', on, { value: 'Ping @[Ben Okafor](user:1002) and @[Ghost](user:4242) & <team>', external_id: 'c-1' });
    expect(r.body).toEqual({ comment_id: D.firstIds.comment + 40 });
    const c = (await t.call('GET', `/comment/${r.body.comment_id}`)).body;
    expect(c).toMatchObject({
      comment_id: r.body.comment_id,
      value: 'Ping @[Ben Okafor](user:1002) and @[Ghost](user:4242) & <team>',
      external_id: 'c-1',
      space_id: D.spaces.sales,
      created_on: '2026-01-15 10:00:00',
      created_by: { type: 'user', id: 1001, name: 'Ann Becker' },
      ref: { type: 'item', id: D.items.firstDeal + 30 },
      files: [],
      is_liked: false,
      like_count: 0,
    });
    expect(c.rich_value).toBe('<p>Ping <a href="https://podio.com/users/1002" data-id="1002" data-type="user">@Ben Okafor</a> and Ghost &amp; &lt;team&gt;</p>');
  });

  it('GET /comment/{type}/{id}/: oldest first, limit and offset; the seeded comments carry mentions', async () => {
    const t = podioTwin();
    const seeded = await t.call('GET', `/comment/item/${D.items.firstDeal}/`);
    expect(seeded.body.length).toBe(2);
    expect(seeded.body[0].comment_id).toBeLessThan(seeded.body[1].comment_id);
    expect([...t.state.comments.values()].some((c) => /@\[[^\]]+\]\(user:\d+\)/.test(c.value))).toBe(true);
    for (const n of [1, 2, 3]) await t.call('POST', on, { value: `note ${n}` });
    expect((await t.call('GET', `${on}?limit=2&offset=1`)).body.map((c: any) => c.value)).toEqual(['note 2', 'note 3']);
    expect((await t.call('GET', `/item/${D.items.firstDeal}`)).body.comments).toHaveLength(2);
  });

  it('PUT /comment/{id} keeps the old versions: GET /comment/{id}/revision lists them oldest first', async () => {
    const t = podioTwin();
    const id = (await t.call('POST', on, { value: 'first' })).body.comment_id;
    t.clock.advance(60_000);
    expect((await t.call('PUT', `/comment/${id}`, { value: 'second', embed_url: 'https://example.com/doc' })).status).toBe(204);
    const c = (await t.call('GET', `/comment/${id}`)).body;
    expect(c).toMatchObject({ value: 'second', embed: { url: 'https://example.com/doc', type: 'link' } });
    const revs = (await t.call('GET', `/comment/${id}/revision`)).body;
    expect(revs.map((r: any) => [r.value, r.created_on])).toEqual([['first', '2026-01-15 10:00:00'], ['second', '2026-01-15 10:01:00']]);
    expect(revs[0]).toMatchObject({ rich_value: '<p>first</p>', embed: null, embed_file: null });
  });

  it('DELETE /comment/{id} is 204; an empty value is 400; tasks and unknown objects 404', async () => {
    const t = podioTwin();
    const id = (await t.call('POST', on, { value: 'bye' })).body.comment_id;
    expect((await t.call('DELETE', `/comment/${id}`)).status).toBe(204);
    expect((await t.call('GET', `/comment/${id}`)).status).toBe(404);
    expect((await t.call('POST', on, { value: ' ' })).status).toBe(400);
    expect((await t.call('POST', '/comment/task/1/', { value: 'x' })).status).toBe(404);
    expect((await t.call('POST', '/comment/item/1/', { value: 'x' })).status).toBe(404);
    expect((await t.call('POST', '/comment/planet/1/', { value: 'x' })).status).toBe(400);
  });

  it('file_ids on a comment attach the files to it', async () => {
    const t = podioTwin();
    const up = await upload(t.fetch, 'https://api.podio.com', 'c.txt', 'c');
    const id = (await t.call('POST', on, { value: 'see file', file_ids: [up.body.file_id] })).body.comment_id;
    expect((await t.call('GET', `/comment/${id}`)).body.files.map((f: any) => f.file_id)).toEqual([up.body.file_id]);
    expect((await t.call('GET', `/file/${up.body.file_id}`)).body.context).toEqual({ type: 'comment', id });
  });
});

describe('Podio twin: file listings, copy, update, replace (docs/vendors/podio.md#files)', () => {
  it('GET /file/app/{id}/ and /file/space/{id}/: files on the objects, context with title, filters, sort, paging', async () => {
    const t = podioTwin();
    const app = await t.call('GET', `/file/app/${D.apps.deals}/`);
    expect(app.body.length).toBeGreaterThan(1);
    expect(app.body[0].context).toEqual({ type: 'item', id: expect.any(Number), title: expect.any(String) });
    expect((await t.call('GET', `/file/app/${D.apps.deals}/?limit=1`)).body).toHaveLength(1);
    const byName = (await t.call('GET', `/file/space/${D.spaces.sales}/?sort_by=name&limit=100`)).body.map((f: any) => f.name);
    expect(byName).toEqual([...byName].sort((a: string, b: string) => a.toLowerCase().localeCompare(b.toLowerCase())));
    expect((await t.call('GET', `/file/space/${D.spaces.sales}/?filetype=image&limit=100`)).body.every((f: any) => f.mimetype.startsWith('image/'))).toBe(true);
    expect((await t.call('GET', `/file/app/${D.apps.deals}/?filetype=planet`)).status).toBe(400);
    expect((await t.call('GET', `/file/space/${D.spaces.operations}/`, undefined, SANDBOX_KEYS.member)).status).toBe(403);
  });

  it('POST /file/{id}/copy → {file_id} unattached with external_id file_<id>; PUT /file/{id} sets description (and name)', async () => {
    const t = podioTwin();
    const copy = await t.call('POST', `/file/${D.firstIds.file}/copy`);
    const f = (await t.call('GET', `/file/${copy.body.file_id}`)).body;
    expect(f).toMatchObject({ context: null, external_id: `file_${D.firstIds.file}`, name: 'northwindtraders-logo.png' });
    expect((await t.call('PUT', `/file/${copy.body.file_id}`, { description: 'Logo', name: 'logo.png' })).status).toBe(204);
    expect((await t.call('GET', `/file/${copy.body.file_id}`)).body).toMatchObject({ description: 'Logo', name: 'logo.png' });
    expect((await t.call('PUT', `/file/${copy.body.file_id}`, { description: 5 })).status).toBe(400);
  });

  it('POST /file/{new}/replace {old_file_id}: attachments only, with an unattached new file', async () => {
    const t = podioTwin();
    const old = t.state.items.get(D.items.firstDeal)!.file_ids[0]!;
    const fresh = await upload(t.fetch, 'https://api.podio.com', 'v2.pdf', '%PDF v2', 'application/pdf');
    const attached = await t.call('POST', `/file/${D.firstIds.file + 1}/replace`, { old_file_id: old });
    expect(attached.body.error).toBe('file.already_attached');
    const image = await t.call('POST', `/file/${fresh.body.file_id}/replace`, { old_file_id: D.firstIds.file });
    expect(image.status).toBe(400);
    expect(image.body.error_description).toMatch(/attachment/);
    expect((await t.call('POST', `/file/${fresh.body.file_id}/replace`, { old_file_id: old })).status).toBe(204);
    expect(t.state.items.get(D.items.firstDeal)!.file_ids).toEqual([fresh.body.file_id]);
    expect((await t.call('GET', `/file/${fresh.body.file_id}`)).body.replaces).toEqual([{ file_id: old }]);
    expect((await t.call('GET', `/file/${old}`)).status).toBe(404);
  });

  it('DELETE /file/{id} removes an image from its field value too', async () => {
    const t = podioTwin();
    expect((await t.call('DELETE', `/file/${D.firstIds.file}`)).status).toBe(204);
    const company = (await t.call('GET', `/item/${D.items.firstCompany}`)).body;
    expect(company.fields.some((f: any) => f.type === 'image')).toBe(false);
  });
});
