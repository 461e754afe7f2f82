/**
 * What a hostile body costs: ~6 MB of nested arrays (the edge's cap is 6,000,000 bytes) sent to a
 * tool on REST and on MCP, through the app, against a flat body of the same size (one 6 MB JSON
 * string) on the same surface, and against a bare JSON.parse of that flat body. The depth is
 * scanned linearly before anything parses (shared/core/json-body.ts), so the hostile body must cost no
 * more than the flat one: goal ≤ 1.2× (the margin is the noise of a shared machine). Medians of
 * RUNS calls each, CPU (user + system of this process) and wall time. Run alone:
 * `npx tsx test/bench/hostile-body.ts`.
 */
import { SANDBOX_KEYS } from '../../infra/twins/tape';
import { MAX_BODY_BYTES } from '../../shared/http/app';
import { harness } from '../helpers/harness';
import type { BenchRow } from './rows';
import { median } from './stats';

const RUNS = Number(process.env.HOSTILE_RUNS ?? 9);
const TOOL = 'listWorkspaces';

/** Nested arrays filling the cap: `[[[…]]]`. */
function nestedBody(bytes: number): string {
  const half = Math.floor(bytes / 2);
  return `${'['.repeat(half)}${']'.repeat(half)}`;
}

/** One key holding one flat string, the same size. */
function flatBody(bytes: number): string {
  return `{"name": "${'x'.repeat(bytes - 12)}"}`;
}

const rpc = (args: string) => `{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "${TOOL}", "arguments": ${args}}}`;

interface Cost {
  cpuMs: number;
  wallMs: number;
  status: number;
}

async function measure(run: () => Promise<number>): Promise<Cost> {
  await run(); // warm-up: the first MCP request loads the SDK
  const cpu: number[] = [];
  const wall: number[] = [];
  let status = 0;
  for (let i = 0; i < RUNS; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    status = await run();
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  return { cpuMs: median(cpu), wallMs: median(wall), status };
}

export async function measureHostileBody() {
  const h = await harness({ env: { RATE_LIMIT_MAX: '1000000000' } });
  const key = SANDBOX_KEYS.owner;
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  // The MCP envelope adds its own bytes: its arguments are cut so that the whole body fits the cap too.
  const mcpRoom = MAX_BODY_BYTES - rpc('').length - 16;
  const rest = (body: string) => async () => {
    const res = await h.app.request(`/v1/tools/dbapp/${TOOL}`, { method: 'POST', headers, body });
    await res.text();
    return res.status;
  };
  const mcp = (body: string) => async () => {
    const res = await h.app.request('/v1/mcp/dbapp', { method: 'POST', headers, body });
    await res.text();
    return res.status;
  };
  const size = MAX_BODY_BYTES - 16;
  const flat = flatBody(size);
  const parse = await measure(async () => {
    JSON.parse(flat);
    return 200;
  });
  return {
    bytes: size,
    parse,
    rest: { hostile: await measure(rest(nestedBody(size))), flat: await measure(rest(flat)) },
    mcp: { hostile: await measure(mcp(rpc(nestedBody(mcpRoom)))), flat: await measure(mcp(rpc(flatBody(mcpRoom)))) },
  };
}

const f = (n: number) => n.toFixed(1);

export async function benchRows(): Promise<BenchRow[]> {
  const m = await measureHostileBody();
  const row = (surface: 'REST' | 'MCP', c: { hostile: Cost; flat: Cost }): BenchRow => ({
    figure: `${surface}: a ${(m.bytes / 1e6).toFixed(1)} MB body nested as deep as it goes vs a flat 6 MB string body, CPU (median of ${RUNS})`,
    value: Math.round((c.hostile.cpuMs / c.flat.cpuMs) * 100) / 100,
    unit: '×',
    goal: 1.2,
    better: 'lower',
    detail: `hostile ${f(c.hostile.cpuMs)} ms CPU / ${f(c.hostile.wallMs)} ms wall (HTTP ${c.hostile.status}); flat ${f(c.flat.cpuMs)} ms CPU / ${f(c.flat.wallMs)} ms wall (HTTP ${c.flat.status}); bare JSON.parse of the flat body ${f(m.parse.cpuMs)} ms`,
  });
  return [row('REST', m.rest), row('MCP', m.mcp)];
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await benchRows());
