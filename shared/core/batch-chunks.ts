import { NotAttempted } from './batch';
import { ToolError } from './errors';

/**
 * For vendors with a batch endpoint: runBatch starts the items of a chunk together, `coalesce`
 * turns those starts into ONE call per chunk (with several chunks in flight), and `chunkSender`
 * makes that call and gives each item its own exact result, when the vendor runs a batch as one
 * transaction:
 * - success: the vendor answers the written ids in input order → each item gets its id;
 * - refused for an input (INVALID_PARAMETER, NOT_FOUND, FORBIDDEN: a bad value, a missing or deleted
 *   id): nothing of the chunk was written, so the chunk is split in halves and each half re-sent
 *   (a half of one item as a single write), until every item has its own result — the good ones
 *   are written, each bad one gets the vendor's reason for itself. One bad input among 50 costs
 *   about 12 re-sends instead of 50; k bad inputs cost O(k·log 50), at worst 2 × 50. A FORBIDDEN
 *   both halves repeat word for word is the group's own (a key without write access to the
 *   container): every item carries it and no further call is spent. Bad values and missing ids are
 *   always split to the end: vendors word them alike for different items, so likeness proves nothing;
 * - rate limit, 401: nothing was written; every item of the chunk carries that error;
 * - 5xx, timeout, or an answer that does not account for every input: the outcome is unknown, and
 *   every item says so (check before resending a create).
 * Every vendor call of the batch — chunk calls and re-sends alike — takes a slot of one pool of
 * `concurrency` slots, so a batch never has more calls in flight than its parallelism allows.
 */

/** Time a chunk's re-sends must have left before the deadline, by default. */
export const FALLBACK_RESERVE_MS = 3_000;

export interface ChunkWriter<T, Id = number> {
  /** One batch call for the group; the ids it wrote, in input order. */
  batch(group: readonly T[]): Promise<Id[]>;
  /** One input alone: a re-sent half of one item. */
  single(item: T): Promise<Id>;
  /** What an unknown outcome means for the caller ("records may have been created"…). */
  unknown: string;
  /** Epoch ms after which no re-send is started. */
  deadline: number;
  /** The vendor and what it writes, for messages: "Tape", "records". */
  vendor: string;
  noun: string;
  /** Time the re-sends need before the deadline (default 3 s). */
  fallbackReserveMs?: number;
  /** Vendor calls of the whole batch in flight at once, chunk calls and re-sends together (default 1). */
  concurrency?: number;
}

export type Settled<Id = number> = PromiseSettledResult<Id>;
const ok = <Id>(value: Id): Settled<Id> => ({ status: 'fulfilled', value });
const no = <Id>(reason: unknown): Settled<Id> => ({ status: 'rejected', reason });

/** Refusals that can come from one input of a batch: the others deserve another try without it. */
const PER_ITEM: ReadonlySet<string> = new Set(['INVALID_PARAMETER', 'NOT_FOUND', 'FORBIDDEN']);

function unknownOutcome(err: unknown, unknown: string): unknown {
  return err instanceof ToolError && err.code === 'INTERNAL_ERROR' ? new ToolError('INTERNAL_ERROR', `${err.message} ${unknown}`, { ...err.details, outcome: 'unknown' }) : err;
}

/** A pool of `n` slots: `run(fn)` waits for a free slot, holds it while `fn` runs. */
export function slots(n: number): <R>(fn: () => Promise<R>) => Promise<R> {
  let free = Math.max(1, n);
  const waiting: (() => void)[] = [];
  return async (fn) => {
    if (free > 0) free--;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await fn();
    } finally {
      // The slot passes straight to the next waiter, so no later caller can overtake it.
      const next = waiting.shift();
      if (next) next();
      else free++;
    }
  };
}

type Attempt<Id> = { ids: Id[] } | { err: unknown };

/** Sends one chunk: the batch call, and what each item's result is (see the header). */
export function chunkSender<T, Id = number>(w: ChunkWriter<T, Id>) {
  const reserve = w.fallbackReserveMs ?? FALLBACK_RESERVE_MS;
  const pooled = slots(w.concurrency ?? 1);

  /** One vendor call for the group: a batch call, or a single write for a group of one. */
  const call = (group: readonly T[], alone: boolean): Promise<Attempt<Id>> =>
    pooled(() => (alone ? w.single(group[0]!).then((id) => [id]) : w.batch(group))).then(
      (ids) => ({ ids }),
      (err: unknown) => ({ err }),
    );

  const settle = (group: readonly T[], a: Attempt<Id>): Promise<Settled<Id>[]> | Settled<Id>[] => {
    if ('err' in a) return refused(group, a.err);
    if (a.ids.length === group.length) return a.ids.map(ok);
    const err = new ToolError('INTERNAL_ERROR', `${w.vendor} answered ${a.ids.length} ${w.noun} for the ${group.length} inputs of this chunk. ${w.unknown}`, {
      upstream_status: 200,
      outcome: 'unknown',
    });
    return group.map(() => no<Id>(err));
  };

  const refused = async (group: readonly T[], err: unknown): Promise<Settled<Id>[]> => {
    if (!(err instanceof ToolError) || !PER_ITEM.has(err.code) || group.length === 1) return group.map(() => no<Id>(unknownOutcome(err, w.unknown)));
    if (Date.now() + reserve >= w.deadline) {
      const why = new NotAttempted(
        `Not written: ${w.vendor} refused the chunk holding this item because of another of its ${w.noun} (${err.code}: ${err.message}), and the time budget ran out before this item could be sent again. Resend it.`,
        { refused_with: err.code },
      );
      return group.map(() => no<Id>(why));
    }
    const mid = Math.ceil(group.length / 2);
    const halves = [group.slice(0, mid), group.slice(mid)];
    const tries = await Promise.all(halves.map((h) => call(h, h.length === 1)));
    const same = (a: Attempt<Id>) => 'err' in a && a.err instanceof ToolError && a.err.code === err.code && a.err.message === err.message;
    if (err.code === 'FORBIDDEN' && tries.every(same)) return group.map(() => no<Id>(err));
    const settled = await Promise.all(halves.map((h, i) => settle(h, tries[i]!)));
    return settled.flat();
  };

  return async (group: readonly T[]): Promise<Settled<Id>[]> => settle(group, await call(group, false));
}

/**
 * Coalesces the calls of one chunk into one call of `send`: runBatch hands `work` its item's chunk
 * and starts the items of a chunk in one synchronous pass, so the group of a chunk closes on the next
 * microtask. Groups are kept per chunk, so chunks in flight together (runBatch `parallelism`), even
 * started in the same pass, never share a vendor call. Items runBatch did not start (time budget
 * gone) never join a group, so they are never sent.
 */
export function coalesce<T, Id = number>(send: (group: readonly T[]) => Promise<Settled<Id>[]>): (input: T, chunk: number) => Promise<Id> {
  type Waiting = { input: T; resolve: (id: Id) => void; reject: (e: unknown) => void };
  const open = new Map<number, Waiting[]>();
  return (input, chunk) =>
    new Promise<Id>((resolve, reject) => {
      let group = open.get(chunk);
      if (!group) {
        const members: Waiting[] = [];
        group = members;
        open.set(chunk, members);
        queueMicrotask(() => {
          open.delete(chunk);
          send(members.map((g) => g.input)).then(
            (results) =>
              members.forEach((g, i) => {
                const r = results[i];
                if (r?.status === 'fulfilled') g.resolve(r.value);
                else g.reject(r ? r.reason : new ToolError('INTERNAL_ERROR', 'No result for this item.'));
              }),
            (err: unknown) => members.forEach((g) => g.reject(err)),
          );
        });
      }
      group.push({ input, resolve, reject });
    });
}
