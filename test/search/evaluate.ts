import { EVAL_SET, type SearchTask } from './eval-set';

/** Where a task's expected tool came: its 1-based rank among the first `depth` answers, or null. */
export interface TaskResult {
  task: SearchTask;
  rank: number | null;
  /** The first three answers, platform/tool. */
  top: string[];
}

export interface Figures {
  tasks: number;
  top1: number;
  top3: number;
  /** Wilson score intervals (95 %) of top1 and top3. */
  top1Interval: [number, number];
  top3Interval: [number, number];
}

export interface Evaluation {
  results: TaskResult[];
  all: Figures;
  /** Every held-out task. */
  heldOut: Figures;
  /** Round 1's held-out third. */
  heldOutFirst: Figures;
  /** Each round of the tasks apart. */
  rounds: Record<number, Figures>;
  /** What the ranking was tuned on: the tasks not held out. */
  tuned: Figures;
}

/**
 * The Wilson score interval of `k` successes in `n` trials at 95 %
 * (https://en.wikipedia.org/wiki/Binomial_proportion_confidence_interval#Wilson_score_interval):
 * unlike the normal approximation it stays inside 0-1 and is honest near 100 %.
 */
export function wilson(k: number, n: number, z = 1.96): [number, number] {
  if (n === 0) return [0, 1];
  const p = k / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

/** The share of tasks whose expected tool is within the first `n` answers, with its interval. */
export function figures(results: readonly TaskResult[]): Figures {
  const within = (n: number) => results.filter((r) => r.rank !== null && r.rank <= n).length;
  const [k1, k3, n] = [within(1), within(3), results.length];
  return { tasks: n, top1: k1 / Math.max(1, n), top3: k3 / Math.max(1, n), top1Interval: wilson(k1, n), top3Interval: wilson(k3, n) };
}

/** One set's figures whole, per platform (of the expected tool), and its indirect requests apart. */
export function breakdown(results: readonly TaskResult[]): { all: Figures; direct: Figures; indirect: Figures; platforms: Record<string, Figures> } {
  const platforms = [...new Set(results.map((r) => r.task.expect[0]!.split('/')[0]!))].sort();
  return {
    all: figures(results),
    direct: figures(results.filter((r) => !r.task.indirect)),
    indirect: figures(results.filter((r) => r.task.indirect)),
    platforms: Object.fromEntries(platforms.map((p) => [p, figures(results.filter((r) => r.task.expect[0]!.startsWith(`${p}/`)))])),
  };
}

/**
 * Runs every task of the set through `search` (a query → the answer's tools as platform/tool, best
 * first) and scores it: top-1 and top-3 of the whole set, of the held-out tasks, of each round and of
 * what the ranking was tuned on.
 */
export async function evaluate(search: (query: string) => Promise<readonly string[]>, tasks: readonly SearchTask[] = EVAL_SET): Promise<Evaluation> {
  const results: TaskResult[] = [];
  for (const task of tasks) {
    const found = await search(task.query);
    const i = found.findIndex((t) => task.expect.includes(t));
    results.push({ task, rank: i < 0 ? null : i + 1, top: found.slice(0, 3) });
  }
  const rounds = [...new Set(tasks.map((t) => t.round))].sort((a, b) => a - b);
  return {
    results,
    all: figures(results),
    heldOut: figures(results.filter((r) => r.task.heldOut)),
    heldOutFirst: figures(results.filter((r) => r.task.heldOut && r.task.round === 1)),
    rounds: Object.fromEntries(rounds.map((n) => [n, figures(results.filter((r) => r.task.round === n))])),
    tuned: figures(results.filter((r) => !r.task.heldOut)),
  };
}

export const percent = (x: number) => `${(x * 100).toFixed(1)} %`;
