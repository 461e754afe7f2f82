import { isObject, show, type InputContext, type TextOptions } from '../../../../shared/fields/engine';
import type { PodioAppField } from '../../wire';
import type { CollabExtras, FilterContext } from '../entry';

/** Helpers the Podio type families share. */

export type Cx = InputContext<PodioAppField, CollabExtras>;

/** The field's `config.settings` (never null). */
export const settingsOf = (field: PodioAppField): Record<string, unknown> => field.config.settings ?? {};

/** Whether a field holds several values: `settings.multiple` (category, app relation); others say so in their entry. */
export const isMultiple = (field: PodioAppField): boolean => settingsOf(field).multiple === true;

/**
 * A value that may be one or many: arrays as they are, a bare value as a one-element list; more than
 * one where the field holds one is refused.
 */
export function listOf(value: unknown, cx: Cx, multiple: boolean): { item: unknown; path: string }[] {
  const list = Array.isArray(value) ? value : [value];
  if (!multiple && list.length > 1) cx.fail(`"${cx.info.label}" holds one value (its settings do not allow multiple), got ${list.length}.`);
  return list.map((item, i) => ({ item, path: Array.isArray(value) ? `${cx.path}.${i}` : cx.path }));
}

/** List lines cut long texts (a single item shows them whole). */
const LIST_TEXT_MAX = 300;
export const cut = (s: string, o: TextOptions) => (o.list && !o.verbose && s.length > LIST_TEXT_MAX ? `${s.slice(0, LIST_TEXT_MAX)}… (${s.length.toLocaleString('en-US')} chars)` : s);

/** A decimal string as money shows it: at least two decimals, no trailing zeros beyond them ("10.5000" → "10.50"). */
export function decimal(raw: unknown): string {
  const s = String(raw ?? '').trim();
  const m = /^(-?\d+)(?:\.(\d*))?$/.exec(s);
  if (!m) return s;
  const frac = (m[2] ?? '').replace(/0+$/, '');
  return `${m[1]}.${frac.padEnd(2, '0')}`;
}

/** A {from, to} filter: known keys, at least one bound, each checked by `bound`, from ≤ to. */
export function range<T extends number | string>(value: unknown, cx: FilterContext, bound: (v: unknown, at: string) => T): { from?: T; to?: T } {
  if (!isObject(value)) return cx.fail(`a ${cx.field.type} filter is a range {"from", "to"}, got ${show(value)}.`);
  const extra = Object.keys(value).filter((k) => k !== 'from' && k !== 'to');
  if (extra.length) cx.fail(`unknown key "${extra[0]}"; a range is {"from", "to"}.`, `${cx.path}.${extra[0]}`);
  const out: { from?: T; to?: T } = {};
  for (const k of ['from', 'to'] as const) if (value[k] !== undefined && value[k] !== null) out[k] = bound(value[k], `${cx.path}.${k}`);
  if (out.from === undefined && out.to === undefined) cx.fail('the range needs "from", "to" or both.');
  if (out.from !== undefined && out.to !== undefined && out.from > out.to) cx.fail(`"from" (${out.from}) lies after "to" (${out.to}).`, `${cx.path}.to`);
  return out;
}

