import { describe, expect, it } from 'vitest';
import { harness } from '../helpers/harness';
import { PODIO_DEMO, SANDBOX_KEYS } from '../../infra/twins/podio';

const json = { query: 'format=json' };
const D = PODIO_DEMO;
const U = D.users;
/** Seeded: Elena may view the first deal; Ben may edit the first project. */
const deal = D.items.firstDeal;
const project = D.items.firstProject;
const writes = (sent: { method: string; path: string }[]) => sent.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);

describe('getItemShares', () => {
  it('lists the grants with user and rights, in JSON and text', async () => {
    const h = await harness();
    const r = await h.call('collab/getItemShares', { item_id: deal }, json);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual([
      {
        grant_id: expect.any(Number), access_level: 'view', created_on: expect.stringMatching(/^\d{4}-\d\d-\d\d /), rights: ['view', 'comment'],
        user: { user_id: U.elena.user_id, profile_id: U.elena.profile_id, name: U.elena.name, type: 'user' }, created_by: { user_id: U.owner.user_id, name: U.owner.name },
      },
    ]);
    const text = (await h.call('collab/getItemShares', { item_id: deal })).body.data;
    expect(text).toMatch(new RegExp(`^Elena Rossi \\(user 1005\\) · view · rights view, comment · since \\d{4}-\\d\\d-\\d\\d\\n1 grant on item #${deal} — updateShare changes a level, deleteShare removes one$`));
    expect((await h.call('collab/getItemShares', { item_id: deal + 1 })).body.data).toBe(`item #${deal + 1} is shared with nobody beyond its workspace — shareItem shares it`);
    expect((await h.call('collab/getItemShares', { item_id: 99999 })).body.error.code).toBe('NOT_FOUND');
  });
});

describe('shareItem', () => {
  it('shares with user ids, profile ids and emails; a non-user is invited', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    const r = await h.call('collab/shareItem', { item_id: project, access_level: 'view', user_ids: [U.elena.user_id], profile_ids: [U.chloe.profile_id], emails: ['Guest@Example.com'], message: 'Have a look' }, json);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({
      item_id: project, access_level: 'view', shared_with: 3,
      invitable: [{ type: 'user', user_id: U.chloe.user_id, profile_id: U.chloe.profile_id, name: U.chloe.name }, { type: 'mail', mail: 'guest@example.com' }],
    });
    expect(sent.map((s) => `${s.method} ${s.path}`)).toEqual([`GET /grant/item/${project}/`, `POST /grant/item/${project}`]);
    expect(sent[1]!.body).toEqual({ people: [{ type: 'user', id: U.elena.user_id }, { type: 'profile', id: U.chloe.profile_id }, { type: 'mail', id: 'guest@example.com' }], access_level: 'view', message: 'Have a look' });
    const grants = (await h.call('collab/getItemShares', { item_id: project }, json)).body.data;
    expect(grants.map((g: any) => [g.user.name, g.user.type, g.access_level])).toEqual([[U.ben.name, 'user', 'edit'], [U.elena.name, 'user', 'view'], [U.chloe.name, 'user', 'view'], ['guest@example.com', 'mail', 'view']]);
    const text = (await h.call('collab/shareItem', { item_id: deal, access_level: 'edit', emails: ['new.person@example.org'] })).body.data;
    expect(text).toBe(`shared item #${deal} with 1 person (edit access) — getItemShares lists every grant\ninvited (outside the workspace): new.person@example.org`);
  });

  it('answers a person who already holds a grant with the hint to use updateShare, sharing nothing', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    for (const [people, parameter] of [
      [{ user_ids: [U.chloe.user_id, U.elena.user_id] }, 'user_ids.1'],
      [{ profile_ids: [U.elena.profile_id] }, 'profile_ids.0'],
      [{ emails: ['x@example.com', U.elena.mail.toUpperCase()] }, 'emails.1'],
    ] as const) {
      const r = await h.call('collab/shareItem', { item_id: deal, access_level: 'edit', ...people });
      expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter } });
      expect(r.body.error.message).toContain(`Elena Rossi (user 1005) already holds view access to item ${deal}; to change it use updateShare {"item_id": ${deal}, "user_id": 1005, "access_level": "edit"}. Nothing was shared.`);
    }
    // An invitee is recognised by the email too.
    await h.call('collab/shareItem', { item_id: deal, access_level: 'view', emails: ['guest@example.com'] });
    expect((await h.call('collab/shareItem', { item_id: deal, access_level: 'view', emails: ['guest@example.com'] })).body.error.details.parameter).toBe('emails.0');
    expect(writes(sent)).toEqual([`POST /grant/item/${deal}`]);
  });

  it('refuses calls naming nobody or a bad email before any call; a profile id given as user id is NOT_FOUND with a hint', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    expect((await h.call('collab/shareItem', { item_id: deal, access_level: 'view' })).body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'user_ids' } });
    expect((await h.call('collab/shareItem', { item_id: deal, access_level: 'view', emails: ['ok@example.com', 'nope'] })).body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'emails.1' } });
    expect((await h.call('collab/shareItem', { item_id: deal, access_level: 'admin', user_ids: [U.ben.user_id] })).body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'access_level' } });
    expect(sent).toEqual([]);
    const r = await h.call('collab/shareItem', { item_id: deal, access_level: 'view', user_ids: [U.ben.profile_id] });
    expect(r.body.error.code).toBe('NOT_FOUND');
    expect(r.body.error.message).toMatch(/user ids and profile ids differ — getOrganizationMembers lists both/);
    expect((await h.call('collab/getItemShares', { item_id: deal }, json)).body.data).toHaveLength(1);
  });
});

describe('updateShare', () => {
  it("changes one person's access level", async () => {
    const h = await harness();
    const r = await h.call('collab/updateShare', { item_id: deal, user_id: U.elena.user_id, access_level: 'edit' }, json);
    expect(r.body.data).toEqual({ success: true, item_id: deal, user_id: U.elena.user_id, access_level: 'edit' });
    expect((await h.call('collab/getItemShares', { item_id: deal }, json)).body.data[0]).toMatchObject({ access_level: 'edit', rights: ['view', 'comment', 'update', 'add_file'] });
    expect((await h.call('collab/updateShare', { item_id: deal, user_id: U.elena.user_id, access_level: 'view' })).body.data).toBe(`user 1005 now has view access to item #${deal}`);
  });

  it('answers NOT_FOUND with the next step for someone without a grant', async () => {
    const h = await harness();
    const r = await h.call('collab/updateShare', { item_id: deal, user_id: U.ben.user_id, access_level: 'edit' });
    expect(r.body.error.code).toBe('NOT_FOUND');
    expect(r.body.error.message).toMatch(/User 1002 holds no grant on item \d+.*shareItem creates a grant/);
  });
});

describe('deleteShare', () => {
  it("removes one person's grant per call", async () => {
    const h = await harness();
    const r = await h.call('collab/deleteShare', { item_id: project, user_id: U.ben.user_id }, json);
    expect(r.body.data).toEqual({ item_id: project, user_id: U.ben.user_id });
    expect((await h.call('collab/getItemShares', { item_id: project }, json)).body.data).toEqual([]);
    expect((await h.call('collab/deleteShare', { item_id: project, user_id: U.ben.user_id })).body.error.code).toBe('NOT_FOUND');
  });

  it('refuses a list of users, saying one per call, before any call', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    const r = await h.call('collab/deleteShare', { item_id: project, user_id: [U.ben.user_id, U.elena.user_id] });
    expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'user_id' } });
    expect(r.body.error.message).toMatch(/must be a number.*One user per call/);
    expect(sent).toEqual([]);
  });

  it('works for the member on items of their space only', async () => {
    const h = await harness();
    expect((await h.call('collab/deleteShare', { item_id: project, user_id: U.ben.user_id }, { key: SANDBOX_KEYS.member })).body.error.code).toBe('FORBIDDEN');
  });
});
