import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ScanCommand } from '@aws-sdk/client-dynamodb';
import { KEY_CACHE_SECONDS } from '../../shared/identity/keys';
import { startDynamoDbLocal, type DynamoDbLocal } from '../helpers/dynamodb-local';
import { Browser, connectedDbapp, hostSignIn, localServer } from './helpers';

/**
 * The probe's two-tenant checks on both stores: tenant B reaches nothing of tenant A's, through
 * every connection route, a tool call and the MCP sign-in; on DynamoDB, a key revoked through one
 * runtime is refused by a second runtime on the same table within KEY_CACHE_SECONDS.
 */
let ddb: DynamoDbLocal | undefined;
afterAll(async () => {
  await ddb?.stop();
});

const STORES = [
  { name: 'memory', shared: false, env: async (): Promise<Record<string, string>> => ({}) },
  {
    name: 'DynamoDB Local',
    shared: true,
    env: async (): Promise<Record<string, string>> => {
      ddb = await startDynamoDbLocal({ table: 'identity-isolation' });
      vi.stubEnv('AWS_ACCESS_KEY_ID', 'local');
      vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'local');
      return { STORE: 'dynamodb', TABLE_NAME: ddb.table, DYNAMODB_ENDPOINT: ddb.endpoint, AWS_REGION: ddb.region };
    },
  },
];

describe.each(STORES)('two tenants on the $name store', ({ env: storeEnv, shared }) => {
  let env: Record<string, string>;
  let s: Awaited<ReturnType<typeof localServer>>;
  let a: { key: string; connection: string };
  let keyB: string;
  beforeAll(async () => {
    // One vault key for every runtime on the table, as a deployment's functions share their KMS key.
    env = { ...(await storeEnv()), VAULT_KEY: randomBytes(32).toString('base64') };
    s = await localServer(env);
    a = await connectedDbapp(s, 'tenant-a');
    keyB = (await s.createKey('tenant-b', { platforms: ['dbapp'] })).key;
  }, 120_000);
  afterAll(async () => {
    await s?.close();
    vi.unstubAllEnvs();
  });

  it("tenant B neither lists, reads, reconnects, deletes nor calls through tenant A's connection", async () => {
    expect((await s.api('GET', '/v1/connections', { key: keyB })).body.data.connections).toEqual([]);
    const absent = 'con_0123456789abcdef01234567';
    for (const [method, path] of [['GET', (x: string) => `/v1/connections/${x}`], ['POST', (x: string) => `/v1/connections/${x}/reconnect`], ['DELETE', (x: string) => `/v1/connections/${x}`]] as const) {
      const foreign = await s.api(method, path(a.connection), { key: keyB });
      const never = await s.api(method, path(absent), { key: keyB });
      expect(foreign.status).toBe(404);
      expect(JSON.stringify(foreign.body).replaceAll(a.connection, 'X')).toBe(JSON.stringify(never.body).replaceAll(absent, 'X'));
    }
    expect((await s.call(keyB, a.connection, 'dbapp/listWorkspaces')).status).toBe(404);
    expect((await s.call(a.key, a.connection, 'dbapp/listWorkspaces')).status).toBe(200);
  });

  it("within tenant A, a key restricted to crm deals manages none of its connections and lists none of dbapp's", async () => {
    const { key } = await s.createKey('tenant-a', { platforms: ['crm'], toolsets: ['deals'] });
    expect((await s.api('GET', '/v1/connections', { key })).body.data.connections).toEqual([]);
    expect((await s.api('POST', `/v1/connections/${a.connection}/reconnect`, { key })).status).toBe(404);
    expect((await s.api('DELETE', `/v1/connections/${a.connection}`, { key })).status).toBe(404);
    expect((await s.api('POST', '/v1/connections', { key, body: { platform: 'crm', end_user: 'u', auth: 'api_key' } })).status).toBe(403);
  });

  it('the store holds neither the keys nor an unused connect link', async () => {
    const pending = await s.api('POST', '/v1/connections', { key: a.key, body: { platform: 'dbapp', end_user: 'pending', auth: 'api_key' } });
    const link = new URL(pending.body.data.connect_url).pathname.split('/').pop()!;
    const raw = ddb && shared ? JSON.stringify((await ddb.client.send(new ScanCommand({ TableName: ddb.table }))).Items ?? []) : JSON.stringify([...((s.rt.store as any).entries as Map<string, unknown>).entries()]);
    expect(raw.length).toBeGreaterThan(1000);
    for (const secret of [a.key, keyB, link]) expect(raw.includes(secret)).toBe(false);
  });

  it("tenant B's MCP sign-in is offered none of tenant A's accounts", async () => {
    const browser = new Browser();
    const reg = (await (await fetch(`${s.base}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [`${s.base}/cb`] }) })).json()) as { client_id: string };
    const q = new URLSearchParams({ client_id: reg.client_id, redirect_uri: `${s.base}/cb`, response_type: 'code', resource: `${s.base}/v1/mcp/dbapp`, code_challenge: 'x'.repeat(43), code_challenge_method: 'S256' });
    const page = await browser.submit(await browser.request(`${s.base}/oauth/authorize?${q}`), 'sign-in', { service_key: keyB });
    expect(page.html).toContain('id="no-connection"');
    expect(page.html).not.toContain(a.connection);
  });

  it.runIf(shared)('a key revoked through one runtime is refused by a second runtime on the same table within KEY_CACHE_SECONDS', async () => {
    let ahead = 0;
    const second = await localServer(env, { now: () => Date.now() + ahead });
    try {
      const { tokens } = await hostSignIn(second.base, `${second.base}/v1/mcp/dbapp`, (b, form) => b.submit(form, 'sign-in', { service_key: a.key }));
      const mcp = () => fetch(`${second.base}/v1/mcp/dbapp`, { method: 'POST', headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
      // The second runtime has looked the key up (and keeps it for at most KEY_CACHE_SECONDS).
      expect((await second.call(a.key, a.connection, 'dbapp/listWorkspaces')).status).toBe(200);
      expect((await mcp()).status).toBe(200);
      const keyId = (await s.api('GET', '/v1/admin/keys?tenant=tenant-a', { key: 'adm_test_credential' })).body.data.keys[0].id as string;
      expect((await s.api('DELETE', `/v1/admin/keys/${keyId}`, { key: 'adm_test_credential' })).status).toBe(200);
      // The revoking runtime refuses it at once.
      expect((await s.call(a.key, a.connection, 'dbapp/listWorkspaces')).status).toBe(401);
      ahead = (KEY_CACHE_SECONDS + 1) * 1000;
      expect((await second.call(a.key, a.connection, 'dbapp/listWorkspaces')).status).toBe(401);
      expect((await mcp()).status).toBe(401);
    } finally {
      await second.close();
    }
  });
});
