/**
 * The DynamoDB overhead per warm call alone (the second part of `npm run bench:cold`, without the
 * cold starts): `npx tsx test/bench/warm-run.ts`. The same read and write calls through the Lambda
 * handler with the memory store and with DynamoDB Local as deployed — the audit trail's numbers
 * reserved one by one (as before blocks) and in blocks — WARM_ROUNDS rounds (default 5)
 * of WARM_CALLS calls each after a warm-up, the stores alternating; this process's CPU per call (the
 * twin and DynamoDB Local are other processes), the median of the rounds, and the Store requests per
 * call by operation (README "The DynamoDB overhead per warm call").
 */
import { loadavg } from 'node:os';
import { DEMO_LEADS_APP_ID } from '../../infra/twins/tape/demo';
import { AUDIT_BLOCK_MAX, auditBlocks, writeAudit, type AuditRecord } from '../../shared/core/audit';
import type { Store } from '../../shared/core/store';
import { MemoryStore } from '../../shared/store/memory';
import { startDynamoDbLocal, type DynamoDbLocal } from '../helpers/dynamodb-local';
import { deployedDynamoStore } from './cold';
import { measureKinds, type KindTiming } from './overhead';
import { lead } from './records';
import { median, ms, table } from './stats';
import { startVendor } from './vendor';
import { runWhenStarted } from './script';

const CALLS = Number(process.env.WARM_CALLS ?? 1_000);
/** WARM_ROUNDS=0 runs only the audit write alone. */
const ROUNDS = Number(process.env.WARM_ROUNDS ?? 5);
const WARMUP = 200;

const AUDIT_CHUNK = 200;
const AUDIT_CHUNKS = Number(process.env.AUDIT_CHUNKS ?? 20);

/**
 * The audit write alone, as execute makes it (writeAudit of a call's record), on DynamoDB Local:
 * blocks of 1 (as before) and of AUDIT_BLOCK_MAX alternating in chunks of AUDIT_CHUNK records, so
 * the machine's drift falls on both; CPU per record, median of the chunks.
 */
async function auditAlone(ddb: DynamoDbLocal): Promise<string[]> {
  const cpu: Record<number, number[]> = { 1: [], [AUDIT_BLOCK_MAX]: [] };
  const stores = { 1: deployedDynamoStore(ddb), [AUDIT_BLOCK_MAX]: deployedDynamoStore(ddb) } as Record<number, Store>;
  let i = 0;
  const record = (): AuditRecord => ({ kind: 'call', time: new Date().toISOString(), tenant: 'bench', key_id: 'key_bench', connection_id: 'con_bench', surface: 'rest', platform: 'dbapp', tool: 'getWorkspace', access: 'read', dry_run: false, outcome: 'OK', status: 200, duration_ms: 1.23, vendor_calls: 1, args_hash: 'f'.repeat(64), request_id: `req-${i++}` });
  for (let c = 0; c < AUDIT_CHUNKS + 1; c++) {
    for (const max of c % 2 ? [AUDIT_BLOCK_MAX, 1] : [1, AUDIT_BLOCK_MAX]) {
      auditBlocks.max = max;
      const start = process.cpuUsage();
      for (let k = 0; k < AUDIT_CHUNK; k++) await writeAudit(stores[max]!, { retentionDays: 90 }, record(), []);
      const used = process.cpuUsage(start);
      if (c > 0) cpu[max]!.push((used.user + used.system) / 1000 / AUDIT_CHUNK);
    }
  }
  auditBlocks.max = AUDIT_BLOCK_MAX;
  const before = median(cpu[1]!);
  const after = median(cpu[AUDIT_BLOCK_MAX]!);
  return [
    `The audit write alone on DynamoDB Local (writeAudit, ${AUDIT_CHUNKS} chunks of ${AUDIT_CHUNK} records each way, alternating, after one warm-up chunk): CPU per record`,
    table([
      ['audit numbers', 'requests per record', 'CPU per record, median [min–max of chunks]'],
      ['one by one (before)', '2 (UpdateItem, PutItem)', `${ms(before)} [${Math.min(...cpu[1]!).toFixed(2)}–${Math.max(...cpu[1]!).toFixed(2)}]`],
      [`blocks of up to ${AUDIT_BLOCK_MAX}`, `${(1 + 1 / AUDIT_BLOCK_MAX).toFixed(2)} (PutItem, UpdateItem per block)`, `${ms(after)} [${Math.min(...cpu[AUDIT_BLOCK_MAX]!).toFixed(2)}–${Math.max(...cpu[AUDIT_BLOCK_MAX]!).toFixed(2)}]`],
    ]),
    `  saved per call: ${ms(before - after)} of CPU`,
  ];
}

async function main(): Promise<void> {
  const load0 = loadavg();
  const ddb = await startDynamoDbLocal({ table: 'tes-bench-warm' });
  const vendor = await startVendor(0);
  try {
    const rounds: KindTiming[][] = [];
    for (let r = 0; r < ROUNDS; r++) {
      // The trail as it was (blocks of 1: an add and a put per call) and with blocks, in the same run.
      const blocks = (max: number) => (auditBlocks.max = max);
      const stores = [
        { name: 'memory', make: () => (blocks(AUDIT_BLOCK_MAX), new MemoryStore()) },
        { name: 'DynamoDB Local, audit blocks of 1', make: () => (blocks(1), deployedDynamoStore(ddb)) },
        { name: 'DynamoDB Local', make: () => (blocks(AUDIT_BLOCK_MAX), deployedDynamoStore(ddb)) },
      ];
      rounds.push(await measureKinds(`${vendor.base}/twins/tape`, r % 2 ? stores.reverse() : stores, CALLS, WARMUP, lead, DEMO_LEADS_APP_ID));
    }
    const of = (kind: string, store: string) => rounds.map((round) => round.find((k) => k.kind === kind && k.store === store)!);
    const requests = (runs: KindTiming[]) =>
      Object.entries(runs.at(-1)!.requests ?? {})
        .map(([op, n]) => `${op} ${n.toFixed(2)}`)
        .join(', ');
    const out = rounds.length === 0 ? [] : [
      `DynamoDB overhead per warm call — ${ROUNDS} rounds of ${CALLS} calls after ${WARMUP}, twin at 0 ms, node ${process.version}, load ${load0.map((n) => n.toFixed(1)).join(' / ')} → ${loadavg().map((n) => n.toFixed(1)).join(' / ')}`,
      table([
        ['kind', 'tool', 'store', 'CPU memory', 'CPU DynamoDB', 'DynamoDB overhead (CPU), median [rounds]', 'p50 memory / DynamoDB', 'DynamoDB requests per call'],
        ...(['read', 'write'] as const).flatMap((kind) => ['DynamoDB Local, audit blocks of 1', 'DynamoDB Local'].map((store) => {
          const mem = of(kind, 'memory');
          const dyn = of(kind, store);
          const diffs = dyn.map((d, i) => d.cpuMs - mem[i]!.cpuMs);
          return [
            kind,
            mem[0]!.tool,
            store === 'DynamoDB Local' ? `DynamoDB, audit blocks of ${AUDIT_BLOCK_MAX}` : 'DynamoDB, audit blocks of 1 (before)',
            ms(median(mem.map((k) => k.cpuMs))),
            ms(median(dyn.map((k) => k.cpuMs))),
            `${ms(median(diffs))} [${diffs.map((d) => d.toFixed(2)).join(', ')}]`,
            `${ms(median(mem.map((k) => k.p50Ms)))} / ${ms(median(dyn.map((k) => k.p50Ms)))}`,
            requests(dyn),
          ];
        })),
      ]),
    ];
    out.push(...(await auditAlone(ddb)));
    console.log(out.join('\n'));
  } finally {
    await vendor.stop();
    await ddb.stop();
  }
}

await runWhenStarted(import.meta.url, 'warm bench', main);
