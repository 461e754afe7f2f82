import * as z from 'zod';
import { batchText, isRateLimited, ranges, runBatch, type BatchResult, type DoneItem, type FailedItem } from '../../../shared/core/batch';
import { invalidParameter, ToolError } from '../../../shared/core/errors';
import { eachBounded } from '../../../shared/core/pool';
import { eachChecked } from '../../../shared/core/validate';
import type { Ctx } from '../params';

/**
 * Batches of item writes. Podio has no batch endpoint for creating or updating items, so every item
 * is its own call: they run with bounded parallelism through shared/core/batch.ts, as one chunk (chunks
 * would only idle the lanes between them). Every input is checked first and one invalid input means
 * none is written; the refusal names every bad index. A 420 (rate limit) from Podio starts no further
 * item: those are reported NOT_ATTEMPTED with its retry_after, to resend as they are.
 */

/**
 * Items per call. Podio allows 1,000 calls an hour per key (docs/vendors/podio.md#conventions) and each item is at least
 * one call: 500 leaves room for the schema reads and the rest of the hour's work.
 */
export const MAX_BATCH_ITEMS = 500;

/**
 * Item calls in flight at once: enough to hide Podio's latency (500 items at 20 ms ≈ 1 s), few enough
 * not to look like a flood to Podio, whose limit is per hour, not per second.
 */
export const ITEM_PARALLELISM = 10;

/** Checks in flight at once by default: downloads, uploads and embeds are heavier than a write. */
const CHECK_PARALLELISM = 4;

/** The `items` array of a batch tool. */
export const batchItems = <T extends z.ZodType>(item: T, what: string) =>
  z.array(item).min(1).max(MAX_BATCH_ITEMS).describe(`${what} At most ${MAX_BATCH_ITEMS} per call.`);

/** Most problems listed in the message of a refused batch (details.invalid has them all). */
const LISTED = 20;

/** The problems as one INVALID_PARAMETER, collected by the rule every platform's batches follow. */
function collected(errors: readonly ToolError[]): ToolError {
  try {
    eachChecked(errors, (e) => {
      throw e;
    });
  } catch (e) {
    return e as ToolError;
  }
  throw new Error('collected() needs at least one problem');
}

/**
 * The refusal of a batch: every invalid entry, the first one's parameter and expected shape at the
 * top; `details.errors` lists the problems as every platform's batches list them (shared/core/validate.ts),
 * `details.invalid` the same with each entry's index.
 */
function refusal(problems: { index: number; error: ToolError }[], total: number): ToolError {
  const sorted = [...problems].sort((a, b) => a.index - b.index);
  const first = sorted[0]!.error;
  const listed = sorted.slice(0, LISTED).map((p) => p.error.message);
  const more = sorted.length > LISTED ? ` …and ${sorted.length - LISTED} more (details.invalid lists them all).` : '';
  const all = collected(sorted.map((p) => p.error));
  const errors = all.details.errors ?? [{ parameter: String(first.details.parameter), expected: String(first.details.expected ?? ''), message: first.message }];
  return invalidParameter(
    String(first.details.parameter),
    String(first.details.expected ?? ''),
    `${sorted.length} of ${total} items ${sorted.length === 1 ? 'is' : 'are'} invalid (items ${ranges(sorted.map((p) => p.index))}); none was written. ${listed.join(' ')}${more}`,
    {
      errors,
      ...(all.details.more_errors ? { more_errors: true } : {}),
      invalid: sorted.map((p) => ({ index: p.index, parameter: p.error.details.parameter, expected: p.error.details.expected, message: p.error.message })),
    },
  );
}

/**
 * Runs `check` over every entry (`concurrency` at once, default 4) and collects the invalid ones;
 * any invalid → one INVALID_PARAMETER naming them all. Other errors (Podio down, rate limit) are
 * thrown as they are. Returns the checked values in input order.
 */
export async function checkAll<T, R>(entries: readonly T[], check: (entry: T, index: number) => R | Promise<R>, concurrency = CHECK_PARALLELISM): Promise<R[]> {
  const problems: { index: number; error: ToolError }[] = [];
  const out = await eachBounded(entries, concurrency, async (entry, index) => {
    try {
      return await check(entry, index);
    } catch (err) {
      if (err instanceof ToolError && err.code === 'INVALID_PARAMETER') {
        problems.push({ index, error: err });
        return undefined as R;
      }
      throw err;
    }
  });
  if (problems.length) throw refusal(problems, entries.length);
  return out;
}

/** Two entries naming the same item could race each other: refused before anything is sent. */
export function checkDistinct(ids: readonly number[], what = 'item_id'): void {
  const seen = new Map<number, number>();
  const problems = ids.flatMap((id, index) => {
    const first = seen.get(id);
    if (first === undefined) {
      seen.set(id, index);
      return [];
    }
    const parameter = `items.${index}.${what}`;
    return [{ index, error: invalidParameter(parameter, 'each item once per batch', `Parameter "${parameter}": item ${id} is already items.${first}; give each item once.`) }];
  });
  if (problems.length) throw refusal(problems, ids.length);
}

/** shared/core/batch.ts's result, where a failed update or delete also names its item. */
export type ItemBatchResult<R> = Omit<BatchResult<R>, 'items'> & { items: (DoneItem<R> | (FailedItem & { item_id?: number }))[] };

/**
 * Runs the checked writes, every index accounted for; a rate limit stops new work. With `itemIdOf`
 * (updates, deletes) a failed entry names its item too, so the caller needs no lookup to resend it.
 */
export async function runItemBatch<T, R extends object>(
  inputs: readonly T[],
  ctx: Pick<Ctx, 'deadline'>,
  work: (input: T, index: number) => Promise<R>,
  itemIdOf?: (input: T, index: number) => number,
): Promise<ItemBatchResult<R>> {
  const r = await runBatch(inputs, work, { chunkSize: Math.max(1, inputs.length), concurrency: ITEM_PARALLELISM, deadline: ctx.deadline, stopOn: isRateLimited });
  if (!itemIdOf) return r;
  return { ...r, items: r.items.map((i) => (i.success ? i : { index: i.index, success: false as const, item_id: itemIdOf(inputs[i.index]!, i.index), error: i.error })) };
}

/** `created 48 of 50 items in app #8102 — 2 failed`, ids by index, each failure, what to resend. */
export function itemBatchText<R extends { item_id: number; link?: string | null }>(r: BatchResult<R>, verb: string, container: string): string {
  const withLink = r.items.find((i): i is DoneItem<R> => i.success && typeof i.link === 'string');
  return batchText(r, {
    verb,
    noun: 'items',
    container,
    param: 'items',
    idLabel: 'item ids',
    id: (i) => `#${i.item_id}`,
    // Podio's links end with the app-scoped number.
    link: withLink?.link?.replace(/\/\d+$/, '/<app_item_id>'),
  });
}
