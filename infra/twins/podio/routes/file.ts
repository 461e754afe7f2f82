import { Hono } from 'hono';
import type { Clock } from '../../kit';
import { attachFile, createEmbed, mimetypeOf } from '../files';
import { forbidden, idParam, invalid, jsonBody, notFound, writeFlags, type TwinContext, type TwinEnv } from '../http';
import { itemFor } from '../items';
import { nextId, podioDateTime, type PodioState } from '../state';
import { embedOut, fileOut } from '../values';
import { slashAware } from './both';

/** Embeds and files (podio.md §2 embed, §7): upload, read, attach, download through `link`, delete. */
export function fileRoutes(state: PodioState, clock: Clock) {
  const r = new Hono<TwinEnv>();
  const route = slashAware(r);

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
    return c.json(fileOut(state, file_id, c.get('base')));
  };
  route.post('/file/', upload);
  route.post('/file/v2/', upload);

  route.get('/file/:file_id', (c) => c.json(fileOut(state, file(c).file_id, c.get('base'))));

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
      case 'task':
      case 'status':
        // No tasks or status messages exist in this sandbox yet.
        throw notFound();
      default:
        throw invalid(`"ref_type" is one of item, comment, space, task, status; got ${JSON.stringify(body.ref_type)}.`);
    }
    return c.body(null, 204);
  });

  route.delete('/file/:file_id', (c) => {
    const f = file(c);
    writeFlags(c);
    state.files.delete(f.file_id);
    for (const item of state.items.values()) item.file_ids = item.file_ids.filter((id) => id !== f.file_id);
    for (const comment of state.comments.values()) comment.file_ids = comment.file_ids.filter((id) => id !== f.file_id);
    return c.body(null, 204);
  });

  return r;
}
