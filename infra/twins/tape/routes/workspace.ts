import { Hono } from 'hono';
import { idParam, jsonBody, notFound, restricted, validation, type TwinEnv } from '../http';
import { slugify, type TapeIcon, type TapeState, type TapeUser, type TapeWorkspace, type WorkspaceRole } from '../state';

const TYPES = ['private', 'open', 'default', 'closed'] as const;
const ROLES = ['admin', 'member', 'guest'] as const;
/** docs/vendors/tape.md#workspaces: "An organization can hold at most 500 workspaces". */
export const MAX_WORKSPACES = 500;

/** /v1/workspace, as docs/vendors/tape.md#workspaces documents it. */
export function workspaceRoutes(state: TapeState) {
  const r = new Hono<TwinEnv>();

  const isOrgAdmin = (u: TapeUser) => u.role === 'owner' || u.role === 'admin';
  const roleIn = (wsId: number, u: TapeUser) => state.members.get(wsId)?.get(u.user_id);

  // Private workspaces are invite-only: invisible to non-members.
  const visible = (ws: TapeWorkspace, u: TapeUser) => isOrgAdmin(u) || ws.type !== 'private' || roleIn(ws.workspace_id, u) !== undefined;

  function find(id: number, u: TapeUser): TapeWorkspace {
    const ws = state.workspaces.get(id);
    if (!ws || !visible(ws, u)) throw notFound(`Workspace does not exist(${id})!`);
    return ws;
  }

  function findManaged(id: number, u: TapeUser): TapeWorkspace {
    const ws = find(id, u);
    if (!isOrgAdmin(u) && roleIn(id, u) !== 'admin') {
      throw restricted(`User ${u.user_id} is not an admin of workspace ${id} and cannot modify it.`);
    }
    return ws;
  }

  function icon(value: unknown): TapeIcon | undefined {
    if (value === undefined || value === null) return undefined;
    const v = value as TapeIcon;
    if (v.type === 'graphic' && typeof v.id === 'string') return v;
    if (v.type === 'emoji' && typeof v.emoji === 'string') return v;
    throw validation('"icon" must be {"type": "graphic", "id": "<material icon id>"} or {"type": "emoji", "emoji": "<emoji>"}.');
  }

  function optionalText(body: Record<string, unknown>, key: string): string | null | undefined {
    const v = body[key];
    if (v === undefined || v === null || typeof v === 'string') return v;
    throw validation(`"${key}" must be a string.`);
  }

  r.get('/workspace/org', (c) => {
    const u = c.get('user');
    const workspaces = [...state.workspaces.values()].filter((ws) => visible(ws, u));
    return c.json({ total: workspaces.length, workspaces });
  });

  r.post('/workspace', async (c) => {
    const u = c.get('user');
    if (u.role === 'guest') throw restricted('Guests cannot create workspaces.');
    const body = await jsonBody(c);
    if (typeof body.name !== 'string' || body.name.trim() === '') throw validation('"name" is required and must be a non-empty string.');
    if (!TYPES.includes(body.type as TapeWorkspace['type'])) throw validation('"type" needs to be one of "closed", "open", "default" and "private".');
    if (state.workspaces.size >= MAX_WORKSPACES) throw validation(`The organization holds ${MAX_WORKSPACES} workspaces, the maximum. Delete a workspace first.`);
    const ws: TapeWorkspace = {
      workspace_id: state.nextId.workspace++,
      name: body.name,
      slug: slugify(body.name),
      type: body.type as TapeWorkspace['type'],
      description: optionalText(body, 'description') ?? null,
      org_id: state.org.org_id,
    };
    const ic = icon(body.icon);
    if (ic) ws.icon = ic;
    state.workspaces.set(ws.workspace_id, ws);
    state.members.set(ws.workspace_id, new Map([[u.user_id, 'admin']]));
    return c.json(ws);
  });

  r.put('/workspace/:id', async (c) => {
    const ws = findManaged(idParam(c, 'id'), c.get('user'));
    const body = await jsonBody(c);
    // docs/vendors/tape.md#workspaces: "it is not possible to change the type of a workspace via the API".
    if (body.type !== undefined && body.type !== ws.type) throw validation('The type of a workspace cannot be changed via the API.');
    if (body.name !== undefined) {
      if (typeof body.name !== 'string' || body.name.trim() === '') throw validation('"name" must be a non-empty string.');
      ws.name = body.name;
      ws.slug = slugify(body.name);
    }
    const description = optionalText(body, 'description');
    if (description !== undefined) ws.description = description;
    const ic = icon(body.icon);
    if (ic) ws.icon = ic;
    return c.json(ws);
  });

  r.delete('/workspace/:id', (c) => {
    const ws = findManaged(idParam(c, 'id'), c.get('user'));
    state.workspaces.delete(ws.workspace_id);
    state.members.delete(ws.workspace_id);
    return c.json(ws);
  });

  r.get('/workspace/:id/member', (c) => {
    const ws = find(idParam(c, 'id'), c.get('user'));
    const members = [...(state.members.get(ws.workspace_id) ?? new Map<number, WorkspaceRole>())].map(([user_id, role]) => ({
      workspace_id: ws.workspace_id,
      user_id,
      role,
    }));
    return c.json({ workspace_members: members });
  });

  r.post('/workspace/:id/member', async (c) => {
    const ws = findManaged(idParam(c, 'id'), c.get('user'));
    const body = await jsonBody(c);
    const userId = body.user_id;
    if (typeof userId !== 'number' || !Number.isInteger(userId)) throw validation('"user_id" is required and must be a number.');
    if (!ROLES.includes(body.role as WorkspaceRole)) throw validation('"role" needs to be one of "admin", "member" and "guest".');
    if (!state.users.has(userId)) throw validation(`User ${userId} is not a user of organization ${state.org.org_id}; add the user to the organization first.`);
    const role = body.role as WorkspaceRole;
    let members = state.members.get(ws.workspace_id);
    if (!members) state.members.set(ws.workspace_id, (members = new Map()));
    members.set(userId, role);
    return c.json({ workspace_id: ws.workspace_id, user_id: userId, role });
  });

  r.delete('/workspace/:id/member/:userId', (c) => {
    const ws = findManaged(idParam(c, 'id'), c.get('user'));
    const userId = idParam(c, 'userId');
    const members = state.members.get(ws.workspace_id);
    const role = members?.get(userId);
    if (!members || role === undefined) throw notFound(`User ${userId} is not a member of workspace ${ws.workspace_id}.`);
    members.delete(userId);
    return c.json({ workspace_id: ws.workspace_id, user_id: userId, role });
  });

  return r;
}
