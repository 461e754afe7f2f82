/**
 * Tool search: top-1 and top-3 (with Wilson 95 % intervals) of each round of the evaluation set
 * (test/search/eval-set.ts) — rounds 1-6, which the ranking was developed on, and the locked
 * rounds (7 on), each per platform and with its indirect requests apart, marked when retired (tuned
 * on since) — the time one query takes in the fused index of all tools (p50 and p99 over every
 * request of rounds 1-6, several rounds after a warm-up), in-process, the model loaded as the local
 * server loads it, and the size of the model's data file as a build writes it.
 * `npx tsx test/bench/search.ts` runs this piece alone; `LOCKED=0` leaves the locked rounds out,
 * `LOCKED=9` measures round 9 only.
 */
import { performance } from 'node:perf_hooks';
import { platforms } from '../../infra/local/platforms';
import { loadConfig } from '../../shared/core/config';
import { createRuntime } from '../../shared/lambda/runtime';
import { MAX_SEARCH_MODEL_BYTES } from '../../infra/build';
import { catalog } from '../../shared/catalog/catalog';
import { registryIndex, searchIndex, SEARCH_LIMIT } from '../../shared/catalog/search';
import { trainedModelDocument } from '../../shared/catalog/search-data';
import { MemoryStore } from '../../shared/store/memory';
import { EVAL_SET, LOCKED_ROUNDS } from '../search/eval-set';
import { breakdown, evaluate, type Figures } from '../search/evaluate';
import type { BenchRow } from './rows';
import { percentile } from './stats';

const GOALS = { top1: 85, top3: 95, queryP50Ms: 2 };
const ROUNDS = 20;
const WARMUP_ROUNDS = 3;

export async function measureSearch(locked = process.env.LOCKED ?? 'all') {
  const rt = await createRuntime({ platforms, config: loadConfig({}), store: new MemoryStore() });
  let t = performance.now();
  const index = await registryIndex(rt.registry);
  const loadMs = performance.now() - t;
  const search = async (q: string) => searchIndex(index, q, 3).map((h) => `${h.entry.platform}/${h.entry.name}`);
  const ev = await evaluate(search);
  const blind = await Promise.all(LOCKED_ROUNDS.filter((r) => locked === 'all' || locked === String(r.round)).map(async (r) => ({ ...r, ...breakdown((await evaluate(search, r.tasks)).results) })));
  const times: number[] = [];
  for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
    for (const task of EVAL_SET) {
      t = performance.now();
      searchIndex(index, task.query, SEARCH_LIMIT.default);
      if (round >= WARMUP_ROUNDS) times.push(performance.now() - t);
    }
  }
  // The data file as infra/build.ts writes it beside each bundle (the same cached document).
  const doc = await trainedModelDocument(rt.registry, await catalog(rt.registry));
  const dataBytes = doc ? Buffer.byteLength(JSON.stringify(doc)) : 0;
  return { ev, blind, tools: index.docs.length, loadMs, queryP50Ms: percentile(times, 50), queryP99Ms: percentile(times, 99), queries: times.length, dataBytes };
}

const pct = (x: number) => Math.round(x * 1000) / 10;
const interval = ([lo, hi]: [number, number]) => `95 % interval ${pct(lo)}-${pct(hi)} %`;
const share = (x: number, n: number) => `${Math.round(x * n)} of ${n} requests`;

/** A round's top-1 and top-3; `reference` for a round tuned on (retired, or developed on): shown, not held to the goals. */
function rows(f: Figures, label: string, reference = false): BenchRow[] {
  const ref = reference ? { reference: true as const } : {};
  return [
    { figure: `tool search top-1, ${label}`, value: pct(f.top1), unit: '%', goal: GOALS.top1, better: 'higher', detail: `${share(f.top1, f.tasks)}; ${interval(f.top1Interval)}`, ...ref },
    { figure: `tool search top-3, ${label}`, value: pct(f.top3), unit: '%', goal: GOALS.top3, better: 'higher', detail: `${share(f.top3, f.tasks)}; ${interval(f.top3Interval)}`, ...ref },
  ];
}

export async function benchRows(): Promise<BenchRow[]> {
  const { ev, blind, tools, loadMs, queryP50Ms, queryP99Ms, queries, dataBytes } = await measureSearch();
  const out: BenchRow[] = [];
  for (const r of blind) {
    const what = `round ${r.round}, locked${r.retired ? `, ${r.retired}` : ' and blind'}`;
    const retired = r.retired !== undefined;
    out.push(...rows(r.all, `${what}, all ${r.all.tasks}`, retired), ...rows(r.direct, `${what}, ${r.direct.tasks} direct`, retired), ...rows(r.indirect, `${what}, ${r.indirect.tasks} indirect`, retired));
    for (const [p, f] of Object.entries(r.platforms)) out.push(...rows(f, `${what}, ${f.tasks} of ${p}`, retired));
  }
  const parts = [
    [ev.all, `rounds 1-6, all ${ev.all.tasks} requests (developed on)`],
    [ev.heldOutFirst, `${ev.heldOutFirst.tasks} held out of round 1`],
    ...[2, 3, 4, 5, 6].map((n) => [ev.rounds[n]!, `${ev.rounds[n]!.tasks} of round ${n} (developed on)`] as const),
  ] as const;
  for (const [f, label] of parts) out.push(...rows(f, label, true));
  out.push({
    figure: `tool search query time p50 (${tools} tools, fused)`,
    value: queryP50Ms,
    unit: 'ms',
    goal: GOALS.queryP50Ms,
    better: 'lower',
    detail: `p99 ${queryP99Ms.toFixed(3)} ms over ${queries.toLocaleString('en-US')} queries; the index and the model loaded in ${loadMs.toFixed(1)} ms`,
  });
  out.push({
    figure: 'tool search data file (prebuilt/search-model.json)',
    value: Math.round(dataBytes / 10_000) / 100,
    unit: 'MB',
    goal: MAX_SEARCH_MODEL_BYTES / 1_000_000,
    better: 'lower',
    detail: `${dataBytes.toLocaleString('en-US')} bytes: the classifier quantized to bytes and the examples' terms`,
  });
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) for (const r of await benchRows()) console.log(`${r.figure}: ${r.value} ${r.unit} (goal ${r.better === 'lower' ? '≤' : '≥'} ${r.goal})${r.detail ? ` — ${r.detail}` : ''}`);
