/**
 * Wall times in a user's timezone → UTC, as Podio reads task due times (docs/spec.md#collab-task: `due_on` /
 * `due_time` are the user's local time). Done here, with the key's own timezone from
 * `GET /user/status`, so the answer can say the UTC time and a wall time that does not exist is
 * caught: one in a spring-forward gap (e.g. 02:30 when clocks jump from 02:00 to 03:00) is refused;
 * one that occurs twice (autumn) is read as the first, the earlier instant — what a person writing
 * it before the change means.
 */

const formats = new Map<string, Intl.DateTimeFormat>();

function format(tz: string): Intl.DateTimeFormat {
  let f = formats.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    formats.set(tz, f);
  }
  return f;
}

/** `YYYY-MM-DD HH:MM:SS` of an instant, in `tz`. */
export function localTime(tz: string, ms: number): string {
  const p: Record<string, string> = {};
  for (const part of format(tz).formatToParts(new Date(ms))) p[part.type] = part.value;
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
}

/** `YYYY-MM-DD HH:MM:SS` read as UTC → epoch ms. */
const wallMs = (wall: string): number => Date.parse(`${wall.replace(' ', 'T')}Z`);

export type ZonedResult = { ok: true; utc: string } | { ok: false; reason: 'gap' };

/**
 * A wall time of `tz` → `YYYY-MM-DD HH:MM:SS` in UTC. The offsets a day before and after are the
 * only ones the instant can have (no zone changes twice in a day); each gives a candidate, and a
 * candidate counts when it shows the same wall time back.
 */
export function zonedToUtc(tz: string, wall: string): ZonedResult {
  const w = wallMs(wall);
  const offsets = [w - 86_400_000, w + 86_400_000].map((t) => wallMs(localTime(tz, t)) - t);
  const valid = [...new Set(offsets.map((o) => w - o))].filter((t) => localTime(tz, t) === wall).sort((a, b) => a - b);
  if (!valid.length) return { ok: false, reason: 'gap' };
  return { ok: true, utc: new Date(valid[0]!).toISOString().slice(0, 19).replace('T', ' ') };
}

/** Whether `tz` is a timezone this runtime knows. */
export function knownTimezone(tz: string): boolean {
  try {
    format(tz);
    return true;
  } catch {
    return false;
  }
}
