import { readFileSync } from 'node:fs';
import { encode as o200k } from 'gpt-tokenizer/encoding/o200k_base';
import { encode as cl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { describe, expect, it } from 'vitest';
import { localPlatforms } from '../../infra/local/platforms';
import { estimateTokens, fitText, MIN_MAX_TOKENS } from '../../shared/core/budget';
import { prng } from '../../infra/twins/kit/prng';
import { harness } from '../helpers/harness';

/** `?max_tokens=N`: the estimate never undercounts a real tokenizer; answers cut to fit, at whole entries. */

const realTokens = (s: string) => Math.max(o200k(s).length, cl100k(s).length);

/** Every tool's example text, of every registered platform (what the service really answers). */
async function exampleTexts(): Promise<string[]> {
  const out: string[] = [];
  for (const p of localPlatforms) {
    for (const load of Object.values(p.platform.tools)) {
      const tool = await load();
      out.push(tool.text(tool.example.result, tool.input.parse(tool.example.input)));
    }
  }
  return out;
}

/** Strings that tokenize badly: ids, cursors, hashes, random ASCII, pronounceable nonsense, scripts, emoji. */
function adversarial(): string[] {
  const rnd = prng(1313).next;
  const pick = (alphabet: string, n: number) => Array.from({ length: n }, () => alphabet[Math.floor(rnd() * alphabet.length)]).join('');
  const out: string[] = [];
  for (let i = 0; i < 200; i++) {
    const seed = Buffer.from(Array.from({ length: 48 }, () => Math.floor(rnd() * 256)));
    out.push(seed.toString('base64'), seed.toString('hex'), seed.toString('base64url'));
    out.push(pick('abcdefghijklmnopqrstuvwxyz', 5 + (i % 40)));
    out.push(pick('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', 8 + (i % 30)));
    out.push(pick('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~ ', 10 + (i % 20)));
    let word = '';
    for (let j = 0; j < 2 + (i % 14); j++) word += j % 2 ? pick('aeiou', 1) : pick('bcdfghjklmnprstvwz', 1);
    out.push(word, ` ${word}`, word[0]!.toUpperCase() + word.slice(1));
  }
  out.push(
    '日本語のテキストと漢字 한국어 텍스트 Ελληνικά русский текст عربى עברית',
    '👍🏽 🇯🇵 👨‍👩‍👧 🚀🚀🚀 ✅ → ← ≥ ≤ — – … · •',
    'Grüße café naïve façade Ærø Łódź São Paulo',
    '    indented\n\n\n   \t x\r\n\r\n',
    'a'.repeat(500),
    '-'.repeat(80),
    '0123456789'.repeat(20),
    'https://tapeapp.com/tape/record/5300?view=88123&filter=%7B%22a%22%3A1%7D',
  );
  return out;
}

describe('token estimate', () => {
  it('never undercounts gpt-tokenizer (cl100k and o200k) on every tool example text and adversarial strings', async () => {
    const texts = [...(await exampleTexts()), ...adversarial()];
    // The repository's own prose too.
    texts.push(readFileSync('README.md', 'utf8'));
    const under = texts.map((t) => ({ t: t.slice(0, 80), real: realTokens(t), est: estimateTokens(t) })).filter((x) => x.est < x.real);
    expect(under).toStrictEqual([]);
  });

  it('stays a usable bound on real answers (within 2.5× of o200k over all example texts)', async () => {
    const texts = await exampleTexts();
    const est = texts.reduce((n, t) => n + estimateTokens(t), 0);
    const real = texts.reduce((n, t) => n + o200k(t).length, 0);
    expect(est / real).toBeLessThan(2.5);
    expect(est / real).toBeGreaterThanOrEqual(1);
  });
});

describe('fitText', () => {
  const list = Array.from({ length: 40 }, (_, i) => `#${1000 + i} Deal number ${i} · Amount: ${i * 250} · Stage: Proposal`).join('\n');

  it('leaves a text that fits unchanged', () => {
    const text = `${list}\n40 records`;
    expect(fitText(text, estimateTokens(text), {})).toBe(text);
  });

  it('cuts a list at a whole entry with the standard footer; offset-paged lists say where to go on', () => {
    const text = `${list}\nshowing 40 of 1,240 — pass offset 40 for the next page`;
    const out = fitText(text, 200, { offset: 0, limit: 40 });
    expect(estimateTokens(out)).toBeLessThanOrEqual(200);
    const lines = out.split('\n');
    const footer = lines.pop()!;
    const k = lines.length;
    expect(k).toBeGreaterThan(0);
    expect(lines).toStrictEqual(list.split('\n').slice(0, k));
    expect(footer).toBe(`showing ${k} of 1,240 — pass offset ${k} for more (cut to fit max_tokens 200)`);
    // From offset 80 the next offset counts from there.
    expect(fitText(text, 200, { offset: 80 }).split('\n').pop()).toBe(`showing ${k} of 1,240 — pass offset ${80 + k} for more (cut to fit max_tokens 200)`);
  });

  it('a cursor-paged list says which page size fits; one without paging names the max_tokens for all', () => {
    const text = `${list}\nshowing 40 of 1,240 — pass cursor "abc" for the next page`;
    const footer = fitText(text, 200, { limit: 40 }).split('\n').pop()!;
    expect(footer).toMatch(/^showing (\d+) of 1,240 — pass limit \1 for pages that fit \(cut to fit max_tokens 200\)$/);
    const plain = `${list}\n40 records`;
    expect(fitText(plain, 200, {}).split('\n').pop()).toMatch(new RegExp(`^showing \\d+ of 40 — pass max_tokens ${estimateTokens(plain)} for all`));
  });

  it('keeps an entry with its indented lines together', () => {
    const entries = Array.from({ length: 20 }, (_, i) => `#${i} Item ${i}\n  detail one of ${i}\n  detail two of ${i}`).join('\n');
    const out = fitText(`${entries}\n20 items`, 120, {});
    const lines = out.split('\n').slice(0, -1);
    expect(lines.length % 3).toBe(0);
    expect(lines.at(-1)).toMatch(/^ {2}detail two of \d+$/);
  });

  it('trims a single entity field by field and names what was left out', () => {
    const entity = ['#5300 Copperline Media (app #902)', 'Deal name: Copperline Media · Lead: Jonas Moreau · Amount: 93500 · Stage: Proposal · Priority: High · Close date: 2025-04-17 · Account manager: John Doe', 'Notes: Decision maker: CFO. Wants a 12-month term.'].join('\n');
    const out = fitText(entity, 110, {});
    expect(estimateTokens(out)).toBeLessThanOrEqual(110);
    const [head, partial, note] = out.split('\n');
    expect(head).toBe('#5300 Copperline Media (app #902)');
    expect(partial).toMatch(/^Deal name: Copperline Media( · [^·]+)* …$/);
    expect(note).toMatch(new RegExp(`^… cut to fit max_tokens 110: \\d+ more fields or lines left out.*; max_tokens ${estimateTokens(entity)} shows all$`));
  });

  it('cuts even a single over-long line to fit, at a character', () => {
    const out = fitText('x'.repeat(5000), MIN_MAX_TOKENS, {});
    expect(estimateTokens(out)).toBeLessThanOrEqual(MIN_MAX_TOKENS);
    expect(out).toMatch(/^x+…\n… cut to fit/);
  });
});

describe('?max_tokens through HTTP', () => {
  it('cuts a real list answer (realty/searchProperties) at a whole entry; the footer pages by skip', async () => {
    const h = await harness();
    const full = await h.call('realty/searchProperties', { query: 'Phoenix, AZ', take: 20 });
    const cut = await h.call('realty/searchProperties', { query: 'Phoenix, AZ', take: 20 }, { query: 'max_tokens=300' });
    expect(cut.status).toBe(200);
    expect(realTokens(cut.body.data)).toBeLessThanOrEqual(300);
    const lines = cut.body.data.split('\n');
    const footer = lines.pop();
    expect(lines).toStrictEqual(full.body.data.split('\n').slice(0, lines.length));
    expect(footer).toBe(`showing ${lines.length} of 2,000 — pass skip ${lines.length} for more (cut to fit max_tokens 300)`);
  });

  it('trims a single entity (dbapp/getRecord) with a note; a budget that fits changes nothing', async () => {
    const h = await harness();
    const full = await h.call('dbapp/getRecord', { record_id: 5300 });
    const cut = await h.call('dbapp/getRecord', { record_id: 5300 }, { query: 'max_tokens=150' });
    expect(realTokens(cut.body.data)).toBeLessThanOrEqual(150);
    expect(cut.body.data).toMatch(/\n… cut to fit max_tokens 150: \d+ more fields or lines left out/);
    expect(cut.body.data.startsWith(full.body.data.split('\n')[0].slice(0, 20))).toBe(true);
    const roomy = await h.call('dbapp/getRecord', { record_id: 5300 }, { query: 'max_tokens=100000' });
    expect(roomy.body).toStrictEqual(full.body);
  });

  it.each([
    [String(MIN_MAX_TOKENS - 1), 'below the minimum'],
    ['0', 'zero'],
    ['12.5', 'a fraction'],
    ['lots', 'not a number'],
    ['10000000', 'above the maximum'],
  ])('max_tokens=%s (%s) → INVALID_PARAMETER naming max_tokens and the minimum; nothing sent', async (raw) => {
    const h = await harness();
    const sent = h.recordRequests('dbapp');
    const r = await h.call('dbapp/getRecord', { record_id: 5300 }, { query: `max_tokens=${raw}` });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'max_tokens', minimum: MIN_MAX_TOKENS } });
    expect(r.body.error.message).toContain(String(MIN_MAX_TOKENS));
    expect(sent).toStrictEqual([]);
  });

  it('with format=json → INVALID_PARAMETER: structured results are never cut', async () => {
    const h = await harness();
    const r = await h.call('dbapp/getRecord', { record_id: 5300 }, { query: 'max_tokens=500&format=json' });
    expect(r.status).toBe(400);
    expect(r.body.error.details).toMatchObject({ parameter: 'max_tokens' });
  });
});
