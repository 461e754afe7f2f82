import { performance } from 'node:perf_hooks';
import { dbapp } from '../../functions/dbapp';
import { createTapeTwin, SANDBOX_KEYS } from '../../infra/twins/tape';
import { loadConfig } from '../../shared/config';
import { createApp } from '../../shared/http/app';
import { createRuntime } from '../../shared/runtime';
import type { Store } from '../../shared/store';
import { percentile } from './stats';

export interface Percentiles {
  p50: number;
  p99: number;
}

export interface OverheadReport {
  tool: string;
  calls: number;
  warmup: number;
  toolMs: Percentiles;
  directMs: Percentiles;
  /** Tool percentile minus direct percentile. */
  overheadMs: Percentiles;
  samples: { toolMs: number[]; directMs: number[] };
}

/**
 * Per-call overhead of getWorkspace through the shared HTTP app (in-process app.request, as the
 * test harness does) against a zero-latency twin, next to a direct twin.fetch of the same data.
 * Calls alternate tool/direct so drift (GC, JIT) falls on both alike. Every tool call passes the
 * rate-limit counter of `store`: with DynamoDB that is one round trip per call, as deployed.
 */
export async function measureOverhead(calls: number, warmup: number, store: Store): Promise<OverheadReport> {
  const twin = createTapeTwin({ credits: 1e12 });
  const rt = await createRuntime({
    platforms: [dbapp],
    config: loadConfig({ RATE_LIMIT_MAX: '100000000' }),
    store,
    fetchFor: { dbapp: twin.fetch },
  });
  const app = createApp(rt);
  const auth = `Bearer ${SANDBOX_KEYS.owner}`;
  const body = JSON.stringify({ workspace_id: 1 });

  async function viaTool(): Promise<unknown> {
    const res = await app.request('/v1/tools/dbapp/getWorkspace', {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body,
    });
    const envelope = JSON.parse(await res.text()) as { success?: unknown; data?: unknown };
    if (res.status !== 200 || envelope.success !== true) throw new Error(`getWorkspace failed (HTTP ${res.status}): ${JSON.stringify(envelope).slice(0, 500)}`);
    return envelope.data;
  }

  async function direct(): Promise<unknown> {
    const res = await twin.fetch('https://api.tapeapp.com/v1/workspace/org', { headers: { authorization: auth, accept: 'application/json' } });
    const json = (await res.json()) as { workspaces?: { workspace_id: number }[] };
    if (res.status !== 200 || !json.workspaces?.some((w) => w.workspace_id === 1)) throw new Error(`direct twin call failed (HTTP ${res.status}): ${JSON.stringify(json).slice(0, 500)}`);
    return json;
  }

  for (let i = 0; i < warmup; i++) {
    await viaTool();
    await direct();
  }
  const toolMs: number[] = [];
  const directMs: number[] = [];
  for (let i = 0; i < calls; i++) {
    // Alternate which goes first within each pair.
    const pair = i % 2 === 0 ? ([viaTool, direct] as const) : ([direct, viaTool] as const);
    for (const fn of pair) {
      const t = performance.now();
      await fn();
      (fn === viaTool ? toolMs : directMs).push(performance.now() - t);
    }
  }

  const tool = { p50: percentile(toolMs, 50), p99: percentile(toolMs, 99) };
  const dir = { p50: percentile(directMs, 50), p99: percentile(directMs, 99) };
  return {
    tool: 'dbapp/getWorkspace',
    calls,
    warmup,
    toolMs: tool,
    directMs: dir,
    overheadMs: { p50: tool.p50 - dir.p50, p99: tool.p99 - dir.p99 },
    samples: { toolMs, directMs },
  };
}
