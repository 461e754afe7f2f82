/**
 * Tool search: top-1 and top-3 of the evaluation set (test/search/eval-set.ts) over the whole set,
 * over its blind round, the held-out third of its first round, each tuned-on round and all that the
 * ranking was tuned on, and the time one query takes in the index of all tools (p50 and
 * p99 over every request of the set, several rounds after a warm-up), in-process.
 */
import { performance } from 'node:perf_hooks';
import { platforms } from '../../infra/local/platforms';
import { loadConfig } from '../../shared/core/config';
import { createRuntime } from '../../shared/lambda/runtime';
import { catalog } from '../../shared/catalog/catalog';
import { buildIndex, searchIndex, SEARCH_LIMIT } from '../../shared/catalog/search';
import { MemoryStore } from '../../shared/store/memory';
import { EVAL_SET } from '../search/eval-set';
import { evaluate } from '../search/evaluate';
import type { BenchRow } from './rows';
import { percentile } from './stats';

const GOALS = { top1: 80, top3: 95, queryP50Ms: 1 };
const ROUNDS = 20;
const WARMUP_ROUNDS = 3;

export async function measureSearch() {
  const rt = await createRuntime({ platforms, config: loadConfig({}), store: new MemoryStore() });
  const entries = await catalog(rt.registry);
  let t = performance.now();
  const index = buildIndex(entries, Object.fromEntries([...rt.registry.platforms.values()].map((p) => [p.name, p.vendor])));
  const buildMs = performance.now() - t;
  const ev = await evaluate(async (q) => searchIndex(index, q, 3).map((h) => `${h.entry.platform}/${h.entry.name}`));
  const times: number[] = [];
  for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
    for (const task of EVAL_SET) {
      t = performance.now();
      searchIndex(index, task.query, SEARCH_LIMIT.default);
      if (round >= WARMUP_ROUNDS) times.push(performance.now() - t);
    }
  }
  return { ev, tools: index.docs.length, buildMs, queryP50Ms: percentile(times, 50), queryP99Ms: percentile(times, 99), queries: times.length };
}

export async function benchRows(): Promise<BenchRow[]> {
  const { ev, tools, buildMs, queryP50Ms, queryP99Ms, queries } = await measureSearch();
  const pct = (x: number) => Math.round(x * 1000) / 10;
  const share = (x: number, n: number) => `${Math.round(x * n)} of ${n} requests`;
  const parts = [
    [ev.all, `all ${ev.all.tasks} requests`],
    [ev.rounds[6], `${ev.rounds[6].tasks} of round 6, written blind and held out`],
    [ev.heldOutFirst, `${ev.heldOutFirst.tasks} held out of round 1`],
    [ev.rounds[2], `${ev.rounds[2].tasks} of round 2 (tuned on since)`],
    [ev.rounds[3], `${ev.rounds[3].tasks} of round 3 (tuned on since)`],
    [ev.rounds[4], `${ev.rounds[4].tasks} of round 4, written blind (tuned on since)`],
    [ev.rounds[5], `${ev.rounds[5].tasks} of round 5, written blind (tuned on since)`],
    [ev.tuned, `${ev.tuned.tasks} tuned on`],
  ] as const;
  return [
    ...parts.flatMap(([f, label]): BenchRow[] => [
      { figure: `tool search top-1, ${label}`, value: pct(f.top1), unit: '%', goal: GOALS.top1, better: 'higher', detail: share(f.top1, f.tasks) },
      { figure: `tool search top-3, ${label}`, value: pct(f.top3), unit: '%', goal: GOALS.top3, better: 'higher', detail: share(f.top3, f.tasks) },
    ]),
    {
      figure: `tool search query time p50 (${tools} tools)`,
      value: queryP50Ms,
      unit: 'ms',
      goal: GOALS.queryP50Ms,
      better: 'lower',
      detail: `p99 ${queryP99Ms.toFixed(3)} ms over ${queries.toLocaleString('en-US')} queries; the index of the catalog built once in ${buildMs.toFixed(1)} ms`,
    },
  ];
}
