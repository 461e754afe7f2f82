import type { Clock } from '../../kit';
import { md5 } from '../files';
import { badRequest, conflict, entity, entityUrl, feed, flag, forbidden, jsonBody, MODELS, notFound, str, type Json, type Route, type SfContext } from '../http';
import { iso, isVirtualRoot, ITEM_PROPERTIES, itemWith, perms, renderItem, renderRoot, resolveItem, virtualChildren, type VirtualRoot } from '../model';
import { childRows, descendants, isCurrent, liveChildren, nextId, type SfAsyncOperation, type SfItem, type SfState, type SfUser } from '../state';

/** A folder copy with more items than this answers an AsyncOperation, as a long copy does in ShareFile. */
export const ASYNC_COPY_THRESHOLD = 20;
/** How long a download token (DownloadSpecification) stays valid. */
export const DOWNLOAD_TOKEN_TTL_MS = 15 * 60_000;
/** How long an upload spec's ChunkUri accepts the bytes. */
export const UPLOAD_TTL_MS = 60 * 60_000;

const user = (c: SfContext) => c.get('user');

/** A real folder the caller can write into with `right` (the virtual roots are not: except allshared for folders). */
function folderFor(state: SfState, u: SfUser, key: string, right: 'upload' | 'view'): SfItem {
  const item = itemWith(state, u, key, right);
  if (item.kind !== 'folder') throw badRequest(`Item ${item.id} is a file, not a folder.`);
  return item;
}

/** The live child named `name` (case-insensitive) in a folder, if any. */
export function clashIn(state: SfState, folderId: string, name: string, except?: string): SfItem | undefined {
  return liveChildren(state, folderId).find((i) => i.id !== except && i.name.toLowerCase() === name.toLowerCase());
}

function recycle(state: SfState, item: SfItem, now: number): void {
  item.deleted = true;
  item.edited = now;
  if (item.kind === 'file') for (const v of state.items.values()) if (v.streamId === item.streamId) v.deleted = true;
}

/** A deep copy of `item` into `targetId`; returns the new top item. */
function copyTree(state: SfState, u: SfUser, item: SfItem, targetId: string, now: number): SfItem {
  const id = nextId(state, item.kind === 'folder' ? 'folder' : 'file');
  const copy: SfItem = { ...item, id, parentId: targetId, creatorId: u.id, created: now, edited: now, streamId: `st${id.slice(2)}`, version: 1, homeOf: undefined, boxOf: undefined };
  state.items.set(id, copy);
  if (item.kind === 'folder') for (const child of liveChildren(state, item.id)) copyTree(state, u, child, id, now);
  return copy;
}

function renderAsync(c: SfContext, op: SfAsyncOperation, state: string): Json {
  return {
    'odata.type': `${MODELS}.AsyncOperation`,
    Id: op.id,
    url: entityUrl(c, 'AsyncOperations', op.id),
    Operation: op.operation,
    State: state,
    Source: { Id: op.sourceId },
    Target: { Id: op.targetId },
    CreationDate: iso(op.created),
    UpdateDate: iso(op.created),
    BatchID: op.id,
    BatchProgress: state === 'Completed' ? 1 : 0,
    BatchState: state,
    BatchTotal: 1,
  };
}

export function itemRoutes(state: SfState, clock: Clock): Route[] {
  const one = (c: SfContext, key: string): Response => {
    const u = user(c);
    const includeDeleted = flag(c, 'includeDeleted', false);
    const expand = (c.req.query('$expand') ?? '').split(',').map((s) => s.trim());
    if (isVirtualRoot(key.toLowerCase())) {
      const root = key.toLowerCase() as VirtualRoot;
      const out = renderRoot(c, state, u, root);
      if (expand.includes('Children')) out.Children = virtualChildren(state, u, root).map((i) => renderItem(c, state, u, i));
      return entity(c, 'Items', out);
    }
    const item = itemWith(state, u, key, 'view', includeDeleted);
    const out = renderItem(c, state, u, item);
    if (expand.includes('Children') && item.kind === 'folder') out.Children = childrenOf(u, item, includeDeleted).map((i) => renderItem(c, state, u, i));
    const select = c.req.query('$select');
    if (select) {
      const keep = select.split(',').map((s) => s.trim());
      for (const k of Object.keys(out)) if (!k.startsWith('odata.') && k !== 'Id' && !keep.includes(k)) delete out[k];
    }
    return entity(c, 'Items', out);
  };

  const childrenOf = (u: SfUser, folder: SfItem, includeDeleted: boolean): SfItem[] => {
    const live = liveChildren(state, folder.id);
    // A recycled file shows once (its newest version), and only when no live version remains.
    const gone = includeDeleted ? childRows(state, folder.id).filter((i) => i.deleted && isCurrent(state, i)) : [];
    return [...live, ...gone].filter((i) => perms(state, u, i).view);
  };

  const children = (c: SfContext, key: string): Response => {
    const u = user(c);
    const includeDeleted = flag(c, 'includeDeleted', false);
    let list: SfItem[];
    if (key.toLowerCase() === 'top') {
      // The top-level containers: the caller's home folder (employees), then the alias roots.
      const home = u.homeId ? [renderItem(c, state, u, state.items.get(u.homeId)!)] : [];
      const roots = (['favorites', 'allshared', 'connectors'] as const).map((r) => renderRoot(c, state, u, r));
      return feed(c, 'Items', [...home, ...roots], ITEM_PROPERTIES);
    }
    if (isVirtualRoot(key.toLowerCase())) list = virtualChildren(state, u, key.toLowerCase() as VirtualRoot);
    else {
      const folder = itemWith(state, u, key, 'view');
      if (folder.kind !== 'folder') throw badRequest(`Item ${folder.id} is a file: it has no children.`);
      list = childrenOf(u, folder, includeDeleted);
    }
    return feed(c, 'Items', list.map((i) => renderItem(c, state, u, i)), ITEM_PROPERTIES);
  };

  const createFolder = async (c: SfContext, key: string): Promise<Response> => {
    const u = user(c);
    const body = await jsonBody(c);
    const name = str(body, 'Name')?.trim();
    if (!name) throw badRequest('Name is required.');
    if (/[\\/:*?"<>|]/.test(name)) throw badRequest(`The name "${name}" contains a character ShareFile does not allow (\\ / : * ? " < > |).`);
    let parentId: string;
    if (key.toLowerCase() === 'allshared') {
      if (!u.employee || !u.canCreateFolders) throw forbidden('You do not have permission to create shared folders.');
      parentId = 'allshared';
    } else parentId = folderFor(state, u, key, 'upload').id;
    const now = clock.now();
    const existing = clashIn(state, parentId, name);
    if (existing) {
      if (!flag(c, 'overwrite', false)) throw conflict(`An item named "${existing.name}" already exists in this folder (${existing.id}).`);
      recycle(state, existing, now);
    }
    const id = nextId(state, 'folder');
    const folder: SfItem = {
      id, kind: 'folder', name, description: str(body, 'Description') ?? '', parentId, creatorId: u.id, created: now, edited: now,
      expiration: str(body, 'ExpirationDate') ?? null, deleted: false, streamId: `st${id.slice(2)}`, version: 1,
    };
    state.items.set(id, folder);
    return entity(c, 'Items', renderItem(c, state, u, folder));
  };

  const update = async (c: SfContext, key: string): Promise<Response> => {
    const u = user(c);
    const item = itemWith(state, u, key, 'upload');
    if (item.homeOf || item.boxOf) throw forbidden('A home folder or File Box cannot be renamed or moved.');
    const body = await jsonBody(c);
    const name = str(body, 'Name')?.trim() ?? str(body, 'FileName')?.trim();
    const parent = body.Parent as { Id?: unknown } | undefined;
    const targetId = parent && typeof parent.Id === 'string' ? parent.Id : undefined;
    let target = item.parentId;
    if (targetId !== undefined && targetId !== item.parentId) {
      if (targetId.toLowerCase() === 'allshared' && item.kind === 'folder' && u.employee && u.canCreateFolders) target = 'allshared';
      else target = folderFor(state, u, targetId, 'upload').id;
      if (!perms(state, u, item).delete) throw forbidden('Moving needs the right to delete the item from its folder.');
      if (target === item.id || descendants(state, item.id).some((d) => d.id === target)) throw badRequest('A folder cannot be moved into itself.');
    }
    const newName = name ?? item.name;
    if (target !== item.parentId || newName.toLowerCase() !== item.name.toLowerCase()) {
      const clash = clashIn(state, target, newName, item.id);
      if (clash) throw conflict(`An item named "${clash.name}" already exists in the target folder (${clash.id}).`);
    }
    const expiration = body.ExpirationDate;
    if (expiration !== undefined && expiration !== null && (typeof expiration !== 'string' || !Number.isFinite(Date.parse(expiration)))) throw badRequest('ExpirationDate must be an ISO 8601 date.');
    item.name = newName;
    if (typeof body.Description === 'string') item.description = body.Description;
    if (typeof expiration === 'string') item.expiration = new Date(expiration).toISOString();
    if (item.kind === 'file' && target !== item.parentId) for (const v of state.items.values()) if (v.streamId === item.streamId) v.parentId = target;
    item.parentId = target;
    item.edited = clock.now();
    return entity(c, 'Items', renderItem(c, state, u, item));
  };

  const remove = (c: SfContext, key: string): Response => {
    const u = user(c);
    const item = itemWith(state, u, key, 'delete');
    if (item.homeOf || item.boxOf) throw forbidden('A home folder or File Box cannot be deleted.');
    const now = clock.now();
    if (flag(c, 'singleversion', false) && item.kind === 'file') {
      // Only this version goes; the previous one (if any) becomes the current file again.
      item.deleted = true;
      item.edited = now;
    } else recycle(state, item, now);
    return c.body(null, 204);
  };

  const copy = (c: SfContext, key: string): Response => {
    const u = user(c);
    const item = itemWith(state, u, key, 'download');
    const targetKey = c.req.query('targetid') ?? c.req.query('targetId');
    if (!targetKey) throw badRequest('targetid is required.');
    const target = folderFor(state, u, targetKey, 'upload');
    if (item.kind === 'folder' && (target.id === item.id || descendants(state, item.id).some((d) => d.id === target.id))) throw badRequest('A folder cannot be copied into itself.');
    const now = clock.now();
    const clash = clashIn(state, target.id, item.name);
    if (clash) {
      if (!flag(c, 'overwrite', false)) throw conflict(`An item named "${clash.name}" already exists in the target folder (${clash.id}).`);
      recycle(state, clash, now);
    }
    if (item.kind === 'folder' && descendants(state, item.id).length > ASYNC_COPY_THRESHOLD) {
      const op: SfAsyncOperation = { id: nextId(state, 'async'), operation: 'Copy', sourceId: item.id, targetId: target.id, resultId: '', created: now, pollsLeft: 2 };
      state.asyncOps.set(op.id, op);
      return c.json(renderAsync(c, op, 'Scheduled'));
    }
    return entity(c, 'Items', renderItem(c, state, u, copyTree(state, u, item, target.id, now)));
  };

  const asyncOp = (c: SfContext, key: string): Response => {
    const op = state.asyncOps.get(key);
    if (!op) throw notFound(`AsyncOperation ${key} not found.`);
    if (op.pollsLeft > 0) op.pollsLeft--;
    if (op.pollsLeft > 0) return c.json(renderAsync(c, op, 'InProcess'));
    if (!op.resultId) {
      const source = state.items.get(op.sourceId);
      const u = user(c);
      if (!source) throw notFound('The source of the operation is gone.');
      op.resultId = copyTree(state, u, source, op.targetId, clock.now()).id;
    }
    return c.json(renderAsync(c, op, 'Completed'));
  };

  const search = async (c: SfContext): Promise<Response> => {
    const u = user(c);
    const body = await jsonBody(c);
    const q = (body.Query ?? {}) as Json;
    const paging = (body.Paging ?? {}) as Json;
    const text = String(q.SearchQuery ?? '').trim().toLowerCase();
    const type = String(q.ItemType ?? '').toLowerCase();
    const parentId = String(q.ParentID ?? '');
    const nameOnly = q.ItemNameOnly === true;
    const count = typeof paging.Count === 'number' ? paging.Count : 50;
    const skip = typeof paging.Skip === 'number' ? paging.Skip : 0;
    let scope: SfItem[];
    if (parentId) {
      const root = resolveItem(state, u, parentId);
      scope = root.kind === 'folder' ? descendants(state, root.id) : [];
    } else scope = [...state.items.values()].filter((i) => !i.deleted && isCurrent(state, i) && !i.homeOf && !i.boxOf);
    const hits = scope
      .filter((i) => perms(state, u, i).view)
      .filter((i) => !type || (type === 'folder' ? i.kind === 'folder' : i.kind === 'file'))
      .filter((i) => !text || i.name.toLowerCase().includes(text) || (!nameOnly && (i.description.toLowerCase().includes(text) || (i.text ?? '').toLowerCase().includes(text))))
      .sort((a, b) => a.name.localeCompare(b.name));
    const results = hits.slice(skip, skip + count).map((i) => {
      const parent = state.items.get(i.parentId);
      const creator = state.users.get(i.creatorId);
      const p = perms(state, u, i);
      const rendered = renderItem(c, state, u, i);
      return {
        ItemID: i.id, ParentID: i.parentId, ParentName: parent?.name ?? (i.parentId === 'allshared' ? 'Shared Folders' : ''), ItemType: i.kind === 'folder' ? 'Folder' : 'File',
        FileName: i.name, DisplayName: i.name, Size: rendered.FileSizeBytes, CreatorID: i.creatorId, CreatorName: creator ? `${creator.firstName} ${creator.lastName}` : '',
        CreationDate: iso(i.created), Url: rendered.url, Path: rendered.Path, StreamID: i.streamId, Rank: 1, Score: 1, CanDownload: p.download, CanView: p.view, CanDelete: p.delete,
      };
    });
    return c.json({ 'odata.type': `${MODELS}.SearchResults`, PartialResults: false, TimedOut: false, TotalCount: hits.length, Results: results });
  };

  const download = (c: SfContext, key: string): Response => {
    const u = user(c);
    const item = itemWith(state, u, key, 'download');
    if (item.kind !== 'file') throw badRequest('Folder downloads (ZIP) are not offered by this twin: download the files.');
    const token = `dt${nextId(state, 'alias')}${Math.random().toString(36).slice(2, 10)}`;
    state.downloads.set(token, { itemId: item.id, expires: clock.now() + DOWNLOAD_TOKEN_TTL_MS });
    const url = `${c.get('links')}/download?dt=${token}`;
    if (flag(c, 'redirect', true)) return c.redirect(url, 302);
    return c.json({ 'odata.type': `${MODELS}.DownloadSpecification`, DownloadToken: token, DownloadUrl: url, DownloadPrepStartURL: null, DownloadPrepStatusURL: null });
  };

  const upload = async (c: SfContext, key: string): Promise<Response> => {
    const u = user(c);
    const folder = folderFor(state, u, key, 'upload');
    const body = await jsonBody(c);
    const fileName = str(body, 'FileName')?.trim();
    if (!fileName) throw badRequest('FileName is required.');
    const method = String(body.Method ?? 'Standard');
    if (method.toLowerCase() !== 'standard') throw badRequest(`Upload method "${method}" is not offered by this twin; use Standard.`);
    const overwrite = body.Overwrite === true;
    const clash = clashIn(state, folder.id, fileName);
    if (clash && (!overwrite || clash.kind === 'folder')) throw conflict(`An item named "${clash.name}" already exists in this folder (${clash.id}).`);
    const id = `up${nextId(state, 'alias')}`;
    state.uploads.set(id, { folderId: folder.id, userId: u.id, fileName, overwrite, description: str(body, 'Description') ?? '', expires: clock.now() + UPLOAD_TTL_MS });
    return c.json({
      'odata.type': `${MODELS}.UploadSpecification`, Method: 'Standard', PrepareUri: null, ChunkUri: `${c.get('base')}/upload-streaming/${id}?fmt=json`, FinishUri: null,
      ProgressData: null, IsResume: false, ResumeIndex: 0, ResumeOffset: 0, ResumeFileHash: '', MaxNumberOfThreads: 1,
    });
  };

  return [
    { method: 'GET', pattern: 'Items', handler: (c) => one(c, 'home') },
    { method: 'GET', pattern: 'Items(*)', handler: (c, [k]) => one(c, k!) },
    { method: 'GET', pattern: 'Items(*)/Children', handler: (c, [k]) => children(c, k!) },
    { method: 'POST', pattern: 'Items(*)/Folder', handler: (c, [k]) => createFolder(c, k!) },
    { method: 'PATCH', pattern: 'Items(*)', handler: (c, [k]) => update(c, k!) },
    { method: 'DELETE', pattern: 'Items(*)', handler: (c, [k]) => remove(c, k!) },
    { method: 'POST', pattern: 'Items(*)/Copy', handler: (c, [k]) => copy(c, k!) },
    { method: 'GET', pattern: 'AsyncOperations(*)', handler: (c, [k]) => asyncOp(c, k!) },
    { method: 'POST', pattern: 'Items/AdvancedSimpleSearch', handler: (c) => search(c) },
    { method: 'GET', pattern: 'Items(*)/Download', handler: (c, [k]) => download(c, k!) },
    { method: 'POST', pattern: 'Items(*)/Upload2', handler: (c, [k]) => upload(c, k!) },
  ];
}

/** Stores uploaded bytes as a file of the upload spec's folder: a new version when overwriting a file of that name. */
export function storeUpload(state: SfState, spec: { folderId: string; userId: string; fileName: string; overwrite: boolean; description: string }, bytes: Buffer, now: number): SfItem {
  const clash = clashIn(state, spec.folderId, spec.fileName);
  if (clash && (!spec.overwrite || clash.kind === 'folder')) throw conflict(`An item named "${clash.name}" already exists in this folder (${clash.id}).`);
  const id = nextId(state, 'file');
  const file: SfItem = {
    id, kind: 'file', name: spec.fileName, description: spec.description, parentId: spec.folderId, creatorId: spec.userId, created: now, edited: now, expiration: null,
    deleted: false, streamId: clash ? clash.streamId : `st${id.slice(2)}`, version: clash ? clash.version + 1 : 1, content: bytes, hash: md5(bytes),
    text: /^[\x09\x0a\x0d\x20-\x7e]*$/.test(bytes.subarray(0, 4096).toString('latin1')) ? bytes.toString('utf8').slice(0, 100_000) : undefined,
  };
  state.items.set(id, file);
  return file;
}
