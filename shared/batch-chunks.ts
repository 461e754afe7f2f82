import { ToolError } from './errors';

/**
 * For vendors with a batch endpoint: runBatch starts the items of a chunk together, `coalesce`
 * turns those starts into ONE call per chunk (with several chunks in flight), and `chunkSender`
 * makes that call and gives each item its own exact result, when the vendor runs a batch as one
 * transaction:
 * - success: the vendor answers the written ids in input order → each item gets its id;
 * - INVALID_PARAMETER (one input the vendor refused): nothing of the chunk was written, so each item
 *   is sent alone, in parallel, and gets its own result — the good ones are written, the bad one
 *   gets the vendor's reason;
 * - rate limit, 401/403/404: nothing was written; every item of the chunk carries that error;
 * - 5xx, timeout, or an answer that does not account for every input: the outcome is unknown, and
 *   every item says so (check before resending a create).
 */

/** Time a chunk's fallback to single writes must have left before the deadline, by default. */
export const FALLBACK_RESERVE_MS = 3_000;

export interface ChunkWriter<T, Id = number> {
  /** One batch call for the group; the ids it wrote, in input order. */
  batch(group: readonly T[]): Promise<Id[]>;
  /** One input alone: the fallback when the vendor refused the batch for one bad input. */
  single(item: T): Promise<Id>;
  /** What an unknown outcome means for the caller ("records may have been created"…). */
  unknown: string;
  /** Epoch ms after which no fallback is started. */
  deadline: number;
  /** The vendor and what it writes, for messages: "Tape", "records". */
  vendor: string;
  noun: string;
  /** Time the fallback needs before the deadline (default 3 s). */
  fallbackReserveMs?: number;
}

export type Settled<Id = number> = PromiseSettledResult<Id>;
const ok = <Id>(value: Id): Settled<Id> => ({ status: 'fulfilled', value });
const no = <Id>(reason: unknown): Settled<Id> => ({ status: 'rejected', reason });

function unknownOutcome(err: ToolError, unknown: string): ToolError {
  return err.code === 'INTERNAL_ERROR' ? new ToolError('INTERNAL_ERROR', `${err.message} ${unknown}`, { ...err.details, outcome: 'unknown' }) : err;
}

/** Sends one chunk: the batch call, and what each item's result is (see the header). */
export function chunkSender<T, Id = number>(w: ChunkWriter<T, Id>) {
  const reserve = w.fallbackReserveMs ?? FALLBACK_RESERVE_MS;
  return async (group: readonly T[]): Promise<Settled<Id>[]> => {
    try {
      const ids = await w.batch(group);
      if (ids.length !== group.length) {
        const err = new ToolError('INTERNAL_ERROR', `${w.vendor} answered ${ids.length} ${w.noun} for the ${group.length} inputs of this chunk. ${w.unknown}`, {
          upstream_status: 200,
          outcome: 'unknown',
        });
        return group.map(() => no<Id>(err));
      }
      return ids.map(ok);
    } catch (err) {
      if (!(err instanceof ToolError)) return group.map(() => no<Id>(err));
      if (err.code === 'INVALID_PARAMETER' && group.length > 1 && Date.now() + reserve < w.deadline) {
        return Promise.all(group.map((item) => w.single(item).then(ok, (e: unknown) => no<Id>(e instanceof ToolError ? unknownOutcome(e, w.unknown) : e))));
      }
      return group.map(() => no<Id>(unknownOutcome(err, w.unknown)));
    }
  };
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
