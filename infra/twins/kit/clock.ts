/**
 * One clock per twin, which tests can move: expiry, schedules, rate-limit windows and timestamps
 * all read it, so a test never waits for real time to pass.
 */
export interface Clock {
  /** Milliseconds since the epoch, as Date.now(). */
  now(): number;
  /** Moves the clock forward by `ms`. */
  advance(ms: number): void;
  /** Puts the clock at `ms` (epoch milliseconds). */
  set(ms: number): void;
}

/**
 * `createClock()` follows real time (plus whatever `advance`/`set` added): what the local server
 * uses. `createClock(start)` stands still at `start` until moved: what tests use.
 */
export function createClock(start?: number): Clock {
  if (start === undefined) {
    let offset = 0;
    return {
      now: () => Date.now() + offset,
      advance: (ms) => void (offset += ms),
      set: (ms) => void (offset = ms - Date.now()),
    };
  }
  let at = start;
  return {
    now: () => at,
    advance: (ms) => void (at += ms),
    set: (ms) => void (at = ms),
  };
}
