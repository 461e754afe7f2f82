/**
 * The DynamoDB overhead per warm call alone (the second part of `npm run bench:cold`, without the
 * cold starts): `npx tsx test/bench/warm-run.ts`. The same read and write calls through the Lambda
 * handler with the memory store and with DynamoDB Local as deployed, WARM_ROUNDS rounds (default 3)
 * of WARM_CALLS calls each after a warm-up, the stores alternating; this process's CPU per call (the
 * twin and DynamoDB Local are other processes), the median of the rounds, and the Store requests per
 * call by operation (README "The DynamoDB overhead per warm call").
 */
import { loadavg } from 'node:os';
import { DEMO_LEADS_APP_ID } from '../../infra/twins/tape/demo';
import { MemoryStore } from '../../shared/store/memory';
import { startDynamoDbLocal } from '../helpers/dynamodb-local';
import { deployedDynamoStore } from './cold';
import { measureKinds, type KindTiming } from './overhead';
import { lead } from './records';
import { median, ms, table } from './stats';
import { startVendor } from './vendor';

const CALLS = Number(process.env.WARM_CALLS ?? 1_000);
const ROUNDS = Number(process.env.WARM_ROUNDS ?? 3);
const WARMUP = 200;

async function main(): Promise<void> {
  const load0 = loadavg();
  const ddb = await startDynamoDbLocal({ table: 'tes-bench-warm' });
  const vendor = await startVendor(0);
  try {
    const rounds: KindTiming[][] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const stores = [{ name: 'memory', make: () => new MemoryStore() }, { name: 'DynamoDB Local', make: () => deployedDynamoStore(ddb) }];
      rounds.push(await measureKinds(`${vendor.base}/twins/tape`, r % 2 ? stores.reverse() : stores, CALLS, WARMUP, lead, DEMO_LEADS_APP_ID));
    }
    const of = (kind: string, store: string) => rounds.map((round) => round.find((k) => k.kind === kind && k.store === store)!);
    const requests = (runs: KindTiming[]) =>
      Object.entries(runs.at(-1)!.requests ?? {})
        .map(([op, n]) => `${op} ${n.toFixed(2)}`)
        .join(', ');
    const out = [
      `DynamoDB overhead per warm call — ${ROUNDS} rounds of ${CALLS} calls after ${WARMUP}, twin at 0 ms, node ${process.version}, load ${load0.map((n) => n.toFixed(1)).join(' / ')} → ${loadavg().map((n) => n.toFixed(1)).join(' / ')}`,
      table([
        ['kind', 'tool', 'CPU memory', 'CPU DynamoDB', 'DynamoDB overhead (CPU), median [rounds]', 'p50 memory / DynamoDB', 'DynamoDB requests per call'],
        ...(['read', 'write'] as const).map((kind) => {
          const mem = of(kind, 'memory');
          const dyn = of(kind, 'DynamoDB Local');
          const diffs = dyn.map((d, i) => d.cpuMs - mem[i]!.cpuMs);
          return [
            kind,
            mem[0]!.tool,
            ms(median(mem.map((k) => k.cpuMs))),
            ms(median(dyn.map((k) => k.cpuMs))),
            `${ms(median(diffs))} [${diffs.map((d) => d.toFixed(2)).join(', ')}]`,
            `${ms(median(mem.map((k) => k.p50Ms)))} / ${ms(median(dyn.map((k) => k.p50Ms)))}`,
            requests(dyn),
          ];
        }),
      ]),
    ];
    console.log(out.join('\n'));
  } finally {
    await vendor.stop();
    await ddb.stop();
  }
}

try {
  await main();
} catch (err) {
  console.error(`warm bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exitCode = 1;
}
