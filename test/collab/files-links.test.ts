import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocal } from '../../infra/local/server';
import { localPlatform } from '../../infra/local/platforms';
import { harness } from '../helpers/harness';
import type { Faults } from '../../infra/twins/kit/faults';
import { PODIO_DEMO } from '../../infra/twins/podio';

const json = { query: 'format=json' };

describe('collab getFile links open where the user is: the local server', () => {
  let local: Awaited<ReturnType<typeof startLocal>>;
  beforeAll(async () => {
    local = await startLocal({ PORT: '0' });
  });
  afterAll(() => new Promise<void>((resolve) => local.server.close(() => resolve())));

  const call = async (tool: string, params: unknown) => {
    const res = await fetch(`${local.base}/v1/tools/collab/${tool}?format=json`, {
      method: 'POST',
      headers: { authorization: `Bearer ${localPlatform('collab').keys.owner}`, 'content-type': 'application/json' },
      body: JSON.stringify(params),
    });
    return { status: res.status, body: (await res.json()) as { data: any; error?: any } };
  };

  it('link points at the twin mounted on this server and opens with no key; downloadFile\'s download_url too; both die with the file', async () => {
    const bytes = Buffer.from('%PDF-1.4 signed offer');
    const up = await call('uploadFile', { files: [{ filename: 'offer.pdf', content: bytes.toString('base64') }] });
    const id = up.body.data.files[0].file_id as number;
    const r = await call('getFile', { file_id: id });
    expect(r.status).toBe(200);
    const { link } = r.body.data as { link: string };
    expect(link.startsWith(`${local.base}/twins/podio/files/${id}/`)).toBe(true);
    // A metadata read hands out nothing: the keyless copy is downloadFile's.
    expect(r.body.data).not.toHaveProperty('download_url');
    const { download_url } = (await call('downloadFile', { file_id: id })).body.data as { download_url: string };
    expect(download_url.startsWith(`${local.base}/`)).toBe(true);
    for (const url of [link, download_url]) {
      const got = await fetch(url);
      expect(got.status, url).toBe(200);
      expect(Buffer.from(await got.arrayBuffer()).equals(bytes), url).toBe(true);
    }
    // The link is guarded by its secret part, and dies with the file.
    expect((await fetch(link.replace(/\/files\/(\d+)\/[0-9a-f]+\//, '/files/$1/000000000000000000000000/'))).status).toBe(404);
    expect((await call('deleteFile', { file_id: id })).status).toBe(200);
    expect((await fetch(link)).status).toBe(404);
    expect((await fetch(download_url)).status).toBe(404);
  });

  it('a seeded file attached to an item opens the same way through the link its answer gives', async () => {
    const r = await call('getFile', { file_id: PODIO_DEMO.firstIds.file });
    expect((await fetch(r.body.data.link as string)).status).toBe(200);
  });
});

describe('collab getFile with the real vendor', () => {
  it('keeps Podio\'s own link as Podio sends it', async () => {
    const h = await harness();
    const id = PODIO_DEMO.firstIds.file;
    const faults = (h.twins.collab as unknown as { faults: Faults }).faults;
    faults.inject({ method: 'GET', path: `/file/${id}`, times: 1, fault: { status: 200, body: { file_id: id, name: 'logo.png', mimetype: 'image/png', size: 70, link: `https://files.podio.com/${id}`, hosted_by: 'podio' } } });
    const r = await h.call('collab/getFile', { file_id: id }, json);
    expect(r.body.data).toMatchObject({ file_id: id, link: `https://files.podio.com/${id}` });
  });
});
