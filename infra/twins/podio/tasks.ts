import { attachFile, checkedFileIds } from './files';
import { forbidden, invalid, notFound } from './http';
import { canSeeSpace, itemFor } from './items';
import { byLine, CREATED_VIA, podioDateTime, type PodioLabelRow, type PodioState, type PodioTaskRow, type PodioUser, type TaskDue } from './state';
import { appMini, fileOut, itemLink, titleOf } from './values';

/**
 * Tasks and their labels (docs/vendors/podio.md#tasks). A task is due on a date alone (a calendar date, the same
 * for everyone) or at an instant (kept in UTC; `due_date`/`due_time` are shown in the reading user's
 * timezone, `due_on` in UTC, as Podio does). Visibility as Podio documents it: the creator and the
 * responsible always; others only when the task is public and on an item of a space they belong to.
 * Labels are personal (each user has their own); a label given as text that the user does not have
 * is created with Podio's default colour for new labels.
 */

/** Podio's colour for labels made from text (podio-rb TaskLabel::DEFAULT_COLOR_FOR_NEW_LABELS). */
export const NEW_LABEL_COLOR = 'E9E9E9';
const COLOR = /^[0-9a-fA-F]{6}$/;
const DATE = /^\d{4}-\d\d-\d\d$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/;
const DATE_TIME = /^\d{4}-\d\d-\d\d [0-2]\d:[0-5]\d:[0-5]\d$/;
const DAY = 86_400_000;

type Json = Record<string, unknown>;

// --- time in a user's timezone ---

const formats = new Map<string, Intl.DateTimeFormat>();
function formatIn(tz: string): Intl.DateTimeFormat {
  let f = formats.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    formats.set(tz, f);
  }
  return f;
}

/** The wall clock of `tz` at an instant: `YYYY-MM-DD HH:MM:SS`. */
export function wallClock(tz: string, ms: number): string {
  const p = Object.fromEntries(formatIn(tz).formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
}

const asUtc = (wall: string) => Date.parse(`${wall.replace(' ', 'T')}Z`);

/** A wall time of `tz` → the instant (two correction steps settle every offset; a time in a DST gap moves forward). */
export function zonedToUtc(tz: string, wall: string): number {
  const target = asUtc(wall);
  let t = target;
  for (let i = 0; i < 2; i++) t -= asUtc(wallClock(tz, t)) - target;
  return t;
}

const validDate = (d: string) => DATE.test(d) && Number.isFinite(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().slice(0, 10) === d;

// --- access and output ---

/** The space a task lies in: its item's. */
function spaceOf(state: PodioState, t: PodioTaskRow): number | null {
  if (!t.ref) return null;
  const item = state.items.get(t.ref.id);
  return item ? state.apps.get(item.app_id)!.space_id : null;
}

export function canSeeTask(state: PodioState, user: PodioUser, t: PodioTaskRow): boolean {
  if (t.created_by === user.user_id || t.responsible === user.user_id) return true;
  if (t.private) return false;
  const space = spaceOf(state, t);
  return space !== null && canSeeSpace(user, space);
}

/** The task, if it exists (404) and the user may see it (403). */
export function taskFor(state: PodioState, user: PodioUser, taskId: number): PodioTaskRow {
  const t = state.tasks.rows.get(taskId);
  if (!t) throw notFound();
  if (!canSeeTask(state, user, t)) throw forbidden(`The user ${user.user_id} does not have the right "view" on task ${taskId}`);
  return t;
}

/** The due parts as the reading user sees them: due_on in UTC, due_date/due_time in their timezone. */
export function dueOut(t: PodioTaskRow, viewer: PodioUser) {
  if (!t.due) return { due_on: null, due_date: null, due_time: null };
  if ('date' in t.due) return { due_on: null, due_date: t.due.date, due_time: null };
  const local = wallClock(viewer.timezone, t.due.utc);
  return { due_on: podioDateTime(t.due.utc), due_date: local.slice(0, 10), due_time: local.slice(11) };
}

function refOut(state: PodioState, t: PodioTaskRow) {
  const item = t.ref ? state.items.get(t.ref.id) : undefined;
  if (!t.ref || !item) return null;
  return { type: t.ref.type, id: t.ref.id, title: titleOf(state, item), link: itemLink(state, item), data: { app: appMini(state.apps.get(item.app_id)!) } };
}

const labelOut = (l: PodioLabelRow) => ({ label_id: l.label_id, text: l.text, color: l.color });

const userMini = (state: PodioState, id: number | null) => {
  const u = id === null ? undefined : state.users.get(id);
  return u ? { user_id: u.user_id, profile_id: u.profile_id, name: u.name, type: 'user', avatar: null, link: `https://podio.com/users/${u.user_id}` } : null;
};

const taskLink = (id: number) => `https://podio.com/tasks/${id}`;

/** `GET /task/{id}` and `view=full` list entries (docs/vendors/podio.md#tasks NET Task.cs). */
export function taskOut(state: PodioState, t: PodioTaskRow, viewer: PodioUser, base: string): Json {
  return {
    task_id: t.task_id,
    status: t.status,
    text: t.text,
    description: t.description,
    private: t.private,
    ...dueOut(t, viewer),
    created_on: t.created_on,
    created_by: byLine(state.users.get(t.created_by)),
    created_via: CREATED_VIA,
    completed_on: t.completed_on,
    completed_by: t.completed_by === null ? null : byLine(state.users.get(t.completed_by)),
    responsible: userMini(state, t.responsible),
    ref: refOut(state, t),
    labels: t.label_ids.map((id) => state.tasks.labels.get(id)).filter((l) => l !== undefined).map(labelOut),
    files: t.file_ids.map((id) => fileOut(state, id, base)).filter((f) => f !== null),
    link: taskLink(t.task_id),
    space_id: spaceOf(state, t),
    external_id: t.external_id,
    is_liked: false,
    like_count: 0,
    rights: ['view', 'update', 'delete', 'comment', 'assign'],
  };
}

/** A list entry (the default short view): the reference flattened, the responsible by name. */
export function taskListOut(state: PodioState, t: PodioTaskRow, viewer: PodioUser): Json {
  const ref = refOut(state, t);
  const responsible = userMini(state, t.responsible);
  return {
    task_id: t.task_id,
    status: t.status,
    text: t.text,
    private: t.private,
    ...dueOut(t, viewer),
    created_on: t.created_on,
    created_by: byLine(state.users.get(t.created_by)),
    completed_on: t.completed_on,
    responsible: responsible ? { user_id: responsible.user_id, name: responsible.name } : null,
    labels: t.label_ids.map((id) => state.tasks.labels.get(id)).filter((l) => l !== undefined).map(labelOut),
    ref_type: ref?.type ?? null,
    ref_id: ref?.id ?? null,
    ref_title: ref?.title ?? null,
    ref_app: ref ? ref.data.app : null,
    ref_link: ref?.link ?? null,
    link: taskLink(t.task_id),
    space_id: spaceOf(state, t),
    file_count: t.file_ids.length,
  };
}

// --- input ---

/** A user id (or `{type:'user', id}`, `{type:'profile', id}`) → a user of the org; 400 otherwise. */
function responsibleOf(state: PodioState, raw: unknown): number | null {
  if (raw === null) return null;
  let user: PodioUser | undefined;
  if (typeof raw === 'number' && Number.isInteger(raw)) user = state.users.get(raw);
  else if (typeof raw === 'object' && raw !== null && Number.isInteger((raw as Json).id)) {
    const { type, id } = raw as { type?: unknown; id: number };
    if (type === 'user') user = state.users.get(id);
    else if (type === 'profile') user = [...state.users.values()].find((u) => u.profile_id === id);
    else throw invalid(`"responsible" type must be user or profile, got ${JSON.stringify(type)}.`);
  } else throw invalid(`"responsible" must be a user id or {type, id}, got ${JSON.stringify(raw)}.`);
  if (!user) throw invalid(`"responsible": no user ${JSON.stringify(raw)} in the organization.`);
  return user.user_id;
}

/** Labels by id (the user's own) or by text (found case-insensitively, else created). */
function labelIdsOf(state: PodioState, user: PodioUser, raw: unknown, key: string): number[] {
  if (!Array.isArray(raw)) throw invalid(`"${key}" must be a list of label ids or texts.`);
  const out: number[] = [];
  for (const v of raw) {
    if (typeof v === 'number' && Number.isInteger(v)) {
      const l = state.tasks.labels.get(v);
      if (!l || l.user_id !== user.user_id) throw notFound();
      out.push(v);
    } else if (typeof v === 'string' && v.trim() !== '' && key === 'labels') {
      const text = v.trim();
      const found = [...state.tasks.labels.values()].find((l) => l.user_id === user.user_id && l.text.toLowerCase() === text.toLowerCase());
      out.push(found ? found.label_id : createLabel(state, user, { text, color: NEW_LABEL_COLOR }).label_id);
    } else throw invalid(`"${key}" must be a list of label ids${key === 'labels' ? ' or texts' : ''}, got ${JSON.stringify(v)}.`);
  }
  return [...new Set(out)];
}

/** `due_on` (UTC) or `due_date` + optional `due_time` (the user's local time); null clears. */
function dueOf(body: Json, user: PodioUser): TaskDue | null | undefined {
  if (body.due_on !== undefined) {
    if (body.due_on === null) return null;
    if (typeof body.due_on !== 'string' || !DATE_TIME.test(body.due_on) || !validDate(body.due_on.slice(0, 10))) throw invalid(`"due_on" must be "YYYY-MM-DD HH:MM:SS" in UTC, got ${JSON.stringify(body.due_on)}.`);
    return { utc: asUtc(body.due_on) };
  }
  if (body.due_date === undefined) {
    if (body.due_time !== undefined && body.due_time !== null) throw invalid('"due_time" needs "due_date".');
    return undefined;
  }
  if (body.due_date === null) return null;
  if (typeof body.due_date !== 'string' || !validDate(body.due_date)) throw invalid(`"due_date" must be "YYYY-MM-DD", got ${JSON.stringify(body.due_date)}.`);
  if (body.due_time === undefined || body.due_time === null) return { date: body.due_date };
  if (typeof body.due_time !== 'string' || !TIME.test(body.due_time)) throw invalid(`"due_time" must be "HH:MM" or "HH:MM:SS", got ${JSON.stringify(body.due_time)}.`);
  const time = body.due_time.length === 5 ? `${body.due_time}:00` : body.due_time;
  return { utc: zonedToUtc(user.timezone, `${body.due_date} ${time}`) };
}

function refOf(state: PodioState, user: PodioUser, refType: unknown, refId: unknown): PodioTaskRow['ref'] {
  if (refType === null && (refId === null || refId === undefined)) return null;
  if (refType !== 'item') throw invalid(`"ref_type" must be "item" (the object the task is on), got ${JSON.stringify(refType)}.`);
  if (!(Number.isInteger(refId) && (refId as number) > 0)) throw invalid(`"ref_id" must be an item id, got ${JSON.stringify(refId)}.`);
  itemFor(state, user, refId as number);
  return { type: 'item', id: refId as number };
}

const optionalString = (body: Json, key: string): string | null | undefined => {
  const v = body[key];
  if (v === undefined || v === null) return v as null | undefined;
  if (typeof v !== 'string') throw invalid(`"${key}" must be a string.`);
  return v;
};

export interface TaskChanges {
  text?: string;
  description?: string | null;
  private?: boolean;
  due?: TaskDue | null;
  responsible?: number | null;
  ref?: PodioTaskRow['ref'];
  label_ids?: number[];
  file_ids?: number[];
  completed?: boolean;
  external_id?: string | null;
}

/** A create or update body, checked whole before anything changes (labels given as text are created here). */
export function taskChanges(state: PodioState, user: PodioUser, body: Json, taskId: number | null): TaskChanges {
  const out: TaskChanges = {};
  if (body.text !== undefined) {
    if (typeof body.text !== 'string' || body.text.trim() === '') throw invalid('"text" (the title of the task) must be a non-empty string.');
    out.text = body.text.trim();
  } else if (taskId === null) throw invalid('"text" (the title of the task) is required.');
  const description = optionalString(body, 'description');
  if (description !== undefined) out.description = description;
  const externalId = optionalString(body, 'external_id');
  if (externalId !== undefined) out.external_id = externalId;
  if (body.private !== undefined) {
    if (typeof body.private !== 'boolean') throw invalid('"private" must be true or false.');
    out.private = body.private;
  }
  if (body.completed !== undefined) {
    if (typeof body.completed !== 'boolean') throw invalid('"completed" must be true or false.');
    out.completed = body.completed;
  }
  const due = dueOf(body, user);
  if (due !== undefined) out.due = due;
  if (body.responsible !== undefined) out.responsible = responsibleOf(state, body.responsible);
  if (body.ref_type !== undefined || body.ref_id !== undefined) out.ref = refOf(state, user, body.ref_type, body.ref_id);
  const files = checkedFileIds(state, body.file_ids, { type: 'task', id: taskId });
  if (files) out.file_ids = files;
  // Last: labels named by text are created, so everything else is checked first.
  if (body.label_ids !== undefined || body.labels !== undefined) {
    const byId = body.label_ids !== undefined ? labelIdsOf(state, user, body.label_ids, 'label_ids') : [];
    const byText = body.labels !== undefined ? labelIdsOf(state, user, body.labels, 'labels') : [];
    out.label_ids = [...new Set([...byId, ...byText])];
  }
  return out;
}

/** Applies checked changes; completion stamps who and when. */
export function applyTask(state: PodioState, t: PodioTaskRow, c: TaskChanges, user: PodioUser, now: number): void {
  if (c.text !== undefined) t.text = c.text;
  if (c.description !== undefined) t.description = c.description;
  if (c.private !== undefined) t.private = c.private;
  if (c.due !== undefined) t.due = c.due;
  if (c.responsible !== undefined) t.responsible = c.responsible;
  if (c.ref !== undefined) t.ref = c.ref;
  if (c.label_ids !== undefined) t.label_ids = c.label_ids;
  if (c.external_id !== undefined) t.external_id = c.external_id;
  if (c.file_ids) {
    for (const id of c.file_ids) {
      attachFile(state, id, { type: 'task', id: t.task_id });
      if (!t.file_ids.includes(id)) t.file_ids.push(id);
    }
  }
  if (c.completed !== undefined) setCompleted(t, c.completed, user, now);
}

export function setCompleted(t: PodioTaskRow, completed: boolean, user: PodioUser, now: number): void {
  if (completed && t.status !== 'completed') Object.assign(t, { status: 'completed', completed_on: podioDateTime(now), completed_by: user.user_id });
  if (!completed) Object.assign(t, { status: 'active', completed_on: null, completed_by: null });
}

/** A new task from checked changes; one per responsible when a list is given (the route splits it). */
export function createTask(state: PodioState, user: PodioUser, c: TaskChanges, now: number): PodioTaskRow {
  const task_id = state.tasks.next.task++;
  const t: PodioTaskRow = {
    task_id,
    text: c.text!,
    description: c.description ?? null,
    private: c.private ?? false,
    created_by: user.user_id,
    created_on: podioDateTime(now),
    // Podio: a task nobody is named for is the creator's own.
    responsible: c.responsible === undefined ? user.user_id : c.responsible,
    due: c.due ?? null,
    ref: c.ref ?? null,
    label_ids: c.label_ids ?? [],
    file_ids: [],
    status: 'active',
    completed_on: null,
    completed_by: null,
    external_id: c.external_id ?? null,
    rank: task_id,
  };
  state.tasks.rows.set(task_id, t);
  applyTask(state, t, { file_ids: c.file_ids, completed: c.completed }, user, now);
  return t;
}

export function deleteTask(state: PodioState, t: PodioTaskRow): void {
  state.tasks.rows.delete(t.task_id);
  for (const id of t.file_ids) state.files.delete(id);
  for (const [id, c] of state.comments) if (c.ref.type === 'task' && c.ref.id === t.task_id) state.comments.delete(id);
}

// --- labels ---

export function labelInput(body: Json, partial: boolean): { text?: string; color?: string } {
  const out: { text?: string; color?: string } = {};
  if (body.text !== undefined || !partial) {
    if (typeof body.text !== 'string' || body.text.trim() === '') throw invalid('"text" (the name of the label) must be a non-empty string.');
    out.text = body.text.trim();
  }
  if (body.color !== undefined || !partial) {
    if (typeof body.color !== 'string' || !COLOR.test(body.color)) throw invalid(`"color" must be 6 hex digits without "#" (e.g. "E9E9E9"), got ${JSON.stringify(body.color)}.`);
    out.color = body.color;
  }
  return out;
}

export function createLabel(state: PodioState, user: PodioUser, l: { text: string; color: string }): PodioLabelRow {
  const label: PodioLabelRow = { label_id: state.tasks.next.label++, user_id: user.user_id, text: l.text, color: l.color };
  state.tasks.labels.set(label.label_id, label);
  return label;
}

export const labelsOf = (state: PodioState, user: PodioUser) => [...state.tasks.labels.values()].filter((l) => l.user_id === user.user_id).map(labelOut);

/** The user's own label (another user's is 404, as labels are personal). */
export function labelFor(state: PodioState, user: PodioUser, labelId: number): PodioLabelRow {
  const l = state.tasks.labels.get(labelId);
  if (!l || l.user_id !== user.user_id) throw notFound();
  return l;
}

/** Deleting a label removes it from every task (docs/vendors/podio.md#tasks Podio's "Delete label"). */
export function deleteLabel(state: PodioState, l: PodioLabelRow): void {
  state.tasks.labels.delete(l.label_id);
  for (const t of state.tasks.rows.values()) t.label_ids = t.label_ids.filter((id) => id !== l.label_id);
}

// --- listing: filters, grouping, summary ---

const RANGE = /^(\d{4}-\d\d-\d\d)?-(\d{4}-\d\d-\d\d)?$/;

/** `YYYY-MM-DD-YYYY-MM-DD` (either end open) or one day → inclusive bounds on dates. */
function dateRange(key: string, raw: string): { from: string | null; to: string | null } {
  if (validDate(raw)) return { from: raw, to: raw };
  const m = RANGE.exec(raw);
  if (!m || (!m[1] && !m[2]) || (m[1] && !validDate(m[1])) || (m[2] && !validDate(m[2]))) throw invalid(`"${key}" must be a date range "YYYY-MM-DD-YYYY-MM-DD", got "${raw}".`);
  return { from: m[1] ?? null, to: m[2] ?? null };
}
const inRange = (d: string | null, r: { from: string | null; to: string | null }) => d !== null && (!r.from || d >= r.from) && (!r.to || d <= r.to);

const idList = (key: string, raw: string, sep = ','): number[] =>
  raw.split(sep).map((part) => {
    const m = /^\s*(?:user:)?(\d+)\s*$/.exec(part);
    if (!m) throw invalid(`"${key}" must be ids separated by "${sep}", got "${raw}".`);
    return Number(m[1]);
  });

const bool = (key: string, raw: string): boolean => {
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw invalid(`"${key}" must be true or false, got "${raw}".`);
};

export const GROUPINGS = ['due_date', 'created_by', 'responsible', 'app', 'space', 'org'] as const;
/** The due-date groups in Podio's order. */
export const DUE_GROUPS = ['overdue', 'due_today', 'due_tomorrow', 'due_this_week', 'due_later', 'no_due_date', 'completed'] as const;

/** The local calendar date a task is due on, for a viewer. */
function dueDay(t: PodioTaskRow, viewer: PodioUser): string | null {
  if (!t.due) return null;
  return 'date' in t.due ? t.due.date : wallClock(viewer.timezone, t.due.utc).slice(0, 10);
}

/** Where a task falls for a viewer now: overdue, today, tomorrow, the rest of this week (to Sunday), later, no due date; done ones apart. */
export function dueGroup(t: PodioTaskRow, viewer: PodioUser, now: number): (typeof DUE_GROUPS)[number] {
  if (t.status === 'completed') return 'completed';
  const day = dueDay(t, viewer);
  if (day === null) return 'no_due_date';
  const today = wallClock(viewer.timezone, now).slice(0, 10);
  const overdue = t.due && 'utc' in t.due ? t.due.utc < now : day < today;
  if (overdue) return 'overdue';
  if (day <= today) return 'due_today';
  const plus = (n: number) => new Date(Date.parse(`${today}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);
  if (day === plus(1)) return 'due_tomorrow';
  const weekday = new Date(`${today}T00:00:00Z`).getUTCDay();
  const sunday = plus(weekday === 0 ? 0 : 7 - weekday);
  return day <= sunday ? 'due_this_week' : 'due_later';
}

function groupOf(state: PodioState, t: PodioTaskRow, grouping: (typeof GROUPINGS)[number], viewer: PodioUser, now: number): string | Json {
  if (grouping === 'due_date') return dueGroup(t, viewer, now);
  if (grouping === 'created_by' || grouping === 'responsible') {
    const u = state.users.get(grouping === 'created_by' ? t.created_by : (t.responsible ?? -1));
    return u ? { type: 'user', id: u.user_id, name: u.name } : { type: 'none', id: null, name: 'Nobody' };
  }
  const item = t.ref ? state.items.get(t.ref.id) : undefined;
  const app = item ? state.apps.get(item.app_id) : undefined;
  if (grouping === 'app') return app ? { type: 'app', id: app.app_id, name: app.name } : { type: 'none', id: null, name: 'No app' };
  const space = app ? state.spaces.get(app.space_id) : undefined;
  if (grouping === 'space') return space ? { type: 'space', id: space.space_id, name: space.name } : { type: 'none', id: null, name: 'No workspace' };
  return space ? { type: 'org', id: state.org.org_id, name: state.org.name } : { type: 'none', id: null, name: 'Personal' };
}

const groupKey = (g: string | Json): string => (typeof g === 'string' ? String(DUE_GROUPS.indexOf(g as never)).padStart(2, '0') : g.type === 'none' ? '~' : String(g.name));

/** `GET /task/` (docs/vendors/podio.md#tasks; NET GetTasks): the filters, grouping, sort and paging of Podio's task list. */
export function listTasks(state: PodioState, user: PodioUser, q: Record<string, string>, now: number): { task: PodioTaskRow; group?: string | Json }[] {
  const preds: ((t: PodioTaskRow) => boolean)[] = [(t) => canSeeTask(state, user, t)];
  const who = ['responsible', 'created_by', 'completed_by', 'reference', 'app', 'space', 'org', 'reassigned'];
  // Podio lists the active user's own tasks unless told whose or where.
  if (!who.some((k) => q[k] !== undefined && q[k] !== '')) preds.push((t) => t.responsible === user.user_id);
  const has = (k: string) => q[k] !== undefined && q[k] !== '';
  if (has('completed')) {
    const done = bool('completed', q.completed!);
    preds.push((t) => (t.status === 'completed') === done);
  }
  for (const key of ['responsible', 'created_by', 'completed_by'] as const) {
    if (!has(key)) continue;
    const ids = new Set(idList(key, q[key]!));
    preds.push((t) => ids.has((key === 'responsible' ? t.responsible : key === 'created_by' ? t.created_by : t.completed_by) ?? -1));
  }
  for (const key of ['due_date', 'created_on', 'completed_on'] as const) {
    if (!has(key)) continue;
    const r = dateRange(key, q[key]!);
    preds.push((t) => inRange(key === 'due_date' ? dueDay(t, user) : key === 'created_on' ? t.created_on.slice(0, 10) : (t.completed_on?.slice(0, 10) ?? null), r));
  }
  if (has('created_via')) {
    const via = idList('created_via', q.created_via!);
    preds.push(() => via.includes(CREATED_VIA.id));
  }
  if (has('label')) {
    const [label] = idList('label', q.label!);
    preds.push((t) => t.label_ids.includes(label!));
  }
  const itemOf = (t: PodioTaskRow) => (t.ref ? state.items.get(t.ref.id) : undefined);
  if (has('app')) {
    const apps = new Set(idList('app', q.app!));
    preds.push((t) => apps.has(itemOf(t)?.app_id ?? -1));
  }
  if (has('space')) {
    const spaces = new Set(idList('space', q.space!));
    preds.push((t) => spaces.has(spaceOf(state, t) ?? -1));
  }
  if (has('org')) {
    const orgs = new Set(idList('org', q.org!));
    preds.push((t) => spaceOf(state, t) !== null && orgs.has(state.org.org_id));
  }
  if (has('reference')) {
    const refs = q.reference!.split(';').map((part) => {
      const m = /^\s*([a-z_]+):(\d+)\s*$/.exec(part);
      if (!m) throw invalid(`"reference" must be "type:id" pairs separated by ";", got "${q.reference}".`);
      return `${m[1]}:${m[2]}`;
    });
    preds.push((t) => t.ref !== null && refs.includes(`${t.ref.type}:${t.ref.id}`));
  }
  if (has('external_id')) preds.push((t) => t.external_id === q.external_id);
  if (has('files')) {
    const files = bool('files', q.files!);
    preds.push((t) => t.file_ids.length > 0 === files);
  }
  if (has('reassigned')) {
    const reassigned = bool('reassigned', q.reassigned!);
    preds.push((t) => t.created_by === user.user_id && (t.responsible !== user.user_id) === reassigned);
  }
  const grouping = q.grouping || undefined;
  if (grouping !== undefined && !GROUPINGS.includes(grouping as never)) throw invalid(`"grouping" is one of ${GROUPINGS.join(', ')}; got "${grouping}".`);
  const sortBy = q.sort_by || 'rank';
  if (!['created_on', 'completed_on', 'rank'].includes(sortBy)) throw invalid(`"sort_by" is created_on, completed_on or rank; got "${sortBy}".`);
  const desc = has('sort_desc') ? bool('sort_desc', q.sort_desc!) : false;
  const sortKey = (t: PodioTaskRow) => (sortBy === 'rank' ? String(t.rank).padStart(12, '0') : `${(sortBy === 'created_on' ? t.created_on : t.completed_on) ?? ''} ${String(t.task_id).padStart(12, '0')}`);
  const rows = [...state.tasks.rows.values()]
    .filter((t) => preds.every((p) => p(t)))
    .map((task) => ({ task, ...(grouping ? { group: groupOf(state, task, grouping as (typeof GROUPINGS)[number], user, now) } : {}) }));
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return rows.sort((a, b) => (a.group !== undefined ? cmp(groupKey(a.group), groupKey(b.group!)) : 0) || cmp(sortKey(a.task), sortKey(b.task)) * (desc ? -1 : 1));
}

/** `GET /task/summary` (NET TaskSummary): the user's open tasks as overdue, today and other, `limit` of each. */
export function taskSummary(state: PodioState, user: PodioUser, limit: number, now: number) {
  const mine = [...state.tasks.rows.values()].filter((t) => t.responsible === user.user_id && t.status === 'active').sort((a, b) => a.rank - b.rank);
  const part = (pick: (g: string) => boolean) => {
    const tasks = mine.filter((t) => pick(dueGroup(t, user, now)));
    return { total: tasks.length, tasks: tasks.slice(0, limit).map((t) => taskListOut(state, t, user)) };
  };
  return { overdue: part((g) => g === 'overdue'), today: part((g) => g === 'due_today'), other: part((g) => g !== 'overdue' && g !== 'due_today') };
}

// --- seed ---

/** Timezones of the demo users besides the owner (who stays in UTC): a DST change falls between them and UTC. */
const TIMEZONES: Record<number, string> = { 1002: 'Europe/Berlin', 1003: 'America/New_York', 1004: 'Europe/Berlin', 1005: 'Europe/Rome', 1006: 'Europe/Berlin' };

/** Labels and tasks of the demo users (ids from 40001 and 45001), some on deals, some done; the users' timezones; dates moved by `shift` ms. */
export function seedTasks(state: PodioState, shift = 0): void {
  for (const [id, tz] of Object.entries(TIMEZONES)) {
    const u = state.users.get(Number(id));
    if (u) u.timezone = tz;
  }
  state.tasks = { rows: new Map(), labels: new Map(), next: { task: 40001, label: 45001 } };
  const user = (id: number) => state.users.get(id)!;
  const [owner, ben, chloe, , , felix] = [1001, 1002, 1003, 1004, 1005, 1006].map(user);
  const urgent = createLabel(state, owner!, { text: 'Urgent', color: 'D2E4EB' });
  const followUp = createLabel(state, owner!, { text: 'Follow-up', color: 'F7F0C5' });
  createLabel(state, felix!, { text: 'Calls', color: 'DCEBD8' });
  const deal = 30061;
  const at = (iso: string) => Date.parse(iso) + shift;
  const date = (d: string) => new Date(at(`${d}T00:00:00Z`)).toISOString().slice(0, 10);
  const seed: [PodioUser, TaskChanges, string][] = [
    [owner!, { text: 'Send the signed contract to legal', due: { utc: at('2025-12-01T15:00:00Z') }, ref: { type: 'item', id: deal }, label_ids: [urgent.label_id] }, '2025-11-20T09:00:00Z'],
    [owner!, { text: 'Prepare the Q1 pipeline review', due: { date: date('2026-01-15') }, label_ids: [followUp.label_id] }, '2025-12-02T09:00:00Z'],
    [owner!, { text: 'Call Northwind about the renewal', due: { utc: at('2026-01-16T10:00:00Z') }, ref: { type: 'item', id: deal + 1 } }, '2025-12-03T09:00:00Z'],
    [owner!, { text: 'Draft the January newsletter', due: { date: date('2026-01-17') } }, '2025-12-03T10:00:00Z'],
    [owner!, { text: 'Book the team offsite', due: { date: date('2026-03-02') } }, '2025-12-04T09:00:00Z'],
    [owner!, { text: 'Review the onboarding checklist', responsible: ben!.user_id, due: { date: date('2026-01-20') }, ref: { type: 'item', id: deal } }, '2025-12-05T09:00:00Z'],
    [chloe!, { text: 'Update the price list', responsible: owner!.user_id }, '2025-12-06T09:00:00Z'],
    [felix!, { text: 'Call back Helios Solar', due: { utc: at('2026-01-17T08:00:00Z') }, ref: { type: 'item', id: deal + 2 } }, '2025-12-07T09:00:00Z'],
    [owner!, { text: 'Private: salary review notes', private: true }, '2025-12-08T09:00:00Z'],
  ];
  for (const [by, c, when] of seed) createTask(state, by, c, at(when));
  const done = createTask(state, owner!, { text: 'Send the December invoices', due: { date: date('2025-12-20') } }, at('2025-12-10T09:00:00Z'));
  setCompleted(done, true, owner!, at('2025-12-19T16:00:00Z'));
}
