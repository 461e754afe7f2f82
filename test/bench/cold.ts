import { spawn } from 'node:child_process';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { LAMBDA_BUILD, STORE_CLIENT_FILE, storeApart } from '../../infra/build';
import { cacheFiles } from '../../shared/store/code-cache';
import { performance } from 'node:perf_hooks';
import { localPlatforms } from '../../infra/local/platforms';
import { createDynamoStore } from '../../shared/store/dynamo';
import { LOCAL_CREDENTIALS, type DynamoDbLocal } from '../helpers/dynamodb-local';
import { median } from './stats';
import { mcpListEvent, toolEvent } from '../../infra/lambda-events';

/** What one fresh process reported: wall times seen by the bench, and its own figures. */
export interface ChildRun {
  /** Spawn → the child's exit. */
  exitMs: number;
  /** Spawn → the child's result line on stdout (answer complete). */
  lineMs: number;
  /** The child's own report (the cold child: require and first-answer times from its start, CPU ms to the answer, lazy packages loaded by then). */
  report: Record<string, unknown>;
  /** The cold child's second report: its first MCP tools/list (ms, CPU ms, tools listed). */
  list?: Record<string, unknown>;
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
  /** CPU time (user + system) of the process from its start to the first answer. */
  medianCpuMs: number;
  /** The container's first MCP tools/list, after the first answer: wall and CPU ms, and how many tools it listed. */
  medianListMs: number;
  medianListCpuMs: number;
  /** CPU of the event-loop turn between the first answer and the list: what the handler warms once it has answered. */
  medianGapCpuMs: number;
  listedTools: number;
  /** LAZY_PACKAGES found in the require cache at the first answer (in any run): should be none. */
  lazyLoaded: string[];
}

export interface FloorResult {
  runs: ChildRun[];
  medianExitMs: number;
  medianLineMs: number;
  medianCpuMs: number;
}

export interface ColdReport {
  runsPerKind: number;
  floor: FloorResult;
  /** The store alone (STORE_FLOOR_CHILD), when measured. */
  storeFloor?: FloorResult;
  functions: ColdResult[];
}

/** Packages that must not be loaded before a call that needs them (checked in the child's require cache after its first answer). */
export const LAZY_PACKAGES = ['@aws-sdk/client-s3', '@aws-sdk/client-lambda', '@aws-sdk/s3-request-presigner', 'officeparser', 'tesseract.js', '@tesseract.js-data/eng', 'image-size', 'franc-min', 'pdfjs-dist'];

/** The marker of the child's result line: with LOG_LEVEL=info and METRICS=on the handler writes its own lines to stdout too. */
export const RESULT_MARK = '@@bench-result ';

/**
 * Runs in the fresh process (CommonJS `node -e`): requires the bundle, answers one event through
 * `handler` with a minimal Lambda context, prints one marked JSON line (with the CPU time the process
 * used to the answer and the lazy packages already loaded), lets the event loop turn once (as
 * Lambda's runtime does, posting the answer), then answers the container's first MCP tools/list
 * (BENCH_LIST_EVENT, when given), prints a second line, and exits at once.
 */
const COLD_CHILD = `
const t0 = performance.now();
// An .mjs handler (the combined function's split build) is an ES module, which the runtime imports.
const bundle = process.env.BENCH_BUNDLE;
(bundle.endsWith('.mjs') ? import(require('node:url').pathToFileURL(bundle).href) : Promise.resolve(require(bundle))).then(({ handler }) => {
const t1 = performance.now();
const event = JSON.parse(process.env.BENCH_EVENT);
const deadline = Date.now() + 30000;
const context = {
  callbackWaitsForEmptyEventLoop: true,
  functionName: 'bench', functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:eu-central-1:123456789012:function:bench',
  memoryLimitInMB: '512', awsRequestId: 'c6af9ac6-7b61-11e6-9a41-93e812345678',
  logGroupName: '/aws/lambda/bench', logStreamName: '2024/01/01/[$LATEST]bench',
  getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
  done() {}, fail() {}, succeed() {},
};
const lazy = JSON.parse(process.env.BENCH_LAZY || '[]');
const loadedLazy = () => { const paths = Object.keys(require.cache); return lazy.filter((m) => paths.some((p) => p.includes('/node_modules/' + m + '/'))); };
const mark = ${JSON.stringify(RESULT_MARK)};
Promise.resolve(handler(event, context)).then(async (res) => {
  const t2 = performance.now();
  const cpu = process.cpuUsage();
  process.stdout.write(mark + JSON.stringify({ statusCode: res && res.statusCode, isBase64Encoded: res && res.isBase64Encoded, body: res && res.body,
    requireMs: t1 - t0, firstAnswerMs: t2 - t1, startToAnswerMs: t2, cpuMs: (cpu.user + cpu.system) / 1000, lazyLoaded: loadedLazy() }) + '\\n');
  if (process.env.BENCH_LIST_EVENT) {
    // Lambda's runtime posts the answer and waits for the next event: the event loop turns in
    // between, and what the handler left for that turn (loading the other routes) runs there.
    const gap0 = process.cpuUsage();
    await new Promise((resolve) => setImmediate(resolve));
    const gap = process.cpuUsage(gap0);
    const cpu0 = process.cpuUsage();
    const t3 = performance.now();
    const listed = await handler(JSON.parse(process.env.BENCH_LIST_EVENT), context);
    const t4 = performance.now();
    const used = process.cpuUsage(cpu0);
    let tools = -1;
    try {
      const text = listed.isBase64Encoded ? Buffer.from(listed.body, 'base64').toString('utf8') : String(listed.body);
      const json = text.trimStart().startsWith('{') ? text : text.split('\\n').find((l) => l.startsWith('data: ')).slice(6);
      tools = JSON.parse(json).result.tools.length;
    } catch {}
    process.stdout.write(mark + JSON.stringify({ list: true, statusCode: listed && listed.statusCode, tools, listMs: t4 - t3, listCpuMs: (used.user + used.system) / 1000, gapCpuMs: (gap.user + gap.system) / 1000 }) + '\\n');
  }
  process.exit(0);
}, (err) => {
  process.stderr.write(String(err && err.stack || err) + '\\n');
  process.exit(1);
});
});
`;

/** The floor: the same kind of process, printing one line and exiting, with nothing loaded. */
const FLOOR_CHILD = `const c = process.cpuUsage(); process.stdout.write(${JSON.stringify(RESULT_MARK)} + JSON.stringify({ floor: true, cpuMs: (c.user + c.system) / 1000 }) + '\\n'); process.exit(0);`;

/**
 * The store's floor: a fresh process that requires only the store module as the bundles carry it
 * (BENCH_BUNDLE: shared/store built alone, test/bench/cold-run.ts) and makes the store ready as a
 * function's init does (createStore, then warm: the client loaded, credentials resolved, one
 * round trip to the table), then prints its line: what the DynamoDB client alone costs a cold start.
 */
const STORE_FLOOR_CHILD = `
const { createStore } = require(process.env.BENCH_BUNDLE);
const e = process.env;
createStore({ kind: 'dynamodb', table: e.TABLE_NAME, endpoint: e.DYNAMODB_ENDPOINT, region: e.AWS_REGION }).then((s) => s.warm()).then(() => {
  const c = process.cpuUsage();
  process.stdout.write(${JSON.stringify(RESULT_MARK)} + JSON.stringify({ storeFloor: true, cpuMs: (c.user + c.system) / 1000, startToAnswerMs: performance.now() }) + '\\n');
  process.exit(0);
}, (err) => { process.stderr.write(String(err && err.stack || err) + '\\n'); process.exit(1); });
`;

const CHILD_TIMEOUT_MS = 15_000;

/** The complete marked lines of a child's stdout, marker removed. */
const marked = (stdout: string): string[] =>
  stdout
    .split('\n')
    .slice(0, -1)
    .filter((l) => l.startsWith(RESULT_MARK))
    .map((l) => l.slice(RESULT_MARK.length));

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
      if (lineMs === undefined && marked(stdout).length > 0) lineMs = performance.now() - start;
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
      let reports: Record<string, unknown>[];
      try {
        reports = marked(stdout).map((line) => JSON.parse(line) as Record<string, unknown>);
      } catch {
        reject(new Error(`child printed no JSON result line:\nstdout: ${stdout}\nstderr: ${stderr}`));
        return;
      }
      const [report, list] = reports;
      if (!report) {
        reject(new Error(`child printed no result line:\nstdout: ${stdout}\nstderr: ${stderr}`));
        return;
      }
      resolve({ exitMs, lineMs, report, ...(list ? { list } : {}) });
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
  event: object;
  /** An MCP tools/list event, answered after the first answer: the container's first list. */
  listEvent?: object;
}

export interface ColdStore {
  name: string;
  env: NodeJS.ProcessEnv;
}

/**
 * Cold start: each bundle with each store, and the empty-process floor, in fresh `node` processes,
 * interleaved round by round (order alternating), after one untimed warm-up of each (file cache).
 * Every bundle runs with `deployed` (serverless.yml's environment, test/bench/deployed.ts) under
 * the store's own variables. Each answers its platform's probe against its own twin; the figure is
 * spawn → first answer (the line the child prints the moment the handler answers), not spawn →
 * exit, with the CPU time (user + system) the process used to that answer; then the container's
 * first MCP tools/list.
 */
export async function measureColdInit(
  bundles: readonly { name: string; file: string }[],
  targets: Record<string, ColdTarget>,
  runs: number,
  stores: readonly ColdStore[],
  deployed: Record<string, string>,
  /** The store module built alone, and the store's variables: measured as the store's floor beside the rest. */
  storeFloor?: { file: string; env: NodeJS.ProcessEnv },
): Promise<ColdReport> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.NODE_OPTIONS;
  for (const name of ['STORE', 'TABLE_NAME', 'BLOB_BUCKET', 'LOG_LEVEL', 'METRICS', 'METRICS_NAMESPACE', 'RATE_LIMIT_MAX', 'RATE_LIMIT_WINDOW_SECONDS']) delete env[name];
  const bundleEnv = (name: string): NodeJS.ProcessEnv => {
    const target = targets[name];
    if (!target) throw new Error(`cold init: no twin and probe for function "${name}"`);
    return {
      ...env,
      ...deployed,
      [`${name.toUpperCase()}_BASE_URL`]: target.baseUrl,
      BENCH_EVENT: JSON.stringify(target.event),
      BENCH_LAZY: JSON.stringify(LAZY_PACKAGES),
      ...(target.listEvent ? { BENCH_LIST_EVENT: JSON.stringify(target.listEvent) } : {}),
    };
  };
  const key = (name: string, store: string) => `${name}\u0000${store}`;
  const kinds = [
    { key: '(floor)', script: FLOOR_CHILD, env },
    ...(storeFloor ? [{ key: '(store floor)', script: STORE_FLOOR_CHILD, env: { ...env, ...deployed, ...storeFloor.env, BENCH_BUNDLE: storeFloor.file } }] : []),
    ...bundles.flatMap((b) => stores.map((s) => ({ key: key(b.name, s.name), script: COLD_CHILD, env: { ...bundleEnv(b.name), ...s.env, BENCH_BUNDLE: b.file } }))),
  ];
  const results = new Map<string, ChildRun[]>(kinds.map((k) => [k.key, []]));

  const checked = (k: (typeof kinds)[number], run: ChildRun): ChildRun => {
    if (k.script !== COLD_CHILD) return run;
    assertSuccess(k.key, run.report);
    if (run.list && run.list.statusCode !== 200) throw new Error(`cold init of ${k.key}: the first tools/list answered HTTP ${String(run.list.statusCode)}`);
    return run;
  };
  for (const k of kinds) checked(k, await runChild(k.script, k.env));
  for (let round = 0; round < runs; round++) {
    const order = round % 2 === 0 ? kinds : [...kinds].reverse();
    for (const k of order) results.get(k.key)?.push(checked(k, await runChild(k.script, k.env)));
  }

  const num = (r: Record<string, unknown> | undefined, name: string) => (typeof r?.[name] === 'number' ? (r[name] as number) : Number.NaN);
  const floorOf = (key: string): FloorResult => {
    const rs = results.get(key) ?? [];
    return { runs: rs, medianExitMs: median(rs.map((r) => r.exitMs)), medianLineMs: median(rs.map((r) => r.lineMs)), medianCpuMs: median(rs.map((r) => num(r.report, 'cpuMs'))) };
  };
  return {
    runsPerKind: runs,
    floor: floorOf('(floor)'),
    ...(storeFloor ? { storeFloor: floorOf('(store floor)') } : {}),
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
          medianRequireMs: median(rs.map((r) => num(r.report, 'requireMs'))),
          medianFirstAnswerMs: median(rs.map((r) => num(r.report, 'firstAnswerMs'))),
          medianChildStartToAnswerMs: median(rs.map((r) => num(r.report, 'startToAnswerMs'))),
          medianCpuMs: median(rs.map((r) => num(r.report, 'cpuMs'))),
          medianListMs: median(rs.map((r) => num(r.list, 'listMs'))),
          medianListCpuMs: median(rs.map((r) => num(r.list, 'listCpuMs'))),
          medianGapCpuMs: median(rs.map((r) => num(r.list, 'gapCpuMs'))),
          listedTools: num(rs[0]?.list, 'tools'),
          lazyLoaded: [...new Set(rs.flatMap((r) => (Array.isArray(r.report.lazyLoaded) ? (r.report.lazyLoaded as string[]) : [])))],
        };
      }),
    ),
  };
}

/** Every platform's cold target: its twin under the vendor process at `vendorBase`, its read-only probe and its first tools/list. */
export function coldTargets(vendorBase: string): Record<string, ColdTarget> {
  const targets: Record<string, ColdTarget> = {};
  for (const p of localPlatforms) {
    targets[p.platform.name] = {
      baseUrl: `${vendorBase}${p.mount}`,
      event: toolEvent(p.platform.name, p.probe.tool, p.probe.params, p.keys.owner),
      listEvent: mcpListEvent(p.platform.name, p.keys.owner),
    };
  }
  return targets;
}

/**
 * A cold process's store variables for DynamoDB Local: the table, its endpoint, and credentials
 * the way Lambda hands them to a function (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and
 * AWS_SESSION_TOKEN of its role, AWS_REGION), which DynamoDB Local accepts as they are.
 */
export function dynamoColdEnv(ddb: Pick<DynamoDbLocal, 'table' | 'endpoint' | 'region'>): NodeJS.ProcessEnv {
  return {
    STORE: 'dynamodb',
    TABLE_NAME: ddb.table,
    DYNAMODB_ENDPOINT: ddb.endpoint,
    AWS_REGION: ddb.region,
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    AWS_SESSION_TOKEN: 'bench-session-token',
  };
}

/** The DynamoDB store configured as a deployed function configures it (shared/store/dynamo.ts), on DynamoDB Local. */
export function deployedDynamoStore(ddb: Pick<DynamoDbLocal, 'table' | 'endpoint' | 'region'>) {
  return createDynamoStore({ table: ddb.table, endpoint: ddb.endpoint, region: ddb.region }, dynamoColdEnv(ddb));
}

/**
 * The store module alone (shared/store/index.ts), built as the bundles build it, beside a copy of
 * the store client and its code cache from the built function of `bundleFile`: what
 * STORE_FLOOR_CHILD requires. Answers its path (dist/.bench/store.js).
 */
export async function buildStoreFloor(bundleFile: string): Promise<string> {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const dir = join(root, 'dist', '.bench');
  await mkdir(dir, { recursive: true });
  const file = join(dir, 'store.js');
  await build({ ...LAMBDA_BUILD, entryPoints: [join(root, 'shared', 'store', 'index.ts')], outfile: file, plugins: [storeApart] });
  await writeFile(join(dir, 'package.json'), '{"type":"commonjs"}\n');
  const client = join(dirname(bundleFile), STORE_CLIENT_FILE);
  const cache = cacheFiles(client);
  for (const f of [client, cache.data, cache.meta]) await copyFile(f, join(dir, basename(f)));
  return file;
}
