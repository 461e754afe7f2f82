/**
 * `npm run bench:cold`: the cold-start piece of the bench alone, as deployed — every function's
 * built bundle required as Lambda does, with serverless.yml's environment, on DynamoDB Local (the
 * store a deployment uses; COLD_STORES=memory,dynamodb adds the memory store), the twins in another
 * process — beside the empty process's floor and the store's floor (the store module alone made
 * ready: the DynamoDB client loaded, credentials resolved, one round trip). Median and spread
 * (min–max) of COLD_RUNS interleaved runs (default 7); COLD_FUNCTIONS=dbapp,crm picks functions.
 * Raw figures go to bench-cold.json.
 */
import { writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildAll } from '../../infra/build';
import { startDynamoDbLocal } from '../helpers/dynamodb-local';
import { MemoryStore } from '../../shared/store/memory';
import { DEMO_LEADS_APP_ID } from '../../infra/twins/tape/demo';
import { buildStoreFloor, coldTargets, deployedDynamoStore, dynamoColdEnv, measureColdInit, type ChildRun, type ColdStore } from './cold';
import { measureKinds } from './overhead';
import { lead } from './records';
import { deployedEnvironment } from './deployed';
import { ms, round, table } from './stats';
import { startVendor } from './vendor';
import { runWhenStarted } from './script';

const root = fileURLToPath(new URL('../..', import.meta.url));
const BENCH_BUCKET = 'tes-bench-blobs';
const WARM_CALLS = Number(process.env.WARM_CALLS ?? 1_000);
const WARM_WARMUP = 200;

/** "median [min–max]" of the samples. */
function spread(samples: readonly number[]): { median: number; min: number; max: number; text: string } {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  const min = sorted[0]!;
  const max = sorted[sorted.length - 1]!;
  return { median, min, max, text: `${ms(median)} [${min.toFixed(0)}–${max.toFixed(0)}]` };
}

const cpuOf = (r: ChildRun) => Number(r.report.cpuMs);

async function main(): Promise<void> {
  const runs = Number(process.env.COLD_RUNS ?? 7);
  const wanted = process.env.COLD_FUNCTIONS?.split(',').filter(Boolean);
  const storeKinds = (process.env.COLD_STORES ?? 'dynamodb').split(',');
  const load0 = loadavg();
  const bundles = await buildAll();
  const storeFloorFile = await buildStoreFloor(bundles[0]!.file);

  const ddb = await startDynamoDbLocal({ table: 'tes-bench' });
  const vendor = await startVendor(0);
  try {
    const targets = coldTargets(vendor.base);
    const stores: ColdStore[] = [];
    if (storeKinds.includes('memory')) stores.push({ name: 'memory', env: { STORE: 'memory' } });
    if (storeKinds.includes('dynamodb')) stores.push({ name: 'DynamoDB Local', env: dynamoColdEnv(ddb) });
    const deployed = deployedEnvironment({ StoreTable: ddb.table, BlobBucket: BENCH_BUCKET });
    const measured = bundles.filter((b) => targets[b.name] !== undefined && (!wanted || wanted.includes(b.name)));
    const cold = await measureColdInit(measured, targets, runs, stores, deployed, { file: storeFloorFile, env: dynamoColdEnv(ddb) });
    const floorLine = spread(cold.floor.runs.map((r) => r.lineMs));
    const floorCpu = spread(cold.floor.runs.map(cpuOf));
    const storeLine = spread(cold.storeFloor!.runs.map((r) => r.lineMs));
    const storeCpu = spread(cold.storeFloor!.runs.map(cpuOf));
    const rows = cold.functions.map((f) => {
      const above = spread(f.runs.map((r) => r.lineMs - cold.floor.medianLineMs));
      const cpu = spread(f.runs.map(cpuOf));
      return { name: f.name, store: f.store, above, cpu, require: spread(f.runs.map((r) => Number(r.report.requireMs))), answer: spread(f.runs.map((r) => Number(r.report.firstAnswerMs))) };
    });
    const out: string[] = [
      `Cold start as deployed — ${runs} interleaved runs, node ${process.version}, load average ${load0.map((n) => n.toFixed(1)).join(' / ')} → ${loadavg().map((n) => n.toFixed(1)).join(' / ')}`,
      `floor (empty node): spawn → line ${floorLine.text}, CPU ${floorCpu.text}`,
      `store floor (the store module alone: client loaded, credentials, one GetItem): spawn → ready ${spread(cold.storeFloor!.runs.map((r) => r.lineMs - cold.floor.medianLineMs)).text} above the floor (line ${storeLine.text}), CPU ${storeCpu.text}`,
      table([
        ['function', 'store', 'first answer above floor: median [min–max]', 'CPU to the answer', 'require', 'require → answer'],
        ...rows.map((r) => [r.name, r.store, r.above.text, r.cpu.text, r.require.text, r.answer.text]),
      ]),
    ];
    // The DynamoDB overhead per warm call: the same calls through the Lambda handler with the
    // memory store and with DynamoDB as deployed; this process's CPU per call (the twin and
    // DynamoDB Local are other processes).
    const warm = await measureKinds(`${vendor.base}/twins/tape`, [{ name: 'memory', make: () => new MemoryStore() }, { name: 'DynamoDB Local', make: () => deployedDynamoStore(ddb) }], WARM_CALLS, WARM_WARMUP, lead, DEMO_LEADS_APP_ID);
    const of = (kind: string, store: string) => warm.find((k) => k.kind === kind && k.store === store)!;
    out.push(`DynamoDB overhead per warm call (${WARM_CALLS} calls after ${WARM_WARMUP}, twin at 0 ms): this process's CPU per call, DynamoDB − memory`);
    out.push(
      table([
        ['kind', 'tool', 'CPU memory', 'of which the vendor request', 'CPU DynamoDB', 'DynamoDB overhead (CPU)', 'p50 memory / DynamoDB'],
        ...(['read', 'write'] as const).map((kind) => {
          const mem = of(kind, 'memory');
          const dyn = of(kind, 'DynamoDB Local');
          return [kind, mem.tool, ms(mem.cpuMs), mem.vendorCpuMs !== undefined ? ms(mem.vendorCpuMs) : '', ms(dyn.cpuMs), ms(dyn.cpuMs - mem.cpuMs), `${ms(mem.p50Ms)} / ${ms(dyn.p50Ms)}`];
        }),
      ]),
    );
    console.log(out.join('\n'));
    const strip = (r: ChildRun) => {
      const { body: _body, ...report } = r.report;
      return { lineMs: round(r.lineMs), exitMs: round(r.exitMs), report, ...(r.list ? { list: r.list } : {}) };
    };
    await writeFile(
      join(root, 'bench-cold.json'),
      `${JSON.stringify({ date: new Date().toISOString(), node: process.version, runs, loadAverage: [load0, loadavg()], floor: cold.floor.runs.map(strip), storeFloor: cold.storeFloor!.runs.map(strip), functions: cold.functions.map((f) => ({ name: f.name, store: f.store, runs: f.runs.map(strip) })), summary: rows.map((r) => ({ name: r.name, store: r.store, aboveFloorMs: r.above, cpuMs: r.cpu })) }, null, 2)}\n`,
    );
  } finally {
    await vendor.stop();
    await ddb.stop();
  }
}

await runWhenStarted(import.meta.url, 'bench:cold', main);
