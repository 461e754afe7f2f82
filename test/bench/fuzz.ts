/**
 * The fuzz suite (test/fuzz) in `npm run bench`: cases run and failures, from one run of the suite
 * as CI runs it (vitest in a child process, the default seed and FUZZ_RUNS). run.ts picks this
 * module up by its benchRows(). About a minute.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { BenchRow } from './rows';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** One line per worker of the suite: "fuzz (seed S, FUZZ_RUNS R): T tools, C calls: …" (test/fuzz/suite.ts). */
const SUMMARY = /fuzz \(seed (\d+), FUZZ_RUNS (\d+)\): (\d+) tools, (\d+) calls/g;

function runSuite(): Promise<{ output: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [`${root}node_modules/vitest/vitest.mjs`, 'run', 'test/fuzz'], { cwd: root, env: { ...process.env, NO_COLOR: '1' } });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ output, code }));
  });
}

export async function benchRows(): Promise<BenchRow[]> {
  const { output, code } = await runSuite();
  let tools = 0;
  let calls = 0;
  let seed = '';
  for (const m of output.matchAll(SUMMARY)) {
    seed = `seed ${m[1]}, FUZZ_RUNS ${m[2]}`;
    tools += Number(m[3]);
    calls += Number(m[4]);
  }
  const failed = /Tests\s+(\d+) failed/.exec(output);
  const failures = failed ? Number(failed[1]) : code === 0 ? 0 : Number.NaN;
  return [
    {
      figure: 'fuzz suite: failing tools and checks (every tool of every platform)',
      value: failures,
      unit: 'failures',
      goal: 0,
      better: 'lower',
      detail: `${calls.toLocaleString('en-US')} calls over ${tools} tools (${seed})`,
    },
  ];
}
