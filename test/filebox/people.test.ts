import { describe, expect, it } from 'vitest';
import { SANDBOX_KEYS, SHAREFILE_DEMO as D, type ShareFileTwin } from '../../infra/twins/sharefile';
import { harness } from '../helpers/harness';
import { createClock } from '../../infra/twins/kit';

const json = { query: 'format=json' };
/** The ShareFile twin started on its seed's reference day, where the seed's dates are as written (infra/twins/kit/seed-day.ts). */
const onSeedDay = () => harness({ twins: { filebox: { clock: createClock(D.today + 9 * 3_600_000) } } });
const U = D.users;

describe('users', () => {
  it('getCurrentUser: the owner key is the admin employee, the member key a client; summary_only keeps Id, Email, FullName', async () => {
    const h = await onSeedDay();
    const me = await h.call('filebox/getCurrentUser', { include_security: true }, json);
    expect(me.body.data).toMatchObject({ Id: U.olivia, IsEmployee: true, IsAdministrator: true, IsDisabled: false, Security: { IsDisabled: false } });
    const client = await h.call('filebox/getCurrentUser', {}, { key: SANDBOX_KEYS.member });
    expect(client.body.data).toBe(`${U.daniel} Daniel Ortiz <daniel@ortizbuilders.example>, Ortiz Builders (client)\n  roles: Client\n  created 2025-06-10`);
    const s = await h.call('filebox/getCurrentUser', { summary_only: true }, json);
    expect(Object.keys(s.body.data).sort()).toEqual(['Email', 'FullName', 'Id']);
  });

  it('getUser by user_id or email, exactly one; a client may read only itself', async () => {
    const h = await onSeedDay();
    const byEmail = await h.call('filebox/getUser', { email: 'SOFIA.ROSSI@rossi-design.example', include_disk_space: true }, json);
    expect(byEmail.body.data).toMatchObject({ Id: U.sofia, IsEmployee: false, IsConfirmed: false });
    const byId = await h.call('filebox/getUser', { user_id: U.marcus, include_disk_space: true }, json);
    expect(byId.body.data).toMatchObject({ FullName: 'Marcus Chen', DiskSpace: { Max: 10240 } });
    const sent = h.recordRequests('filebox');
    for (const params of [{}, { user_id: U.marcus, email: 'a@b.co' }]) {
      const r = await h.call('filebox/getUser', params);
      expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'user_id' } });
    }
    const badEmail = await h.call('filebox/getUser', { email: 'not-an-email' });
    expect(badEmail.body.error.details.parameter).toBe('email');
    expect(sent).toEqual([]);
    const denied = await h.call('filebox/getUser', { user_id: U.marcus }, { key: SANDBOX_KEYS.member });
    expect(denied.body.error.code).toBe('FORBIDDEN');
  });

  it('listUsers: employees then clients, filters is_employee, is_confirmed and OData, pages across both lists', async () => {
    const h = await onSeedDay();
    const all = await h.call('filebox/listUsers', {}, json);
    expect(all.body.data).toMatchObject({ total_count: 5, returned_count: 5, has_more: false });
    expect(all.body.data.users.map((u: { FullName: string; IsEmployee: boolean }) => `${u.FullName}:${u.IsEmployee}`)).toEqual(['Marcus Chen:true', 'Olivia Bennett:true', 'Priya Patel:true', 'Daniel Ortiz:false', 'Sofia Rossi:false']);
    const page = await h.call('filebox/listUsers', { top: 2, skip: 2, summary_only: true }, json);
    expect(page.body.data.users.map((u: { FullName: string }) => u.FullName)).toEqual(['Priya Patel', 'Daniel Ortiz']);
    expect(Object.keys(page.body.data.users[0]).sort()).toEqual(['Email', 'FullName', 'Id', 'IsConfirmed', 'IsEmployee']);
    const text = await h.call('filebox/listUsers', { top: 2, skip: 2 });
    expect(text.body.data).toMatch(/\nshowing 2 of 5 — pass skip 4 for the next page$/);
    const clients = await h.call('filebox/listUsers', { is_employee: false, is_confirmed: false }, json);
    expect(clients.body.data.users.map((u: { Id: string }) => u.Id)).toEqual([U.sofia]);
    const filtered = await h.call('filebox/listUsers', { filter: "endswith(Email,'@acmelegal.example') eq true and startswith(FirstName,'P') eq true" }, json);
    expect(filtered.body.data.users.map((u: { Id: string }) => u.Id)).toEqual([U.priya]);
    const bad = await h.call('filebox/listUsers', { filter: 'IsAdmin eq true' });
    expect(bad.body.error.message).toMatch(/unknown property "IsAdmin" \(known: Id, Email, [^)]*\) at position 1\./);
  });

  it('createUser: a client by default, an employee gets a home folder; notify sends the welcome email', async () => {
    const h = await onSeedDay();
    const twin = h.twin<ShareFileTwin>('filebox');
    const client = await h.call('filebox/createUser', { email: 'lena@northwind.example', first_name: 'Lena', last_name: 'Park' }, json);
    expect(client.body.data).toMatchObject({ Email: 'lena@northwind.example', IsEmployee: false, Roles: ['Client'], IsConfirmed: false });
    expect(twin.state.outbox.map((m) => m.to)).toEqual(['lena@northwind.example']);
    const emp = await h.call('filebox/createUser', { email: 'tom@acmelegal.example', first_name: 'Tom', is_employee: true, notify: false, password: 'S3cure-pass' }, json);
    expect(emp.body.data).toMatchObject({ IsEmployee: true, IsConfirmed: true });
    expect(twin.state.users.get(emp.body.data.Id)!.homeId).toBeDefined();
    expect(twin.state.outbox).toHaveLength(1);
    const dup = await h.call('filebox/createUser', { email: 'lena@northwind.example' });
    expect(dup.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'email', upstream_status: 409 } });
    expect(dup.body.error.message).toContain('A user with the email lena@northwind.example already exists.');
    const dupEmployee = await h.call('filebox/createUser', { email: 'tom@acmelegal.example', is_employee: true });
    expect(dupEmployee.body.error.details).toMatchObject({ parameter: 'email', upstream_status: 409 });
    const short = await h.call('filebox/createUser', { email: 'x@y.example', password: 'short' });
    expect(short.body.error.details.parameter).toBe('password');
    const byClient = await h.call('filebox/createUser', { email: 'z@y.example' }, { key: SANDBOX_KEYS.member });
    expect(byClient.body.error.code).toBe('FORBIDDEN');
  });

  it('updateUser changes names and is_disabled; a disabled user\'s key stops working', async () => {
    const h = await onSeedDay();
    const r = await h.call('filebox/updateUser', { user_id: U.daniel, company: 'Ortiz & Sons', is_disabled: true }, json);
    expect(r.body.data).toMatchObject({ Company: 'Ortiz & Sons', IsDisabled: true });
    expect((await h.call('filebox/getCurrentUser', {}, { key: SANDBOX_KEYS.member })).body.error.code).toBe('UNAUTHORIZED');
    await h.call('filebox/updateUser', { user_id: U.daniel, is_disabled: false });
    expect((await h.call('filebox/getCurrentUser', {}, { key: SANDBOX_KEYS.member })).status).toBe(200);
    const none = await h.call('filebox/updateUser', { user_id: U.daniel });
    expect(none.body.error.code).toBe('INVALID_PARAMETER');
  });

  it('deleteUser disables by default; completely deletes', async () => {
    const h = await onSeedDay();
    const r = await h.call('filebox/deleteUser', { user_id: U.sofia }, json);
    expect(r.body.data.message).toMatch(/^Disabled user/);
    expect((await h.call('filebox/getUser', { user_id: U.sofia, include_security: true }, json)).body.data.IsDisabled).toBe(true);
    await h.call('filebox/deleteUser', { user_id: U.sofia, completely: true });
    expect((await h.call('filebox/getUser', { user_id: U.sofia })).body.error.code).toBe('NOT_FOUND');
  });
});

describe('groups', () => {
  it('getGroup and listGroups (is_shared, summary_only)', async () => {
    const h = await onSeedDay();
    const g = await h.call('filebox/getGroup', { group_id: D.groups.partners, include_contacts: true });
    expect(g.body.data).toBe(`${D.groups.partners} Partners (shared, 2 members)\n  ${U.marcus} Marcus Chen <marcus.chen@acmelegal.example>\n  ${U.priya} Priya Patel <priya.patel@acmelegal.example>`);
    const shared = await h.call('filebox/listGroups', { is_shared: true, summary_only: true }, json);
    expect(shared.body.data).toMatchObject({ total_count: 1, groups: [{ Id: D.groups.partners, Name: 'Partners', IsShared: true, NumberOfContacts: 2 }] });
    const bad = await h.call('filebox/getGroup', { group_id: U.marcus });
    expect(bad.body.error.details.parameter).toBe('group_id');
  });

  it('createGroup with members by id and email; an unknown email is reported, not added', async () => {
    const h = await onSeedDay();
    const r = await h.call('filebox/createGroup', { name: 'Litigation', is_shared: true, contacts: [U.marcus, 'DANIEL@ortizbuilders.example', 'nobody@example.com'] }, json);
    expect(r.body.data.group).toMatchObject({ Name: 'Litigation', IsShared: true, NumberOfContacts: 2 });
    expect(r.body.data.members).toEqual([
      { member: U.marcus, status: 'added', user_id: U.marcus },
      { member: 'DANIEL@ortizbuilders.example', status: 'added', user_id: U.daniel },
      { member: 'nobody@example.com', status: 'not_found' },
    ]);
    const bad = await h.call('filebox/createGroup', { name: 'X', contacts: ['not a member'] });
    expect(bad.body.error.details.parameter).toBe('contacts.0');
  });

  it('addGroupMembers answers per member; removeGroupMember of a non-member is NOT_FOUND', async () => {
    const h = await onSeedDay();
    const r = await h.call('filebox/addGroupMembers', { group_id: D.groups.partners, members: [U.marcus, 'olivia.bennett@acmelegal.example', 'ghost@example.com'] });
    expect(r.body.data).toBe(
      `Added 1 of 3 to group ${D.groups.partners}.\n${U.marcus}: already a member\nolivia.bennett@acmelegal.example: added (${U.olivia})\nghost@example.com: no such user (create it with createUser)`,
    );
    const removed = await h.call('filebox/removeGroupMember', { group_id: D.groups.partners, user_id: U.priya }, json);
    expect(removed.body.data.message).toContain('Removed');
    const again = await h.call('filebox/removeGroupMember', { group_id: D.groups.partners, user_id: U.priya });
    expect(again.body.error.code).toBe('NOT_FOUND');
  });

  it('updateGroup renames; deleteGroup keeps the users', async () => {
    const h = await onSeedDay();
    const r = await h.call('filebox/updateGroup', { group_id: D.groups.partners, name: 'Senior partners', is_shared: false }, json);
    expect(r.body.data).toMatchObject({ Name: 'Senior partners', IsShared: false });
    const d = await h.call('filebox/deleteGroup', { group_id: D.groups.partners }, json);
    expect(d.body.data.message).toMatch(/members were not deleted/);
    expect((await h.call('filebox/getGroup', { group_id: D.groups.partners })).body.error.code).toBe('NOT_FOUND');
    expect((await h.call('filebox/getUser', { user_id: U.marcus })).status).toBe(200);
    const client = await h.call('filebox/listGroups', {}, { key: SANDBOX_KEYS.member });
    expect(client.body.error.code).toBe('FORBIDDEN');
  });
});
