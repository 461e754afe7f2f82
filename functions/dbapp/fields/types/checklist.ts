import { fieldError, isId, isObject, show } from '../../../../shared/fields/engine';
import type { TapeRecord } from '../../wire';
import type { FieldPlan, TapeChecklistEntry, TapeEntry } from '../entry';
import { isDateTime } from './date';
import { userText, type Cx, type UserValue } from './common';
import { toUser } from './reference';

/**
 * checklist: items are sent as Tape's entries ({title, description, due_at, assignee, completed,
 * id}); on update the list replaces the field's entries (Tape deletes the ones left out), and an
 * item with `id` is completed from the current entry (mergeChecklists, before the write), so
 * `{id, completed: true}` ticks it off and keeps its title, due date and assignee.
 * Output [{id, title, completed, assignee {user_id, name} | null, description | null, due | null}]
 * (id added: items keep their id on update).
 */

export interface ChecklistItem { id: number; title: string; completed: boolean; assignee: UserValue | null; description: string | null; due: string | null }

const CHECKLIST_KEYS = ['title', 'completed', 'description', 'due', 'assignee', 'id'];
/** Keys agents reach for that the spec names differently. */
const CHECKLIST_RENAMES: Record<string, string> = { text: 'title', name: 'title', checked: 'completed', done: 'completed', due_at: 'due', due_date: 'due', assignee_id: 'assignee' };

function checklist(value: unknown, cx: Cx): TapeChecklistEntry[] {
  const { field, path, mode } = cx;
  if (!Array.isArray(value)) return cx.fail(`"${field.label}" takes an array of checklist items, got ${show(value)}.`);
  const withIds: number[] = [];
  const ids = new Set<number>();
  const out = value.map((item, i): TapeChecklistEntry => {
    const at = `${path}.${i}`;
    if (!isObject(item)) return cx.fail(`each item is an object with "title", got ${show(item)}${typeof item === 'string' ? ` — write {"title": ${show(item)}}` : ''}.`, at);
    for (const k of Object.keys(item)) {
      if (CHECKLIST_KEYS.includes(k)) continue;
      const right = CHECKLIST_RENAMES[k];
      cx.fail(right ? `use "${right}", not "${k}".` : `unknown key "${k}"; an item takes ${CHECKLIST_KEYS.join(', ')}.`, `${at}.${k}`);
    }
    const entry: TapeChecklistEntry = {};
    if (item.id !== undefined && item.id !== null) {
      if (mode === 'create') cx.fail('a new record has no checklist items yet: drop "id" (items without id are created).', `${at}.id`);
      if (!isId(item.id)) cx.fail(`"id" is the id of an existing item (a positive integer from getRecord), got ${show(item.id)}.`, `${at}.id`);
      if (ids.has(item.id as number)) cx.fail(`item ${String(item.id)} is listed twice.`, `${at}.id`);
      ids.add(item.id as number);
      entry.id = item.id as number;
      withIds.push(i);
    }
    if (item.title !== undefined || entry.id === undefined) {
      if (typeof item.title !== 'string' || item.title.trim() === '') {
        cx.fail(entry.id === undefined ? 'every new item needs "title", a non-empty string.' : '"title" must be a non-empty string.', `${at}.title`);
      }
      entry.title = (item.title as string).trim();
    }
    if (item.completed !== undefined) {
      if (typeof item.completed !== 'boolean') cx.fail(`"completed" is true or false, got ${show(item.completed)}.`, `${at}.completed`);
      entry.completed = item.completed as boolean;
    }
    if (item.description !== undefined && item.description !== null) {
      if (typeof item.description !== 'string') cx.fail(`"description" must be a string, got ${show(item.description)}.`, `${at}.description`);
      entry.description = item.description as string;
    } else if (item.description === null) entry.description = '';
    if (item.due !== undefined) {
      if (item.due === null || item.due === '') entry.due_at = null;
      else entry.due_at = checklistDue(item.due, `${at}.due`, cx);
    }
    if (item.assignee !== undefined) {
      const a = isObject(item.assignee) ? item.assignee.user_id : item.assignee;
      if (a !== null && !isId(a)) cx.fail(`"assignee" is a user id (from listOrganizationUsers), got ${show(item.assignee)}.`, `${at}.assignee`);
      entry.assignee = a as number | null;
    }
    return entry;
  });
  if (withIds.length) cx.plan.checklists.push({ fieldId: field.field_id, entries: out, paths: out.map((_, i) => `${path}.${i}`) });
  return out;
}

function checklistDue(raw: unknown, path: string, cx: Cx): string {
  if (typeof raw === 'string') {
    const t = raw.trim();
    if (/^\d{4}-\d{2}-\d{2}$/.test(t) && isDateTime(`${t} 00:00:00`)) return t;
    if (/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/.test(t) && isDateTime(`${t}:00`)) return t;
    const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}):\d{2}/.exec(t);
    if (m && isDateTime(`${m[1]} ${m[2]}:00`)) return cx.fail(`"due" takes minutes at most: write "${m[1]} ${m[2]}".`, path);
  }
  return cx.fail(`"due" must be "YYYY-MM-DD" or "YYYY-MM-DD HH:MM", got ${show(raw)}.`, path);
}

function checklistText(items: ChecklistItem[], o: { verbose?: boolean; list?: boolean }): string {
  return items
    .map((c) => {
      const extra = [c.due ? `due ${c.due}` : '', c.assignee ? userText(c.assignee, o) : '', c.description ? `"${c.description}"` : ''].filter(Boolean);
      const id = !o.list || o.verbose ? `#${c.id} ` : '';
      return `${c.completed ? '[x]' : '[ ]'} ${id}${c.title}${extra.length ? ` (${extra.join(', ')})` : ''}`;
    })
    .join('; ');
}

export const CHECKLIST_TYPES: Record<string, TapeEntry> = {
  checklist: {
    expected: () =>
      'an array of {"title", "completed"?, "description"?, "due"? ("YYYY-MM-DD" or "YYYY-MM-DD HH:MM"), "assignee"? (user id), "id"? (existing item)}, e.g. [{"title": "Send proposal", "due": "2025-03-01", "assignee": 10000}]',
    input: checklist,
    output: (values) =>
      values.map((v): ChecklistItem => ({
        id: v.id as number,
        title: String(v.title ?? ''),
        completed: v.completed === true,
        assignee: toUser(v.assignee),
        description: typeof v.description === 'string' && v.description !== '' ? v.description : null,
        due: typeof v.due_at === 'string' && v.due_at !== '' ? v.due_at : null,
      })),
    text: (v, o) => checklistText(v as ChecklistItem[], o),
    filter: { type: 'checklist', match_types: ['equal', 'not_equal', 'contains', 'not_contains', 'empty', 'not_empty', 'before', 'after', 'on_or_before', 'on_or_after', 'within'], operand: 'checklist' },
  },
};

/** The record's current checklist entries of a field, as Tape returns them. */
export function currentChecklist(record: TapeRecord, fieldId: number): Map<number, TapeChecklistEntry> {
  const f = record.fields?.find((x) => x.field_id === fieldId);
  const out = new Map<number, TapeChecklistEntry>();
  for (const v of f?.values ?? []) {
    const e = v as { id?: unknown; title?: unknown; description?: unknown; due_at?: unknown; completed?: unknown; assignee?: { user_id?: unknown } | null };
    if (!isId(e.id)) continue;
    out.set(e.id, {
      id: e.id,
      title: typeof e.title === 'string' ? e.title : '',
      description: typeof e.description === 'string' ? e.description : '',
      due_at: typeof e.due_at === 'string' ? e.due_at : null,
      completed: e.completed === true,
      assignee: isId(e.assignee?.user_id) ? (e.assignee!.user_id as number) : null,
    });
  }
  return out;
}

/**
 * Completes the checklist items that carry an `id` from the record's current entries (only the keys
 * given change); an id the record does not hold is INVALID_PARAMETER. Mutates the plan's body.
 */
export function mergeChecklists(plan: FieldPlan, record: TapeRecord): void {
  for (const c of plan.checklists) {
    const current = currentChecklist(record, c.fieldId);
    c.entries.forEach((entry, i) => {
      if (entry.id === undefined) return;
      const before = current.get(entry.id);
      if (!before) {
        const known = [...current.keys()];
        throw fieldError(
          `${c.paths[i]}.id`,
          'the id of an item now on the record, or no id for a new item',
          `item ${entry.id} is not on the checklist of record ${record.record_id}${known.length ? ` (its items: ${known.join(', ')})` : ' (it has no items)'}; drop "id" to add a new item.`,
        );
      }
      Object.assign(entry, { ...before, ...entry });
    });
  }
}
