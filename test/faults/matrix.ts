/**
 * The fault matrix as data: the faults a vendor can throw at a call, and for every
 * registered platform a read (its probe from infra/local/platforms.ts) and a write. `runMatrix`
 * plays every cell against fresh sandbox twins and says which held; the test asserts all of them,
 * and `npm run bench` can print the count per platform (test/faults/bench.ts).
 *
 * A cell is one fault × one way of meeting it:
 * - `read once`: the fault hits the read's first vendor request once (`times: 1`); a fault worth
 *   retrying is retried and the answer is the same as without it; a rate limit or a 500 is not
 *   retried (no request is sent twice) and answers its catalogue code;
 * - `read always`: every vendor request of the read fails: the answer is the fault's catalogue code;
 * - `write once`: the write's vendor request fails once: the catalogue code, and the twin saw the
 *   write exactly once (a write is never repeated).
 */
import type { Fault, LoggedRequest, Twin } from '../../infra/twins/kit';
import { localPlatforms } from '../../infra/local/platforms';
import { DEFAULT_RETRY_AFTER } from '../../shared/vendor/upstream';
import { harness } from '../helpers/harness';

/** The upstream timeout the matrix runs with: long enough for a loaded machine, short against a slow body. */
export const MATRIX_TIMEOUT_MS = 500;

/** What the service must answer for a fault. `upstream_status: 'route'` is the status the vendor's route sent (200/201…). */
export interface Expected {
  code: 'RATE_LIMITED' | 'INTERNAL_ERROR';
  upstream_status: number | null | 'route';
  retry_after?: number;
  reason?: string;
}

export interface FaultCell {
  name: string;
  /** The fault, per platform (Podio's rate limit is 420). */
  fault(platform: string): Fault;
  /** Retried by a read (transient and safe to repeat); a rate limit or a 500 is handed to the caller instead. */
  retried: boolean;
  expected(platform: string): Expected;
}

const limitStatus = (platform: string) => (platform === 'collab' ? 420 : 429);
/** A server error: INTERNAL_ERROR with its status; a gateway failure (502–504) is retried by a read, a 500 is not (see shared/vendor/upstream.ts). */
const serverError = (status: number): FaultCell => ({
  name: String(status),
  fault: () => ({ status }),
  retried: status !== 500,
  expected: () => ({ code: 'INTERNAL_ERROR', upstream_status: status }),
});

export const FAULT_CELLS: readonly FaultCell[] = [
  {
    name: 'rate limit with Retry-After',
    fault: (p) => ({ status: limitStatus(p), headers: { 'retry-after': '7' } }),
    retried: false,
    expected: (p) => ({ code: 'RATE_LIMITED', upstream_status: limitStatus(p), retry_after: 7 }),
  },
  {
    name: 'rate limit without Retry-After',
    fault: (p) => ({ status: limitStatus(p) }),
    retried: false,
    expected: (p) => ({ code: 'RATE_LIMITED', upstream_status: limitStatus(p), retry_after: DEFAULT_RETRY_AFTER }),
  },
  serverError(500),
  serverError(502),
  serverError(503),
  serverError(504),
  { name: 'timeout', fault: () => ({ kind: 'timeout' }), retried: true, expected: () => ({ code: 'INTERNAL_ERROR', upstream_status: null, reason: 'timeout' }) },
  { name: 'reset connection', fault: () => ({ kind: 'reset' }), retried: true, expected: () => ({ code: 'INTERNAL_ERROR', upstream_status: null, reason: 'network' }) },
  { name: 'non-JSON body', fault: () => ({ kind: 'garbage' }), retried: true, expected: () => ({ code: 'INTERNAL_ERROR', upstream_status: 200, reason: 'invalid_body' }) },
  { name: 'truncated body', fault: () => ({ kind: 'truncated' }), retried: true, expected: () => ({ code: 'INTERNAL_ERROR', upstream_status: 'route', reason: 'invalid_body' }) },
  {
    name: 'slow body',
    // 20 pieces, one every 100 ms: the body would take 2 s, four times the matrix's timeout.
    fault: () => ({ kind: 'slow', chunks: 20, chunkMs: 100 }),
    retried: true,
    expected: () => ({ code: 'INTERNAL_ERROR', upstream_status: 'route', reason: 'timeout' }),
  },
];

export interface ToolCall {
  tool: string;
  params: Record<string, unknown>;
}

/** A write and the vendor request it makes (method and the twin's path), where its faults are injected and counted. */
export interface WriteCall extends ToolCall {
  route: { method: string; path: RegExp };
}

/**
 * One write per platform: a create (never idempotent, so never retried) whose vendor answer is a
 * JSON body. A platform without write tools (realty: BatchData is read-only) has none.
 */
const WRITES: Record<string, WriteCall | null> = {
  dbapp: { tool: 'createWorkspace', params: { name: 'Fault matrix', type: 'open' }, route: { method: 'POST', path: /^\/v1\/workspace$/ } },
  collab: { tool: 'createLabel', params: { text: 'Fault matrix', color: '#FFD5C2' }, route: { method: 'POST', path: /^\/task\/label\/$/ } },
  filebox: { tool: 'createFolder', params: { parent_id: 'home', name: 'Fault matrix' }, route: { method: 'POST', path: /\/Folder$/ } },
  crm: { tool: 'createContact', params: { values: { email: 'fault.matrix@example.com', firstname: 'Fault' } }, route: { method: 'POST', path: /^\/crm\/v3\/objects\/contacts$/ } },
  realty: null,
};

export interface MatrixTarget {
  platform: string;
  read: ToolCall;
  write: WriteCall | null;
}

/** Every registered platform: its probe as the read, its write from WRITES (a new platform must add one, or null). */
export const MATRIX_TARGETS: readonly MatrixTarget[] = localPlatforms.map((p) => {
  const name = p.platform.name;
  const write = WRITES[name];
  if (write === undefined) throw new Error(`test/faults/matrix.ts: name the write of platform "${name}" in WRITES (null when it has none)`);
  return { platform: name, read: p.probe, write };
});

export type Mode = 'read once' | 'read always' | 'write once';

export interface CellResult {
  platform: string;
  mode: Mode;
  cell: string;
  passed: boolean;
  /** What did not hold (empty when passed). */
  problems: string[];
}

type Harness = Awaited<ReturnType<typeof harness>>;
type Answer = Awaited<ReturnType<Harness['call']>>;

/** A fresh service with fresh twins, timing out upstream calls at MATRIX_TIMEOUT_MS. */
export function matrixHarness() {
  return harness({ env: { UPSTREAM_TIMEOUT_MS: String(MATRIX_TIMEOUT_MS), RATE_LIMIT_MAX: '100000' } });
}

/** What differs between an error answer and what the cell expects. */
function checkError(r: Answer, want: Expected, routeStatus: number | undefined): string[] {
  const problems: string[] = [];
  const error = r.body?.error as { code?: string; details?: Record<string, unknown> } | undefined;
  if (r.body?.success !== false || !error) return [`answered ${r.status} success, expected ${want.code}`];
  if (error.code !== want.code) problems.push(`code ${error.code}, expected ${want.code}`);
  const status = want.upstream_status === 'route' ? routeStatus : want.upstream_status;
  if (error.details?.upstream_status !== status) problems.push(`details.upstream_status ${String(error.details?.upstream_status)}, expected ${String(status)}`);
  if (want.reason !== undefined && error.details?.reason !== want.reason) problems.push(`details.reason ${String(error.details?.reason)}, expected ${want.reason}`);
  if (want.retry_after !== undefined) {
    if (error.details?.retry_after !== want.retry_after) problems.push(`details.retry_after ${String(error.details?.retry_after)}, expected ${want.retry_after}`);
    if (r.headers.get('retry-after') !== String(want.retry_after)) problems.push(`Retry-After header ${String(r.headers.get('retry-after'))}, expected ${want.retry_after}`);
  }
  return problems;
}

/** Requests sent more than once (same method, path, query and body): what a fault must not cause when it is not retried. */
function repeated(entries: readonly LoggedRequest[]): string[] {
  const seen = new Map<string, number>();
  for (const e of entries) {
    const k = `${e.method} ${e.path} ${JSON.stringify(e.query)} ${JSON.stringify(e.body)}`;
    seen.set(k, (seen.get(k) ?? 0) + 1);
  }
  return [...seen].filter(([, n]) => n > 1).map(([k, n]) => `${k.split(' ').slice(0, 2).join(' ')} ×${n}`);
}

const call = (h: Harness, platform: string, c: ToolCall) => h.call(`${platform}/${c.tool}`, c.params, { query: 'format=json' });

/** One read cell on a fresh service: the fault on every vendor path, once or always. */
async function readCell(target: MatrixTarget, cell: FaultCell, mode: 'read once' | 'read always'): Promise<string[]> {
  const h = await matrixHarness();
  const twin = h.twin<Twin>(target.platform);
  // The answer and the vendor requests of the read without a fault: what the faulted read must match.
  const clean = await call(h, target.platform, target.read);
  if (!clean.body.success) return [`the read fails without a fault: ${JSON.stringify(clean.body.error)}`];
  const cleanRequests = twin.requests.entries.length;
  const firstStatus = twin.requests.entries[0]?.status ?? undefined;
  twin.requests.clear();
  twin.faults.inject({ path: /.*/, ...(mode === 'read once' ? { times: 1 } : {}), fault: cell.fault(target.platform) });
  const r = await call(h, target.platform, target.read);
  const sent = twin.requests.entries.length;
  if (mode === 'read always' || !cell.retried) {
    const problems = checkError(r, cell.expected(target.platform), firstStatus ?? undefined);
    const again = repeated(twin.requests.entries);
    if (!cell.retried && again.length) problems.push(`sent again after a fault that is not retried: ${again.join(', ')}`);
    return problems;
  }
  const problems: string[] = [];
  if (!r.body.success) problems.push(`answered ${r.body.error?.code} after one transient fault, expected the clean answer`);
  else if (JSON.stringify(r.body.data) !== JSON.stringify(clean.body.data)) problems.push('answered other data than without the fault');
  if (sent !== cleanRequests + 1) problems.push(`the vendor saw ${sent} requests, expected ${cleanRequests + 1} (the clean ones and one retry)`);
  return problems;
}

/** One write cell on a fresh service: the fault on the write's request once; the twin sees it once. */
async function writeCell(target: MatrixTarget, write: WriteCall, cell: FaultCell): Promise<string[]> {
  const h = await matrixHarness();
  const twin = h.twin<Twin>(target.platform);
  const matching = () => twin.requests.find(write.route);
  // The write without a fault, on its own twin: it must succeed, and it gives the route's status.
  const probe = await matrixHarness();
  const probeTwin = probe.twin<Twin>(target.platform);
  const clean = await call(probe, target.platform, write);
  if (!clean.body.success) return [`the write fails without a fault: ${JSON.stringify(clean.body.error)}`];
  const routeStatus = probeTwin.requests.find(write.route)[0]?.status ?? undefined;
  twin.faults.inject({ ...write.route, times: 1, fault: cell.fault(target.platform) });
  const r = await call(h, target.platform, write);
  const problems = checkError(r, cell.expected(target.platform), routeStatus);
  if (matching().length !== 1) problems.push(`the vendor saw the write ${matching().length} times, expected exactly once`);
  return problems;
}

/** Every cell of one platform (or of all), one after another; each on fresh twins. */
export async function runMatrix(only?: { platform?: string; mode?: Mode; cell?: string }): Promise<CellResult[]> {
  const out: CellResult[] = [];
  for (const target of MATRIX_TARGETS) {
    if (only?.platform && only.platform !== target.platform) continue;
    for (const cell of FAULT_CELLS) {
      if (only?.cell && only.cell !== cell.name) continue;
      for (const mode of ['read once', 'read always', 'write once'] as const) {
        if (only?.mode && only.mode !== mode) continue;
        if (mode === 'write once' && !target.write) continue;
        let problems: string[];
        try {
          problems = mode === 'write once' ? await writeCell(target, target.write!, cell) : await readCell(target, cell, mode);
        } catch (err) {
          problems = [`threw: ${err instanceof Error ? err.message : String(err)}`];
        }
        out.push({ platform: target.platform, mode, cell: cell.name, passed: problems.length === 0, problems });
      }
    }
  }
  return out;
}

/** Cells passed and run, per platform: the bench figure. */
export function passedPerPlatform(results: readonly CellResult[]): Record<string, { passed: number; total: number }> {
  const out: Record<string, { passed: number; total: number }> = {};
  for (const r of results) {
    const row = (out[r.platform] ??= { passed: 0, total: 0 });
    row.total++;
    if (r.passed) row.passed++;
  }
  return out;
}
