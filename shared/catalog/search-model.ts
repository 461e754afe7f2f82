/**
 * What tool search learns from example requests (functions/<platform>/search-examples.json: how
 * people ask for each tool, in many voices): two scorers built at build time into one data
 * document (infra/build.ts), both in plain TypeScript, no library and no download.
 * - BM25 over the example requests: each example is a document; a tool scores by its best
 *   example plus a share of its next best, so a request worded like any one way of asking meets it.
 * - A classifier trained on the examples (fastText-style, https://arxiv.org/abs/1607.01759):
 *   hashed word, word-pair and character n-gram features averaged into a small dense vector, a
 *   softmax over the tools. It meets requests that share no whole word with any example
 *   ("unsubscribe" and "subscription", "reassign" and "assignee") and learns which values point
 *   to which platform (an id's shape, a link's host).
 * Values are read by their shape, never by their digits: "#4417", "fo3c8d1e2f", an 11-digit
 * number, a link's host.
 */
import { stem, tokenize } from './words';

/**
 * How the classifier is made; a model cached from source (shared/catalog/search-data.ts) is keyed
 * by these, so a change here retrains it.
 */
export const TRAINING = {
  version: 3,
  /** Feature buckets: features hash into this many; only those seen in training are kept. */
  buckets: 1 << 22,
  /**
   * The hidden size and the passes over the examples: 48 and 20 beat 32 and 12 on the held-out
   * fifth and rounds 1-7 under three seeds (test/search/tune.ts, TRAIN=…).
   */
  dim: 48,
  epochs: 20,
  learningRate: 1.5,
  /** A feature seen in fewer training examples than this is left out of the shipped model. */
  minCount: 2,
  /**
   * A tool whose gradient for an example is below this is not updated for it: once training is
   * under way most tools are far from any one example (measured: about 40 % less training time,
   * the same figures as 1e-7).
   */
  minGradient: 1e-4,
  seed: 7,
} as const;
const BUCKETS = TRAINING.buckets;
const CHAR_NGRAMS = [3, 4, 5] as const;

/** The shape of a value, as a word: digits by count, letters-and-digits ids by their prefix. */
export function valueShape(token: string): string | undefined {
  if (/^\d+$/.test(token)) return `~num${Math.min(token.length, 12)}`;
  if (/^#\d+$/.test(token)) return `~hash${Math.min(token.length - 1, 12)}`;
  // An id of letters and digits ("fo3c8d1e2f", "0-1"): its two first letters and its length.
  if (/\d/.test(token) && /[a-z]/.test(token) && /^[a-z0-9-]{6,}$/.test(token)) return `~id${token.slice(0, 2).replace(/\d/g, '9')}${Math.min(token.length, 40) >> 2}`;
  return undefined;
}

/**
 * The words of a request as the example scorers read them: lower case, a link as `url` and its
 * host (`host:podio.com`), an email as `email`, an amount as `amount`, a date as `date`, a
 * value by its shape (valueShape); everything else as words.
 */
export function requestWords(text: string): string[] {
  const out: string[] = [];
  let t = text.toLowerCase();
  t = t.replace(/\bhttps?:\/\/([a-z0-9.-]+)\S*/g, (_m, host: string) => {
    const parts = host.split('.');
    return ` url host:${parts.slice(-2).join('.')} `;
  });
  t = t.replace(/\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b/g, ' email ');
  t = t.replace(/[$\u20ac\u00a3]\s?\d[\d,]*(?:\.\d+)?[km]?\b/g, ' amount ');
  t = t.replace(/\b\d{4}-\d{2}-\d{2}\b/g, ' date ');
  for (const raw of t.split(/[^a-z0-9#:.\-']+/)) {
    const token = raw.replace(/^[#.:'-]+(?=[^#])|[.:'-]+$/g, '');
    if (!token) continue;
    if (token.startsWith('host:')) {
      out.push(token);
      continue;
    }
    const shape = valueShape(token);
    if (shape) {
      out.push(shape);
      continue;
    }
    for (const w of token.split(/[^a-z0-9]+/)) if (w) out.push(w);
  }
  return out;
}

/** A value read by its shape or a link's host: a word of requestWords() that is no English word. */
const isValue = (w: string) => w.startsWith('~') || w.startsWith('host:');

/** FNV-1a, 32 bits. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The classifier's features of a request: words (as written and stemmed), word pairs, character n-grams of each word. */
export function features(text: string): number[] {
  const words = requestWords(text);
  const out = new Set<number>();
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    out.add(hash(`w ${w}`) % BUCKETS);
    const s = stem(w);
    if (s !== w) out.add(hash(`w ${s}`) % BUCKETS);
    if (i > 0) out.add(hash(`b ${words[i - 1]} ${w}`) % BUCKETS);
    if (isValue(w)) continue;
    const padded = `<${w}>`;
    for (const n of CHAR_NGRAMS) for (let k = 0; k + n <= padded.length; k++) out.add(hash(`c ${padded.slice(k, k + n)}`) % BUCKETS);
  }
  return [...out];
}

/** A deterministic random source (mulberry32): the same examples always train the same model. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The trained classifier, as used: feature → row of `embeddings`; `output` is tools × DIM. */
export interface Classifier {
  dim: number;
  rows: Map<number, number>;
  embeddings: Float32Array;
  output: Float32Array;
  bias: Float32Array;
}

/** Example requests per tool, by `platform/tool`. */
export type Examples = ReadonlyMap<string, readonly string[]>;

export interface TrainOptions {
  epochs?: number;
  dim?: number;
  seed?: number;
  learningRate?: number;
}

/**
 * Trains the classifier over `tools` (their order is the classes') on their examples: stochastic
 * gradient descent on the softmax's cross-entropy, the learning rate falling linearly to zero.
 */
export function trainClassifier(tools: readonly string[], examples: Examples, options: TrainOptions = {}): Classifier {
  const dim = options.dim ?? TRAINING.dim;
  const epochs = options.epochs ?? TRAINING.epochs;
  const rnd = random(options.seed ?? TRAINING.seed);
  const rate = options.learningRate ?? TRAINING.learningRate;
  const samples: { f: number[]; y: number }[] = [];
  const seen = new Map<number, number>();
  tools.forEach((tool, y) => {
    for (const text of examples.get(tool) ?? []) {
      const f = features(text);
      samples.push({ f, y });
      for (const b of f) seen.set(b, (seen.get(b) ?? 0) + 1);
    }
  });
  const rows = new Map<number, number>();
  for (const b of [...seen.keys()].sort((a, b) => a - b)) rows.set(b, rows.size);
  const C = tools.length;
  const emb = new Float32Array(rows.size * dim);
  for (let i = 0; i < emb.length; i++) emb[i] = (rnd() * 2 - 1) / dim;
  const out = new Float32Array(C * dim);
  const bias = new Float32Array(C);
  const hidden = new Float32Array(dim);
  const grad = new Float32Array(dim);
  const logits = new Float32Array(C);
  const order = samples.map((_, i) => i);
  const total = epochs * samples.length;
  let step = 0;
  for (let epoch = 0; epoch < epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    for (const s of order) {
      const { f, y } = samples[s]!;
      const lr = rate * (1 - step++ / total);
      hidden.fill(0);
      for (const b of f) {
        const r = rows.get(b)! * dim;
        for (let k = 0; k < dim; k++) hidden[k]! += emb[r + k]!;
      }
      for (let k = 0; k < dim; k++) hidden[k]! /= f.length;
      let max = -Infinity;
      for (let c = 0; c < C; c++) {
        let z = bias[c]!;
        const o = c * dim;
        for (let k = 0; k < dim; k++) z += out[o + k]! * hidden[k]!;
        logits[c] = z;
        if (z > max) max = z;
      }
      let sum = 0;
      for (let c = 0; c < C; c++) sum += logits[c] = Math.exp(logits[c]! - max);
      grad.fill(0);
      for (let c = 0; c < C; c++) {
        const g = lr * ((c === y ? 1 : 0) - logits[c]! / sum);
        if (Math.abs(g) < TRAINING.minGradient) continue;
        const o = c * dim;
        for (let k = 0; k < dim; k++) {
          grad[k]! += g * out[o + k]!;
          out[o + k]! += g * hidden[k]!;
        }
        bias[c]! += g;
      }
      const share = 1 / f.length;
      for (const b of f) {
        const r = rows.get(b)! * dim;
        for (let k = 0; k < dim; k++) emb[r + k]! += grad[k]! * share;
      }
    }
  }
  // Features seen too rarely to have learned anything are left out of what ships.
  const kept = new Map<number, number>();
  const keptEmb: number[] = [];
  for (const [b, r] of rows) {
    if ((seen.get(b) ?? 0) < TRAINING.minCount) continue;
    kept.set(b, kept.size);
    for (let k = 0; k < dim; k++) keptEmb.push(emb[r * dim + k]!);
  }
  return { dim, rows: kept, embeddings: Float32Array.from(keptEmb), output: out, bias };
}

/** The classifier's probability of each tool for a request (tools in training order). */
export function classify(model: Classifier, text: string): Float32Array {
  const { dim } = model;
  const hidden = new Float32Array(dim);
  let n = 0;
  for (const b of features(text)) {
    const r = model.rows.get(b);
    n++;
    if (r === undefined) continue;
    for (let k = 0; k < dim; k++) hidden[k]! += model.embeddings[r * dim + k]!;
  }
  for (let k = 0; k < dim; k++) hidden[k]! /= Math.max(1, n);
  const C = model.bias.length;
  const p = new Float32Array(C);
  let max = -Infinity;
  for (let c = 0; c < C; c++) {
    let z = model.bias[c]!;
    for (let k = 0; k < dim; k++) z += model.output[c * dim + k]! * hidden[k]!;
    p[c] = z;
    if (z > max) max = z;
  }
  let sum = 0;
  for (let c = 0; c < C; c++) sum += p[c] = Math.exp(p[c]! - max);
  for (let c = 0; c < C; c++) p[c]! /= sum;
  return p;
}

/** The terms of a request for BM25 over the examples: tokenize()'s words, values by their shape. */
export function exampleTerms(text: string): string[] {
  return requestWords(text).flatMap((w) => (isValue(w) ? [w] : tokenize(w)));
}

const K1 = 1.2;
const B = 0.75;
/** A tool's score over its examples: its best example's, plus this share of its second best. */
const SECOND_BEST = 0.5;

/** BM25 over the example requests, each one a document (see above). */
export interface ExampleIndex {
  /** Each example's tool (its index in the model's tools). */
  toolOf: Int32Array;
  /** Each example's terms (exampleTerms). */
  terms: readonly (readonly string[])[];
  postings: Map<string, { examples: Int32Array; scores: Float32Array }>;
}

/** BM25 over examples given as their terms (exampleTerms) with each one's tool. */
export function buildExampleIndex(terms: readonly (readonly string[])[], toolOf: Int32Array): ExampleIndex {
  const n = terms.length;
  const avg = terms.reduce((s, t) => s + t.length, 0) / Math.max(1, n);
  const df = new Map<string, number>();
  for (const t of terms) for (const w of new Set(t)) df.set(w, (df.get(w) ?? 0) + 1);
  const lists = new Map<string, { examples: number[]; scores: number[] }>();
  terms.forEach((t, i) => {
    const tf = new Map<string, number>();
    for (const w of t) tf.set(w, (tf.get(w) ?? 0) + 1);
    for (const [w, c] of tf) {
      const d = df.get(w)!;
      const idf = Math.log(1 + (n - d + 0.5) / (d + 0.5));
      const score = (idf * (c * (K1 + 1))) / (c + K1 * (1 - B + (B * t.length) / avg));
      let list = lists.get(w);
      if (!list) lists.set(w, (list = { examples: [], scores: [] }));
      list.examples.push(i);
      list.scores.push(score);
    }
  });
  const postings = new Map<string, { examples: Int32Array; scores: Float32Array }>();
  for (const [w, l] of lists) postings.set(w, { examples: Int32Array.from(l.examples), scores: Float32Array.from(l.scores) });
  return { toolOf, terms, postings };
}

/** Each tool's BM25 score over its examples (best example plus SECOND_BEST of the next). */
export function scoreExamples(index: ExampleIndex, text: string, tools: number): Float32Array {
  const perExample = new Map<number, number>();
  for (const w of new Set(exampleTerms(text))) {
    const p = index.postings.get(w);
    if (!p) continue;
    for (let k = 0; k < p.examples.length; k++) {
      const e = p.examples[k]!;
      perExample.set(e, (perExample.get(e) ?? 0) + p.scores[k]!);
    }
  }
  const best = new Float32Array(tools);
  const second = new Float32Array(tools);
  for (const [e, s] of perExample) {
    const t = index.toolOf[e]!;
    if (s > best[t]!) {
      second[t] = best[t]!;
      best[t] = s;
    } else if (s > second[t]!) second[t] = s;
  }
  for (let t = 0; t < tools; t++) best[t]! += SECOND_BEST * second[t]!;
  return best;
}

/** What search learns from the examples, ready to score: the tools (platform/tool) in class order. */
export interface SearchModel {
  tools: readonly string[];
  classifier: Classifier;
  examples: ExampleIndex;
}

/**
 * A tool's name as a request ("crm/addWorkspaceMember" → "add workspace member"): learned beside its
 * examples, whose writers avoided the name's words, so a request worded like the name meets it too.
 */
export const nameAsRequest = (tool: string) => tool.slice(tool.indexOf('/') + 1).replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();

/**
 * Trains and indexes the model of `tools` from their examples, their names (nameAsRequest) and,
 * where given, their summaries (the first sentence of each description).
 */
export function buildSearchModel(tools: readonly string[], given: Examples, options: TrainOptions = {}, summaries?: ReadonlyMap<string, string>): SearchModel {
  const examples = new Map(tools.map((t) => [t, [nameAsRequest(t), ...(given.get(t) ?? [])]]));
  // The summary trains the classifier only: as a document of BM25 over the examples its long
  // technical sentence would meet every request that shares a word with it (measured: worse).
  const trainOn = new Map(tools.map((t) => [t, [...(summaries?.has(t) ? [summaries.get(t)!] : []), ...examples.get(t)!]]));
  const terms: string[][] = [];
  const toolOf: number[] = [];
  tools.forEach((tool, i) => {
    for (const text of examples.get(tool) ?? []) {
      terms.push(exampleTerms(text));
      toolOf.push(i);
    }
  });
  return { tools, classifier: trainClassifier(tools, trainOn, options), examples: buildExampleIndex(terms, Int32Array.from(toolOf)) };
}

/**
 * The model as one JSON document (the build-time data file): the classifier's feature rows
 * quantized to bytes (one scale per row), the output layer as float32, the examples as their terms.
 */
export interface SearchModelDocument {
  version: 1;
  tools: string[];
  dim: number;
  /** base64: feature buckets (uint32), their rows in order. */
  features: string;
  /** base64: int8 embeddings, rows × dim. */
  embeddings: string;
  /** base64: float32 scale of each row. */
  scales: string;
  /** base64: float32 output layer (tools × dim) and bias (tools). */
  output: string;
  bias: string;
  /** Each example's terms, space-separated, one example a line. */
  exampleTerms: string;
  /** base64: int32 tool of each example. */
  exampleTools: string;
}

const b64 = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');
function fromB64<T>(s: string, make: (buf: ArrayBuffer) => T): T {
  const buf = Buffer.from(s, 'base64');
  // A copy: typed arrays need an aligned buffer of their own.
  return make(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
}

export function searchModelDocument(model: SearchModel): SearchModelDocument {
  const { classifier: c } = model;
  const rows = c.rows.size;
  const features = new Uint32Array(rows);
  const q = new Int8Array(rows * c.dim);
  const scales = new Float32Array(rows);
  for (const [b, r] of c.rows) {
    features[r] = b;
    let max = 0;
    for (let k = 0; k < c.dim; k++) max = Math.max(max, Math.abs(c.embeddings[r * c.dim + k]!));
    const scale = max / 127 || 1;
    scales[r] = scale;
    for (let k = 0; k < c.dim; k++) q[r * c.dim + k] = Math.round(c.embeddings[r * c.dim + k]! / scale);
  }
  return {
    version: 1,
    tools: [...model.tools],
    dim: c.dim,
    features: b64(features),
    embeddings: b64(q),
    scales: b64(scales),
    output: b64(c.output),
    bias: b64(c.bias),
    exampleTerms: model.examples.terms.map((t) => t.join(' ')).join('\n'),
    exampleTools: b64(model.examples.toolOf),
  };
}

export function searchModelFromDocument(doc: SearchModelDocument): SearchModel {
  const features = fromB64(doc.features, (b) => new Uint32Array(b));
  const q = fromB64(doc.embeddings, (b) => new Int8Array(b));
  const scales = fromB64(doc.scales, (b) => new Float32Array(b));
  const embeddings = new Float32Array(q.length);
  for (let r = 0; r < features.length; r++) for (let k = 0; k < doc.dim; k++) embeddings[r * doc.dim + k] = q[r * doc.dim + k]! * scales[r]!;
  const rows = new Map<number, number>();
  features.forEach((b, r) => rows.set(b, r));
  const toolOf = fromB64(doc.exampleTools, (b) => new Int32Array(b));
  const terms = doc.exampleTerms.split('\n').map((l) => (l ? l.split(' ') : []));
  return {
    tools: doc.tools,
    classifier: { dim: doc.dim, rows, embeddings, output: fromB64(doc.output, (b) => new Float32Array(b)), bias: fromB64(doc.bias, (b) => new Float32Array(b)) },
    examples: buildExampleIndex(terms, toolOf),
  };
}
