import { platforms } from '../../infra/local/platforms';
import { loadConfig } from '../../shared/config';
import { createRuntime } from '../../shared/runtime';
import { catalog } from '../../shared/schemas/catalog';
import { buildIndex, searchIndex } from '../../shared/search';
import { MemoryStore } from '../../shared/store/memory';
import { evaluate, percent } from './evaluate';
const rt = await createRuntime({ platforms, config: loadConfig({}), store: new MemoryStore() });
const entries = await catalog(rt.registry);
const index = buildIndex(entries, Object.fromEntries([...rt.registry.platforms.values()].map((p) => [p.name, p.vendor])));
if (process.argv[2] === 'tools') { for (const e of entries) console.log(`${e.platform}/${e.name}: ${(e as any).description?.split('\n')[0]?.slice(0,110)}`); process.exit(0); }
const ev = await evaluate(async (q) => searchIndex(index, q, 3).map((h) => `${h.entry.platform}/${h.entry.name}`));
for (const [k,f] of [['all',ev.all],['heldOut',ev.heldOut],['heldOutFirst',ev.heldOutFirst],['r2',ev.rounds[2]],['r3',ev.rounds[3]],['r4',ev.rounds[4]],['r5',ev.rounds[5]],['r6',ev.rounds[6]],['tuned',ev.tuned]] as const) console.log(k, f.tasks, percent(f.top1), percent(f.top3));
for (const r of ev.results) if (r.rank !== 1 && process.argv[2] === 'misses') console.log(r.task.round, r.rank, JSON.stringify(r.task.query), r.task.expect.join(','), '→', r.top.join(' '));
