import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKeys } from '../../infra/keys-cli';
import { SANDBOX_KEYS } from '../../infra/twins/kit';
import { MemoryStore } from '../../shared/store/memory';
import { Browser, localServer } from './helpers';

/** Who may manage a tenant's connections: the key's policy (shared/identity/policy.ts managesConnections). */
describe("connection routes honour the key's policy", () => {
  let s: Awaited<ReturnType<typeof localServer>>;
  const con: Record<string, string> = {};
  beforeAll(async () => {
    s = await localServer();
    const { key: owner } = await s.createKey('acme', { platforms: ['dbapp', 'realty', 'crm'] });
    for (const platform of ['dbapp', 'realty']) {
      const created = await s.api('POST', '/v1/connections', { key: owner, body: { platform, end_user: 'owner', auth: 'api_key' } });
      expect(created.status).toBe(201);
      await new Browser().connectKey(created.body.data.connect_url, SANDBOX_KEYS.owner);
      con[platform] = created.body.data.connection.id;
    }
  });
  afterAll(() => s.close());

  it('a key limited to crm deals neither reconnects, deletes, reads nor lists other platforms\' connections, nor creates any', async () => {
    const { key } = await s.createKey('acme', { platforms: ['crm'], toolsets: ['deals'] });
    const reconnect = await s.api('POST', `/v1/connections/${con.realty}/reconnect`, { key });
    expect(reconnect.status).toBe(404);
    expect(JSON.stringify(reconnect.body)).not.toContain('/v1/connect/');
    expect((await s.api('DELETE', `/v1/connections/${con.dbapp}`, { key })).status).toBe(404);
    expect((await s.api('GET', `/v1/connections/${con.dbapp}`, { key })).status).toBe(404);
    expect((await s.api('GET', '/v1/connections', { key })).body.data.connections).toEqual([]);
    expect((await s.api('GET', '/v1/connections?platform=dbapp', { key })).body.data.connections).toEqual([]);
    const create = await s.api('POST', '/v1/connections', { key, body: { platform: 'crm', end_user: 'u', auth: 'api_key' } });
    expect(create.status).toBe(403);
    expect(create.body.error.message).toContain('manage_connections');
    // The connections are untouched and still work for their own key.
    expect((await s.api('GET', '/v1/connections', { key: (await s.createKey('acme', { platforms: ['dbapp', 'realty'] })).key })).body.data.connections).toHaveLength(2);
  });

  it('a read-only key lists and reads its platforms\' connections but creates, reconnects and deletes none', async () => {
    const { key } = await s.createKey('acme', { platforms: ['dbapp'], read_only: true });
    const listed = await s.api('GET', '/v1/connections', { key });
    expect(listed.body.data.connections.map((c: { id: string }) => c.id)).toEqual([con.dbapp]);
    expect((await s.api('GET', `/v1/connections/${con.dbapp}`, { key })).status).toBe(200);
    const create = await s.api('POST', '/v1/connections', { key, body: { platform: 'dbapp', end_user: 'u', auth: 'api_key' } });
    expect(create.status).toBe(403);
    expect(create.body.error.message).toContain('read-only');
    expect((await s.api('POST', `/v1/connections/${con.dbapp}/reconnect`, { key })).status).toBe(403);
    expect((await s.api('DELETE', `/v1/connections/${con.dbapp}`, { key })).status).toBe(403);
    expect((await s.api('GET', `/v1/connections/${con.dbapp}`, { key })).body.data.status).toBe('active');
  });

  it('manage_connections: true lets a restricted key manage its own platforms only; false stops an unrestricted one', async () => {
    const { key } = await s.createKey('acme', { platforms: ['crm'], toolsets: ['deals'], manage_connections: true });
    const created = await s.api('POST', '/v1/connections', { key, body: { platform: 'crm', end_user: 'u', auth: 'api_key' } });
    expect(created.status).toBe(201);
    const id = created.body.data.connection.id;
    expect((await s.api('POST', `/v1/connections/${id}/reconnect`, { key })).status).toBe(200);
    expect((await s.api('POST', `/v1/connections/${con.realty}/reconnect`, { key })).status).toBe(404);
    expect((await s.api('GET', '/v1/connections', { key })).body.data.connections.map((c: { id: string }) => c.id)).toEqual([id]);
    expect((await s.api('DELETE', `/v1/connections/${id}`, { key })).status).toBe(200);
    const { key: off } = await s.createKey('acme', { platforms: ['dbapp'], manage_connections: false });
    expect((await s.api('POST', '/v1/connections', { key: off, body: { platform: 'dbapp', end_user: 'u' } })).status).toBe(403);
    expect((await s.api('DELETE', `/v1/connections/${con.dbapp}`, { key: off })).status).toBe(403);
  });

  it('the admin API and the CLI set the field, and refuse a read-only key that manages connections', async () => {
    const bad = await s.api('POST', '/v1/admin/keys', { key: 'adm_test_credential', body: { tenant: 'acme', policy: { platforms: ['dbapp'], read_only: true, manage_connections: true } } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.parameter).toBe('policy.manage_connections');
    const made = await s.api('POST', '/v1/admin/keys', { key: 'adm_test_credential', body: { tenant: 'acme', policy: { platforms: ['dbapp'], toolsets: ['records'], manage_connections: true } } });
    expect(made.body.data.policy.manage_connections).toBe(true);
    const store = new MemoryStore();
    await runKeys(['create', '--tenant', 't1', '--platforms', 'dbapp', '--no-manage-connections'], store);
    await runKeys(['create', '--tenant', 't1', '--platforms', 'dbapp', '--toolsets', 'records', '--manage-connections'], store);
    const rows = await runKeys(['list'], store);
    expect(rows.join('\n')).toContain('manage-connections=false');
    expect(rows.join('\n')).toContain('manage-connections=true');
  });
});
