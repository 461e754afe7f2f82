import { isObject, show } from '../../../../shared/fields/engine';
import { plainText } from '../../../../shared/core/format';
import type { TapeEntry } from '../entry';
import { cut, type Cx } from './common';
import { DATE_OPS } from './date';
import { TEXT_OPS, anyText } from './text';

/**
 * number (also money), calculation and unique_id (read-only, computed by Tape).
 *
 * money: Tape has no money type; an amount lives in a `number` field whose `unit` (e.g. "€",
 * prefix/suffix) names the currency for the whole field. So a money input {value, currency} is
 * accepted on number fields, its decimal string becomes the number, and its currency must be the
 * field's unit (ISO code or symbol: "EUR" ≙ "€"). Tape stores no currency per value, so a currency
 * the field does not hold — or any currency on a field without a unit — is refused rather than
 * dropped in silence.
 */

export const NUMBER_OPS = ['equal', 'not_equal', 'smaller', 'smaller_or_equal', 'larger', 'larger_or_equal', 'empty', 'not_empty'];

/** Currency code → the unit symbols a Tape number field may show for it. */
const CURRENCY_UNITS: Record<string, readonly string[]> = {
  EUR: ['€'], USD: ['$', 'US$'], GBP: ['£'], JPY: ['¥', '円'], CNY: ['¥', '元'], CHF: ['Fr.', 'CHF', 'SFr.'], INR: ['₹'], KRW: ['₩'], RUB: ['₽'],
  BRL: ['R$'], CAD: ['$', 'C$', 'CA$'], AUD: ['$', 'A$', 'AU$'], NZD: ['$', 'NZ$'], SGD: ['$', 'S$'], HKD: ['$', 'HK$'], MXN: ['$', 'MX$'],
  SEK: ['kr'], NOK: ['kr'], DKK: ['kr'], PLN: ['zł'], CZK: ['Kč'], TRY: ['₺'], ILS: ['₪'], ZAR: ['R'], UAH: ['₴'], NGN: ['₦'], PHP: ['₱'], THB: ['฿'], VND: ['₫'],
};

/** Unit symbol → the first currency code (in the table's order) that shows it: one lookup, not a scan per value. */
const SYMBOL_CODES = new Map<string, string>();
for (const [code, symbols] of Object.entries(CURRENCY_UNITS)) for (const s of symbols) if (!SYMBOL_CODES.has(s)) SYMBOL_CODES.set(s, code);

function currencyCode(unit: unknown): string | undefined {
  if (typeof unit !== 'string') return undefined;
  const u = unit.trim();
  if (/^[A-Za-z]{3}$/.test(u)) return u.toUpperCase();
  return SYMBOL_CODES.get(u);
}

/** A currency given as code or symbol matches a field unit given as code or symbol. */
export function currencyMatches(currency: string, unit: string): boolean {
  const c = currency.trim();
  const u = unit.trim();
  if (c.toUpperCase() === u.toUpperCase() || c === u) return true;
  const symbols = CURRENCY_UNITS[c.toUpperCase()];
  if (symbols?.includes(u)) return true;
  const unitSymbols = CURRENCY_UNITS[u.toUpperCase()];
  return unitSymbols?.includes(c) ?? false;
}

function numberInput(value: unknown, cx: Cx): number {
  const { field, path } = cx;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) cx.fail(`${show(value)} is not a finite number.`);
    return value;
  }
  if (!isObject(value)) {
    const hint = typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim()) ? ` Send it as a number: ${value.trim()}.` : '';
    return cx.fail(`"${field.label}" is a number field; got ${show(value)}.${hint}`);
  }
  // Money {value, currency} on a number field whose unit is the currency (see the header).
  const extra = Object.keys(value).filter((k) => k !== 'value' && k !== 'currency');
  if (extra.length) cx.fail(`unknown key "${extra[0]}"; money is {"value", "currency"}.`, `${path}.${extra[0]}`);
  const raw = value.value;
  const amount = typeof raw === 'string' && /^-?\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw) : typeof raw === 'number' && Number.isFinite(raw) ? raw : undefined;
  if (amount === undefined) cx.fail(`the amount must be a decimal string such as "1250.50", got ${show(raw)}.`, `${path}.value`);
  const unit = typeof field.config.settings?.unit === 'string' ? (field.config.settings.unit as string).trim() : '';
  const currency = value.currency;
  if (typeof currency !== 'string' || currency.trim() === '') {
    return cx.fail(`money needs "currency", a currency code such as "${currencyCode(unit) ?? 'EUR'}".`, `${path}.currency`);
  }
  if (!unit) {
    return cx.fail(
      `Tape keeps the currency per field (its unit), not per value, and "${field.label}" has no unit; pass the amount as a plain number (${amount}) or set a unit on the field.`,
      `${path}.currency`,
      'a plain number: the field has no currency unit',
    );
  }
  if (!currencyMatches(currency, unit)) {
    cx.fail(
      `"${field.label}" holds amounts in ${unit}${currencyCode(unit) ? ` (${currencyCode(unit)})` : ''}; Tape stores no currency per value, so ${show(currency)} cannot be kept. Convert the amount to ${unit} first.`,
      `${path}.currency`,
      `"${currencyCode(unit) ?? unit}": the unit of "${field.label}"`,
    );
  }
  return amount!;
}

const bare: TapeEntry['output'] = (values) => values[0]!.value;
const readOnly = (f: { field_type: string }) => `no value: Tape computes ${f.field_type} fields`;

export const NUMBER_TYPES: Record<string, TapeEntry> = {
  number: {
    expected: (field) => {
      const unit = field.config.settings?.unit;
      return typeof unit === 'string' && unit
        ? `a number, e.g. 1250.5, or money {"value": "1250.50", "currency": "${currencyCode(unit) ?? unit}"} (the field's unit is ${unit})`
        : 'a number, e.g. 1250.5';
    },
    input: numberInput,
    output: bare,
    text: anyText,
    filter: { type: 'number', match_types: NUMBER_OPS, operand: 'number' },
  },
  calculation: {
    expected: readOnly,
    output: bare,
    text: (v, o) => cut(typeof v === 'string' ? plainText(v) : String(v), o),
    filter: { type: 'calculation', match_types: [...new Set([...TEXT_OPS, ...NUMBER_OPS, ...DATE_OPS])], operand: 'calculation' },
  },
  unique_id: {
    expected: readOnly,
    output: bare,
    text: anyText,
    filter: { type: 'number', match_types: NUMBER_OPS, operand: 'number' },
  },
};
