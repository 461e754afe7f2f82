/**
 * Shared record helpers of the Tape twin: access to apps, the record JSON as Tape returns it,
 * sorting and cursor pagination, and the record/comment mutations with their revisions and
 * events. Routes (record.ts, views, filters) and the automation engine build on these.
 */
import { decodeCursor, encodeCursor } from '../kit';
import { TapeHttpError, notFound, restricted, tapeDateTime, validation } from './http';
import type { TapeApp, TapeAutomationActor, TapeField, TapeRecordRow, TapeValue } from './model';
import type { TapeState, TapeUser, TapeWorkspace } from './state';
import { FIELD_TYPES, applyCalculations, checkRequired, lookupFile, parseFieldInputs, recordTitle, sortKey, userRef } from './values';

// --- errors of docs/vendors/tape.md#records / docs/vendors/tape.md#errors ---

export const recordNotExists = (id: number) => new TapeHttpError(404, 'record_not_exists', `Record does not exist(${id})!`);
export const recordDeleted = (id: number) => new TapeHttpError(400, 'record_deleted', `Record is deleted(${id})!`);
export const appNotExists = (id: number) => notFound(`App does not exist(${id})!`);

// --- access: the visibility rules of workspaces (docs/vendors/tape.md#workspaces), applied to their apps ---

const isOrgAdmin = (u: TapeUser) => u.role === 'owner' || u.role === 'admin';
const roleIn = (state: TapeState, wsId: number, u: TapeUser) => state.members.get(wsId)?.get(u.user_id);

/** Private workspaces are invisible to non-members; an app of a deleted workspace is gone. */
export function workspaceVisible(state: TapeState, ws: TapeWorkspace | undefined, u: TapeUser): ws is TapeWorkspace {
  return ws !== undefined && (isOrgAdmin(u) || ws.type !== 'private' || roleIn(state, ws.workspace_id, u) !== undefined);
}

/** An app the user can see, or Tape's 404. */
export function readableApp(state: TapeState, appId: number, u: TapeUser): TapeApp {
  const app = state.apps.get(appId);
  if (!app || !workspaceVisible(state, state.workspaces.get(app.workspace_id), u)) throw appNotExists(appId);
  return app;
}

/** An app whose records the user may change: closed workspaces are read-only for non-members, guests read only. */
export function recordWritableApp(state: TapeState, appId: number, u: TapeUser): TapeApp {
  const app = readableApp(state, appId, u);
  if (isOrgAdmin(u)) return app;
  const ws = state.workspaces.get(app.workspace_id)!;
  const role = roleIn(state, ws.workspace_id, u);
  if (role === 'guest' || (role === undefined && (ws.type === 'closed' || u.role === 'guest'))) {
    throw restricted(`User ${u.user_id} has read-only access to the records of app ${appId} in workspace ${ws.workspace_id}.`);
  }
  return app;
}

/** Creating and editing apps needs org owner/admin or a workspace admin/member role. */
export function canManageApps(state: TapeState, wsId: number, u: TapeUser): boolean {
  if (isOrgAdmin(u)) return true;
  const role = roleIn(state, wsId, u);
  return role === 'admin' || role === 'member';
}

// --- per-twin record bookkeeping: revisions, comments, app record counters ---

export interface RevisionDelta { field_id: number; from: TapeValue[]; to: TapeValue[] }
export interface RecordRevision {
  revision: number;
  type: 'creation' | 'update' | 'delete' | 'restore';
  created_by: number;
  /** The automation that made this change (then it, not `created_by`, is its author). */
  actor?: TapeAutomationActor;
  created_on: string;
  deltas: RevisionDelta[];
}
export interface TapeComment {
  comment_id: number;
  record_id: number;
  value: string;
  created_on: string;
  created_by: number;
  actor?: TapeAutomationActor;
  /** The comment this one replies to (replies are made by automations only; the API has no reply endpoint). */
  reply_to?: number;
  files: { file_id: number | string; name: string; size: number }[];
}

interface Extras {
  revisions: Map<number, RecordRevision[]>;
  comments: Map<number, TapeComment>;
  appRecordIds: Map<number, number>;
  /** record id → the users following it (its creator and commenters, as in Tape). */
  follows: Map<number, Set<number>>;
  /** record id → user id → permission level shared on the record itself (docs/vendors/tape.md#record-permissions, 0–5). */
  shares: Map<number, Map<number, number>>;
}
const extrasOf = new WeakMap<TapeState, Extras>();
function extras(state: TapeState): Extras {
  let e = extrasOf.get(state);
  if (!e) extrasOf.set(state, (e = { revisions: new Map(), comments: new Map(), appRecordIds: new Map(), follows: new Map(), shares: new Map() }));
  return e;
}

/** The users following a record (live set: unfollowing edits it). */
export function recordFollowers(state: TapeState, recordId: number): Set<number> {
  const f = extras(state).follows;
  let set = f.get(recordId);
  if (!set) f.set(recordId, (set = new Set()));
  return set;
}

/** Levels shared on a record itself, by user id (live map). */
export function recordShares(state: TapeState, recordId: number): Map<number, number> {
  const s = extras(state).shares;
  let map = s.get(recordId);
  if (!map) s.set(recordId, (map = new Map()));
  return map;
}

export function recordRevisions(state: TapeState, recordId: number): RecordRevision[] {
  return extras(state).revisions.get(recordId) ?? [];
}

export function recordComments(state: TapeState, recordId: number): TapeComment[] {
  return [...extras(state).comments.values()].filter((c) => c.record_id === recordId);
}

export function findComment(state: TapeState, commentId: number): TapeComment | undefined {
  return extras(state).comments.get(commentId);
}

// --- wire shapes ---

const DEFAULT_ICON = 'event_available';

/** The `app` summary a record carries (docs/vendors/tape.md#records). */
export function appSummary(app: TapeApp) {
  const icon = app.icon as { id?: string; emoji?: string } | undefined;
  return { app_id: app.app_id, icon: icon?.id ?? icon?.emoji ?? DEFAULT_ICON, name: app.name, record_name: app.item_name, workspace_id: app.workspace_id };
}

function userOf(state: TapeState, id: number) {
  const u = state.users.get(id);
  return u ? userRef(u) : { user_id: id, mail: [], image: null, name: 'Unknown user', org_id: state.org.org_id, type: 'user' as const };
}

/** The author of a change as the wire shows it: the user, or the automation that made it (type "automation"). */
export function authorRef(state: TapeState, userId: number, actor?: TapeAutomationActor) {
  return actor ? { automation_id: actor.automation_id, name: actor.name, image: null, type: 'automation' as const } : userOf(state, userId);
}

/** A date value of the shape of docs/vendors/tape.md#fields-and-values for a meta date (created_on, last_modified_on). */
function metaDate(dt: string): TapeValue {
  const [date, time] = dt.split(' ');
  return { start: dt, start_date: date, start_time: time, start_utc: dt, start_date_utc: date, start_time_utc: time } as unknown as TapeValue;
}

/** The values a record shows for a field: stored ones, relations with current titles, meta fields computed. */
export function wireValues(state: TapeState, row: TapeRecordRow, fieldType: string, fieldId: number): TapeValue[] {
  switch (fieldType) {
    case 'unique_id':
      return [];
    case 'created_by':
      return [{ value: authorRef(state, row.created_by, row.created_by_automation) }];
    case 'last_modified_by':
      return [{ value: authorRef(state, row.last_modified_by, row.last_modified_by_automation) }];
    case 'created_on':
      return [metaDate(row.created_on)];
    case 'last_modified_on':
      return [metaDate(row.last_modified_on)];
    case 'single_relation':
    case 'multi_relation': {
      const out: TapeValue[] = [];
      for (const v of row.values.get(fieldId) ?? []) {
        const ref = state.records.get((v.value as { record_id: number }).record_id);
        if (ref && !ref.purged && !ref.deleted_on) out.push({ value: { record_id: ref.record_id, app_id: ref.app_id, title: ref.title } });
      }
      return out;
    }
    default:
      return row.values.get(fieldId) ?? [];
  }
}

export interface RecordWireOptions {
  /** Leave out `fields` (the relatable-records search answers without them). */
  fields?: boolean;
  /** Only these field ids. */
  fieldIds?: ReadonlySet<number>;
}

/** The record JSON exactly as Tape returns it (docs/vendors/tape.md#records), with its `app` summary. */
export function recordWire(state: TapeState, row: TapeRecordRow, opts: RecordWireOptions = {}) {
  const app = state.apps.get(row.app_id);
  const revisions = recordRevisions(state, row.record_id);
  const wire: Record<string, unknown> = {
    record_id: row.record_id,
    app_record_id: row.app_record_id,
    title: row.title,
    created_on: row.created_on,
    created_by: authorRef(state, row.created_by, row.created_by_automation),
    last_modified_on: row.last_modified_on,
    revision: revisions.length ? revisions[revisions.length - 1]!.revision : 0,
  };
  if (row.deleted_on) wire.deleted_on = row.deleted_on;
  if (app) wire.app = appSummary(app);
  if (opts.fields === false || !app) return wire;
  const fields = [];
  for (const f of app.fields) {
    if (opts.fieldIds && !opts.fieldIds.has(f.field_id)) continue;
    const values = wireValues(state, row, f.field_type, f.field_id);
    if (!values.length) continue;
    fields.push({ field_id: f.field_id, external_id: f.external_id, label: f.label, type: FIELD_TYPES[f.field_type]?.valueType ?? f.type, field_type: f.field_type, values });
  }
  wire.fields = fields;
  return wire;
}

// --- relations ---

const isRelationField = (f: TapeField) => f.field_type === 'single_relation' || f.field_type === 'multi_relation';
const linkedIds = (row: TapeRecordRow, f: TapeField) => (row.values.get(f.field_id) ?? []).map((v) => (v.value as { record_id: number }).record_id);

/**
 * Live records related to `sources`: `outgoing` follows the sources' own relation fields, `incoming`
 * finds records whose relation fields point at a source, `both` does both; `fieldIds` limits the
 * relation fields followed, `appId` the app of the results. Newest first, no duplicates, no sources.
 */
export function relatedRecords(state: TapeState, sources: TapeRecordRow[], o: { direction: 'outgoing' | 'incoming' | 'both'; appId?: number; fieldIds?: ReadonlySet<number> }): TapeRecordRow[] {
  const use = (f: TapeField) => isRelationField(f) && (!o.fieldIds || o.fieldIds.has(f.field_id));
  const found = new Set<number>();
  if (o.direction !== 'incoming') {
    for (const row of sources) for (const f of state.apps.get(row.app_id)?.fields.filter(use) ?? []) for (const id of linkedIds(row, f)) found.add(id);
  }
  if (o.direction !== 'outgoing') {
    const wanted = new Set(sources.map((s) => s.record_id));
    for (const row of state.records.values()) {
      if (row.deleted_on || row.purged) continue;
      if (state.apps.get(row.app_id)?.fields.some((f) => use(f) && linkedIds(row, f).some((id) => wanted.has(id)))) found.add(row.record_id);
    }
  }
  for (const s of sources) found.delete(s.record_id);
  return [...found]
    .map((id) => state.records.get(id))
    .filter((r): r is TapeRecordRow => !!r && !r.deleted_on && !r.purged && (o.appId === undefined || r.app_id === o.appId))
    .sort((a, b) => b.record_id - a.record_id);
}

// --- listing: records of an app, sorting, pagination ---

/** Live (not deleted) records of an app, newest first: Tape's default order (docs/vendors/tape.md#records examples). */
export function appRecords(state: TapeState, appId: number): TapeRecordRow[] {
  const rows: TapeRecordRow[] = [];
  for (const r of state.records.values()) if (r.app_id === appId && !r.deleted_on && !r.purged) rows.push(r);
  return rows.sort((a, b) => b.record_id - a.record_id);
}

/**
 * Sorts by the field with external id `sortByExternalId` (docs/vendors/tape.md#records `sort_by`), ascending unless
 * `desc`; records without a value come last. Without a field, newest first. Unknown field: 400.
 */
export function sortRecords(rows: TapeRecordRow[], app: TapeApp, sortByExternalId?: string, desc = false): TapeRecordRow[] {
  if (!sortByExternalId) return [...rows].sort((a, b) => (desc ? a.record_id - b.record_id : b.record_id - a.record_id));
  const field = app.fields.find((f) => f.external_id === sortByExternalId);
  if (!field) throw validation(`"sort_by" must be the external_id of a field of app ${app.app_id}, got "${sortByExternalId}". Fields: ${app.fields.map((f) => f.external_id).join(', ')}.`);
  const keyed = rows.map((r) => {
    let key: number | string | null;
    if (field.field_type === 'created_on') key = r.created_on;
    else if (field.field_type === 'last_modified_on') key = r.last_modified_on;
    else if (field.field_type === 'unique_id') key = r.app_record_id;
    else key = sortKey(field, r.values.get(field.field_id));
    return { r, key };
  });
  keyed.sort((a, b) => {
    if (a.key === null || b.key === null) return a.key === b.key ? a.r.record_id - b.r.record_id : a.key === null ? 1 : -1;
    const c = typeof a.key === 'number' && typeof b.key === 'number' ? a.key - b.key : String(a.key).localeCompare(String(b.key));
    return (desc ? -c : c) || a.r.record_id - b.r.record_id;
  });
  return keyed.map((k) => k.r);
}

/** docs/vendors/tape.md#pagination's opaque cursor: the offset past the last item of the page. */
function encodeOffset(offset: number): string {
  return encodeCursor({ typ: 'cursor', offset });
}

function decodeOffset(cursor: string): number {
  const c = decodeCursor(cursor);
  if (c && c.typ === 'cursor' && typeof c.offset === 'number' && Number.isInteger(c.offset) && c.offset >= 0) return c.offset;
  throw validation(`"cursor" is not a cursor returned by this endpoint: "${cursor}".`);
}

/**
 * One page of `rows` (docs/vendors/tape.md#pagination): `cursor` is opaque and points past the page's last item; it is
 * returned on every non-empty page, so the end is a page shorter than `limit`.
 */
export function paginate<T>(rows: T[], limit: number, cursor?: string | null): { total: number; cursor: string | null; page: T[] } {
  const offset = cursor ? decodeOffset(cursor) : 0;
  const page = rows.slice(offset, offset + limit);
  return { total: rows.length, cursor: page.length ? encodeOffset(offset + page.length) : null, page };
}

// --- mutations: each records a revision and emits its event ---

export interface WriteOptions {
  user: TapeUser;
  /** Execute webhooks (query `hook`, default true). */
  hook?: boolean;
  /** Trigger automations (query `workflow`, default true). */
  workflow?: boolean;
  now?: Date;
  /** Emit no event (demo seeding). */
  quiet?: boolean;
  /** The automation making the change: history credits it instead of `user`. */
  actor?: TapeAutomationActor;
}

function addRevision(state: TapeState, recordId: number, type: RecordRevision['type'], o: WriteOptions, at: string, deltas: RevisionDelta[]): number {
  const list = extras(state).revisions.get(recordId) ?? [];
  const revision = list.length;
  list.push({ revision, type, created_by: o.user.user_id, ...(o.actor ? { actor: o.actor } : {}), created_on: at, deltas });
  extras(state).revisions.set(recordId, list);
  return revision;
}

function emitRecord(state: TapeState, type: 'record.create' | 'record.update' | 'record.delete' | 'record.restore', row: TapeRecordRow, revision: number, o: WriteOptions) {
  if (o.quiet) return;
  state.events.emit({ type, app_id: row.app_id, record_id: row.record_id, revision_id: revision, hook: o.hook ?? true, workflow: o.workflow ?? true, user_id: o.user.user_id });
}

/** Validates a record create input without writing: the parsed values (with calculations) and title. */
export function prepareCreate(state: TapeState, app: TapeApp, fields: unknown, now = new Date()): Map<number, TapeValue[]> {
  const parsed = parseFieldInputs({ state, app, now }, fields);
  const values = new Map([...parsed].filter(([, v]) => v.length > 0));
  checkRequired(app, values);
  applyCalculations(app, values);
  return values;
}

/** Stores a new record from validated values (prepareCreate) and emits record.create. */
export function insertRecord(state: TapeState, app: TapeApp, values: Map<number, TapeValue[]>, o: WriteOptions): TapeRecordRow {
  const at = tapeDateTime(o.now ?? new Date());
  const counters = extras(state).appRecordIds;
  const appRecordId = (counters.get(app.app_id) ?? 0) + 1;
  counters.set(app.app_id, appRecordId);
  while (state.records.has(state.nextId.record)) state.nextId.record++;
  const row: TapeRecordRow = {
    record_id: state.nextId.record++,
    app_id: app.app_id,
    app_record_id: appRecordId,
    title: recordTitle(app, values),
    created_on: at,
    created_by: o.user.user_id,
    last_modified_on: at,
    last_modified_by: o.user.user_id,
    ...(o.actor ? { created_by_automation: o.actor, last_modified_by_automation: o.actor } : {}),
    deleted_on: null,
    purged: false,
    values,
  };
  state.records.set(row.record_id, row);
  recordFollowers(state, row.record_id).add(o.user.user_id);
  const deltas = [...values].map(([field_id, to]) => ({ field_id, from: [], to }));
  const revision = addRevision(state, row.record_id, 'creation', o, at, deltas);
  emitRecord(state, 'record.create', row, revision, o);
  return row;
}

export function createRecord(state: TapeState, app: TapeApp, fields: unknown, o: WriteOptions): TapeRecordRow {
  return insertRecord(state, app, prepareCreate(state, app, fields, o.now), o);
}

/** Validates an update without writing: the record's next values (only given fields change). */
export function prepareUpdate(state: TapeState, app: TapeApp, row: TapeRecordRow, fields: unknown, now = new Date()): Map<number, TapeValue[]> {
  const parsed = parseFieldInputs({ state, app, now, existing: row }, fields);
  const next = new Map(row.values);
  for (const [id, vals] of parsed) {
    if (vals.length) next.set(id, vals);
    else next.delete(id);
  }
  checkRequired(app, next, parsed.keys());
  applyCalculations(app, next);
  return next;
}

/** Applies validated values (prepareUpdate); a change records a revision and emits record.update, no change does neither. */
export function applyUpdate(state: TapeState, app: TapeApp, row: TapeRecordRow, next: Map<number, TapeValue[]>, o: WriteOptions): TapeRecordRow {
  const deltas: RevisionDelta[] = [];
  for (const id of new Set([...row.values.keys(), ...next.keys()])) {
    const from = row.values.get(id) ?? [];
    const to = next.get(id) ?? [];
    if (JSON.stringify(from) !== JSON.stringify(to)) deltas.push({ field_id: id, from, to });
  }
  if (!deltas.length) return row;
  const at = tapeDateTime(o.now ?? new Date());
  row.values = next;
  row.title = recordTitle(app, next);
  row.last_modified_on = at;
  row.last_modified_by = o.user.user_id;
  row.last_modified_by_automation = o.actor;
  const revision = addRevision(state, row.record_id, 'update', o, at, deltas);
  emitRecord(state, 'record.update', row, revision, o);
  return row;
}

export function updateRecord(state: TapeState, app: TapeApp, row: TapeRecordRow, fields: unknown, o: WriteOptions): TapeRecordRow {
  return applyUpdate(state, app, row, prepareUpdate(state, app, row, fields, o.now), o);
}

/** Moves a record to the trash (or removes it for good with skipTrash) and emits record.delete. */
export function deleteRecord(state: TapeState, row: TapeRecordRow, o: WriteOptions & { skipTrash?: boolean }): TapeRecordRow {
  if (row.purged) throw recordNotExists(row.record_id);
  if (row.deleted_on) throw recordDeleted(row.record_id);
  const at = tapeDateTime(o.now ?? new Date());
  row.deleted_on = at;
  if (o.skipTrash) row.purged = true;
  const revision = addRevision(state, row.record_id, 'delete', o, at, []);
  emitRecord(state, 'record.delete', row, revision, o);
  return row;
}

/** Restores a record from the trash and emits record.restore. */
export function restoreRecord(state: TapeState, row: TapeRecordRow, o: WriteOptions): TapeRecordRow {
  if (row.purged) throw recordNotExists(row.record_id);
  if (!row.deleted_on) throw validation(`Record ${row.record_id} is not deleted; only records in the trash can be restored.`);
  const at = tapeDateTime(o.now ?? new Date());
  row.deleted_on = null;
  row.last_modified_on = at;
  row.last_modified_by = o.user.user_id;
  row.last_modified_by_automation = o.actor;
  const revision = addRevision(state, row.record_id, 'restore', o, at, []);
  emitRecord(state, 'record.restore', row, revision, o);
  return row;
}

/**
 * The record with this id as the user may see it: 404 record_not_exists when unknown, purged or in
 * an app the user cannot see; 400 record_deleted when in the trash unless `includeDeleted`.
 */
export function findRecord(state: TapeState, id: number, u: TapeUser, includeDeleted = false): { row: TapeRecordRow; app: TapeApp } {
  const row = state.records.get(id);
  if (!row || row.purged) throw recordNotExists(id);
  const app = state.apps.get(row.app_id);
  // A record shared to a user (docs/vendors/tape.md#record-permissions) is readable to them without access to its workspace.
  const shared = (extras(state).shares.get(id)?.get(u.user_id) ?? 0) > 0;
  if (!app || (!shared && !workspaceVisible(state, state.workspaces.get(app.workspace_id), u))) throw recordNotExists(id);
  if (row.deleted_on && !includeDeleted) throw recordDeleted(id);
  return { row, app };
}

// --- comments (docs/vendors/tape.md#record-comments) ---

export function commentWire(state: TapeState, c: TapeComment) {
  const by = authorRef(state, c.created_by, c.actor);
  return { comment_id: c.comment_id, value: c.value, created_on: c.created_on, ref: { type: 'record', id: c.record_id }, files: c.files, created_by: by, user: by };
}

export function createComment(
  state: TapeState,
  row: TapeRecordRow,
  input: { value: unknown; file_ids?: unknown; reply_to?: number },
  o: { user: TapeUser; hook?: boolean; now?: Date; actor?: TapeAutomationActor },
): TapeComment {
  if (typeof input.value !== 'string' || input.value.trim() === '') throw validation('"value" is required and must be the non-empty text of the comment.');
  const fileIds = input.file_ids ?? [];
  if (!Array.isArray(fileIds)) throw validation('"file_ids" must be an array of file ids.');
  const files = fileIds.map((id: unknown) => {
    const ok = (typeof id === 'string' && id !== '') || (typeof id === 'number' && Number.isInteger(id) && id > 0);
    const info = ok ? lookupFile(state, id as string | number) : undefined;
    if (!info) throw validation(`"file_ids": file ${JSON.stringify(id)} does not exist; upload it first (POST /v1/file/upload).`);
    return { file_id: id as number | string, name: info.filename, size: info.size };
  });
  const comment: TapeComment = {
    comment_id: state.nextId.comment++,
    record_id: row.record_id,
    value: input.value,
    created_on: tapeDateTime(o.now ?? new Date()),
    created_by: o.user.user_id,
    ...(o.actor ? { actor: o.actor } : {}),
    ...(input.reply_to !== undefined ? { reply_to: input.reply_to } : {}),
    files,
  };
  extras(state).comments.set(comment.comment_id, comment);
  if (!o.actor) recordFollowers(state, row.record_id).add(o.user.user_id);
  state.events.emit({ type: 'comment.create', app_id: row.app_id, record_id: row.record_id, comment_id: comment.comment_id, hook: o.hook ?? true, user_id: o.user.user_id });
  return comment;
}

/** Deletes a comment and its replies; an automation (`actor`) may delete any comment of its record. */
export function deleteComment(state: TapeState, c: TapeComment, o: { user: TapeUser; hook?: boolean; actor?: TapeAutomationActor }): void {
  if (!o.actor && c.created_by !== o.user.user_id && !isOrgAdmin(o.user)) throw restricted(`Only the author or an organization admin can delete comment ${c.comment_id}.`);
  extras(state).comments.delete(c.comment_id);
  for (const [id, reply] of extras(state).comments) if (reply.reply_to === c.comment_id) extras(state).comments.delete(id);
  const row = state.records.get(c.record_id);
  state.events.emit({ type: 'comment.delete', app_id: row?.app_id ?? 0, record_id: c.record_id, comment_id: c.comment_id, hook: o.hook ?? true, user_id: o.user.user_id });
}

/** Removes an app's records and their bookkeeping (app deletion). */
export function dropAppRecords(state: TapeState, appId: number): void {
  const e = extras(state);
  for (const [id, r] of state.records) {
    if (r.app_id !== appId) continue;
    state.records.delete(id);
    e.revisions.delete(id);
    e.follows.delete(id);
    e.shares.delete(id);
  }
  for (const [id, c] of e.comments) if (!state.records.has(c.record_id)) e.comments.delete(id);
  e.appRecordIds.delete(appId);
}
