import { performance } from 'node:perf_hooks';
import { SANDBOX_KEYS } from '../../infra/twins/tape';
import type { Store } from '../../shared/store';
import { vendorFetch } from '../../shared/core/vendor-fetch';
import { dbappLambda } from './lambda';
import { percentile } from './stats';

export interface Percentiles {
  p50: number;
  p99: number;
}

export interface OverheadReport {
  tool: string;
  vendorRequest: string;
  calls: number;
  warmup: number;
  toolMs: Percentiles;
  directMs: Percentiles;
  /** Percentiles of the paired differences (tool call i minus direct request i). */
  overheadMs: Percentiles;
  samples: { toolMs: number[]; directMs: number[] };
}

/** getWorkspace's vendor request made directly through the vendor client (GET /v1/workspace/org + JSON parse), checked. */
function directWorkspace(tapeUrl: string): () => Promise<void> {
  const auth = `Bearer ${SANDBOX_KEYS.owner}`;
  return async () => {
    const res = await vendorFetch(`${tapeUrl}/v1/workspace/org`, { headers: { authorization: auth, accept: 'application/json' } });
    const json = (await res.json()) as { workspaces?: { workspace_id: number }[] };
    if (res.status !== 200 || !json.workspaces?.some((w) => w.workspace_id === 1)) throw new Error(`direct Tape call failed (HTTP ${res.status})`);
  };
}

/**
 * Per-call overhead as deployed: dbapp/getWorkspace through the Lambda handler with real API
 * Gateway v2 events, against a zero-latency Tape twin in another process (over loopback HTTP),
 * paired with the same vendor request made directly through the same vendor client (shared/core/vendor-fetch.ts:
 * GET /v1/workspace/org + JSON parse), so the difference is the service's own. Each pair
 * runs back to back, in alternating order, so drift (GC, JIT, the other process) falls on both; the
 * figures are percentiles of the per-pair differences. Every tool call passes the rate-limit counter
 * of `store` (with DynamoDB: one round trip before the vendor call).
 */
export async function measureOverhead(tapeUrl: string, store: Store, calls: number, warmup: number): Promise<OverheadReport> {
  const call = dbappLambda(tapeUrl, store);

  const viaTool = async () => {
    const text = (await call('getWorkspace', { workspace_id: 1 })) as string;
    if (typeof text !== 'string' || !text.includes('#1')) throw new Error(`getWorkspace answered ${String(text).slice(0, 200)}`);
  };
  const direct = directWorkspace(tapeUrl);

  for (let i = 0; i < warmup; i++) {
    await viaTool();
    await direct();
  }
  const toolMs: number[] = [];
  const directMs: number[] = [];
  for (let i = 0; i < calls; i++) {
    const pair = i % 2 === 0 ? ([viaTool, direct] as const) : ([direct, viaTool] as const);
    for (const fn of pair) {
      const t = performance.now();
      await fn();
      (fn === viaTool ? toolMs : directMs).push(performance.now() - t);
    }
  }
  const diffs = toolMs.map((t, i) => t - directMs[i]!);
  const p = (xs: number[]) => ({ p50: percentile(xs, 50), p99: percentile(xs, 99) });
  return {
    tool: 'dbapp/getWorkspace',
    vendorRequest: 'GET /v1/workspace/org',
    calls,
    warmup,
    toolMs: p(toolMs),
    directMs: p(directMs),
    overheadMs: p(diffs),
    samples: { toolMs, directMs },
  };
}

export interface KindTiming {
  kind: 'read' | 'write';
  tool: string;
  store: string;
  p50Ms: number;
  p99Ms: number;
  /** The service's CPU time per call: this process's user + system time over the calls ÷ calls (the twin runs in another process). */
  cpuMs: number;
  /** Read: the CPU of the same vendor request made directly (client side of the HTTP request and the JSON parse), per call; cpuMs − this = the service's own. */
  vendorCpuMs?: number;
  /** Store requests per call, by operation (DynamoDB: the commands sent, e.g. UpdateItem 2.03), when the store is counted (countRequests). */
  requests?: Record<string, number>;
}

/** Counts what a store sends, by operation: a DynamoDB store's commands (one middleware on its client). */
export interface RequestCount {
  store: Store;
  take(): Record<string, number>;
}

/** `store` with its DynamoDB requests counted, by command; a store without a client (memory) is counted by Store method. */
export function countRequests(store: Store): RequestCount {
  const seen: Record<string, number> = {};
  const bump = (name: string) => void (seen[name] = (seen[name] ?? 0) + 1);
  const client = (store as unknown as { client?: { middlewareStack: { add(mw: unknown, o: unknown): void } } }).client;
  let counted: Store = store;
  if (client) {
    client.middlewareStack.add(
      (next: (a: unknown) => Promise<unknown>, context: { commandName?: string }) => (args: unknown) => {
        bump(String(context.commandName ?? 'request').replace(/Command$/, ''));
        return next(args);
      },
      { step: 'initialize', name: 'benchRequestCount' },
    );
  } else {
    counted = new Proxy(store, {
      get(target, prop, receiver) {
        const v = Reflect.get(target, prop, receiver);
        return typeof v === 'function' ? (...a: unknown[]) => (bump(String(prop)), v.apply(target, a)) : v;
      },
    });
  }
  return {
    store: counted,
    take() {
      const out = { ...seen };
      for (const k of Object.keys(seen)) delete seen[k];
      return out;
    },
  };
}

/**
 * The store's own floor for a read call: this process's CPU for the store work a read call makes —
 * one rate-limit count (`increment`: UpdateItem then PutItem on DynamoDB) and one record the size of
 * its audit record (`put`) — done alone, nothing else running, after `warmup`; in FLOOR_ROUNDS
 * rounds of `calls` ÷ FLOOR_ROUNDS, the least round's figure, as a floor is (a round that a garbage
 * collection of earlier work or another process lands in reads high).
 */
export async function measureStoreFloor(store: Store, calls: number, warmup: number): Promise<number> {
  const record = { kind: 'call', time: new Date().toISOString(), tenant: 'bench', key_id: 'k_bench', surface: 'rest', platform: 'dbapp', tool: 'getWorkspace', access: 'read', dry_run: false, outcome: 'OK', status: 200, duration_ms: 1.23, vendor_calls: 1, request_id: 'bench' };
  // A limit no round reaches, below the rate that shards a counter (shared/store/dynamodb.ts).
  const readCall = async (i: number) => {
    await store.increment('bench-floor', 3_600, 1_000_000);
    await store.put(`bench-floor#${i % 10}`, record, 600);
  };
  for (let i = 0; i < warmup; i++) await readCall(i);
  const per = Math.max(1, Math.round(calls / FLOOR_ROUNDS));
  let least = Number.POSITIVE_INFINITY;
  for (let round = 0; round < FLOOR_ROUNDS; round++) {
    const cpu = process.cpuUsage();
    for (let i = 0; i < per; i++) await readCall(i);
    const used = process.cpuUsage(cpu);
    least = Math.min(least, (used.user + used.system) / 1000 / per);
  }
  return least;
}
const FLOOR_ROUNDS = 5;

/**
 * One read tool (getWorkspace) and one write tool (createRecord of a realistic Lead) through the
 * Lambda handler, `calls` times each after `warmup`, against the twin at `tapeUrl` (another
 * process), with each store. The same calls with the memory store and with DynamoDB differ only by
 * the store: the difference of the p50s is what the counter costs each kind (a read's counter runs
 * beside its vendor call, a write's before it: a write must not reach the vendor unadmitted).
 */
export async function measureKinds(tapeUrl: string, stores: readonly { name: string; make: () => Store }[], calls: number, warmup: number, lead: (i: number) => Record<string, unknown>, appId: number): Promise<KindTiming[]> {
  const out: KindTiming[] = [];
  let n = 0;
  for (const s of stores) {
    const counted = countRequests(s.make());
    const call = dbappLambda(tapeUrl, counted.store);
    const kinds = [
      { kind: 'read' as const, tool: 'dbapp/getWorkspace', run: () => call('getWorkspace', { workspace_id: 1 }) },
      { kind: 'write' as const, tool: 'dbapp/createRecord', run: () => call('createRecord', { app_id: appId, fields: lead(n++) }) },
    ];
    for (const k of kinds) {
      for (let i = 0; i < warmup; i++) await k.run();
      counted.take();
      const times: number[] = [];
      const cpu = process.cpuUsage();
      for (let i = 0; i < calls; i++) {
        const t = performance.now();
        await k.run();
        times.push(performance.now() - t);
      }
      const used = process.cpuUsage(cpu);
      const requests = Object.fromEntries(Object.entries(counted.take()).map(([op, n]) => [op, n / calls]));
      out.push({ kind: k.kind, tool: k.tool, store: s.name, p50Ms: percentile(times, 50), p99Ms: percentile(times, 99), cpuMs: (used.user + used.system) / 1000 / calls, requests });
    }
  }
  // The read's vendor request alone, the same number of times: what of a read's CPU is the request itself.
  const direct = directWorkspace(tapeUrl);
  for (let i = 0; i < warmup; i++) await direct();
  const cpu = process.cpuUsage();
  for (let i = 0; i < calls; i++) await direct();
  const used = process.cpuUsage(cpu);
  const vendorCpuMs = (used.user + used.system) / 1000 / calls;
  for (const k of out) if (k.kind === 'read') k.vendorCpuMs = vendorCpuMs;
  return out;
}
