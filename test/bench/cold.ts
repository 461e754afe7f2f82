import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { median } from './stats';

/** What one fresh process reported: wall times seen by the bench, and its own figures. */
export interface ChildRun {
  /** Spawn → the child's exit. */
  exitMs: number;
  /** Spawn → the child's result line on stdout (answer complete). */
  lineMs: number;
  /** The child's own report (the cold child: require and first-answer times from its start). */
  report: Record<string, unknown>;
}

export interface ColdResult {
  name: string;
  /** The store of the run: "memory" or "DynamoDB Local". */
  store: string;
  file: string;
  runs: ChildRun[];
  /** Spawn → first answer (the child's result line): what a caller waits for. */
  medianLineMs: number;
  /** Spawn → exit (for reference: the process exit is no part of an answer). */
  medianExitMs: number;
  /** In the child, from its process start (performance.timeOrigin). */
  medianRequireMs: number;
  medianFirstAnswerMs: number;
  medianChildStartToAnswerMs: number;
}

export interface ColdReport {
  runsPerKind: number;
  floor: { runs: ChildRun[]; medianExitMs: number; medianLineMs: number };
  functions: ColdResult[];
}

/** A realistic API Gateway HTTP API (payload 2.0) event for POST /v1/tools/{platform}/{tool} with `params` as its body. */
export function toolEvent(platform: string, tool: string, params: Record<string, unknown>, key: string): Record<string, unknown> {
  const body = JSON.stringify(params);
  const now = Date.now();
  return {
    version: '2.0',
    routeKey: 'POST /v1/tools/{platform}/{tool}',
    rawPath: `/v1/tools/${platform}/${tool}`,
    rawQueryString: '',
    headers: {
      accept: '*/*',
      authorization: `Bearer ${key}`,
      'content-length': String(body.length),
      'content-type': 'application/json',
      host: 'abc123defg.execute-api.eu-central-1.amazonaws.com',
      'user-agent': 'curl/8.5.0',
      'x-amzn-trace-id': 'Root=1-65f1a2b3-0123456789abcdef01234567',
      'x-forwarded-for': '203.0.113.7',
      'x-forwarded-port': '443',
      'x-forwarded-proto': 'https',
    },
    requestContext: {
      accountId: '123456789012',
      apiId: 'abc123defg',
      domainName: 'abc123defg.execute-api.eu-central-1.amazonaws.com',
      domainPrefix: 'abc123defg',
      http: { method: 'POST', path: `/v1/tools/${platform}/${tool}`, protocol: 'HTTP/1.1', sourceIp: '203.0.113.7', userAgent: 'curl/8.5.0' },
      requestId: 'JKJaXmPLvHcESHA=',
      routeKey: 'POST /v1/tools/{platform}/{tool}',
      stage: '$default',
      time: new Date(now).toUTCString(),
      timeEpoch: now,
    },
    pathParameters: { platform, tool },
    body,
    isBase64Encoded: false,
  };
}

/**
 * Runs in the fresh process (CommonJS `node -e`): requires the bundle, answers one event through
 * `handler` with a minimal Lambda context, prints one JSON line and exits at once.
 */
const COLD_CHILD = `
const t0 = performance.now();
const { handler } = require(process.env.BENCH_BUNDLE);
const t1 = performance.now();
const event = JSON.parse(process.env.BENCH_EVENT);
const deadline = Date.now() + 30000;
const context = {
  callbackWaitsForEmptyEventLoop: true,
  functionName: 'bench', functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:eu-central-1:123456789012:function:bench',
  memoryLimitInMB: '1024', awsRequestId: 'c6af9ac6-7b61-11e6-9a41-93e812345678',
  logGroupName: '/aws/lambda/bench', logStreamName: '2024/01/01/[$LATEST]bench',
  getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
  done() {}, fail() {}, succeed() {},
};
Promise.resolve(handler(event, context)).then((res) => {
  const t2 = performance.now();
  process.stdout.write(JSON.stringify({ statusCode: res && res.statusCode, isBase64Encoded: res && res.isBase64Encoded, body: res && res.body,
    requireMs: t1 - t0, firstAnswerMs: t2 - t1, startToAnswerMs: t2 }) + '\\n');
  process.exit(0);
}, (err) => {
  process.stderr.write(String(err && err.stack || err) + '\\n');
  process.exit(1);
});
`;

/** The floor: the same kind of process, printing one line and exiting, with nothing loaded. */
const FLOOR_CHILD = `process.stdout.write('{"floor":true}\\n'); process.exit(0);`;

const CHILD_TIMEOUT_MS = 15_000;

function runChild(script: string, env: NodeJS.ProcessEnv): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, ['-e', script], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let lineMs: number | undefined;
    let exitMs: number | undefined;
    let exitCode: number | null = null;
    let exitSignal: NodeJS.Signals | null = null;
    const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_TIMEOUT_MS);
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      stdout += chunk;
      if (lineMs === undefined && stdout.includes('\n')) lineMs = performance.now() - start;
    });
    child.stderr.on('data', (chunk: string) => (stderr += chunk));
    child.on('exit', (code, signal) => {
      exitMs = performance.now() - start;
      exitCode = code;
      exitSignal = signal;
    });
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', () => {
      clearTimeout(timer);
      if (exitCode !== 0 || exitMs === undefined || lineMs === undefined) {
        reject(new Error(`child failed (code ${exitCode}, signal ${exitSignal}):\nstdout: ${stdout}\nstderr: ${stderr}`));
        return;
      }
      const first = stdout.slice(0, stdout.indexOf('\n'));
      let report: Record<string, unknown>;
      try {
        report = JSON.parse(first) as Record<string, unknown>;
      } catch {
        reject(new Error(`child printed no JSON line:\nstdout: ${stdout}\nstderr: ${stderr}`));
        return;
      }
      resolve({ exitMs, lineMs, report });
    });
  });
}

/** Fails loudly unless the Lambda answer is HTTP 200 with a success:true envelope. */
function assertSuccess(name: string, report: Record<string, unknown>): void {
  const raw = typeof report.body === 'string' ? report.body : '';
  const text = report.isBase64Encoded === true ? Buffer.from(raw, 'base64').toString('utf8') : raw;
  let envelope: { success?: unknown } | undefined;
  try {
    envelope = JSON.parse(text) as { success?: unknown };
  } catch {
    envelope = undefined;
  }
  if (report.statusCode !== 200 || envelope?.success !== true) {
    throw new Error(`cold init of ${name}: the handler did not answer success:true (status ${String(report.statusCode)}): ${text.slice(0, 500)}`);
  }
}

export interface ColdTarget {
  /** The bundle's vendor twin (in the vendor process, on loopback). */
  baseUrl: string;
  /** The API Gateway event the bundle answers (its platform's read-only probe). */
  event: Record<string, unknown>;
}

export interface ColdStore {
  name: string;
  env: NodeJS.ProcessEnv;
}

/**
 * Cold start: each bundle with each store, and the empty-process floor, in fresh `node` processes,
 * interleaved round by round (order alternating), after one untimed warm-up of each (file cache).
 * Each bundle answers its platform's probe against its own twin; the figure is spawn → first
 * answer (the line the child prints the moment the handler answers), not spawn → exit.
 */
export async function measureColdInit(bundles: readonly { name: string; file: string }[], targets: Record<string, ColdTarget>, runs: number, stores: readonly ColdStore[]): Promise<ColdReport> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.NODE_OPTIONS;
  delete env.STORE;
  delete env.TABLE_NAME;
  const bundleEnv = (name: string): NodeJS.ProcessEnv => {
    const target = targets[name];
    if (!target) throw new Error(`cold init: no twin and probe for function "${name}"`);
    return { ...env, [`${name.toUpperCase()}_BASE_URL`]: target.baseUrl, BENCH_EVENT: JSON.stringify(target.event) };
  };
  const key = (name: string, store: string) => `${name}\u0000${store}`;
  const kinds = [
    { key: '(floor)', script: FLOOR_CHILD, env },
    ...bundles.flatMap((b) => stores.map((s) => ({ key: key(b.name, s.name), script: COLD_CHILD, env: { ...bundleEnv(b.name), ...s.env, BENCH_BUNDLE: b.file } }))),
  ];
  const results = new Map<string, ChildRun[]>(kinds.map((k) => [k.key, []]));

  for (const k of kinds) {
    const warm = await runChild(k.script, k.env);
    if (k.script === COLD_CHILD) assertSuccess(k.key, warm.report);
  }
  for (let round = 0; round < runs; round++) {
    const order = round % 2 === 0 ? kinds : [...kinds].reverse();
    for (const k of order) {
      const run = await runChild(k.script, k.env);
      if (k.script === COLD_CHILD) assertSuccess(k.key, run.report);
      results.get(k.key)?.push(run);
    }
  }

  const floorRuns = results.get('(floor)') ?? [];
  const num = (r: ChildRun, name: string) => (typeof r.report[name] === 'number' ? (r.report[name] as number) : Number.NaN);
  return {
    runsPerKind: runs,
    floor: { runs: floorRuns, medianExitMs: median(floorRuns.map((r) => r.exitMs)), medianLineMs: median(floorRuns.map((r) => r.lineMs)) },
    functions: bundles.flatMap((b) =>
      stores.map((s) => {
        const rs = results.get(key(b.name, s.name)) ?? [];
        return {
          name: b.name,
          store: s.name,
          file: b.file,
          runs: rs,
          medianLineMs: median(rs.map((r) => r.lineMs)),
          medianExitMs: median(rs.map((r) => r.exitMs)),
          medianRequireMs: median(rs.map((r) => num(r, 'requireMs'))),
          medianFirstAnswerMs: median(rs.map((r) => num(r, 'firstAnswerMs'))),
          medianChildStartToAnswerMs: median(rs.map((r) => num(r, 'startToAnswerMs'))),
        };
      }),
    ),
  };
}
