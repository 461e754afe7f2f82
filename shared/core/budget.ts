import { ToolError } from './errors';

/**
 * Token budgets (`?max_tokens=N`): a text answer cut to fit N tokens, lists at a whole
 * entry with the standard footer, a single entity line by line with a note of what was left out.
 *
 * Tokens are estimated, not counted: a real tokenizer's vocabulary is megabytes (the Lambda bundle
 * budget is 700 KB). The estimate splits text the way GPT tokenizers pre-split it (letters,
 * numbers of up to 3 digits, punctuation runs, whitespace) and charges each piece an upper bound of
 * what BPE makes of it; test/safety/budget.test.ts holds it against gpt-tokenizer (cl100k and
 * o200k) on every tool's example text and on adversarial strings (ids, base64, emoji, CJK): it never
 * undercounts.
 */

/** Below this nothing useful fits (an entry and the footer saying how to get the rest). */
export const MIN_MAX_TOKENS = 100;
export const MAX_MAX_TOKENS = 1_000_000;

// The pre-tokenizer split of cl100k/o200k, simplified: the pieces BPE never merges across.
const PIECE = /[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+/gu;
const utf8 = new TextEncoder();

/**
 * A run of one case: a word-like one (no 4 consonants in a row) costs at most one token per two
 * letters plus one, even when made up (measured against pronounceable nonsense); others (codes,
 * consonant runs) up to a token a letter.
 */
function segmentCost(seg: string): number {
  const n = seg.length;
  if (/[bcdfghjklmnpqrstvwxz]{4}/i.test(seg)) return n;
  if (n > 12) return Math.ceil(n * 0.6) + 1;
  return Math.min(n, Math.ceil((n + 1) / 2) + (n >= 8 ? 1 : 0));
}

function pieceCost(piece: string): number {
  // Outside ASCII, one token per UTF-8 byte is the hard upper bound of byte-level BPE.
  // eslint-disable-next-line no-control-regex
  if (/[^\x00-\x7f]/.test(piece)) return utf8.encode(piece).length;
  const first = piece[0]!;
  if (/[A-Za-z]/.test(piece)) {
    const lead = /[A-Za-z ]/.test(first) ? 0 : 1;
    // Case changes split a run the way the o200k pre-tokenizer does (workspaceId → workspace, Id).
    let n = lead;
    for (const seg of piece.match(/[A-Z]?[a-z]+|[A-Z]+(?![a-z])/g) ?? []) n += segmentCost(seg);
    return n;
  }
  if (/^[0-9]+$/.test(piece)) return 1;
  if (/^\s+$/.test(piece)) return Math.max(1, (piece.match(/\n/g) ?? []).length);
  // Punctuation: one token per character at most (a leading space joins the first).
  return piece.replace(/^ /, '').replace(/[\r\n]+$/, '').length + (/[\r\n]$/.test(piece) ? 1 : 0);
}

/** An upper bound of the tokens a GPT tokenizer makes of `text`. */
export function estimateTokens(text: string): number {
  let n = 0;
  for (const m of text.matchAll(PIECE)) n += pieceCost(m[0]);
  return n;
}

/** `max_tokens` from a query string or an event field; undefined when absent. */
export function parseMaxTokens(raw: unknown): number | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (!Number.isInteger(n) || n < MIN_MAX_TOKENS || n > MAX_MAX_TOKENS) {
    const shown = typeof raw === 'string' ? `"${raw.slice(0, 40)}"` : String(raw).slice(0, 40);
    throw new ToolError('INVALID_PARAMETER', `"max_tokens" must be a whole number from ${MIN_MAX_TOKENS} (the least that holds an entry and the footer) to ${MAX_MAX_TOKENS.toLocaleString('en-US')}; got ${shown}.`, {
      parameter: 'max_tokens',
      expected: `integer ${MIN_MAX_TOKENS}-${MAX_MAX_TOKENS}`,
      minimum: MIN_MAX_TOKENS,
    });
  }
  return n;
}

const FOOTER = /^(showing [\d,]+|no [a-z]|[\d,]+ [a-z])/;
const count = (n: number) => n.toLocaleString('en-US');
// Page-size inputs the tools use, in order of preference, for "pass limit K" when a list cannot
// resume mid-page (cursors): a page of K then fits, and its own footer pages on.
const OFFSETS = ['offset', 'skip'];
const LIMITS = ['limit', 'take', 'page_size', 'per_page', 'max_results', 'count'];

/** The text of a call cut to `maxTokens` (estimated); unchanged when it fits. */
export function fitText(text: string, maxTokens: number, input: unknown): string {
  const whole = estimateTokens(text);
  if (whole <= maxTokens) return text;
  const lines = text.split('\n');
  const last = lines[lines.length - 1]!;
  if (lines.length >= 2 && FOOTER.test(last)) {
    const cut = fitList(lines.slice(0, -1), last, maxTokens, whole, (input ?? {}) as Record<string, unknown>);
    if (cut !== undefined) return cut;
  }
  return fitEntity(lines, maxTokens, whole);
}

/**
 * A list: whole entries (a line, with the indented lines under it) from the top, then the
 * standard footer with how to get the rest. Undefined when not even one entry fits.
 */
function fitList(body: string[], footer: string, max: number, whole: number, input: Record<string, unknown>): string | undefined {
  const entries: string[][] = [];
  for (const line of body) {
    if (/^\s/.test(line) && entries.length) entries[entries.length - 1]!.push(line);
    else entries.push([line]);
  }
  const shownOf = /^showing ([\d,]+) of ([\d,]+)/.exec(footer);
  const counted = /^([\d,]+) [a-z]/.exec(footer);
  const total = shownOf ? Number(shownOf[2]!.replace(/,/g, '')) : counted ? Number(counted[1]!.replace(/,/g, '')) : entries.length;
  const footerFor = (k: number) => {
    const offsetKey = OFFSETS.find((key) => typeof input[key] === 'number');
    const limitKey = LIMITS.find((key) => typeof input[key] === 'number');
    const how = offsetKey
      ? `pass ${offsetKey} ${(input[offsetKey] as number) + k} for more`
      : limitKey
        ? `pass ${limitKey} ${k} for pages that fit`
        : `pass max_tokens ${whole} for all`;
    return `showing ${count(k)} of ${count(total)} — ${how} (cut to fit max_tokens ${max})`;
  };
  let used = 0;
  let k = 0;
  // Each entry's cost is counted once; the footer is re-estimated for the candidate count.
  for (const entry of entries) {
    const cost = estimateTokens(`${entry.join('\n')}\n`);
    if (used + cost + estimateTokens(footerFor(k + 1)) > max) break;
    used += cost;
    k += 1;
  }
  if (k === 0) return undefined;
  return [...entries.slice(0, k).flat(), footerFor(k)].join('\n');
}

/** Fields of a detail line, as the tools write them (docs/architecture.md#text-output): `Amount: 93500 · Stage: Won`. */
const FIELD_SEPARATOR = ' · ';
const labelOf = (part: string) => /^\s*([^:]{1,30}):\s/.exec(part)?.[1]?.trim();

/**
 * One entity: its lines from the top and, in the line that does not fit, its fields one by one;
 * then a note naming what was left out. A first field too long for any budget is cut at a character.
 */
function fitEntity(lines: string[], max: number, whole: number): string {
  const noteFor = (dropped: string[], named = true) => {
    const labels = named ? dropped.map(labelOf).filter((l): l is string => !!l) : [];
    const names = labels.length ? ` (${labels.slice(0, 6).join(', ')}${labels.length > 6 ? ', …' : ''})` : '';
    return `… cut to fit max_tokens ${max}: ${count(dropped.length)} more field${dropped.length === 1 ? '' : 's'} or line${dropped.length === 1 ? '' : 's'} left out${names}; max_tokens ${whole} shows all`;
  };
  // What is left out, as parts: the rest of the current line's fields, then every later line's.
  const partsAfter = (i: number, fieldsOfLine: string[]) => [...fieldsOfLine, ...lines.slice(i + 1).flatMap((l) => l.split(FIELD_SEPARATOR))];
  // The kept lines with the note naming what is left out, or, when that is too long, the note without the names.
  const withNote = (kept: string[], dropped: string[]): string | undefined => {
    for (const named of [true, false]) {
      const text = [...kept, noteFor(dropped, named)].join('\n');
      if (estimateTokens(text) <= max) return text;
    }
    return undefined;
  };
  const fits = (kept: string[], dropped: string[]) => withNote(kept, dropped) !== undefined;

  const kept: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (fits([...kept, lines[i]!], partsAfter(i, []))) {
      kept.push(lines[i]!);
      continue;
    }
    const fields = lines[i]!.split(FIELD_SEPARATOR);
    let n = 0;
    while (n < fields.length && fits([...kept, fields.slice(0, n + 1).join(FIELD_SEPARATOR) + ' …'], partsAfter(i, fields.slice(n + 1)))) n++;
    if (n > 0) return withNote([...kept, `${fields.slice(0, n).join(FIELD_SEPARATOR)} …`], partsAfter(i, fields.slice(n)))!;
    if (kept.length > 0) return withNote(kept, partsAfter(i, fields))!;
    // Not even the first field fits: keep as much of it as does, cut at a character.
    const first = fields[0]!;
    const dropped = partsAfter(i, fields.slice(1));
    let lo = 0;
    let hi = first.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (fits([`${first.slice(0, mid)}…`], dropped)) lo = mid;
      else hi = mid - 1;
    }
    return withNote([`${first.slice(0, lo)}…`], dropped) ?? noteFor(dropped, false);
  }
  return kept.join('\n');
}
