import { show } from '../../../../shared/fields/engine';
import { plainText } from '../../../../shared/core/format';
import type { CollabEntry } from '../entry';
import { cut } from './common';

/** text: a string in, a string out (Podio may hold HTML: settings.format html); filters match part of the text. */

export const TEXT_TYPES: Record<string, CollabEntry> = {
  text: {
    expected: () => 'a string, e.g. "Fix the login bug"',
    input: (value, cx) => {
      if (typeof value !== 'string') cx.fail(`"${cx.info.label}" is a text field; got ${show(value)}.${typeof value === 'number' ? ` Send it as a string: "${value}".` : ''}`);
      return value;
    },
    output: (values) => (typeof values[0]!.value === 'string' && values[0]!.value !== '' ? values[0]!.value : undefined),
    text: (v, o) => cut(plainText(String(v)), o),
    filter: {
      expected: () => 'a string the text must contain (partial match), e.g. "invoice"',
      input: (value, cx) => {
        if (typeof value !== 'string' || value.trim() === '') cx.fail(`a text filter matches part of the text: pass a non-empty string, got ${show(value)}.`);
        return (value as string).trim();
      },
    },
  },
};

/** The text of a value of a type the table does not know. */
export const anyText: CollabEntry['text'] = (v, o) =>
  cut(Array.isArray(v) ? v.map((x) => (typeof x === 'object' && x !== null ? JSON.stringify(x) : String(x))).join(', ') : typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v), o);
