import { ToolError, type ErrorCode } from './errors';

export interface BatchOptions {
  /** Items per chunk; chunks run one after another. Tape's batch endpoints take at most 50. */
  chunkSize?: number;
  /** Items of one chunk in flight at once. Defaults to the whole chunk. */
  concurrency?: number;
  /** Epoch ms after which no item is started (the Lambda's remaining time, less a margin). */
  deadline?: number;
  /** Time kept in hand before the deadline for the response itself. */
  reserveMs?: number;
  now?: () => number;
}

export type BatchItem<R> =
  | ({ index: number; success: true } & R)
  | { index: number; success: false; error: { code: ErrorCode | 'NOT_ATTEMPTED'; message: string; details?: Record<string, unknown> } };

export interface BatchResult<R> {
  total: number;
  successful: number;
  failed: number;
  items: BatchItem<R>[];
}

export const CHUNK_SIZE = 50;

/**
 * Runs `work` over every item: chunks in sequence, items of a chunk in parallel (bounded).
 * Every item gets exactly one entry in `items`, in input order: its result, its error, or,
 * when the time budget ran out before it was started, NOT_ATTEMPTED so it can be resent.
 */
export async function runBatch<T, R extends object>(
  inputs: readonly T[],
  work: (input: T, index: number) => Promise<R>,
  opts: BatchOptions = {},
): Promise<BatchResult<R>> {
  const chunkSize = opts.chunkSize ?? CHUNK_SIZE;
  const now = opts.now ?? Date.now;
  const deadline = opts.deadline ?? Number.POSITIVE_INFINITY;
  const reserve = opts.reserveMs ?? 1000;
  const items: BatchItem<R>[] = new Array(inputs.length);

  const attempt = async (index: number): Promise<void> => {
    if (now() + reserve >= deadline) {
      items[index] = {
        index,
        success: false,
        error: { code: 'NOT_ATTEMPTED', message: 'Not sent: the time budget of this call ran out first. Resend this item.' },
      };
      return;
    }
    try {
      items[index] = { index, success: true, ...(await work(inputs[index]!, index)) };
    } catch (err) {
      items[index] = { index, success: false, error: describe(err) };
    }
  };

  for (let start = 0; start < inputs.length; start += chunkSize) {
    const end = Math.min(start + chunkSize, inputs.length);
    await pool(start, end, opts.concurrency ?? chunkSize, attempt);
  }
  const successful = items.filter((i) => i.success).length;
  return { total: inputs.length, successful, failed: inputs.length - successful, items };
}

/** Runs fn(i) for i in [start, end) with at most `limit` running at once. */
async function pool(start: number, end: number, limit: number, fn: (i: number) => Promise<void>): Promise<void> {
  let next = start;
  const lane = async () => {
    while (next < end) await fn(next++);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, end - start)) }, lane));
}

function describe(err: unknown): { code: ErrorCode; message: string; details?: Record<string, unknown> } {
  if (err instanceof ToolError) return { code: err.code, message: err.message, details: err.details };
  return { code: 'INTERNAL_ERROR', message: 'Unexpected error on this item; it was not confirmed by the platform.' };
}
