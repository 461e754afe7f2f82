/**
 * Near copies between two sets of requests: word trigrams (lower case, digits as 0) of each, and
 * the share of the shorter one's trigrams the other holds. Keeps the example requests
 * (functions/<p>/search-examples.json) and the evaluation rounds apart (test/search/examples.test.ts).
 */
export const normalize = (text: string) => text.toLowerCase().replace(/\d/g, '0').replace(/[^a-z0-9#@.:/-]+/g, ' ').trim();

function trigrams(text: string): string[] {
  const words = normalize(text).split(' ').filter(Boolean);
  if (words.length < 3) return [words.join(' ')];
  const out = new Set<string>();
  for (let i = 0; i + 3 <= words.length; i++) out.add(words.slice(i, i + 3).join(' '));
  return [...out];
}

/** A near copy: this share of the shorter request's trigrams in the other, or more. */
export const NEAR_COPY = 0.75;

/** Each request of `probes` with its nearest of `pool` where that is a near copy (or the same request). */
export function nearCopies(probes: readonly string[], pool: readonly string[]): { probe: number; match: number; overlap: number }[] {
  const grams = pool.map(trigrams);
  const byGram = new Map<string, number[]>();
  grams.forEach((g, i) => {
    for (const t of g) {
      let list = byGram.get(t);
      if (!list) byGram.set(t, (list = []));
      list.push(i);
    }
  });
  const found: { probe: number; match: number; overlap: number }[] = [];
  probes.forEach((text, probe) => {
    const g = trigrams(text);
    const shared = new Map<number, number>();
    for (const t of g) for (const i of byGram.get(t) ?? []) shared.set(i, (shared.get(i) ?? 0) + 1);
    let best: { match: number; overlap: number } | undefined;
    for (const [i, n] of shared) {
      const overlap = n / Math.min(g.length, grams[i]!.length);
      if (overlap >= NEAR_COPY && (!best || overlap > best.overlap)) best = { match: i, overlap };
    }
    if (best) found.push({ probe, ...best });
  });
  return found;
}
