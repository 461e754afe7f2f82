import { AsyncLocalStorage } from 'node:async_hooks';
import { ToolError, type ErrorCode } from './errors';
import { eachBounded } from './pool';

/** How far a batch is: chunks and items done so far, of all. */
export interface BatchProgress {
  chunk: number;
  chunks: number;
  done: number;
  total: number;
}

/**
 * The progress listener of the call running now (an MCP task: shared/mcp/tasks.ts). Scoped to
 * the call's async context, so every batch tool reports progress without passing a callback down
 * through its own code.
 */
export const batchProgress = new AsyncLocalStorage<(p: BatchProgress) => void>();

export interface BatchOptions {
  /** Items per chunk. Tape's batch endpoints take at most 50. */
  chunkSize?: number;
  /** Items of one chunk in flight at once. Defaults to the whole chunk (coalesce needs that). */
  concurrency?: number;
  /**
   * Chunks in flight at once (default 1: one after another). Each platform sets its own, within its
   * vendor's rate limit and batch endpoint rules; at most `parallelism × concurrency` items run at once.
   */
  parallelism?: number;
  /** Epoch ms after which no item is started (the Lambda's remaining time, less a margin). */
  deadline?: number;
  /** Time kept in hand before the deadline for the response itself. */
  reserveMs?: number;
  /**
   * An item failing with an error this accepts starts no further item: those not started yet are
   * NOT_ATTEMPTED, carrying the error's `retry_after`, so the caller resends exactly them later.
   * E.g. `stopOn: isRateLimited` for a vendor whose limit applies to every following call.
   */
  stopOn?: (err: unknown) => boolean;
  now?: () => number;
  /** Told once per chunk as it ends (default: the listener of batchProgress, if any). */
  progress?: (p: BatchProgress) => void;
}

export type BatchError = { code: ErrorCode | 'NOT_ATTEMPTED'; message: string; details?: Record<string, unknown> };

export type FailedItem = { index: number; success: false; error: BatchError };
export type DoneItem<R> = { index: number; success: true } & R;
export type BatchItem<R> = DoneItem<R> | FailedItem;

export interface BatchResult<R> {
  total: number;
  successful: number;
  failed: number;
  items: BatchItem<R>[];
}

export const CHUNK_SIZE = 50;

/** Thrown by an item's work when it was not sent (time ran out); runBatch reports it as NOT_ATTEMPTED. */
export class NotAttempted extends Error {
  constructor(
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'NotAttempted';
  }
}

/** A stopOn for vendors whose rate limit refuses every further call for a while. */
export const isRateLimited = (err: unknown): boolean => err instanceof ToolError && err.code === 'RATE_LIMITED';

/**
 * Runs `work` over every item: up to `parallelism` chunks at once, the items of a chunk in parallel
 * (bounded by `concurrency`); `work` learns the chunk of its item, so a vendor call can group one
 * chunk (batch-chunks.ts `coalesce`). Every item gets exactly one entry in `items`, in input order:
 * its result, its error, or, when it was not started (time budget ran out, or `stopOn` stopped the
 * batch), NOT_ATTEMPTED so it can be resent.
 */
export async function runBatch<T, R extends object>(
  inputs: readonly T[],
  work: (input: T, index: number, chunk: number) => Promise<R>,
  opts: BatchOptions = {},
): Promise<BatchResult<R>> {
  const chunkSize = opts.chunkSize ?? CHUNK_SIZE;
  const now = opts.now ?? Date.now;
  const deadline = opts.deadline ?? Number.POSITIVE_INFINITY;
  const reserve = opts.reserveMs ?? 1000;
  const items: BatchItem<R>[] = new Array(inputs.length);
  let stoppedBy: { index: number; err: ToolError } | undefined;

  const notAttempted = (index: number): BatchItem<R> => {
    if (!stoppedBy) {
      return { index, success: false, error: { code: 'NOT_ATTEMPTED', message: 'Not sent: the time budget of this call ran out first. Resend this item.' } };
    }
    const retryAfter = stoppedBy.err.details.retry_after;
    const wait = typeof retryAfter === 'number' ? ` after ${retryAfter} s` : ' later';
    return {
      index,
      success: false,
      error: {
        code: 'NOT_ATTEMPTED',
        message: `Not sent: item ${stoppedBy.index} failed with ${stoppedBy.err.code}, which stopped the batch. Resend this item${wait}.`,
        details: { stopped_by: stoppedBy.index, ...(retryAfter !== undefined ? { retry_after: retryAfter } : {}) },
      },
    };
  };

  // Synchronous up to `work`: the items of a chunk start in one pass (coalesce relies on it).
  const attempt = async (index: number, chunk: number): Promise<void> => {
    if (stoppedBy || now() + reserve >= deadline) {
      items[index] = notAttempted(index);
      return;
    }
    try {
      items[index] = { index, success: true, ...(await work(inputs[index]!, index, chunk)) };
    } catch (err) {
      items[index] = { index, success: false, error: describe(err) };
      if (!stoppedBy && err instanceof ToolError && opts.stopOn?.(err)) stoppedBy = { index, err };
    }
  };

  const chunks: number[][] = [];
  for (let start = 0; start < inputs.length; start += chunkSize) chunks.push(Array.from({ length: Math.min(chunkSize, inputs.length - start) }, (_, i) => start + i));
  const progress = opts.progress ?? batchProgress.getStore();
  let chunksDone = 0;
  let itemsDone = 0;
  const ended = (chunk: readonly number[]) => {
    chunksDone++;
    itemsDone += chunk.length;
    progress?.({ chunk: chunksDone, chunks: chunks.length, done: itemsDone, total: inputs.length });
  };
  // A lane takes the next chunk when its chunk is done; `attempt` never throws, so no lane stops early.
  await eachBounded(chunks, opts.parallelism ?? 1, (chunk, c) => eachBounded(chunk, opts.concurrency ?? chunkSize, (index) => attempt(index, c)).then(() => ended(chunk)));
  const successful = items.filter((i) => i.success).length;
  return { total: inputs.length, successful, failed: inputs.length - successful, items };
}

function describe(err: unknown): BatchError {
  if (err instanceof NotAttempted) return { code: 'NOT_ATTEMPTED', message: err.message, details: err.details };
  if (err instanceof ToolError) return { code: err.code, message: err.message, details: err.details };
  return { code: 'INTERNAL_ERROR', message: 'Unexpected error on this item; it was not confirmed by the platform.' };
}

/** Index ranges "3, 7-9, 12" of a sorted list of indexes. */
export function ranges(xs: readonly number[]): string {
  const out: string[] = [];
  for (let i = 0; i < xs.length; i++) {
    let j = i;
    while (j + 1 < xs.length && xs[j + 1] === xs[j]! + 1) j++;
    out.push(i === j ? String(xs[i]) : `${xs[i]}-${xs[j]}`);
    i = j;
  }
  return out.join(', ');
}

export interface BatchTextOptions<R> {
  /** What was done: "created", "updated", "deleted". */
  verb: string;
  /** What the items are, plural: "records", "items". */
  noun: string;
  /** Where: "app #902". */
  container: string;
  /** The input parameter the indexes refer to: "inputs", "updates". */
  param: string;
  /** The label of the ids line: "record ids". */
  idLabel: string;
  /** How one done item is named on the ids line: (i) => `#${i.record_id}`. */
  id: (item: R) => string;
  /** Where to open one, if any: "https://…/record/<record_id>". */
  link?: string;
}

const count = (n: number) => n.toLocaleString('en-US');

/**
 * `created 48 of 50 records in app #902 — 2 failed`, the ids by input index, each failure, what
 * to resend (and why it was not sent), and where to open one.
 */
export function batchText<R>(r: BatchResult<R>, o: BatchTextOptions<R>): string {
  const lines = [`${o.verb} ${count(r.successful)} of ${count(r.total)} ${o.noun} in ${o.container}${r.failed ? ` — ${count(r.failed)} failed` : ''}`];
  const done = r.items.filter((i): i is DoneItem<R> => i.success);
  if (done.length) lines.push(`${o.idLabel} by ${o.param} index: ${done.map((i) => `${i.index}→${o.id(i)}`).join(', ')}`);
  const failed = r.items.filter((i): i is FailedItem => !i.success);
  for (const f of failed.filter((i) => i.error.code !== 'NOT_ATTEMPTED')) lines.push(`${o.param}.${f.index} failed: ${f.error.code} ${f.error.message}`);
  const skipped = failed.filter((i) => i.error.code === 'NOT_ATTEMPTED');
  const timedOut = skipped.filter((i) => i.error.details?.stopped_by === undefined).map((i) => i.index);
  if (timedOut.length) lines.push(`not sent (the time budget ran out) — resend ${o.param} ${ranges(timedOut)}`);
  const stopped = skipped.filter((i) => i.error.details?.stopped_by !== undefined);
  if (stopped.length) {
    const retryAfter = stopped[0]!.error.details?.retry_after;
    const wait = typeof retryAfter === 'number' ? ` after ${retryAfter} s` : '';
    lines.push(`not sent (${o.param}.${String(stopped[0]!.error.details?.stopped_by)} stopped the batch) — resend ${o.param} ${ranges(stopped.map((i) => i.index))}${wait}`);
  }
  if (o.link && done.length) lines.push(`open one at ${o.link}`);
  return lines.join('\n');
}
