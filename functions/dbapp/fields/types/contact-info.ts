import { isObject, show } from '../../../../shared/fields/engine';
import { EMAIL_PATTERN, PHONE_PATTERN } from '../../../../shared/fields/values';
import type { TapeEntry } from '../entry';
import { cut, type Cx } from './common';

/** multi_email, multi_phone ([{type, value}]), multi_link ([{url, title?}]) and single_location (an address string). */

const EMAIL_TYPES = ['work', 'home', 'other'];
/** The spec names work/mobile/home/other; Tape also takes these (docs/vendors/tape.md#fields-and-values). */
const PHONE_TYPES = ['work', 'mobile', 'home', 'other', 'main', 'work_fax', 'home_fax', 'pager'];
const ENTRY_OPS = ['fully_includes', 'contains', 'not_contains', 'starts_with', 'ends_with', 'empty', 'not_empty'];

function entries(value: unknown, cx: Cx, key: 'email' | 'phone', types: string[]): { type: string; [k: string]: string }[] {
  if (!Array.isArray(value)) return cx.fail(`"${cx.field.label}" takes an array of {"type", "${key}"} objects, got ${show(value)}.`);
  return value.map((item, i) => {
    const at = `${cx.path}.${i}`;
    if (!isObject(item)) return cx.fail(`each entry is an object {"type", "${key}"}, got ${show(item)}${typeof item === 'string' ? ` — write {"type": "work", "${key}": ${show(item)}}` : ''}.`, at);
    const extra = Object.keys(item).filter((k) => k !== 'type' && k !== key);
    if (extra.length) {
      const hint = extra[0] === 'value' || extra[0] === (key === 'email' ? 'address' : 'number') ? ` Use "${key}" for the ${key === 'email' ? 'address' : 'number'}.` : '';
      cx.fail(`unknown key "${extra[0]}".${hint}`, `${at}.${extra[0]}`);
    }
    const text = item[key];
    if (typeof text !== 'string' || text.trim() === '') return cx.fail(`each entry needs "${key}" as a non-empty string.`, `${at}.${key}`);
    if (key === 'email' && !EMAIL_PATTERN.test(text.trim())) cx.fail(`${show(text)} is not an email address.`, `${at}.email`);
    if (key === 'phone' && !PHONE_PATTERN.test(text.trim())) cx.fail(`${show(text)} is not a phone number (digits, spaces, + ( ) . / -).`, `${at}.phone`);
    const type = item.type ?? 'work';
    if (typeof type !== 'string' || !types.includes(type)) cx.fail(`type must be one of ${types.join(', ')}, got ${show(type)}.`, `${at}.type`);
    // Set after the literal: a computed key in it builds every entry the slow way.
    const entry: { type: string; [k: string]: string } = { type: type as string };
    entry[key] = text.trim();
    return entry;
  });
}

function links(value: unknown, cx: Cx): { url: string; title?: string }[] {
  if (!Array.isArray(value)) return cx.fail(`"${cx.field.label}" takes an array of {"url", "title"} objects, got ${show(value)}.`);
  return value.map((item, i) => {
    const at = `${cx.path}.${i}`;
    if (!isObject(item)) return cx.fail(`each link is an object {"url", "title"}, got ${show(item)}${typeof item === 'string' ? ` — write {"url": ${show(item)}}` : ''}.`, at);
    const extra = Object.keys(item).filter((k) => k !== 'url' && k !== 'title');
    if (extra.length) cx.fail(`unknown key "${extra[0]}"; a link is {"url", "title"}.`, `${at}.${extra[0]}`);
    const url = item.url;
    if (typeof url !== 'string' || !/^https?:\/\/[^\s/$.?#][^\s]*$/i.test(url.trim())) return cx.fail(`"url" must be an http(s) URL, got ${show(url)}.`, `${at}.url`);
    if (item.title !== undefined && item.title !== null && typeof item.title !== 'string') cx.fail(`"title" must be a string, got ${show(item.title)}.`, `${at}.title`);
    return typeof item.title === 'string' && item.title.trim() !== '' ? { url: url.trim(), title: item.title.trim() } : { url: url.trim() };
  });
}

const typedOutput: TapeEntry['output'] = (values) => values.map((v) => ({ type: String(v.type ?? 'work'), value: String(v.value ?? '') }));
const typedText: TapeEntry['text'] = (v) => (v as { type: string; value: string }[]).map((e) => (e.type === 'work' ? e.value : `${e.value} (${e.type})`)).join(', ');

export const CONTACT_INFO_TYPES: Record<string, TapeEntry> = {
  multi_email: {
    expected: () => 'an array of {"type": "work"|"home"|"other", "email": "…"}, e.g. [{"type": "work", "email": "ada@example.com"}]',
    input: (value, cx) => entries(value, cx, 'email', EMAIL_TYPES),
    output: typedOutput,
    text: typedText,
    filter: { type: 'email', match_types: ENTRY_OPS, operand: 'text' },
  },
  multi_phone: {
    expected: () => 'an array of {"type": "work"|"mobile"|"home"|"other", "phone": "…"}, e.g. [{"type": "mobile", "phone": "+49 89 123 4567"}]',
    input: (value, cx) => entries(value, cx, 'phone', PHONE_TYPES),
    output: typedOutput,
    text: typedText,
    filter: { type: 'phone', match_types: ENTRY_OPS, operand: 'text' },
  },
  multi_link: {
    expected: () => 'an array of {"url": "https://…", "title": "…"}, e.g. [{"url": "https://example.com", "title": "Homepage"}]',
    input: links,
    output: (values) => values.map((v) => (typeof v.title === 'string' && v.title ? { url: String(v.url ?? ''), title: v.title } : { url: String(v.url ?? '') })),
    text: (v, o) => (v as { url: string; title?: string }[]).map((l) => (o.verbose && l.title ? `${l.url} "${l.title}"` : l.url)).join(', '),
    filter: { type: 'embed', match_types: ['contains', 'not_contains', 'starts_with', 'ends_with', 'empty', 'not_empty'], operand: 'text' },
  },
  single_location: {
    expected: () => 'an address string, e.g. "Hessstr. 6, 80799 Munich, Germany"',
    input: (value, cx) => {
      if (typeof value !== 'string' || value.trim() === '') {
        cx.fail(isObject(value) ? 'pass the address as one string, not an object.' : `"${cx.field.label}" takes an address string; got ${show(value)}.`);
      }
      return (value as string).trim();
    },
    output: (values) => String(values[0]!.value ?? values[0]!.original_formatted_address ?? ''),
    text: (v, o) => cut(String(v), o),
    filter: { type: 'location', match_types: ['contains', 'not_contains', 'empty', 'not_empty'], operand: 'text' },
  },
};
