import { describe, expect, it } from 'vitest';
import { harness } from '../helpers/harness';
import { loopbackServer } from '../helpers/loopback';
import { PODIO_DEMO, SANDBOX_KEYS, UNATTACHED_FILE_TTL_MS, type PodioTwin } from '../../infra/twins/podio';

const json = { query: 'format=json' };
const D = PODIO_DEMO;
const deal = D.items.firstDeal;
const allow = { env: { ALLOW_HTTP_HOSTS: '127.0.0.1' } };
const b64 = (s: string) => Buffer.from(s).toString('base64');

// A file "on the internet": a server on 127.0.0.1, reachable only because ALLOW_HTTP_HOSTS lists it.
const base = loopbackServer((req, res) => {
  if (req.url === '/missing') {
    res.writeHead(404);
    res.end();
    return;
  }
  res.writeHead(200, { 'content-type': 'application/pdf' });
  res.end(Buffer.from('%PDF-1.4 offer'));
});

const writes = (sent: { method: string; path: string }[]) => sent.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);

/** Uploads a text file through the tool; its id. */
async function upload(h: Awaited<ReturnType<typeof harness>>, filename: string, text = 'hello podio'): Promise<number> {
  const r = await h.call('collab/uploadFile', { files: [{ filename, content: b64(text) }] }, json);
  expect(r.status).toBe(200);
  return r.body.data.files[0].file_id;
}

describe('uploadFile', () => {
  it('uploads base64 content and https URLs unattached; returns file ids and metadata', async () => {
    const h = await harness(allow);
    const r = await h.call('collab/uploadFile', { files: [{ filename: 'notes.txt', content: b64('hello podio') }, { filename: 'offer.pdf', url: `${base()}/offer` }] }, json);
    expect(r.status).toBe(200);
    expect(r.body.data.files).toEqual([
      expect.objectContaining({ name: 'notes.txt', mimetype: 'text/plain', size: 11, hosted_by: 'podio' }),
      expect.objectContaining({ name: 'offer.pdf', mimetype: 'application/pdf', size: 14 }),
    ]);
    const twin = h.twin<PodioTwin>('collab');
    const [a, b] = r.body.data.files.map((f: any) => twin.state.files.get(f.file_id)!);
    expect(Buffer.from(a!.content).toString()).toBe('hello podio');
    expect(Buffer.from(b!.content).toString()).toBe('%PDF-1.4 offer');
    expect(a!.context).toBeNull();
    const t = await h.call('collab/uploadFile', { files: [{ filename: 'a.txt', content: b64('x') }] });
    expect(t.body.data).toMatch(/^#\d+ a\.txt \(text\/plain, 1 B\)\nuploaded 1 file, unattached — attach within a few hours/);
  });

  it('each entry needs exactly one of url or content, valid base64; nothing is uploaded otherwise', async () => {
    const h = await harness(allow);
    const sent = h.recordRequests('collab');
    const both = await h.call('collab/uploadFile', { files: [{ filename: 'a.txt', content: b64('a') }, { filename: 'b.txt', content: b64('b'), url: `${base()}/b` }] }, json);
    expect(both.status).toBe(400);
    expect(both.body.error.details).toMatchObject({ parameter: 'files.1', expected: 'exactly one of url or content' });
    const neither = await h.call('collab/uploadFile', { files: [{ filename: 'a.txt' }] }, json);
    expect(neither.body.error.details.parameter).toBe('files.0');
    const bad = await h.call('collab/uploadFile', { files: [{ filename: 'a.txt', content: 'not base64!' }] }, json);
    expect(bad.body.error.details).toMatchObject({ parameter: 'files.0.content', expected: 'base64 text' });
    const noName = await h.call('collab/uploadFile', { files: [{ filename: '', content: b64('a') }] }, json);
    expect(noName.body.error.details.parameter).toBe('files.0.filename');
    expect(sent).toEqual([]);
  });

  it('URLs go through the SSRF guard: a private host is refused naming files.N.url, before any upload', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    const r = await h.call('collab/uploadFile', { files: [{ filename: 'a.txt', content: b64('a') }, { filename: 'x.pdf', url: `${base()}/offer` }] }, json);
    expect(r.status).toBe(400);
    expect(r.body.error.details.parameter).toBe('files.1.url');
    const h2 = await harness(allow);
    const missing = await h2.call('collab/uploadFile', { files: [{ filename: 'x.pdf', url: `${base()}/missing` }] }, json);
    expect(missing.body.error.details.parameter).toBe('files.0.url');
    expect(sent).toEqual([]);
  });

  it('an unattached upload is garbage-collected after a few hours of the twin clock', async () => {
    const h = await harness();
    const id = await upload(h, 'loose.txt');
    expect((await h.call('collab/getFile', { file_id: id }, json)).status).toBe(200);
    h.twin<PodioTwin>('collab').clock.advance(UNATTACHED_FILE_TTL_MS);
    const gone = await h.call('collab/getFile', { file_id: id }, json);
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe('NOT_FOUND');
  });
});

describe('attachFile', () => {
  it('attaches an unattached file to an item; the item lists it', async () => {
    const h = await harness();
    const id = await upload(h, 'spec.txt');
    const r = await h.call('collab/attachFile', { file_id: String(id), ref_type: 'item', ref_id: deal }, json);
    expect(r.body.data).toEqual({ attached: true, file_id: id, ref_type: 'item', ref_id: deal });
    expect(h.twin<PodioTwin>('collab').state.items.get(deal)!.file_ids).toContain(id);
    expect((await h.call('collab/attachFile', { file_id: await upload(h, 'b.txt'), ref_type: 'space', ref_id: D.spaces.sales })).body.data).toMatch(/^attached file #\d+ to space #7101$/);
    const task = [...h.twin<PodioTwin>('collab').state.tasks.rows.values()].find((t) => !t.private)!;
    const onTask = await upload(h, 'task.txt');
    expect((await h.call('collab/attachFile', { file_id: onTask, ref_type: 'task', ref_id: task.task_id }, json)).status).toBe(200);
    expect(h.twin<PodioTwin>('collab').state.tasks.rows.get(task.task_id)!.file_ids).toContain(onTask);
    expect((await h.call('collab/attachFile', { file_id: await upload(h, 's.txt'), ref_type: 'status', ref_id: 1 }, json)).status).toBe(404);
  });

  it('refuses a UUID or other non-numeric id before calling Podio', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    const uuid = await h.call('collab/attachFile', { file_id: '0b9d6a3e-8f0c-4a51-9a3b-2c1d4e5f6a7b', ref_type: 'item', ref_id: deal }, json);
    expect(uuid.status).toBe(400);
    expect(uuid.body.error.details).toMatchObject({ parameter: 'file_id', expected: 'a positive integer Podio file id' });
    expect(uuid.body.error.message).toMatch(/a UUID is not a Podio file id.*uploadFile/);
    const text = await h.call('collab/attachFile', { file_id: 'offer.pdf', ref_type: 'item', ref_id: deal }, json);
    expect(text.body.error.details.parameter).toBe('file_id');
    expect((await h.call('collab/attachFile', { file_id: -4, ref_type: 'item', ref_id: deal }, json)).status).toBe(400);
    expect(sent).toEqual([]);
  });

  it('an attached file: file.already_attached becomes INVALID_PARAMETER that says to copyFile first', async () => {
    const h = await harness();
    const id = await upload(h, 'once.txt');
    await h.call('collab/attachFile', { file_id: id, ref_type: 'item', ref_id: deal });
    const again = await h.call('collab/attachFile', { file_id: id, ref_type: 'item', ref_id: deal + 1 }, json);
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('INVALID_PARAMETER');
    expect(again.body.error.details).toMatchObject({ parameter: 'file_id', upstream_code: 'file.already_attached' });
    expect(again.body.error.message).toContain(`Call copyFile with file_id ${id}`);
  });
});

describe('uploadFiles', () => {
  it('uploads new files and attaches them with existing unattached ids to the target', async () => {
    const h = await harness(allow);
    const existing = await upload(h, 'earlier.txt');
    const r = await h.call('collab/uploadFiles', { attach_to: { ref_type: 'item', ref_id: deal }, files: [{ filename: 'offer.pdf', url: `${base()}/o` }, { filename: 'n.txt', content: b64('n') }], existing_file_ids: [existing] }, json);
    expect(r.status).toBe(200);
    expect(r.body.data.attached_to).toEqual({ ref_type: 'item', ref_id: deal });
    expect(r.body.data.files.map((f: any) => [f.filename, f.status])).toEqual([['earlier.txt', 'attached'], ['offer.pdf', 'attached'], ['n.txt', 'attached']]);
    const item = h.twin<PodioTwin>('collab').state.items.get(deal)!;
    for (const f of r.body.data.files) expect(item.file_ids).toContain(f.file_id);
    const t = await h.call('collab/uploadFiles', { attach_to: { ref_type: 'comment', ref_id: D.firstIds.comment }, files: [{ filename: 'c.txt', content: b64('c') }] });
    expect(t.body.data).toMatch(/c\.txt attached\nattached 1 file to comment #90001$/);
  });

  it('needs files or existing_file_ids, and an existing target; nothing is uploaded otherwise', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    const none = await h.call('collab/uploadFiles', { attach_to: { ref_type: 'item', ref_id: deal } }, json);
    expect(none.status).toBe(400);
    expect(none.body.error.details).toMatchObject({ parameter: 'files', expected: 'files or existing_file_ids' });
    expect(sent).toEqual([]);
    const missing = await h.call('collab/uploadFiles', { attach_to: { ref_type: 'item', ref_id: 999999 }, files: [{ filename: 'a.txt', content: b64('a') }] }, json);
    expect(missing.status).toBe(404);
    const noSpace = await h.call('collab/uploadFiles', { attach_to: { ref_type: 'space', ref_id: 999 }, files: [{ filename: 'a.txt', content: b64('a') }] }, json);
    expect(noSpace.status).toBe(404);
    expect(writes(sent)).toEqual([]);
  });

  it('an existing id that is attached is refused (copyFile first) before any upload', async () => {
    const h = await harness();
    const attached = await upload(h, 'att.txt');
    await h.call('collab/attachFile', { file_id: attached, ref_type: 'item', ref_id: deal });
    const sent = h.recordRequests('collab');
    const r = await h.call('collab/uploadFiles', { attach_to: { ref_type: 'item', ref_id: deal + 1 }, files: [{ filename: 'a.txt', content: b64('a') }], existing_file_ids: [attached] }, json);
    expect(r.status).toBe(400);
    expect(r.body.error.details.parameter).toBe('existing_file_ids.0');
    expect(r.body.error.message).toContain(`on item #${deal}`);
    expect(r.body.error.message).toContain('copyFile');
    expect(writes(sent)).toEqual([]);
  });
});

describe('getFile, getFilesOnApp, getFilesOnSpace', () => {
  it('getFile: metadata with its context, in JSON and one text line', async () => {
    const h = await harness();
    const r = await h.call('collab/getFile', { file_id: D.firstIds.file }, json);
    expect(r.body.data).toMatchObject({ file_id: D.firstIds.file, name: 'northwindtraders-logo.png', mimetype: 'image/png', context: { type: 'item', id: D.items.firstCompany }, description: null });
    expect((await h.call('collab/getFile', { file_id: D.firstIds.file })).body.data).toMatch(/^#60001 northwindtraders-logo\.png \(image\/png, [\d.]+ (B|KB)\) on item #30001/);
    expect((await h.call('collab/getFile', { file_id: 1 }, json)).status).toBe(404);
  });

  it('getFilesOnApp: files on the app\'s items with context titles; filetype, sort and paging', async () => {
    const h = await harness();
    // An array of files, each with its context (what it is attached to).
    const all = await h.call('collab/getFilesOnApp', { app_id: D.apps.deals }, json);
    expect(Array.isArray(all.body.data)).toBe(true);
    expect(all.body.data.length).toBeGreaterThan(1);
    expect(all.body.data.every((f: any) => f.mimetype === 'application/pdf' && f.context.type === 'item' && f.context.title)).toBe(true);
    const page = await h.call('collab/getFilesOnApp', { app_id: D.apps.deals, limit: 1, sort_by: 'name' }, json);
    expect(page.body.data).toHaveLength(1);
    const names = all.body.data.map((f: any) => f.name).sort();
    expect(page.body.data[0].name).toBe(names[0]);
    const text = await h.call('collab/getFilesOnApp', { app_id: D.apps.deals, limit: 1 });
    expect(text.body.data).toMatch(/\nshowing 1 — pass offset 1 with app_id 8102 for the next page$/);
    const images = await h.call('collab/getFilesOnApp', { app_id: D.apps.deals, filetype: 'image' });
    expect(images.body.data).toBe('no files on app #8102');
  });

  it('getFilesOnSpace: files of every app of the space and on the space itself; attached_to narrows', async () => {
    const h = await harness();
    const id = await upload(h, 'space-plan.txt');
    await h.call('collab/attachFile', { file_id: id, ref_type: 'space', ref_id: D.spaces.sales });
    const r = await h.call('collab/getFilesOnSpace', { space_id: D.spaces.sales, limit: 100 }, json);
    const types = new Set(r.body.data.map((f: any) => f.mimetype));
    expect(types).toEqual(new Set(['image/png', 'application/pdf', 'text/plain']));
    const onSpace = await h.call('collab/getFilesOnSpace', { space_id: D.spaces.sales, attached_to: 'space' }, json);
    expect(onSpace.body.data.map((f: any) => [f.file_id, f.context])).toEqual([[id, { type: 'space', id: D.spaces.sales, title: 'Sales' }]]);
    // The member sees Sales only.
    expect((await h.call('collab/getFilesOnSpace', { space_id: D.spaces.operations }, { ...json, key: SANDBOX_KEYS.member })).status).toBe(403);
  });
});

describe('copyFile, updateFile, deleteFile', () => {
  it('copyFile: a new unattached file with external_id file_<id>; the original stays', async () => {
    const h = await harness();
    const r = await h.call('collab/copyFile', { file_id: D.firstIds.file }, json);
    const copy = h.twin<PodioTwin>('collab').state.files.get(r.body.data.file_id)!;
    expect(copy).toMatchObject({ context: null, external_id: `file_${D.firstIds.file}`, name: 'northwindtraders-logo.png' });
    expect(h.twin<PodioTwin>('collab').state.files.get(D.firstIds.file)!.context).toEqual({ type: 'item', id: D.items.firstCompany });
    expect((await h.call('collab/attachFile', { file_id: copy.file_id, ref_type: 'item', ref_id: deal }, json)).status).toBe(200);
  });

  it('updateFile: name and description; "" clears the description', async () => {
    const h = await harness();
    const id = await upload(h, 'a.txt');
    expect((await h.call('collab/updateFile', { file_id: id, name: 'b.txt', description: 'Final' })).body.data).toBe(`updated file #${id}`);
    expect((await h.call('collab/getFile', { file_id: id }, json)).body.data).toMatchObject({ name: 'b.txt', description: 'Final' });
    await h.call('collab/updateFile', { file_id: id, name: 'b.txt', description: '' });
    expect((await h.call('collab/getFile', { file_id: id }, json)).body.data.description).toBeNull();
    expect((await h.call('collab/updateFile', { file_id: id, name: 'b.txt' }, json)).body.error.details.parameter).toBe('description');
  });

  it('deleteFile: gone from its item; hook=false is passed on', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    const fileId = h.twin<PodioTwin>('collab').state.items.get(deal)!.file_ids[0]!;
    const r = await h.call('collab/deleteFile', { file_id: fileId, hook: false }, json);
    expect(r.body.data).toEqual({ deleted: true, file_id: fileId });
    expect(sent.at(-1)!.query.get('hook')).toBe('false');
    expect(h.twin<PodioTwin>('collab').state.items.get(deal)!.file_ids).not.toContain(fileId);
    expect((await h.call('collab/getFile', { file_id: fileId }, json)).status).toBe(404);
  });
});

describe('replaceFile', () => {
  it('the new, unattached file takes the old attachment\'s place; the old one is gone', async () => {
    const h = await harness();
    const twin = h.twin<PodioTwin>('collab');
    const old = twin.state.items.get(deal)!.file_ids[0]!;
    const fresh = await upload(h, 'proposal-v2.pdf');
    const r = await h.call('collab/replaceFile', { old_file_id: old, new_file_id: fresh }, json);
    expect(r.body.data).toEqual({ replaced: true, old_file_id: old, new_file_id: fresh });
    expect(twin.state.items.get(deal)!.file_ids).toEqual([fresh]);
    expect(twin.state.files.has(old)).toBe(false);
  });

  it('refuses an attached new file, an unattached old file and a field image, before or by Podio', async () => {
    const h = await harness();
    const twin = h.twin<PodioTwin>('collab');
    const old = twin.state.items.get(deal)!.file_ids[0]!;
    const sent = h.recordRequests('collab');
    const attached = await h.call('collab/replaceFile', { old_file_id: old, new_file_id: D.firstIds.file }, json);
    expect(attached.body.error.details).toMatchObject({ parameter: 'new_file_id', upstream_code: 'file.already_attached' });
    const loose = await upload(h, 'loose.txt');
    const loose2 = await upload(h, 'loose2.txt');
    const unattached = await h.call('collab/replaceFile', { old_file_id: loose, new_file_id: loose2 }, json);
    expect(unattached.body.error.details).toMatchObject({ parameter: 'old_file_id', expected: 'an attached file' });
    expect(writes(sent).filter((w) => w.includes('/replace'))).toEqual([]);
    // The logo is the value of an image field, not an attachment.
    const image = await h.call('collab/replaceFile', { old_file_id: D.firstIds.file, new_file_id: loose }, json);
    expect(image.status).toBe(400);
    expect(image.body.error.message).toMatch(/attachment/);
    expect((await h.call('collab/replaceFile', { old_file_id: loose, new_file_id: loose }, json)).body.error.details.parameter).toBe('new_file_id');
  });
});

describe('copyItemFiles', () => {
  it('copies, skips same-named files, or replaces them with overwrite_duplicates; file_ids narrows', async () => {
    const h = await harness();
    const twin = h.twin<PodioTwin>('collab');
    const source = deal + 1;
    const target = deal + 2;
    const a = await upload(h, 'a.txt', 'A1');
    const b = await upload(h, 'b.txt', 'B1');
    await h.call('collab/uploadFiles', { attach_to: { ref_type: 'item', ref_id: source }, existing_file_ids: [a, b] });
    const targetB = await upload(h, 'b.txt', 'old B');
    await h.call('collab/attachFile', { file_id: targetB, ref_type: 'item', ref_id: target });

    const first = await h.call('collab/copyItemFiles', { source_item_id: source, target_item_id: target }, json);
    expect(first.body.data.copied).toEqual([{ file_id: a, new_file_id: expect.any(Number), name: 'a.txt' }]);
    expect(first.body.data.skipped).toEqual([{ file_id: b, name: 'b.txt', existing_file_id: targetB }]);
    expect(first.body.data.replaced).toEqual([]);
    expect(twin.state.items.get(source)!.file_ids).toEqual([a, b]);

    const second = await h.call('collab/copyItemFiles', { source_item_id: source, target_item_id: target, file_ids: [b], overwrite_duplicates: true }, json);
    expect(second.body.data.copied).toEqual([]);
    expect(second.body.data.replaced).toEqual([{ file_id: b, new_file_id: expect.any(Number), name: 'b.txt', replaced_file_id: targetB }]);
    const newB = second.body.data.replaced[0].new_file_id;
    expect(Buffer.from(twin.state.files.get(newB)!.content).toString()).toBe('B1');
    expect(twin.state.items.get(target)!.file_ids).toEqual([newB, first.body.data.copied[0].new_file_id]);

    const text = await h.call('collab/copyItemFiles', { source_item_id: source, target_item_id: target });
    expect(text.body.data).toMatch(/skipped #\d+ a\.txt .*\n.*\nitem #30062 → #30063: 0 copied, 0 replaced, 2 skipped$/);
  });

  it('file_ids must be files of the source; source and target must differ', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    const r = await h.call('collab/copyItemFiles', { source_item_id: deal, target_item_id: deal + 1, file_ids: [D.firstIds.file] }, json);
    expect(r.body.error.details.parameter).toBe('file_ids.0');
    expect((await h.call('collab/copyItemFiles', { source_item_id: deal, target_item_id: deal }, json)).body.error.details.parameter).toBe('target_item_id');
    expect(writes(sent)).toEqual([]);
  });
});
