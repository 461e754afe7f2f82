import { ToolError } from '../../../shared/errors';
import { runBatch, type BatchItem, type BatchResult } from '../../../shared/batch';
import { recordUrl } from '../fields';

/**
 * Batch writes of records: runBatch runs the inputs in chunks of 50, one chunk after another, the
 * items of a chunk in parallel; the items of one chunk are coalesced into ONE call of Tape's batch
 * endpoint (POST/PUT /v1/record/app/batch/{app_id}, at most 50 inputs).
 *
 * Why the batch endpoint and not 50 single calls: Tape's rate limit is 2,000 credits a minute per key
 * and a request costs 10, so 50 parallel single writes spend a quarter of the minute's budget per
 * chunk (a 250-record batch would run into 429s), while one batch call per chunk costs one request
 * and one round trip. Per-item results stay exact because Tape runs a batch as one transaction
 * (record.md: "if one input is invalid … all record creations will fail"):
 * - success: Tape answers the records in input order → each item gets its record id;
 * - 400 (one input Tape refused): nothing of the chunk was written, so each item is sent alone, in
 *   parallel, and gets its own result — the good ones are written, the bad one gets Tape's reason;
 * - 429, 401/403/404: nothing was written; every item of the chunk carries that error;
 * - 5xx, timeout, or an answer that does not account for every input: the outcome is unknown, and
 *   every item says so (check before resending a create).
 */

/** Time a chunk's fallback to single writes must have left before the deadline. */
const FALLBACK_RESERVE_MS = 3_000;

export interface ChunkWriter<T> {
  /** One batch call for the group; the record ids it wrote, in input order. */
  batch(group: readonly T[]): Promise<number[]>;
  /** One input alone: the fallback when Tape refused the batch for one bad input. */
  single(item: T): Promise<number>;
  /** What an unknown outcome means for the caller ("records may have been created"…). */
  unknown: string;
  /** Epoch ms after which no fallback is started. */
  deadline: number;
}

type Settled = PromiseSettledResult<number>;
const ok = (value: number): Settled => ({ status: 'fulfilled', value });
const no = (reason: unknown): Settled => ({ status: 'rejected', reason });

function unknownOutcome(err: ToolError, unknown: string): ToolError {
  return err.code === 'INTERNAL_ERROR' ? new ToolError('INTERNAL_ERROR', `${err.message} ${unknown}`, { ...err.details, outcome: 'unknown' }) : err;
}

/** Sends one chunk: the batch call, and what each item's result is (see the header). */
export function chunkSender<T>(w: ChunkWriter<T>) {
  return async (group: readonly T[]): Promise<Settled[]> => {
    try {
      const ids = await w.batch(group);
      if (ids.length !== group.length) {
        const err = new ToolError('INTERNAL_ERROR', `Tape answered ${ids.length} records for the ${group.length} inputs of this chunk. ${w.unknown}`, { upstream_status: 200, outcome: 'unknown' });
        return group.map(() => no(err));
      }
      return ids.map(ok);
    } catch (err) {
      if (!(err instanceof ToolError)) return group.map(() => no(err));
      if (err.code === 'INVALID_PARAMETER' && group.length > 1 && Date.now() + FALLBACK_RESERVE_MS < w.deadline) {
        return Promise.all(
          group.map((item) =>
            w.single(item).then(ok, (e: unknown) => no(e instanceof ToolError ? unknownOutcome(e, w.unknown) : e)),
          ),
        );
      }
      return group.map(() => no(unknownOutcome(err, w.unknown)));
    }
  };
}

/**
 * Coalesces the calls runBatch starts together into one call of `send`: runBatch starts the items
 * of a chunk in one synchronous pass, so the group closes on the next microtask. Items runBatch did
 * not start (time budget gone) never join a group, so they are never sent.
 */
export function coalesce<T>(send: (group: readonly T[]) => Promise<Settled[]>): (input: T) => Promise<number> {
  type Waiting = { input: T; resolve: (id: number) => void; reject: (e: unknown) => void };
  let open: Waiting[] | undefined;
  return (input) =>
    new Promise<number>((resolve, reject) => {
      if (!open) {
        const group: Waiting[] = [];
        open = group;
        queueMicrotask(() => {
          open = undefined;
          send(group.map((g) => g.input)).then(
            (results) =>
              group.forEach((g, i) => {
                const r = results[i];
                if (r?.status === 'fulfilled') g.resolve(r.value);
                else g.reject(r ? r.reason : new ToolError('INTERNAL_ERROR', 'No result for this item.'));
              }),
            (err: unknown) => group.forEach((g) => g.reject(err)),
          );
        });
      }
      open.push({ input, resolve, reject });
    });
}

export interface WrittenItem {
  record_id: number;
  record_url: string;
}

export type BatchWriteResult = BatchResult<WrittenItem>;

/** Runs the writes: chunks of 50 in sequence, one batch call per chunk; every input accounted for in `items`. */
export function runRecordBatch<T>(inputs: readonly T[], writer: ChunkWriter<T>, orgUrl: string): Promise<BatchWriteResult> {
  const write = coalesce(chunkSender(writer));
  return runBatch(inputs, async (input) => {
    const id = await write(input);
    return { record_id: id, record_url: recordUrl(orgUrl, id) };
  }, { deadline: writer.deadline });
}

/** Index ranges "3, 7-9, 12" of a sorted list of indexes. */
function ranges(xs: number[]): string {
  const out: string[] = [];
  for (let i = 0; i < xs.length; i++) {
    let j = i;
    while (j + 1 < xs.length && xs[j + 1] === xs[j]! + 1) j++;
    out.push(i === j ? String(xs[i]) : `${xs[i]}-${xs[j]}`);
    i = j;
  }
  return out.join(', ');
}

/** `created 48 of 50 records in app #902 — 2 failed`, the ids by input index, each failure, what to resend. */
export function batchText(r: BatchWriteResult, verb: 'created' | 'updated', appId: number, param: 'inputs' | 'updates'): string {
  const lines = [`${verb} ${r.successful.toLocaleString('en-US')} of ${r.total.toLocaleString('en-US')} records in app #${appId}${r.failed ? ` — ${r.failed.toLocaleString('en-US')} failed` : ''}`];
  const done = r.items.filter((i): i is Extract<BatchItem<WrittenItem>, { success: true }> => i.success);
  if (done.length) lines.push(`record ids by ${param} index: ${done.map((i) => `${i.index}→#${i.record_id}`).join(', ')}`);
  const failed = r.items.filter((i): i is Extract<BatchItem<WrittenItem>, { success: false }> => !i.success);
  for (const f of failed.filter((i) => i.error.code !== 'NOT_ATTEMPTED')) lines.push(`${param}.${f.index} failed: ${f.error.code} ${f.error.message}`);
  const skipped = failed.filter((i) => i.error.code === 'NOT_ATTEMPTED').map((i) => i.index);
  if (skipped.length) lines.push(`not sent (the time budget ran out) — resend ${param} ${ranges(skipped)}`);
  const link = done[0]?.record_url.replace(/\/\d+$/, '/<record_id>');
  if (link) lines.push(`open one at ${link}`);
  return lines.join('\n');
}

/** Runs `fn` over the items, at most `limit` at once; the first failure is thrown once all started ones are done. */
export async function eachBounded<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  let failure: { err: unknown } | undefined;
  const lane = async () => {
    while (next < items.length && !failure) {
      const i = next++;
      try {
        out[i] = await fn(items[i]!, i);
      } catch (err) {
        failure ??= { err };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  if (failure) throw failure.err;
  return out;
}
