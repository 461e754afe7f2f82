/**
 * How the fusion's weights (shared/catalog/search.ts, FUSION) and the training settings are
 * chosen: the model trained on four fifths of the example requests, the other fifth held out, then
 * the held-out fifth and the rounds of the evaluation set ranked under each weighting. Rounds
 * 1-7 are what is tuned on; round 8 is printed apart as the check that a change generalises (it
 * was held out while the ranking was tuned after rounds 7 and 8 were measured). A locked round
 * not retired is left out.
 * `npx tsx test/search/tune.ts '[{"lexical":0.8,…}]'` (trains once per change of the examples or the
 * training; the split model is cached like the full one); `TRAIN='{"dim":48}'` trains with other
 * settings (TrainOptions) to compare them.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { platforms } from '../../infra/local/platforms';
import { catalog } from '../../shared/catalog/catalog';
import { buildIndex, FUSION, searchIndex, type Fusion } from '../../shared/catalog/search';
import { registryExamples, toolSummaries } from '../../shared/catalog/search-data';
import { buildSearchModel, searchModelDocument, searchModelFromDocument, TRAINING, type SearchModelDocument, type TrainOptions } from '../../shared/catalog/search-model';
import { loadConfig } from '../../shared/core/config';
import { createRuntime } from '../../shared/lambda/runtime';
import { MemoryStore } from '../../shared/store/memory';
import { EVAL_SET, LOCKED_ROUNDS } from './eval-set';

const rt = await createRuntime({ platforms, config: loadConfig({}), store: new MemoryStore() });
const entries = await catalog(rt.registry);
const tools = entries.map((e) => `${e.platform}/${e.name}`).sort();
const summaries = toolSummaries(entries);
const all = (await registryExamples(rt.registry))!;
const train = new Map<string, string[]>();
const dev: { query: string; expect: readonly string[]; part: string }[] = [];
for (const [tool, list] of all) {
  train.set(tool, list.filter((_, i) => i % 5 !== 2));
  list.forEach((query, i) => i % 5 === 2 && dev.push({ query, expect: [tool], part: 'examples' }));
}
// Only retired locked rounds: a round still blind is measured once, by test/bench/search.ts, never here.
for (const t of [...EVAL_SET, ...LOCKED_ROUNDS.filter((r) => r.retired).flatMap((r) => r.tasks)]) dev.push({ query: t.query, expect: t.expect, part: t.round <= 6 ? 'rounds 1-6' : `round ${t.round}` });

const options = JSON.parse(process.env.TRAIN ?? '{}') as TrainOptions;
const key = createHash('sha256').update(JSON.stringify([TRAINING, options, tools, tools.map((t) => [summaries.get(t), train.get(t) ?? []])])).digest('hex').slice(0, 24);
const cache = join(process.cwd(), 'node_modules', '.cache', 'tool-search', `tune-split-${key}.json`);
let doc: SearchModelDocument;
try {
  doc = JSON.parse(await readFile(cache, 'utf8')) as SearchModelDocument;
} catch {
  doc = searchModelDocument(buildSearchModel(tools, train, options, summaries));
  await mkdir(join(cache, '..'), { recursive: true });
  await writeFile(cache, JSON.stringify(doc));
}
const model = searchModelFromDocument(doc);
const vendors = Object.fromEntries(platforms.map((p) => [p.name, p.vendor]));
const cues = Object.fromEntries(platforms.map((p) => [p.name, p.search?.cues ?? []]));

function measure(fusion: Fusion): string {
  const index = buildIndex(entries, vendors, { cues, model, fusion });
  const parts = new Map<string, [number, number, number]>();
  for (const d of dev) {
    const found = searchIndex(index, d.query, 3).map((h) => `${h.entry.platform}/${h.entry.name}`);
    const rank = found.findIndex((t) => d.expect.includes(t));
    const a = parts.get(d.part) ?? [0, 0, 0];
    a[0]++;
    if (rank === 0) a[1]++;
    if (rank >= 0) a[2]++;
    parts.set(d.part, a);
  }
  return [...parts].map(([k, [n, t1, t3]]) => `${k} ${((100 * t1) / n).toFixed(1)}/${((100 * t3) / n).toFixed(1)}`).join(' | ');
}

const variants: Fusion[] = process.argv[2] ? (JSON.parse(process.argv[2]) as Fusion[]) : [FUSION];
for (const f of variants) console.log(JSON.stringify(f), '→', measure(f));
