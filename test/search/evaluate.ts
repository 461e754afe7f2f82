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
}

export interface Evaluation {
  results: TaskResult[];
  all: Figures;
  /** Every held-out task. */
  heldOut: Figures;
  /** Round 1's held-out third. */
  heldOutFirst: Figures;
  /** Each round apart: 1 to 6. */
  rounds: Record<1 | 2 | 3 | 4 | 5 | 6, Figures>;
  /** What the ranking was tuned on: the tasks not held out. */
  tuned: Figures;
}

/** The share of tasks whose expected tool is within the first `n` answers. */
function figures(results: readonly TaskResult[]): Figures {
  const within = (n: number) => results.filter((r) => r.rank !== null && r.rank <= n).length / Math.max(1, results.length);
  return { tasks: results.length, top1: within(1), top3: within(3) };
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
  const round = (n: 1 | 2 | 3 | 4 | 5 | 6) => figures(results.filter((r) => r.task.round === n));
  return {
    results,
    all: figures(results),
    heldOut: figures(results.filter((r) => r.task.heldOut)),
    heldOutFirst: figures(results.filter((r) => r.task.heldOut && r.task.round === 1)),
    rounds: { 1: round(1), 2: round(2), 3: round(3), 4: round(4), 5: round(5), 6: round(6) },
    tuned: figures(results.filter((r) => !r.task.heldOut)),
  };
}

export const percent = (x: number) => `${(x * 100).toFixed(1)} %`;
