import { performance } from 'node:perf_hooks';
import { encode } from 'gpt-tokenizer';
import { DEMO_LEADS_APP_ID } from '../../infra/twins/tape/demo';
import { harness, SANDBOX_KEYS } from '../helpers/harness';

const UNLIMITED = { env: { RATE_LIMIT_MAX: '100000000' } };

export interface TokenReport {
  records: number;
  textTokens: number;
  rawTokens: number;
  ratio: number;
  /** Non-empty scalar values of the raw JSON that the text does not show. */
  missing: string[];
}

/**
 * What a reader needs of Tape's values: the displayed value of each field value (text, category
 * text, user name, relation title, date, link, checklist title). Derived data (UTC copies, split
 * address parts, coordinates, colours, ids, user mail lists) is left out of the check.
 */
const SHOWN_KEYS = new Set(['value', 'text', 'name', 'title', 'start_date', 'end_date', 'url']);
function valuesOf(node: unknown, key = '', out: string[] = []): string[] {
  if (Array.isArray(node)) for (const v of node) valuesOf(v, key, out);
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) if (k !== 'mail' && k !== 'created_by') valuesOf(v, k, out);
  } else if (SHOWN_KEYS.has(key) && typeof node === 'string' && node.trim() !== '') {
    out.push(node.replace(/<[^>]+>/g, '').trim());
  } else if (SHOWN_KEYS.has(key) && typeof node === 'number') {
    out.push(String(node));
  }
  return out;
}

/** Tokens of listRecords' default text for 100 records against Tape's raw JSON of the same records. */
export async function measureTokens(): Promise<TokenReport> {
  const h = await harness(UNLIMITED);
  const text = await h.call('dbapp/listRecords', { app_id: DEMO_LEADS_APP_ID, limit: 100 });
  if (text.status !== 200) throw new Error(`listRecords failed: ${text.text.slice(0, 300)}`);
  const raw = await h.tape.fetch(`https://api.tapeapp.com/v1/record/app/${DEMO_LEADS_APP_ID}?limit=100`, {
    headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}` },
  });
  const rawText = await raw.text();
  const rawJson = JSON.parse(rawText) as { records: { fields: unknown }[] };
  const shown = text.body.data as string;
  const missing = [...new Set(rawJson.records.flatMap((r) => valuesOf(r.fields)))].filter((v) => !shown.includes(v));
  const textTokens = encode(shown).length;
  const rawTokens = encode(rawText).length;
  return { records: rawJson.records.length, textTokens, rawTokens, ratio: rawTokens / textTokens, missing };
}

export interface BatchReport {
  records: number;
  chunks: number;
  latencyMs: number;
  elapsedMs: number;
  floorMs: number;
  ratio: number;
  successful: number;
}

/** One batchCreateRecords of `count` records against a fresh twin answering after `latencyMs`. */
async function batchOnce(count: number, latencyMs: number): Promise<{ elapsedMs: number; successful: number }> {
  const h = await harness({ ...UNLIMITED, twin: { latencyMs, credits: 1e12 } });
  const inputs = Array.from({ length: count }, (_, i) => ({ fields: { name: `Bench lead ${i}`, company: `Company ${i % 37}`, status: ['New'] } }));
  // The harness builds a twin on first use: build it before the clock starts (a deployed service has its vendor up).
  void h.tape;
  const started = performance.now();
  const r = await h.call('dbapp/batchCreateRecords', { app_id: DEMO_LEADS_APP_ID, inputs }, { query: 'format=json' });
  const elapsedMs = performance.now() - started;
  if (r.status !== 200) throw new Error(`batchCreateRecords failed: ${r.text.slice(0, 300)}`);
  return { elapsedMs, successful: r.body.data.successful };
}

/** batchCreateRecords of `count` records with the twin answering each call after `latencyMs`: median of `runs` after one warm-up. */
export async function measureBatch(count: number, latencyMs: number, runs = 3): Promise<BatchReport> {
  await batchOnce(count, latencyMs);
  const results: { elapsedMs: number; successful: number }[] = [];
  for (let i = 0; i < runs; i++) results.push(await batchOnce(count, latencyMs));
  results.sort((a, b) => a.elapsedMs - b.elapsedMs);
  const mid = results[Math.floor(results.length / 2)]!;
  const chunks = Math.ceil(count / 50);
  const floorMs = chunks * latencyMs;
  return { records: count, chunks, latencyMs, elapsedMs: mid.elapsedMs, floorMs, ratio: mid.elapsedMs / floorMs, successful: Math.min(...results.map((r) => r.successful)) };
}
