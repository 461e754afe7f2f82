import { Hono } from 'hono';
import type { Clock } from '../../kit';
import { attachFile, copyFile, createEmbed, mimetypeOf, placeOf, removeFile, replaceFile } from '../files';
import { forbidden, idParam, invalid, jsonBody, notFound, paging, writeFlags, type TwinContext, type TwinEnv } from '../http';
import { appFor, itemFor } from '../items';
import { taskFor } from '../tasks';
import { nextId, podioDateTime, type PodioFileRow, type PodioState } from '../state';
import { embedOut, fileOut, titleOf } from '../values';
import { slashAware } from './both';

const FILETYPES = ['image', 'application', 'video', 'text', 'audio'];
const ATTACHED_TO = ['item', 'status', 'task', 'space', 'comment'];

/** Embeds and files (docs/vendors/podio.md#field-types embed, docs/spec.md#errors): upload, read, list, attach, copy, update, replace, download through `link`, delete. */
export function fileRoutes(state: PodioState, clock: Clock) {
  const r = new Hono<TwinEnv>();
  const route = slashAware(r);
  const itemTitle = (itemId: number) => titleOf(state, state.items.get(itemId)!);
  /** A file as Podio shows it, with copyFile's external_id and replace's `replaces`; listings add the context's title. */
  const out = (f: PodioFileRow, base: string, listed = false) => {
    const o = fileOut(state, f.file_id, base)!;
    const context = f.context && listed ? { ...f.context, title: placeOf(state, f.context, itemTitle).title } : o.context;
    return { ...o, external_id: f.external_id ?? null, context, replaces: (f.replaces ?? []).map((file_id) => ({ file_id })) };
  };

  /** GET /file/app|space/{id}/ (docs/vendors/podio.md#files): the files on the objects of an app or space, with paging, filters and sort. */
  function listing(c: TwinContext, where: (f: PodioFileRow) => boolean) {
    const q = c.req.query();
    if (q.attached_to !== undefined && !ATTACHED_TO.includes(q.attached_to)) throw invalid(`"attached_to" is one of ${ATTACHED_TO.join(', ')}; got "${q.attached_to}".`);
    if (q.filetype !== undefined && !FILETYPES.includes(q.filetype)) throw invalid(`"filetype" is one of ${FILETYPES.join(', ')}; got "${q.filetype}".`);
    if (q.sort_by !== undefined && q.sort_by !== 'name' && q.sort_by !== 'created_on') throw invalid(`"sort_by" is name or created_on; got "${q.sort_by}".`);
    const { limit, offset } = paging(c, { default: 20, max: 100 });
    const desc = q.sort_desc === undefined ? q.sort_by !== 'name' : q.sort_desc === 'true';
    const key = (f: PodioFileRow) => (q.sort_by === 'name' ? f.name.toLowerCase() : `${f.created_on} ${String(f.file_id).padStart(12, '0')}`);
    const files = [...state.files.values()]
      .filter((f) => f.context && where(f))
      .filter((f) => !q.attached_to || f.context!.type === q.attached_to)
      .filter((f) => !q.filetype || f.mimetype.startsWith(`${q.filetype}/`))
      .sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0) * (desc ? -1 : 1));
    return c.json(files.slice(offset, offset + limit).map((f) => out(f, c.get('base'), true)));
  }

  route.get('/file/app/:app_id/', (c) => {
    const app = appFor(state, c.get('user'), idParam(c, 'app_id'));
    return listing(c, (f) => placeOf(state, f.context, itemTitle).app_id === app.app_id);
  });

  route.get('/file/space/:space_id/', (c) => {
    const spaceId = idParam(c, 'space_id');
    if (!state.spaces.has(spaceId)) throw notFound();
    if (!c.get('user').spaces.includes(spaceId)) throw forbidden(`The user ${c.get('user').user_id} does not have the right "view" on space ${spaceId}`);
    return listing(c, (f) => placeOf(state, f.context, itemTitle).space_id === spaceId);
  });

  /** The file, if it exists (404) and, when attached to an item, the user sees that item. */
  function file(c: TwinContext) {
    const f = state.files.get(idParam(c, 'file_id'));
    if (!f) throw notFound();
    if (f.context?.type === 'item') itemFor(state, c.get('user'), f.context.id);
    else if (f.context?.type === 'space' && !c.get('user').spaces.includes(f.context.id)) throw forbidden(`The user does not have the right "view" on file ${f.file_id}`);
    return f;
  }

  route.post('/embed/', async (c) => {
    const body = await jsonBody(c);
    return c.json(embedOut(state, createEmbed(state, body.url, clock.now()).embed_id));
  });

  const upload = async (c: TwinContext) => {
    const type = c.req.header('content-type') ?? '';
    if (!/multipart\/form-data/i.test(type)) throw invalid('Upload a file as multipart/form-data with the parts "source" (the bytes) and "filename".');
    const form = await c.req.parseBody();
    const source = form.source;
    if (!(source instanceof Blob)) throw invalid('The part "source" (the file\'s bytes) is missing.');
    const name = typeof form.filename === 'string' && form.filename.trim() ? form.filename.trim() : source instanceof File ? source.name : '';
    if (!name) throw invalid('The part "filename" is missing.');
    const now = clock.now();
    const file_id = nextId(state, 'file');
    state.files.set(file_id, { file_id, name, mimetype: mimetypeOf(name, source.type), content: new Uint8Array(await source.arrayBuffer()), description: null, created_on: podioDateTime(now), uploaded_at: now, created_by: c.get('user').user_id, context: null });
    return c.json(out(state.files.get(file_id)!, c.get('base')));
  };
  route.post('/file/', upload);
  route.post('/file/v2/', upload);

  route.get('/file/:file_id', (c) => c.json(out(file(c), c.get('base'))));

  route.post('/file/:file_id/copy', (c) => c.json({ file_id: copyFile(state, file(c).file_id, c.get('user').user_id, clock.now()) }));

  /** PUT /file/{id} {description} (docs/vendors/podio.md#files); `name` is read too (an extension: Podio documents the description only). */
  route.put('/file/:file_id', async (c) => {
    const f = file(c);
    const body = await jsonBody(c);
    if (body.description !== undefined && body.description !== null && typeof body.description !== 'string') throw invalid('"description" must be a string.');
    if (body.name !== undefined && (typeof body.name !== 'string' || body.name.trim() === '')) throw invalid('"name" must be a non-empty string.');
    if (body.description !== undefined) f.description = (body.description as string | null) || null;
    if (typeof body.name === 'string') f.name = body.name.trim();
    return c.body(null, 204);
  });

  /** POST /file/{new_file_id}/replace {old_file_id} (docs/vendors/podio.md#files). */
  route.post('/file/:file_id/replace', async (c) => {
    const fresh = file(c);
    writeFlags(c);
    const body = await jsonBody(c);
    const oldId = body.old_file_id;
    if (!(Number.isInteger(oldId) && (oldId as number) > 0)) throw invalid(`"old_file_id" must be an integer file id, got ${JSON.stringify(oldId)}.`);
    const old = state.files.get(oldId as number);
    if (!old) throw notFound();
    if (old.context?.type === 'item') itemFor(state, c.get('user'), old.context.id);
    replaceFile(state, fresh.file_id, old.file_id);
    return c.body(null, 204);
  });

  route.get('/file/:file_id/raw', (c) => {
    const f = file(c);
    return c.body(f.content as Uint8Array<ArrayBuffer>, 200, { 'content-type': f.mimetype, 'content-disposition': `attachment; filename="${encodeURIComponent(f.name)}"` });
  });

  route.post('/file/:file_id/attach', async (c) => {
    const f = file(c);
    writeFlags(c);
    const body = await jsonBody(c);
    const refId = body.ref_id;
    if (!(Number.isInteger(refId) && (refId as number) > 0)) throw invalid(`"ref_id" must be an integer id, got ${JSON.stringify(refId)}.`);
    const id = refId as number;
    const u = c.get('user');
    switch (body.ref_type) {
      case 'item': {
        const item = itemFor(state, u, id);
        attachFile(state, f.file_id, { type: 'item', id });
        if (!item.file_ids.includes(f.file_id)) item.file_ids.push(f.file_id);
        break;
      }
      case 'comment': {
        const comment = state.comments.get(id);
        if (!comment) throw notFound();
        if (comment.ref.type === 'item') itemFor(state, u, comment.ref.id);
        attachFile(state, f.file_id, { type: 'comment', id });
        if (!comment.file_ids.includes(f.file_id)) comment.file_ids.push(f.file_id);
        break;
      }
      case 'space':
        if (!state.spaces.has(id)) throw notFound();
        if (!u.spaces.includes(id)) throw forbidden(`The user ${u.user_id} does not have the right "add_file" on space ${id}`);
        attachFile(state, f.file_id, { type: 'space', id });
        break;
      case 'task': {
        const task = taskFor(state, u, id);
        attachFile(state, f.file_id, { type: 'task', id });
        if (!task.file_ids.includes(f.file_id)) task.file_ids.push(f.file_id);
        break;
      }
      case 'status':
        // No status messages exist in this sandbox.
        throw notFound();
      default:
        throw invalid(`"ref_type" is one of item, comment, space, task, status; got ${JSON.stringify(body.ref_type)}.`);
    }
    return c.body(null, 204);
  });

  route.delete('/file/:file_id', (c) => {
    const f = file(c);
    writeFlags(c);
    removeFile(state, f.file_id);
    return c.body(null, 204);
  });

  return r;
}
