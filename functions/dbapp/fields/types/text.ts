import { show } from '../../../../shared/fields/engine';
import { plainText } from '../../../../shared/core/format';
import type { TapeEntry } from '../entry';
import { cut } from './common';

/** single_text, multi_text: strings (multi_text keeps Tape's HTML). */

const TEXT_OPS = ['equal', 'not_equal', 'contains', 'not_contains', 'starts_with', 'ends_with', 'empty', 'not_empty'];
export { TEXT_OPS };

const input: TapeEntry['input'] = (value, cx) => {
  if (typeof value !== 'string') cx.fail(`"${cx.field.label}" is a text field; got ${show(value)}.`);
  return value;
};
const output: TapeEntry['output'] = (values) => (typeof values[0]!.value === 'string' ? values[0]!.value : String(values[0]!.value ?? ''));

export const TEXT_TYPES: Record<string, TapeEntry> = {
  single_text: {
    expected: () => 'a string, e.g. "Northwind Traders"',
    input,
    output,
    text: (v, o) => cut(String(v), o),
    filter: { type: 'text', match_types: TEXT_OPS, operand: 'text' },
  },
  multi_text: {
    expected: () => 'a string (HTML allowed), e.g. "<p>Met at the fair</p>"',
    input,
    output,
    text: (v, o) => cut(typeof v === 'string' ? plainText(v) : String(v), o),
    filter: { type: 'text', match_types: TEXT_OPS, operand: 'text' },
  },
};

/** The text of a value of a type the table does not know. */
export const anyText: TapeEntry['text'] = (v, o) => (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? cut(String(v), o) : cut(JSON.stringify(v), o));
