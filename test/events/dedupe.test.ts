import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { dbapp } from '../../functions/dbapp';
import { loadConfig } from '../../shared/core/config';
import { createApp } from '../../shared/http/app';
import { createRuntime } from '../../shared/lambda/runtime';
import { Inbox, SUB_CACHE_MS } from '../../shared/events/inbox';
import { receiverUrl } from '../../shared/events/receiver';
import type { Subscription } from '../../shared/core/event-model';
import type { Store } from '../../shared/store';
import { DynamoStore } from '../../shared/store/dynamodb';
import { MemoryStore } from '../../shared/store/memory';
import { startDynamoDbLocal, type DynamoDbLocal } from '../helpers/dynamodb-local';

/**
 * Exactly-once storage under copies and failures, on both stores, through the receiver (Tape
 * deliveries: one event each). The same store as another process sees it (`elsewhere`): the same
 * data, none of this process's in-memory state, so its copies race to the store's conditional write.
 */
let ddb: DynamoDbLocal | undefined;
const stores: { name: string; make: () => Store }[] = [
  { name: 'memory', make: () => new MemoryStore() },
  { name: 'DynamoDB Local', make: () => new DynamoStore(ddb!.client, ddb!.table) },
];
const elsewhere = (store: Store): Store => Object.create(store) as Store;
/** Moves the clock the receiver, the inbox and the stores read (timers stay real: the SDK needs them). */
const advance = (ms: number) => vi.setSystemTime(Date.now() + ms);

beforeAll(async () => {
  ddb = await startDynamoDbLocal({ table: 'events-dedupe' });
}, 90_000);
afterAll(async () => {
  await ddb?.stop();
});
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Counts the store operations made through `store` (its methods, wrapped on the instance). */
function counting(store: Store) {
  const calls: Record<string, number> = {};
  for (const op of ['get', 'getMany', 'add', 'putPairIfAbsent', 'put', 'putIfAbsent', 'delete'] as const) {
    const orig = (store as any)[op].bind(store);
    (store as any)[op] = (...args: unknown[]) => {
      calls[op] = (calls[op] ?? 0) + 1;
      return orig(...args);
    };
  }
  return { calls, reset: () => Object.keys(calls).forEach((k) => delete calls[k]) };
}

async function receiver(store: Store) {
  const rt = await createRuntime({ platforms: [dbapp], config: loadConfig({ EVENTS_BASE_URL: 'http://127.0.0.1' }), store });
  const app = createApp(rt);
  const inbox = new Inbox(store, 3600);
  const sub = await inbox.create(Inbox.newSubscription('dbapp', 'owner', { app_id: 1, event_types: ['record.update'] }, Date.now()));
  const active: Subscription = { ...sub, status: 'active' };
  await inbox.save(active);
  const url = receiverUrl(rt.config.events!, active, true);
  const post = async (revision: number, via = app) => {
    const res = await via.request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ hook_id: 1, record_id: 7, revision_id: revision, type: 'record.update' }) });
    return { status: res.status, body: (await res.json()) as any };
  };
  /** Every event listed, in order (acknowledged ones too). */
  const listed = async () => (await inbox.listEvents([active], { after: {}, limit: 1000, includeAcked: true })).events.map((e) => e.data.revision_id);
  return { rt, app, inbox, sub: active, post, listed };
}

describe.each(stores)('exactly once under copies and failures ($name)', ({ make }) => {
  it('three copies at once in one process: one stored, two duplicates; the copies never reach the store', async () => {
    const store = make();
    const { post, listed } = await receiver(store);
    const { calls, reset } = counting(store);
    await post(0); // reads the (active) subscription
    reset();
    const answers = await Promise.all([post(1), post(1), post(1)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers.map((a) => a.body.data.stored).sort()).toEqual([0, 0, 1]);
    expect(answers.reduce((n, a) => n + a.body.data.duplicates, 0)).toBe(2);
    // One claim read, one number, one claim-and-event write: the copies waited for it.
    expect([calls.get, calls.add, calls.putPairIfAbsent, calls.put]).toEqual([1, 1, 1, undefined]);
    expect(await listed()).toEqual([0, 1]);
  });

  it('copies racing from three processes: one stored, the losers leave final gaps, nothing is held back', async () => {
    const store = make();
    const { sub, inbox, listed } = await receiver(store);
    const event = { key: 'tape:race', type: 'record.update', data: { revision_id: 1 } };
    const copies = await Promise.all([store, elsewhere(store), elsewhere(store)].map((s) => new Inbox(s, 3600).append(sub, [event])));
    expect(copies.reduce((n, c) => n + c.stored.length, 0)).toBe(1);
    expect(copies.reduce((n, c) => n + c.duplicates, 0)).toBe(2);
    await inbox.append(sub, [{ key: 'tape:next', type: 'record.update', data: { revision_id: 2 } }]);
    expect(await listed()).toEqual([1, 2]);
  });

  it('a new delivery costs three store operations and a retry one; the subscription is read once per few seconds', async () => {
    const store = make();
    const { post } = await receiver(store);
    const { calls, reset } = counting(store);
    await post(1); // reads the (active) subscription
    reset();
    expect((await post(2)).body.data.stored).toBe(1);
    expect([calls.get, calls.add, calls.putPairIfAbsent]).toEqual([1, 1, 1]);
    reset();
    expect((await post(2)).body.data.duplicates).toBe(1);
    expect(calls).toEqual({ get: 1 });
    reset();
    advance(SUB_CACHE_MS);
    await post(2);
    expect(calls).toEqual({ get: 2 }); // the subscription again, then the claim
  });

  it('the claim-and-event write fails before it lands: the delivery fails, its retry stores the event once', async () => {
    const store = make();
    const { post, listed } = await receiver(store);
    const write = store.putPairIfAbsent!.bind(store);
    let failures = 1;
    store.putPairIfAbsent = (...args) => (failures-- > 0 ? Promise.reject(new Error('connection reset')) : write(...args));
    const failed = await post(1);
    expect(failed.status).toBe(500);
    expect(failed.body.error.code).toBe('INTERNAL_ERROR');
    expect((await post(1)).body.data).toEqual({ stored: 1, duplicates: 0 });
    expect((await post(1)).body.data).toEqual({ stored: 0, duplicates: 1 });
    // The failed write's number never lands: a gap once the events after it are old enough.
    advance(61_000);
    expect(await listed()).toEqual([1]);
  });

  it('a copy waiting in this process for a write that then fails stores the event itself, once', async () => {
    const store = make();
    const { sub, inbox, listed } = await receiver(store);
    const write = store.putPairIfAbsent!.bind(store);
    let reached!: () => void;
    const atWrite = new Promise<void>((r) => (reached = r));
    let fail!: () => void;
    const failing = new Promise<void>((r) => (fail = r));
    let first = true;
    store.putPairIfAbsent = async (...args) => {
      if (!first) return write(...args);
      first = false;
      reached();
      await failing;
      throw new Error('connection reset');
    };
    const event = { key: 'tape:1', type: 'record.update', data: { revision_id: 1 } };
    const owner = inbox.append(sub, [event]);
    await atWrite;
    const copy = inbox.append(sub, [event]); // finds the write in flight and waits for it
    fail();
    await expect(owner).rejects.toThrow('connection reset');
    expect(await copy).toMatchObject({ stored: [{ data: { revision_id: 1 } }], duplicates: 0 });
    expect((await inbox.append(sub, [event])).duplicates).toBe(1);
    advance(61_000);
    expect(await listed()).toEqual([1]);
  });

  it('the claim-and-event write lands but its answer is lost: the retry is a duplicate, the event listed once', async () => {
    const store = make();
    const { post, listed } = await receiver(store);
    const write = store.putPairIfAbsent!.bind(store);
    let failures = 1;
    store.putPairIfAbsent = async (...args) => {
      const wrote = await write(...args);
      if (failures-- > 0) throw new Error('socket hang up');
      return wrote;
    };
    expect((await post(1)).status).toBe(500);
    expect((await post(1)).body.data).toEqual({ stored: 0, duplicates: 1 });
    expect(await listed()).toEqual([1]);
  });

  it('a removed subscription is refused at once, though its deliveries were being answered from memory', async () => {
    const store = make();
    const { post, inbox, sub } = await receiver(store);
    expect((await post(1)).status).toBe(200);
    await inbox.remove(sub);
    const refused = await post(2);
    expect(refused.status).toBe(404);
    expect(refused.body.error.details.reason).toBe('unknown_subscription');
  });

  it('a pending subscription is read at every delivery: its activation is seen at once', async () => {
    const store = make();
    const { post, inbox, sub } = await receiver(store);
    await inbox.save({ ...sub, status: 'pending' });
    const { calls, reset } = counting(store);
    await post(1);
    reset();
    await post(2);
    expect(calls.get).toBe(2); // the subscription and the claim
  });
});

describe('DynamoDB: a claim-and-event transaction cancelled by a conflicting one', () => {
  it('is sent again: stored once, the delivery answered', async () => {
    const store = new DynamoStore(ddb!.client, ddb!.table);
    const { post, listed } = await receiver(store);
    const client = ddb!.client;
    const send = client.send.bind(client);
    let conflicts = 2;
    (client as any).send = (cmd: any, ...rest: any[]) => {
      if (cmd.constructor.name === 'TransactWriteItemsCommand' && conflicts-- > 0) {
        return Promise.reject(new TransactionCanceledException({ message: 'Transaction cancelled', $metadata: {}, CancellationReasons: [{ Code: 'TransactionConflict' }, { Code: 'None' }] }));
      }
      return send(cmd, ...rest);
    };
    try {
      expect((await post(1)).body.data).toEqual({ stored: 1, duplicates: 0 });
      expect(conflicts).toBe(-1);
      expect(await listed()).toEqual([1]);
    } finally {
      (client as any).send = send;
    }
  });
});
