import { describe, expect, it } from 'vitest';
import { platforms } from '../../infra/local/platforms';
import { registryExamples } from '../../shared/catalog/search-data';
import { createRegistry } from '../../shared/core/registry';
import { EVAL_SET, LOCKED_ROUNDS, type SearchTask } from './eval-set';
import { nearCopies, normalize } from './overlap';

/**
 * The example requests the search model learns from (functions/<p>/search-examples.json): enough
 * of them for every tool, none asked for two tools, and none that is (or nearly is) a request of an
 * evaluation round, so a round measures requests the model never saw.
 */
const registry = createRegistry(platforms);
const examples = (await registryExamples(registry))!;
const all = [...examples].flatMap(([tool, list]) => list.map((query) => ({ tool, query })));

describe('example requests per tool', () => {
  it('gives every tool of every platform at least 40, and none to a tool that does not exist', async () => {
    const tools: string[] = [];
    for (const p of registry.platforms.values()) for (const t of await registry.list(p)) tools.push(`${p.name}/${t.name}`);
    const few = tools.filter((t) => (examples.get(t)?.length ?? 0) < 40);
    expect(few, 'tools with fewer than 40 examples').toEqual([]);
    expect([...examples.keys()].filter((t) => !tools.includes(t)), 'examples of unknown tools').toEqual([]);
  });

  it('never gives one request (case, spacing and digits aside) to two tools, or twice to one', () => {
    const seen = new Map<string, string>();
    const twice: string[] = [];
    for (const { tool, query } of all) {
      const k = normalize(query);
      if (seen.has(k)) twice.push(`${query} (${seen.get(k)} and ${tool})`);
      seen.set(k, tool);
    }
    expect(twice).toEqual([]);
  });

  const rounds: [string, readonly SearchTask[]][] = [['rounds 1-6', EVAL_SET], ...LOCKED_ROUNDS.map((r): [string, readonly SearchTask[]] => [`locked round ${r.round}`, r.tasks])];
  it.each(rounds)('holds no request of %s, nor a near copy of one (word trigrams)', (_name, tasks) => {
    const pool = all.map((e) => e.query);
    // Only the example is named: a locked round's requests stay unread until it is measured.
    const copies = nearCopies(tasks.map((t) => t.query), pool).map((c) => `${pool[c.match]} (${Math.round(c.overlap * 100)} % of its trigrams)`);
    expect(copies).toEqual([]);
  });

  it('finds a near copy where there is one: the check can fail', () => {
    expect(nearCopies(['please delete file 4411 from the Payroll folder now'], ['delete file 9902 from the payroll folder now', 'rename a folder'])).toEqual([
      { probe: 0, match: 0, overlap: 1 },
    ]);
    expect(nearCopies(['rename the Payroll folder to Salaries'], ['delete file 9902 from the payroll folder now'])).toEqual([]);
  });
});
