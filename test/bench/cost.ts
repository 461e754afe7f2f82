import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { performance } from 'node:perf_hooks';
import { DEMO_LEADS_APP_ID } from '../../infra/twins/tape/demo';
import { DynamoStore } from '../../shared/store/dynamodb';
import { dbappLambda } from './lambda';
import { lead } from './records';
import { median } from './stats';

/**
 * Cost per million calls as deployed: measured wall time, service CPU and DynamoDB request units
 * per call, priced with AWS's published on-demand prices for us-east-1 (N. Virginia), as of 2025:
 * - Lambda arm64: $0.0000133334 per GB-second (first tier), $0.20 per 1M requests,
 *   billed per 1 ms — https://aws.amazon.com/lambda/pricing/
 * - API Gateway HTTP API: $1.00 per 1M requests (first 300M a month) — https://aws.amazon.com/api-gateway/pricing/
 * - DynamoDB on-demand: $0.625 per 1M write request units, $0.125 per 1M read request units
 *   (a write unit per 1 KB of item, a strongly consistent read unit per 4 KB) — https://aws.amazon.com/dynamodb/pricing/on-demand/
 * Free tiers are left out: the figure is the marginal price of a call.
 */
export const PRICES = {
  region: 'us-east-1',
  lambdaArmGbSecond: 0.0000133334,
  lambdaPerMillion: 0.2,
  httpApiPerMillion: 1.0,
  dynamoWruPerMillion: 0.625,
  dynamoRruPerMillion: 0.125,
} as const;

/** Lambda gives a full vCPU at 1,769 MB, proportionally less below (https://docs.aws.amazon.com/lambda/latest/dg/configuration-memory.html); one Node thread gains little above. */
export const FULL_VCPU_MB = 1_769;
export const cpuShare = (memoryMb: number): number => Math.min(1, memoryMb / FULL_VCPU_MB);

/** DynamoDB operations and the request units they consumed (as DynamoDB reports them: ReturnConsumedCapacity). */
export interface DynamoUsage {
  operations: Record<string, number>;
  readUnits: number;
  writeUnits: number;
}

/**
 * A DynamoDB client that asks every request for its consumed capacity and adds it up: the Store
 * is unchanged, the bench sees exactly the operations one call makes and the units billed for them.
 */
export function countingClient(config: DynamoDBClientConfig): { client: DynamoDBClient; usage: DynamoUsage; reset(): void } {
  const client = new DynamoDBClient(config);
  const usage: DynamoUsage = { operations: {}, readUnits: 0, writeUnits: 0 };
  const WRITES = new Set(['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand']);
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const name = String(context.commandName);
      (args.input as Record<string, unknown>).ReturnConsumedCapacity = 'TOTAL';
      usage.operations[name] = (usage.operations[name] ?? 0) + 1;
      const counted = (units: number | undefined) => {
        // DynamoDB Local may leave a unit out; the smallest item costs one unit.
        const n = units ?? 1;
        if (WRITES.has(name)) usage.writeUnits += n;
        else usage.readUnits += n;
      };
      try {
        const out = await next(args);
        counted((out.output as { ConsumedCapacity?: { CapacityUnits?: number } }).ConsumedCapacity?.CapacityUnits);
        return out;
      } catch (err) {
        // A refused conditional write is billed too.
        counted((err as { ConsumedCapacity?: { CapacityUnits?: number } }).ConsumedCapacity?.CapacityUnits);
        throw err;
      }
    },
    { step: 'initialize', name: 'benchConsumedCapacity' },
  );
  return {
    client,
    usage,
    reset() {
      usage.operations = {};
      usage.readUnits = 0;
      usage.writeUnits = 0;
    },
  };
}

export interface CallCost {
  kind: string;
  calls: number;
  /** Median wall time of one call through the handler, here. */
  wallMs: number;
  /** The service's CPU time per call (this process; the twin and DynamoDB Local run in others). */
  cpuMs: number;
  /** Per call. */
  dynamo: { operations: Record<string, number>; readUnits: number; writeUnits: number };
  /** Per memory size: the duration a Lambda would bill (waiting as here, CPU slowed by its share) and the cost per million calls. */
  byMemory: { memoryMb: number; durationMs: number; perMillionUsd: number; parts: { lambda: number; httpApi: number; dynamo: number } }[];
}

/** Duration at `memoryMb`: the time spent waiting as measured, the CPU time divided by the function's CPU share; billed per whole ms. */
export function priced(wallMs: number, cpuMs: number, readUnits: number, writeUnits: number, memoryMb: number): CallCost['byMemory'][number] {
  const waitMs = Math.max(0, wallMs - cpuMs);
  const durationMs = Math.ceil(waitMs + cpuMs / cpuShare(memoryMb));
  const lambda = (durationMs / 1000) * (memoryMb / 1024) * PRICES.lambdaArmGbSecond * 1e6 + PRICES.lambdaPerMillion;
  const httpApi = PRICES.httpApiPerMillion;
  const dynamo = readUnits * PRICES.dynamoRruPerMillion + writeUnits * PRICES.dynamoWruPerMillion;
  return { memoryMb, durationMs, perMillionUsd: lambda + httpApi + dynamo, parts: { lambda, httpApi, dynamo } };
}

/**
 * dbapp through its Lambda handler on the DynamoDB store (as deployed), Tape in the vendor process
 * at `tapeUrl`: a read (getWorkspace), a write (createRecord of a realistic Lead), the same write
 * with an Idempotency-Key, and a 50-record batchCreateRecords; each `calls` times after a warm-up.
 */
export async function measureCost(tapeUrl: string, dynamo: { endpoint: string; region: string; table: string; credentials: { accessKeyId: string; secretAccessKey: string } }, memorySizes: readonly number[], calls = 40): Promise<CallCost[]> {
  const counting = countingClient({ endpoint: dynamo.endpoint, region: dynamo.region, credentials: dynamo.credentials });
  const call = dbappLambda(tapeUrl, new DynamoStore(counting.client, dynamo.table));
  let n = 0;
  const kinds: { kind: string; calls: number; run: () => Promise<unknown> }[] = [
    { kind: 'read (getWorkspace)', calls, run: () => call('getWorkspace', { workspace_id: 1 }) },
    { kind: 'write (createRecord)', calls, run: () => call('createRecord', { app_id: DEMO_LEADS_APP_ID, fields: lead(n++) }) },
    { kind: 'write + Idempotency-Key', calls, run: () => call('createRecord', { app_id: DEMO_LEADS_APP_ID, fields: lead(n++) }, '', { 'idempotency-key': `bench-${Date.now()}-${n}` }) },
    { kind: 'batch of 50 (batchCreateRecords)', calls: Math.max(5, Math.round(calls / 4)), run: () => call('batchCreateRecords', { app_id: DEMO_LEADS_APP_ID, inputs: Array.from({ length: 50 }, () => ({ fields: lead(n++) })) }, 'format=json') },
  ];
  const out: CallCost[] = [];
  for (const k of kinds) {
    for (let i = 0; i < 3; i++) await k.run();
    counting.reset();
    const wall: number[] = [];
    const cpu = process.cpuUsage();
    for (let i = 0; i < k.calls; i++) {
      const t = performance.now();
      await k.run();
      wall.push(performance.now() - t);
    }
    const used = process.cpuUsage(cpu);
    const cpuMs = (used.user + used.system) / 1000 / k.calls;
    const per = (x: number) => x / k.calls;
    const operations = Object.fromEntries(Object.entries(counting.usage.operations).map(([name, count]) => [name.replace(/Command$/, ''), per(count)]));
    const readUnits = per(counting.usage.readUnits);
    const writeUnits = per(counting.usage.writeUnits);
    const wallMs = median(wall);
    out.push({ kind: k.kind, calls: k.calls, wallMs, cpuMs, dynamo: { operations, readUnits, writeUnits }, byMemory: memorySizes.map((m) => priced(wallMs, cpuMs, readUnits, writeUnits, m)) });
  }
  counting.client.destroy();
  return out;
}
