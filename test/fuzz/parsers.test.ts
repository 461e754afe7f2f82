import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_ODATA_DEPTH } from '../../functions/filebox/items/odata';
import { MAX_BLOCK_DEPTH } from '../../functions/dbapp/automations/definition';
import { harness } from '../helpers/harness';
import { medianMs } from '../helpers/ratio';
import { checkEnvelope, OracleError, type Answer } from './oracle';
import { SEED } from './suite';

/**
 * Grammar-aware hostile input for every parser a caller's text or tree reaches (OData $filter and
 * $orderby of filebox, HubSpot's CONTAINS_TOKEN wildcards through crm, automation filter trees of
 * dbapp): deep nesting, long alternations, wildcard runs, quote runs. Oracle: the envelope as the
 * schema fuzz suite checks it, never INTERNAL_ERROR, a refusal names the parameter, and each call
 * takes at most SLOWDOWN times a trivial call of the same tool, measured in the same run (a call over
 * the bound is measured twice more and judged by its quickest: a pause of the machine is not the input's).
 */
const RUNS = Number(process.env.FUZZ_PARSER_RUNS ?? 60);
const SLOWDOWN = 25;

type H = Awaited<ReturnType<typeof harness>>;

async function answer(h: H, tool: string, params: unknown): Promise<{ a: Answer; ms: number }> {
  const started = performance.now();
  const r = await h.call(tool, params);
  return { a: { status: r.status, body: r.body, vendorCalls: 0 }, ms: performance.now() - started };
}

function fail(message: string, a: Answer): never {
  throw new OracleError(`${message}\n  status ${a.status}, body ${JSON.stringify(a.body).slice(0, 400)}`);
}

/** One hostile call judged: envelope, no INTERNAL_ERROR, the parameter named, the time bound. */
async function judge(h: H, tool: string, params: unknown, baselineMs: number, parameter: (named: string) => boolean): Promise<Answer> {
  let { a, ms } = await answer(h, tool, params);
  checkEnvelope(a);
  if (a.body.success === false) {
    if (a.body.error.code === 'INTERNAL_ERROR') fail('INTERNAL_ERROR for caller input', a);
    if (a.body.error.code === 'INVALID_PARAMETER' && !parameter(a.body.error.details.parameter)) fail(`INVALID_PARAMETER named "${a.body.error.details.parameter}"`, a);
  }
  const bound = SLOWDOWN * Math.max(baselineMs, 1);
  for (let retry = 0; retry < 2 && ms > bound; retry++) ms = Math.min(ms, (await answer(h, tool, params)).ms);
  if (ms > bound) fail(`took ${ms.toFixed(1)} ms, over ${SLOWDOWN} × the trivial call's ${baselineMs.toFixed(1)} ms`, a);
  return a;
}

const baseline = (h: H, tool: string, params: unknown) => medianMs(() => h.call(tool, params), 7);

/** The OData v3 vocabulary, for random sentences of its tokens. */
const ODATA_TOKENS = ['(', ')', ',', 'not', 'and', 'or', 'eq', 'ne', 'gt', 'le', 'Email', 'Name', 'IsConfirmed', 'Company/Name', "'a'", "''", "'", "'O''B'", '1', '-2.5e3', 'true', 'null', "datetime'2026-01-01'", 'startswith(', 'substringof(', 'tolower(', 'isof(', '/', '*', '%'];

const odataFilter = fc.oneof(
  // deep parentheses, open or balanced
  fc.integer({ min: 1, max: 1_990 }).map((n) => '('.repeat(n)),
  fc.integer({ min: 1, max: 900 }).map((n) => `${'('.repeat(n)}Email eq 'a'${')'.repeat(n)}`),
  // not chains and function nesting
  fc.integer({ min: 1, max: 490 }).map((n) => `${'not '.repeat(n)}IsConfirmed`),
  fc.integer({ min: 1, max: 200 }).map((n) => `${'tolower('.repeat(n)}Email${')'.repeat(n)} eq 'a'`),
  // long alternations up to the 2,000-character limit
  fc.integer({ min: 1, max: 110 }).map((n) => Array.from({ length: n }, (_, i) => `Email eq 'u${i}'`).join(' or ')),
  fc.integer({ min: 1, max: 60 }).map((n) => Array.from({ length: n }, () => "(not IsConfirmed or startswith(Email,'a'))").join(' and ').slice(0, 2_000)),
  // quote runs: escaped, unterminated
  fc.integer({ min: 1, max: 990 }).map((n) => `Email eq '${"''".repeat(n)}`),
  fc.integer({ min: 1, max: 1_990 }).map((n) => "'".repeat(n)),
  // random sentences of the grammar's tokens
  fc.array(fc.constantFrom(...ODATA_TOKENS), { minLength: 1, maxLength: 300 }).map((ts) => ts.join(' ').slice(0, 2_000).trim() || 'x'),
);

const odataOrderby = fc.oneof(
  fc.array(fc.constantFrom('Email', 'Name', 'asc', 'desc', ',', '/', '(', "'x'", 'Company/Name'), { minLength: 1, maxLength: 120 }).map((ts) => ts.join(' ').slice(0, 500).trim() || 'x'),
  fc.integer({ min: 1, max: 480 }).map((n) => '('.repeat(n)),
  fc.integer({ min: 1, max: 80 }).map((n) => Array.from({ length: n }, () => 'Email').join(',').slice(0, 500)),
);

describe('parsers under grammar-aware hostile input', () => {
  let h: H;
  beforeAll(async () => {
    h = await harness();
  });

  it(`filebox OData $filter: deep nesting past ${MAX_ODATA_DEPTH} levels is INVALID_PARAMETER naming filter and the position`, async () => {
    const r = await h.call('filebox/listUsers', { filter: '('.repeat(1_800) });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'filter', position: MAX_ODATA_DEPTH + 1 } });
    expect(r.body.error.message).toMatch(/nests deeper than 32 levels.*at position 33/);
    // not binds tighter than eq (OData v3): "not Email eq 'a'" compares a condition with a text.
    const not = await h.call('filebox/listUsers', { filter: "not Email eq 'a'" });
    expect(not.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'filter', position: 11 } });
    expect((await h.call('filebox/listUsers', { filter: "not (Email eq 'a')" })).body.success).toBe(true);
  });

  it('filebox OData $filter and $orderby: hostile expressions answer in bounded time, never INTERNAL_ERROR', async () => {
    const base = await baseline(h, 'filebox/listUsers', { filter: "Email eq 'a'" });
    await fc.assert(
      fc.asyncProperty(odataFilter, odataOrderby, async (filter, orderby) => {
        await judge(h, 'filebox/listUsers', { filter }, base, (p) => p === 'filter');
        await judge(h, 'filebox/listUsers', { orderby }, base, (p) => p === 'orderby');
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  });

  it('crm CONTAINS_TOKEN wildcards: star runs over long tokens answer in bounded time', async () => {
    await h.call('crm/createDeal', { values: { dealname: `${'a'.repeat(60)} ${'ab'.repeat(40)}` } });
    const search = (value: string) => ({ filter_groups: [{ filters: [{ propertyName: 'dealname', operator: 'CONTAINS_TOKEN', value }] }] });
    const base = await baseline(h, 'crm/searchDeals', search('renewal'));
    const wildcard = fc.oneof(
      fc.integer({ min: 1, max: 40 }).map((n) => `${'*a'.repeat(n)}*b`),
      fc.array(fc.constantFrom('*', 'a', 'b', '**', 'ab*'), { minLength: 1, maxLength: 200 }).map((ts) => ts.join('')),
      fc.integer({ min: 1, max: 500 }).map((n) => '*'.repeat(n)),
    );
    await fc.assert(
      fc.asyncProperty(wildcard, async (value) => {
        await judge(h, 'crm/searchDeals', search(value), base, (p) => p.startsWith('filter_groups'));
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  });

  it(`dbapp automation filter trees: deeper than ${MAX_BLOCK_DEPTH} groups is INVALID_PARAMETER at the group, never INTERNAL_ERROR`, async () => {
    const app = [...h.tape.state.apps.values()][0]!;
    const tree = (depth: number, op: 'and' | 'or'): unknown => (depth === 0 ? { code: ['true'] } : { operator: op, rows: [tree(depth - 1, op === 'and' ? 'or' : 'and')] });
    const params = (depth: number) => ({ app_id: app.app_id, name: 'Deep', trigger: null, filter: tree(depth, 'and') });
    const deep = await h.call('dbapp/createAutomation', params(MAX_BLOCK_DEPTH + 1));
    expect(deep.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: `filter${'.rows.0'.repeat(MAX_BLOCK_DEPTH)}` } });
    expect(deep.body.error.message).toMatch(/deeper than 10 levels/);
    const base = await baseline(h, 'dbapp/validateAutomation', { automation_id: 1 });
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: MAX_BLOCK_DEPTH + 1, max: 30 }), async (depth) => {
        const a = await judge(h, 'dbapp/createAutomation', params(depth), base, (p) => p.startsWith('filter'));
        if (a.body.success !== false || a.body.error.code !== 'INVALID_PARAMETER') fail('a filter tree past the limit was not refused', a);
      }),
      { seed: SEED, numRuns: Math.min(RUNS, 20), endOnFailure: true },
    );
  });
});
