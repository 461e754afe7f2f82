import { isObject, show } from '../../../../shared/fields/engine';
import type { CollabEntry, CollabFilter } from '../entry';
import { decimal, range, settingsOf, type Cx } from './common';
import { dateRangeFilter, dateValue } from './date';

/**
 * number, money, progress (0-100), duration (seconds) and calculation (read-only; its value is a
 * number, a date or a text by the formula's return type). Podio returns numbers as decimal strings
 * ("12.5000"): they come out as numbers, money as {value: decimal string, currency}.
 */

const DECIMAL = /^-?\d+(\.\d+)?$/;

const aNumber = (value: unknown, cx: Cx): number => {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  const hint = typeof value === 'string' && DECIMAL.test(value.trim()) ? ` Send it as a number: ${value.trim()}.` : '';
  return cx.fail(`"${cx.info.label}" is a ${cx.info.type} field; got ${show(value)}.${hint}`);
};

/** {from, to} of numbers (or decimal strings), at least one bound. */
const numberRange: CollabFilter = {
  expected: () => '{"from": number, "to": number} (either may be left out), e.g. {"from": 10, "to": 20}',
  input: (value, cx) => range(value, cx, (bound, at) => {
    if (typeof bound === 'number' && Number.isFinite(bound)) return bound;
    if (typeof bound === 'string' && DECIMAL.test(bound.trim())) return Number(bound);
    return cx.fail(`${show(bound)} is not a number.`, at);
  }),
};

const numberOut: CollabEntry['output'] = (values) => {
  const raw = values[0]!.value;
  if (typeof raw === 'number') return raw;
  return typeof raw === 'string' && DECIMAL.test(raw.trim()) ? Number(raw) : undefined;
};
const numberText: CollabEntry['text'] = (v) => String(v);

export interface MoneyValue { value: string; currency: string }

/** The field's `settings.allowed_currencies`, upper-case; empty when it names none. */
function allowedCurrencies(settings: Record<string, unknown>): string[] {
  const list = settings.allowed_currencies;
  return Array.isArray(list) ? list.filter((c): c is string => typeof c === 'string').map((c) => c.toUpperCase()) : [];
}

function money(value: unknown, cx: Cx): MoneyValue {
  const allowed = allowedCurrencies(settingsOf(cx.field));
  const currency0 = allowed[0] ?? 'EUR';
  if (!isObject(value)) {
    const amount = typeof value === 'number' || (typeof value === 'string' && DECIMAL.test(value.trim())) ? String(value).trim() : '12.50';
    return cx.fail(`money is an object {"value", "currency"}, got ${show(value)} — write {"value": "${amount}", "currency": "${currency0}"}.`);
  }
  const extra = Object.keys(value).filter((k) => k !== 'value' && k !== 'currency');
  if (extra.length) cx.fail(`unknown key "${extra[0]}"; money is {"value", "currency"}.`, `${cx.path}.${extra[0]}`);
  const raw = value.value;
  if (typeof raw === 'number') cx.fail(`pass the amount as a decimal string, not a number: "value": "${raw}" (a string keeps the exact decimals).`, `${cx.path}.value`);
  if (typeof raw !== 'string' || !DECIMAL.test(raw.trim())) cx.fail(`the amount must be a decimal string such as "1250.50", got ${show(raw)}.`, `${cx.path}.value`);
  const currency = value.currency;
  if (typeof currency !== 'string' || !/^[A-Za-z]{3}$/.test(currency.trim())) {
    cx.fail(`money needs "currency", a three-letter code such as "${currency0}", got ${show(currency)}.`, `${cx.path}.currency`);
  }
  const code = (currency as string).trim().toUpperCase();
  if (allowed.length && !allowed.includes(code)) {
    cx.fail(`"${cx.info.label}" takes ${allowed.join(', ')}, not ${code}. Convert the amount to one of them.`, `${cx.path}.currency`);
  }
  return { value: (raw as string).trim(), currency: code };
}

export const NUMBER_TYPES: Record<string, CollabEntry> = {
  number: {
    expected: (f) => {
      const d = settingsOf(f).decimals;
      return `a number${typeof d === 'number' ? ` (${d} decimals kept)` : ''}, e.g. 12.5`;
    },
    input: aNumber,
    output: numberOut,
    text: numberText,
    filter: numberRange,
  },
  money: {
    expected: (f) => {
      const allowed = allowedCurrencies(settingsOf(f));
      return `{"value": decimal string, "currency": code}${allowed.length ? ` with currency one of ${allowed.join(', ')}` : ''}, e.g. {"value": "12.50", "currency": "${allowed[0] ?? 'EUR'}"}`;
    },
    input: money,
    output: (values) => {
      const v = values[0]!;
      return typeof v.currency === 'string' && v.value !== undefined && v.value !== null ? { value: decimal(v.value), currency: v.currency } : undefined;
    },
    text: (v) => `${(v as MoneyValue).value} ${(v as MoneyValue).currency}`,
    filter: { ...numberRange, expected: () => '{"from": amount, "to": amount} (either may be left out), e.g. {"from": 100, "to": 500}' },
  },
  progress: {
    expected: () => 'a whole number from 0 to 100 (percent), e.g. 75',
    input: (value, cx) => {
      const n = aNumber(value, cx);
      if (!Number.isInteger(n) || n < 0 || n > 100) cx.fail(`progress is a whole number from 0 to 100, got ${show(value)}.`);
      return n;
    },
    output: numberOut,
    text: (v) => `${String(v)}%`,
    filter: numberRange,
  },
  duration: {
    expected: () => 'a whole number of seconds (0 or more), e.g. 5400 for 1h 30m',
    input: (value, cx) => {
      const n = aNumber(value, cx);
      if (!Number.isInteger(n) || n < 0) cx.fail(`a duration is a whole number of seconds (0 or more), got ${show(value)}.`);
      return n;
    },
    output: numberOut,
    text: (v) => durationText(Number(v)),
    filter: { ...numberRange, expected: () => '{"from": seconds, "to": seconds} (either may be left out), e.g. {"from": 3600}' },
  },
  calculation: {
    expected: () => 'no value: Podio computes calculation fields',
    output: (values) => {
      const v = values[0]!;
      if (typeof v.start === 'string' || typeof v.start_date === 'string') return dateValue(v);
      const raw = v.value;
      if (typeof raw === 'number') return raw;
      if (typeof raw === 'string' && DECIMAL.test(raw.trim())) return Number(raw);
      return raw === undefined || raw === null || raw === '' ? undefined : String(raw);
    },
    text: (v) => (isObject(v) ? (v.end ? `${String(v.start)} → ${String(v.end)}` : String(v.start)) : String(v)),
    // A calculation filters like its return type: dates by a date range, everything else by a number range.
    filter: {
      expected: (f) => (settingsOf(f).return_type === 'date' ? dateRangeFilter.expected(f) : numberRange.expected(f)),
      input: (value, cx) => (settingsOf(cx.field).return_type === 'date' ? dateRangeFilter.input(value, cx) : numberRange.input(value, cx)),
    },
  },
};

/** 5400 → "1h 30m"; 45 → "45s"; 0 → "0s". */
export function durationText(seconds: number): string {
  if (!Number.isFinite(seconds)) return String(seconds);
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const parts = [h ? `${h}h` : '', m ? `${m}m` : '', s ? `${s}s` : ''].filter(Boolean);
  return parts.length ? parts.join(' ') : '0s';
}
