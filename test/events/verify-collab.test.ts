import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PODIO_DEMO, SANDBOX_KEYS, type PodioTwin } from '../../infra/twins/podio';
import { Inbox } from '../../shared/events/inbox';
import { deliveryUrl, eventsHarness } from './helpers';

/**
 * Podio does not sign its hook POSTs, and anyone who can list an app's or space's hooks reads the
 * receiver URL with its secret: a delivery carrying it is only a hint. The receiver checks each
 * event with Podio through the subscriber's own credential and stores it as Podio confirms it, or
 * drops it. Forged deliveries here carry the real URL secret and are POSTed as Podio posts (form
 * fields); the twin answers the checks over HTTP.
 */
describe('unsigned deliveries (Podio) are checked with the vendor before they are stored', () => {
  const D = PODIO_DEMO;
  const APP_TYPES = ['item.create', 'item.update', 'item.delete', 'comment.create', 'comment.delete', 'file.change'];
  const SPACE_TYPES = ['app.create', 'app.update', 'app.delete', 'member_add', 'member_remove'];
  let h: Awaited<ReturnType<typeof eventsHarness>>;
  let twin: PodioTwin;
  const app = { id: '', url: '', hooks: {} as Record<string, number> };
  const space = { id: '', url: '', hooks: {} as Record<string, number> };
  let otherHook: number;

  const podio = async (method: string, path: string, body?: unknown) => {
    const res = await twin.fetch(`https://api.podio.com${path}`, {
      method,
      headers: { authorization: `OAuth2 ${SANDBOX_KEYS.owner}`, ...(body instanceof FormData ? {} : { 'content-type': 'application/json' }) },
      ...(body !== undefined ? { body: body instanceof FormData ? body : JSON.stringify(body) } : {}),
    });
    expect(res.status, `${method} ${path}`).toBeLessThan(300);
    return res.status === 204 ? {} : ((await res.json()) as any);
  };
  /** An item made without hooks: only the test's own deliveries name it. */
  const quietItem = async (name: string) => {
    const { item_id } = await podio('POST', `/item/app/${D.apps.companies}/?hook=false`, { fields: { [D.fields.companies.name]: name } });
    return item_id as number;
  };
  const revisions = async (itemId: number) => {
    const item = await podio('GET', `/item/${itemId}`);
    return { first: item.initial_revision.item_revision_id as number, current: item.current_revision.item_revision_id as number };
  };
  /** A file uploaded and attached to the item, quietly unless `hooks`. */
  const attachedFile = async (itemId: number, hooks = false) => {
    const form = new FormData();
    form.set('source', new Blob(['minutes'], { type: 'text/plain' }), 'minutes.txt');
    form.set('filename', 'minutes.txt');
    const { file_id } = await podio('POST', '/file/', form);
    await podio('POST', `/file/${file_id}/attach${hooks ? '' : '?hook=false'}`, { ref_type: 'item', ref_id: itemId });
    return file_id as number;
  };

  const subscribe = async (watch: Record<string, unknown>, into: typeof app) => {
    const r = await h.json('collab/subscribeEvents', watch);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const sub = (await new Inbox(h.store, 3600).get(r.body.data.subscription_id))!;
    into.id = sub.id;
    into.url = deliveryUrl(h.rt, sub);
    (sub.vendor.hook_ids as number[]).forEach((hook, i) => (into.hooks[(watch.event_types as string[])[i]!] = hook));
  };

  beforeAll(async () => {
    h = await eventsHarness();
    twin = h.twin<PodioTwin>('collab');
    await subscribe({ ref_type: 'app', ref_id: D.apps.companies, event_types: APP_TYPES }, app);
    await subscribe({ ref_type: 'space', ref_id: D.spaces.sales, event_types: SPACE_TYPES }, space);
    // Another subscription's hook (on another app): its id is visible to whoever lists hooks.
    const other = { id: '', url: '', hooks: {} as Record<string, number> };
    await subscribe({ ref_type: 'app', ref_id: D.apps.deals, event_types: ['item.create'] }, other);
    otherHook = other.hooks['item.create']!;
  });
  afterAll(() => h.close());

  /** POSTs form fields as Podio does; answers the receiver's counts. */
  const post = async (to: typeof app, fields: Record<string, string | number>) => {
    const res = await fetch(to.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(Object.entries(fields).map(([k, v]): [string, string] => [k, String(v)])).toString(),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: { stored: number; duplicates: number; dropped?: number } }).data;
  };
  const events = async (of: typeof app) => (await h.json('collab/listEvents', { subscription_id: of.id, include_acked: true })).body.data.events as { type: string; data: Record<string, unknown> }[];
  const dropped = { stored: 0, duplicates: 0, dropped: 1 };

  it('drops forged item, comment and file events that carry the URL secret', async () => {
    const mine = await quietItem('Mine');
    // A deal of the demo: another app.
    const foreign = D.items.firstDeal;
    const r = await revisions(mine);
    const hook = app.hooks;
    // An item of another app, an item that does not exist.
    expect(await post(app, { type: 'item.create', hook_id: hook['item.create']!, item_id: foreign, item_revision_id: (await revisions(foreign)).first })).toEqual(dropped);
    expect(await post(app, { type: 'item.create', hook_id: hook['item.create']!, item_id: 987_654_321, item_revision_id: r.first })).toEqual(dropped);
    // A hook of another subscription; this subscription's hook of another event type.
    expect(await post(app, { type: 'item.create', hook_id: otherHook, item_id: mine, item_revision_id: r.first })).toEqual(dropped);
    expect(await post(app, { type: 'item.create', hook_id: hook['item.delete']!, item_id: mine, item_revision_id: r.first })).toEqual(dropped);
    // A revision beyond the item's; an update naming the revision it was created with.
    expect(await post(app, { type: 'item.update', hook_id: hook['item.update']!, item_id: mine, item_revision_id: r.current + 1000 })).toEqual(dropped);
    expect(await post(app, { type: 'item.update', hook_id: hook['item.update']!, item_id: mine, item_revision_id: r.first })).toEqual(dropped);
    // A delete of an item that exists.
    expect(await post(app, { type: 'item.delete', hook_id: hook['item.delete']!, item_id: mine, item_revision_id: r.current })).toEqual(dropped);
    // A comment on another item; a deleted-claimed comment that exists.
    const { comment_id } = await podio('POST', `/comment/item/${foreign}/?hook=false`, { value: 'elsewhere' });
    expect(await post(app, { type: 'comment.create', hook_id: hook['comment.create']!, item_id: mine, comment_id })).toEqual(dropped);
    const { comment_id: onMine } = await podio('POST', `/comment/item/${mine}/?hook=false`, { value: 'here' });
    expect(await post(app, { type: 'comment.delete', hook_id: hook['comment.delete']!, item_id: mine, comment_id: onMine })).toEqual(dropped);
    // A file on another item; a deleted-claimed file that exists.
    const elsewhere = await attachedFile(foreign);
    expect(await post(app, { type: 'file.change', hook_id: hook['file.change']!, item_id: mine, action_type: 'file_created', file_ids: String(elsewhere) })).toEqual(dropped);
    const here = await attachedFile(mine);
    expect(await post(app, { type: 'file.change', hook_id: hook['file.change']!, item_id: mine, action_type: 'file_deleted', file_ids: String(here) })).toEqual(dropped);
    expect(await events(app)).toEqual([]);
  });

  it('drops forged space events: an app of another space, a member who is not one, a removal of a member', async () => {
    const hook = space.hooks;
    expect(await post(space, { type: 'app.update', hook_id: hook['app.update']!, app_id: D.apps.projects })).toEqual(dropped);
    expect(await post(space, { type: 'app.delete', hook_id: hook['app.delete']!, app_id: D.apps.companies })).toEqual(dropped);
    expect(await post(space, { type: 'member_add', hook_id: hook['member_add']!, user_id: D.users.elena.user_id })).toEqual(dropped);
    expect(await post(space, { type: 'member_remove', hook_id: hook['member_remove']!, user_id: D.users.chloe.user_id })).toEqual(dropped);
    expect(await events(space)).toEqual([]);
  });

  it('stores what Podio confirms, once, as Podio says it; and real changes end to end', async () => {
    const item = await quietItem('Confirmed');
    const { first } = await revisions(item);
    const hook = app.hooks['item.create']!;
    // A true event with fields the sender added: stored once, without them; the genuine delivery after it is the same event.
    expect(await post(app, { type: 'item.create', hook_id: hook, item_id: item, item_revision_id: first, external_id: '', app_id: D.apps.deals, injected: 'by the sender' })).toMatchObject({ stored: 1 });
    expect(await post(app, { type: 'item.create', hook_id: hook, item_id: item, item_revision_id: first, external_id: '' })).toEqual({ stored: 0, duplicates: 1 });
    const [stored] = await events(app);
    expect(stored!.data).toEqual({ hook_id: hook, type: 'item.create', item_id: item, item_revision_id: first, app_id: D.apps.companies });

    // Real writes through the twin: its hooks POST to the receiver, each event checked and stored.
    const { item_id: live } = await podio('POST', `/item/app/${D.apps.companies}/`, { fields: { [D.fields.companies.name]: 'Live' } });
    await podio('PUT', `/item/${live}`, { fields: { [D.fields.companies.name]: 'Live, renamed' } });
    const { comment_id } = await podio('POST', `/comment/item/${live}/`, { value: 'Looks good' });
    const file = await attachedFile(live, true);
    await twin.hooks.idle();
    await podio('DELETE', `/comment/${comment_id}`);
    await twin.hooks.idle();
    await podio('DELETE', `/item/${live}`);
    await twin.hooks.idle();
    expect((await events(app)).map((e) => [e.type, e.data.item_id, e.data.comment_id])).toEqual([
      ['item.create', item, undefined],
      ['item.create', live, undefined],
      ['item.update', live, undefined],
      ['comment.create', live, comment_id],
      ['file.change', live, undefined],
      ['comment.delete', live, comment_id],
      ['item.delete', live, undefined],
    ]);
    expect((await events(app)).find((e) => e.type === 'file.change')!.data).toMatchObject({ action_type: 'file_created', file_ids: String(file) });

    // Space events the twin has no writes for, as Podio would send them: true ones stored.
    const s = space.hooks;
    expect(await post(space, { type: 'app.update', hook_id: s['app.update']!, app_id: D.apps.companies })).toMatchObject({ stored: 1 });
    expect(await post(space, { type: 'member_add', hook_id: s['member_add']!, user_id: D.users.chloe.user_id })).toMatchObject({ stored: 1 });
    expect(await post(space, { type: 'member_remove', hook_id: s['member_remove']!, user_id: D.users.elena.user_id })).toMatchObject({ stored: 1 });
    expect((await events(space)).map((e) => e.data)).toEqual([
      { hook_id: s['app.update'], type: 'app.update', app_id: D.apps.companies, space_id: D.spaces.sales },
      { hook_id: s['member_add'], type: 'member_add', user_id: D.users.chloe.user_id, space_id: D.spaces.sales },
      { hook_id: s['member_remove'], type: 'member_remove', user_id: D.users.elena.user_id, space_id: D.spaces.sales },
    ]);
  });
});
