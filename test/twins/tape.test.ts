import { describe, expect, it } from 'vitest';
import { createClock } from '../../infra/twins/kit';
import { createTapeTwin, SANDBOX_KEYS } from '../../infra/twins/tape';

/** Calls the twin as the docs' curl lines do (Basic auth "-u KEY:" or Bearer). */
function twin(opts: Parameters<typeof createTapeTwin>[0] = {}) {
  const t = createTapeTwin(opts);
  const call = async (method: string, path: string, body?: unknown, auth: string | null = `Bearer ${SANDBOX_KEYS.owner}`) => {
    const res = await t.fetch(`https://api.tapeapp.com${path}`, {
      method,
      headers: { ...(auth ? { authorization: auth } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as any };
  };
  return { ...t, call };
}

describe('Tape twin: the examples of workspace.md', () => {
  it('GET /v1/workspace/org', async () => {
    const t = twin();
    const basic = `Basic ${Buffer.from(`${SANDBOX_KEYS.owner}:`).toString('base64')}`;
    const r = await t.call('GET', '/v1/workspace/org', undefined, basic);
    expect(r.body).toEqual({
      total: 2,
      workspaces: [
        { workspace_id: 1, name: 'Task management', slug: 'task-management', type: 'closed', description: 'Manage all tasks and projects inside this workspace.', org_id: 1337 },
        { workspace_id: 2, name: 'Contact directory', slug: 'contact-directory', type: 'default', description: 'Keep track of our contacts here.', org_id: 1337 },
      ],
    });
  });

  it('POST /v1/workspace, PUT /v1/workspace/{id}, DELETE /v1/workspace/{id}', async () => {
    const t = twin();
    t.state.workspaces.clear();
    t.state.nextId.workspace = 1;
    const created = await t.call('POST', '/v1/workspace', { name: 'Task management', type: 'closed', description: 'Manage all tasks and projects inside this workspace.' });
    expect(created.body).toEqual({ workspace_id: 1, name: 'Task management', slug: 'task-management', type: 'closed', description: 'Manage all tasks and projects inside this workspace.', org_id: 1337 });
    const updated = await t.call('PUT', '/v1/workspace/1', { name: 'Task management (NEW)', type: 'closed', description: 'Manage all tasks and projects inside this NEW workspace.' });
    const expected = { workspace_id: 1, name: 'Task management (NEW)', slug: 'task-management-new', type: 'closed', description: 'Manage all tasks and projects inside this NEW workspace.', org_id: 1337 };
    expect(updated.body).toEqual(expected);
    expect((await t.call('DELETE', '/v1/workspace/1')).body).toEqual(expected);
  });

  it('members: list, add (role updated when already a member), remove', async () => {
    const t = twin();
    expect((await t.call('GET', '/v1/workspace/1/member')).body).toEqual({
      workspace_members: [
        { workspace_id: 1, user_id: 10000, role: 'admin' },
        { workspace_id: 1, user_id: 10001, role: 'member' },
      ],
    });
    const roger = await t.call('POST', '/v1/org/user', { name: 'Roger Sterling', email: 'rsterling-sc@me.com', role: 'admin', skip_invitation: true });
    expect(roger.body).toMatchObject({ user_id: 10002, name: 'Roger Sterling', org_id: 1337, status: 'active', email: 'rsterling-sc@me.com', role: 'admin' });
    expect((await t.call('POST', '/v1/workspace/1/member', { user_id: 10002, role: 'admin' })).body).toEqual({ workspace_id: 1, user_id: 10002, role: 'admin' });
    expect((await t.call('POST', '/v1/workspace/1/member', { user_id: 10002, role: 'guest' })).body.role).toBe('guest');
    expect((await t.call('DELETE', '/v1/workspace/1/member/10002')).body).toEqual({ workspace_id: 1, user_id: 10002, role: 'guest' });
    expect(t.state.users.has(10002)).toBe(true);
  });

  it('rejects bad input with validation_error and an unknown id with not_found', async () => {
    const t = twin();
    const bad = await t.call('POST', '/v1/workspace', { name: 'X', type: 'public' });
    expect(bad.body).toEqual({ status_code: 400, endpoint: '/v1/workspace', error_code: 'validation_error', error_message: expect.stringContaining('"closed", "open", "default"') });
    expect((await t.call('POST', '/v1/workspace', '{oops')).body.error_code).toBe('invalid_json');
    expect((await t.call('PUT', '/v1/workspace/1', { type: 'open' })).body.error_message).toMatch(/cannot be changed/);
    expect((await t.call('GET', '/v1/workspace/9/member')).status).toBe(404);
    expect((await t.call('GET', '/v1/workspace/abc/member')).body.error_code).toBe('invalid_request_url');
    expect((await t.call('GET', '/v1/nothing/here')).body.error_code).toBe('invalid_request_url');
  });
});

describe('Tape twin: organization.md and user.md', () => {
  it('GET /v1/org and GET /v1/org/user', async () => {
    const t = twin();
    expect((await t.call('GET', '/v1/org')).body).toEqual({
      org_id: 1337,
      active_user_id: 10000,
      name: 'Tape Technologies',
      slug: 'tape',
      url: 'https://tapeapp.com/tape',
      description: 'One shall dogfood all day all night',
      website: 'https://tapeapp.com',
      location: 'Munich, Germany',
      created_on: '2019-05-01 10:00',
      plan: 'premium',
      activity_count: 345,
    });
    const users = await t.call('GET', '/v1/org/user');
    expect(users.body.total).toBe(2);
    expect(users.body.users[1]).toEqual({
      user_id: 10001,
      name: 'Zoe Maxwell',
      org_id: 1337,
      status: 'active',
      email: 'zoemaxwell10001@me.com',
      phone: '555 123 457',
      role: 'member',
      job_description: 'Executive',
    });
  });

  it('only owners and admins add users', async () => {
    const t = twin();
    const r = await t.call('POST', '/v1/org/user', { name: 'A', email: 'a@b.c', role: 'member' }, `Bearer ${SANDBOX_KEYS.member}`);
    expect(r.body).toMatchObject({ status_code: 403, error_code: 'restricted_resource' });
  });
});

describe('Tape twin: authentication.md', () => {
  it.each([
    [null, 401, 'dev_api_authentication', "Missing authentication for Dev-API endpoint: '/v1/org' (no user API key provided)"],
    ['Bearer abc', 400, 'validation', "Invalid user API key for accessing endpoint '/v1/org' (key has to start with 'user_key_')"],
    ['Bearer user_key_!!', 400, 'validation', "Invalid user API key for accessing endpoint '/v1/org' (signature check not passed, key is malformed)"],
    ['Bearer user_key_wellFormedButUnknown', 401, 'unauthorized', 'The bearer token is not valid.'],
  ])('%s → %i %s', async (auth, status, code, message) => {
    const r = await twin().call('GET', '/v1/org', undefined, auth);
    expect(r.body).toEqual({ status_code: status, endpoint: '/v1/org', error_code: code, error_message: message });
  });
});

describe('Tape twin: rate-limiting.md', () => {
  it('sends the credit headers with every response and a 429 body with the rate-limit fields', async () => {
    const clock = createClock(Date.parse('2022-03-01T11:59:03Z'));
    const t = twin({ credits: 50, clock });
    const ok = await t.call('GET', '/v1/org');
    expect(Object.fromEntries(['retry-after', 'x-ratelimit-limit', 'x-retry-remaining', 'x-retry-cost', 'x-retry-reset'].map((h) => [h, ok.headers.get(h)]))).toEqual({
      'retry-after': '60',
      'x-ratelimit-limit': '50',
      'x-retry-remaining': '40',
      'x-retry-cost': '10',
      'x-retry-reset': '2022-03-01 12:00:03',
    });
    for (let i = 0; i < 4; i++) await t.call('GET', '/v1/org');
    clock.advance(2000);
    const limited = await t.call('GET', '/v1/workspace/org');
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({
      status_code: 429,
      endpoint: '/v1/workspace/org',
      error_code: 'too_many_requests',
      error_message:
        'Too many requests (0/50 points left), retry after 58 seconds (2022-03-01 12:00:03). Your current request costs 10 points. Check https://developers.tapeapp.com/ for more info',
      retry_after: 58,
      rate_limit: 50,
      rate_limit_remaining: 0,
      rate_limit_cost: 10,
      rate_limit_reset: '2022-03-01 12:00:03',
    });
    expect(limited.headers.get('retry-after')).toBe('58');
    // Credits come back after the interval.
    clock.advance(60_000);
    expect((await t.call('GET', '/v1/org')).status).toBe(200);
  });

  it('charges more for deleting a workspace', async () => {
    const t = twin();
    const r = await t.call('DELETE', '/v1/workspace/2');
    expect(r.headers.get('x-retry-cost')).toBe('100');
  });
});

describe('Tape twin: the kit parts tests use', () => {
  it('logs every request without the key, and injects faults per route', async () => {
    const t = twin();
    await t.call('POST', '/v1/workspace', { name: 'Logged', type: 'open' });
    await t.call('GET', '/v1/workspace/org?limit=5');
    expect(t.requests.entries.map(({ method, path, query, body, auth, status }) => ({ method, path, query, body, auth, status }))).toEqual([
      { method: 'POST', path: '/v1/workspace', query: {}, body: { name: 'Logged', type: 'open' }, auth: 'Bearer', status: 200 },
      { method: 'GET', path: '/v1/workspace/org', query: { limit: '5' }, body: null, auth: 'Bearer', status: 200 },
    ]);
    expect(JSON.stringify(t.requests.entries)).not.toContain(SANDBOX_KEYS.owner);

    const retryLater = { status_code: 429, endpoint: '/v1/org', error_code: 'too_many_requests', error_message: 'Too many requests', retry_after: 7 };
    t.faults.inject({ method: 'GET', path: '/v1/org', times: 1, fault: { status: 429, body: retryLater, headers: { 'Retry-After': '7' } } });
    const limited = await t.call('GET', '/v1/org');
    expect(limited).toMatchObject({ status: 429, body: retryLater });
    expect(limited.headers.get('retry-after')).toBe('7');
    expect((await t.call('GET', '/v1/org')).status).toBe(200);
    t.faults.inject({ path: /^\/v1\/workspace/, fault: { kind: 'reset' } });
    await expect(t.call('GET', '/v1/workspace/org')).rejects.toThrow('fetch failed');
  });
});
