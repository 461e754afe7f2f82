import { Hono } from 'hono';
import { TapeHttpError, idParam, jsonBody, notFound, queryFlag, queryFlags, queryLimit, validation, type TwinEnv } from '../http';
import { recordMatches, validateFilters, type TapeFilter } from '../filter';
import { getView } from './view';
import type { TapeField, TapeRecordRow, TapeValue } from '../model';
import {
  appRecords,
  applyUpdate,
  commentWire,
  createComment,
  createRecord,
  deleteComment,
  deleteRecord,
  findComment,
  findRecord,
  insertRecord,
  paginate,
  prepareCreate,
  prepareUpdate,
  readableApp,
  recordComments,
  recordRevisions,
  recordWire,
  recordWritableApp,
  restoreRecord,
  sortRecords,
  updateRecord,
  workspaceVisible,
} from '../records';
import type { TapeState } from '../state';
import { FIELD_TYPES } from '../values';
import { isObject } from '../../kit/request';

/** docs/vendors/tape.md#records: batch create/update take at most 50 inputs. */
export const MAX_BATCH_INPUTS = 50;
/** docs/vendors/tape.md#records: related records default to and cap at 1000; relatable search returns at most 10. */
export const MAX_RELATED = 1000;
export const MAX_FIND = 10;

type Json = Record<string, unknown>;
const isRelation = (f: TapeField) => f.field_type === 'single_relation' || f.field_type === 'multi_relation';
const refApps = (f: TapeField) => ((f.config.settings.referenced_apps as { app_id: number }[] | undefined) ?? []).map((r) => r.app_id);
const relatedIds = (row: TapeRecordRow, f: TapeField) => (row.values.get(f.field_id) ?? []).map((v: TapeValue) => (v.value as { record_id: number }).record_id);

/** Re-throws a validation problem of one batch input with its index in front. */
function atIndex<T>(i: number, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof TapeHttpError) throw new TapeHttpError(err.status, err.code, `inputs[${i}]: ${err.message}`, err.extra);
    throw err;
  }
}

/** /v1/record and /v1/comment, as docs/vendors/tape.md#records, #record-revisions and #record-comments document them. */
/** `now`: the twin's clock (record and comment times, relative filter dates). */
export function recordRoutes(state: TapeState, now: () => number = Date.now) {
  const r = new Hono<TwinEnv>();

  const writeFlags = (c: Parameters<typeof queryFlag>[0]) => {
    const { hook, workflow } = queryFlags(c, { silent: false, hook: true, workflow: true });
    return { user: c.get('user'), hook, workflow, now: new Date(now()) };
  };

  // --- create, list ---

  r.post('/record/app/batch/:appId', async (c) => {
    const app = recordWritableApp(state, idParam(c, 'appId'), c.get('user'));
    const o = writeFlags(c);
    const inputs = batchInputs(await jsonBody(c));
    const prepared = inputs.map((input, i) => atIndex(i, () => prepareCreate(state, app, input.fields, o.now)));
    const rows = prepared.map((values) => insertRecord(state, app, values, o));
    return c.json({ records: rows.map((row) => recordWire(state, row)) });
  });

  r.put('/record/app/batch/:appId', async (c) => {
    const app = recordWritableApp(state, idParam(c, 'appId'), c.get('user'));
    const o = writeFlags(c);
    const empty = queryFlag(c, 'empty_response', false);
    const inputs = batchInputs(await jsonBody(c));
    const seen = new Set<number>();
    const prepared = inputs.map((input, i) =>
      atIndex(i, () => {
        const id = input.record_id;
        if (typeof id !== 'number' || !Number.isInteger(id)) throw validation('"record_id" is required and must be a number.');
        if (seen.has(id)) throw validation(`record ${id} appears twice in the batch.`);
        seen.add(id);
        const { row } = findRecord(state, id, o.user);
        if (row.app_id !== app.app_id) throw validation(`record ${id} belongs to app ${row.app_id}, not to app ${app.app_id}.`);
        return { row, next: prepareUpdate(state, app, row, input.fields, o.now) };
      }),
    );
    const rows = prepared.map(({ row, next }) => applyUpdate(state, app, row, next, o));
    return c.json({ records: empty ? [] : rows.map((row) => recordWire(state, row)) });
  });

  r.post('/record/app/:appId', async (c) => {
    const app = recordWritableApp(state, idParam(c, 'appId'), c.get('user'));
    const o = writeFlags(c);
    const body = await jsonBody(c);
    return c.json(recordWire(state, createRecord(state, app, body.fields, o)));
  });

  r.get('/record/app/:appId', (c) => {
    const app = readableApp(state, idParam(c, 'appId'), c.get('user'));
    const limit = queryLimit(c, 50, 500);
    const sorted = sortRecords(appRecords(state, app.app_id), app, c.req.query('sort_by') || undefined, queryFlag(c, 'sort_desc', false));
    const { total, cursor, page } = paginate(sorted, limit, c.req.query('cursor'));
    return c.json({ total, cursor, records: page.map((row) => recordWire(state, row)) });
  });

  // docs/vendors/tape.md#record-filters: filters in the body; limit, cursor and sorting in the query string (docs/vendors/tape.md#records).
  r.post('/record/filter/app/:appId', async (c) => {
    const u = c.get('user');
    const app = readableApp(state, idParam(c, 'appId'), u);
    const limit = queryLimit(c, 50, 500);
    const sortBy = c.req.query('sort_by') || undefined;
    const desc = queryFlag(c, 'sort_desc', false);
    const body = await jsonBody(c);
    const filters = validateFilters(app, body.filters);
    const ctx = { userId: u.user_id, now: new Date(now()) };
    const matching = appRecords(state, app.app_id).filter((row) => recordMatches(row, app, filters, ctx));
    const { total, cursor, page } = paginate(sortRecords(matching, app, sortBy, desc), limit, c.req.query('cursor'));
    return c.json({ total, cursor, records: page.map((row) => recordWire(state, row)) });
  });

  // docs/vendors/tape.md#records: the view's filters and sort order; limit and cursor in the query.
  r.get('/record/view/:viewId', (c) => {
    const u = c.get('user');
    const id = idParam(c, 'viewId');
    const view = getView(state, id);
    if (!view || (view.private && view.owner_id !== u.user_id)) throw notFound(`View does not exist(${id})!`);
    const app = readableApp(state, view.app_id, u);
    const ctx = { userId: u.user_id, now: new Date(now()) };
    const matching = appRecords(state, app.app_id).filter((row) => recordMatches(row, app, view.filters as TapeFilter[], ctx));
    const sortBy = view.sort_by === null ? undefined : app.fields.find((f) => f.field_id === view.sort_by)?.external_id;
    const { total, cursor, page } = paginate(sortRecords(matching, app, sortBy, view.sort_desc), queryLimit(c, 50, 500), c.req.query('cursor'));
    return c.json({ total, cursor, records: page.map((row) => recordWire(state, row)) });
  });

  // --- related and relatable records ---

  r.post('/record/app/:appId/ref/:refAppId', async (c) => {
    const u = c.get('user');
    const app = readableApp(state, idParam(c, 'appId'), u);
    const refApp = readableApp(state, idParam(c, 'refAppId'), u);
    const limit = queryLimit(c, MAX_RELATED, MAX_RELATED);
    const body = await jsonBody(c);
    const ids = body.recordIds;
    if (!Array.isArray(ids) || ids.length === 0 || !ids.every((x) => typeof x === 'number' && Number.isInteger(x))) {
      throw validation('"recordIds" is required: a non-empty array of ids of records of app ' + app.app_id + '.');
    }
    const direction = body.direction ?? 'both';
    if (direction !== 'forward' && direction !== 'reverse' && direction !== 'both') throw validation('"direction" must be one of "forward", "reverse", "both".');
    let fieldFilter: Set<number> | undefined;
    if (body.relationFieldIds !== undefined && body.relationFieldIds !== null) {
      if (!Array.isArray(body.relationFieldIds) || !body.relationFieldIds.every((x) => typeof x === 'number')) throw validation('"relationFieldIds" must be an array of field ids.');
      fieldFilter = new Set(body.relationFieldIds as number[]);
      for (const id of fieldFilter) {
        if (![...app.fields, ...refApp.fields].some((f) => f.field_id === id && isRelation(f))) throw validation(`relationFieldIds: ${id} is not a relation field of app ${app.app_id} or ${refApp.app_id}.`);
      }
    }
    const sources = ids.map((id: number) => {
      const row = state.records.get(id);
      if (!row || row.purged || row.deleted_on || row.app_id !== app.app_id) throw validation(`recordIds: record ${id} is not a record of app ${app.app_id}.`);
      return row;
    });
    const use = (f: TapeField) => isRelation(f) && (!fieldFilter || fieldFilter.has(f.field_id));
    const found = new Set<number>();
    if (direction !== 'reverse') {
      for (const f of app.fields.filter((x) => use(x) && refApps(x).includes(refApp.app_id))) {
        for (const row of sources) for (const id of relatedIds(row, f)) found.add(id);
      }
    }
    if (direction !== 'forward') {
      const wanted = new Set(sources.map((s) => s.record_id));
      const fields = refApp.fields.filter((x) => use(x) && refApps(x).includes(app.app_id));
      for (const row of appRecords(state, refApp.app_id)) {
        if (fields.some((f) => relatedIds(row, f).some((id) => wanted.has(id)))) found.add(row.record_id);
      }
    }
    const rows = [...found]
      .map((id) => state.records.get(id))
      .filter((row): row is TapeRecordRow => !!row && row.app_id === refApp.app_id && !row.deleted_on && !row.purged)
      .sort((a, b) => b.record_id - a.record_id)
      .slice(0, limit);
    return c.json({ total: rows.length, records: rows.map((row) => recordWire(state, row)) });
  });

  r.get('/record/field/:fieldId/find', (c) => {
    const u = c.get('user');
    const fieldId = idParam(c, 'fieldId');
    let field: TapeField | undefined;
    for (const a of state.apps.values()) {
      if (!workspaceVisible(state, state.workspaces.get(a.workspace_id), u)) continue;
      field = a.fields.find((f) => f.field_id === fieldId) ?? field;
    }
    if (!field) throw notFound(`Field does not exist(${fieldId})!`);
    if (!isRelation(field)) throw validation(`Field ${fieldId} is a ${field.field_type} field; relatable records exist only for single_relation and multi_relation fields.`);
    const text = (c.req.query('text') ?? '').trim().toLowerCase();
    const rows: TapeRecordRow[] = [];
    for (const appId of refApps(field)) {
      const target = state.apps.get(appId);
      if (!target || !workspaceVisible(state, state.workspaces.get(target.workspace_id), u)) continue;
      rows.push(...appRecords(state, appId).filter((row) => row.title.toLowerCase().includes(text)));
    }
    const page = rows.sort((a, b) => b.record_id - a.record_id).slice(0, MAX_FIND);
    return c.json({ total: page.length, records: page.map((row) => recordWire(state, row, { fields: false })) });
  });

  // --- one record ---

  r.get('/record/:id', (c) => {
    const { row } = findRecord(state, idParam(c, 'id'), c.get('user'), queryFlag(c, 'include_deleted', false));
    return c.json(recordWire(state, row));
  });

  r.put('/record/:id', async (c) => {
    const o = writeFlags(c);
    const { row } = findRecord(state, idParam(c, 'id'), o.user);
    const app = recordWritableApp(state, row.app_id, o.user);
    const body = await jsonBody(c);
    return c.json(recordWire(state, updateRecord(state, app, row, body.fields, o)));
  });

  r.delete('/record/:id', (c) => {
    const u = c.get('user');
    const id = idParam(c, 'id');
    const { hook } = queryFlags(c, { silent: false, hook: true });
    const skipTrash = queryFlag(c, 'skip_trash', false);
    const { row } = findRecord(state, id, u, true);
    recordWritableApp(state, row.app_id, u);
    return c.json(recordWire(state, deleteRecord(state, row, { user: u, hook, skipTrash, now: new Date(now()) })));
  });

  r.post('/record/:id/restore', (c) => {
    const u = c.get('user');
    const { hook } = queryFlags(c, { silent: false, hook: true });
    const { row } = findRecord(state, idParam(c, 'id'), u, true);
    recordWritableApp(state, row.app_id, u);
    return c.json(recordWire(state, restoreRecord(state, row, { user: u, hook, now: new Date(now()) })));
  });

  // --- revisions (docs/vendors/tape.md#record-revisions) ---

  r.get('/record/:id/revision', (c) => {
    const { row } = findRecord(state, idParam(c, 'id'), c.get('user'), queryFlag(c, 'include_deleted', false));
    const revisions = recordRevisions(state, row.record_id).map((rev) => {
      const by = state.users.get(rev.created_by);
      return {
        created_by: rev.actor ? { automation_id: rev.actor.automation_id, name: rev.actor.name, type: 'automation', image: null } : { user_id: rev.created_by, name: by?.name ?? 'Unknown user', type: 'user', image: null },
        created_on: rev.created_on,
        type: rev.type,
        revision: rev.revision,
      };
    });
    return c.json({ total: revisions.length, revisions });
  });

  r.get('/record/:id/revision/previous/:rev', (c) => {
    const { row, app } = findRecord(state, idParam(c, 'id'), c.get('user'), true);
    const to = idParam(c, 'rev');
    const revisions = recordRevisions(state, row.record_id);
    const rev = revisions[to];
    if (!rev) throw notFound(`Revision ${to} of record ${row.record_id} does not exist (revisions 0 to ${revisions.length - 1}).`);
    if (to === 0) throw validation(`Revision 0 is the creation of record ${row.record_id}; it has no previous revision.`);
    const deltas = rev.deltas.flatMap((d) => {
      const f = app.fields.find((x) => x.field_id === d.field_id);
      if (!f) return [];
      return [{
        from: d.from,
        external_id: f.external_id,
        field_id: f.field_id,
        label: f.label,
        to: d.to,
        type: FIELD_TYPES[f.field_type]?.valueType ?? f.type,
        field_type: f.field_type,
        config: { description: f.config.description, required: f.config.required, label: f.config.label },
      }];
    });
    return c.json({ record_id: row.record_id, from_revision_id: to - 1, to_revision_id: to, revision_deltas: deltas });
  });

  // --- comments (docs/vendors/tape.md#record-comments) ---

  const commentOf = (c: Parameters<typeof idParam>[0]) => {
    const id = idParam(c, 'commentId');
    const comment = findComment(state, id);
    const row = comment && state.records.get(comment.record_id);
    const app = row && state.apps.get(row.app_id);
    if (!comment || !row || row.purged || !app || !workspaceVisible(state, state.workspaces.get(app.workspace_id), c.get('user'))) {
      throw notFound(`Comment does not exist(${id})!`);
    }
    return comment;
  };

  r.post('/comment/record/:recordId', async (c) => {
    const u = c.get('user');
    const { hook } = queryFlags(c, { silent: false, hook: true });
    const { row } = findRecord(state, idParam(c, 'recordId'), u);
    const body = await jsonBody(c);
    return c.json(commentWire(state, createComment(state, row, { value: body.value, file_ids: body.file_ids }, { user: u, hook, now: new Date(now()) })));
  });

  r.get('/comment/record/:recordId', (c) => {
    const { row } = findRecord(state, idParam(c, 'recordId'), c.get('user'));
    const limit = queryLimit(c, 50, 100);
    const all = recordComments(state, row.record_id).sort((a, b) => a.comment_id - b.comment_id);
    const { total, cursor, page } = paginate(all, limit, c.req.query('cursor'));
    return c.json({ total, cursor, comments: page.map((x) => commentWire(state, x)) });
  });

  r.get('/comment/:commentId', (c) => c.json(commentWire(state, commentOf(c))));

  r.delete('/comment/:commentId', (c) => {
    const comment = commentOf(c);
    const { hook } = queryFlags(c, { silent: false, hook: true });
    deleteComment(state, comment, { user: c.get('user'), hook });
    return c.json({});
  });

  return r;
}

function batchInputs(body: Json): Json[] {
  const inputs = body.inputs;
  if (!Array.isArray(inputs) || inputs.length === 0) throw validation('"inputs" is required: a non-empty array of {"fields": {…}} objects.');
  if (inputs.length > MAX_BATCH_INPUTS) throw validation(`"inputs" holds ${inputs.length} records; at most ${MAX_BATCH_INPUTS} can be processed in one batch.`);
  return inputs.map((input, i) => {
    if (!isObject(input)) throw validation(`inputs[${i}] must be an object with "fields".`);
    return input;
  });
}
