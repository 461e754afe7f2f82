import { ToolError } from './errors';
import type { Call, Format } from './call';
import type { Store } from './store';
import type { Tool } from './tool';
import { fitText, parseMaxTokens } from './budget';
import { capturingFetch, planOf, planText, type DryRunPlan, type PlannedWrite } from './dry-run';
import { checkIdempotencyKey, CLAIM_TTL_SECONDS, idempotent } from './idempotency';

/**
 * What a call asks of the shared layer besides running the tool, for every tool of
 * every platform: `Idempotency-Key` (shared/core/idempotency.ts), `dry_run` (shared/core/dry-run.ts) and
 * `max_tokens` (shared/core/budget.ts). Read tools ignore the first two: they change nothing.
 */

function parseDryRun(raw: unknown): boolean {
  if (raw === undefined || raw === null || raw === false || raw === 'false') return false;
  if (raw === true || raw === 'true') return true;
  throw new ToolError('INVALID_PARAMETER', `"dry_run" must be true or false; got ${JSON.stringify(raw)?.slice(0, 40)}.`, { parameter: 'dry_run', expected: 'true or false' });
}

/** A claim lasts as long as the call may run (the Lambda's remaining time), within 30 s - 15 min. */
function claimSeconds(deadline: number | undefined): number {
  if (deadline === undefined || !Number.isFinite(deadline)) return CLAIM_TTL_SECONDS;
  return Math.min(CLAIM_TTL_SECONDS, Math.max(30, Math.ceil((deadline - Date.now()) / 1000) + 30));
}

export interface SafeOutcome {
  result: unknown;
  headers: Record<string, string>;
}

/** Checks the call's safety parameters (INVALID_PARAMETER naming them) and returns how to run it. */
export function safeCall(call: Call, tool: Tool<any, any, any>) {
  const write = !tool.annotations.readOnly;
  const maxTokens = parseMaxTokens(call.maxTokens);
  if (maxTokens !== undefined && call.format === 'json') {
    throw new ToolError('INVALID_PARAMETER', '"max_tokens" cuts the text answer; structured results (format=json) are never cut. Drop max_tokens, or format=json.', {
      parameter: 'max_tokens',
      expected: 'text format (no format=json)',
    });
  }
  const dryRun = parseDryRun(call.dryRun) && write;
  const key = checkIdempotencyKey(call.idempotencyKey);
  const writes: PlannedWrite[] = [];
  let plan: DryRunPlan | undefined;

  return {
    dryRun,
    /** The vendor fetch the tool gets: in a dry run, writes are captured, never sent. */
    fetch: (inner: typeof fetch): typeof fetch => (dryRun ? capturingFetch(inner, writes) : inner),

    async run(store: Store, keyHash: string, input: unknown, work: () => Promise<unknown>): Promise<SafeOutcome> {
      if (dryRun) {
        let failure: { err: unknown } | undefined;
        try {
          await work();
        } catch (err) {
          failure = { err };
        }
        // A call that fails before any write (a missing record, a refused value) answers that error.
        if (failure && writes.length === 0) throw failure.err;
        plan = planOf(`${call.platform}/${call.tool}`, writes, failure !== undefined);
        return { result: plan, headers: { 'Dry-Run': 'true' } };
      }
      if (key !== undefined && write) {
        const g = await idempotent(store, { keyHash, platform: call.platform, tool: call.tool, key }, input, work, claimSeconds(call.deadline));
        return { result: g.result, headers: g.replayed ? { 'Idempotent-Replayed': 'true' } : {} };
      }
      return { result: await work(), headers: {} };
    },

    /** The answer's data: the result (or plan) as JSON, or its text within the token budget. */
    render(result: unknown, input: unknown, format: Format): unknown {
      if (format === 'json') return result;
      const text = plan ? planText(plan) : tool.text(result, input);
      return maxTokens === undefined ? text : fitText(text, maxTokens, input);
    },
  };
}
