/** Tasks and labels as the tools return them (docs/spec.md#collab-task), and their text. */
import { shortDate } from '../../../shared/render';
import { person } from '../render';
import type { PodioLabel, PodioTask } from '../wire';

export interface Label {
  label_id: number;
  text: string;
  color: string;
}

export interface Task {
  task_id: number;
  text: string;
  description?: string;
  /** `active` or `completed`. */
  status: string;
  private: boolean;
  /** Local to the key's user (Podio shows due dates in the reader's timezone). */
  due_date?: string;
  due_time?: string;
  /** UTC. */
  due_on?: string;
  /** `{user_id, name}`; a list entry carries the name alone, with responsible_id beside it. */
  responsible?: { user_id: number; name: string } | string;
  responsible_id?: number;
  created_by: { user_id: number | null; name: string };
  created_on: string;
  completed_on?: string;
  /** What it is attached to (single fetch). */
  ref?: { type: string; id: number; title?: string };
  labels: Label[];
  files?: { file_id: number; name: string }[];
  link?: string;
  /** List entries: the group Podio puts it in (e.g. `due_this_week`), and the reference flattened. */
  group?: string;
  ref_type?: string;
  ref_id?: number;
  ref_title?: string;
  ref_app?: { app_id: number; name: string };
  ref_link?: string;
}

export const toLabel = (l: PodioLabel): Label => ({ label_id: l.label_id, text: l.text, color: l.color });

/** A group as text: Podio's due-date keys as they are, a person or place by name. */
const groupName = (g: PodioTask['group']): string | undefined => (g === undefined || g === null ? undefined : typeof g === 'string' ? g : g.name);

/** Podio's task → docs/spec.md#collab-task; `list` gives the list form (responsible as a name, reference flattened). */
export function toTask(t: PodioTask, list: boolean): Task {
  const due = {
    ...(t.due_date ? { due_date: t.due_date } : {}),
    ...(t.due_time ? { due_time: t.due_time } : {}),
    ...(t.due_on ? { due_on: t.due_on } : {}),
  };
  const resp = t.responsible ? (list ? { responsible: t.responsible.name, responsible_id: t.responsible.user_id } : { responsible: { user_id: t.responsible.user_id, name: t.responsible.name } }) : {};
  const ref = t.ref ?? (t.ref_type && typeof t.ref_id === 'number' ? { type: t.ref_type, id: t.ref_id, title: t.ref_title ?? undefined } : null);
  const refPart = list
    ? {
        ...(ref ? { ref_type: ref.type, ref_id: ref.id } : {}),
        ...((t.ref_title ?? t.ref?.title) ? { ref_title: (t.ref_title ?? t.ref?.title)! } : {}),
        ...(t.ref_app ? { ref_app: { app_id: t.ref_app.app_id, name: t.ref_app.name } } : {}),
        ...((t.ref_link ?? t.ref?.link) ? { ref_link: (t.ref_link ?? t.ref?.link)! } : {}),
      }
    : ref
      ? { ref: { type: ref.type, id: ref.id, ...(ref.title ? { title: ref.title } : {}) } }
      : {};
  const group = groupName(t.group);
  return {
    task_id: t.task_id,
    text: t.text,
    ...(t.description ? { description: t.description } : {}),
    status: t.status,
    private: t.private === true,
    ...due,
    ...resp,
    created_by: person(t.created_by),
    created_on: t.created_on,
    ...(t.completed_on ? { completed_on: t.completed_on } : {}),
    ...refPart,
    labels: (t.labels ?? []).map(toLabel),
    ...(t.files?.length ? { files: t.files.map((f) => ({ file_id: f.file_id, name: f.name })) } : {}),
    ...(t.link ? { link: t.link } : {}),
    ...(group !== undefined ? { group } : {}),
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
    if (t.group !== undefined && t.group !== current) {
      current = t.group;
      lines.push(`${DUE_GROUP_TITLES[t.group] ?? t.group}:`);
    }
    lines.push(`${t.group !== undefined ? '  ' : ''}${taskLine(t)}`);
  }
  return lines;
}

/** `#45001 Urgent (D2E4EB)` */
export const labelLine = (l: Label): string => `#${l.label_id} ${l.text} (${l.color})`;
