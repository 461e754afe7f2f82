import type { Clock } from '../../kit';
import { arrayBody, badRequest, bool, conflict, entity, feed, flag, forbidden, jsonBody, notFound, str, type Json, type Route, type SfContext } from '../http';
import { renderContact, renderGroup, renderUser } from '../model';
import { fullName, nextId, type SfGroup, type SfState, type SfUser } from '../state';

export const CONTACT_PROPERTIES = ['Id', 'Email', 'FirstName', 'LastName', 'Company', 'Name', 'IsConfirmed', 'IsDisabled', 'LastAnyLogin', 'CreatedDate'] as const;
export const GROUP_PROPERTIES = ['Id', 'Name', 'IsShared', 'NumberOfContacts', 'Owner'] as const;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const expandOf = (c: SfContext) => (c.req.query('$expand') ?? '').split(',').map((s) => s.trim()).filter(Boolean);

/** Users (docs/vendors/sharefile.md#users) and distribution groups (docs/vendors/sharefile.md#groups). */
export function peopleRoutes(state: SfState, clock: Clock): Route[] {
  const me = (c: SfContext) => c.get('user');
  const employeeOnly = (c: SfContext) => {
    if (!me(c).employee) throw forbidden('Client users cannot list or read other users.');
  };
  const manager = (c: SfContext) => {
    if (!me(c).canManageUsers) throw forbidden('You do not have permission to manage users.');
  };
  const userById = (id: string): SfUser => {
    const u = state.users.get(id);
    if (!u) throw notFound(`User ${id} not found.`);
    return u;
  };
  const byEmail = (email: string) => [...state.users.values()].find((u) => u.email.toLowerCase() === email.toLowerCase());

  const current = (c: SfContext): Response => {
    const id = c.req.query('id');
    const email = c.req.query('emailAddress');
    let u = me(c);
    if (id || email) {
      const found = id ? state.users.get(id) : byEmail(email!);
      if (!found) throw notFound(`User ${id ?? email} not found.`);
      if (found.id !== u.id) employeeOnly(c);
      u = found;
    }
    return entity(c, 'Users', renderUser(c, state, u, expandOf(c)));
  };

  const getUser = (c: SfContext, id: string): Response => {
    const u = userById(id);
    if (u.id !== me(c).id) employeeOnly(c);
    return entity(c, 'Users', renderUser(c, state, u, expandOf(c)));
  };

  const list = (c: SfContext, employees: boolean): Response => {
    employeeOnly(c);
    const users = [...state.users.values()].filter((u) => u.employee === employees).sort((a, b) => fullName(a).localeCompare(fullName(b)));
    return feed(c, 'Contacts', users.map((u) => renderContact(c, u)), CONTACT_PROPERTIES);
  };

  const notify = (u: SfUser, by: SfUser) =>
    state.outbox.push({ to: u.email, subject: `${fullName(by)} added you to ${state.account.name} on ShareFile`, body: 'Activate your account to access your files.', at: clock.now() });

  const create = async (c: SfContext, employee: boolean): Promise<Response> => {
    manager(c);
    const body = await jsonBody(c);
    const email = str(body, 'Email')?.trim();
    if (!email || !EMAIL.test(email)) throw badRequest('Email must be a valid email address.');
    if (byEmail(email)) throw conflict(`A user with the email ${email} already exists.`);
    const password = str(body, 'Password');
    if (password !== undefined && password.length < 8) throw badRequest('Password must be at least 8 characters.');
    const id = nextId(state, 'user');
    const u: SfUser = {
      id, email, firstName: str(body, 'FirstName') ?? '', lastName: str(body, 'LastName') ?? '', company: str(body, 'Company') ?? '', employee,
      admin: employee && bool(body, 'IsAdministrator') === true, confirmed: password !== undefined, disabled: false, created: clock.now(),
      canCreateFolders: employee && bool(body, 'CanCreateFolders') !== false, canManageUsers: employee && bool(body, 'CanManageUsers') === true, referredBy: me(c).id,
    };
    state.users.set(id, u);
    if (employee) {
      for (const [field, name, mark] of [['homeId', fullName(u) || email, 'homeOf'], ['boxId', 'File Box', 'boxOf']] as const) {
        const fid = nextId(state, 'folder');
        state.items.set(fid, { id: fid, kind: 'folder', name, description: '', parentId: 'top', creatorId: id, created: u.created, edited: u.created, expiration: null, deleted: false, streamId: `st${fid.slice(2)}`, version: 1, [mark]: id });
        u[field] = fid;
      }
    }
    if (flag(c, 'notify', false)) notify(u, me(c));
    return entity(c, 'Users', renderUser(c, state, u, ['Security']));
  };

  const update = async (c: SfContext, id: string): Promise<Response> => {
    const u = userById(id);
    if (u.id !== me(c).id) manager(c);
    const body = await jsonBody(c);
    for (const [field, key] of [['firstName', 'FirstName'], ['lastName', 'LastName'], ['company', 'Company']] as const) {
      const v = str(body, key);
      if (v !== undefined) u[field] = v;
    }
    const security = body.Security as Json | undefined;
    if (security && typeof security === 'object') {
      const disabled = bool(security, 'IsDisabled');
      if (disabled !== undefined) {
        if (u.id === me(c).id && disabled) throw badRequest('You cannot disable your own account.');
        u.disabled = disabled;
      }
    }
    return entity(c, 'Users', renderUser(c, state, u, ['Security']));
  };

  const remove = (c: SfContext, id: string): Response => {
    manager(c);
    const u = userById(id);
    if (u.id === me(c).id) throw badRequest('You cannot delete your own account.');
    if (!flag(c, 'completely', false)) {
      // Without completely=true the user is disabled: kept with their files, unable to sign in.
      u.disabled = true;
      return c.body(null, 204);
    }
    state.users.delete(id);
    for (const g of state.groups.values()) g.memberIds = g.memberIds.filter((m) => m !== id);
    for (const acl of state.acls.values()) acl.delete(id);
    for (const [token, uid] of state.tokens) if (uid === id) state.tokens.delete(token);
    // Their files go to the admin who deleted them (itemsReassignTo defaults to the caller).
    for (const item of state.items.values()) {
      if (item.creatorId === id) item.creatorId = me(c).id;
      if (item.homeOf === id || item.boxOf === id) item.deleted = true;
    }
    return c.body(null, 204);
  };

  // --- groups ---
  const visibleGroup = (c: SfContext, id: string): SfGroup => {
    employeeOnly(c);
    const g = state.groups.get(id);
    if (!g || (!g.shared && g.ownerId !== me(c).id && !me(c).admin)) throw notFound(`Group ${id} not found.`);
    return g;
  };
  const editableGroup = (c: SfContext, id: string): SfGroup => {
    const g = visibleGroup(c, id);
    if (g.ownerId !== me(c).id && !me(c).admin) throw forbidden('Only the owner of a group or an administrator can change it.');
    return g;
  };
  /** Users named by `[{Id}|{Email}]`; unknown ones are left out (the answer lists who is in the group). */
  const contactsOf = (entries: unknown[]): SfUser[] =>
    entries
      .map((e) => {
        const o = (e ?? {}) as Json;
        if (typeof o.Id === 'string') return state.users.get(o.Id);
        if (typeof o.Email === 'string') return byEmail(o.Email);
        throw badRequest('Each contact must have an Id or an Email.');
      })
      .filter((u): u is SfUser => Boolean(u));
  const members = (c: SfContext, g: SfGroup) => feed(c, 'Contacts', g.memberIds.map((id) => state.users.get(id)).filter((u): u is SfUser => Boolean(u)).map((u) => renderContact(c, u)));

  const createGroup = async (c: SfContext): Promise<Response> => {
    employeeOnly(c);
    const body = await jsonBody(c);
    const name = str(body, 'Name')?.trim();
    if (!name) throw badRequest('Name is required.');
    const contacts = Array.isArray(body.Contacts) ? contactsOf(body.Contacts) : [];
    const g: SfGroup = { id: nextId(state, 'group'), name, shared: bool(body, 'IsShared') ?? false, ownerId: me(c).id, memberIds: [...new Set(contacts.map((u) => u.id))], created: clock.now() };
    state.groups.set(g.id, g);
    return entity(c, 'Groups', renderGroup(c, state, g, true));
  };

  const updateGroup = async (c: SfContext, id: string): Promise<Response> => {
    const g = editableGroup(c, id);
    const body = await jsonBody(c);
    const name = str(body, 'Name');
    if (name !== undefined) {
      if (!name.trim()) throw badRequest('Name cannot be empty.');
      g.name = name.trim();
    }
    const shared = bool(body, 'IsShared');
    if (shared !== undefined) g.shared = shared;
    return entity(c, 'Groups', renderGroup(c, state, g, false));
  };

  const addMembers = async (c: SfContext, id: string): Promise<Response> => {
    const g = editableGroup(c, id);
    for (const u of contactsOf(await arrayBody(c))) if (!g.memberIds.includes(u.id)) g.memberIds.push(u.id);
    return members(c, g);
  };

  const removeMembers = async (c: SfContext, id: string): Promise<Response> => {
    const g = editableGroup(c, id);
    const gone = contactsOf(await arrayBody(c)).filter((u) => g.memberIds.includes(u.id));
    if (!gone.length) throw notFound('None of these contacts is a member of the group.');
    g.memberIds = g.memberIds.filter((m) => !gone.some((u) => u.id === m));
    return members(c, g);
  };

  return [
    { method: 'GET', pattern: 'Users', handler: current },
    { method: 'GET', pattern: 'Users(*)', handler: (c, [k]) => getUser(c, k!) },
    { method: 'GET', pattern: 'Accounts/Employees', handler: (c) => list(c, true) },
    { method: 'GET', pattern: 'Accounts/Clients', handler: (c) => list(c, false) },
    { method: 'POST', pattern: 'Users', handler: (c) => create(c, false) },
    { method: 'POST', pattern: 'Users/AccountUser', handler: (c) => create(c, true) },
    { method: 'PATCH', pattern: 'Users(*)', handler: (c, [k]) => update(c, k!) },
    { method: 'DELETE', pattern: 'Users(*)', handler: (c, [k]) => remove(c, k!) },
    {
      method: 'GET',
      pattern: 'Groups',
      handler: (c) => {
        employeeOnly(c);
        const u = me(c);
        const groups = [...state.groups.values()].filter((g) => g.shared || g.ownerId === u.id || u.admin).sort((a, b) => a.name.localeCompare(b.name));
        return feed(c, 'Groups', groups.map((g) => renderGroup(c, state, g, expandOf(c).includes('Contacts'))), GROUP_PROPERTIES);
      },
    },
    { method: 'GET', pattern: 'Groups(*)', handler: (c, [k]) => entity(c, 'Groups', renderGroup(c, state, visibleGroup(c, k!), expandOf(c).includes('Contacts'))) },
    { method: 'POST', pattern: 'Groups', handler: createGroup },
    { method: 'PATCH', pattern: 'Groups(*)', handler: (c, [k]) => updateGroup(c, k!) },
    {
      method: 'DELETE',
      pattern: 'Groups(*)',
      handler: (c, [k]) => {
        const g = editableGroup(c, k!);
        state.groups.delete(g.id);
        for (const acl of state.acls.values()) acl.delete(g.id);
        return c.body(null, 204);
      },
    },
    { method: 'GET', pattern: 'Groups(*)/Contacts', handler: (c, [k]) => members(c, visibleGroup(c, k!)) },
    { method: 'POST', pattern: 'Groups(*)/Contacts', handler: (c, [k]) => addMembers(c, k!) },
    { method: 'DELETE', pattern: 'Groups(*)/Contacts', handler: (c, [k]) => removeMembers(c, k!) },
  ];
}
