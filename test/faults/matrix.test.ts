import { describe, expect, it } from 'vitest';
import { FAULT_CELLS, MATRIX_TARGETS, runMatrix } from './matrix';

/**
 * The fault matrix on every registered platform: each cell of test/faults/matrix.ts,
 * one test per platform and fault, its read (once and always) and write cells together.
 */
describe.each(MATRIX_TARGETS.map((t) => [t.platform, t] as const))('fault matrix: %s', (platform, target) => {
  it.each(FAULT_CELLS.map((c) => [c.name] as const))('%s', async (cell) => {
    const results = await runMatrix({ platform, cell });
    expect(results.length).toBe(target.write ? 3 : 2);
    expect(results.filter((r) => !r.passed).map((r) => `${r.mode}: ${r.problems.join('; ')}`)).toEqual([]);
  });
});
