import { Hono } from 'hono';
import { forbidden, idParam, notFound, paging, type TwinContext, type TwinEnv } from '../http';
import { profileOf, type PodioSpaceRow, type PodioState, type PodioUser } from '../state';
import { slashAware } from './both';

/** The key's user, orgs, spaces, members and contacts (docs/vendors/podio.md#apps-spaces-orgs-and-contacts). */
export function orgRoutes(state: PodioState) {
  const r = new Hono<TwinEnv>();
  const route = slashAware(r);

  const orgOut = () => ({
    org_id: state.org.org_id,
    name: state.org.name,
    url: `https://podio.com/${state.org.url_label}`,
    url_label: state.org.url_label,
    type: 'premium',
    premium: true,
    logo: null,
    image: null,
    created_on: state.org.created_on,
    rights: ['view', 'add_space'],
  });

  const spaceOut = (s: PodioSpaceRow, u: PodioUser) => ({
    space_id: s.space_id,
    org_id: s.org_id,
    name: s.name,
    url: `https://podio.com/${state.org.url_label}/${s.url_label}`,
    url_label: s.url_label,
    description: s.description,
    type: 'regular',
    privacy: 'closed',
    role: u.role === 'admin' ? 'admin' : 'regular',
    rights: ['view', 'add_app', 'add_item', 'add_conversation'],
    created_on: s.created_on,
  });

  const spacesOf = (u: PodioUser) => [...state.spaces.values()].filter((s) => u.spaces.includes(s.space_id));

  function org(c: TwinContext) {
    const id = idParam(c, 'org_id');
    if (id !== state.org.org_id) throw notFound();
    return state.org;
  }

  const memberOut = (u: PodioUser) => ({
    user: { user_id: u.user_id, mail: u.mail },
    profile: profileOf(u),
    role: u.role,
    employee: true,
    spaces: { invited: 0, started: u.spaces.length },
  });

  /** Contacts filtered by `name` and `mail` (parts, case-insensitive) and paged. */
  function contacts(c: TwinContext) {
    const { limit, offset } = paging(c, { default: 100, max: 500 });
    const name = (c.req.query('name') ?? '').toLowerCase();
    const mail = (c.req.query('mail') ?? '').toLowerCase();
    const all = [...state.users.values()].filter((u) => u.name.toLowerCase().includes(name) && u.mail.toLowerCase().includes(mail));
    return all.slice(offset, offset + limit).map(profileOf);
  }

  route.get('/user/status', (c) => {
    const u = c.get('user');
    return c.json({
      user: { user_id: u.user_id, mail: u.mail, status: 'active', locale: 'en_GB', timezone: u.timezone, created_on: state.org.created_on },
      profile: profileOf(u),
      properties: {},
      inbox_new: 0,
      message_unread_count: 0,
      flags: [],
    });
  });

  route.get('/org/', (c) => {
    const u = c.get('user');
    return c.json([{ ...orgOut(), role: u.role, spaces: spacesOf(u).map((s) => spaceOut(s, u)) }]);
  });

  route.get('/org/:org_id', (c) => {
    org(c);
    return c.json({ ...orgOut(), role: c.get('user').role });
  });

  route.get('/org/:org_id/space/', (c) => {
    org(c);
    const u = c.get('user');
    return c.json(spacesOf(u).map((s) => spaceOut(s, u)));
  });

  route.get('/space/:space_id', (c) => {
    const s = state.spaces.get(idParam(c, 'space_id'));
    if (!s) throw notFound();
    const u = c.get('user');
    if (!u.spaces.includes(s.space_id)) throw forbidden(`The user ${u.user_id} does not have the right "view" on space ${s.space_id}`);
    return c.json({ ...spaceOut(s, u), org: orgOut() });
  });

  /** A user's membership of a space: 404 for someone not in it (the caller must see the space). */
  route.get('/space/:space_id/member/:user_id', (c) => {
    const s = state.spaces.get(idParam(c, 'space_id'));
    if (!s) throw notFound();
    const caller = c.get('user');
    if (!caller.spaces.includes(s.space_id)) throw forbidden(`The user ${caller.user_id} does not have the right "view" on space ${s.space_id}`);
    const u = state.users.get(idParam(c, 'user_id'));
    if (!u || !u.spaces.includes(s.space_id)) throw notFound();
    return c.json({ user: { user_id: u.user_id, mail: u.mail }, profile: profileOf(u), role: u.role === 'admin' ? 'admin' : 'regular', started_on: s.created_on, ended_on: null });
  });

  route.get('/org/:org_id/member/', (c) => {
    org(c);
    const { limit, offset } = paging(c, { default: 100, max: 500 });
    return c.json([...state.users.values()].slice(offset, offset + limit).map(memberOut));
  });

  route.get('/org/:org_id/member/:user_id', (c) => {
    org(c);
    const u = state.users.get(idParam(c, 'user_id'));
    if (!u) throw notFound();
    return c.json(memberOut(u));
  });

  route.get('/contact/user/:user_id', (c) => {
    const u = state.users.get(idParam(c, 'user_id'));
    if (!u) throw notFound();
    return c.json(profileOf(u));
  });

  route.get('/contact/:profile_id/v2', (c) => {
    const id = idParam(c, 'profile_id');
    const u = [...state.users.values()].find((x) => x.profile_id === id);
    if (!u) throw notFound();
    return c.json(profileOf(u));
  });

  route.get('/contact/', (c) => c.json(contacts(c)));

  route.get('/contact/org/:org_id', (c) => {
    org(c);
    return c.json(contacts(c));
  });

  return r;
}
