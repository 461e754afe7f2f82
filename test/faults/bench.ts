/**
 * The bench figure "fault-matrix cells passed per platform". `npm run bench` can call
 * `measureFaultMatrix()` and print its rows; alone: `npx tsx test/faults/bench.ts` (exit 1 if a
 * cell failed).
 */
import { fileURLToPath } from 'node:url';
import { passedPerPlatform, runMatrix, type CellResult } from './matrix';

export interface FaultMatrixRow {
  platform: string;
  passed: number;
  total: number;
  /** "write once: 503: code …" for each cell that did not hold. */
  failures: string[];
}

export async function measureFaultMatrix(): Promise<FaultMatrixRow[]> {
  const results: CellResult[] = await runMatrix();
  const counts = passedPerPlatform(results);
  return Object.entries(counts).map(([platform, c]) => ({
    platform,
    ...c,
    failures: results.filter((r) => r.platform === platform && !r.passed).map((r) => `${r.mode}: ${r.cell}: ${r.problems.join('; ')}`),
  }));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = await measureFaultMatrix();
  for (const r of rows) {
    console.log(`fault matrix ${r.platform.padEnd(8)} ${r.passed}/${r.total} cells passed`);
    for (const f of r.failures) console.log(`  ✗ ${f}`);
  }
  process.exitCode = rows.every((r) => r.passed === r.total) ? 0 : 1;
}
