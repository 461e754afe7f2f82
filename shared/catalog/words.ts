/**
 * The words of requests and tools as the ranking reads them: stopwords out, one spelling for what
 * two vendors name alike, light stemming. Shared by the lexical index (search.ts) and the model
 * trained on the examples (search-model.ts).
 */

export const STOPWORDS = new Set(
  (
    'a an the to of in on at by for from with and or is are be been was were it its this that these those my me i we our you your all any some into as do does can could would should how what which who whom when where why ' +
    'there their them they has have had will not no so but if then than also just only each every other please want need like let e g eg etc ie via per id ids'
  ).split(' '),
);

/**
 * Words two vendors use for one thing, read as one word everywhere (tool names included), so that
 * neither vendor's tools win on the spelling alone.
 */
export const SAME_WORD: Record<string, string> = { webhook: 'hook', webhooks: 'hooks' };

/** Light English stemming: enough to meet "properties"/"property", "comments"/"commenting", "expire"/"expiration". */
export function stem(word: string): string {
  if (word.length <= 3) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith('es') && /(ss|sh|ch|x)es$/.test(word)) return word.slice(0, -2);
  // The -ate verbs and their nouns: activate, activated, activation and active all "activ";
  // comparable and compared "compar"; relatable, related and relation "rel".
  const ate = /(?:ations?|ates?|ated|ating)$/.exec(word);
  if (ate && word.length - ate[0].length >= 3 && word.length > 5) return word.slice(0, -ate[0].length);
  if (word.endsWith('able') && word.length > 7) return word.slice(0, word.endsWith('atable') ? -6 : -4);
  if (word.endsWith('ing') && word.length > 5) return word.slice(0, -3);
  if (word.endsWith('ed') && word.length > 4) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss')) return dropE(word.slice(0, -1));
  return dropE(word);
}

/** "share", "shares", "shared" and "sharing" all end up "shar". */
function dropE(w: string): string {
  return w.length > 4 && w.endsWith('e') ? w.slice(0, -1) : w;
}

/** Words of a text or an identifier: camelCase and snake_case split, lower-cased, stemmed, stopwords out. */
export function tokenize(text: string): string[] {
  return rawWords(text).map(stem);
}

/** tokenize() before stemming. */
export function rawWords(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1 && !STOPWORDS.has(w))
    .map((w) => SAME_WORD[w] ?? w);
}

/** The first sentence of a description: what a search result shows, and what the search model learns of a tool beside its examples. */
export function firstSentence(description: string): string {
  return description.split(/(?<=\.)\s(?=[A-Z])/)[0]!;
}
