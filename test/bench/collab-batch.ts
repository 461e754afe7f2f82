import { performance } from 'node:perf_hooks';
import { collab } from '../../functions/collab';
import { ITEM_PARALLELISM } from '../../functions/collab/items/batch';
import { PODIO_DEMO, SANDBOX_KEYS } from '../../infra/twins/podio';
import { MemoryStore } from '../../shared/store/memory';
import { harness } from '../helpers/harness';
import { platformLambda } from './lambda';
import type { BenchRow } from './rows';
import { processCpuMs, startVendor } from './vendor';

/**
 * collab/batchCreateItems of 500 Deals against a Podio twin answering every call after 20 ms, with
 * its hourly limit lifted (the service's own limit too): the twin in ANOTHER process over loopback
 * HTTP (test/bench/vendor.ts), the service through its Lambda handler, as deployed. The same batch
 * with the twin in-process (the test harness) is kept as a labelled extra.
 *
 * The floor: Podio has no batch endpoint, so each item is one call, ITEM_PARALLELISM (10) in flight:
 * ceil(500 / 10) = 50 rounds of 20 ms, plus the one app schema read before them = 51 × 20 ms = 1,020 ms.
 * Goal: at most 1.2× the floor. Median of 3 runs after a warm-up. The service's CPU time per item
 * (this process's, the twin being another) is what stands between the floor and the wall time on
 * a busy or small CPU: 500 items × that.
 */

const COUNT = 500;
const LATENCY_MS = 20;
const GOAL = 1.2;

interface Run {
  elapsedMs: number;
  /** This process's CPU time over the call: over HTTP the service alone; in-process the service and the twin. */
  cpuMs: number;
  successful: number;
  /** The vendor process's CPU time over the call (over HTTP only). */
  vendorCpuMs?: number;
}

const D = PODIO_DEMO;
const F = D.fields.deals;
const items = Array.from({ length: COUNT }, (_, i) => ({
  fields: { [F.title]: `Bench deal ${i}`, [F.stage]: i % 2 ? 'Lead' : 'Qualified', [F.amount]: { value: `${1000 + i}.00`, currency: 'EUR' }, [F.probability]: i % 101 },
}));

async function timed(run: () => Promise<number>): Promise<Run> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const successful = await run();
  const elapsedMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { elapsedMs, cpuMs: (used.user + used.system) / 1000, successful };
}

/** The twin in the vendor process, the service through lambdaHandler. */
async function overHttp(runs: number): Promise<Run[]> {
  const vendor = await startVendor(LATENCY_MS);
  try {
    const call = platformLambda(collab, `${vendor.base}/twins/podio`, SANDBOX_KEYS.owner, new MemoryStore());
    const once = async () => {
      const before = processCpuMs(vendor.pid);
      const run = await timed(async () => ((await call('batchCreateItems', { app_id: D.apps.deals, items }, 'format=json')) as { successful: number }).successful);
      const after = processCpuMs(vendor.pid);
      return before !== undefined && after !== undefined ? { ...run, vendorCpuMs: after - before } : run;
    };
    await once();
    const out: Run[] = [];
    for (let i = 0; i < runs; i++) out.push(await once());
    return out;
  } finally {
    await vendor.stop();
  }
}

/** The twin in this process (the harness), each run on a fresh twin: the extra row. */
async function inProcess(): Promise<Run> {
  const h = await harness({
    env: { RATE_LIMIT_MAX: '100000000' },
    twins: { collab: { latencyMs: LATENCY_MS, rateLimit: { limit: 1e9, windowMs: 3.6e6 } } },
  });
  // The twin (and its seed) is built on first use: build it before the clock starts.
  void h.twin('collab');
  return timed(async () => {
    const r = await h.call('collab/batchCreateItems', { app_id: D.apps.deals, items }, { query: 'format=json' });
    if (r.status !== 200) throw new Error(`batchCreateItems failed: ${r.text.slice(0, 300)}`);
    return r.body.data.successful as number;
  });
}

const middle = (runs: Run[]): Run => [...runs].sort((a, b) => a.elapsedMs - b.elapsedMs)[runs.length >> 1]!;

export async function benchRows(): Promise<BenchRow[]> {
  const floorMs = (Math.ceil(COUNT / ITEM_PARALLELISM) + 1) * LATENCY_MS;
  const row = (runs: Run[], where: string, cpuIs: string): BenchRow => {
    const mid = middle(runs);
    const allDone = runs.every((r) => r.successful === COUNT);
    return {
      figure: `collab/batchCreateItems, ${COUNT} items at ${LATENCY_MS} ms twin latency (${where}): time vs floor (${ITEM_PARALLELISM} in flight)`,
      // A run that lost items has no meaningful time.
      value: allDone ? mid.elapsedMs / floorMs : Number.POSITIVE_INFINITY,
      unit: '×',
      goal: GOAL,
      better: 'lower',
      detail:
        `${Math.round(mid.elapsedMs).toLocaleString('en-US')} ms vs floor ${floorMs.toLocaleString('en-US')} ms; CPU ${Math.round(mid.cpuMs).toLocaleString('en-US')} ms (${cpuIs}), ` +
        `${(mid.cpuMs / COUNT).toFixed(3)} ms per item${mid.vendorCpuMs !== undefined ? `; the twin's process ${Math.round(mid.vendorCpuMs).toLocaleString('en-US')} ms CPU` : ''}; ${Math.min(...runs.map((r) => r.successful))}/${COUNT} created`,
    };
  };
  const http = await overHttp(3);
  await inProcess();
  const local: Run[] = [];
  for (let i = 0; i < 3; i++) local.push(await inProcess());
  return [row(http, 'twin in another process over HTTP', 'service alone'), row(local, 'EXTRA: twin in-process', 'service and twin')];
}
