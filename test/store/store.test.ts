import { randomUUID } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { GetItemCommand, ScanCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashKey } from '../../shared/core/admission';
import { createStore } from '../../shared/store';
import { DynamoStore, shardsFor, shareOf } from '../../shared/store/dynamodb';
import { MemoryStore } from '../../shared/store/memory';
import { scopedCache, type Clock, type CounterResult, type Store } from '../../shared/core/store';
import { LOCAL_CREDENTIALS, LOCAL_REGION, startDynamoDbLocal, type DynamoDbLocal } from '../helpers/dynamodb-local';

/**
 * One suite, two implementations: every case runs over the MemoryStore (the model) and the
 * DynamoStore against DynamoDB Local. Time comes from a fake clock, so nothing sleeps.
 */

/** 2100-01-01T00:00:00Z, a whole minute and hour; far enough ahead that no real TTL sweep touches test items. */
const EPOCH_2100_MS = 4_102_444_800_000;
/** The fake clock starts a quarter second into a second, as real clocks do. */
const T0 = EPOCH_2100_MS + 250;

class FakeClock {
  constructor(public t: number = T0) {}
  readonly now: Clock = () => this.t;
  advance(ms: number): void {
    this.t += ms;
  }
  set(ms: number): void {
    this.t = ms;
  }
}

// DynamoDB Local is started once per file, only when a DynamoDB case first needs it.
let local: Promise<DynamoDbLocal> | undefined;
const dynamoDbLocal = () => (local ??= startDynamoDbLocal({ table: 'store-test' }));
afterAll(async () => {
  if (local) await (await local).stop();
});

interface Impl {
  name: 'memory' | 'dynamodb';
  setup(): Promise<void>;
  make(now: Clock): Store;
}

const memoryImpl: Impl = {
  name: 'memory',
  setup: async () => {},
  make: (now) => new MemoryStore(now),
};

let ddb: DynamoDbLocal | undefined;
const dynamoImpl: Impl = {
  name: 'dynamodb',
  setup: async () => {
    ddb = await dynamoDbLocal();
  },
  make: (now) => {
    if (!ddb) throw new Error('DynamoDB Local not started');
    return new DynamoStore(ddb.client, ddb.table, now);
  },
};

/** Keys unique to one test, since the DynamoDB cases share one table. */
const uid = () => randomUUID().slice(0, 8);

/** Records every key a store is asked for, then delegates. */
function recording(inner: Store): Store & { keys: string[] } {
  const keys: string[] = [];
  return {
    keys,
    get: (key) => {
      keys.push(key);
      return inner.get(key);
    },
    put: (key, value, ttl) => {
      keys.push(key);
      return inner.put(key, value, ttl);
    },
    increment: (key, window, limit) => {
      keys.push(key);
      return inner.increment(key, window, limit);
    },
    putIfAbsent: (key, value, ttl) => {
      keys.push(key);
      return inner.putIfAbsent!(key, value, ttl);
    },
    delete: (key) => {
      keys.push(key);
      return inner.delete!(key);
    },
  };
}

describe.each([memoryImpl, dynamoImpl])('Store ($name)', (impl) => {
  let clock: FakeClock;
  let store: Store;
  let p: string;

  beforeAll(() => impl.setup(), 120_000);
  beforeEach(() => {
    clock = new FakeClock();
    store = impl.make(clock.now);
    p = `t${uid()}`;
  });

  describe('get / put', () => {
    it('get of a missing key is undefined', async () => {
      expect(await store.get(`${p}#missing`)).toBeUndefined();
      await store.put(`${p}#present`, 1, 60);
      expect(await store.get(`${p}#missing`)).toBeUndefined();
      expect(await store.get(`${p}#presen`)).toBeUndefined();
    });

    const values: Array<[string, unknown]> = [
      ['object', { id: 7, name: 'Acme', active: true, owner: null }],
      ['array', [1, 'two', { three: 3 }, [4, [5]], null, false]],
      ['string', 'hello world'],
      ['empty string', ''],
      ['integer', 42],
      ['zero', 0],
      ['negative float', -12.375],
      ['large number', 9_007_199_254_740_991],
      ['boolean', false],
      ['null', null],
      ['empty object', {}],
      ['empty array', []],
      [
        'nested',
        {
          workspace: { id: 'ws_1', tables: [{ id: 't1', fields: [{ name: 'Due', type: 'date', options: { tz: 'UTC' } }] }] },
          cursor: { next: 'abc==', total: 1240 },
        },
      ],
      ['unicode', { text: 'Grüße, 世界! 🚀 café ﬁ नमस्ते \u0000 "quoted" \\ back\nline', emoji: ['👍🏽', '🇯🇵', '👨‍👩‍👧'] }],
    ];

    it.each(values)('put then get returns a deep-equal copy: %s', async (_label, value) => {
      const key = `${p}#v`;
      await store.put(key, value, 60);
      const got = await store.get(key);
      expect(got).toStrictEqual(value);
      // A second read is equal too (nothing consumed or mutated by reading).
      expect(await store.get(key)).toStrictEqual(value);
    });

    it('returns copies: mutating what was put or what was read changes nothing stored', async () => {
      const key = `${p}#copy`;
      const value = { list: [1, 2, 3], inner: { a: 'x' } };
      await store.put(key, value, 60);
      value.list.push(4);
      value.inner.a = 'changed';
      const first = await store.get<{ list: number[]; inner: { a: string } }>(key);
      expect(first).toStrictEqual({ list: [1, 2, 3], inner: { a: 'x' } });
      first!.list.push(99);
      first!.inner.a = 'mutated';
      const second = await store.get(key);
      expect(second).toStrictEqual({ list: [1, 2, 3], inner: { a: 'x' } });
      expect(second).not.toBe(first);
    });

    it('keys are exact, including unicode and separators', async () => {
      await store.put(`${p}#a#b`, 'ab', 60);
      await store.put(`${p}#a`, 'a', 60);
      await store.put(`${p}#ключ 🔑`, 'unicode key', 60);
      expect(await store.get(`${p}#a#b`)).toBe('ab');
      expect(await store.get(`${p}#a`)).toBe('a');
      expect(await store.get(`${p}#ключ 🔑`)).toBe('unicode key');
      expect(await store.get(`${p}#ключ`)).toBeUndefined();
    });

    it('put overwrites the value', async () => {
      const key = `${p}#over`;
      await store.put(key, { v: 1 }, 60);
      await store.put(key, { v: 2, extra: ['x'] }, 60);
      expect(await store.get(key)).toStrictEqual({ v: 2, extra: ['x'] });
      await store.put(key, 'now a string', 60);
      expect(await store.get(key)).toBe('now a string');
    });

    it('put overwrites the expiry too (longer and shorter)', async () => {
      const longer = `${p}#longer`;
      const shorter = `${p}#shorter`;
      await store.put(longer, 'old', 10);
      await store.put(longer, 'new', 100);
      await store.put(shorter, 'old', 100);
      await store.put(shorter, 'new', 10);
      clock.advance(50_000);
      expect(await store.get(longer)).toBe('new');
      expect(await store.get(shorter)).toBeUndefined();
    });
  });

  describe('TTL', () => {
    it('a value is visible before expiry and undefined at and after it', async () => {
      const key = `${p}#ttl`;
      await store.put(key, { cached: true }, 60);
      expect(await store.get(key)).toStrictEqual({ cached: true });
      clock.advance(30_000);
      expect(await store.get(key)).toStrictEqual({ cached: true });
      clock.set(T0 + 60_000 - 1);
      expect(await store.get(key)).toStrictEqual({ cached: true });
      clock.set(T0 + 60_000);
      expect(await store.get(key)).toBeUndefined();
      clock.set(T0 + 60_001);
      expect(await store.get(key)).toBeUndefined();
      clock.advance(3_600_000);
      expect(await store.get(key)).toBeUndefined();
    });

    it('expiry is per key', async () => {
      await store.put(`${p}#short`, 's', 5);
      await store.put(`${p}#long`, 'l', 3600);
      clock.advance(5_000);
      expect(await store.get(`${p}#short`)).toBeUndefined();
      expect(await store.get(`${p}#long`)).toBe('l');
      clock.advance(3_595_000);
      expect(await store.get(`${p}#long`)).toBeUndefined();
    });

    it('an expired key can be written again', async () => {
      const key = `${p}#again`;
      await store.put(key, 1, 1);
      clock.advance(1_000);
      expect(await store.get(key)).toBeUndefined();
      await store.put(key, 2, 1);
      expect(await store.get(key)).toBe(2);
    });

    it('expiry is exact on a whole-second clock too', async () => {
      clock.set(EPOCH_2100_MS);
      const key = `${p}#whole`;
      await store.put(key, 'w', 60);
      clock.set(EPOCH_2100_MS + 59_999);
      expect(await store.get(key)).toBe('w');
      clock.set(EPOCH_2100_MS + 60_000);
      expect(await store.get(key)).toBeUndefined();
    });
  });

  describe('increment (sliding window)', () => {
    const expectAllowed = (r: CounterResult, count: number, limit: number, windowSeconds: number) => {
      expect(r).toMatchObject({ allowed: true, count, limit, remaining: limit - count });
      expect(r.resetSeconds).toBeGreaterThanOrEqual(1);
      expect(r.resetSeconds).toBeLessThanOrEqual(windowSeconds);
    };
    const admit = async (key: string, n: number, window: number, limit: number) =>
      (await Promise.all(Array.from({ length: n }, () => store.increment(key, window, limit)))).filter((r) => r.allowed).length;

    it('allows 1..limit with remaining decreasing, then refuses with remaining 0', async () => {
      const key = `${p}#rl`;
      const limit = 5;
      const window = 60;
      for (let i = 1; i <= limit; i++) expectAllowed(await store.increment(key, window, limit), i, limit, window);
      for (let i = 0; i < 3; i++) {
        const denied = await store.increment(key, window, limit);
        expect(denied).toMatchObject({ allowed: false, remaining: 0, limit, count: limit });
        expect(denied.resetSeconds).toBe(window);
      }
    });

    it('a burst at the end of one window and the start of the next admits no more than the limit in total', async () => {
      const key = `${p}#boundary`;
      // Half a second before and after a whole minute: a fixed window would admit 2 × limit here.
      clock.set(EPOCH_2100_MS + 59_500);
      expect(await admit(key, 5, 60, 5)).toBe(5);
      clock.set(EPOCH_2100_MS + 60_500);
      expect(await admit(key, 5, 60, 5)).toBe(0);
      clock.set(EPOCH_2100_MS + 119_499);
      expect(await admit(key, 5, 60, 5)).toBe(0);
      // One window after the burst its calls have left it: the whole limit again, and no more.
      clock.set(EPOCH_2100_MS + 119_500);
      expect(await admit(key, 6, 60, 5)).toBe(5);
    });

    it('a refusal tells the true wait: retrying after it is admitted, a second earlier is not', async () => {
      const key = `${p}#wait`;
      const at = (s: number) => clock.set(T0 + s * 1000);
      for (const s of [0, 10, 20]) {
        at(s);
        expect((await store.increment(key, 60, 3)).allowed).toBe(true);
      }
      at(30);
      expect(await store.increment(key, 60, 3)).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 30 });
      at(59);
      expect(await store.increment(key, 60, 3)).toMatchObject({ allowed: false, resetSeconds: 1 });
      at(60); // the call of second 0 has left the window: one place, and only one
      expect((await store.increment(key, 60, 3)).allowed).toBe(true);
      const next = await store.increment(key, 60, 3);
      expect(next).toMatchObject({ allowed: false, resetSeconds: 10 });
      clock.advance(next.resetSeconds * 1000 - 1000);
      expect((await store.increment(key, 60, 3)).allowed).toBe(false);
      clock.advance(1000);
      expect((await store.increment(key, 60, 3)).allowed).toBe(true);
      // A fractional wait rounds up: half a second before the call of second 20 leaves the window.
      clock.set(T0 + 79_000 + 500);
      expect(await store.increment(key, 60, 3)).toMatchObject({ allowed: false, resetSeconds: 1 });
    });

    it('matches an exact sliding log over a seeded random sequence of calls', async () => {
      const key = `${p}#model`;
      const limit = 4;
      const window = 10;
      const log: number[] = [];
      let seed = 42;
      const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
      for (let i = 0; i < 120; i++) {
        clock.advance(Math.floor(random() * 5000));
        const now = clock.t;
        const live = log.filter((t) => t > now - window * 1000);
        const allowed = live.length < limit;
        if (allowed) log.push(now);
        const r = await store.increment(key, window, limit);
        expect(r.allowed, `call ${i}`).toBe(allowed);
        if (!allowed) expect(r.resetSeconds, `call ${i}`).toBe(Math.ceil((live[live.length - limit]! + window * 1000 - now) / 1000));
      }
      // The sequence exercised both answers.
      expect(log.length).toBeGreaterThan(40);
      expect(log.length).toBeLessThan(110);
    });

    it('distinct keys count separately', async () => {
      const a = `${p}#a`;
      const b = `${p}#b`;
      expectAllowed(await store.increment(a, 60, 2), 1, 2, 60);
      expectAllowed(await store.increment(a, 60, 2), 2, 2, 60);
      expect((await store.increment(a, 60, 2)).allowed).toBe(false);
      expectAllowed(await store.increment(b, 60, 2), 1, 2, 60);
      expect((await store.increment(a, 60, 2)).allowed).toBe(false);
      expectAllowed(await store.increment(b, 60, 2), 2, 2, 60);
    });

    it('counters and cache entries do not collide', async () => {
      const key = `${p}#both`;
      await store.put(key, 'cached', 60);
      expectAllowed(await store.increment(key, 60, 5), 1, 5, 60);
      expect(await store.get(key)).toBe('cached');
      expectAllowed(await store.increment(key, 60, 5), 2, 5, 60);
    });

    it('is atomic: of 200 concurrent calls against a limit of 100 exactly 100 are admitted, again one window later', async () => {
      const key = `${p}#atomic`;
      const results = await Promise.all(Array.from({ length: 200 }, () => store.increment(key, 60, 100)));
      expect(results.filter((r) => r.allowed)).toHaveLength(100);
      for (const r of results.filter((r) => !r.allowed)) expect(r).toMatchObject({ remaining: 0, resetSeconds: 60 });
      expect((await store.increment(key, 60, 100)).allowed).toBe(false);
      // 100 refusals gave their places back: a window later the whole limit is there again.
      clock.advance(60_000);
      expect(await admit(key, 200, 60, 100)).toBe(100);
    }, 60_000);

    it('a flood of refused calls does not push the next admission back', async () => {
      const key = `${p}#flood`;
      expect(await admit(key, 3, 60, 3)).toBe(3);
      for (let s = 1; s < 60; s += 7) {
        clock.set(T0 + s * 1000);
        expect(await admit(key, 4, 60, 3)).toBe(0);
      }
      clock.set(T0 + 60_000);
      expect(await admit(key, 3, 60, 3)).toBe(3);
    });
  });

  describe('add / count (sequences)', () => {
    it('count reads what add keeps, 0 for an absent key, and writes nothing: concurrent adds answer distinct sums', async () => {
      const key = `${p}#seq`;
      expect(await store.count!(key)).toBe(0);
      const sums = await Promise.all(Array.from({ length: 10 }, () => store.add!(key, 3, 60)));
      expect([...sums].sort((a, b) => a - b)).toEqual(Array.from({ length: 10 }, (_, i) => 3 * (i + 1)));
      expect(await store.count!(key)).toBe(30);
      expect(await store.add!(key, 0, 60)).toBe(30);
      // A listing reads the sequence; reading it does not keep it longer than its last add.
      clock.advance(59_000);
      expect(await store.count!(key)).toBe(30);
      expect(await store.count!(`${p}#other`)).toBe(0);
    });
  });

  describe('putIfAbsent / delete (idempotency claims)', () => {
    it('writes an absent key once; a second write is refused and changes nothing', async () => {
      const key = `${p}#claim`;
      expect(await store.putIfAbsent!(key, { state: 'running' }, 60)).toBe(true);
      expect(await store.putIfAbsent!(key, { state: 'other' }, 600)).toBe(false);
      expect(await store.get(key)).toStrictEqual({ state: 'running' });
      // The refused write did not extend the expiry either.
      clock.advance(60_000);
      expect(await store.get(key)).toBeUndefined();
    });

    it('an expired key is absent again (the claim of a crashed run lapses)', async () => {
      const key = `${p}#lapse`;
      expect(await store.putIfAbsent!(key, 1, 10)).toBe(true);
      clock.advance(9_999);
      expect(await store.putIfAbsent!(key, 2, 10)).toBe(false);
      clock.advance(1);
      expect(await store.putIfAbsent!(key, 3, 10)).toBe(true);
      expect(await store.get(key)).toBe(3);
    });

    it('a key written by put is present; put then overwrites a claim', async () => {
      const key = `${p}#mixed`;
      await store.put(key, 'cached', 60);
      expect(await store.putIfAbsent!(key, 'claim', 60)).toBe(false);
      const claim = `${p}#claim2`;
      expect(await store.putIfAbsent!(claim, { state: 'running' }, 60)).toBe(true);
      await store.put(claim, { state: 'done' }, 86_400);
      expect(await store.get(claim)).toStrictEqual({ state: 'done' });
      expect(await store.putIfAbsent!(claim, 'again', 60)).toBe(false);
    });

    it('delete removes a key (absent again); deleting a missing key is no error', async () => {
      const key = `${p}#del`;
      expect(await store.putIfAbsent!(key, 'a', 60)).toBe(true);
      await store.delete!(key);
      expect(await store.get(key)).toBeUndefined();
      expect(await store.putIfAbsent!(key, 'b', 60)).toBe(true);
      await store.delete!(`${p}#never-written`);
    });

    it('is atomic: of 20 concurrent claims of one key exactly one wins', async () => {
      const key = `${p}#race`;
      const won = await Promise.all(Array.from({ length: 20 }, (_, i) => store.putIfAbsent!(key, { by: i }, 60)));
      expect(won.filter(Boolean)).toHaveLength(1);
      const winner = won.indexOf(true);
      expect(await store.get(key)).toStrictEqual({ by: winner });
    });
  });

  describe('scoped cache', () => {
    it('one key hash never reads another’s entries, and only hashes reach the store', async () => {
      const rawA = `sk_live_A_${uid()}_secret`;
      const rawB = `sk_live_B_${uid()}_secret`;
      const hashA = hashKey(rawA);
      const hashB = hashKey(rawB);
      expect(hashA).not.toBe(hashB);
      const spy = recording(store);

      const catalog = { tools: ['listWorkspaces', 'getRecord'], version: 3 };
      await scopedCache(spy, hashA).put('catalog', catalog, 300);
      expect(await scopedCache(spy, hashB).get('catalog')).toBeUndefined();
      expect(await scopedCache(spy, hashA).get('catalog')).toStrictEqual(catalog);

      await scopedCache(spy, hashB).put('catalog', { tools: [], version: 1 }, 300);
      expect(await scopedCache(spy, hashA).get('catalog')).toStrictEqual(catalog);
      expect(await scopedCache(spy, hashB).get('catalog')).toStrictEqual({ tools: [], version: 1 });

      expect(spy.keys).toHaveLength(6);
      for (const key of spy.keys) {
        expect(key.startsWith(`cache#${hashA}#`) || key.startsWith(`cache#${hashB}#`), key).toBe(true);
        expect(key).not.toContain(rawA);
        expect(key).not.toContain(rawB);
        expect(key).not.toContain('sk_live');
      }
      expect(spy.keys[0]).toBe(`cache#${hashA}#catalog`);
      // The entry lives under exactly that key in the underlying store.
      expect(await store.get(`cache#${hashA}#catalog`)).toStrictEqual(catalog);
    });

    it('scoped entries expire like any other', async () => {
      const cache = scopedCache(store, hashKey(`k_${uid()}`));
      await cache.put('catalog', [1], 30);
      clock.advance(29_999);
      expect(await cache.get('catalog')).toStrictEqual([1]);
      clock.advance(1);
      expect(await cache.get('catalog')).toBeUndefined();
    });
  });
});

describe('DynamoStore sharded counter (a limit above what one ticket item takes)', () => {
  let clock: FakeClock;
  let p: string;
  beforeAll(() => dynamoImpl.setup(), 120_000);
  beforeEach(() => {
    clock = new FakeClock();
    p = `t${uid()}`;
  });
  /** A store that shards above `perSecond` calls a second (a deployment's is 400: tests use a low one to shard small limits). */
  const sharded = (perSecond: number) => new DynamoStore(ddb!.client, ddb!.table, clock.now, perSecond);
  const admit = async (store: Store, key: string, n: number, window: number, limit: number) =>
    (await Promise.all(Array.from({ length: n }, () => store.increment(key, window, limit)))).filter((r) => r.allowed).length;

  it('splits a limit into shares that add up to it, one shard until the rate is above the threshold', () => {
    expect(shardsFor(3000, 60, 400)).toBe(1);
    expect(shardsFor(100_000, 60, 400)).toBe(5);
    expect(shardsFor(100, 60, 0.5)).toBe(4);
    expect(shardsFor(3, 1, 0.1)).toBe(3);
    for (const [limit, shards] of [[100, 4], [101, 4], [7, 3]] as const) {
      const shares = Array.from({ length: shards }, (_, i) => shareOf(limit, i, shards));
      expect(shares.reduce((a, b) => a + b, 0)).toBe(limit);
      expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(1);
    }
  });

  it('never admits more than the limit: of 120 concurrent calls against 60 at most 60, nearly all of them; none more in that window', async () => {
    const store = sharded(0.25); // 60 per minute: four shards of 15
    const key = `${p}#sharded`;
    const first = await admit(store, key, 120, 60, 60);
    expect(first).toBeLessThanOrEqual(60);
    expect(first).toBeGreaterThanOrEqual(54);
    clock.advance(30_000);
    expect(await admit(store, key, 30, 60, 60)).toBe(0);
    clock.advance(30_000);
    const again = await admit(store, key, 120, 60, 60);
    expect(again).toBeLessThanOrEqual(60);
    expect(again).toBeGreaterThanOrEqual(54);
  }, 60_000);

  it('a burst at the end of one window and the start of the next admits no more than the limit in total', async () => {
    const store = sharded(0.5);
    const key = `${p}#sharded-edge`;
    clock.set(EPOCH_2100_MS + 59_500);
    const before = await admit(store, key, 100, 60, 100);
    expect(before).toBeGreaterThanOrEqual(80);
    clock.set(EPOCH_2100_MS + 60_500);
    expect(before + (await admit(store, key, 100, 60, 100))).toBeLessThanOrEqual(100);
    clock.set(EPOCH_2100_MS + 119_500);
    expect(await admit(store, key, 150, 60, 100)).toBeLessThanOrEqual(100);
  }, 60_000);

  it('no window admits more than the limit over a seeded random sequence of calls, and a refusal names a wait', async () => {
    const store = sharded(0.2); // 8 per 10 s: four shards of 2
    const key = `${p}#sharded-seq`;
    const limit = 8;
    const windowMs = 10_000;
    const admittedAt: number[] = [];
    let seed = 7;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    for (let i = 0; i < 150; i++) {
      clock.advance(Math.floor(random() * 800));
      const r = await store.increment(key, 10, limit);
      if (r.allowed) admittedAt.push(clock.t);
      else expect(r.resetSeconds).toBeGreaterThanOrEqual(1);
    }
    for (const t of admittedAt) expect(admittedAt.filter((u) => u > t - windowMs && u <= t).length).toBeLessThanOrEqual(limit);
    // Both answers came: calls arrive faster than the limit.
    expect(admittedAt.length).toBeGreaterThan(40);
    expect(admittedAt.length).toBeLessThan(150);
  }, 60_000);
});

describe('DynamoStore items (what DynamoDB TTL needs)', () => {
  let d: DynamoDbLocal;
  let clock: FakeClock;
  let store: DynamoStore;
  beforeAll(async () => {
    d = await dynamoDbLocal();
  }, 120_000);
  beforeEach(() => {
    clock = new FakeClock();
    store = new DynamoStore(d.client, d.table, clock.now);
  });

  const expectEpochSeconds = (attr: AttributeValue | undefined): number => {
    expect(attr?.N, 'expires_at must be a Number attribute').toBeTypeOf('string');
    expect(attr?.S).toBeUndefined();
    const n = Number(attr?.N);
    expect(Number.isInteger(n), `expires_at ${attr?.N} must be whole seconds`).toBe(true);
    return n;
  };

  it('put writes expires_at as a Number in epoch seconds', async () => {
    const key = `items#${uid()}#put`;
    await store.put(key, { a: 1 }, 120);
    const out = await d.client.send(new GetItemCommand({ TableName: d.table, Key: { pk: { S: key } }, ConsistentRead: true }));
    expect(out.Item?.pk?.S).toBe(key);
    const expires = expectEpochSeconds(out.Item?.expires_at);
    // Seconds, not milliseconds: within a second of now + ttl, and never before it (DynamoDB
    // must not delete an entry that is still fresh).
    expect(Math.abs(expires - (T0 / 1000 + 120))).toBeLessThanOrEqual(1);
    expect(expires * 1000).toBeGreaterThanOrEqual(T0 + 120_000);
  });

  it('counter items have expires_at in epoch seconds: kept while they matter, gone soon after', async () => {
    const key = `items#${uid()}#rl`;
    const window = 60;
    await store.increment(key, window, 10);
    clock.advance(5_000);
    await store.increment(key, window, 10);
    const out = await d.client.send(
      new ScanCommand({
        TableName: d.table,
        ConsistentRead: true,
        FilterExpression: 'begins_with(pk, :p)',
        ExpressionAttributeValues: { ':p': { S: `${key}#` } },
      }),
    );
    // The ticket item and one slot per admitted call.
    expect(out.Items?.map((i) => i.pk?.S).sort()).toEqual([`${key}#0`, `${key}#1`, `${key}#n`]);
    for (const item of out.Items!) {
      const expires = expectEpochSeconds(item.expires_at);
      // A slot matters until its call is a window old; the ticket item as long as a slot does.
      const lastUse = item.ts?.N ? Number(item.ts.N) : clock.t;
      expect(expires * 1000).toBeGreaterThanOrEqual(lastUse + window * 1000);
      expect(expires * 1000).toBeLessThanOrEqual(lastUse + window * 1000 + 3000);
    }
  });
});

describe('createStore', () => {
  const ENV_KEYS = ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_PROFILE'] as const;
  let saved: Record<string, string | undefined>;
  beforeEach(() => {
    saved = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));
    // Dummy credentials for the SDK's default chain; DynamoDB Local accepts any.
    process.env.AWS_ACCESS_KEY_ID = LOCAL_CREDENTIALS.accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY = LOCAL_CREDENTIALS.secretAccessKey;
    delete process.env.AWS_SESSION_TOKEN;
    delete process.env.AWS_PROFILE;
  });
  afterEach(() => {
    for (const k of ENV_KEYS) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  });

  it('memory → a MemoryStore', async () => {
    const s = await createStore({ kind: 'memory' });
    expect(s).toBeInstanceOf(MemoryStore);
    await s.put('k', { ok: true }, 60);
    expect(await s.get('k')).toStrictEqual({ ok: true });
  });

  it('dynamodb → a DynamoStore that talks to the configured endpoint and table', async () => {
    const d = await dynamoDbLocal();
    const s = await createStore({ kind: 'dynamodb', table: d.table, endpoint: d.endpoint, region: LOCAL_REGION });
    expect(s).toBeInstanceOf(DynamoStore);
    const key = `create#${uid()}`;
    await s.put(key, { via: 'createStore', n: [1, 2] }, 60);
    expect(await s.get(key)).toStrictEqual({ via: 'createStore', n: [1, 2] });
    // The item is really in the local table.
    const out = await d.client.send(new GetItemCommand({ TableName: d.table, Key: { pk: { S: key } }, ConsistentRead: true }));
    expect(out.Item?.pk?.S).toBe(key);
    expect(await s.increment(`${key}#rl`, 60, 1)).toMatchObject({ allowed: true, count: 1, remaining: 0 });
    expect((await s.increment(`${key}#rl`, 60, 1)).allowed).toBe(false);
  }, 120_000);

  it('dynamodb without a table throws', async () => {
    await expect(createStore({ kind: 'dynamodb' })).rejects.toThrow(/TABLE_NAME/);
    await expect(createStore({ kind: 'dynamodb', endpoint: 'http://127.0.0.1:1', region: LOCAL_REGION })).rejects.toThrow(
      /TABLE_NAME/,
    );
  });
});

describe('MemoryStore in a long-running local server', () => {
  it('drops expired entries that are never read again, so its size stays bounded', async () => {
    let clock = 1_000_000;
    const store = new MemoryStore(() => clock);
    // Written once, never read: an idempotency claim or a cache entry per key, one second each.
    for (let i = 0; i < 5_000; i++) await store.put(`once#${i}`, { i }, 1);
    await store.put('kept', 'long-lived', 3600);
    clock += 2_000;
    for (let i = 0; i < 5_000; i++) await store.put(`later#${i}`, { i }, 1);
    // The first 5,000 expired and went in a sweep; the later ones are live: at most them, the kept one and one sweep's worth.
    expect(store.size).toBeLessThanOrEqual(5_000 + 1 + 1_024);
    expect(await store.get('kept')).toBe('long-lived');
    expect(await store.get('later#4999')).toEqual({ i: 4999 });
    expect(await store.get('once#0')).toBeUndefined();
  });

  it('stats() tells what it holds and the heap that takes, measured, and changes nothing', async () => {
    // A full collection from inside the test process, as the soak's service has with --expose-gc.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const liveHeap = () => {
      gc();
      return process.memoryUsage().heapUsed;
    };
    const store = new MemoryStore();
    expect(store.stats()).toEqual({ entries: 0, counters: 0 });
    // 2,000 values of 1,000 characters: about 2 MB of strings (one byte per Latin-1 character) and their entries.
    for (let i = 0; i < 2_000; i++) await store.put(`audit#${i}`, { text: `${i}`.padEnd(1_000, 'x') }, 3600);
    await store.increment('rl#key', 60, 10);
    const stats = store.stats(liveHeap);
    expect(stats).toMatchObject({ entries: 2_000, counters: 1 });
    expect(stats.heapBytes).toBeGreaterThan(2_000_000);
    expect(stats.heapBytes).toBeLessThan(8_000_000);
    expect(await store.get('audit#1999')).toEqual({ text: '1999'.padEnd(1_000, 'x') });
    expect(store.size).toBe(2_000);
  });
});
