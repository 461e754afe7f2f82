import { isObject, show } from '../../../../shared/fields/engine';
import { EMAIL_PATTERN, PHONE_PATTERN } from '../../../../shared/fields/values';
import type { PodioAppField } from '../../wire';
import type { CollabEntry } from '../entry';
import { cut, settingsOf, type Cx } from './common';

/**
 * tel (phone) and email: an array of {type, value}, types from the field's settings.possible_types
 * (Podio's defaults where it names none); location: an address string.
 */

const DEFAULT_TYPES: Record<'tel' | 'email', string[]> = {
  tel: ['mobile', 'work', 'home', 'main', 'work_fax', 'private_fax', 'other'],
  email: ['work', 'home', 'other'],
};

const typesOf = (f: PodioAppField, kind: 'tel' | 'email'): string[] => {
  const p = settingsOf(f).possible_types;
  const list = Array.isArray(p) ? p.filter((t): t is string => typeof t === 'string') : [];
  return list.length ? list : DEFAULT_TYPES[kind];
};

const example = (kind: 'tel' | 'email', types: string[]) => `{"type": "${types[0]}", "value": "${kind === 'tel' ? '+1 555 0100' : 'ada@example.com'}"}`;

function entries(value: unknown, cx: Cx, kind: 'tel' | 'email'): { type: string; value: string }[] {
  const types = typesOf(cx.field, kind);
  const noun = kind === 'tel' ? 'phone number' : 'email address';
  if (!Array.isArray(value)) {
    const hint = typeof value === 'string' ? ` — write [{"type": "${types[0]}", "value": ${show(value)}}]` : isObject(value) ? ` — wrap it in an array: [${show(value)}]` : '';
    return cx.fail(`"${cx.info.label}" takes an array of {"type", "value"} objects, got ${show(value)}${hint}.`);
  }
  return value.map((item, i) => {
    const at = `${cx.path}.${i}`;
    if (!isObject(item)) return cx.fail(`each entry is an object {"type", "value"}, got ${show(item)}${typeof item === 'string' ? ` — write {"type": "${types[0]}", "value": ${show(item)}}` : ''}.`, at);
    const extra = Object.keys(item).filter((k) => k !== 'type' && k !== 'value');
    if (extra.length) cx.fail(`unknown key "${extra[0]}"; an entry is {"type", "value"}${['email', 'phone', 'number', 'address'].includes(extra[0]!) ? ` — put the ${noun} in "value"` : ''}.`, `${at}.${extra[0]}`);
    const text = item.value;
    if (typeof text !== 'string' || text.trim() === '') return cx.fail(`each entry needs "value", the ${noun}, as a non-empty string.`, `${at}.value`);
    const pattern = kind === 'tel' ? PHONE_PATTERN : EMAIL_PATTERN;
    if (!pattern.test(text.trim())) cx.fail(`${show(text)} is not a ${noun}${kind === 'tel' ? ' (digits, spaces, + ( ) . / -)' : ''}.`, `${at}.value`);
    const type = item.type ?? (types.includes('work') ? 'work' : types[0]);
    if (typeof type !== 'string' || !types.includes(type)) cx.fail(`"type" is one of ${types.join(', ')}, got ${show(type)}.`, `${at}.type`);
    return { type: type as string, value: text.trim() };
  });
}

function typed(kind: 'tel' | 'email'): CollabEntry {
  return {
    expected: (f) => {
      const types = typesOf(f, kind);
      return `an array of {"type": ${types.map((t) => `"${t}"`).join('|')}, "value": "…"}, e.g. [${example(kind, types)}]`;
    },
    input: (value, cx) => entries(value, cx, kind),
    output: (values) => values.filter((v) => typeof v.value === 'string' && v.value !== '').map((v) => ({ type: String(v.type ?? 'other'), value: String(v.value) })),
    text: (v) => (v as { type: string; value: string }[]).map((e) => (e.type === 'work' ? e.value : `${e.value} (${e.type})`)).join(', '),
  };
}

const address = (v: Record<string, unknown>): string => String(v.value ?? v.formatted ?? '').trim();

export const CONTACT_INFO_TYPES: Record<string, CollabEntry> = {
  tel: typed('tel'),
  email: typed('email'),
  location: {
    expected: () => 'an address string, e.g. "1 Main St, Springfield, IL 62701, USA"',
    // Sent as the plain string, the first input form docs/vendors/podio.md documents (Podio geocodes it); the
    // object form {value, city, …} would need parts the agent does not have.
    input: (value, cx) => {
      if (typeof value !== 'string' || value.trim() === '') {
        cx.fail(isObject(value) ? 'pass the address as one string, not an object.' : `"${cx.info.label}" takes an address string; got ${show(value)}.`);
      }
      return (value as string).trim();
    },
    output: (values) => {
      const all = values.map(address).filter(Boolean);
      return all.length > 1 ? all : all[0];
    },
    text: (v, o) => cut(Array.isArray(v) ? v.join('; ') : String(v), o),
  },
};
