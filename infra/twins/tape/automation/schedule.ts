/**
 * Schedule arithmetic of Tape's time triggers, pure: the slots of a `periodic` trigger (interval,
 * time in UTC, week days, month days) and when a `date_field_arrived` date plus its offset arrives.
 * The engine (next execution of a manual run) and the scheduler (what fell due) both read it.
 */
import type { TapeValue } from '../model';

/** A clock jump fires at most this many missed schedule slots per automation (the latest ones are dropped). */
export const MAX_CATCH_UP = 100;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const UNIT_MS: Record<string, number> = { minute: 60_000, hour: HOUR, day: DAY, week: 7 * DAY };

function minutesOfDay(time: unknown): number {
  const m = typeof time === 'string' ? /^(\d{1,2}):(\d{2})$/.exec(time) : null;
  return m ? Math.min(23, Number(m[1])) * 60 + Math.min(59, Number(m[2])) : 0;
}

/** Schedule slots of a periodic trigger in (from, to], oldest first, at most `max`. */
export function periodicSlots(config: Record<string, unknown>, from: number, to: number, max = MAX_CATCH_UP): number[] {
  const out: number[] = [];
  if (config.interval === 'hourly') {
    for (let t = Math.floor(from / HOUR) * HOUR + HOUR; t <= to && out.length < max; t += HOUR) out.push(t);
    return out;
  }
  const at = minutesOfDay(config.time) * 60_000;
  const weekDays = Array.isArray(config.week_days) ? (config.week_days as number[]) : [1];
  const monthDays = Array.isArray(config.month_days) ? (config.month_days as number[]) : [1];
  for (let day = Math.floor(from / DAY) * DAY; day <= to && out.length < max; day += DAY) {
    const d = new Date(day);
    const isoWeekDay = d.getUTCDay() === 0 ? 7 : d.getUTCDay();
    const runs = config.interval === 'weekly' ? weekDays.includes(isoWeekDay) : config.interval === 'monthly' ? monthDays.includes(d.getUTCDate()) : true;
    const t = day + at;
    if (runs && t > from && t <= to) out.push(t);
  }
  return out;
}

/** The first slot after `after` (periodic_next_execution_datetime), within a year. */
export function nextSlot(config: Record<string, unknown>, after: number): number | null {
  return periodicSlots(config, after, after + 366 * DAY, 1)[0] ?? null;
}

/** When a date value arrives: its start (UTC; a date without time at 00:00) plus the offset. */
export function arrival(value: TapeValue | undefined, config: Record<string, unknown>): number | null {
  const raw = value ? String(value.start_utc ?? value.start ?? value.start_date ?? '') : '';
  if (!raw) return null;
  const t = Date.parse(raw.length <= 10 ? `${raw}T00:00:00Z` : `${raw.replace(' ', 'T')}Z`);
  if (Number.isNaN(t)) return null;
  const amount = typeof config.offset_amount === 'number' ? config.offset_amount : 0;
  return t + amount * (UNIT_MS[String(config.offset_unit ?? 'day')] ?? DAY);
}
