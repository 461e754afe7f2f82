import type { InputContext, TextOptions } from '../../../../shared/fields/engine';
import type { TapeAppField } from '../../wire';
import type { TapeExtras } from '../entry';

/** Helpers the Tape type families share. */

export type Cx = InputContext<TapeAppField, TapeExtras>;

/** Types holding one value: they take a one-element array or the bare value and send the bare value. */
export const SINGLE: ReadonlySet<string> = new Set(['single_category', 'status', 'single_relation', 'single_user', 'single_attachment']);

/** A list value: arrays as they are, a bare value as a one-element list (Tape takes both). */
export function listOf(value: unknown, cx: Cx): unknown[] {
  const list = Array.isArray(value) ? value : [value];
  if (SINGLE.has(cx.field.field_type) && list.length > 1) {
    cx.fail(`"${cx.field.label}" is a ${cx.field.field_type} field and holds one value, got ${list.length}.`);
  }
  return list;
}

/** Sent bare for single fields, as an array for multi fields. */
export const shaped = (field: TapeAppField, list: unknown[]) => (SINGLE.has(field.field_type) ? list[0] : list);

/** The path of one element: `fields.tags.1` when an array was given, the field's path for a bare value. */
export const elementPath = (cx: Cx, value: unknown, i: number) => `${cx.path}${Array.isArray(value) ? `.${i}` : ''}`;

/** List lines cut texts longer than this (getRecord shows them whole). */
const LIST_TEXT_MAX = 500;

export const cut = (s: string, o: TextOptions) => (o.list && !o.verbose && s.length > LIST_TEXT_MAX ? `${s.slice(0, LIST_TEXT_MAX)}… (${s.length.toLocaleString('en-US')} chars, getRecord shows all)` : s);

export interface UserValue { user_id: number; name: string }

export const userText = (u: UserValue, o: TextOptions) => (o.verbose ? `${u.name} #${u.user_id}` : u.name);
