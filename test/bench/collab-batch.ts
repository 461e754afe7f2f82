import { performance } from 'node:perf_hooks';
import { PODIO_DEMO } from '../../infra/twins/podio';
import { ITEM_PARALLELISM } from '../../functions/collab/items/batch';
import { harness } from '../helpers/harness';
import type { BenchRow } from './rows';

/**
 * collab/batchCreateItems of 500 Deals against a Podio twin answering every call after 20 ms, with
 * its hourly limit lifted (the service's own limit too).
 *
 * The floor: Podio has no batch endpoint, so each item is one call, ITEM_PARALLELISM (10) in flight:
 * ceil(500 / 10) = 50 rounds of 20 ms, plus the one app schema read before them = 51 × 20 ms = 1,020 ms.
 * Goal: at most 1.2× the floor. Median of 3 runs after a warm-up, each on a fresh twin.
 */

const COUNT = 500;
const LATENCY_MS = 20;
const GOAL = 1.2;

/** Wall time, and the process's CPU time over it (service and twin together): on a busy machine the wall time waits for the CPU. */
interface Run {
  elapsedMs: number;
  cpuMs: number;
  successful: number;
}

const D = PODIO_DEMO;
const F = D.fields.deals;

async function once(): Promise<Run> {
  const h = await harness({
    env: { RATE_LIMIT_MAX: '100000000' },
    twins: { collab: { latencyMs: LATENCY_MS, rateLimit: { limit: 1e9, windowMs: 3.6e6 } } },
  });
  // The twin (and its seed) is built on first use: build it before the clock starts.
  void h.twin('collab');
  const items = Array.from({ length: COUNT }, (_, i) => ({
    fields: { [F.title]: `Bench deal ${i}`, [F.stage]: i % 2 ? 'Lead' : 'Qualified', [F.amount]: { value: `${1000 + i}.00`, currency: 'EUR' }, [F.probability]: i % 101 },
  }));
  const cpu = process.cpuUsage();
  const started = performance.now();
  const r = await h.call('collab/batchCreateItems', { app_id: D.apps.deals, items }, { query: 'format=json' });
  const elapsedMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  if (r.status !== 200) throw new Error(`batchCreateItems failed: ${r.text.slice(0, 300)}`);
  return { elapsedMs, cpuMs: (used.user + used.system) / 1000, successful: r.body.data.successful as number };
}

export async function benchRows(): Promise<BenchRow[]> {
  await once();
  const runs: Run[] = [];
  for (let i = 0; i < 3; i++) runs.push(await once());
  runs.sort((a, b) => a.elapsedMs - b.elapsedMs);
  const mid = runs[1]!;
  const floorMs = (Math.ceil(COUNT / ITEM_PARALLELISM) + 1) * LATENCY_MS;
  const allDone = runs.every((r) => r.successful === COUNT);
  return [
    {
      figure: `collab/batchCreateItems, ${COUNT} items at ${LATENCY_MS} ms twin latency: time vs floor (${ITEM_PARALLELISM} in flight)`,
      // A run that lost items has no meaningful time.
      value: allDone ? mid.elapsedMs / floorMs : Number.POSITIVE_INFINITY,
      unit: '×',
      goal: GOAL,
      better: 'lower',
      detail: `${Math.round(mid.elapsedMs).toLocaleString('en-US')} ms (CPU ${Math.round(mid.cpuMs).toLocaleString('en-US')} ms) vs floor ${floorMs.toLocaleString('en-US')} ms; ${Math.min(...runs.map((r) => r.successful))}/${COUNT} created`,
    },
  ];
}
