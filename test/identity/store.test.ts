import { randomBytes } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadIdentityConfig } from '../../shared/identity/config';
import { Connections } from '../../shared/identity/connections';
import { Identity } from '../../shared/identity/identity';
import { collab } from '../../functions/collab';
import { ServiceKeys } from '../../shared/identity/keys';
import { withLease } from '../../shared/identity/records';
import { LocalVault } from '../../shared/identity/vault';
import type { Store } from '../../shared/store';
import { DynamoStore } from '../../shared/store/dynamodb';
import { MemoryStore } from '../../shared/store/memory';
import { startDynamoDbLocal, type DynamoDbLocal } from '../helpers/dynamodb-local';

let local: DynamoDbLocal | undefined;
afterAll(async () => {
  await local?.stop();
});

/** Every item of the table, as stored. */
const rawItems = async (d: DynamoDbLocal) => JSON.stringify((await d.client.send(new ScanCommand({ TableName: d.table }))).Items ?? []);

const stores: { name: string; setup: () => Promise<Store>; raw: (s: Store) => Promise<string> }[] = [
  { name: 'memory', setup: async () => new MemoryStore(), raw: async (s) => JSON.stringify([...(s as any).entries.entries()]) },
  {
    name: 'DynamoDB Local',
    setup: async () => {
      local = await startDynamoDbLocal({ table: 'identity-test' });
      return new DynamoStore(local.client, local.table);
    },
    raw: () => rawItems(local!),
  },
];

describe.each(stores)('service keys and connections on the $name store', ({ setup, raw }) => {
  let store: Store;
  const vault = new LocalVault(randomBytes(32));
  beforeAll(async () => {
    store = await setup();
  }, 120_000);

  it('keeps keys as hashes: create, authenticate, list per tenant, rotate, revoke', async () => {
    let now = Date.now();
    const keys = new ServiceKeys(store, () => now);
    const a = await keys.create({ tenant: 'ta', name: 'agent', policy: { platforms: ['crm'] } });
    const b = await keys.create({ tenant: 'tb', policy: { platforms: ['dbapp'], read_only: true } });
    expect(await keys.authenticate(a.key)).toMatchObject({ id: a.record.id, tenant: 'ta' });
    expect((await keys.list('ta')).map((k) => k.id)).toEqual([a.record.id]);
    expect((await keys.list()).map((k) => k.id).sort()).toEqual([a.record.id, b.record.id].sort());
    const rotated = await keys.rotate(a.record.id);
    await expect(keys.authenticate(a.key)).rejects.toThrow(/revoked/);
    expect(await keys.authenticate(rotated.key)).toMatchObject({ tenant: 'ta', rotated_from: a.record.id });
    // Another process: it sees the revocation once its cached entry ages out.
    const other = new ServiceKeys(store, () => now);
    await other.authenticate(b.key);
    await keys.revoke(b.record.id);
    await expect(other.authenticate(b.key)).resolves.toBeDefined();
    now += 30_000;
    await expect(other.authenticate(b.key)).rejects.toThrow(/revoked/);
    const items = await raw(store);
    for (const k of [a.key, b.key, rotated.key]) expect(items).not.toContain(k.slice(4));
  });

  it('seals connection credentials: nothing in clear in the raw store; opens back', async () => {
    const connections = new Connections(store, async () => vault);
    const record = await connections.create('ta', 'crm', 'jane', 'oauth');
    const saved = await connections.saveCredential(record, { kind: 'oauth', access_token: 'access-SECRET-token-1', refresh_token: 'refresh-SECRET-token-1', expires_at: Date.now() + 1_800_000 });
    expect(saved).toMatchObject({ status: 'active', version: 1 });
    const fresh = new Connections(store, async () => vault);
    expect(await fresh.open((await fresh.get('ta', record.id))!)).toMatchObject({ access_token: 'access-SECRET-token-1' });
    expect(await fresh.get('tb', record.id)).toBeUndefined();
    expect((await fresh.list('ta')).map((c) => c.id)).toContain(record.id);
    expect(await fresh.list('tb')).toEqual([]);
    const items = await raw(store);
    expect(items).toContain(record.id);
    expect(items).not.toContain('SECRET');
  });

  it('a lease admits one holder at a time: 20 concurrent read-modify-writes lose none', async () => {
    await store.put('counter', 0, 60);
    let inside = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 20 }, () =>
        withLease(store, 'counter', async () => {
          inside += 1;
          most = Math.max(most, inside);
          const n = (await store.get<number>('counter'))!;
          await store.put('counter', n + 1, 60);
          inside -= 1;
        }),
      ),
    );
    expect(most).toBe(1);
    expect(await store.get('counter')).toBe(20);
  }, 60_000);

  it('concurrent index updates all land (keys created at once by two admins)', async () => {
    const keys = new ServiceKeys(store);
    const made = await Promise.all(Array.from({ length: 8 }, (_, i) => keys.create({ tenant: 'busy', name: `k${i}`, policy: { platforms: ['crm'] } })));
    expect((await keys.list('busy')).map((k) => k.id).sort()).toEqual(made.map((m) => m.record.id).sort());
  });

  it('two processes refreshing one connection at once spend its refresh token once', async () => {
    let grants = 0;
    const spent = new Set<string>();
    // A vendor whose refresh tokens work once (Podio's rule): a second use is refused.
    const vendor = (async (_url: string, init: RequestInit) => {
      const form = new URLSearchParams(String(init.body));
      const token = form.get('refresh_token')!;
      grants += 1;
      if (spent.has(token)) return Response.json({ error: 'invalid_grant' }, { status: 400 });
      spent.add(token);
      return Response.json({ access_token: `access-${grants}`, refresh_token: `refresh-${grants}`, expires_in: 28_800 });
    }) as unknown as typeof fetch;
    const config = loadIdentityConfig({ COLLAB_OAUTH_CLIENT_ID: 'id', COLLAB_OAUTH_CLIENT_SECRET: 'secret', PUBLIC_BASE_URL: 'https://tes.example' });
    const process = () => new Identity({ store, platforms: new Map([[collab.name, collab]]), vault: async () => vault, config, fetchFor: () => vendor, timeoutMs: 10_000 });
    const [one, two] = [process(), process()];
    const record = await one.connections.create('ta', 'collab', 'jane', 'oauth');
    const saved = await one.connections.saveCredential(record, { kind: 'oauth', access_token: 'old', refresh_token: 'refresh-0', expires_at: Date.now() - 1 });
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? one : two).credential(saved)));
    expect(grants).toBe(1);
    expect(new Set(results.map((r) => (r.credential.kind === 'oauth' ? r.credential.access_token : '')))).toEqual(new Set(['access-1']));
    expect((await two.connections.get('ta', record.id))!.status).toBe('active');
  }, 60_000);
});

describe('the call path caches a connection record', () => {
  it('for at most CONNECTION_CACHE_SECONDS: a deletion elsewhere stops its calls within that bound', async () => {
    const { CONNECTION_CACHE_SECONDS } = await import('../../shared/identity/connections');
    const store = new MemoryStore();
    let now = Date.now();
    const vault = new LocalVault(randomBytes(32));
    const here = new Connections(store, async () => vault, () => now);
    const elsewhere = new Connections(store, async () => vault, () => now);
    const record = await here.create('ta', 'dbapp', 'u', 'api_key');
    expect(await here.cached('ta', record!.id)).toBeDefined();
    await elsewhere.remove((await elsewhere.get('ta', record!.id))!);
    expect(await here.cached('ta', record!.id)).toBeDefined();
    now += CONNECTION_CACHE_SECONDS * 1000;
    expect(CONNECTION_CACHE_SECONDS).toBeLessThanOrEqual(60);
    expect(await here.cached('ta', record!.id)).toBeUndefined();
  });
});
