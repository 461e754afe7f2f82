import { attachFile, checkedFileIds } from './files';
import { conflict, forbidden, gone, invalid, notFound } from './http';
import { byLine, CREATED_VIA, nextId, podioDateTime, type PodioAppRow, type PodioItemRow, type PodioState, type PodioUser, type StoredValue } from './state';
import { appMini, fieldsInput, fileOut, itemLink, titleOf, valuesOut } from './values';

/** Items: access, reads in Podio's shape, writes with a revision each (docs/vendors/podio.md#items). */

type Json = Record<string, unknown>;

export function canSeeSpace(user: PodioUser, spaceId: number): boolean {
  return user.spaces.includes(spaceId);
}

/** The app, if it exists (404) and the user is a member of its space (403). */
export function appFor(state: PodioState, user: PodioUser, appId: number): PodioAppRow {
  const app = state.apps.get(appId);
  if (!app) throw notFound();
  if (!canSeeSpace(user, app.space_id)) throw forbidden(`The user ${user.user_id} does not have the right "view" on app ${appId}`);
  return app;
}

/** The item, if it exists (404), was not deleted (410) and lies in a space of the user (403). */
export function itemFor(state: PodioState, user: PodioUser, itemId: number): PodioItemRow {
  if (state.deletedItems.has(itemId)) throw gone('Object has been deleted');
  const item = state.items.get(itemId);
  if (!item) throw notFound();
  appFor(state, user, item.app_id);
  return item;
}

const copyValues = (values: Map<number, StoredValue[]>) => new Map([...values].map(([k, v]) => [k, v.map((x) => ({ ...x }))]));

function revisionRef(state: PodioState, item: PodioItemRow, index: number) {
  const r = item.revisions[index]!;
  return { revision: r.revision, item_revision_id: r.item_revision_id, app_revision: 1, created_by: byLine(state.users.get(r.created_by)), created_via: CREATED_VIA, created_on: r.created_on, type: r.type };
}

/** The item's fields in Podio's output shape (non-empty ones, by delta). */
export function fieldsOut(state: PodioState, item: PodioItemRow, base: string) {
  const app = state.apps.get(item.app_id)!;
  return app.fields
    .filter((f) => f.status === 'active')
    .sort((a, b) => a.config.delta - b.config.delta)
    .map((f) => ({ field_id: f.field_id, type: f.type, external_id: f.external_id, label: f.label, config: f.config, values: valuesOut(state, app, f, item, base) }))
    .filter((f) => f.values.length > 0);
}

/** `GET /item/{id}` (docs/vendors/podio.md#items); the filter's items are the same without comments. */
export function itemOut(state: PodioState, item: PodioItemRow, base: string): Json {
  const app = state.apps.get(item.app_id)!;
  const current = item.revisions.length - 1;
  return {
    item_id: item.item_id,
    app: appMini(app),
    app_item_id: item.app_item_id,
    app_item_id_formatted: String(item.app_item_id),
    external_id: item.external_id,
    title: titleOf(state, item),
    link: itemLink(state, item),
    rights: ['view', 'update', 'delete', 'comment', 'rate', 'add_file', 'add_task'],
    created_on: item.created_on,
    created_by: byLine(state.users.get(item.created_by)),
    created_via: CREATED_VIA,
    initial_revision: revisionRef(state, item, 0),
    current_revision: revisionRef(state, item, current),
    revision: item.revisions[current]!.revision,
    last_event_on: item.last_event_on,
    fields: fieldsOut(state, item, base),
    files: item.file_ids.map((id) => fileOut(state, id, base)).filter((f) => f !== null),
    tags: [...item.tags],
  };
}

function tagsOf(raw: unknown): string[] | undefined {
  if (raw === undefined) return undefined;
  if (!Array.isArray(raw) || raw.some((t) => typeof t !== 'string')) throw invalid(`"tags" must be a list of strings, got ${JSON.stringify(raw)}.`);
  return [...new Set((raw as string[]).map((t) => t.trim()).filter(Boolean))];
}

function pushRevision(state: PodioState, item: PodioItemRow, user: PodioUser, now: number, type: 'creation' | 'update'): void {
  const revision = item.revisions.length;
  item.revisions.push({ revision, item_revision_id: nextId(state, 'revision'), created_on: podioDateTime(now), created_by: user.user_id, type, values: copyValues(item.values) });
  item.last_event_on = podioDateTime(now);
}

/** The files of image values still unattached: a write makes them the item's. */
function imageFileIds(state: PodioState, app: PodioAppRow, values: Map<number, StoredValue[]>): number[] {
  const ids: number[] = [];
  for (const f of app.fields) if (f.type === 'image') for (const v of values.get(f.field_id) ?? []) if (!state.files.get(v.file_id as number)?.context) ids.push(v.file_id as number);
  return ids;
}

export interface ItemWrite {
  fields?: unknown;
  external_id?: unknown;
  file_ids?: unknown;
  tags?: unknown;
  revision?: unknown;
}

/** POST /item/app/{app_id}/: checks everything before anything changes. */
export function createItem(state: PodioState, app: PodioAppRow, user: PodioUser, body: ItemWrite, now: number): PodioItemRow {
  const values = fieldsInput({ state, app }, body.fields ?? {});
  for (const f of app.fields) {
    if (f.status === 'active' && f.config.required && !(values.get(f.field_id)?.length)) throw invalid(`The field "${f.label}" (${f.external_id}) is required.`);
  }
  if (body.external_id !== undefined && body.external_id !== null && typeof body.external_id !== 'string') throw invalid('"external_id" must be a string.');
  const tags = tagsOf(body.tags) ?? [];
  const fileIds = checkedFileIds(state, body.file_ids, { type: 'item', id: null }) ?? [];
  for (const [k, v] of [...values]) if (v.length === 0) values.delete(k);
  const item: PodioItemRow = {
    item_id: nextId(state, 'item'),
    app_id: app.app_id,
    app_item_id: ++app.lastAppItemId,
    external_id: (body.external_id as string | undefined) ?? null,
    created_on: podioDateTime(now),
    created_by: user.user_id,
    last_event_on: podioDateTime(now),
    values,
    tags,
    file_ids: fileIds,
    revisions: [],
  };
  for (const id of [...fileIds, ...imageFileIds(state, app, values)]) attachFile(state, id, { type: 'item', id: item.item_id });
  pushRevision(state, item, user, now, 'creation');
  state.items.set(item.item_id, item);
  return item;
}

/** PUT /item/{id} (and the value endpoints): only the given fields change; a stale `revision` → 409. */
export function updateItem(state: PodioState, item: PodioItemRow, user: PodioUser, body: ItemWrite, now: number): { revision: number; title: string } {
  const app = state.apps.get(item.app_id)!;
  const current = item.revisions.length - 1;
  if (body.revision !== undefined && body.revision !== null) {
    if (!Number.isInteger(body.revision)) throw invalid('"revision" must be an integer.');
    if (body.revision !== current) throw conflict(`The item has been updated since revision ${body.revision as number}; the current revision is ${current}.`);
  }
  const changes = fieldsInput({ state, app }, body.fields ?? {});
  if (body.external_id !== undefined && body.external_id !== null && typeof body.external_id !== 'string') throw invalid('"external_id" must be a string.');
  const tags = tagsOf(body.tags);
  const fileIds = checkedFileIds(state, body.file_ids, { type: 'item', id: item.item_id });
  const before = JSON.stringify([...item.values], null, 0) + JSON.stringify([item.tags, item.external_id, item.file_ids]);
  for (const [k, v] of changes) {
    if (v.length === 0) item.values.delete(k);
    else item.values.set(k, v);
  }
  if (tags) item.tags = tags;
  if (body.external_id !== undefined) item.external_id = (body.external_id as string | null) ?? null;
  if (fileIds) {
    for (const id of fileIds) if (!item.file_ids.includes(id)) item.file_ids.push(id);
    for (const id of fileIds) attachFile(state, id, { type: 'item', id: item.item_id });
  }
  for (const id of imageFileIds(state, app, item.values)) attachFile(state, id, { type: 'item', id: item.item_id });
  const after = JSON.stringify([...item.values], null, 0) + JSON.stringify([item.tags, item.external_id, item.file_ids]);
  // Podio makes no revision for a write that changes nothing.
  if (after !== before) pushRevision(state, item, user, now, 'update');
  return { revision: item.revisions.length - 1, title: titleOf(state, item) };
}

/** POST /item/{id}/clone: the values and tags in a new item of the same app (files are not copied). */
export function cloneItem(state: PodioState, item: PodioItemRow, user: PodioUser, now: number): PodioItemRow {
  const app = state.apps.get(item.app_id)!;
  const copy: PodioItemRow = {
    ...item,
    item_id: nextId(state, 'item'),
    app_item_id: ++app.lastAppItemId,
    external_id: item.external_id,
    created_on: podioDateTime(now),
    created_by: user.user_id,
    values: copyValues(item.values),
    tags: [...item.tags],
    file_ids: [],
    revisions: [],
  };
  pushRevision(state, copy, user, now, 'creation');
  state.items.set(copy.item_id, copy);
  return copy;
}

export function deleteItem(state: PodioState, item: PodioItemRow): void {
  state.items.delete(item.item_id);
  state.deletedItems.add(item.item_id);
  for (const id of item.file_ids) state.files.delete(id);
  for (const [id, c] of state.comments) if (c.ref.type === 'item' && c.ref.id === item.item_id) state.comments.delete(id);
}
