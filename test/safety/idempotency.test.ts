import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { localPlatforms } from '../../infra/local/platforms';
import { entryKey, fingerprint, IDEMPOTENCY_TTL_SECONDS } from '../../shared/core/idempotency';
import { hashKey } from '../../shared/core/admission';
import { DynamoStore } from '../../shared/store/dynamodb';
import { MemoryStore } from '../../shared/store/memory';
import type { Clock, Store } from '../../shared/core/store';
import { startDynamoDbLocal, type DynamoDbLocal } from '../helpers/dynamodb-local';
import { harness, SANDBOX_KEYS } from '../helpers/harness';
import { isWrite, writeTools, type WriteTool } from './write-tools';

/**
 * Idempotency-Key on the memory store and on DynamoDB Local (the same cases on both): replay
 * without a vendor call, parameter mismatch, the claim under 20 concurrent calls, expiry, what is
 * stored (4xx) and what is not (5xx, validation), and no run without a working store.
 */

let local: Promise<DynamoDbLocal> | undefined;
const dynamoDbLocal = () => (local ??= startDynamoDbLocal({ table: 'idempotency-test' }));
afterAll(async () => {
  if (local) await (await local).stop();
});

class FakeClock {
  t = Date.UTC(2100, 0, 1, 0, 0, 0, 250);
  readonly now: Clock = () => this.t;
}

interface Impl {
  name: 'memory' | 'dynamodb';
  setup(): Promise<void>;
  make(now: Clock): Store;
}
let ddb: DynamoDbLocal | undefined;
const impls: Impl[] = [
  { name: 'memory', setup: async () => {}, make: (now) => new MemoryStore(now) },
  {
    name: 'dynamodb',
    setup: async () => {
      ddb = await dynamoDbLocal();
    },
    make: (now) => new DynamoStore(ddb!.client, ddb!.table, now),
  },
];

const tools = await writeTools();
const tool = (id: string): WriteTool => tools.find((t) => t.id === id)!;
const keyed = (key: string, query = 'format=json') => ({ query, headers: { 'idempotency-key': key } });

/** The harness call with extra headers (the harness sends only the bearer key). */
async function post(h: Awaited<ReturnType<typeof harness>>, id: string, params: unknown, o: { query?: string; headers?: Record<string, string> } = {}) {
  const platform = localPlatforms.find((p) => id.startsWith(`${p.platform.name}/`))!;
  const res = await h.app.request(`/v1/tools/${id}${o.query ? `?${o.query}` : ''}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${platform.keys.owner}`, ...o.headers },
    body: JSON.stringify(params),
  });
  return { status: res.status, headers: res.headers, body: JSON.parse(await res.text()) };
}

describe.each(impls)('Idempotency-Key ($name store)', (impl) => {
  let clock: FakeClock;
  let store: Store;
  let key: string;
  beforeAll(() => impl.setup(), 120_000);
  beforeEach(() => {
    clock = new FakeClock();
    store = impl.make(clock.now);
    key = `test-${randomUUID()}`;
  });

  it('a repeat answers the stored outcome with Idempotent-Replayed and no vendor call (text and JSON)', async () => {
    const h = await harness({ store });
    const sent = h.recordRequests('dbapp');
    const input = tool('dbapp/createRecord').tool.example.input;
    const first = await post(h, 'dbapp/createRecord', input, keyed(key));
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const writes = sent.filter(isWrite).length;
    expect(writes).toBe(1);
    const total = sent.length;

    const again = await post(h, 'dbapp/createRecord', input, keyed(key));
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toStrictEqual(first.body);
    // Asked as text this time: the stored result rendered, still without a vendor call.
    const text = await post(h, 'dbapp/createRecord', input, keyed(key, ''));
    expect(text.headers.get('idempotent-replayed')).toBe('true');
    expect(text.body.data).toBeTypeOf('string');
    expect(text.body.data).toContain(String(first.body.data.record_id));
    expect(sent.length).toBe(total);
    // The twin holds the one record the call made.
    expect((await h.call('dbapp/getRecord', { record_id: first.body.data.record_id }, { query: 'format=json' })).status).toBe(200);
  });

  it('the same key with other parameters → INVALID_PARAMETER naming Idempotency-Key, nothing sent', async () => {
    const h = await harness({ store });
    const sent = h.recordRequests('dbapp');
    expect((await post(h, 'dbapp/deleteRecord', { record_id: 5300 }, keyed(key))).status).toBe(200);
    const before = sent.length;
    const other = await post(h, 'dbapp/deleteRecord', { record_id: 5301 }, keyed(key));
    expect(other.status).toBe(400);
    expect(other.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'Idempotency-Key' } });
    expect(sent.length).toBe(before);
    // Key order does not matter: the same parameters in another order replay.
    const h2 = await harness({ store });
    const input = tool('dbapp/createRecord').tool.example.input as Record<string, unknown>;
    const k2 = `${key}-order`;
    expect((await post(h2, 'dbapp/createRecord', input, keyed(k2))).status).toBe(200);
    const reversed = Object.fromEntries(Object.entries(input).reverse());
    const replay = await post(h2, 'dbapp/createRecord', reversed, keyed(k2));
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
  });

  it('the key is scoped by caller, platform and tool: another key hash or tool runs anew', async () => {
    const h = await harness({ store });
    const sent = h.recordRequests('dbapp');
    expect((await post(h, 'dbapp/createRecordComment', tool('dbapp/createRecordComment').tool.example.input, keyed(key))).status).toBe(200);
    const res = await post(h, 'dbapp/deleteRecord', { record_id: 5300 }, keyed(key));
    expect(res.status).toBe(200);
    expect(res.headers.get('idempotent-replayed')).toBeNull();
    expect(sent.filter(isWrite)).toHaveLength(2);
    // The Store key holds hashes and names only, never the caller's key or the Idempotency-Key.
    const k = entryKey({ keyHash: hashKey(SANDBOX_KEYS.owner), platform: 'dbapp', tool: 'deleteRecord', key });
    expect(k).not.toContain(key);
    expect(k).not.toContain(SANDBOX_KEYS.owner);
    expect(await store.get(k)).toMatchObject({ state: 'done' });
  });

  it('after 24 h the key is free: the same call runs again', async () => {
    const h = await harness({ store });
    const sent = h.recordRequests('dbapp');
    expect((await post(h, 'dbapp/deleteRecord', { record_id: 5300 }, keyed(key))).status).toBe(200);
    clock.t += IDEMPOTENCY_TTL_SECONDS * 1000 - 1;
    expect((await post(h, 'dbapp/deleteRecord', { record_id: 5300 }, keyed(key))).headers.get('idempotent-replayed')).toBe('true');
    expect(sent.filter(isWrite)).toHaveLength(1);
    clock.t += 1;
    const later = await post(h, 'dbapp/deleteRecord', { record_id: 5300 }, keyed(key));
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect(sent.filter(isWrite)).toHaveLength(2);
  });

  it('a repeat while the first runs → RATE_LIMITED (retry_after 2); the claim of a crashed run lapses', async () => {
    const h = await harness({ store });
    const sent = h.recordRequests('dbapp');
    // A run that claimed the key and died (its Lambda timed out) before storing an outcome.
    const k = entryKey({ keyHash: hashKey(SANDBOX_KEYS.owner), platform: 'dbapp', tool: 'deleteRecord', key });
    expect(await store.putIfAbsent!(k, { state: 'running', fingerprint: fingerprint(tool('dbapp/deleteRecord').tool.input.parse({ record_id: 5300 })) }, 900)).toBe(true);
    const busy = await post(h, 'dbapp/deleteRecord', { record_id: 5300 }, keyed(key));
    expect(busy.status).toBe(429);
    expect(busy.body.error).toMatchObject({ code: 'RATE_LIMITED', details: { retry_after: 2, reason: 'idempotency_key_in_progress' } });
    expect(sent).toStrictEqual([]);
    clock.t += 900_000;
    const ran = await post(h, 'dbapp/deleteRecord', { record_id: 5300 }, keyed(key));
    expect(ran.status).toBe(200);
    expect(ran.headers.get('idempotent-replayed')).toBeNull();
    expect(sent.filter(isWrite)).toHaveLength(1);
  });

  it('a batch tool replayed: the same items, no vendor call', async () => {
    const h = await harness({ store });
    const sent = h.recordRequests('dbapp');
    const input = tool('dbapp/batchCreateRecords').tool.example.input;
    const first = await post(h, 'dbapp/batchCreateRecords', input, keyed(key));
    expect(first.status).toBe(200);
    expect(first.body.data.successful).toBeGreaterThan(0);
    const count = sent.length;
    const again = await post(h, 'dbapp/batchCreateRecords', input, keyed(key));
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toStrictEqual(first.body);
    expect(sent.length).toBe(count);
  });

  it('a vendor 4xx is stored and replayed; a 5xx is not (the retry runs)', async () => {
    const h = await harness({ store });
    const sent = h.recordRequests('dbapp');
    h.tape.faults.inject({ method: 'DELETE', path: '/v1/record/5300', times: 1, fault: { status: 403 } });
    const refused = await post(h, 'dbapp/deleteRecord', { record_id: 5300 }, keyed(key));
    expect(refused.status).toBe(403);
    const replay = await post(h, 'dbapp/deleteRecord', { record_id: 5300 }, keyed(key));
    expect(replay.status).toBe(403);
    expect(replay.body).toStrictEqual(refused.body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(sent).toHaveLength(1);

    const k5 = `${key}-5xx`;
    h.tape.faults.inject({ method: 'DELETE', path: '/v1/record/5300', times: 1, fault: { status: 500 } });
    const failed = await post(h, 'dbapp/deleteRecord', { record_id: 5300 }, keyed(k5));
    expect(failed.status).toBe(500);
    const retried = await post(h, 'dbapp/deleteRecord', { record_id: 5300 }, keyed(k5));
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(sent).toHaveLength(3);
  });

  it('failed validation is not stored: the key then serves the corrected call', async () => {
    const h = await harness({ store });
    const sent = h.recordRequests('dbapp');
    const bad = await post(h, 'dbapp/deleteRecord', { record_id: 'five' }, keyed(key));
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.parameter).toBe('record_id');
    const good = await post(h, 'dbapp/deleteRecord', { record_id: 5300 }, keyed(key));
    expect(good.status).toBe(200);
    expect(good.headers.get('idempotent-replayed')).toBeNull();
    expect(sent.filter(isWrite)).toHaveLength(1);
  });

  it('a dry run with a key claims nothing; read tools ignore the key', async () => {
    const h = await harness({ store });
    const sent = h.recordRequests('dbapp');
    expect((await post(h, 'dbapp/deleteRecord', { record_id: 5300 }, keyed(key, 'dry_run=true'))).status).toBe(200);
    expect(sent.filter(isWrite)).toHaveLength(0);
    const real = await post(h, 'dbapp/deleteRecord', { record_id: 5300 }, keyed(key));
    expect(real.headers.get('idempotent-replayed')).toBeNull();
    expect(sent.filter(isWrite)).toHaveLength(1);
    const rk = `${key}-read`;
    await post(h, 'dbapp/listWorkspaces', {}, keyed(rk));
    const n = sent.length;
    const read = await post(h, 'dbapp/listWorkspaces', {}, keyed(rk));
    expect(read.headers.get('idempotent-replayed')).toBeNull();
    expect(sent.length).toBeGreaterThan(n);
  });

  // One write tool of every platform whose example succeeds on a fresh twin: found from the
  // registry, so a platform added later is covered; a platform with write tools but no such
  // example fails here rather than being skipped.
  const platformsWithWrites = [...new Set(tools.map((t) => t.platform))];
  it.each(platformsWithWrites)('%s: 20 concurrent identical calls → exactly one execution at the vendor', async (platform) => {
    let chosen: { w: WriteTool; writes: number } | undefined;
    for (const w of tools.filter((t) => t.platform === platform)) {
      const probe = await harness();
      const sent = probe.recordRequests(platform);
      const r = await probe.call(w.id, w.tool.example.input, { query: 'format=json' });
      const writes = sent.filter(isWrite).length;
      if (r.status === 200 && writes > 0) {
        chosen = { w, writes };
        break;
      }
    }
    expect(chosen, `no write tool of ${platform} succeeds with its example on a fresh twin`).toBeDefined();
    const { w, writes } = chosen!;
    const h = await harness({ store });
    const sent = h.recordRequests(platform);
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(h, w.id, w.tool.example.input, keyed(key))));
    // Exactly what one call writes reached the twin.
    expect(sent.filter(isWrite), w.id).toHaveLength(writes);
    const ran = answers.filter((a) => a.status === 200 && a.headers.get('idempotent-replayed') === null);
    expect(ran, w.id).toHaveLength(1);
    for (const a of answers) {
      if (a === ran[0]) continue;
      if (a.status === 429) {
        expect(a.body.error).toMatchObject({ code: 'RATE_LIMITED', details: { retry_after: 2, reason: 'idempotency_key_in_progress' } });
        expect(a.headers.get('retry-after')).toBe('2');
      } else {
        expect(a.headers.get('idempotent-replayed')).toBe('true');
        expect(a.body).toStrictEqual(ran[0]!.body);
      }
    }
    // Once done, every repeat is a replay.
    const after = await post(h, w.id, w.tool.example.input, keyed(key));
    expect(after.headers.get('idempotent-replayed')).toBe('true');
    expect(sent.filter(isWrite)).toHaveLength(writes);
  }, 60_000);
});

describe('Idempotency-Key without a working store', () => {
  const failing = (inner: Store, how: 'throws' | 'missing'): Store => ({
    get: (k) => inner.get(k),
    put: (k, v, t) => inner.put(k, v, t),
    increment: (k, w, l) => inner.increment(k, w, l),
    ...(how === 'throws' ? { putIfAbsent: () => Promise.reject(Object.assign(new Error('ECONNREFUSED'), { name: 'NetworkingError' })), delete: () => Promise.resolve() } : {}),
  });

  it.each(['throws', 'missing'] as const)('store %s: a keyed write answers INTERNAL_ERROR and never runs; without a key it runs', async (how) => {
    const h = await harness({ store: failing(new MemoryStore(), how) });
    const sent = h.recordRequests('dbapp');
    const r = await post(h, 'dbapp/deleteRecord', { record_id: 5300 }, keyed('k-1'));
    expect(r.status).toBe(500);
    expect(r.body.error).toMatchObject({ code: 'INTERNAL_ERROR', details: { reason: 'idempotency_store_unavailable' } });
    expect(r.body.error.message).toMatch(/never runs unguarded/);
    expect(sent).toStrictEqual([]);
    expect((await post(h, 'dbapp/deleteRecord', { record_id: 5300 })).status).toBe(200);
  });

  it.each([
    ['', 'empty'],
    ['x'.repeat(256), 'too long'],
    ['clé-ü', 'not ASCII'],
  ])('a malformed key (%#: %s) → INVALID_PARAMETER naming Idempotency-Key', async (bad) => {
    const h = await harness();
    const sent = h.recordRequests('dbapp');
    const r = await post(h, 'dbapp/deleteRecord', { record_id: 5300 }, { headers: { 'idempotency-key': bad } });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'Idempotency-Key' } });
    expect(sent).toStrictEqual([]);
  });
});

describe('the parameters fingerprint (args_hash, stored with keys and approvals)', () => {
  const sha = (text: string) => createHash('sha256').update(text).digest('hex');

  it('is the SHA-256 of the JSON with keys sorted at every level: the same text for any order, so stored fingerprints keep matching', () => {
    // Integer-like keys first, ascending (as a JS object lists them); an own "__proto__" key kept as a key; a Date as its JSON; undefined left out.
    const input = JSON.parse('{"b":1,"10":"ten","9":"nine","__proto__":{"z":[{"y":2,"x":1}]},"a":{"d":[3,{"f":null,"e":"é"}],"c":true}}') as Record<string, unknown>;
    Object.assign(input, { when: new Date(Date.UTC(2025, 0, 2)), gone: undefined });
    const text = '{"9":"nine","10":"ten","__proto__":{"z":[{"x":1,"y":2}]},"a":{"c":true,"d":[3,{"e":"é","f":null}]},"b":1,"when":"2025-01-02T00:00:00.000Z"}';
    expect(fingerprint(input)).toBe(sha(text));
    const reordered = JSON.parse('{"a":{"c":true,"d":[3,{"e":"é","f":null}]},"__proto__":{"z":[{"x":1,"y":2}]},"9":"nine","b":1,"10":"ten"}') as Record<string, unknown>;
    expect(fingerprint({ ...reordered, when: new Date(Date.UTC(2025, 0, 2)) })).toBe(sha(text));
    expect(fingerprint({ ...reordered, b: 2 })).not.toBe(fingerprint(reordered));
  });
});
