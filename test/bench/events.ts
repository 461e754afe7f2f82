/**
 * The event inbox's receiver (shared/events/receiver.ts): time per delivery on the memory store and
 * on DynamoDB Local, a new event and a retry of it (found by its claim, stored nothing), through the
 * shared HTTP app in-process; and a burst over a real socket — 1,000 Tape deliveries, each POSTed
 * three times (at-least-once), ten at a time (HubSpot's default concurrency), timed end to end;
 * and 1,000 events in deliveries of 100 (HubSpot's batches) into the inbox, then two racing copies.
 *
 *   npx tsx test/bench/events.ts [deliveries=1000]
 *
 * Prints one JSON line (needs Java 17 for DynamoDB Local). `benchRows` gives the bench table its rows.
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { dbapp } from '../../functions/dbapp';
import { loadConfig } from '../../shared/core/config';
import { createApp } from '../../shared/http/app';
import { createRuntime } from '../../shared/lambda/runtime';
import { Inbox } from '../../shared/events/inbox';
import { receiverUrl } from '../../shared/events/receiver';
import type { Store } from '../../shared/store';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoStore } from '../../shared/store/dynamodb';
import { MemoryStore } from '../../shared/store/memory';
import { startDynamoDbLocal, type DynamoDbLocal } from '../helpers/dynamodb-local';
import type { BenchRow } from './rows';
import { percentile, round } from './stats';

const stats = (samples: number[]) => ({ p50: round(percentile(samples, 50)), p99: round(percentile(samples, 99)) });

export interface ReceiverReport {
  store: string;
  deliveries: number;
  /** A delivery whose event is new: authenticated, claimed and stored. */
  new_ms: { p50: number; p99: number };
  /** The same delivery again (a vendor's retry): found by its claim. */
  retry_ms: { p50: number; p99: number };
  /** `deliveries` × 3 POSTs over a socket, 10 at a time: wall time, and events stored (must equal deliveries). */
  burst: { posts: number; wall_ms: number; stored: number };
  /**
   * `deliveries` events in deliveries of 100 (HubSpot's batches) appended to the store
   * (Inbox.append: one claim read, one number block, ten writes in flight); then two more copies of
   * each delivery at once (retries: found by their claims); and the same events one per append
   * call, one after another (a store round trip per step), as a baseline of the same run.
   */
  batched: { events: number; wall_ms: number; retries_ms: number; stored: number; one_by_one_ms: number };
  /** Store requests (DynamoDB commands sent) per delivery: a new event, a retry, and per POST of the burst; absent on the memory store. */
  round_trips?: { new: number; retry: number; burst_per_post: number };
}

/** Counts the commands `client` sends from now on. */
function countRequests(client: DynamoDBClient): () => number {
  let sent = 0;
  client.middlewareStack.add((next) => (args) => {
    sent++;
    return next(args);
  }, { step: 'initialize', name: 'benchRequestCount' });
  return () => sent;
}

async function receiver(store: Store) {
  const rt = await createRuntime({ platforms: [dbapp], config: loadConfig({ EVENTS_BASE_URL: 'http://127.0.0.1' }), store });
  const app = createApp(rt);
  const inbox = new Inbox(store, 3600);
  const fresh = async () => {
    const sub = await inbox.create(Inbox.newSubscription('dbapp', 'bench-owner', { app_id: 1, event_types: ['record.update'] }, Date.now()));
    await inbox.save({ ...sub, status: 'active' });
    return sub;
  };
  return { rt, app, inbox, fresh };
}

const payload = (revision: number) => JSON.stringify({ hook_id: 1, record_id: 7, revision_id: revision, type: 'record.update' });

export async function measureReceiver(storeName: string, store: Store, deliveries: number, requests?: () => number): Promise<ReceiverReport> {
  const { rt, app, inbox, fresh } = await receiver(store);
  const sub = await fresh();
  const url = receiverUrl(rt.config.events!, sub, true);
  const post = async (body: string) => {
    const t = performance.now();
    const res = await app.request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    await res.text();
    if (res.status !== 200) throw new Error(`receiver answered ${res.status}`);
    return performance.now() - t;
  };
  for (let i = 0; i < 50; i++) await post(payload(-1 - i)); // warm-up
  const added: number[] = [];
  const retried: number[] = [];
  let newRequests = 0;
  let retryRequests = 0;
  for (let i = 0; i < deliveries; i++) {
    const r0 = requests?.() ?? 0;
    added.push(await post(payload(i)));
    const r1 = requests?.() ?? 0;
    retried.push(await post(payload(i)));
    newRequests += r1 - r0;
    retryRequests += (requests?.() ?? 0) - r1;
  }

  // The burst, over a real socket, on a fresh subscription.
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  rt.config.events!.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const burstSub = await fresh();
  const burstUrl = receiverUrl(rt.config.events!, burstSub, true);
  const posts = Array.from({ length: deliveries }, (_, i) => [i, i, i]).flat();
  const burstRequests = requests?.() ?? 0;
  const t = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (next < posts.length) {
        const body = payload(posts[next++]!);
        const res = await fetch(burstUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        await res.text();
        if (res.status !== 200) throw new Error(`receiver answered ${res.status} in the burst`);
      }
    }),
  );
  const wall = performance.now() - t;
  const burstPerPost = ((requests?.() ?? 0) - burstRequests) / posts.length;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  let stored = 0;
  let after: Record<string, number> = {};
  for (;;) {
    const page = await inbox.listEvents([burstSub], { after, limit: 1000, includeAcked: true });
    stored += page.events.length;
    after = page.after;
    if (!page.more) break;
  }
  // Batches of 100 events straight into the inbox; then two more copies of each at once (retries racing).
  const batchSub = await fresh();
  const events = Array.from({ length: deliveries }, (_, i) => ({ key: `hubspot:1:${i}`, type: 'contact.creation', vendor_event_id: String(i), data: { eventId: i, objectId: 5000 + i } }));
  const tb = performance.now();
  let batchStored = 0;
  for (let i = 0; i < events.length; i += 100) batchStored += (await inbox.append(batchSub, events.slice(i, i + 100))).stored.length;
  const batchWall = performance.now() - tb;
  const tr = performance.now();
  for (let i = 0; i < events.length; i += 100) {
    const copies = await Promise.all([0, 1].map(() => inbox.append(batchSub, events.slice(i, i + 100))));
    batchStored += copies.reduce((n, c) => n + c.stored.length, 0);
  }
  const retryWall = performance.now() - tr;
  const oneSub = await fresh();
  const to = performance.now();
  for (const e of events) await inbox.append(oneSub, [e]);
  const oneByOne = performance.now() - to;
  return {
    store: storeName,
    deliveries,
    new_ms: stats(added),
    retry_ms: stats(retried),
    burst: { posts: posts.length, wall_ms: round(wall), stored },
    batched: { events: events.length, wall_ms: round(batchWall), retries_ms: round(retryWall), stored: batchStored, one_by_one_ms: round(oneByOne) },
    ...(requests ? { round_trips: { new: round(newRequests / deliveries), retry: round(retryRequests / deliveries), burst_per_post: round(burstPerPost) } } : {}),
  };
}

async function both(deliveries: number): Promise<ReceiverReport[]> {
  let ddb: DynamoDbLocal | undefined;
  try {
    ddb = await startDynamoDbLocal({ table: 'events-bench' });
    const memory = await measureReceiver('memory', new MemoryStore(), deliveries);
    return [memory, await measureReceiver('DynamoDB Local', new DynamoStore(ddb.client, ddb.table), deliveries, countRequests(ddb.client))];
  } finally {
    await ddb?.stop();
  }
}

/** Vendors wait 5 s (Tape, HubSpot) to 15 s (Podio) for an answer; the goals keep far inside that. */
export async function benchRows(): Promise<BenchRow[]> {
  const reports = await both(1000);
  return reports.flatMap((r) => [
    { figure: `event receiver, new event, ${r.store}: p99`, value: r.new_ms.p99, unit: 'ms', goal: 250, better: 'lower' as const, detail: `p50 ${r.new_ms.p50} ms, p99 ${r.new_ms.p99} ms over ${r.deliveries}` },
    { figure: `event receiver, retried delivery, ${r.store}: p99`, value: r.retry_ms.p99, unit: 'ms', goal: 250, better: 'lower' as const, detail: `p50 ${r.retry_ms.p50} ms, p99 ${r.retry_ms.p99} ms` },
    {
      figure: `event burst, ${r.deliveries} deliveries × 3 copies, 10 at a time, ${r.store}: wall`,
      value: r.burst.wall_ms,
      unit: 'ms',
      goal: 10_000,
      better: 'lower' as const,
      detail: `${r.burst.posts} POSTs, ${r.burst.stored} events stored${r.burst.stored === r.deliveries ? ' (each once)' : ' — WRONG COUNT'}${r.round_trips ? `; DynamoDB requests per delivery: new ${r.round_trips.new}, retry ${r.round_trips.retry}, burst ${r.round_trips.burst_per_post} per POST` : ''}`,
    },
    {
      figure: `event batches, ${r.batched.events} events in deliveries of 100, ${r.store}: store time`,
      value: r.batched.wall_ms,
      unit: 'ms',
      goal: 10_000,
      better: 'lower' as const,
      detail: `${r.batched.stored} events stored${r.batched.stored === r.batched.events ? ' (each once)' : ' — WRONG COUNT'} after two more copies of each delivery at once (${r.batched.retries_ms} ms); the same events one append each: ${r.batched.one_by_one_ms} ms`,
    },
  ]);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const deliveries = Number(process.argv[2] ?? 1000);
  console.log(JSON.stringify(await both(deliveries)));
}
