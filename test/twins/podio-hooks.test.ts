import { describe, expect, it } from 'vitest';
import { PODIO_DEMO, SANDBOX_KEYS } from '../../infra/twins/podio';
import { podioTwin } from './podio-call';

const D = PODIO_DEMO;

interface Sent {
  url: string;
  contentType: string;
  form: Record<string, string>;
}

/** The twin with its hook POSTs captured instead of sent. */
function twin(hookTargets: 'public' | 'any' = 'public') {
  const sent: Sent[] = [];
  const hookFetch = (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    sent.push({ url: String(input), contentType: new Headers(init?.headers).get('content-type') ?? '', form: Object.fromEntries(new URLSearchParams(String(init?.body))) });
    return new Response('ok');
  }) as typeof fetch;
  const t = podioTwin({ hookFetch, hookTargets });
  const active = async (type: string, ref = `app/${D.apps.deals}`, url = 'https://hooks.example.com/in') => {
    const { body } = await t.call('POST', `/hook/${ref}/`, { url, type });
    await t.call('POST', `/hook/${body.hook_id}/verify/request`);
    await t.hooks.idle();
    const code = sent.findLast((s) => s.form.hook_id === String(body.hook_id))!.form.code;
    expect((await t.call('POST', `/hook/${body.hook_id}/verify/validate`, { code })).status).toBe(204);
    return body.hook_id as number;
  };
  return { ...t, sent, active };
}

describe('Podio twin: hooks (docs/vendors/podio.md#hooks)', () => {
  it('POST /hook/{ref_type}/{ref_id}/ → {hook_id}; GET lists it inactive; DELETE removes it', async () => {
    const t = twin();
    const r = await t.call('POST', `/hook/app/${D.apps.deals}/`, { url: 'https://hooks.example.com/in', type: 'item.create' });
    expect(r.body).toEqual({ hook_id: 40001 });
    const list = await t.call('GET', `/hook/app/${D.apps.deals}/`);
    expect(list.body).toEqual([{ hook_id: 40001, status: 'inactive', type: 'item.create', url: 'https://hooks.example.com/in', created_on: '2026-01-15 10:00:00', created_by: { type: 'user', id: 1001 }, created_via: { id: 1, name: 'Podio' } }]);
    expect((await t.call('DELETE', '/hook/40001')).status).toBe(204);
    expect((await t.call('GET', `/hook/app/${D.apps.deals}`)).body).toEqual([]);
    // Ids keep growing after a delete.
    expect((await t.call('POST', `/hook/app/${D.apps.deals}/`, { url: 'https://hooks.example.com/in', type: 'item.create' })).body).toEqual({ hook_id: 40002 });
  });

  it('refuses a type of the other kind of object, a private or odd-port URL, an 11th hook of a type; unknown objects 404, others\' 403', async () => {
    const t = twin();
    expect((await t.call('POST', `/hook/space/${D.spaces.sales}/`, { url: 'https://h.example.com', type: 'item.create' })).status).toBe(400);
    expect((await t.call('POST', `/hook/app/${D.apps.deals}/`, { url: 'https://h.example.com', type: 'member_add' })).status).toBe(400);
    expect((await t.call('POST', `/hook/app/${D.apps.deals}/`, { url: 'https://127.0.0.1/in', type: 'item.create' })).body.error_description).toMatch(/publicly reachable/);
    expect((await t.call('POST', `/hook/app/${D.apps.deals}/`, { url: 'https://h.example.com:8080/in', type: 'item.create' })).body.error_description).toMatch(/port 80 and 443/);
    for (let i = 0; i < 10; i++) expect((await t.call('POST', `/hook/app/${D.apps.deals}/`, { url: `https://h.example.com/${i}`, type: 'item.update' })).status).toBe(200);
    expect((await t.call('POST', `/hook/app/${D.apps.deals}/`, { url: 'https://h.example.com/10', type: 'item.update' })).status).toBe(400);
    expect((await t.call('POST', '/hook/app/999/', { url: 'https://h.example.com', type: 'item.create' })).status).toBe(404);
    expect((await t.call('POST', `/hook/app/${D.apps.projects}/`, { url: 'https://h.example.com', type: 'item.create' }, SANDBOX_KEYS.member)).status).toBe(403);
    expect((await t.call('POST', '/hook/planet/1/', { url: 'https://h.example.com', type: 'item.create' })).status).toBe(400);
  });

  it('verification: a form POST of type=hook.verify, hook_id and code; a wrong code is 400; validate activates', async () => {
    const t = twin();
    const { body } = await t.call('POST', `/hook/app/${D.apps.deals}/`, { url: 'https://hooks.example.com/in', type: 'item.create' });
    expect((await t.call('POST', `/hook/${body.hook_id}/verify/request`)).status).toBe(204);
    await t.hooks.idle();
    expect(t.sent).toEqual([{ url: 'https://hooks.example.com/in', contentType: 'application/x-www-form-urlencoded', form: { type: 'hook.verify', _type: 'hook.verify', hook_id: String(body.hook_id), code: expect.stringMatching(/^[0-9a-f]{16}$/) } }]);
    expect((await t.call('POST', `/hook/${body.hook_id}/verify/validate`, { code: 'wrong' })).status).toBe(400);
    expect((await t.call('POST', `/hook/${body.hook_id}/verify/validate`, { code: t.sent[0]!.form.code })).status).toBe(204);
    expect((await t.call('GET', `/hook/app/${D.apps.deals}/`)).body[0].status).toBe('active');
    // The code works once.
    expect((await t.call('POST', `/hook/${body.hook_id}/verify/validate`, { code: t.sent[0]!.form.code })).status).toBe(400);
  });

  it('item writes fire item events with item_id, item_revision_id and external_id; ?hook=false fires none; a no-op update fires none', async () => {
    const t = twin();
    const created = await t.active('item.create');
    const updated = await t.active('item.update');
    t.sent.length = 0;
    const item = (await t.call('POST', `/item/app/${D.apps.deals}/`, { fields: { title: 'Hooked', stage: 401 }, external_id: 'ext-1' })).body;
    await t.call('PUT', `/item/${item.item_id}/value/title`, 'Hooked 2');
    await t.call('PUT', `/item/${item.item_id}`, { fields: { title: 'Hooked 2' } });
    await t.call('POST', `/item/app/${D.apps.deals}/?hook=false`, { fields: { title: 'Quiet', stage: 401 } });
    await t.call('PUT', `/item/${item.item_id}?hook=false`, { fields: { title: 'Quiet 2' } });
    await t.hooks.idle();
    expect(t.sent.map((s) => s.form)).toEqual([
      { type: 'item.create', hook_id: String(created), item_id: String(item.item_id), item_revision_id: expect.any(String), external_id: 'ext-1' },
      { type: 'item.update', hook_id: String(updated), item_id: String(item.item_id), item_revision_id: expect.any(String), external_id: 'ext-1' },
    ]);
    // Another app's hooks are not told.
    const other = await t.active('item.create', `app/${D.apps.companies}`);
    t.sent.length = 0;
    await t.call('POST', `/item/app/${D.apps.deals}/`, { fields: { title: 'Deal only', stage: 401 } });
    await t.hooks.idle();
    expect(t.sent.map((s) => s.form.hook_id)).not.toContain(String(other));
  });

  it('file writes fire file.change with action_type and file_ids; replace names both files', async () => {
    const t = twin();
    const hook = await t.active('file.change');
    t.sent.length = 0;
    const old = t.state.items.get(D.items.firstDeal)!.file_ids[0]!;
    const form = new FormData();
    form.append('source', new Blob(['v2'], { type: 'application/pdf' }), 'v2.pdf');
    const fresh = (await (await t.fetch('https://api.podio.com/file/', { method: 'POST', headers: { authorization: `OAuth2 ${SANDBOX_KEYS.owner}` }, body: form })).json()) as { file_id: number };
    expect((await t.call('POST', `/file/${fresh.file_id}/replace`, { old_file_id: old })).status).toBe(204);
    await t.hooks.idle();
    expect(t.sent.map((s) => s.form)).toEqual([{ type: 'file.change', hook_id: String(hook), item_id: String(D.items.firstDeal), action_type: 'file_replaced', file_ids: `${fresh.file_id},${old}` }]);
  });
});
