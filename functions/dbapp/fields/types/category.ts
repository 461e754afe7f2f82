import { isId, isObject } from '../../../../shared/fields/engine';
import { optionId, optionList, type Option } from '../../../../shared/fields/values';
import type { TapeAppField } from '../../wire';
import type { TapeEntry } from '../entry';
import { elementPath, listOf, shaped, type Cx } from './common';

/** single_category, multi_category, status: options given by id or text (case-insensitive), output [{id, text}]. */

// Per field object of a schema, so a batch filters a field's options once, not once per record.
const OPTIONS = new WeakMap<TapeAppField, readonly Option[]>();

/** The field's options (settings.options) with a numeric id and a text. */
export function optionsOf(field: TapeAppField): readonly Option[] {
  let opts = OPTIONS.get(field);
  if (!opts) {
    const all = field.config.settings?.options;
    opts = Array.isArray(all) ? (all as Option[]).filter((o) => isId(o.id) && typeof o.text === 'string') : [];
    OPTIONS.set(field, opts);
  }
  return opts;
}

const SINGLE_REF_OPS = ['equal', 'not_equal', 'any', 'none', 'empty', 'not_empty'];
const MULTI_REF_OPS = ['equal', 'contains', 'any', 'none', 'empty', 'not_empty'];
export { SINGLE_REF_OPS, MULTI_REF_OPS };

function category(filter: { type: string; match_types: readonly string[] }): TapeEntry {
  return {
    expected: (field) => {
      const opts = optionsOf(field);
      const ex = opts[0] ? `[${opts[0].id}] or ["${opts[0].text}"]` : '[1]';
      const one = field.field_type === 'multi_category' ? '' : ' (at most one)';
      return `an array of option ids or option texts${one}, e.g. ${ex}; options: ${optionList(opts)}`;
    },
    input: (value, cx) => {
      const opts = optionsOf(cx.field);
      const ids = listOf(value, cx).map((item, i) => optionId(opts, item, cx.field.label, (problem) => cx.fail(problem, elementPath(cx, value, i))));
      return shaped(cx.field, [...new Set(ids)]);
    },
    output: (values) =>
      values.map((v) => {
        const o = isObject(v.value) ? v.value : {};
        return { id: o.id as number, text: String(o.text ?? '') };
      }),
    text: (v, o) => (v as Option[]).map((c) => (o.verbose ? `${c.text} (${c.id})` : c.text)).join(', '),
    filter: { ...filter, operand: 'options' },
  };
}

export const CATEGORY_TYPES: Record<string, TapeEntry> = {
  single_category: category({ type: 'category', match_types: SINGLE_REF_OPS }),
  multi_category: category({ type: 'category', match_types: MULTI_REF_OPS }),
  status: category({ type: 'status', match_types: [...SINGLE_REF_OPS, 'completed', 'incomplete'] }),
};
