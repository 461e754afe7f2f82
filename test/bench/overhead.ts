import { performance } from 'node:perf_hooks';
import { SANDBOX_KEYS } from '../../infra/twins/tape';
import type { Store } from '../../shared/store';
import { dbappLambda } from './lambda';
import { percentile } from './stats';

export interface Percentiles {
  p50: number;
  p99: number;
}

export interface OverheadReport {
  tool: string;
  vendorRequest: string;
  calls: number;
  warmup: number;
  toolMs: Percentiles;
  directMs: Percentiles;
  /** Percentiles of the paired differences (tool call i minus direct request i). */
  overheadMs: Percentiles;
  samples: { toolMs: number[]; directMs: number[] };
}

/**
 * Per-call overhead as deployed: dbapp/getWorkspace through the Lambda handler with real API
 * Gateway v2 events, against a zero-latency Tape twin in another process (over loopback HTTP),
 * paired with the same vendor request made directly (GET /v1/workspace/org + JSON parse). Each pair
 * runs back to back, in alternating order, so drift (GC, JIT, the other process) falls on both; the
 * figures are percentiles of the per-pair differences. Every tool call passes the rate-limit counter
 * of `store` (with DynamoDB: one round trip before the vendor call).
 */
export async function measureOverhead(tapeUrl: string, store: Store, calls: number, warmup: number): Promise<OverheadReport> {
  const call = dbappLambda(tapeUrl, store);
  const auth = `Bearer ${SANDBOX_KEYS.owner}`;

  const viaTool = async () => {
    const text = (await call('getWorkspace', { workspace_id: 1 })) as string;
    if (typeof text !== 'string' || !text.includes('#1')) throw new Error(`getWorkspace answered ${String(text).slice(0, 200)}`);
  };
  const direct = async () => {
    const res = await fetch(`${tapeUrl}/v1/workspace/org`, { headers: { authorization: auth, accept: 'application/json' } });
    const json = (await res.json()) as { workspaces?: { workspace_id: number }[] };
    if (res.status !== 200 || !json.workspaces?.some((w) => w.workspace_id === 1)) throw new Error(`direct Tape call failed (HTTP ${res.status})`);
  };

  for (let i = 0; i < warmup; i++) {
    await viaTool();
    await direct();
  }
  const toolMs: number[] = [];
  const directMs: number[] = [];
  for (let i = 0; i < calls; i++) {
    const pair = i % 2 === 0 ? ([viaTool, direct] as const) : ([direct, viaTool] as const);
    for (const fn of pair) {
      const t = performance.now();
      await fn();
      (fn === viaTool ? toolMs : directMs).push(performance.now() - t);
    }
  }
  const diffs = toolMs.map((t, i) => t - directMs[i]!);
  const p = (xs: number[]) => ({ p50: percentile(xs, 50), p99: percentile(xs, 99) });
  return {
    tool: 'dbapp/getWorkspace',
    vendorRequest: 'GET /v1/workspace/org',
    calls,
    warmup,
    toolMs: p(toolMs),
    directMs: p(directMs),
    overheadMs: p(diffs),
    samples: { toolMs, directMs },
  };
}
