/**
 * Time bounds measured as ratios: the median of a few runs of a hostile call against a benign call
 * of the same size in the same process, so a slow or busy machine slows both alike.
 */
export async function medianMs(fn: () => unknown, runs = 5): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await fn();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(runs / 2)]!;
}

/**
 * The hostile call's median over the benign one's. A floor of 1 ms under the benign time keeps a
 * call too quick to measure from turning timer noise into a large ratio.
 */
export async function slowdown(hostile: () => unknown, benign: () => unknown, runs = 5): Promise<number> {
  await benign(); // warm both paths before timing
  await hostile();
  const b = await medianMs(benign, runs);
  const h = await medianMs(hostile, runs);
  return h / Math.max(b, 1);
}
