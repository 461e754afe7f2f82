/** Small numeric helpers for the bench: percentiles and fixed formatting. */

/** Nearest-rank percentile (p in 0..100) of unsorted samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) throw new Error('percentile of no samples');
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] as number;
}

export const median = (samples: readonly number[]): number => {
  if (samples.length === 0) throw new Error('median of no samples');
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

/** Rounds to `digits` decimals, for the JSON file. */
export const round = (n: number, digits = 3): number => {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
};

export const bytes = (n: number): string => `${n.toLocaleString('en-US')} B`;
export const kb = (n: number): string => `${(n / 1000).toFixed(1)} KB`;

/** Milliseconds with precision that suits the magnitude. */
export const ms = (n: number): string => `${Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 10 ? n.toFixed(1) : n.toFixed(3)} ms`;

/** Renders rows as aligned columns; the first row is the header. */
export function table(rows: readonly (readonly string[])[], indent = '  '): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  const line = (row: readonly string[]) => indent + row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('   ').trimEnd();
  const [head, ...body] = rows;
  if (!head) return '';
  const rule = indent + widths.map((w) => '-'.repeat(w)).join('   ');
  return [line(head), rule, ...body.map(line)].join('\n');
}
