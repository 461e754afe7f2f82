import { isObject, show } from '../../../../shared/fields/engine';
import { fixedDateTime, isDateTime } from '../../../../shared/fields/values';
import { shortDate } from '../../../../shared/core/format';
import type { TapeEntry } from '../entry';
import type { Cx } from './common';

/**
 * single_date, range_date and the read-only record dates (created_on, last_modified_on; also named
 * created_at / last_modified_at). Output {start, end | null} ("YYYY-MM-DD HH:MM:SS").
 *
 * single_date takes exactly `YYYY-MM-DD HH:MM:SS` on create AND on update (the spec leaves open
 * which form updates take: we accept the plain string on both and refuse the `{start}` object on
 * both, with the right form in the error). It is sent to Tape as that string.
 * range_date {start, end} is sent as Tape's documented "START - END" string (end optional).
 */

export const DATE_OPS = ['equal', 'not_equal', 'before', 'on_or_before', 'after', 'on_or_after', 'within', 'on_weekday', 'in_quarter_of_year', 'in_month_of_year', 'empty', 'not_empty'];

export { isDateTime };

export interface DateValue { start: string; end: string | null }

/** The right form for a date-ish string the agent gave: "2025-03-01" → "2025-03-01 00:00:00". */
function dateHint(raw: string): string {
  const fixed = fixedDateTime(raw);
  return fixed && fixed !== raw.trim() ? ` Write "${fixed}".` : '';
}

function singleDate(value: unknown, cx: Cx): string {
  const { field } = cx;
  if (isObject(value) && 'start' in value) {
    const start = typeof value.start === 'string' ? value.start : '2025-03-01 00:00:00';
    const fixed = isDateTime(start) ? start : `${start.slice(0, 10)} 00:00:00`;
    return cx.fail(`"${field.label}" is a single_date field: pass the date as a plain string, not an object with "start" — "${field.external_id}": "${fixed}".`);
  }
  if (typeof value !== 'string') return cx.fail(`got ${show(value)}.`);
  if (!isDateTime(value)) return cx.fail(`${show(value)} is not "YYYY-MM-DD HH:MM:SS".${dateHint(value)}`);
  return value;
}

function rangeDate(value: unknown, cx: Cx): string {
  const { path } = cx;
  if (!isObject(value)) {
    const hint = typeof value === 'string' && isDateTime(value.trim()) ? ` Write {"start": "${value.trim()}", "end": …}.` : '';
    return cx.fail(`a range_date takes an object {start, end}, got ${show(value)}.${hint}`);
  }
  const extra = Object.keys(value).filter((k) => k !== 'start' && k !== 'end');
  if (extra.length) cx.fail(`unknown key "${extra[0]}"; a range is {"start", "end"}.`, `${path}.${extra[0]}`);
  const part = (key: 'start' | 'end'): string | undefined => {
    const raw = value[key];
    if (raw === undefined || raw === null || raw === '') {
      if (key === 'start') cx.fail('the range needs "start".', `${path}.start`);
      return undefined;
    }
    if (typeof raw !== 'string' || !isDateTime(raw)) return cx.fail(`${show(raw)} is not "YYYY-MM-DD HH:MM:SS".${typeof raw === 'string' ? dateHint(raw) : ''}`, `${path}.${key}`);
    return raw;
  };
  const start = part('start')!;
  const end = part('end');
  if (end !== undefined && end < start) cx.fail(`the end ${end} lies before the start ${start}.`, `${path}.end`);
  return end === undefined ? start : `${start} - ${end}`;
}

const output: TapeEntry['output'] = (values) => {
  const v0 = values[0]!;
  const d = isObject(v0.value) ? v0.value : v0;
  return { start: String(d.start ?? ''), end: typeof d.end === 'string' ? d.end : null } satisfies DateValue;
};
const text: TapeEntry['text'] = (v) => {
  const d = v as DateValue;
  return d.end ? `${shortDate(d.start)} → ${shortDate(d.end)}` : shortDate(d.start);
};
const filter = { type: 'date', match_types: DATE_OPS, operand: 'date' } as const;
/** A record date Tape sets itself. */
const recordDate: TapeEntry = { expected: (f) => `no value: Tape computes ${f.field_type} fields`, output, text, filter };

export const DATE_TYPES: Record<string, TapeEntry> = {
  single_date: {
    expected: () => 'a string "YYYY-MM-DD HH:MM:SS" (time required; 00:00:00 for a date only), e.g. "2025-03-01 00:00:00"',
    input: singleDate,
    output,
    text,
    filter,
  },
  range_date: {
    expected: () => '{"start": "YYYY-MM-DD HH:MM:SS", "end": "YYYY-MM-DD HH:MM:SS"}, e.g. {"start": "2025-03-01 00:00:00", "end": "2025-03-07 00:00:00"}',
    input: rangeDate,
    output,
    text,
    filter,
  },
  created_on: recordDate,
  last_modified_on: recordDate,
  // docs/vendors/tape.md#fields-and-values names these two created_at / last_modified_at.
  created_at: recordDate,
  last_modified_at: recordDate,
};
