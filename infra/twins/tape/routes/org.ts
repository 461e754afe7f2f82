import { Hono } from 'hono';
import { jsonBody, notFound, restricted, validation, idParam, type TwinEnv } from '../http';
import { sendInvitation } from '../invitations';
import type { TapeState, TapeUser } from '../state';

const ORG_ROLES = ['admin', 'member', 'guest'] as const;

/** /v1/org and /v1/org/user, as docs/vendors/tape.md#organization and #users document them. */
export function orgRoutes(state: TapeState, now: () => number) {
  const r = new Hono<TwinEnv>();

  r.get('/org', (c) => c.json({ ...state.org, active_user_id: c.get('user').user_id }));

  r.get('/org/user', (c) => {
    const users = [...state.users.values()];
    return c.json({ users, total: users.length });
  });

  r.post('/org/user', async (c) => {
    const me = c.get('user');
    if (me.role !== 'owner' && me.role !== 'admin') throw restricted('Only organization owners and admins can add users.');
    const body = await jsonBody(c);
    const { name, email, role } = body;
    if (typeof name !== 'string' || name.trim() === '') throw validation('"name" is required and must be a non-empty string.');
    if (typeof email !== 'string' || !/^[^@\s]+@[^@\s]+$/.test(email)) throw validation('"email" is required and must be an email address.');
    if (!ORG_ROLES.includes(role as (typeof ORG_ROLES)[number])) throw validation(`"role" must be one of "admin", "member", "guest".`);
    if ([...state.users.values()].some((u) => u.email === email)) throw validation(`A user with email ${email} already exists in this organization.`);
    const user: TapeUser = {
      user_id: state.nextId.user++,
      name,
      org_id: state.org.org_id,
      status: body.skip_invitation === true ? 'active' : 'invited',
      email,
      phone: null,
      role: role as TapeUser['role'],
      job_description: null,
    };
    state.users.set(user.user_id, user);
    if (user.status === 'invited') sendInvitation(state, user, now());
    return c.json(user);
  });

  r.post('/org/user/:userId/resend-invitation', (c) => {
    const id = idParam(c, 'userId');
    const user = state.users.get(id);
    if (!user) throw notFound(`User does not exist(${id})!`);
    sendInvitation(state, user, now());
    return c.json({});
  });

  // docs/vendors/tape.md#users: every user still "invited" gets the email again; owners and admins only.
  r.post('/org/invitation/resend-pending', (c) => {
    const me = c.get('user');
    if (me.role !== 'owner' && me.role !== 'admin') throw restricted('Only organization owners and admins can resend pending invitations.');
    for (const user of state.users.values()) if (user.status === 'invited') sendInvitation(state, user, now());
    return c.json({});
  });

  return r;
}
