/**
 * The DynamoDB client's own CPU per request: `npx tsx test/bench/ddb-client.ts`. On DynamoDB Local,
 * the store with the SDK's default client, the store as deployed (shared/store/dynamo.ts) and, as a
 * floor, a bare keep-alive `http.request` of the same JSON (unsigned), alternating in chunks in one
 * process; this process's CPU (user + system) per request, the median of the rounds and its ratio to
 * the default client's (README "The DynamoDB overhead per warm call"). DDB_ROUNDS (default 30) rounds
 * of DDB_CALLS (default 150) calls per kind.
 */
import http from 'node:http';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Store } from '../../shared/core/store';
import { DynamoStore } from '../../shared/store/dynamodb';
import { environmentCredentials } from '../../shared/store/env-credentials';
import { startDynamoDbLocal, type DynamoDbLocal } from '../helpers/dynamodb-local';
import { deployedDynamoStore, dynamoColdEnv } from './cold';
import { median, table } from './stats';
import { runWhenStarted } from './script';

/** The floor: the same JSON bodies over one keep-alive agent, no SDK (DynamoDB Local does not check signatures). */
function bareRequests(ddb: DynamoDbLocal) {
  const agent = new http.Agent({ keepAlive: true });
  const { hostname, port } = new URL(ddb.endpoint);
  const post = (operation: string, body: unknown) =>
    new Promise<void>((resolve, reject) => {
      const json = JSON.stringify(body);
      const req = http.request(
        { host: hostname, port, method: 'POST', path: '/', agent, headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': `DynamoDB_20120810.${operation}`, authorization: 'AWS4-HMAC-SHA256 Credential=local/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0', 'content-length': Buffer.byteLength(json) } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`${operation}: ${res.statusCode} ${Buffer.concat(chunks).toString()}`))));
        },
      );
      req.on('error', reject);
      req.end(json);
    });
  const item = (key: string, value: unknown) => ({ pk: { S: key }, v: { S: JSON.stringify(value) }, expires_at: { N: String(Math.ceil(Date.now() / 1000) + 3600) }, expires_ms: { N: String(Date.now() + 3_600_000) } });
  return {
    put: (key: string, value: unknown) => post('PutItem', { TableName: ddb.table, Item: item(key, value) }),
    get: (key: string) => post('GetItem', { TableName: ddb.table, Key: { pk: { S: key } }, ConsistentRead: true }),
    // The counter's two requests, as plain as they come: an ADD, then a put.
    increment: async (key: string) => {
      await post('UpdateItem', { TableName: ddb.table, Key: { pk: { S: `${key}#n` } }, UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': { N: '1' } }, ReturnValues: 'ALL_NEW' });
      await post('PutItem', { TableName: ddb.table, Item: { pk: { S: `${key}#0` }, ts: { N: String(Date.now()) } } });
    },
  };
}

type Target = Pick<Store, 'put' | 'get' | 'increment'> | ReturnType<typeof bareRequests>;
const OPS = { put: 1, get: 1, increment: 2 } as const;
const VALUE = { text: 'x'.repeat(200), n: 12345, list: [1, 2, 3] };

async function main(): Promise<void> {
  const rounds = Number(process.env.DDB_ROUNDS ?? 30);
  const calls = Number(process.env.DDB_CALLS ?? 150);
  const ddb = await startDynamoDbLocal();
  try {
    const credentials = environmentCredentials(dynamoColdEnv(ddb))!;
    const kinds: [string, Target][] = [
      ['SDK default client', new DynamoStore(new DynamoDBClient({ region: ddb.region, endpoint: ddb.endpoint, credentials }), ddb.table)],
      ['as deployed', deployedDynamoStore(ddb)],
      ['bare http.request', bareRequests(ddb)],
    ];
    let i = 0;
    const run = async (target: Target, op: keyof typeof OPS, n: number) => {
      for (let j = 0; j < n; j++, i++) {
        if (op === 'put') await target.put(`bench-${i % 500}`, VALUE, 3600);
        else if (op === 'get') await target.get(`bench-${i % 500}`);
        else await target.increment(`bench-rate-${i % 50}`, 60, 1_000_000);
      }
    };
    for (const [, target] of kinds) for (const op of Object.keys(OPS) as (keyof typeof OPS)[]) await run(target, op, 300);
    const cpu: Record<string, number[]> = {};
    for (let r = 0; r < rounds; r++) {
      for (const op of Object.keys(OPS) as (keyof typeof OPS)[]) {
        for (const [name, target] of r % 2 ? [...kinds].reverse() : kinds) {
          const start = process.cpuUsage();
          await run(target, op, calls);
          const used = process.cpuUsage(start);
          (cpu[`${name}|${op}`] ??= []).push((used.user + used.system) / 1000 / (calls * OPS[op]));
        }
      }
    }
    const base = kinds[0]![0];
    const rows = kinds.map(([name]) => [
      name,
      ...(Object.keys(OPS) as (keyof typeof OPS)[]).map((op) => {
        const mine = cpu[`${name}|${op}`]!;
        const ratio = median(mine.map((v, r) => v / cpu[`${base}|${op}`]![r]!));
        return `${median(mine).toFixed(3)} ms (×${ratio.toFixed(2)})`;
      }),
    ]);
    console.log(`DynamoDB client CPU per request — ${rounds} rounds of ${calls} calls per kind, alternating, node ${process.version}`);
    console.log(table([['client', 'put (PutItem)', 'get (GetItem)', 'increment (per request)'], ...rows]));
  } finally {
    await ddb.stop();
  }
}

await runWhenStarted(import.meta.url, 'ddb-client', main);
