/**
 * The twin's automation scheduler: fires `periodic` automations on their schedule and
 * `date_field_arrived` ones when a record's date plus the configured offset is reached, by the
 * twin's clock (docs/vendors/tape.md#automation-triggers; the schedule settings of the catalog: interval, time in
 * UTC — Tape's API works in UTC only, docs/vendors/tape.md#dates-and-time-zones — week days, month days).
 *
 * Each live automation of these two triggers keeps the instant up to which it was scheduled;
 * `tick()` fires what fell due since then, up to now. A tick runs whenever the twin's clock is moved
 * (advance/set), around every API request, and — only while such automations are live — from one
 * unref'd timer, so real time fires them locally. An automation just activated starts at "now":
 * nothing that fell due before its activation fires. `close()` stops the timer.
 */
import type { Clock } from '../../kit';
import { appRecords } from '../records';
import type { TapeRecordRow } from '../model';
import { arrival, nextSlot, periodicSlots } from './schedule';
import type { TapeState } from '../state';
import type { AutomationEngine } from './engine';
import type { StoredAutomation } from './model';
import type { AutomationStore } from './store';

/** The timer never sleeps longer than this, so a date edited into the near future is seen in time. */
const MAX_SLEEP_MS = 60_000;

/** The clock the twin hands out: moving it lets the scheduler fire what became due. */
export function observedClock(base: Clock): Clock & { onMove(fn: () => void): void } {
  let listener = () => {};
  return {
    now: () => base.now(),
    advance: (ms) => {
      base.advance(ms);
      listener();
    },
    set: (ms) => {
      base.set(ms);
      listener();
    },
    onMove: (fn) => void (listener = fn),
  };
}

export class AutomationScheduler {
  /** Automation id → the instant up to which it was scheduled. */
  private readonly until = new Map<number, number>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private closed = false;

  constructor(
    private readonly state: TapeState,
    private readonly store: AutomationStore,
    private readonly engine: AutomationEngine,
    private readonly now: () => number,
  ) {}

  /** Fires every periodic slot and date arrival that fell due since the last tick. */
  tick(): void {
    const now = this.now();
    const live = new Set<number>();
    for (const a of this.store.automations.values()) {
      const type = a.trigger?.type;
      if ((type !== 'periodic' && type !== 'date_field_arrived') || !this.engine.isLive(a)) continue;
      live.add(a.id);
      const from = this.until.get(a.id);
      this.until.set(a.id, now);
      if (from === undefined || now <= from) continue; // just went live, or the clock went back
      if (type === 'periodic') this.firePeriodic(a, from, now);
      else this.fireArrivals(a, from, now);
    }
    for (const id of this.until.keys()) if (!live.has(id)) this.until.delete(id);
    this.arm(now);
  }

  private firePeriodic(a: StoredAutomation, from: number, now: number) {
    const config = a.trigger!.config;
    for (const at of periodicSlots(config, from, now)) void this.engine.start(a, { type: 'regular', periodic: { at, next: nextSlot(config, at) } });
  }

  private fireArrivals(a: StoredAutomation, from: number, now: number) {
    const config = a.trigger!.config;
    const due: { record: TapeRecordRow; at: number }[] = [];
    for (const record of appRecords(this.state, a.app_id)) {
      const at = arrival(record.values.get(config.field_id as number)?.[0], config);
      if (at !== null && at > from && at <= now) due.push({ record, at });
    }
    due.sort((x, y) => x.at - y.at || x.record.record_id - y.record.record_id);
    for (const d of due) void this.engine.start(a, { type: 'regular', record: d.record, arrivedAt: d.at });
  }

  /** One unref'd timer while a time-triggered automation is live: wakes at the next slot, at least every minute. */
  private arm(now: number) {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.closed || this.until.size === 0) return;
    let sleep = MAX_SLEEP_MS;
    for (const id of this.until.keys()) {
      const a = this.store.automations.get(id);
      if (a?.trigger?.type !== 'periodic') continue;
      const next = nextSlot(a.trigger.config, now);
      if (next !== null) sleep = Math.min(sleep, next - now);
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.tick();
    }, Math.max(sleep, 1000));
    this.timer.unref?.();
  }

  /** Stops the timer for good (the twin is disposed); ticks still run when asked. */
  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
