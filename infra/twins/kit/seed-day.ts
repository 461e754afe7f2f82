import type { Clock } from './clock';

const DAY = 86_400_000;

/**
 * How far a seed moves so its demo data stays current: each twin's seed is written for one
 * reference day (the day its data looks current: deals closing this month and next, tasks due
 * this week), and at start it is moved by whole days to the day the twin's clock shows. The same
 * start day always gives the same data; a test that needs the written dates pins the twin's clock
 * to a time on the reference day (shift 0).
 */
export function seedShift(clock: Clock, referenceDay: number): number {
  return Math.floor(clock.now() / DAY) * DAY - Math.floor(referenceDay / DAY) * DAY;
}

/** Seeds built once per shift: a twin started on another day (tests pinning clocks) gets its own. */
export function seedsByShift<T>(build: (shift: number) => T): (shift: number) => T {
  const built = new Map<number, T>();
  return (shift) => {
    let seed = built.get(shift);
    if (seed === undefined) built.set(shift, (seed = build(shift)));
    return seed;
  };
}
