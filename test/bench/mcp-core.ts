/**
 * The MCP protocol core, chosen by measurement (docs/mcp.md, "The protocol core: ours, measured"):
 * the same minimal tools server (one tool, JSON answers) on the official server SDK's new
 * generation (@modelcontextprotocol/server 2.x, test/bench/mcp-core/sdk-server.ts) and on this
 * service's own core (shared/mcp, test/bench/mcp-core/our-server.ts), each bundled as a function
 * is (infra/build.ts LAMBDA_BUILD: one minified CommonJS file), then started cold in a fresh
 * `node` process five times: the time to `require` the bundle and to its first answer (a
 * 2026-07-28 tools/list), medians. Also the SDK's own bytes with zod left out (what it would add
 * to a function that already carries zod) and the bytes of shared/mcp in our bundle.
 * Part of `npm run bench`; alone: `npx tsx test/bench/mcp-core.ts`.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build, type Metafile } from 'esbuild';
import { LAMBDA_BUILD } from '../../infra/build';
import type { BenchRow } from './rows';
import { median, round } from './stats';

const here = fileURLToPath(new URL('.', import.meta.url));
const RUNS = 5;
/** A function's JavaScript, minified (README, Performance): the budget every function keeps. */
const BUNDLE_BUDGET = 700_000;

/** The first request a 2026-07-28 host sends a stateless server after discovery. */
const FIRST = {
  url: 'http://127.0.0.1/mcp',
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } }),
};

/** Run in each cold process: require the bundle, answer FIRST once, print the times (ms since the process began). */
const probe = `
const t0 = performance.now();
const server = require(process.argv[1]);
const t1 = performance.now();
server.answer(${JSON.stringify(FIRST.url)}, ${JSON.stringify(FIRST.headers)}, ${JSON.stringify(FIRST.body)}).then((r) => {
  const t2 = performance.now();
  const tools = r.body && r.body.result && r.body.result.tools;
  if (r.status !== 200 || !Array.isArray(tools) || tools[0].name !== 'echo') throw new Error('unexpected answer ' + JSON.stringify(r));
  console.log(JSON.stringify({ start: t0, require: t1 - t0, answer: t2 - t1, total: t2 }));
});`;

export interface CoreFigures {
  name: string;
  bytes: number;
  /** Medians over RUNS cold processes, ms. */
  requireMs: number;
  answerMs: number;
  /** From the process's start to the first answer (Node's own start included). */
  totalMs: number;
}

async function bundle(dir: string, name: string, entry: string, external: readonly string[] = []): Promise<{ file: string; bytes: number; meta: Metafile }> {
  const file = join(dir, `${name}.cjs`);
  const result = await build({ ...LAMBDA_BUILD, external: [...LAMBDA_BUILD.external, ...external], entryPoints: [join(here, 'mcp-core', entry)], outfile: file, metafile: true, logLevel: 'error' });
  const out = Object.values(result.metafile.outputs)[0]!;
  return { file, bytes: out.bytes, meta: result.metafile };
}

async function cold(file: string): Promise<Omit<CoreFigures, 'name' | 'bytes'>> {
  const runs: { require: number; answer: number; total: number }[] = [];
  for (let i = 0; i < RUNS; i++) {
    const { stdout } = await promisify(execFile)(process.execPath, ['-e', probe, file], { env: { PATH: process.env.PATH ?? '' } });
    runs.push(JSON.parse(stdout.trim().split('\n').pop()!) as (typeof runs)[number]);
  }
  return { requireMs: round(median(runs.map((r) => r.require)), 1), answerMs: round(median(runs.map((r) => r.answer)), 1), totalMs: round(median(runs.map((r) => r.total)), 1) };
}

/** Bytes in the bundle from inputs whose path starts with `prefix`. */
const bytesFrom = (meta: Metafile, prefix: string) =>
  Object.values(meta.outputs).reduce((n, o) => n + Object.entries(o.inputs).filter(([p]) => p.startsWith(prefix)).reduce((m, [, i]) => m + i.bytesInOutput, 0), 0);

export async function measureCores(): Promise<{ sdk: CoreFigures; ours: CoreFigures; sdkWithoutZodBytes: number; oursProtocolBytes: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'tes-mcp-core-'));
  try {
    // The repo is "type": "module"; the bundles are CommonJS, as a function's handler.js.
    await writeFile(join(dir, 'package.json'), '{"type":"commonjs"}\n');
    const sdk = await bundle(dir, 'sdk', 'sdk-server.ts');
    const sdkLean = await bundle(dir, 'sdk-without-zod', 'sdk-server.ts', ['zod', 'zod/*']);
    const ours = await bundle(dir, 'ours', 'our-server.ts');
    return {
      sdk: { name: '@modelcontextprotocol/server 2.x', bytes: sdk.bytes, ...(await cold(sdk.file)) },
      ours: { name: 'shared/mcp', bytes: ours.bytes, ...(await cold(ours.file)) },
      sdkWithoutZodBytes: sdkLean.bytes,
      oursProtocolBytes: bytesFrom(ours.meta, 'shared/mcp/'),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function benchRows(): Promise<BenchRow[]> {
  const m = await measureCores();
  const row = (f: CoreFigures): BenchRow[] => [
    { figure: `MCP core ${f.name}: minimal tools server bundle`, value: f.bytes, unit: 'B', goal: BUNDLE_BUDGET, better: 'lower', detail: 'one tool, minified CommonJS as a function is built' },
    { figure: `MCP core ${f.name}: cold require + first tools/list (median of ${RUNS})`, value: round(f.requireMs + f.answerMs, 1), unit: 'ms', goal: 150, better: 'lower', detail: `require ${f.requireMs} ms, first answer ${f.answerMs} ms, ${f.totalMs} ms from the process's start` },
  ];
  return [
    ...row(m.sdk),
    ...row(m.ours),
    { figure: 'MCP core: bytes the SDK adds to a function that already carries zod', value: m.sdkWithoutZodBytes, unit: 'B', goal: BUNDLE_BUDGET, better: 'lower', detail: `shared/mcp in our bundle: ${m.oursProtocolBytes} B` },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const m = await measureCores();
  console.log(JSON.stringify(m, null, 2));
}
