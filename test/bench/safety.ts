import { performance } from 'node:perf_hooks';
import { dbapp } from '../../functions/dbapp';
import { createTapeTwin, SANDBOX_KEYS } from '../../infra/twins/tape';
import { loadConfig } from '../../shared/core/config';
import { createApp } from '../../shared/http/app';
import { createRuntime } from '../../shared/lambda/runtime';
import { DynamoStore } from '../../shared/store/dynamodb';
import { MemoryStore } from '../../shared/store/memory';
import type { Store } from '../../shared/store';
import { startDynamoDbLocal } from '../helpers/dynamodb-local';
import type { BenchRow } from './rows';
import { percentile } from './stats';

/**
 * Overhead of the Idempotency-Key check per write call: dbapp/createRecordComment
 * through the shared app against a zero-latency twin, with a fresh key per call (claim by
 * conditional write, then the outcome stored: two Store writes) against the same call without a
 * key. Pairs alternate which goes first, so drift falls on both alike.
 */
const CALLS = 200;
const WARMUP = 20;

async function measure(store: Store): Promise<{ p50: number; p99: number; replayP50: number }> {
  const twin = createTapeTwin({ credits: 1e12 });
  const rt = await createRuntime({ platforms: [dbapp], config: loadConfig({ RATE_LIMIT_MAX: '100000000' }), store, fetchFor: { dbapp: twin.fetch } });
  const app = createApp(rt);
  const body = JSON.stringify({ record_id: 5300, value: 'Bench comment' });
  let n = 0;
  const call = async (key?: string) => {
    const res = await app.request('/v1/tools/dbapp/createRecordComment', {
      method: 'POST',
      headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}`, 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
      body,
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`createRecordComment failed (HTTP ${res.status}): ${text.slice(0, 300)}`);
    return res.headers.get('idempotent-replayed');
  };
  const keyed: number[] = [];
  const plain: number[] = [];
  for (let i = 0; i < WARMUP + CALLS; i++) {
    const pair = i % 2 === 0 ? (['keyed', 'plain'] as const) : (['plain', 'keyed'] as const);
    for (const which of pair) {
      const t = performance.now();
      await call(which === 'keyed' ? `bench-${process.pid}-${n++}` : undefined);
      if (i >= WARMUP) (which === 'keyed' ? keyed : plain).push(performance.now() - t);
    }
  }
  // A replay: one Store read, no vendor call.
  const replayKey = `bench-${process.pid}-replay`;
  await call(replayKey);
  const replays: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const t = performance.now();
    if ((await call(replayKey)) !== 'true') throw new Error('expected a replay');
    replays.push(performance.now() - t);
  }
  return {
    p50: percentile(keyed, 50) - percentile(plain, 50),
    p99: percentile(keyed, 99) - percentile(plain, 99),
    replayP50: percentile(replays, 50),
  };
}

const ms = (n: number) => Math.round(n * 100) / 100;

export async function benchRows(): Promise<BenchRow[]> {
  const memory = await measure(new MemoryStore());
  const local = await startDynamoDbLocal({ table: 'bench-safety' });
  let dynamo;
  try {
    dynamo = await measure(new DynamoStore(local.client, local.table));
  } finally {
    await local.stop();
  }
  return [
    { figure: 'Idempotency-Key check per write call, memory store: p50 overhead', value: ms(memory.p50), unit: 'ms', goal: 1, better: 'lower', detail: `p99 ${ms(memory.p99)} ms; a replay answers in ${ms(memory.replayP50)} ms (p50)` },
    { figure: 'Idempotency-Key check per write call, DynamoDB Local: p50 overhead (claim + outcome, 2 conditional/plain writes)', value: ms(dynamo.p50), unit: 'ms', goal: 25, better: 'lower', detail: `p99 ${ms(dynamo.p99)} ms; a replay answers in ${ms(dynamo.replayP50)} ms (p50)` },
  ];
}
