import { Hono } from 'hono';
import type { Clock } from '../../kit';
import { commentOut, commentsOn, richValue } from '../comments';
import { attachFile, checkedFileIds, createEmbed } from '../files';
import { flagsOf, idParam, invalid, jsonBody, notFound, paging, writeFlags, type TwinContext, type TwinEnv } from '../http';
import { itemFor } from '../items';
import { taskFor } from '../tasks';
import { byLine, nextId, podioDateTime, type PodioCommentRow, type PodioState } from '../state';
import { embedOut } from '../values';
import { slashAware } from './both';

const REF_TYPES = ['item', 'task', 'status'] as const;
type RefType = (typeof REF_TYPES)[number];

/** Comments on items, tasks and status messages (docs/vendors/podio.md#comments), with their revisions. */
export function commentRoutes(state: PodioState, clock: Clock) {
  const r = new Hono<TwinEnv>();
  const route = slashAware(r);

  /** The object commented on; the user must see it. Status messages do not exist here yet: 404. */
  function target(c: TwinContext): { type: RefType; id: number } {
    const type = c.req.param('type') as RefType;
    if (!REF_TYPES.includes(type)) throw invalid(`The object type is one of ${REF_TYPES.join(', ')}, got "${type}".`);
    const id = idParam(c, 'id');
    if (type === 'task') {
      taskFor(state, c.get('user'), id);
      return { type, id };
    }
    if (type !== 'item') throw notFound();
    itemFor(state, c.get('user'), id);
    return { type, id };
  }

  function comment(c: TwinContext): PodioCommentRow {
    const found = state.comments.get(idParam(c, 'comment_id'));
    if (!found) throw notFound();
    if (found.ref.type === 'item') itemFor(state, c.get('user'), found.ref.id);
    if (found.ref.type === 'task') taskFor(state, c.get('user'), found.ref.id);
    return found;
  }

  /** The parts of a comment body both add and update read, checked before anything changes. */
  function content(body: Record<string, unknown>, commentId: number | null) {
    if (typeof body.value !== 'string' || body.value.trim() === '') throw invalid('"value" (the text of the comment) is required.');
    if (body.external_id !== undefined && body.external_id !== null && typeof body.external_id !== 'string') throw invalid('"external_id" must be a string.');
    const fileIds = checkedFileIds(state, body.file_ids, { type: 'comment', id: commentId }) ?? [];
    let embedId: number | null = null;
    if (body.embed_id !== undefined && body.embed_id !== null) {
      if (!(Number.isInteger(body.embed_id) && state.embeds.has(body.embed_id as number))) throw notFound();
      embedId = body.embed_id as number;
    }
    return { value: body.value, external_id: (body.external_id as string | undefined) ?? null, fileIds, embedId, embedUrl: body.embed_url };
  }

  route.post('/comment/:type/:id/', async (c) => {
    const ref = target(c);
    writeFlags(c);
    flagsOf(c, { alert_invite: false });
    const parts = content(await jsonBody(c), null);
    const now = clock.now();
    const embedId = parts.embedUrl !== undefined && parts.embedUrl !== null ? createEmbed(state, parts.embedUrl, now).embed_id : parts.embedId;
    const comment_id = nextId(state, 'comment');
    const created_on = podioDateTime(now);
    state.comments.set(comment_id, { comment_id, ref, value: parts.value, external_id: parts.external_id, created_on, created_by: c.get('user').user_id, embed_id: embedId, file_ids: parts.fileIds, versions: [{ revision_id: 1, value: parts.value, created_on, embed_id: embedId }] });
    for (const id of parts.fileIds) attachFile(state, id, { type: 'comment', id: comment_id });
    return c.json({ comment_id });
  });

  /** Every version of the comment, oldest first (before the list route: `/comment/{id}/revision` has its shape). */
  route.get('/comment/:comment_id/revision', (c) => {
    const found = comment(c);
    return c.json(
      found.versions.map((v) => ({
        revision_id: v.revision_id,
        value: v.value,
        rich_value: richValue(state, v.value),
        created_on: v.created_on,
        created_by: byLine(state.users.get(found.created_by)),
        embed: v.embed_id ? embedOut(state, v.embed_id) : null,
        embed_file: null,
      })),
    );
  });

  route.get('/comment/:type/:id/', (c) => {
    const ref = target(c);
    const { limit, offset } = paging(c, { default: 100, max: 500 });
    return c.json(commentsOn(state, ref.type, ref.id).slice(offset, offset + limit).map((x) => commentOut(state, x, c.get('base'))));
  });

  route.get('/comment/:comment_id', (c) => c.json(commentOut(state, comment(c), c.get('base'))));

  route.put('/comment/:comment_id', async (c) => {
    const found = comment(c);
    writeFlags(c);
    const parts = content(await jsonBody(c), found.comment_id);
    const now = clock.now();
    const embedId = parts.embedUrl !== undefined && parts.embedUrl !== null ? createEmbed(state, parts.embedUrl, now).embed_id : parts.embedId;
    found.value = parts.value;
    if (parts.external_id !== null) found.external_id = parts.external_id;
    found.embed_id = embedId;
    for (const id of parts.fileIds) {
      attachFile(state, id, { type: 'comment', id: found.comment_id });
      if (!found.file_ids.includes(id)) found.file_ids.push(id);
    }
    found.versions.push({ revision_id: found.versions.length + 1, value: parts.value, created_on: podioDateTime(now), embed_id: embedId });
    return c.body(null, 204);
  });

  route.delete('/comment/:comment_id', (c) => {
    const found = comment(c);
    writeFlags(c);
    state.comments.delete(found.comment_id);
    for (const id of found.file_ids) state.files.delete(id);
    return c.body(null, 204);
  });

  return r;
}
