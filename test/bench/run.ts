/**
 * `npm run bench`: bundle sizes, cold init of each function bundle in a fresh node process, and
 * per-call overhead against a zero-latency twin. Prints a table with each figure next to its goal
 * and writes the raw figures to bench-results.json. Exit 0 even on MISS (a report); 1 on errors.
 */
import { serve } from '@hono/node-server';
import { readdir, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { buildAll } from '../../infra/build';
import { localPlatforms } from '../../infra/local/platforms';
import { DynamoStore } from '../../shared/store/dynamodb';
import { MemoryStore } from '../../shared/store/memory';
import { LOCAL_CREDENTIALS, startDynamoDbLocal } from '../helpers/dynamodb-local';
import { measureColdInit, toolEvent, type ChildRun, type ColdTarget } from './cold';
import { measureOverhead, type OverheadReport } from './overhead';
import { measureBatch, measureTokens } from './records';
import type { BenchRow } from './rows';
import { bytes, kb, ms, round, table } from './stats';

const root = fileURLToPath(new URL('../..', import.meta.url));
const resultsFile = `${root}bench-results.json`;

const GOALS = {
  /** "≤ 700 KB minified", read strictly as 700,000 bytes. */
  bundleBytes: 700_000,
  coldAboveFloorMs: 150,
  overheadP50Ms: 1,
  overheadP99Ms: 5,
  /** listRecords text at least 3x fewer tokens than Tape's raw JSON. */
  tokenRatio: 3,
  /** batchCreateRecords within 1.2x of chunks x twin latency. */
  batchRatio: 1.2,
};
const BATCH_RECORDS = 1_000;
const BATCH_LATENCY_MS = 20;
const COLD_RUNS = 9;
const CALLS = 2_000;
const WARMUP = 200;

const verdicts: { figure: string; pass: boolean }[] = [];
function verdict(figure: string, value: number, goal: number): string {
  const pass = value <= goal;
  verdicts.push({ figure, pass });
  return pass ? 'PASS' : 'MISS';
}

async function main(): Promise<void> {
  const started = Date.now();
  const out: string[] = [];
  const cpu = cpus();
  out.push(`Bench — node ${process.version}, ${process.platform}/${process.arch}, ${cpu.length} CPU × ${cpu[0]?.model.trim() ?? 'unknown'}`);
  out.push('');

  // 1. Bundle sizes.
  const bundles = await buildAll();
  out.push(`1. Bundle size — dist/<function>/handler.js, minified CommonJS, @aws-sdk/* external (goal ≤ 700 KB = ${bytes(GOALS.bundleBytes)})`);
  out.push(
    table([
      ['function', 'bytes', 'KB', 'gzip -9', 'goal', 'result'],
      ...bundles.map((b) => [b.name, bytes(b.bytes), kb(b.bytes), bytes(b.gzipBytes), `≤ ${kb(GOALS.bundleBytes)}`, verdict(`bundle ${b.name}`, b.bytes, GOALS.bundleBytes)]),
    ]),
  );
  out.push('');

  // 2. Cold init: each bundle in fresh node processes, answering its platform's probe against its
  // own twin on a loopback port, with the store as deployed (DynamoDB; here DynamoDB Local).
  const ddb = await startDynamoDbLocal({ table: 'tes-bench' });
  const servers = await Promise.all(localPlatforms.map((p) => listen(p.twin().app.fetch)));
  try {
    const targets: Record<string, ColdTarget> = {};
    localPlatforms.forEach((p, i) => {
      targets[p.platform.name] = { baseUrl: servers[i]!.url, event: toolEvent(p.platform.name, p.probe.tool, p.probe.params, p.keys.owner) };
    });
    const storeEnv = {
      STORE: 'dynamodb',
      TABLE_NAME: ddb.table,
      DYNAMODB_ENDPOINT: ddb.endpoint,
      AWS_REGION: ddb.region,
      AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    };
    const cold = await measureColdInit(bundles, targets, COLD_RUNS, storeEnv);

    out.push(`2. Cold init — fresh \`node\`: require the bundle, answer one API Gateway v2 POST of its platform's probe (${localPlatforms.map((p) => `${p.platform.name}/${p.probe.tool}`).join(', ')})`);
    out.push(`   against its twin on loopback, STORE=dynamodb (DynamoDB Local); wall time spawn → exit, median of ${COLD_RUNS} interleaved runs; floor = \`node -e\` that prints and exits`);
    out.push(
      table([
        ['function', 'spawn→exit', 'floor', 'above floor', 'goal', 'result', 'in child: require / first answer / start→answer'],
        ...cold.functions.map((f) => {
          const above = f.medianExitMs - cold.floor.medianExitMs;
          return [
            f.name,
            ms(f.medianExitMs),
            ms(cold.floor.medianExitMs),
            ms(above),
            `≤ ${GOALS.coldAboveFloorMs} ms`,
            verdict(`cold init ${f.name}`, above, GOALS.coldAboveFloorMs),
            `${ms(f.medianRequireMs)} / ${ms(f.medianFirstAnswerMs)} / ${ms(f.medianChildStartToAnswerMs)}`,
          ];
        }),
      ]),
    );
    out.push('  (every cold answer checked: HTTP 200, success:true)');
    out.push('');

    // 3. Per-call overhead, in-process, with each store: the rate-limit counter is on every call.
    const overheads: { store: string; oh: OverheadReport }[] = [
      { store: 'memory', oh: await measureOverhead(CALLS, WARMUP, new MemoryStore()) },
      { store: 'DynamoDB Local', oh: await measureOverhead(CALLS, WARMUP, new DynamoStore(ddb.client, ddb.table)) },
    ];
    const oh = overheads[0]!.oh;
    out.push(`3. Per-call overhead — ${oh.tool} via app.request (text format) vs direct twin.fetch GET /v1/workspace/org + JSON,`);
    out.push(`   zero-latency twin, ${CALLS.toLocaleString('en-US')} calls each after ${WARMUP} warm-up, alternating; goal on the memory store (our code),`);
    out.push('   DynamoDB Local shown as deployed: one counter round trip per call (in AWS the same-region DynamoDB latency replaces the loopback one)');
    out.push(
      table([
        ['store', 'tool p50', 'direct p50', 'overhead p50', 'tool p99', 'direct p99', 'overhead p99', 'goal', 'result'],
        ...overheads.map(({ store, oh: o }, i) => [
          store,
          ms(o.toolMs.p50),
          ms(o.directMs.p50),
          ms(o.overheadMs.p50),
          ms(o.toolMs.p99),
          ms(o.directMs.p99),
          ms(o.overheadMs.p99),
          i === 0 ? `≤ ${GOALS.overheadP50Ms} / ${GOALS.overheadP99Ms} ms` : '(report)',
          i === 0
            ? `${verdict('overhead p50', o.overheadMs.p50, GOALS.overheadP50Ms)} / ${verdict('overhead p99', o.overheadMs.p99, GOALS.overheadP99Ms)}`
            : '',
        ]),
      ]),
    );
    out.push('');

    // 4. Tokens of the default text against the vendor's JSON.
    const tokens = await measureTokens();
    out.push(`4. Tokens (gpt-tokenizer) — dbapp/listRecords default text for ${tokens.records} demo Leads vs Tape's raw JSON of the same records`);
    out.push(
      table([
        ['text', 'raw JSON', 'ratio', 'values missing from text', 'goal', 'result'],
        [
          tokens.textTokens.toLocaleString('en-US'),
          tokens.rawTokens.toLocaleString('en-US'),
          `${tokens.ratio.toFixed(2)}×`,
          String(tokens.missing.length),
          `≥ ${GOALS.tokenRatio}× fewer, none missing`,
          verdict('token ratio', tokens.missing.length === 0 ? GOALS.tokenRatio / tokens.ratio : Infinity, 1),
        ],
      ]),
    );
    if (tokens.missing.length) out.push(`  missing: ${tokens.missing.slice(0, 10).join(' | ')}`);
    out.push('');

    // 5. Batch time against its floor.
    const batch = await measureBatch(BATCH_RECORDS, BATCH_LATENCY_MS);
    out.push(`5. Batch — dbapp/batchCreateRecords of ${batch.records.toLocaleString("en-US")} records, twin answering each call after ${batch.latencyMs} ms (median of 3 after a warm-up)`);
    out.push(
      table([
        ['chunks', 'floor (chunks × latency)', 'elapsed', 'ratio', 'successful', 'goal', 'result'],
        [
          String(batch.chunks),
          ms(batch.floorMs),
          ms(batch.elapsedMs),
          `${batch.ratio.toFixed(2)}×`,
          String(batch.successful),
          `≤ ${GOALS.batchRatio}×`,
          verdict('batch ratio', batch.successful === batch.records ? batch.ratio : Infinity, GOALS.batchRatio),
        ],
      ]),
    );
    out.push('');

    // 6. Each platform's own figures (test/bench/<module>.ts exporting benchRows()).
    const rows = await platformRows();
    if (rows.length) {
      out.push('6. Platform figures — test/bench/<module>.ts');
      out.push(
        table([
          ['module', 'figure', 'value', 'goal', 'detail', 'result'],
          ...rows.map(({ module, row }) => [
            module,
            row.figure,
            `${round(row.value)} ${row.unit}`,
            `${row.better === 'higher' ? '≥' : '≤'} ${row.goal} ${row.unit}`,
            row.detail ?? '',
            row.better === 'higher' ? verdict(row.figure, row.goal, row.value) : verdict(row.figure, row.value, row.goal),
          ]),
        ]),
      );
      out.push('');
    }

    const missed = verdicts.filter((v) => !v.pass);
    out.push(
      `Summary: ${verdicts.length - missed.length} PASS, ${missed.length} MISS${missed.length ? ` (${missed.map((m) => m.figure).join(', ')})` : ''}` +
        ` — ${((Date.now() - started) / 1000).toFixed(1)} s; raw figures in bench-results.json`,
    );

    const childRun = (r: ChildRun) => {
      const { body: _body, ...report } = r.report;
      return { exitMs: round(r.exitMs), lineMs: round(r.lineMs), report };
    };
    const results = {
      date: new Date(started).toISOString(),
      node: process.version,
      platform: `${process.platform}/${process.arch}`,
      cpus: cpu.length,
      cpuModel: cpu[0]?.model.trim() ?? null,
      goals: GOALS,
      bundles: bundles.map((b) => ({ name: b.name, file: b.file.replace(root, ''), bytes: b.bytes, gzipBytes: b.gzipBytes })),
      coldInit: {
        runsPerKind: cold.runsPerKind,
        measure: 'wall ms from spawn to child exit (exitMs) and to its result line (lineMs)',
        floor: { medianExitMs: round(cold.floor.medianExitMs), medianLineMs: round(cold.floor.medianLineMs), runs: cold.floor.runs.map(childRun) },
        functions: cold.functions.map((f) => ({
          name: f.name,
          medianExitMs: round(f.medianExitMs),
          medianLineMs: round(f.medianLineMs),
          aboveFloorMs: round(f.medianExitMs - cold.floor.medianExitMs),
          medianRequireMs: round(f.medianRequireMs),
          medianFirstAnswerMs: round(f.medianFirstAnswerMs),
          medianChildStartToAnswerMs: round(f.medianChildStartToAnswerMs),
          runs: f.runs.map(childRun),
        })),
      },
      platformRows: rows,
      overheadByStore: overheads.map(({ store, oh: o }) => ({ store, toolMs: o.toolMs, directMs: o.directMs, overheadMs: o.overheadMs })),
      overhead: {
        tool: oh.tool,
        calls: oh.calls,
        warmup: oh.warmup,
        toolMs: { p50: round(oh.toolMs.p50), p99: round(oh.toolMs.p99) },
        directMs: { p50: round(oh.directMs.p50), p99: round(oh.directMs.p99) },
        overheadMs: { p50: round(oh.overheadMs.p50), p99: round(oh.overheadMs.p99) },
        samples: { toolMs: oh.samples.toolMs.map((n) => round(n)), directMs: oh.samples.directMs.map((n) => round(n)) },
      },
      tokens,
      batch: { ...batch, elapsedMs: round(batch.elapsedMs), ratio: round(batch.ratio) },
      verdicts,
    };
    await writeFile(resultsFile, `${JSON.stringify(results, null, 2)}\n`);
  } finally {
    await Promise.all(servers.map((srv) => srv.close()));
    await ddb.stop();
  }
  console.log(out.join('\n'));
}

/** A twin on a loopback port. */
async function listen(fetch: (request: Request) => Response | Promise<Response>): Promise<{ url: string; close(): Promise<void> }> {
  const server = serve({ fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve, reject) => {
    if (server.listening) return resolve();
    server.once('listening', () => resolve());
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The modules beside this file that export benchRows() (one per platform or tool group). */
async function platformRows(): Promise<{ module: string; row: BenchRow }[]> {
  const here = fileURLToPath(new URL('.', import.meta.url));
  const out: { module: string; row: BenchRow }[] = [];
  for (const file of (await readdir(here)).sort()) {
    if (!file.endsWith('.ts') || file === 'run.ts') continue;
    const mod = (await import(`./${file}`)) as { benchRows?: () => Promise<BenchRow[]> };
    if (typeof mod.benchRows !== 'function') continue;
    for (const row of await mod.benchRows()) out.push({ module: file.replace(/\.ts$/, ''), row });
  }
  return out;
}

try {
  await main();
} catch (err) {
  console.error(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exitCode = 1;
}
