/** Options of eachBounded. */
export interface PoolOptions {
  /** Aborting it starts no new item; eachBounded then throws the signal's reason once the started ones are done. */
  signal?: AbortSignal;
  /**
   * What a failure does to the items not yet started: `stop` (the default) starts none of them and
   * aborts the signal handed to `fn`; `continue` runs every item all the same (work whose parts
   * stand alone, e.g. storing a delivery's events: what can be stored is, and a retry of the whole
   * finds it done). Either way the first failure is thrown once every started item has settled.
   */
  afterFailure?: 'stop' | 'continue';
}

/**
 * Runs `fn` over the items with at most `limit` in flight at once; results in input order.
 *
 * By default the first failure starts no new item and aborts the `signal` handed to `fn` (so work
 * that can be cancelled, e.g. a download, stops early); with `afterFailure: 'continue'` the rest
 * still run. The first failure is thrown once every started item has settled, so nothing runs on
 * after the caller has its answer. Lanes start in one synchronous pass: the first
 * `limit` items are begun before anything is awaited (callers that coalesce rely on it).
 */
export async function eachBounded<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number, signal: AbortSignal) => Promise<R>,
  opts: PoolOptions = {},
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  const stop = new AbortController();
  const outer = opts.signal;
  let failure: { err: unknown } | undefined;
  const stopOnFailure = (opts.afterFailure ?? 'stop') === 'stop';
  const onOuterAbort = () => {
    failure ??= { err: outer!.reason };
    stop.abort(outer!.reason);
  };
  if (outer?.aborted) onOuterAbort();
  else outer?.addEventListener('abort', onOuterAbort, { once: true });

  let next = 0;
  const lane = async () => {
    while (next < items.length && !(failure && stopOnFailure)) {
      const i = next++;
      try {
        out[i] = await fn(items[i]!, i, stop.signal);
      } catch (err) {
        // The first failure is the one to report; those it aborts fail only because of it.
        if (!failure) {
          failure = { err };
          if (stopOnFailure) stop.abort(err);
        }
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  } finally {
    outer?.removeEventListener('abort', onOuterAbort);
  }
  if (failure) throw failure.err;
  return out;
}
