import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { randomBytes } from 'node:crypto';
import { tasksSettled } from '../../shared/mcp/tasks';
import { Browser, connectedDbapp, hostSignIn, localServer } from './helpers';

/**
 * The admin API behind the operator console: connections, MCP sign-ins (grants) and their clients,
 * event subscriptions, MCP tasks and approval decisions. Each refuses a request without the admin
 * credential, filters by ?tenant=, pages with a cursor, and holds no key, token or credential the
 * test used; every write lands in the audit trail with who did it.
 */
const ADMIN = 'adm_test_credential';

describe('the admin API of the console', () => {
  let s: Awaited<ReturnType<typeof localServer>>;
  const secrets: string[] = [];
  const a = { key: '', connection: '', keyId: '' };
  const b = { key: '', connection: '' };
  let grantTokens: { access_token: string; refresh_token: string };
  const vaultKey = randomBytes(32).toString('base64');
  const admin = (method: string, path: string, key: string | null = ADMIN) => s.api(method, path, key ? { key } : {});
  /** Every answer of the admin API in this test, for the secret check. */
  const answers: string[] = [];
  const listed = async (path: string) => {
    const res = await admin('GET', path);
    answers.push(JSON.stringify(res.body));
    expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
    return res.body.data;
  };
  const mcp = (key: string, body: unknown, connection: string) =>
    fetch(`${s.base}/v1/mcp/dbapp?connection=${connection}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' }, body: JSON.stringify(body) }).then(async (r) => (await r.json()) as any);

  beforeAll(async () => {
    vi.stubEnv('VAULT_KEY', vaultKey);
    s = await localServer({ VAULT_KEY: vaultKey });
    vi.stubEnv('PUBLIC_BASE_URL', s.base);
    Object.assign(a, await connectedDbapp(s, 'acme'));
    a.keyId = (await admin('GET', '/v1/admin/keys?tenant=acme')).body.data.keys[0].id;
    Object.assign(b, await connectedDbapp(s, 'globex'));
    secrets.push(a.key, b.key);
    // An event subscription, an MCP task and a pending approval in acme.
    const sub = await s.call(a.key, a.connection, 'dbapp/subscribeEvents', { app_id: 902, event_types: ['record.update'] });
    expect(sub.status, JSON.stringify(sub.body)).toBe(200);
    const task = await mcp(a.key, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'batchCreateRecords', arguments: { app_id: 902, inputs: [{ fields: { deal_name: 'Console task', stage: ['Discovery'], amount: 1 } }] }, task: { ttl: 600_000 } } }, a.connection);
    expect(task.result?.task?.taskId, JSON.stringify(task)).toBeTruthy();
    await tasksSettled();
    const held = await s.createKey('acme', { platforms: ['dbapp'], approval: 'writes' } as never);
    secrets.push(held.key);
    const asked = await s.call(held.key, a.connection, 'dbapp/createWorkspace', { name: 'Held by console 7c1', type: 'open' });
    expect(asked.body.error?.details?.reason).toBe('approval_required');
    // An MCP host signed in with acme's key: a grant and its client.
    const signedIn = await hostSignIn(s.base, `${s.base}/v1/mcp/dbapp`, (br, form) => br.submit(form, 'sign-in', { service_key: a.key }));
    grantTokens = signedIn.tokens;
    secrets.push(grantTokens.access_token, grantTokens.refresh_token, signedIn.client.registration_access_token, vaultKey);
  }, 120_000);
  afterAll(async () => {
    vi.unstubAllEnvs();
    await s.close();
  });

  const routes = ['/v1/admin/connections', '/v1/admin/oauth/clients', '/v1/admin/oauth/grants', '/v1/admin/subscriptions', '/v1/admin/tasks'];

  it('refuses every route without the admin credential, with a tenant key, or with a wrong credential', async () => {
    for (const path of routes) {
      for (const key of [null, a.key, 'adm_wrong']) {
        const res = await admin('GET', path, key);
        expect(res.status, `${path} with ${key ?? 'nothing'}`).toBe(401);
        expect(res.body.error.code).toBe('UNAUTHORIZED');
      }
    }
    expect((await admin('DELETE', `/v1/admin/connections/acme/${a.connection}`, a.key)).status).toBe(401);
    expect((await admin('POST', '/v1/admin/approvals/apr_000000000000000000000000/approve', a.key)).status).toBe(401);
  });

  it('lists connections of every tenant or one, with status, vendor and needs_reauth; pages with a cursor; a bad cursor or limit names the parameter', async () => {
    const all = await listed('/v1/admin/connections');
    expect(all.connections.map((c: any) => c.tenant).sort()).toEqual(['acme', 'globex']);
    expect(all.connections[0]).toMatchObject({ platform: 'dbapp', status: 'active', needs_reauth: false, vendor: expect.any(String) });
    const one = await listed('/v1/admin/connections?tenant=globex');
    expect(one.connections.map((c: any) => c.id)).toEqual([b.connection]);
    const first = await listed('/v1/admin/connections?limit=1');
    expect(first.connections).toHaveLength(1);
    const second = await listed(`/v1/admin/connections?limit=1&cursor=${first.next_cursor}`);
    expect(second.connections).toHaveLength(1);
    expect(second.connections[0].id).not.toBe(first.connections[0].id);
    expect(second.next_cursor).toBeUndefined();
    const bad = await admin('GET', '/v1/admin/connections?cursor=nope');
    expect(bad.body.error.details.parameter).toBe('cursor');
    expect((await admin('GET', '/v1/admin/connections?limit=0')).body.error.details.parameter).toBe('limit');
    expect((await admin('GET', '/v1/admin/connections?tenant=no%20such')).body.error.details.parameter).toBe('tenant');
  });

  it('lists sign-ins (grants) and their clients by tenant; revoking a grant refuses its tokens and is audited', async () => {
    const grants = (await listed('/v1/admin/oauth/grants?tenant=acme')).grants;
    expect(grants).toHaveLength(1);
    expect(grants[0]).toMatchObject({ tenant: 'acme', key_id: a.keyId, connection: a.connection, client_name: 'Test host', status: 'active' });
    expect((await listed('/v1/admin/oauth/grants?tenant=globex')).grants).toEqual([]);
    const clients = (await listed('/v1/admin/oauth/clients?tenant=acme')).clients;
    expect(clients).toEqual([expect.objectContaining({ client_name: 'Test host', kind: 'registered', sign_ins: 1, tenants: ['acme'] })]);
    expect((await listed('/v1/admin/oauth/clients?tenant=globex')).clients).toEqual([]);
    expect((await listed('/v1/admin/oauth/clients')).clients.length).toBeGreaterThanOrEqual(1);

    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const before = await fetch(`${s.base}/v1/mcp/dbapp`, { method: 'POST', headers: { authorization: `Bearer ${grantTokens.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify(list) });
    expect(before.status).toBe(200);
    const revoked = await admin('DELETE', `/v1/admin/oauth/grants/${grants[0].id}`);
    expect(revoked.body.data).toEqual({ id: grants[0].id, tenant: 'acme', revoked: true });
    const after = await fetch(`${s.base}/v1/mcp/dbapp`, { method: 'POST', headers: { authorization: `Bearer ${grantTokens.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify(list) });
    expect(after.status).toBe(401);
    const refresh = await fetch(`${s.base}/oauth/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: grantTokens.refresh_token, client_id: clients[0].client_id }) });
    expect(refresh.status).toBe(400);
    expect((await listed('/v1/admin/oauth/grants?tenant=acme')).grants[0].status).toBe('revoked');
    expect((await admin('DELETE', '/v1/admin/oauth/grants/gnt_nope')).status).toBe(404);
    const trail = (await listed('/v1/admin/audit?tenant=acme&tool=revokeGrant')).records;
    expect(trail).toEqual([expect.objectContaining({ surface: 'admin', tool: 'revokeGrant', outcome: 'OK', by: 'admin', status: 200 })]);
  });

  it('lists event subscriptions with their unacknowledged counts, and MCP tasks with their status, tool and owner key, by tenant', async () => {
    const subs = (await listed('/v1/admin/subscriptions?tenant=acme')).subscriptions;
    expect(subs).toEqual([expect.objectContaining({ tenant: 'acme', platform: 'dbapp', key_id: a.keyId, connection_id: a.connection, unacknowledged: 0, watch: expect.objectContaining({ app_id: 902 }) })]);
    expect((await listed('/v1/admin/subscriptions?tenant=globex')).subscriptions).toEqual([]);
    const tasks = (await listed('/v1/admin/tasks?tenant=acme')).tasks;
    expect(tasks).toEqual([expect.objectContaining({ tenant: 'acme', key_id: a.keyId, status: 'completed', created_at: expect.any(String), platform: 'dbapp', tool: 'batchCreateRecords' })]);
    // The listing says which tool, never what it was called with or what it answered.
    expect(JSON.stringify(tasks)).not.toMatch(/Console task|"result"|"arguments"|"inputs"/);
    expect((await listed('/v1/admin/tasks?tenant=acme&status=working')).tasks).toEqual([]);
    expect((await listed('/v1/admin/tasks?tenant=globex')).tasks).toEqual([]);
  });

  it('the admin decides a pending approval once, with its preview; the trail says the admin decided', async () => {
    const pending = (await listed('/v1/admin/approvals?tenant=acme&status=pending')).approvals;
    expect(pending).toHaveLength(1);
    const one = await listed(`/v1/admin/approvals/${pending[0].id}`);
    expect(one.preview).toContain('POST');
    const done = await admin('POST', `/v1/admin/approvals/${pending[0].id}/approve`);
    expect(done.body.data).toMatchObject({ status: 'approved', decided_by: 'admin' });
    const again = await admin('POST', `/v1/admin/approvals/${pending[0].id}/reject`);
    expect(again.status).toBe(400);
    expect(again.body.error.message).toContain('approved');
    const trail = (await listed('/v1/admin/audit?tenant=acme&outcome=approved')).records;
    expect(trail).toEqual([expect.objectContaining({ kind: 'approval', surface: 'admin', by: 'admin', approval_id: pending[0].id })]);
  });

  it('reconnect gives a fresh link, delete removes the connection; both audited; key writes are audited too', async () => {
    const re = await admin('POST', `/v1/admin/connections/globex/${b.connection}/reconnect`);
    expect(re.body.data.connect_url).toContain('/v1/connect/');
    expect((await admin('DELETE', '/v1/admin/connections/acme/con_000000000000000000000000')).status).toBe(404);
    const del = await admin('DELETE', `/v1/admin/connections/globex/${b.connection}`);
    expect(del.body.data).toMatchObject({ id: b.connection, tenant: 'globex', deleted: true });
    expect((await listed('/v1/admin/connections?tenant=globex')).connections).toEqual([]);
    const made = await s.createKey('globex', { platforms: ['crm'] });
    secrets.push(made.key);
    await admin('DELETE', `/v1/admin/keys/${made.id}`);
    const trail = (await listed('/v1/admin/audit?tenant=globex')).records.filter((r: any) => r.surface === 'admin').map((r: any) => `${r.tool} ${r.outcome}`);
    expect(trail).toEqual(expect.arrayContaining(['reconnectConnection OK', 'deleteConnection OK', 'createKey OK', 'revokeKey OK']));
    expect((await listed('/v1/admin/audit?tenant=acme&tool=deleteConnection')).records).toEqual([expect.objectContaining({ outcome: 'NOT_FOUND', status: 404 })]);
  });

  it('no answer holds a key, token, credential or the vault key the test used', async () => {
    for (const path of routes) await listed(path);
    const all = answers.join('\n');
    for (const secret of secrets) expect(all).not.toContain(secret);
    expect(all).not.toMatch(/"sealed"|"secret_hash"|tes_[A-Za-z0-9_-]{20}|tat_|trt_|tra_/);
  });
});
