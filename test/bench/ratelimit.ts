/**
 * What the rate-limit counter costs per call with the DynamoDB store (DynamoDB Local), as paired
 * differences against the memory store: a read (getWorkspace, which runs alongside the counter)
 * and a write (updateWorkspace, which waits for admission), through the shared HTTP app against
 * a Tape twin (zero latency unless given); and the counter's own round trips (`store.increment`).
 *
 *   npx tsx test/bench/ratelimit.ts [calls=2000] [twin latency ms=0]
 *
 * With a twin latency (a vendor's round trip) the read's counter hides behind the vendor call;
 * the write's cannot.
 *
 * Prints one JSON line (needs Java 17 for DynamoDB Local); run it on two commits to compare
 * designs. `measureRateLimitCounter` gives the same figures to the bench table.
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { dbapp } from '../../functions/dbapp';
import { createTapeTwin, SANDBOX_KEYS } from '../../infra/twins/tape';
import { loadConfig } from '../../shared/core/config';
import { createApp } from '../../shared/http/app';
import { createRuntime } from '../../shared/lambda/runtime';
import type { Store } from '../../shared/store';
import { DynamoStore } from '../../shared/store/dynamodb';
import { MemoryStore } from '../../shared/store/memory';
import { startDynamoDbLocal, type DynamoDbLocal } from '../helpers/dynamodb-local';
import type { BenchRow } from './rows';
import { percentile, round } from './stats';

async function service(store: Store, latencyMs: number) {
  const twin = createTapeTwin({ credits: 1e12, latencyMs });
  const rt = await createRuntime({ platforms: [dbapp], config: loadConfig({ RATE_LIMIT_MAX: '100000000' }), store, fetchFor: { dbapp: twin.fetch } });
  const app = createApp(rt);
  const headers = { authorization: `Bearer ${SANDBOX_KEYS.owner}`, 'content-type': 'application/json' };
  return async (tool: string, params: unknown): Promise<number> => {
    const t = performance.now();
    const res = await app.request(`/v1/tools/dbapp/${tool}`, { method: 'POST', headers, body: JSON.stringify(params) });
    await res.text();
    const ms = performance.now() - t;
    if (res.status !== 200) throw new Error(`${tool} answered ${res.status}`);
    return ms;
  };
}

const stats = (samples: number[]) => ({ p50: round(percentile(samples, 50)), p99: round(percentile(samples, 99)) });

export interface CounterReport {
  calls: number;
  twin_latency_ms: number;
  /** Per-call time with the DynamoDB store minus with the memory store, paired. */
  read_counter_overhead_ms: { p50: number; p99: number };
  write_counter_overhead_ms: { p50: number; p99: number };
  /** `DynamoStore.increment` alone. */
  increment_ms: { p50: number; p99: number };
}

/** The counter's cost per call with DynamoDB Local (started here unless one is passed). */
export async function measureRateLimitCounter(calls: number, latencyMs: number, running?: DynamoDbLocal): Promise<CounterReport> {
  const local = running ?? (await startDynamoDbLocal({ table: 'bench-ratelimit' }));
  const warmup = Math.min(1000, calls);
  try {
    const dynamo = new DynamoStore(local.client, local.table);
    const viaDynamo = await service(dynamo, latencyMs);
    const viaMemory = await service(new MemoryStore(), latencyMs);
    const out: Record<string, unknown> = { calls, twin_latency_ms: latencyMs };
    const kinds = [
      ['read', 'getWorkspace', { workspace_id: 1 }],
      ['write', 'updateWorkspace', { workspace_id: 1, description: 'bench' }],
    ] as const;
    // Both tools, both stores, warmed up first (JIT, and DynamoDB Local's JVM), then measured
    // interleaved so drift (GC, load of the machine) falls on every series alike.
    for (let i = 0; i < warmup; i++) {
      for (const [, tool, params] of kinds) {
        await viaDynamo(tool, params);
        await viaMemory(tool, params);
      }
    }
    const diffs: Record<string, number[]> = { read: [], write: [] };
    for (let i = 0; i < calls; i++) {
      for (const [name, tool, params] of kinds) {
        // Alternate the order within each pair.
        if (i % 2 === 0) {
          const d = await viaDynamo(tool, params);
          diffs[name]!.push(d - (await viaMemory(tool, params)));
        } else {
          const m = await viaMemory(tool, params);
          diffs[name]!.push((await viaDynamo(tool, params)) - m);
        }
      }
    }
    for (const [name] of kinds) out[`${name}_counter_overhead_ms`] = stats(diffs[name]!);
    const increments: number[] = [];
    for (let i = 0; i < calls; i++) {
      const t = performance.now();
      await dynamo.increment('bench#increment', 60, 1e8);
      increments.push(performance.now() - t);
    }
    out.increment_ms = stats(increments);
    return out as unknown as CounterReport;
  } finally {
    if (!running) await local.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(await measureRateLimitCounter(Number(process.argv[2] ?? 2000), Number(process.argv[3] ?? 0))));
}

/** In `npm run bench` (run.ts picks this module up): 1,000 pairs against a twin answering in 5 ms. */
export async function benchRows(): Promise<BenchRow[]> {
  const r = await measureRateLimitCounter(1000, 5);
  const row = (figure: string, s: { p50: number; p99: number }, goal: number): BenchRow => ({ figure, value: s.p50, unit: 'ms', goal, better: 'lower', detail: `p50 ${s.p50} ms, p99 ${s.p99} ms` });
  return [
    row('rate-limit counter on DynamoDB Local, read tool (overlaps its vendor call, 5 ms twin): added p50', r.read_counter_overhead_ms, 1),
    row('rate-limit counter on DynamoDB Local, write tool (waits for admission, 5 ms twin): added p50', r.write_counter_overhead_ms, 5),
    row('rate-limit counter on DynamoDB Local: one increment (ticket + slot), p50', r.increment_ms, 5),
  ];
}
