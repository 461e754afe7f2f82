/**
 * A figure a platform's bench module (test/bench/<platform>.ts, `export async function benchRows()`)
 * reports; run.ts prints each beside its goal. Token rows compare the tool's text with the vendor's
 * raw JSON for the same data; batch rows compare wall time with the floor the module documents.
 */
export interface BenchRow {
  /** What was measured, e.g. "filterItems text, 100 items: tokens vs Podio raw JSON". */
  figure: string;
  value: number;
  /** How value reads: "×", "ms", "tokens". */
  unit: string;
  goal: number;
  /** 'higher': value must be ≥ goal (a ratio of fewer tokens); 'lower': ≤ goal (time, size). */
  better: 'higher' | 'lower';
  /** The raw figures behind value, e.g. "10,316 vs 79,786 tokens". */
  detail?: string;
  /**
   * Shown beside its goal for reference only, not held to it: a figure that no longer measures
   * what the goal is about (a tool-search round tuned on since it was measured is no blind test).
   */
  reference?: true;
}
