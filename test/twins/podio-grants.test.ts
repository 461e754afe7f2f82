import { describe, expect, it } from 'vitest';
import { PODIO_DEMO, SANDBOX_KEYS } from '../../infra/twins/podio';
import { podioError, podioTwin } from './podio-call';

const D = PODIO_DEMO;
const U = D.users;
const deal = D.items.firstDeal;
const project = D.items.firstProject;

describe('Podio twin: grants', () => {
  it('lists the seeded grants of an item with user, access level and rights', async () => {
    const t = podioTwin();
    const r = await t.call('GET', `/grant/item/${deal}/`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual([
      {
        grant_id: expect.any(Number), ref_type: 'item', ref_id: deal, action: 'view', message: 'For the project kick-off.', access_level: 'view', rights: ['view', 'comment'],
        created_on: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/), created_by: expect.objectContaining({ user_id: U.owner.user_id }),
        user: { user_id: U.elena.user_id, profile_id: U.elena.profile_id, name: U.elena.name, type: 'user', mail: U.elena.mail },
      },
    ]);
    expect((await t.call('GET', `/grant/item/${project}`)).body[0]).toMatchObject({ access_level: 'edit', rights: ['view', 'comment', 'update', 'add_file'], user: { user_id: U.ben.user_id } });
  });

  it('shares with users, profiles and emails; answers who is outside the space as invitable', async () => {
    const t = podioTwin();
    const r = await t.call('POST', `/grant/item/${project}`, {
      access_level: 'view', message: 'Have a look',
      people: [{ type: 'user', id: U.elena.user_id }, { type: 'profile', id: U.chloe.profile_id }, { type: 'mail', id: 'Guest@Example.com' }, { type: 'mail', id: U.david.mail }],
    });
    expect(r.status).toBe(200);
    // Chloé works in Sales only; the guest is no Podio user.
    expect(r.body).toEqual({ invitable: [{ type: 'user', user_id: U.chloe.user_id, profile_id: U.chloe.profile_id, name: U.chloe.name }, { type: 'mail', mail: 'guest@example.com' }] });
    const grants = (await t.call('GET', `/grant/item/${project}/`)).body;
    expect(grants.map((g: any) => [g.user.name, g.access_level])).toEqual([[U.ben.name, 'edit'], [U.elena.name, 'view'], [U.chloe.name, 'view'], ['guest@example.com', 'view'], [U.david.name, 'view']]);
    expect(grants[3].user).toEqual({ user_id: expect.any(Number), profile_id: null, name: 'guest@example.com', type: 'mail', mail: 'guest@example.com' });
    // Sharing again with someone who holds a grant sets the level: still one grant each.
    await t.call('POST', `/grant/item/${project}`, { access_level: 'edit', people: [{ type: 'mail', id: 'guest@example.com' }, { type: 'user', id: U.elena.user_id }] });
    const again = (await t.call('GET', `/grant/item/${project}/`)).body;
    expect(again).toHaveLength(5);
    expect(again.filter((g: any) => g.access_level === 'edit').map((g: any) => g.user.user_id)).toEqual([U.ben.user_id, U.elena.user_id, grants[3].user.user_id]);
  });

  it('refuses bad grants before writing any', async () => {
    const t = podioTwin();
    const post = (body: unknown) => t.call('POST', `/grant/item/${deal}`, body);
    expect((await post({ access_level: 'admin', people: [{ type: 'user', id: U.ben.user_id }] })).status).toBe(400);
    expect((await post({ access_level: 'view', people: [] })).status).toBe(400);
    expect((await post({ access_level: 'view', people: [{ type: 'user', id: U.ben.user_id }, { type: 'mail', id: 'not-an-email' }] })).status).toBe(400);
    expect((await post({ access_level: 'view', people: [{ type: 'user', id: U.ben.user_id }, { type: 'user', id: 4242 }] })).status).toBe(404);
    // A profile id given as a user id names nobody.
    expect((await post({ access_level: 'view', people: [{ type: 'user', id: U.ben.profile_id }] })).status).toBe(404);
    expect((await post({ access_level: 'view', people: [{ type: 'space', id: 1 }] })).status).toBe(400);
    expect((await t.call('GET', `/grant/item/${deal}/`)).body).toHaveLength(1);
    expect((await t.call('POST', `/grant/app/${D.apps.deals}`, { access_level: 'view', people: [{ type: 'user', id: U.ben.user_id }] })).status).toBe(400);
    expect((await t.call('GET', `/grant/item/${project}/`, undefined, SANDBOX_KEYS.member)).status).toBe(403);
  });

  it("changes and removes one person's grant", async () => {
    const t = podioTwin();
    expect((await t.call('PUT', `/grant/item/${deal}/${U.elena.user_id}`, { access_level: 'edit' })).status).toBe(204);
    expect((await t.call('GET', `/grant/item/${deal}/`)).body[0].access_level).toBe('edit');
    expect((await t.call('PUT', `/grant/item/${deal}/${U.elena.user_id}`, { access_level: 'own' })).status).toBe(400);
    expect((await t.call('PUT', `/grant/item/${deal}/${U.ben.user_id}`, { access_level: 'view' })).body).toEqual(podioError('not_found', 'PUT', `/grant/item/${deal}/${U.ben.user_id}`));
    expect((await t.call('DELETE', `/grant/item/${deal}/${U.elena.user_id}`)).status).toBe(204);
    expect((await t.call('GET', `/grant/item/${deal}/`)).body).toEqual([]);
    expect((await t.call('DELETE', `/grant/item/${deal}/${U.elena.user_id}`)).status).toBe(404);
  });
});
