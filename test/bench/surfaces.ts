/**
 * Agent surfaces: tokens of MCP tools/list per platform (what a model sees of a platform's tools
 * when its host loads them, and the whole list as served), and the per-call overhead of MCP against the plain HTTP call of the same tool.
 */
import { encode } from 'gpt-tokenizer';
import { performance } from 'node:perf_hooks';
import { dbapp } from '../../functions/dbapp';
import { platforms } from '../../infra/local/platforms';
import { createTapeTwin, SANDBOX_KEYS } from '../../infra/twins/tape';
import { loadConfig } from '../../shared/core/config';
import { createApp } from '../../shared/http/app';
import { createRuntime } from '../../shared/lambda/runtime';
import { MemoryStore } from '../../shared/store/memory';
import { definitionView } from './host-views';
import type { BenchRow } from './rows';
import { percentile } from './stats';
import { startVendor } from './vendor';

/** What a model sees of one platform's list (docs/mcp-output.md#definitions): more than that and a host should use ?toolsets= or search_tools. */
const LIST_TOKEN_GOAL = 25_000;
const CALLS = 1_000;
const WARMUP = 100;

const rpc = (id: number, method: string, params: unknown = {}) => JSON.stringify({ jsonrpc: '2.0', id, method, params });
const mcpHeaders = { authorization: `Bearer ${SANDBOX_KEYS.owner}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };

export async function measureListTokens(): Promise<{ platform: string; tools: number; bytes: number; tokens: number; listTokens: number }[]> {
  const rt = await createRuntime({ platforms, config: loadConfig({}), store: new MemoryStore() });
  const app = createApp(rt);
  const out = [];
  for (const path of [...platforms.map((p) => `/v1/mcp/${p.name}`), '/v1/mcp']) {
    const res = await app.request(path, { method: 'POST', headers: mcpHeaders, body: rpc(1, 'tools/list') });
    const text = await res.text();
    const tools = (JSON.parse(text) as { result: { tools: { name: string }[] } }).result.tools;
    const json = JSON.stringify(tools);
    // What a host puts in the model's context: each tool's name, description and input schema.
    const seen = encode(JSON.stringify(tools.map(definitionView))).length;
    out.push({ platform: path === '/v1/mcp' ? 'all (combined)' : path.split('/')[3]!, tools: tools.length, bytes: Buffer.byteLength(json), tokens: seen, listTokens: encode(json).length });
  }
  return out;
}

/**
 * getWorkspace through MCP tools/call and through POST /v1/tools, alternating, against a
 * zero-latency Tape twin: at `tapeUrl` (another process, over HTTP) when given, else in-process.
 */
export async function measureMcpOverhead(calls = CALLS, warmup = WARMUP, tapeUrl?: string) {
  const rt = tapeUrl
    ? await createRuntime({ platforms: [dbapp], config: loadConfig({ RATE_LIMIT_MAX: '100000000', DBAPP_BASE_URL: tapeUrl }), store: new MemoryStore() })
    : await createRuntime({ platforms: [dbapp], config: loadConfig({ RATE_LIMIT_MAX: '100000000' }), store: new MemoryStore(), fetchFor: { dbapp: createTapeTwin({ credits: 1e12 }).fetch } });
  const app = createApp(rt);
  const plainBody = JSON.stringify({ workspace_id: 1 });
  const mcpBody = rpc(7, 'tools/call', { name: 'getWorkspace', arguments: { workspace_id: 1 } });
  async function plain() {
    const res = await app.request('/v1/tools/dbapp/getWorkspace', { method: 'POST', headers: { authorization: mcpHeaders.authorization, 'content-type': 'application/json' }, body: plainBody });
    const env = (await res.json()) as { success: boolean };
    if (!env.success) throw new Error('plain call failed');
  }
  async function mcp() {
    const res = await app.request('/v1/mcp/dbapp', { method: 'POST', headers: mcpHeaders, body: mcpBody });
    const msg = (await res.json()) as { result?: { isError?: boolean } };
    if (!msg.result || msg.result.isError) throw new Error(`MCP call failed: ${JSON.stringify(msg).slice(0, 300)}`);
  }
  const plainMs: number[] = [];
  const mcpMs: number[] = [];
  for (let i = 0; i < warmup + calls; i++) {
    let t = performance.now();
    await plain();
    const a = performance.now() - t;
    t = performance.now();
    await mcp();
    const b = performance.now() - t;
    if (i >= warmup) {
      plainMs.push(a);
      mcpMs.push(b);
    }
  }
  const p = (xs: number[], q: number) => percentile(xs, q);
  return { plainP50: p(plainMs, 50), mcpP50: p(mcpMs, 50), plainP99: p(plainMs, 99), mcpP99: p(mcpMs, 99) };
}

export async function benchRows(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const l of await measureListTokens()) {
    rows.push({
      figure: `MCP tools/list of ${l.platform}: tokens a model sees (${l.tools} tools)`,
      value: l.tokens,
      unit: 'tokens',
      // Every platform at once must at least fit a 128k context; search_tools or ?toolsets= is the way to load less.
      goal: l.platform.startsWith('all') ? 128_000 : LIST_TOKEN_GOAL,
      better: 'lower',
      detail: `the whole list as served ${l.listTokens.toLocaleString('en-US')} tokens, ${l.bytes.toLocaleString('en-US')} bytes of JSON`,
    });
  }
  const vendor = await startVendor(0);
  let overHttp: Awaited<ReturnType<typeof measureMcpOverhead>>;
  try {
    overHttp = await measureMcpOverhead(CALLS, WARMUP, `${vendor.base}/twins/tape`);
  } finally {
    await vendor.stop();
  }
  const inProcess = await measureMcpOverhead();
  for (const [o, where] of [[overHttp, 'twin in another process over HTTP'], [inProcess, 'EXTRA: twin in-process']] as const) {
    rows.push({
      figure: `MCP tools/call overhead vs plain HTTP call, getWorkspace p50 (${CALLS} calls each; ${where})`,
      value: Math.round((o.mcpP50 - o.plainP50) * 1000) / 1000,
      unit: 'ms',
      goal: 1,
      better: 'lower',
      detail: `MCP p50 ${o.mcpP50.toFixed(3)} ms / p99 ${o.mcpP99.toFixed(3)} ms; plain p50 ${o.plainP50.toFixed(3)} ms / p99 ${o.plainP99.toFixed(3)} ms`,
    });
  }
  return rows;
}
