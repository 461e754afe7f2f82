/**
 * Task writes (createTasks, updateTasks): every element checked and converted before anything is
 * written — dates and times (the key's timezone → UTC), responsible user ids, labels, files — then
 * the writes run as a batch (batch.ts). Order of cost: pure checks, then reads (the key's user, org
 * members, labels), then uploads of https file URLs, then labels named by new text are created.
 */
import { invalidParameter } from '../../../shared/core/errors';
import { eachChecked } from '../../../shared/core/validate';
import { checkUserIds, me } from '../conversations/users';
import type { Ctx } from '../params';
import { resolveFileIds } from '../files/uploads';
import type { PodioTaskWrite } from '../wire';
import { toLabel, type Label } from './render';
import { zonedToUtc } from './timezone';

/** Podio's colour for labels made from text (podio-rb TaskLabel::DEFAULT_COLOR_FOR_NEW_LABELS). */
export const NEW_LABEL_COLOR = 'E9E9E9';

/** A task element as the tools take it (create: text required; update: task_id and completed too). */
export interface TaskElement {
  task_id?: number;
  text?: string;
  description?: string;
  due_date?: string | null;
  due_time?: string;
  due_on?: string;
  responsible?: number;
  ref_type?: string;
  ref_id?: number;
  labels?: (number | string)[];
  file_ids?: (number | string)[];
  private?: boolean;
  external_id?: string;
  completed?: boolean;
}

/** `HH:MM` or `… HH:MM` → with `:SS`. */
const withSeconds = (t: string) => (/(^|\s)\d\d:\d\d$/.test(t) ? `${t}:00` : t);

/** The due part: a local date alone, or a local date and time converted to UTC in `tz`; null clears. */
function duePart(e: TaskElement, path: string, tz: string): Pick<PodioTaskWrite, 'due_on' | 'due_date'> {
  if (e.due_on !== undefined && (e.due_date !== undefined || e.due_time !== undefined)) {
    throw invalidParameter(`${path}.due_on`, 'due_on alone, or due_date with an optional due_time', `Parameter "${path}.due_on": give either due_on ("YYYY-MM-DD HH:MM") or due_date with due_time, not both.`);
  }
  if (e.due_time !== undefined && (e.due_date === undefined || e.due_date === null)) {
    throw invalidParameter(`${path}.due_time`, 'due_time together with due_date', `Parameter "${path}.due_time": a due time needs its date — add due_date "YYYY-MM-DD" (or give due_on "YYYY-MM-DD HH:MM").`);
  }
  if (e.due_date === null) return { due_date: null };
  const wall = e.due_on !== undefined ? withSeconds(e.due_on) : e.due_time !== undefined ? `${e.due_date} ${withSeconds(e.due_time)}` : undefined;
  if (wall === undefined) return e.due_date !== undefined ? { due_date: e.due_date } : {};
  const param = `${path}.${e.due_on !== undefined ? 'due_on' : 'due_time'}`;
  const utc = zonedToUtc(tz, wall);
  if (!utc.ok) {
    throw invalidParameter(param, `a time that exists in ${tz}`, `Parameter "${param}": ${wall.slice(0, 16)} does not exist in your timezone ${tz} — the clocks skip that hour for daylight saving time. Pick a time outside the gap (e.g. an hour later).`);
  }
  return { due_on: utc.utc };
}

/** The pure part of one element: shape rules and the due time in UTC; labels and files come later. */
function planElement(e: TaskElement, path: string, tz: string): PodioTaskWrite {
  if ((e.ref_type === undefined) !== (e.ref_id === undefined)) {
    const missing = e.ref_type === undefined ? 'ref_type' : 'ref_id';
    throw invalidParameter(`${path}.${missing}`, 'ref_type and ref_id together', `Parameter "${path}.${missing}" is missing: a task is attached with both ref_type (e.g. "item") and ref_id.`);
  }
  return {
    ...(e.text !== undefined ? { text: e.text } : {}),
    ...(e.description !== undefined ? { description: e.description } : {}),
    ...duePart(e, path, tz),
    ...(e.responsible !== undefined ? { responsible: e.responsible } : {}),
    ...(e.ref_type !== undefined ? { ref_type: e.ref_type, ref_id: e.ref_id } : {}),
    ...(e.private !== undefined ? { private: e.private } : {}),
    ...(e.external_id !== undefined ? { external_id: e.external_id } : {}),
    ...(e.completed !== undefined ? { completed: e.completed } : {}),
  };
}

/**
 * Labels by id or text → ids: ids must be the key's labels; texts match its labels case-insensitively;
 * a text no label has is kept aside to be created (once, however many elements name it).
 */
async function planLabels(ctx: Ctx, elements: readonly TaskElement[], param: string) {
  const named = elements.some((e) => e.labels?.length);
  const mine = named ? (await ctx.client.listLabels()).map(toLabel) : [];
  const fresh = new Map<string, string>();
  const refs = eachChecked(elements, (e, i) =>
    (e.labels ?? []).map((l, j): number | string => {
      if (typeof l === 'number') {
        if (!mine.some((x) => x.label_id === l)) {
          throw invalidParameter(`${param}.${i}.labels.${j}`, 'the id or text of one of your labels', `Parameter "${param}.${i}.labels.${j}": you have no label #${l} (getLabels lists yours; a text creates a new one).`);
        }
        return l;
      }
      const found = mine.find((x) => x.text.toLowerCase() === l.toLowerCase());
      if (found) return found.label_id;
      if (!fresh.has(l.toLowerCase())) fresh.set(l.toLowerCase(), l);
      return l.toLowerCase();
    }),
  );
  return { refs, fresh: [...fresh.values()] };
}

export interface PreparedTasks {
  bodies: PodioTaskWrite[];
  /** Labels created for texts no label had. */
  new_labels: Label[];
}

/** Checks and converts every element (`param` is `tasks`), then creates the labels new texts need. Nothing is written to a task yet. */
export async function prepareTasks(ctx: Ctx, elements: readonly TaskElement[], param = 'tasks'): Promise<PreparedTasks> {
  const { timezone } = await me(ctx);
  // Every invalid element is reported at once, each under its own index.
  const planned = eachChecked(elements, (e, i) => planElement(e, `${param}.${i}`, timezone));
  for (const [i, e] of elements.entries()) if (e.responsible !== undefined) await checkUserIds(ctx, [e.responsible], `${param}.${i}.responsible`, false);
  const labels = await planLabels(ctx, elements, param);
  const files: (number[] | undefined)[] = [];
  for (const [i, e] of elements.entries()) files.push(await resolveFileIds(e.file_ids, ctx, `${param}.${i}.file_ids`));
  const created = new Map<string, Label>();
  for (const text of labels.fresh) {
    const { label_id } = await ctx.client.createLabel({ text, color: NEW_LABEL_COLOR });
    created.set(text.toLowerCase(), { label_id, text, color: NEW_LABEL_COLOR });
  }
  const bodies = planned.map((body, i) => ({
    ...body,
    ...(elements[i]!.labels !== undefined ? { label_ids: labels.refs[i]!.map((r) => (typeof r === 'number' ? r : created.get(r)!.label_id)) } : {}),
    ...(files[i]?.length ? { file_ids: files[i] } : {}),
  }));
  return { bodies, new_labels: [...created.values()] };
}
