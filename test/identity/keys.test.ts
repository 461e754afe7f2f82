import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpKeyAdmin, runKeys } from '../../infra/keys-cli';
import { KEY_CACHE_SECONDS, ServiceKeys } from '../../shared/identity/keys';
import { MemoryStore } from '../../shared/store/memory';
import { SANDBOX_KEYS } from '../../infra/twins/kit';
import { localServer } from './helpers';

const ADMIN = 'adm_test_credential';

describe('service keys through the local server', () => {
  let s: Awaited<ReturnType<typeof localServer>>;
  beforeAll(async () => {
    s = await localServer();
  });
  afterAll(() => s.close());

  it('guards the admin API with the admin credential', async () => {
    expect((await s.api('GET', '/v1/admin/keys')).status).toBe(401);
    const wrong = await s.api('GET', '/v1/admin/keys', { key: 'adm_wrong' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe('UNAUTHORIZED');
    // A service key is no admin credential.
    const { key } = await s.createKey('acme', { platforms: ['crm'] });
    expect((await s.api('GET', '/v1/admin/keys', { key })).status).toBe(401);
  });

  it('creates a tes_ key of 192 random bits, shown once: lists and the store hold only its hash', async () => {
    const created = await s.createKey('acme', { platforms: ['crm'] }, { name: 'nightly sync' });
    expect(created.key).toMatch(/^tes_[A-Za-z0-9_-]{32}$/);
    const listed = await s.api('GET', '/v1/admin/keys?tenant=acme', { key: ADMIN });
    const mine = listed.body.data.keys.find((k: { id: string }) => k.id === created.id);
    expect(mine).toMatchObject({ tenant: 'acme', name: 'nightly sync', status: 'active', policy: { platforms: ['crm'], read_only: false } });
    expect(JSON.stringify(listed.body)).not.toContain(created.key);
    const raw = JSON.stringify([...((s.rt.store as MemoryStore) as any).entries.values()]);
    expect(raw).not.toContain(created.key.slice(4));
  });

  it('refuses a bad policy naming the field, before creating anything', async () => {
    const res = await s.api('POST', '/v1/admin/keys', { key: ADMIN, body: { tenant: 'acme', policy: { platforms: [], read_only: 'yes' } } });
    expect(res.status).toBe(400);
    expect(res.body.error.details.parameter).toBe('policy.platforms');
  });

  it('a call with a service key names its connection; a key alone is told how', async () => {
    const { key } = await s.createKey('acme', { platforms: ['crm'] });
    const res = await s.call(key, undefined, 'crm/getPipelines', {});
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'X-Connection-Id' } });
    expect(res.body.error.message).toContain('POST /v1/connections');
  });

  it('enforces the policy before the vendor: FORBIDDEN naming what the key may call', async () => {
    const requests = (s.twins.crm as unknown as import('../../infra/twins/kit').Twin).requests;
    const before = requests.entries.length;
    const { key } = await s.createKey('acme', { platforms: ['crm'], read_only: true, toolsets: ['deals'] });
    const otherPlatform = await s.call(key, 'con_000000000000000000000000', 'dbapp/listWorkspaces');
    expect(otherPlatform.status).toBe(403);
    expect(otherPlatform.body.error.code).toBe('FORBIDDEN');
    expect(otherPlatform.body.error.message).toContain('platform "dbapp" is not allowed');
    expect(otherPlatform.body.error.message).toContain('Its policy allows platforms crm; toolsets deals; read-only tools only');
    expect(otherPlatform.body.error.details.allowed).toEqual({ platforms: ['crm'], toolsets: ['deals'], read_only: true });
    const write = await s.call(key, 'con_000000000000000000000000', 'crm/createDeal', { properties: { dealname: 'x' } });
    expect(write.status).toBe(403);
    expect(write.body.error.message).toContain('"createDeal" writes, and this key is read-only');
    const toolset = await s.call(key, 'con_000000000000000000000000', 'crm/getContact', { contact_id: '1' });
    expect(toolset.status).toBe(403);
    expect(toolset.body.error.message).toContain('toolset "contacts"');
    // Allowed by the policy, it goes on to the connection (unknown here): nothing reached the vendor.
    const allowed = await s.call(key, 'con_000000000000000000000000', 'crm/getPipelines', {});
    expect(allowed.body.error.code).toBe('NOT_FOUND');
    expect(requests.entries.length).toBe(before);
  });

  it('lists and searches only what the policy allows: catalog, filtered catalog, search, MCP', async () => {
    const { key } = await s.createKey('acme', { platforms: ['crm'], read_only: true, toolsets: ['deals'] });
    const catalog = await s.api('GET', '/v1/tools/crm', { key });
    const names = catalog.body.data.tools.map((t: { name: string }) => t.name);
    expect(names).toContain('getPipelines');
    expect(names).toContain('getDeal');
    expect(names).not.toContain('createDeal');
    expect(names).not.toContain('getContact');
    expect(catalog.body.data.tools.every((t: { annotations: { readOnly: boolean } }) => t.annotations.readOnly)).toBe(true);
    const filtered = await s.api('GET', '/v1/tools/crm?schema=openai', { key });
    expect(filtered.body.data.tools.length).toBe(names.length);
    expect((await s.api('GET', '/v1/tools/dbapp', { key })).body.data.tools).toEqual([]);
    const search = await s.api('GET', '/v1/tools/search?query=create%20a%20contact', { key });
    expect(search.body.data.tools.every((t: { platform: string; group: string; annotations: { readOnly: boolean } }) => t.platform === 'crm' && t.group === 'deals' && t.annotations.readOnly)).toBe(true);
    const mcp = await fetch(`${s.base}/v1/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    const tools = ((await mcp.json()) as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name);
    expect(tools.filter((t) => t !== 'search_tools').sort()).toEqual(names.map((n: string) => `crm_${n}`).sort());
    // A vendor key still sees everything.
    const all = await s.api('GET', '/v1/tools/crm', { key: SANDBOX_KEYS.owner });
    expect(all.body.data.tools.length).toBeGreaterThan(names.length);
  });

  it('revocation: refused at once here; another process sees it within the cache bound', async () => {
    const { key, id } = await s.createKey('acme', { platforms: ['crm'] });
    // A second process over the same store, with a clock the test moves.
    let now = Date.now();
    const other = new ServiceKeys(s.rt.store, () => now);
    await other.authenticate(key);
    const revoked = await s.api('DELETE', `/v1/admin/keys/${id}`, { key: ADMIN });
    expect(revoked.body.data.status).toBe('revoked');
    const res = await s.call(key, 'con_000000000000000000000000', 'crm/getPipelines', {});
    expect(res.status).toBe(401);
    expect(res.body.error.message).toContain('revoked');
    await expect(other.authenticate(key)).resolves.toMatchObject({ id });
    now += KEY_CACHE_SECONDS * 1000;
    expect(KEY_CACHE_SECONDS).toBeLessThanOrEqual(60);
    await expect(other.authenticate(key)).rejects.toThrow(/revoked/);
  });

  it('rotation: a new key with the same policy; the old one is refused', async () => {
    const { key, id } = await s.createKey('acme', { platforms: ['crm'], read_only: true });
    const rotated = await s.api('POST', `/v1/admin/keys/${id}/rotate`, { key: ADMIN });
    expect(rotated.status).toBe(201);
    expect(rotated.body.data).toMatchObject({ rotated_from: id, policy: { platforms: ['crm'], read_only: true }, status: 'active' });
    expect((await s.call(key, 'con_000000000000000000000000', 'crm/getPipelines', {})).status).toBe(401);
    expect((await s.call(rotated.body.data.key, 'con_000000000000000000000000', 'crm/getPipelines', {})).body.error.code).toBe('NOT_FOUND');
  });

  it('an expired or unknown key is refused', async () => {
    const unknown = await s.call('tes_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'con_000000000000000000000000', 'crm/getPipelines');
    expect(unknown.status).toBe(401);
    const past = await s.api('POST', '/v1/admin/keys', { key: ADMIN, body: { tenant: 'acme', policy: { platforms: ['crm'] }, expires_at: '2020-01-01T00:00:00Z' } });
    expect(past.body.error.details.parameter).toBe('expires_at');
  });

  it("counts the key's own rate limit across platforms", async () => {
    const { key } = await s.createKey('acme', { platforms: ['crm', 'dbapp'], rate_limit: { max: 2, window_seconds: 60 } });
    const codes = [];
    for (const tool of ['crm/getPipelines', 'dbapp/listWorkspaces', 'crm/getPipelines']) codes.push((await s.call(key, 'con_000000000000000000000000', tool)).body.error.code);
    expect(codes).toEqual(['NOT_FOUND', 'NOT_FOUND', 'RATE_LIMITED']);
  });

  it('the CLI works against the running server (admin API) and against a store', async () => {
    const remote = httpKeyAdmin(s.base, ADMIN);
    const out = await runKeys(['create', '--tenant', 'cli', '--platforms', 'crm,collab', '--read-only', '--rate-limit', '100/60', '--name', 'agent'], remote);
    const key = out.find((l) => l.startsWith('key: '))!.slice(5);
    expect(key).toMatch(/^tes_/);
    const id = out[0]!.split(' ')[0]!;
    expect(await runKeys(['list', '--tenant', 'cli'], remote)).toEqual([expect.stringMatching(new RegExp(`^${id}  active .*platforms=crm,collab  read-only  "agent"$`))]);
    expect((await runKeys(['revoke', id], remote))[0]).toContain('revoked');
    expect((await s.call(key, 'con_000000000000000000000000', 'crm/getPipelines')).status).toBe(401);
    const store = new MemoryStore();
    const local = await runKeys(['create', '--tenant', 't1', '--platforms', 'dbapp'], store);
    expect(local[1]).toMatch(/^key: tes_/);
    expect(await runKeys(['list'], store)).toHaveLength(1);
    await expect(runKeys(['create', '--tenant', 't1', '--platforms', 'dbapp', '--rate-limit', 'lots'], store)).rejects.toThrow(/--rate-limit/);
  });
});

describe('pass-through vendor keys', () => {
  it('keep working by default and are refused when a deployment turns them off', async () => {
    const off = await localServer({ PASS_THROUGH_KEYS: 'off' });
    try {
      const res = await off.call(SANDBOX_KEYS.owner, undefined, 'crm/getPipelines', {});
      expect(res.status).toBe(401);
      expect(res.body.error.message).toContain('service keys only');
      expect((await off.api('GET', '/v1/tools/crm', { key: SANDBOX_KEYS.owner })).status).toBe(401);
    } finally {
      await off.close();
    }
    const on = await localServer();
    try {
      expect((await on.call(SANDBOX_KEYS.owner, undefined, 'crm/getPipelines', {})).status).toBe(200);
    } finally {
      await on.close();
    }
  });
});
