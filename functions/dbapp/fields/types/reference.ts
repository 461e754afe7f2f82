import { isId, isObject, show } from '../../../../shared/fields/engine';
import type { TapeEntry, TapeFilter } from '../entry';
import { MULTI_REF_OPS, SINGLE_REF_OPS } from './category';
import { elementPath, listOf, shaped, userText, type UserValue } from './common';

/**
 * Relations (record ids → [{record_id, app_id, title}]) and users (user ids → [{user_id, name}]),
 * with the read-only created_by / last_modified_by.
 */

const ids = (what: string): TapeEntry['input'] => (value, cx) => {
  const list = listOf(value, cx).map((item, i) => {
    if (!isId(item)) cx.fail(`each entry must be a ${what} (a positive integer), got ${show(item)}.`, elementPath(cx, value, i));
    return item;
  });
  return shaped(cx.field, [...new Set(list)]);
};

export const toUser = (u: unknown): UserValue | null => (isObject(u) && typeof u.user_id === 'number' ? { user_id: u.user_id, name: typeof u.name === 'string' ? u.name : '' } : null);

function relation(single: boolean): TapeEntry {
  return {
    expected: () => `an array of record ids${single ? ' (at most one)' : ''}, e.g. [5001]`,
    input: ids('record id'),
    output: (values) =>
      values.map((v) => {
        const r = isObject(v.value) ? v.value : {};
        return { record_id: r.record_id as number, app_id: r.app_id as number, title: String(r.title ?? '') };
      }),
    text: (v) => (v as { record_id: number; title: string }[]).map((r) => `${r.title} #${r.record_id}`).join(', '),
    filter: { type: 'app', match_types: single ? SINGLE_REF_OPS : MULTI_REF_OPS, operand: 'record_ids' },
  };
}

const userOutput: TapeEntry['output'] = (values) => values.map((v) => toUser(v.value)).filter((u): u is UserValue => u !== null);
const userTexts: TapeEntry['text'] = (v, o) => (v as UserValue[]).map((u) => userText(u, o)).join(', ');
const userFilter = (ops: readonly string[]): TapeFilter => ({ type: 'contact', match_types: ops, operand: 'user_ids', user: true });

function user(single: boolean): TapeEntry {
  return {
    expected: () => `an array of user ids${single ? ' (at most one)' : ''} (from listOrganizationUsers), e.g. [10000]`,
    input: ids('user id'),
    output: userOutput,
    text: userTexts,
    filter: userFilter(single ? SINGLE_REF_OPS : MULTI_REF_OPS),
  };
}

/** A user Tape records itself. */
const recordUser: TapeEntry = { expected: (f) => `no value: Tape computes ${f.field_type} fields`, output: userOutput, text: userTexts, filter: userFilter(SINGLE_REF_OPS) };

export const REFERENCE_TYPES: Record<string, TapeEntry> = {
  single_relation: relation(true),
  multi_relation: relation(false),
  single_user: user(true),
  multi_user: user(false),
  created_by: recordUser,
  last_modified_by: recordUser,
};
