import { describe, expect, it } from 'vitest';
import { harness } from '../helpers/harness';
import { loopbackServer } from '../helpers/loopback';
import { PODIO_DEMO, SANDBOX_KEYS, type PodioTwin } from '../../infra/twins/podio';
import { MAX_HOOKS_PER_TYPE } from '../../infra/twins/podio/hooks';

const json = { query: 'format=json' };
const D = PODIO_DEMO;

interface Received {
  path: string;
  contentType: string;
  form: Record<string, string>;
}
const received: Received[] = [];

// A real receiver on 127.0.0.1: Podio's POSTs arrive here as form fields.
const receiver = loopbackServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    received.push({ path: req.url ?? '', contentType: req.headers['content-type'] ?? '', form: Object.fromEntries(new URLSearchParams(body)) });
    res.writeHead(200);
    res.end('ok');
  });
});

const setup = () => harness({ env: { ALLOW_HTTP_HOSTS: '127.0.0.1' }, twins: { collab: { hookTargets: 'any' } } });
type H = Awaited<ReturnType<typeof setup>>;

/** createHook → requestHookVerification → the code the receiver got → validateHookVerification; the hook id. */
async function activeHook(h: H, refType: 'app' | 'space', refId: number, type: string, path: string): Promise<number> {
  const created = await h.call('collab/createHook', { ref_type: refType, ref_id: refId, url: `${receiver()}${path}`, type }, json);
  expect(created.status).toBe(200);
  const id = created.body.data.hook_id;
  await h.call('collab/requestHookVerification', { hook_id: id });
  await h.twin<PodioTwin>('collab').hooks.idle();
  const verify = received.findLast((r) => r.form.hook_id === String(id) && r.form.type === 'hook.verify')!;
  const ok = await h.call('collab/validateHookVerification', { hook_id: id, code: verify.form.code }, json);
  expect(ok.body.data.note).toContain('active');
  return id;
}

/** The twin as a Podio client would call it (writes of other tool groups). */
async function podio(h: H, method: string, path: string, body?: unknown) {
  const res = await h.twin<PodioTwin>('collab').fetch(`https://api.podio.com${path}`, {
    method,
    headers: { authorization: `OAuth2 ${SANDBOX_KEYS.owner}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return res.status === 204 ? null : ((await res.json()) as any);
}

describe('hooks: verification flow and delivery to a real receiver', () => {
  it('createHook starts inactive; the URL gets type=hook.verify with a code; validate activates it', async () => {
    const h = await setup();
    const created = await h.call('collab/createHook', { ref_type: 'app', ref_id: D.apps.deals, url: `${receiver()}/verify`, type: 'item.create' }, json);
    expect(created.body.data).toEqual({ hook_id: expect.any(Number), note: expect.stringContaining('inactive until verified') });
    const id = created.body.data.hook_id;
    const list = await h.call('collab/getHooks', { ref_type: 'app', ref_id: D.apps.deals }, json);
    expect(list.body.data).toEqual([{ hook_id: id, status: 'inactive', type: 'item.create', url: `${receiver()}/verify`, created_by: { type: 'user', id: D.users.owner.user_id }, created_on: expect.any(String) }]);
    expect((await h.call('collab/getHooks', { ref_type: 'app', ref_id: D.apps.deals })).body.data).toMatch(/\(inactive: verify it\)\n1 hook on app #8102; 1 inactive: call requestHookVerification/);

    await h.call('collab/requestHookVerification', { hook_id: id });
    await h.twin<PodioTwin>('collab').hooks.idle();
    const verify = received.findLast((r) => r.path === '/verify')!;
    expect(verify.contentType).toBe('application/x-www-form-urlencoded');
    expect(verify.form).toEqual({ type: 'hook.verify', _type: 'hook.verify', hook_id: String(id), code: expect.stringMatching(/^[0-9a-f]{16}$/) });

    const wrong = await h.call('collab/validateHookVerification', { hook_id: id, code: 'nope' }, json);
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.details.parameter).toBe('code');
    // An inactive hook hears nothing.
    await podio(h, 'POST', `/item/app/${D.apps.deals}/`, { fields: { title: 'Before activation', stage: 401 } });
    await h.twin<PodioTwin>('collab').hooks.idle();
    expect(received.filter((r) => r.path === '/verify' && r.form.type === 'item.create')).toEqual([]);

    await h.call('collab/validateHookVerification', { hook_id: id, code: verify.form.code });
    expect((await h.call('collab/getHooks', { ref_type: 'app', ref_id: D.apps.deals }, json)).body.data[0].status).toBe('active');

    // An active hook is verified already: a new request is refused, naming hook_id; the hook stays active.
    const again = await h.call('collab/requestHookVerification', { hook_id: id }, json);
    expect(again.status).toBe(400);
    expect(again.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'hook_id', expected: 'an inactive (not yet verified) hook' } });
    expect(again.body.error.message).toMatch(/already verified/);
    expect((await h.call('collab/getHooks', { ref_type: 'app', ref_id: D.apps.deals }, json)).body.data[0].status).toBe('active');
  });

  it('each app event arrives at the receiver as Podio posts it; hook=false writes send none', async () => {
    const h = await setup();
    const twin = h.twin<PodioTwin>('collab');
    const types = ['item.create', 'item.update', 'item.delete', 'comment.create', 'comment.delete', 'file.change'];
    const ids: Record<string, number> = {};
    for (const t of types) ids[t] = await activeHook(h, 'app', D.apps.deals, t, `/app/${t}`);
    const at = (t: string) => received.filter((r) => r.path === `/app/${t}` && r.form.type === t).map((r) => r.form);

    const created = await podio(h, 'POST', `/item/app/${D.apps.deals}/`, { fields: { title: 'Hooked deal', stage: 401 } });
    await podio(h, 'PUT', `/item/${created.item_id}`, { fields: { title: 'Hooked deal, renamed', stage: 401 } });
    await podio(h, 'PUT', `/item/${created.item_id}`, { fields: { title: 'Quiet rename', stage: 401 } }).then(() => undefined);
    const comment = await h.call('collab/addCommentToObject', { type: 'item', id: created.item_id, value: 'hello hooks' }, json);
    expect(comment.body, JSON.stringify(comment.body)).toMatchObject({ success: true });
    await h.call('collab/deleteComment', { comment_id: comment.body.data.comment_id });
    const up = await h.call('collab/uploadFile', { files: [{ filename: 'h.txt', content: Buffer.from('h').toString('base64') }] }, json);
    const fileId = up.body.data.files[0].file_id;
    await h.call('collab/attachFile', { file_id: fileId, ref_type: 'item', ref_id: created.item_id });
    await h.call('collab/deleteFile', { file_id: fileId });
    await podio(h, 'DELETE', `/item/${created.item_id}`);
    await twin.hooks.idle();

    const item = { item_id: String(created.item_id), external_id: '' };
    expect(at('item.create')).toEqual([{ type: 'item.create', hook_id: String(ids['item.create']), ...item, item_revision_id: expect.stringMatching(/^\d+$/) }]);
    expect(at('item.update')).toHaveLength(2);
    expect(at('item.update')[0]).toMatchObject({ type: 'item.update', hook_id: String(ids['item.update']), ...item });
    expect(at('item.delete')).toEqual([expect.objectContaining({ type: 'item.delete', ...item })]);
    expect(at('comment.create')).toEqual([{ type: 'comment.create', hook_id: String(ids['comment.create']), item_id: item.item_id, comment_id: String(comment.body.data.comment_id) }]);
    expect(at('comment.delete')).toEqual([{ type: 'comment.delete', hook_id: String(ids['comment.delete']), item_id: item.item_id, comment_id: String(comment.body.data.comment_id) }]);
    expect(at('file.change')).toEqual([
      { type: 'file.change', hook_id: String(ids['file.change']), item_id: item.item_id, action_type: 'file_created', file_ids: String(fileId) },
      { type: 'file.change', hook_id: String(ids['file.change']), item_id: item.item_id, action_type: 'file_deleted', file_ids: String(fileId) },
    ]);

    // hook: false on the write tools: nothing is delivered.
    const before = received.length;
    const quiet = await podio(h, 'POST', `/item/app/${D.apps.deals}/?hook=false`, { fields: { title: 'Quiet deal', stage: 401 } });
    const c2 = await h.call('collab/addCommentToObject', { type: 'item', id: quiet.item_id, value: 'quiet', hook: false }, json);
    await h.call('collab/deleteComment', { comment_id: c2.body.data.comment_id, hook: false });
    const up2 = await h.call('collab/uploadFile', { files: [{ filename: 'q.txt', content: Buffer.from('q').toString('base64') }] }, json);
    await h.call('collab/attachFile', { file_id: up2.body.data.files[0].file_id, ref_type: 'item', ref_id: quiet.item_id, hook: false });
    await h.call('collab/deleteFile', { file_id: up2.body.data.files[0].file_id, hook: false });
    await twin.hooks.idle();
    expect(received.length).toBe(before);
    // Another app's hooks hear nothing of the Deals app.
    expect(received.some((r) => r.path.startsWith('/app/') && r.form.item_id && Number(r.form.item_id) < D.items.firstDeal)).toBe(false);
  });

  it('space events go to the space\'s active hooks', async () => {
    const h = await setup();
    const twin = h.twin<PodioTwin>('collab');
    const types = ['app.create', 'app.update', 'app.delete', 'member_add', 'member_remove'];
    for (const t of types) await activeHook(h, 'space', D.spaces.sales, t, `/space/${t}`);
    // The twin has no app or member writes yet: its event bus is driven as those writes will drive it.
    for (const t of types) twin.hooks.emit({ type: t, ref: { type: 'space', id: D.spaces.sales }, params: t.startsWith('app') ? { app_id: D.apps.deals } : { user_id: D.users.ben.user_id } });
    twin.hooks.emit({ type: 'app.update', ref: { type: 'space', id: D.spaces.operations }, params: { app_id: D.apps.projects } });
    await twin.hooks.idle();
    for (const t of types) {
      const got = received.filter((r) => r.path === `/space/${t}` && r.form.type === t).map((r) => r.form);
      expect(got).toEqual([expect.objectContaining({ type: t, ...(t.startsWith('app') ? { app_id: String(D.apps.deals) } : { user_id: String(D.users.ben.user_id) }) })]);
    }
  });

  it('deleteHook stops deliveries at once', async () => {
    const h = await setup();
    const id = await activeHook(h, 'app', D.apps.deals, 'item.create', '/deleted');
    const del = await h.call('collab/deleteHook', { hook_id: id }, json);
    expect(del.body.data.note).toContain('deleted');
    await podio(h, 'POST', `/item/app/${D.apps.deals}/`, { fields: { title: 'After delete', stage: 401 } });
    await h.twin<PodioTwin>('collab').hooks.idle();
    expect(received.filter((r) => r.path === '/deleted' && r.form.type === 'item.create')).toEqual([]);
    expect((await h.call('collab/getHooks', { ref_type: 'app', ref_id: D.apps.deals }, json)).body.data).toEqual([]);
    expect((await h.call('collab/deleteHook', { hook_id: id }, json)).status).toBe(404);
  });
});

describe('hooks: checks before the call', () => {
  it('an event that does not fit ref_type is refused before Podio is called', async () => {
    const h = await setup();
    const sent = h.recordRequests('collab');
    const r = await h.call('collab/createHook', { ref_type: 'space', ref_id: D.spaces.sales, url: 'https://hooks.example.com/p', type: 'item.create' }, json);
    expect(r.status).toBe(400);
    expect(r.body.error.details).toMatchObject({ parameter: 'type', expected: 'one of app.create, app.update, app.delete, member_add, member_remove' });
    const r2 = await h.call('collab/createHook', { ref_type: 'app', ref_id: D.apps.deals, url: 'https://hooks.example.com/p', type: 'member_add' }, json);
    expect(r2.body.error.message).toContain('is an event of a space, not of a app');
    expect((await h.call('collab/createHook', { ref_type: 'app', ref_id: D.apps.deals, url: 'https://hooks.example.com/p', type: 'item.explode' }, json)).body.error.details.parameter).toBe('type');
    expect(sent).toEqual([]);
  });

  it('the URL must be https on port 443 or 80 (hosts of ALLOW_HTTP_HOSTS excepted)', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    const http = await h.call('collab/createHook', { ref_type: 'app', ref_id: D.apps.deals, url: 'http://hooks.example.com/p', type: 'item.create' }, json);
    expect(http.body.error.details.parameter).toBe('url');
    const port = await h.call('collab/createHook', { ref_type: 'app', ref_id: D.apps.deals, url: 'https://hooks.example.com:8443/p', type: 'item.create' }, json);
    expect(port.body.error.details).toMatchObject({ parameter: 'url', expected: 'a publicly reachable https URL on port 443 (or 80), without credentials' });
    expect(sent).toEqual([]);
    // A private host is refused before Podio is asked (shared/vendor/webhook-target.ts checkTarget).
    const priv = await h.call('collab/createHook', { ref_type: 'app', ref_id: D.apps.deals, url: 'https://10.0.0.5/p', type: 'item.create' }, json);
    expect(priv.status).toBe(400);
    expect(priv.body.error.message).toMatch(/publicly reachable/);
  });

  it(`past ${MAX_HOOKS_PER_TYPE} hooks of one event type on an object Podio refuses the next, named as type`, async () => {
    const h = await setup();
    const hook = { ref_type: 'app', ref_id: D.apps.deals, url: 'https://hooks.example.com/p', type: 'item.create' };
    for (let i = 0; i < MAX_HOOKS_PER_TYPE; i++) expect((await h.call('collab/createHook', hook, json)).status).toBe(200);
    const r = await h.call('collab/createHook', hook, json);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'type', upstream_status: 400 } });
    expect(r.body.error.message).toContain(`At most ${MAX_HOOKS_PER_TYPE} hooks per event type per object.`);
    expect((await h.call('collab/createHook', { ...hook, type: 'item.update' }, json)).status).toBe(200);
  });

  it('an app or space the key does not see is refused by Podio', async () => {
    const h = await setup();
    expect((await h.call('collab/getHooks', { ref_type: 'app', ref_id: 999 }, json)).status).toBe(404);
    expect((await h.call('collab/createHook', { ref_type: 'space', ref_id: 999, url: 'https://hooks.example.com/p', type: 'app.create' }, json)).status).toBe(404);
  });
});
