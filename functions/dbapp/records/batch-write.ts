import { runBatch, batchText, type BatchResult, type DoneItem } from '../../../shared/core/batch';
import { chunkSender, coalesce, type ChunkWriter } from '../../../shared/core/batch-chunks';
import { recordUrl } from '../fields';

/**
 * Batch writes of records: runBatch runs the inputs in chunks of 50, CHUNK_PARALLELISM chunks at
 * once, the items of a chunk in parallel; the items of one chunk are coalesced into ONE call of Tape's
 * batch endpoint (POST/PUT /v1/record/app/batch/{app_id}, at most 50 inputs), see shared/core/batch-chunks.ts.
 *
 * Why the batch endpoint and not 50 single calls: Tape's rate limit is 2,000 credits a minute per key
 * and a request costs 10, so 50 parallel single writes spend a quarter of the minute's budget per
 * chunk (a 250-record batch would run into 429s), while one batch call per chunk costs one request
 * and one round trip. Per-item results stay exact because Tape runs a batch as one transaction
 * (docs/vendors/tape.md#records: "if one input is invalid … all record creations will fail").
 */

export interface WrittenItem {
  record_id: number;
  record_url: string;
}

export type BatchWriteResult = BatchResult<WrittenItem>;

/**
 * Tape batch calls in flight at once. Tape's budget is 2,000 credits a minute per key at 10 a request
 * (docs/vendors/tape.md#rate-limits: "an average of 3 requests per second", bursts allowed): 5,000 records are 100
 * calls, half a minute's credits, however many run at once. 4 in flight finish them in 25 round trips
 * (about 6 s at 250 ms, inside API Gateway's 29 s) with a short burst, not a flood.
 */
export const CHUNK_PARALLELISM = 4;

/**
 * Inputs of one batch call. The spec says "any count"; the bound is set here so the shared input
 * guard (shared/core/validate.ts MAX_ITEMS, 1,000 where a list sets none) does not apply: 10,000 records
 * are 200 Tape calls, about 13 s at 250 ms with 4 in flight (inside API Gateway's 29 s), and about
 * what a 6 MB body holds.
 */
export const MAX_BATCH_RECORDS = 10_000;

/** Runs the writes: chunks of 50, CHUNK_PARALLELISM at once, one batch call per chunk; every input accounted for in `items`. */
export function runRecordBatch<T>(inputs: readonly T[], writer: Omit<ChunkWriter<T>, 'vendor' | 'noun' | 'concurrency'>, orgUrl: string): Promise<BatchWriteResult> {
  // Re-sends of a refused chunk share the batch's CHUNK_PARALLELISM slots with the chunk calls.
  const write = coalesce(chunkSender({ ...writer, vendor: 'Tape', noun: 'records', concurrency: CHUNK_PARALLELISM }));
  return runBatch(inputs, async (input, _index, chunk) => {
    const id = await write(input, chunk);
    return { record_id: id, record_url: recordUrl(orgUrl, id) };
  }, { deadline: writer.deadline, parallelism: CHUNK_PARALLELISM });
}

/** `created 48 of 50 records in app #902 — 2 failed`, the ids by input index, each failure, what to resend. */
export function recordBatchText(r: BatchWriteResult, verb: 'created' | 'updated', appId: number, param: 'inputs' | 'updates'): string {
  const done = r.items.find((i): i is DoneItem<WrittenItem> => i.success);
  return batchText(r, {
    verb,
    noun: 'records',
    container: `app #${appId}`,
    param,
    idLabel: 'record ids',
    id: (i) => `#${i.record_id}`,
    link: done?.record_url.replace(/\/\d+$/, '/<record_id>'),
  });
}
