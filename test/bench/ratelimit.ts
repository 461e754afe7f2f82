/**
 * What the rate-limit counter costs per call with the DynamoDB store (DynamoDB Local), as paired
 * differences against the memory store: a read (getWorkspace, which runs alongside the counter)
 * and a write (updateWorkspace, which waits for admission), through the shared HTTP app against
 * a zero-latency twin; and the counter's own round trips (`store.increment`).
 *
 *   npx tsx test/bench/ratelimit.ts [calls=2000] [twin latency ms=0]
 *
 * With a twin latency (a vendor's round trip) the read's counter hides behind the vendor call;
 * the write's cannot.
 *
 * Prints one JSON line. Standalone (needs Java 17 for DynamoDB Local); run it on two commits to
 * compare designs.
 */
import { performance } from 'node:perf_hooks';
import { dbapp } from '../../functions/dbapp';
import { createTapeTwin, SANDBOX_KEYS } from '../../infra/twins/tape';
import { loadConfig } from '../../shared/config';
import { createApp } from '../../shared/http/app';
import { createRuntime } from '../../shared/runtime';
import type { Store } from '../../shared/store';
import { DynamoStore } from '../../shared/store/dynamodb';
import { MemoryStore } from '../../shared/store/memory';
import { startDynamoDbLocal } from '../helpers/dynamodb-local';
import { percentile, round } from './stats';

const calls = Number(process.argv[2] ?? 2000);
const latencyMs = Number(process.argv[3] ?? 0);
const warmup = Math.min(1000, calls);

async function service(store: Store) {
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

async function main() {
  const local = await startDynamoDbLocal({ table: 'bench-ratelimit' });
  try {
    const dynamo = new DynamoStore(local.client, local.table);
    const viaDynamo = await service(dynamo);
    const viaMemory = await service(new MemoryStore());
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
    console.log(JSON.stringify(out));
  } finally {
    await local.stop();
  }
}

await main();
