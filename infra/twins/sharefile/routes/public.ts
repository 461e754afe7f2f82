import type { Context, Hono } from 'hono';
import type { Clock } from '../../kit';
import { mediaType } from '../files';
import type { SfEnv } from '../http';
import { fullName, type SfItem, type SfShare, type SfState } from '../state';
import { storeUpload } from './items';

/**
 * What ShareFile serves without the API key: download links (the DownloadUrl of a download token,
 * until it expires), upload ChunkUris of an upload spec, and the pages behind a share's Uri — a
 * Send share lists its files for download (counted against MaxDownloads), a Request share takes
 * uploads into its folder.
 */
export function publicRoutes(app: Hono<SfEnv>, state: SfState, clock: Clock): void {
  const page = (c: Context, status: number, title: string, body: string) =>
    c.html(`<!doctype html><html><head><meta charset="utf-8"><title>${esc(title)}</title></head><body><h1>${esc(title)}</h1>${body}</body></html>`, status as 200);
  const bytes = (c: Context, item: SfItem) =>
    c.body(new Uint8Array(item.content ?? Buffer.alloc(0)), 200, { 'content-type': mediaType(item.name), 'content-disposition': `attachment; filename="${item.name.replace(/"/g, '')}"` });

  app.get('/download', (c) => {
    const token = c.req.query('dt') ?? '';
    const grant = state.downloads.get(token);
    if (!grant) return c.json({ code: 'NotFound', message: { lang: 'en-US', value: 'Unknown download token.' }, reason: 'Not found' }, 404);
    if (grant.expires <= clock.now()) {
      state.downloads.delete(token);
      return c.json({ code: 'Gone', message: { lang: 'en-US', value: 'This download link has expired.' }, reason: 'Expired' }, 410);
    }
    const item = state.items.get(grant.itemId);
    if (!item || item.deleted) return c.json({ code: 'NotFound', message: { lang: 'en-US', value: 'The file is no longer available.' }, reason: 'Not found' }, 404);
    return bytes(c, item);
  });

  app.post('/upload-streaming/:id', async (c) => {
    const spec = state.uploads.get(c.req.param('id'));
    if (!spec || spec.expires <= clock.now()) return c.json({ error: true, errorMessage: 'Upload ID is invalid or expired.', errorCode: 404 }, 404);
    const type = c.req.header('content-type') ?? '';
    let data: Buffer;
    if (type.startsWith('multipart/form-data')) {
      const form = await c.req.formData();
      const file = form.get('Filedata') ?? form.get('File1');
      if (!(file instanceof Blob)) return c.json({ error: true, errorMessage: 'The multipart body has no Filedata part.', errorCode: 400 }, 400);
      data = Buffer.from(await file.arrayBuffer());
    } else data = Buffer.from(await c.req.arrayBuffer());
    state.uploads.delete(c.req.param('id'));
    try {
      const file = storeUpload(state, spec, data, clock.now());
      return c.json({ error: false, value: [{ uploadid: c.req.param('id'), parentid: spec.folderId, id: file.id, filename: file.name, displayname: file.name, size: data.length, md5: file.hash }] });
    } catch (err) {
      return c.json({ error: true, errorMessage: err instanceof Error ? err.message : 'Upload failed.', errorCode: 409 }, 409);
    }
  });

  /** The share behind an alias (its own or a recipient's), or an answer saying why not. */
  const shareOf = (alias: string): { share?: SfShare; recipient?: SfShare['recipients'][number]; status?: number; why?: string } => {
    for (const s of state.shares.values()) {
      const recipient = s.recipients.find((r) => r.aliasId === alias);
      if (s.aliasId === alias || recipient) {
        if (s.expiration <= clock.now()) return { status: 410, why: 'This share has expired.' };
        return { share: s, recipient };
      }
    }
    return { status: 404, why: 'This share does not exist or was deleted.' };
  };

  app.get('/share/view/:alias', (c) => {
    const { share, status, why } = shareOf(c.req.param('alias'));
    if (!share) return page(c, status!, 'Share unavailable', `<p>${esc(why!)}</p>`);
    const from = fullName(state.users.get(share.creatorId)!);
    if (share.type === 'Request') {
      return page(c, 200, share.title, `<p>${esc(from)} asks you to upload files.</p><form method="post" action="${esc(c.req.path)}/upload" enctype="multipart/form-data"><input type="file" name="File1"><button>Upload</button></form>`);
    }
    const left = share.maxDownloads === -1 ? 'unlimited downloads' : `${Math.max(0, share.maxDownloads - share.totalDownloads)} downloads left`;
    const items = share.itemIds.map((id) => state.items.get(id)).filter((i): i is SfItem => Boolean(i && !i.deleted));
    const list = items.map((i) => `<li><a href="${esc(c.req.path)}/download/${i.id}">${esc(i.name)}</a></li>`).join('');
    return page(c, 200, share.title, `<p>Shared by ${esc(from)} (${left}).</p><ul>${list}</ul>`);
  });

  app.get('/share/view/:alias/download/:item', (c) => {
    const { share, recipient, status, why } = shareOf(c.req.param('alias'));
    if (!share) return page(c, status!, 'Share unavailable', `<p>${esc(why!)}</p>`);
    const item = share.type === 'Send' && share.itemIds.includes(c.req.param('item')) ? state.items.get(c.req.param('item')) : undefined;
    if (!item || item.deleted) return page(c, 404, 'Not found', '<p>This file is not part of the share.</p>');
    if (share.isViewOnly) return page(c, 403, 'View only', '<p>This share is view-only: files cannot be downloaded.</p>');
    if (share.maxDownloads !== -1 && share.totalDownloads >= share.maxDownloads) return page(c, 403, 'Download limit reached', '<p>This share has reached its maximum number of downloads.</p>');
    share.totalDownloads++;
    if (recipient) recipient.downloads++;
    return bytes(c, item);
  });

  app.post('/share/view/:alias/upload', async (c) => {
    const { share, status, why } = shareOf(c.req.param('alias'));
    if (!share) return page(c, status!, 'Share unavailable', `<p>${esc(why!)}</p>`);
    if (share.type !== 'Request' || !share.parentId) return page(c, 400, 'Not an upload request', '<p>This share does not accept uploads.</p>');
    const form = await c.req.formData();
    const file = form.get('File1') ?? form.get('Filedata');
    if (!(file instanceof File)) return page(c, 400, 'No file', '<p>Choose a file to upload.</p>');
    try {
      const stored = storeUpload(state, { folderId: share.parentId, userId: share.creatorId, fileName: file.name, overwrite: false, description: 'Uploaded through a request share' }, Buffer.from(await file.arrayBuffer()), clock.now());
      return page(c, 200, 'Uploaded', `<p>${esc(stored.name)} was uploaded.</p>`);
    } catch (err) {
      return page(c, 409, 'Upload refused', `<p>${esc(err instanceof Error ? err.message : 'Upload failed.')}</p>`);
    }
  });
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
