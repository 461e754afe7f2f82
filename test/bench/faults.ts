/**
 * The fault matrix (test/faults/matrix.ts) in `npm run bench`: cells passed per platform, each
 * against all of its cells (run.ts picks this module up by its benchRows()). About 50 s.
 */
import { measureFaultMatrix } from '../faults/bench';
import type { BenchRow } from './rows';

export async function benchRows(): Promise<BenchRow[]> {
  return (await measureFaultMatrix()).map((r) => ({
    figure: `fault matrix, ${r.platform}: cells passed`,
    value: r.passed,
    unit: 'cells',
    goal: r.total,
    better: 'higher' as const,
    detail: r.failures.length ? r.failures.join(' | ') : `${r.passed} of ${r.total}`,
  }));
}
