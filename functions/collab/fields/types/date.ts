import { isObject, show } from '../../../../shared/fields/engine';
import { fixedDateTime, isDate, isDateTime } from '../../../../shared/fields/values';
import type { PodioFieldValue } from '../../wire';
import type { CollabEntry, CollabFilter } from '../entry';
import { range, settingsOf, type Cx } from './common';

/**
 * date: `{start: "YYYY-MM-DD HH:MM:SS", end?}` in (docs/spec.md#collab-item: the time is required, 00:00:00 for a
 * day; a bare string or a date without time is refused with the right form), `{start, end | null}` out.
 *
 * Wire form: `{start_date, start_time, end_date, end_time}` (docs/vendors/podio.md#field-types; the form Podio's item docs
 * show), not `start_utc`. Why: what an item read shows is `start`, the date in the key's own user
 * time; start_date/start_time are read in that same frame, so a value read and written back stays
 * the same, where `start_utc` would shift it by the user's offset. A field whose `time` setting is
 * "disabled" holds days only: its time (which must be 00:00:00) is left out.
 */

export interface DateValue { start: string; end: string | null }

const EXAMPLE = '{"start": "2024-05-01 09:00:00"}';
const SHAPE = `{"start": "YYYY-MM-DD HH:MM:SS", "end"?: "YYYY-MM-DD HH:MM:SS"} (time required: use 00:00:00 for a day), e.g. ${EXAMPLE}`;

/** A wire date value → {start, end | null}; `start`/`end` as Podio gives them, else date and time joined. */
export function dateValue(v: PodioFieldValue): DateValue | undefined {
  const part = (key: 'start' | 'end'): string | null => {
    if (typeof v[key] === 'string' && v[key] !== '') return v[key] as string;
    const d = v[`${key}_date`];
    if (typeof d !== 'string' || d === '') return null;
    const t = v[`${key}_time`];
    return typeof t === 'string' && t !== '' ? `${d} ${t}` : d;
  };
  const start = part('start');
  return start === null ? undefined : { start, end: part('end') };
}

function dateInput(value: unknown, cx: Cx): Record<string, string> {
  const { field, path } = cx;
  const settings = settingsOf(field);
  if (!isObject(value)) {
    const fixed = typeof value === 'string' ? fixedDateTime(value) : undefined;
    return cx.fail(`a date is an object {"start": "YYYY-MM-DD HH:MM:SS"}, not ${typeof value === 'string' ? 'a bare string' : show(value)} — write {"start": "${fixed ?? '2024-05-01 00:00:00'}"}.`);
  }
  const extra = Object.keys(value).filter((k) => k !== 'start' && k !== 'end');
  if (extra.length) cx.fail(`unknown key "${extra[0]}"; a date is {"start", "end"}.`, `${path}.${extra[0]}`);
  const part = (key: 'start' | 'end'): [string, string] | undefined => {
    const raw = value[key];
    const at = `${path}.${key}`;
    if (raw === undefined || raw === null || raw === '') {
      if (key === 'start') cx.fail('the date needs "start".', at);
      if (settings.end === 'required') cx.fail(`"${cx.info.label}" requires an end date: add "end".`, at);
      return undefined;
    }
    if (typeof raw !== 'string') return cx.fail(`${show(raw)} is not "YYYY-MM-DD HH:MM:SS".`, at);
    const t = raw.trim();
    if (isDate(t)) cx.fail(`"${t}" has no time; the time is required: write "${t} 00:00:00".`, at);
    if (!isDateTime(t)) {
      const fixed = fixedDateTime(t);
      cx.fail(`${show(raw)} is not "YYYY-MM-DD HH:MM:SS".${fixed ? ` Write "${fixed}".` : ''}`, at);
    }
    return t.split(' ') as [string, string];
  };
  const start = part('start')!;
  const end = part('end');
  if (end && settings.end === 'disabled') cx.fail(`"${cx.info.label}" holds no end date: drop "end".`, `${path}.end`);
  if (end && end.join(' ') < start.join(' ')) cx.fail(`the end ${end.join(' ')} lies before the start ${start.join(' ')}.`, `${path}.end`);
  const withTime = settings.time !== 'disabled';
  if (!withTime) {
    for (const [key, p] of [['start', start], ['end', end]] as const) {
      if (p && p[1] !== '00:00:00') cx.fail(`"${cx.info.label}" holds days without a time: write "${p[0]} 00:00:00".`, `${path}.${key}`);
    }
  }
  const wire: Record<string, string> = { start_date: start[0] };
  if (withTime) wire.start_time = start[1];
  if (end) {
    wire.end_date = end[0];
    if (withTime) wire.end_time = end[1];
  }
  return wire;
}

/** A filter date: `YYYY-MM-DD` or `YYYY-MM-DD HH:MM:SS`. */
const filterDate = (v: unknown, at: string, cx: Parameters<CollabFilter['input']>[1]): string => {
  if (typeof v === 'string' && (isDate(v.trim()) || isDateTime(v.trim()))) return v.trim();
  return cx.fail(`${show(v)} is not a date: write "YYYY-MM-DD" or "YYYY-MM-DD HH:MM:SS".`, at);
};

/** {from, to} of dates, at least one bound. */
export const dateRangeFilter: CollabFilter = {
  expected: () => '{"from": "YYYY-MM-DD", "to": "YYYY-MM-DD"} (a time "HH:MM:SS" may follow; either bound may be left out), e.g. {"from": "2024-01-01", "to": "2024-01-31"}',
  input: (value, cx) => range(value, cx, (bound, at) => filterDate(bound, at, cx)),
};

export const DATE_TYPES: Record<string, CollabEntry> = {
  date: {
    expected: () => SHAPE,
    input: dateInput,
    output: (values) => dateValue(values[0]!),
    text: (v) => {
      const d = v as DateValue;
      return d.end && d.end !== d.start ? `${d.start} → ${d.end}` : d.start;
    },
    filter: dateRangeFilter,
  },
};
