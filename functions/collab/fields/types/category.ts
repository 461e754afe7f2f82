import { isId, isObject } from '../../../../shared/fields/engine';
import { optionId, optionList, type Option } from '../../../../shared/fields/values';
import type { PodioAppField } from '../../wire';
import type { CollabEntry, FilterContext } from '../entry';
import { listOf, settingsOf } from './common';

/**
 * category: an option id, an array of ids, an option text or an array of texts (texts matched
 * case-insensitively; an unknown one lists the options with their ids). Several only when the
 * field's `settings.multiple` is true. Sent as an array of option ids; out as [{id, text}].
 */

/** The field's live options (deleted ones cannot be chosen). */
export function optionsOf(field: PodioAppField): Option[] {
  const opts = settingsOf(field).options;
  return Array.isArray(opts) ? (opts as (Option & { status?: string })[]).filter((o) => isId(o.id) && typeof o.text === 'string' && o.status !== 'deleted') : [];
}

const isMulti = (field: PodioAppField) => settingsOf(field).multiple === true;

export const CATEGORY_TYPES: Record<string, CollabEntry> = {
  category: {
    expected: (f) => {
      const opts = optionsOf(f);
      const ex = opts[0] ? `${opts[0].id} or "${opts[0].text}"` : '1';
      return `${isMulti(f) ? 'option ids or texts (one or an array)' : 'one option id or text'}, e.g. ${ex}; options: ${optionList(opts)}`;
    },
    input: (value, cx) => {
      const opts = optionsOf(cx.field);
      const ids = listOf(value, cx, isMulti(cx.field)).map(({ item, path }) => optionId(opts, item, cx.info.label, (problem) => cx.fail(problem, path), true));
      return [...new Set(ids)];
    },
    output: (values) =>
      values.map((v) => {
        const o = isObject(v.value) ? v.value : {};
        return { id: o.id as number, text: String(o.text ?? '') };
      }),
    text: (v, o) => (v as Option[]).map((c) => (o.verbose ? `${c.text} (${c.id})` : c.text)).join(', '),
    filter: {
      expected: (f) => {
        const opts = optionsOf(f);
        return `option ids or texts (one or an array), e.g. [${opts[0]?.id ?? 1}]; options: ${optionList(opts)}`;
      },
      input: (value, cx: FilterContext) => {
        const opts = optionsOf(cx.field);
        const list = Array.isArray(value) ? value : [value];
        if (list.length === 0) cx.fail(`pass at least one option; options: ${optionList(opts)}.`);
        return [...new Set(list.map((item, i) => optionId(opts, item, cx.field.label, (problem) => cx.fail(problem, Array.isArray(value) ? `${cx.path}.${i}` : cx.path), true)))];
      },
    },
  },
};
