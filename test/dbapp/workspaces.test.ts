import { describe, expect, it } from 'vitest';
import { createTapeClient } from '../../functions/dbapp/client';
import { harness, SANDBOX_KEYS } from '../helpers/harness';

const json = { query: 'format=json' };

describe('listWorkspaces', () => {
  it('lists the workspaces in text and JSON', async () => {
    const h = await harness();
    const text = await h.call('dbapp/listWorkspaces');
    expect(text.body.data).toBe(
      '#1 Task management (closed, slug task-management) — Manage all tasks and projects inside this workspace.\n' +
        '#2 Contact directory (default, slug contact-directory) — Keep track of our contacts here.\n' +
        '2 workspaces',
    );
    const r = await h.call('dbapp/listWorkspaces', {}, json);
    expect(r.body.data.total).toBe(2);
    expect(r.body.data.workspaces[0]).toEqual({
      workspace_id: 1,
      org_id: 1337,
      name: 'Task management',
      description: 'Manage all tasks and projects inside this workspace.',
      slug: 'task-management',
      type: 'closed',
    });
  });

  it('hides private workspaces from non-members', async () => {
    const h = await harness();
    await h.call('dbapp/createWorkspace', { name: 'Board room', type: 'private' });
    expect((await h.call('dbapp/listWorkspaces', {}, json)).body.data.total).toBe(3);
    const zoe = await h.call('dbapp/listWorkspaces', {}, { ...json, key: SANDBOX_KEYS.member });
    expect(zoe.body.data.workspaces.map((w: { name: string }) => w.name)).toEqual(['Task management', 'Contact directory']);
  });
});

describe('getWorkspace', () => {
  it('returns one workspace', async () => {
    const h = await harness();
    const r = await h.call('dbapp/getWorkspace', { workspace_id: 1 }, json);
    expect(r.body.data).toMatchObject({ workspace_id: 1, name: 'Task management', type: 'closed', org_id: 1337 });
    expect((await h.call('dbapp/getWorkspace', { workspace_id: 1 })).body.data).toBe(
      '#1 Task management (closed, slug task-management) — Manage all tasks and projects inside this workspace. · org 1337',
    );
  });

  it('answers NOT_FOUND for an unknown or invisible workspace', async () => {
    const h = await harness();
    const r = await h.call('dbapp/getWorkspace', { workspace_id: 404 });
    expect(r.status).toBe(404);
    expect(r.body.error).toMatchObject({ code: 'NOT_FOUND', details: { workspace_id: 404 } });
    expect(r.body.error.message).toContain('listWorkspaces');
  });
});

describe('createWorkspace', () => {
  it('creates a workspace and answers {workspace_id, org_id, name, slug, type}', async () => {
    const h = await harness();
    const r = await h.call('dbapp/createWorkspace', { name: 'Sales pipeline', type: 'open', description: 'Leads and deals.' }, json);
    expect(r.body.data).toEqual({ workspace_id: 3, org_id: 1337, name: 'Sales pipeline', slug: 'sales-pipeline', type: 'open' });
    expect(h.tape.state.workspaces.get(3)?.description).toBe('Leads and deals.');
    // The creator becomes admin of it.
    expect(h.tape.state.members.get(3)?.get(10000)).toBe('admin');
    const text = await h.call('dbapp/createWorkspace', { name: 'Hiring', type: 'closed' });
    expect(text.body.data).toBe('created workspace #4 Hiring (closed, slug hiring) in org 1337');
  });

  it.each([
    [{ type: 'open' }, 'name'],
    [{ name: '   ', type: 'open' }, 'name'],
    [{ name: 'X' }, 'type'],
    [{ name: 'X', type: 'public' }, 'type'],
    [{ name: 'X', type: 'open', description: 5 }, 'description'],
  ])('rejects %j naming %s, and creates nothing', async (params, parameter) => {
    const h = await harness();
    const r = await h.call('dbapp/createWorkspace', params);
    expect(r.status).toBe(400);
    expect(r.body.error.details.parameter).toBe(parameter);
    expect(h.tape.state.workspaces.size).toBe(2);
  });

  it('passes Tape\'s 500-workspace limit on as INVALID_PARAMETER with Tape\'s message', async () => {
    const h = await harness();
    for (let i = 0; i < 498; i++) h.tape.state.workspaces.set(100 + i, { ...h.tape.state.workspaces.get(1)!, workspace_id: 100 + i });
    const r = await h.call('dbapp/createWorkspace', { name: 'One too many', type: 'open' });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { upstream_status: 400, upstream_code: 'validation_error' } });
    expect(r.body.error.message).toContain('500 workspaces');
  });
});

describe('updateWorkspace', () => {
  it('renames (slug follows) and keeps what was not given', async () => {
    const h = await harness();
    const r = await h.call('dbapp/updateWorkspace', { workspace_id: 1, name: 'Task management (NEW)' }, json);
    expect(r.body.data).toEqual({
      workspace_id: 1,
      org_id: 1337,
      name: 'Task management (NEW)',
      description: 'Manage all tasks and projects inside this workspace.',
      slug: 'task-management-new',
      type: 'closed',
    });
    const text = await h.call('dbapp/updateWorkspace', { workspace_id: 1, description: 'Only tasks.' });
    expect(text.body.data).toBe('updated description of workspace #1 Task management (NEW) (closed, slug task-management-new) — Only tasks.');
  });

  it('refuses an update with nothing to change, before calling Tape', async () => {
    const h = await harness();
    const r = await h.call('dbapp/updateWorkspace', { workspace_id: 1 });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'name', expected: 'name and/or description' } });
  });

  it('does not accept a type change (Tape cannot change it)', async () => {
    const h = await harness();
    const r = await h.call('dbapp/updateWorkspace', { workspace_id: 1, type: 'open' });
    expect(r.body.error.details.parameter).toBe('type');
  });

  it('answers FORBIDDEN for a non-admin and NOT_FOUND for an unknown workspace', async () => {
    const h = await harness();
    const zoe = await h.call('dbapp/updateWorkspace', { workspace_id: 1, name: 'Mine' }, { key: SANDBOX_KEYS.member });
    expect(zoe.status).toBe(403);
    expect(zoe.body.error).toMatchObject({ code: 'FORBIDDEN', details: { upstream_status: 403, upstream_code: 'restricted_resource' } });
    const missing = await h.call('dbapp/updateWorkspace', { workspace_id: 77, name: 'X' });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('NOT_FOUND');
  });
});

describe('workspace members', () => {
  it('lists members with their roles', async () => {
    const h = await harness();
    const r = await h.call('dbapp/listWorkspaceMembers', { workspace_id: 1 }, json);
    expect(r.body.data).toEqual({
      workspace_members: [
        { user_id: 10000, workspace_id: 1, role: 'admin' },
        { user_id: 10001, workspace_id: 1, role: 'member' },
      ],
    });
    expect((await h.call('dbapp/listWorkspaceMembers', { workspace_id: 1 })).body.data).toBe(
      'workspace #1: 2 members\nuser #10000 admin\nuser #10001 member',
    );
  });

  it('adds a member, then changes the role by adding again', async () => {
    const h = await harness();
    const add = await h.call('dbapp/addWorkspaceMember', { workspace_id: 2, user_id: 10001, role: 'member' }, json);
    expect(add.body.data).toEqual({ user_id: 10001, workspace_id: 2, role: 'member' });
    const promote = await h.call('dbapp/addWorkspaceMember', { workspace_id: 2, user_id: 10001, role: 'admin' });
    expect(promote.body.data).toBe('user #10001 is admin of workspace #2');
    expect(h.tape.state.members.get(2)?.get(10001)).toBe('admin');
  });

  it('refuses a user outside the organization and a role Tape\'s tools do not offer', async () => {
    const h = await harness();
    const stranger = await h.call('dbapp/addWorkspaceMember', { workspace_id: 1, user_id: 99999, role: 'member' });
    expect(stranger.status).toBe(400);
    expect(stranger.body.error.message).toContain('not a user of organization');
    // Tape's 400 names no field: the client names the input it sent.
    expect(stranger.body.error.details).toMatchObject({ parameter: 'user_id', upstream_status: 400 });
    const guest = await h.call('dbapp/addWorkspaceMember', { workspace_id: 1, user_id: 10001, role: 'guest' });
    expect(guest.body.error.details).toEqual({ parameter: 'role', expected: 'one of "member", "admin"' });
  });

  it('removes a member who stays in the organization', async () => {
    const h = await harness();
    const r = await h.call('dbapp/removeWorkspaceMember', { workspace_id: 1, user_id: 10001 }, json);
    expect(r.body).toEqual({ success: true, data: {} });
    expect(h.tape.state.members.get(1)?.has(10001)).toBe(false);
    expect(h.tape.state.users.has(10001)).toBe(true);
    const again = await h.call('dbapp/removeWorkspaceMember', { workspace_id: 1, user_id: 10001 });
    expect(again.status).toBe(404);
    await h.call('dbapp/addWorkspaceMember', { workspace_id: 1, user_id: 10001, role: 'member' });
    expect((await h.call('dbapp/removeWorkspaceMember', { workspace_id: 1, user_id: 10001 })).body.data).toBe(
      'removed user #10001 from workspace #1 (still in the organization)',
    );
  });

  it('needs admin rights on the workspace to change members', async () => {
    const h = await harness();
    const r = await h.call('dbapp/removeWorkspaceMember', { workspace_id: 1, user_id: 10000 }, { key: SANDBOX_KEYS.member });
    expect(r.status).toBe(403);
    expect(h.tape.state.members.get(1)?.get(10000)).toBe('admin');
  });
});

describe('deleteWorkspace', () => {
  it('deletes and returns the deleted workspace', async () => {
    const h = await harness();
    await h.call('dbapp/createWorkspace', { name: 'Temp', type: 'open' });
    const r = await h.call('dbapp/deleteWorkspace', { workspace_id: 3 }, json);
    expect(r.body.data).toEqual({ workspace_id: 3, org_id: 1337, name: 'Temp', description: null, slug: 'temp', type: 'open' });
    expect(h.tape.state.workspaces.has(3)).toBe(false);
    const again = await h.call('dbapp/deleteWorkspace', { workspace_id: 3 });
    expect(again.status).toBe(404);
    expect((await h.call('dbapp/deleteWorkspace', { workspace_id: 2 })).body.data).toBe(
      'deleted workspace #2 Contact directory (default, slug contact-directory) — Keep track of our contacts here. with all its apps and records (cannot be undone)',
    );
  });

  it('is FORBIDDEN to a non-admin and leaves the workspace in place', async () => {
    const h = await harness();
    const r = await h.call('dbapp/deleteWorkspace', { workspace_id: 1 }, { key: SANDBOX_KEYS.member });
    expect(r.status).toBe(403);
    expect(h.tape.state.workspaces.has(1)).toBe(true);
  });
});

describe('Tape rate limit', () => {
  it('maps Tape\'s 429 to RATE_LIMITED with Tape\'s retry time', async () => {
    const h = await harness({ twin: { credits: 20 } });
    await h.call('dbapp/listWorkspaces');
    await h.call('dbapp/listWorkspaces');
    const r = await h.call('dbapp/listWorkspaces');
    expect(r.status).toBe(429);
    expect(r.body.error).toMatchObject({ code: 'RATE_LIMITED', details: { upstream_status: 429, upstream_code: 'too_many_requests' } });
    expect(r.body.error.details.retry_after).toBeGreaterThan(0);
    expect(r.headers.get('retry-after')).toBe(String(r.body.error.details.retry_after));
  });

  it('reads Tape\'s retry_after from the error body when no Retry-After header comes with it', async () => {
    const fetchFn = (async () =>
      new Response(JSON.stringify({ status_code: 429, error_code: 'too_many_requests', error_message: 'Too many requests', retry_after: 17 }), {
        status: 429,
        headers: { 'content-type': 'application/json' },
      })) as typeof fetch;
    const client = createTapeClient('user_key_x', { baseUrl: 'https://tape.test', fetch: fetchFn, timeoutMs: 1000 });
    const err = await client.listWorkspaces().then(() => undefined, (e: unknown) => e);
    expect(err).toMatchObject({ code: 'RATE_LIMITED', details: { retry_after: 17, upstream_code: 'too_many_requests' } });
  });
});
