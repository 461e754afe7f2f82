import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_KEYS } from '../../infra/twins/kit';
import type { MemoryStore } from '../../shared/store/memory';
import { Browser, localServer } from './helpers';

/** The API-key platforms, each with a read-only probe and what it answers. */
const KEYED = [
  { platform: 'dbapp', tool: 'dbapp/listWorkspaces', params: {}, answer: { total: 2 } },
  { platform: 'realty', tool: 'realty/searchProperties', params: { query: 'Phoenix, AZ', take: 1 }, answer: { status: { code: 200 } } },
  { platform: 'crm', tool: 'crm/getPipelines', params: {}, answer: { objectType: 'deals' } },
] as const;

describe('connections with API keys, through the local server', () => {
  let s: Awaited<ReturnType<typeof localServer>>;
  let keyA: string;
  let keyB: string;
  const connections: Record<string, string> = {};
  beforeAll(async () => {
    s = await localServer();
    keyA = (await s.createKey('tenant-a', { platforms: ['dbapp', 'realty', 'crm', 'collab'] })).key;
    keyB = (await s.createKey('tenant-b', { platforms: ['dbapp', 'realty', 'crm', 'collab'] })).key;
  });
  afterAll(() => s.close());

  describe.each(KEYED)('$platform', (p) => {
    it('connects through the hosted page and calls tools with key + connection', async () => {
      const created = await s.api('POST', '/v1/connections', { key: keyA, body: { platform: p.platform, end_user: 'user-42', auth: 'api_key' } });
      expect(created.status).toBe(201);
      const { connection, connect_url, expires_at } = created.body.data;
      expect(connection).toMatchObject({ platform: p.platform, end_user: 'user-42', kind: 'api_key', status: 'pending' });
      expect(connect_url).toMatch(new RegExp(`^${s.base}/v1/connect/[A-Za-z0-9_-]{43}$`));
      expect(Date.parse(expires_at) - Date.now()).toBeLessThanOrEqual(600_000);
      connections[p.platform] = connection.id;

      // Before the end user connects, a call says so and hands over the link.
      const early = await s.call(keyA, connection.id, p.tool, p.params);
      expect(early.status).toBe(401);
      expect(early.body.error.details).toMatchObject({ connection_id: connection.id, status: 'pending', reconnect_url: expect.stringContaining('/v1/connect/') });

      const done = await new Browser().connectKey(connect_url, SANDBOX_KEYS.owner);
      expect(done.html).toContain('id="connected"');
      const shown = await s.api('GET', `/v1/connections/${connection.id}`, { key: keyA });
      expect(shown.body.data).toMatchObject({ status: 'active', version: 1 });
      expect(JSON.stringify(shown.body)).not.toContain(SANDBOX_KEYS.owner);
      expect(shown.body.data.sealed).toBeUndefined();

      const res = await s.call(keyA, connection.id, p.tool, p.params);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject(p.answer);
      // The link worked once.
      expect((await new Browser().request(connect_url)).status).toBe(404);
    });
  });

  it('finds no credential in clear in the raw store', () => {
    const raw = JSON.stringify([...((s.rt.store as MemoryStore) as any).entries.entries()]);
    expect(raw).toContain('"sealed"');
    expect(raw).not.toContain(SANDBOX_KEYS.owner);
    expect(raw).not.toContain(SANDBOX_KEYS.owner.slice(9, 30));
  });

  it("tenant isolation: tenant B can neither use, list, read, reconnect nor delete tenant A's connections", async () => {
    const id = connections.dbapp!;
    const absent = 'con_0123456789abcdef01234567';
    const listed = await s.api('GET', '/v1/connections', { key: keyB });
    expect(listed.body.data.connections).toEqual([]);
    expect((await s.api('GET', '/v1/connections', { key: keyA })).body.data.connections.map((c: { id: string }) => c.id)).toContain(id);
    // Every endpoint answers a foreign id exactly as an id that never existed.
    const same = async (method: string, path: (x: string) => string, call?: boolean) => {
      const foreign = call ? await s.call(keyB, id, 'dbapp/listWorkspaces') : await s.api(method, path(id), { key: keyB });
      const never = call ? await s.call(keyB, absent, 'dbapp/listWorkspaces') : await s.api(method, path(absent), { key: keyB });
      expect(foreign.status).toBe(404);
      expect(never.status).toBe(404);
      expect(JSON.stringify(foreign.body).replaceAll(id, 'X')).toBe(JSON.stringify(never.body).replaceAll(absent, 'X'));
    };
    await same('GET', (x) => `/v1/connections/${x}`);
    await same('POST', (x) => `/v1/connections/${x}/reconnect`);
    await same('DELETE', (x) => `/v1/connections/${x}`);
    await same('POST', () => '', true);
    // And A's connection still works.
    expect((await s.call(keyA, id, 'dbapp/listWorkspaces')).status).toBe(200);
  });

  it('refuses a connection of another platform, a platform outside the policy, and bad bodies', async () => {
    const wrong = await s.call(keyA, connections.dbapp!, 'crm/getPipelines');
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.details.parameter).toBe('X-Connection-Id');
    const narrow = (await s.createKey('tenant-a', { platforms: ['crm'] })).key;
    const forbidden = await s.api('POST', '/v1/connections', { key: narrow, body: { platform: 'dbapp', end_user: 'u' } });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error.message).toContain('allows platforms crm');
    expect((await s.api('POST', '/v1/connections', { key: keyA, body: { platform: 'dbapp' } })).body.error.details.parameter).toBe('end_user');
    expect((await s.api('POST', '/v1/connections', { key: keyA, body: { platform: 'nope', end_user: 'u' } })).body.error.details.parameter).toBe('platform');
    expect((await s.api('POST', '/v1/connections', { key: keyA, body: { platform: 'dbapp', end_user: 'u', auth: 'oauth' } })).body.error.details.parameter).toBe('auth');
    expect((await s.api('POST', '/v1/connections', { key: SANDBOX_KEYS.owner, body: { platform: 'dbapp', end_user: 'u' } })).status).toBe(401);
  });

  it('MCP names the connection in the endpoint URL or per call in _meta', async () => {
    const id = connections.dbapp!;
    const rpc = async (url: string, params: Record<string, unknown>) => {
      const res = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${keyA}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params }),
      });
      return ((await res.json()) as { result: { isError?: boolean; content: { text: string }[] } }).result;
    };
    const viaUrl = await rpc(`${s.base}/v1/mcp/dbapp?connection=${id}`, { name: 'listWorkspaces', arguments: {} });
    expect(viaUrl.isError).toBeFalsy();
    expect(viaUrl.content[0]!.text).toContain('2 workspaces');
    const viaMeta = await rpc(`${s.base}/v1/mcp/dbapp`, { name: 'listWorkspaces', arguments: {}, _meta: { connection_id: id } });
    expect(viaMeta.content[0]!.text).toContain('2 workspaces');
    const none = await rpc(`${s.base}/v1/mcp/dbapp`, { name: 'listWorkspaces', arguments: {} });
    expect(none.isError).toBe(true);
    expect(none.content[0]!.text).toContain('X-Connection-Id');
  });

  it('deleting a connection stops its calls', async () => {
    const id = connections.realty!;
    const del = await s.api('DELETE', `/v1/connections/${id}`, { key: keyA });
    expect(del.body.data).toEqual({ id, deleted: true, vendor_revoked: false });
    expect((await s.call(keyA, id, 'realty/searchProperties', { query: 'Phoenix, AZ', take: 1 })).status).toBe(404);
    expect((await s.api('GET', '/v1/connections?platform=realty', { key: keyA })).body.data.connections).toEqual([]);
  });

  it.each(KEYED)('$platform: a key the vendor refuses (401) marks the connection needs_reauth; reconnecting through the link restores it', async (p) => {
    const created = await s.api('POST', '/v1/connections', { key: keyA, body: { platform: p.platform, end_user: 'user-stale', auth: 'api_key' } });
    const id = created.body.data.connection.id as string;
    await new Browser().connectKey(created.body.data.connect_url, 'user_key_NotKnownToTheVendor0000');
    const refused = await s.call(keyA, id, p.tool, p.params);
    expect(refused.status).toBe(401);
    expect(refused.body.error.details).toMatchObject({ connection_id: id, status: 'needs_reauth' });
    const link = refused.body.error.details.reconnect_url as string;
    expect(link).toContain('/v1/connect/');
    expect((await s.api('GET', `/v1/connections/${id}`, { key: keyA })).body.data.status).toBe('needs_reauth');
    // Later calls do not reach the vendor with the refused key: they answer the reconnect link at once.
    const again = await s.call(keyA, id, p.tool, p.params);
    expect(again.status).toBe(401);
    expect(again.body.error.message).toContain('needs its end user to reconnect');
    await new Browser().connectKey(link, SANDBOX_KEYS.owner);
    const fixed = await s.call(keyA, id, p.tool, p.params);
    expect(fixed.status).toBe(200);
    expect((await s.api('GET', `/v1/connections/${id}`, { key: keyA })).body.data.status).toBe('active');
  });
});

describe("a platform's rate limit for a service key", () => {
  it('counts per connection, as the vendor counts per token', async () => {
    const s = await localServer({ DBAPP_RATE_LIMIT_MAX: '2', DBAPP_RATE_LIMIT_WINDOW_SECONDS: '60' });
    try {
      const { key } = await s.createKey('acme', { platforms: ['dbapp'] });
      const ids: string[] = [];
      for (const user of ['u1', 'u2']) {
        const created = await s.api('POST', '/v1/connections', { key, body: { platform: 'dbapp', end_user: user } });
        await new Browser().connectKey(created.body.data.connect_url, SANDBOX_KEYS.owner);
        ids.push(created.body.data.connection.id);
      }
      const first = [];
      for (let i = 0; i < 3; i++) first.push((await s.call(key, ids[0], 'dbapp/listWorkspaces')).status);
      expect(first).toEqual([200, 200, 429]);
      expect((await s.call(key, ids[1], 'dbapp/listWorkspaces')).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});
