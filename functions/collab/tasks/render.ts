/** Tasks and labels as the tools return them (docs/spec.md#collab-task), and their text. */
import { shortDate } from '../../../shared/core/render';
import { person } from '../render';
import type { PodioLabel, PodioTask } from '../wire';

export interface Label {
  label_id: number;
  text: string;
  color: string;
}

/**
 * Every field the specification lists is present: null (or false, [], for a flag or a list) when
 * the task has none, so a reader can tell "no due date" from "not returned".
 */
export interface Task {
  task_id: number;
  text: string;
  description: string | null;
  /** `active` or `completed`. */
  status: string;
  private: boolean;
  /** Whether someone has started work on it (Podio's start/stop of a task). */
  started: boolean;
  /** Local to the key's user (Podio shows due dates in the reader's timezone). */
  due_date: string | null;
  due_time: string | null;
  /** UTC. */
  due_on: string | null;
  /** `{user_id, name}`; a list entry carries the name alone, with responsible_id beside it. */
  responsible: { user_id: number; name: string } | string | null;
  responsible_id?: number | null;
  created_by: { user_id: number | null; name: string };
  created_on: string;
  completed_on: string | null;
  /** What it is attached to (single fetch). */
  ref?: { type: string; id: number; title?: string } | null;
  labels: Label[];
  files: { file_id: number; name: string }[];
  link: string | null;
  /** The reminder Podio sends: `remind_delta` minutes before the due time; null when none is set. */
  reminder: { remind_delta: number } | null;
  /** List entries: the group Podio puts it in (e.g. `due_this_week`), and the reference flattened. */
  group?: string | null;
  ref_type?: string | null;
  ref_id?: number | null;
  ref_title?: string | null;
  ref_app?: { app_id: number; name: string } | null;
  ref_link?: string | null;
}

export const toLabel = (l: PodioLabel): Label => ({ label_id: l.label_id, text: l.text, color: l.color });

/** A group as text: Podio's due-date keys as they are, a person or place by name. */
const groupName = (g: PodioTask['group']): string | undefined => (g === undefined || g === null ? undefined : typeof g === 'string' ? g : g.name);

/** Podio's task → docs/spec.md#collab-task; `list` gives the list form (responsible as a name, reference flattened). */
export function toTask(t: PodioTask, list: boolean): Task {
  const r = t.responsible ?? null;
  const resp = list ? { responsible: r ? r.name : null, responsible_id: r ? r.user_id : null } : { responsible: r ? { user_id: r.user_id, name: r.name } : null };
  const ref = t.ref ?? (t.ref_type && typeof t.ref_id === 'number' ? { type: t.ref_type, id: t.ref_id, title: t.ref_title ?? undefined } : null);
  const refPart = list
    ? {
        ref_type: ref ? ref.type : null,
        ref_id: ref ? ref.id : null,
        ref_title: t.ref_title ?? t.ref?.title ?? null,
        ref_app: t.ref_app ? { app_id: t.ref_app.app_id, name: t.ref_app.name } : null,
        ref_link: t.ref_link ?? t.ref?.link ?? null,
      }
    : { ref: ref ? { type: ref.type, id: ref.id, ...(ref.title ? { title: ref.title } : {}) } : null };
  return {
    task_id: t.task_id,
    text: t.text,
    description: t.description || null,
    status: t.status,
    private: t.private === true,
    started: t.started === true,
    due_date: t.due_date || null,
    due_time: t.due_time || null,
    due_on: t.due_on || null,
    ...resp,
    created_by: person(t.created_by),
    created_on: t.created_on,
    completed_on: t.completed_on || null,
    ...refPart,
    labels: (t.labels ?? []).map(toLabel),
    files: (t.files ?? []).map((f) => ({ file_id: f.file_id, name: f.name })),
    link: t.link || null,
    reminder: typeof t.reminder?.remind_delta === 'number' ? { remind_delta: t.reminder.remind_delta } : null,
    ...(list ? { group: groupName(t.group) ?? null } : {}),
  };
}

/** `2026-01-16 10:00` or `2026-01-20`: the due moment in the user's time. */
const dueText = (t: Task): string | undefined => (t.due_date ? `${t.due_date}${t.due_time ? ` ${t.due_time.slice(0, 5)}` : ''}` : t.due_on ? `${shortDate(t.due_on)} UTC` : undefined);

/** `#40001 Send the contract — due 2025-12-01 15:00 · Ann Becker · item #30061 "Pilot — …" · [Urgent] · done 2025-12-19 16:00` */
export function taskLine(t: Task): string {
  const parts = [`#${t.task_id} ${t.text}`];
  const due = dueText(t);
  if (due) parts.push(`due ${due}`);
  const who = typeof t.responsible === 'string' ? t.responsible : t.responsible?.name;
  if (who) parts.push(who);
  const refType = t.ref?.type ?? t.ref_type;
  const refId = t.ref?.id ?? t.ref_id;
  const refTitle = t.ref?.title ?? t.ref_title;
  if (refType && refId) parts.push(`${refType} #${refId}${refTitle ? ` "${refTitle}"` : ''}${t.ref_app ? ` (${t.ref_app.name})` : ''}`);
  if (t.labels.length) parts.push(`[${t.labels.map((l) => l.text).join(', ')}]`);
  if (t.private) parts.push('private');
  if (t.status === 'completed') parts.push(`done${t.completed_on ? ` ${shortDate(t.completed_on)}` : ''}`);
  return parts.join(' — ');
}

/** A single task: its line, the description, the link. */
export const taskText = (t: Task): string => [taskLine(t), ...(t.description ? [t.description] : []), ...(t.files?.length ? [`files: ${t.files.map((f) => `${f.name} #${f.file_id}`).join(', ')}`] : []), ...(t.link ? [t.link] : [])].join('\n');

/** Podio's due-date groups, in its order, as headings. */
export const DUE_GROUP_TITLES: Record<string, string> = {
  overdue: 'Overdue',
  due_today: 'Today',
  due_tomorrow: 'Tomorrow',
  due_this_week: 'This week',
  due_later: 'Later',
  no_due_date: 'No due date',
  completed: 'Done',
};

/** Tasks under their group headings, in the order Podio sent them (it sorts groups first). */
export function groupedLines(tasks: readonly Task[]): string[] {
  const lines: string[] = [];
  let current: string | undefined;
  for (const t of tasks) {
    const group = t.group ?? undefined;
    if (group !== undefined && group !== current) {
      current = group;
      lines.push(`${DUE_GROUP_TITLES[group] ?? group}:`);
    }
    lines.push(`${group !== undefined ? '  ' : ''}${taskLine(t)}`);
  }
  return lines;
}

/** `#45001 Urgent (D2E4EB)` */
export const labelLine = (l: Label): string => `#${l.label_id} ${l.text} (${l.color})`;
