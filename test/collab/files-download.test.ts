import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness } from '../helpers/harness';
import { startLocal } from '../../infra/local/server';
import { MemoryBlobStore } from '../../shared/blob';
import { PODIO_DEMO, SANDBOX_KEYS, type PodioTwin } from '../../infra/twins/podio';

const json = { query: 'format=json' };
const D = PODIO_DEMO;

describe('downloadFile', () => {
  it('answers a link that works without the key for 3600 s and not after, with expires_at and size_human', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    const before = Date.now();
    const r = await h.call('collab/downloadFile', { file_id: D.firstIds.file }, json);
    expect(r.status).toBe(200);
    const d = r.body.data;
    const logo = h.twin<PodioTwin>('collab').state.files.get(D.firstIds.file)!;
    expect(d).toMatchObject({ file_id: D.firstIds.file, name: 'northwindtraders-logo.png', mimetype: 'image/png', size: logo.content.byteLength, size_human: expect.stringMatching(/^[\d.]+ (B|KB)$/), expires_in: 3600 });
    const expiresAt = Date.parse(d.expires_at);
    expect(d.expires_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/);
    expect(expiresAt).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 3600_000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 3600_000);
    // The key is in no part of the link.
    expect(d.download_url).not.toContain(SANDBOX_KEYS.owner);
    expect(sent.map((s) => `${s.method} ${s.path}`)).toEqual([`GET /file/${D.firstIds.file}`, `GET /file/${D.firstIds.file}/raw`]);
    const blob = h.rt.blob as MemoryBlobStore;
    const ok = blob.serve(new Request(d.download_url), expiresAt - 1000);
    expect(ok.status).toBe(200);
    expect(new Uint8Array(await ok.arrayBuffer())).toEqual(logo.content);
    expect(blob.serve(new Request(d.download_url), expiresAt).status).toBe(403);
    const text = await h.call('collab/downloadFile', { file_id: D.firstIds.file });
    expect(text.body.data).toMatch(/^#60001 northwindtraders-logo\.png \(image\/png, [\d.]+ (B|KB)\) — http:\/\/\S+\nlink works without a key until \S+Z \(3600 s\)$/);
  });

  it('an unknown file is NOT_FOUND and nothing is stored', async () => {
    const h = await harness();
    const r = await h.call('collab/downloadFile', { file_id: 12345 }, json);
    expect(r.status).toBe(404);
  });
});

describe('downloadFile through the local server', () => {
  let local: Awaited<ReturnType<typeof startLocal>>;
  beforeAll(async () => {
    local = await startLocal({ PORT: '0' });
  });
  afterAll(() => new Promise<void>((resolve) => local.server.close(() => resolve())));

  it('the link is served by the local server to a caller with no Authorization header', async () => {
    const res = await fetch(`${local.base}/v1/tools/collab/downloadFile?format=json`, {
      method: 'POST',
      headers: { authorization: `Bearer ${local.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ file_id: D.firstIds.file }),
    });
    const d = ((await res.json()) as any).data;
    expect(d.download_url.startsWith(`${local.base}/v1/blobs/collab/`)).toBe(true);
    const got = await fetch(d.download_url);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('image/png');
    expect((await got.arrayBuffer()).byteLength).toBe(d.size);
    expect((await fetch(d.download_url.replace(/sig=[0-9a-f]/, 'sig=z'))).status).toBe(403);
  });

  it('a link stops working when its file is deleted (deleteFile) or replaced (replaceFile): 404 NOT_FOUND envelope', async () => {
    const call = async (tool: string, body: unknown) => {
      const res = await fetch(`${local.base}/v1/tools/collab/${tool}?format=json`, {
        method: 'POST',
        headers: { authorization: `Bearer ${local.key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    const up = await call('uploadFile', { files: [{ filename: 'note.txt', content: Buffer.from('to be deleted').toString('base64') }] });
    const id = up.body.data.files[0].file_id;
    const link = (await call('downloadFile', { file_id: id })).body.data.download_url;
    const ok = await fetch(link);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('to be deleted');
    expect((await call('deleteFile', { file_id: id })).status).toBe(200);
    const gone = await fetch(link);
    expect(gone.status).toBe(404);
    expect(await gone.json()).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });

    // replaceFile removes the old file, and its link goes with it; the new file's link is its own.
    const oldId = (await call('uploadFile', { files: [{ filename: 'terms.txt', content: Buffer.from('terms v1').toString('base64') }] })).body.data.files[0].file_id;
    expect((await call('attachFile', { file_id: oldId, ref_type: 'item', ref_id: D.items.firstDeal })).status).toBe(200);
    const oldLink = (await call('downloadFile', { file_id: oldId })).body.data.download_url;
    expect((await fetch(oldLink)).status).toBe(200);
    const fresh = (await call('uploadFile', { files: [{ filename: 'terms-v2.txt', content: Buffer.from('terms v2').toString('base64') }] })).body.data.files[0].file_id;
    expect((await call('replaceFile', { old_file_id: oldId, new_file_id: fresh })).status).toBe(200);
    expect((await fetch(oldLink)).status).toBe(404);
  });
});
