import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { harness } from '../helpers/harness';
import { localPlatforms } from '../../infra/local/platforms';
import { MAX_BODY_BYTES } from '../../shared/http/app';
import { checkInvalid, checkValid, type Answer } from './oracle';
import { inputArb, invalidArb, MB, type InvalidCase, type Schema } from './schema-arb';

/**
 * The property-based fuzz suite over every tool of every registered platform: valid
 * inputs generated from each tool's served JSON Schema must never answer INTERNAL_ERROR or break
 * the envelope; broken ones (and malformed raw bodies) must answer INVALID_PARAMETER naming the
 * parameter, with no vendor request. Seeded: FUZZ_SEED reproduces a run, FUZZ_RUNS sets the cases
 * per tool (half valid, half invalid).
 */
export const SEED = Number(process.env.FUZZ_SEED ?? 20261127);
export const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
/** Megabyte-sized broken inputs per tool: the same generic checks each time, so a few suffice. */
const HEAVY_RUNS = Math.max(2, Math.ceil(RUNS / 40));
/** A call that has not answered by then is a hang (the twins answer in-process within milliseconds). */
const CALL_LIMIT_MS = 15_000;
/** A tool's whole run, scaled with FUZZ_RUNS (a few seconds per tool at the default). */
const TOOL_LIMIT_MS = Math.max(60_000, RUNS * 500);

/** Twins without their vendor rate limits: thousands of calls a minute are the point here. */
const UNLIMITED = { credits: 1e12, rateLimit: { limit: 1e12, windowMs: 60_000 } };

/** A per-tool seed: each tool's sequence stays the same when tools are added or reordered. */
function toolSeed(tool: string): number {
  let h = SEED | 0;
  for (const ch of tool) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return h >>> 0;
}

function describeCase(value: unknown): string {
  const text =
    JSON.stringify(value, (_k, v) =>
      typeof v === 'string' && v.length > 200 ? `<${v.length} chars: ${JSON.stringify(v.slice(0, 20))}…>` : Array.isArray(v) && v.length > 20 ? [...v.slice(0, 3), `<${v.length} items>`] : v,
    ) ?? String(value);
  return text.length > 2000 ? `${text.slice(0, 2000)}… (${text.length} chars)` : text;
}

/** A value that fast-check prints in short (1 MB strings and 100,000-item arrays stay readable). */
function printable<T extends object>(value: T): T {
  return Object.assign(Object.create({ [fc.toStringMethod]: () => describeCase(value) }), value) as T;
}

/** Per-tool counts printed at the end, for the README and bench figures. */
const stats = new Map<string, { valid: number; invalid: number; raw: number; answers: Record<string, number> }>();

/** What a fuzz run of one platform works against; filled in by a beforeAll of the calling describe. */
export interface FuzzTarget {
  h: Awaited<ReturnType<typeof harness>>;
  /** The tools' input schemas as the service serves them. */
  schemas: { name: string; input_schema: Schema }[];
  /** Vendor requests made so far: a refused input must add none. */
  vendorCalls: number;
}

/** The platform's harness with a twin that never runs out, its vendor requests counted. */
export function fuzzTarget(platform: string, ownerKey: string): FuzzTarget {
  const t = { schemas: [], vendorCalls: 0 } as unknown as FuzzTarget;
  beforeAll(async () => {
    t.h = await harness({ env: { RATE_LIMIT_MAX: '1000000000' }, twins: { [platform]: UNLIMITED } });
    const inner = t.h.rt.fetchFor![platform]!;
    t.h.rt.fetchFor![platform] = ((input: Parameters<typeof fetch>[0], init?: RequestInit) => {
      t.vendorCalls += 1;
      return inner(input, init);
    }) as typeof fetch;
    const res = await t.h.app.request(`/v1/tools/${platform}`, { headers: { authorization: `Bearer ${ownerKey}` } });
    t.schemas = ((await res.json()) as { data: { tools: FuzzTarget['schemas'] } }).data.tools;
  });
  return t;
}

export function fuzzPlatforms(which: (name: string, index: number) => boolean): void {
  for (const [index, lp] of localPlatforms.entries()) {
    const platform = lp.platform.name;
    if (!which(platform, index)) continue;

    describe(`fuzz ${platform}`, () => {
      const t = fuzzTarget(platform, lp.keys.owner);

      /** One POST with a raw body; the answer with the vendor requests it caused. */
      async function send(tool: string, raw: string): Promise<Answer> {
        const before = t.vendorCalls;
        const req = t.h.app.request(`/v1/tools/${platform}/${tool}?format=json`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${lp.keys.owner}` },
          body: raw,
        });
        let timer: NodeJS.Timeout | undefined;
        const hang = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`hang: no answer within ${CALL_LIMIT_MS} ms`)), CALL_LIMIT_MS);
        });
        try {
          const res = await Promise.race([req, hang]);
          const text = await res.text();
          let body: unknown;
          try {
            body = JSON.parse(text);
          } catch {
            body = `<not JSON: ${text.slice(0, 200)}>`;
          }
          return { status: res.status, body, vendorCalls: t.vendorCalls - before };
        } finally {
          clearTimeout(timer);
        }
      }

      // The tool list is known only after beforeAll; the registry's manifest names them up front.
      for (const tool of Object.keys(lp.platform.tools)) {
        it(tool, async () => {
          const entry = t.schemas.find((s) => s.name === tool);
          if (!entry) throw new Error(`GET /v1/tools/${platform} does not list ${tool}`);
          const schema = entry.input_schema;
          const found = (await t.h.rt.registry.find(platform, tool))!;
          const accept = (params: unknown) => found.tool.input.safeParse(params).success;
          const example = found.tool.example.input as Record<string, unknown>;
          if (!accept(example)) throw new Error(`${platform}/${tool}: its example input does not pass its own schema`);
          const count = { valid: 0, invalid: 0, raw: 0, answers: {} as Record<string, number> };
          stats.set(`${platform}/${tool}`, count);
          const seed = toolSeed(`${platform}/${tool}`);
          const numRuns = Math.max(1, Math.ceil(RUNS / 2));
          const tally = (a: Answer) => {
            const key = a.body?.success ? 'ok' : String(a.body?.error?.code);
            count.answers[key] = (count.answers[key] ?? 0) + 1;
          };

          await assertProperty(`${platform}/${tool} valid`, seed, numRuns, fc.asyncProperty(inputArb(schema, example).map((p) => printable(p as object)), async (params) => {
            const a = await send(tool, JSON.stringify(params));
            count.valid += 1;
            tally(a);
            checkValid(a);
          }));

          const invalid = (heavy: boolean) =>
            fc.asyncProperty(invalidArb(schema, example, accept, heavy).map((c) => printable(c)), async (c: InvalidCase) => {
              const raw = JSON.stringify(c.params);
              const a = await send(tool, raw);
              count.invalid += 1;
              // A body over the edge's cap is refused whole, before it is read (a 100,000-item array of objects can be).
              checkInvalid(a, Buffer.byteLength(raw) > MAX_BODY_BYTES ? { ...c, paths: ['(body)'] } : c);
            });
          await assertProperty(`${platform}/${tool} invalid`, seed + 1, numRuns, invalid(false));
          await assertProperty(`${platform}/${tool} invalid (1 MB strings, 100,000-item arrays)`, seed + 2, HEAVY_RUNS, invalid(true));

          for (const r of rawBodies(schema, accept)) {
            const a = await send(tool, r.raw);
            count.raw += 1;
            try {
              if (r.valid) checkValid(a);
              else checkInvalid(a, r);
            } catch (err) {
              throw new Error(`${platform}/${tool}, raw body ${r.name}: ${(err as Error).message}`);
            }
          }
        }, TOOL_LIMIT_MS);
      }
    });
  }

  afterAll(() => {
    const rows = [...stats.entries()];
    const total = rows.reduce((n, [, c]) => n + c.valid + c.invalid + c.raw, 0);
    const answers: Record<string, number> = {};
    for (const [, c] of rows) for (const [k, v] of Object.entries(c.answers)) answers[k] = (answers[k] ?? 0) + v;
    const valid = rows.reduce((n, [, c]) => n + c.valid, 0);
    const invalid = rows.reduce((n, [, c]) => n + c.invalid, 0);
    const raw = rows.reduce((n, [, c]) => n + c.raw, 0);
    console.log(`fuzz (seed ${SEED}, FUZZ_RUNS ${RUNS}): ${rows.length} tools, ${total} calls: ${valid} valid, ${invalid} invalid, ${raw} raw bodies; valid inputs answered ${JSON.stringify(answers)}`);
  });
}

async function assertProperty(label: string, seed: number, numRuns: number, property: fc.IAsyncProperty<[any]>): Promise<void> {
  try {
    await fc.assert(property, { seed, numRuns, endOnFailure: process.env.FUZZ_SHRINK !== '1' });
  } catch (err) {
    (err as Error).message = `${label}: ${(err as Error).message}\nReproduce: FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS} npx vitest run test/fuzz -t "${label.split(' ')[0]!.split('/')[1]}" (FUZZ_SHRINK=1 to shrink)`;
    throw err;
  }
}

/** Raw bodies every tool must refuse by name (an empty body is `{}` by design: the tool's own required-parameter error). */
function rawBodies(schema: Schema, accept: (p: unknown) => boolean): { name: string; raw: string; path: string; paths?: string[]; deeper?: boolean; valid?: boolean }[] {
  const props: Record<string, Schema> = schema.properties ?? {};
  const names = Object.keys(props);
  const first = names[0] ?? 'zz_unknown';
  // A property a 1 MB string cannot be (a bounded or non-string one), else an unknown key.
  const notHuge = names.find((k) => !((props[k]!.maxLength ?? 0) >= MB && [].concat(props[k]!.type ?? []).includes('string' as never))) ?? 'zz_unknown';
  const required: string[] = schema.required ?? [];
  const deep = `${'['.repeat(10_000)}1${']'.repeat(10_000)}`;
  return [
    { name: 'not JSON', raw: '{"a": tru', path: '(body)' },
    // Empty = {}: valid, or the tool's own error (a missing required parameter, or a rule across parameters naming one of them).
    accept({}) ? { name: 'empty', raw: '', path: '(body)', valid: true } : { name: 'empty', raw: '', path: required[0] ?? '(body)', paths: required.length ? required : names },
    { name: '[]', raw: '[]', path: '(body)' },
    { name: '"str"', raw: '"str"', path: '(body)' },
    { name: 'null', raw: 'null', path: '(body)' },
    { name: '1', raw: '1', path: '(body)' },
    { name: 'duplicate keys', raw: `{"${first}": 1, "${first}": 2}`, path: first, paths: ['(body)'] },
    { name: 'nested 10,000 levels', raw: deep, path: '(body)' },
    { name: 'nested 10,000 levels in a parameter', raw: `{"${first}": ${deep}}`, path: first, deeper: true },
    { name: '1 MB string', raw: `{"${notHuge}": "${'x'.repeat(MB)}"}`, path: notHuge, paths: ['(body)'] },
  ];
}
