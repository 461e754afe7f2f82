import { describe, expect, it } from 'vitest';
import { createClock } from '../../infra/twins/kit';
import { createTapeTwin, SANDBOX_KEYS } from '../../infra/twins/tape';

/** POSTs a multipart body to /v1/file/upload as `curl -F 'file=@…'` does. */
function twin() {
  const t = createTapeTwin({ clock: createClock(Date.parse('2022-01-01T12:00:00Z')) });
  const upload = async (form: FormData | string | undefined, auth: string | null = `Bearer ${SANDBOX_KEYS.owner}`, contentType?: string) => {
    const res = await t.fetch('https://api.tapeapp.com/v1/file/upload', {
      method: 'POST',
      headers: { ...(auth ? { authorization: auth } : {}), ...(contentType ? { 'content-type': contentType } : {}) },
      ...(form !== undefined ? { body: form } : {}),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as any };
  };
  return { ...t, upload };
}

const text20 = 'twenty bytes of text';
const file = (name: string, content: string | Uint8Array, type?: string) => new File([content], name, type ? { type } : {});
const S3_LINK = /^https:\/\/s3\.eu-central-1\.amazonaws\.com\/tape-attachments\/[0-9a-f]{30}\?Expires=\d+&Signature=[^&]+$/;
const THUMB = /^https:\/\/s3\.eu-central-1\.amazonaws\.com\/tape-thumbnails\/[0-9a-f]{30}$/;

describe('Tape twin: the examples of file.md', () => {
  it('POST /v1/file/upload with one file answers one file object', async () => {
    const t = twin();
    const form = new FormData();
    form.append('file', file('filename.txt', text20));
    const r = await t.upload(form, `Basic ${Buffer.from(`${SANDBOX_KEYS.owner}:`).toString('base64')}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      file_id: 'temporary-file-1',
      name: 'filename.txt',
      size: 20,
      mimetype: 'text/plain',
      created_on: '2022-01-01 12:00:00',
      link: expect.stringMatching(S3_LINK),
    });
    // The upload costs 2x the credits of a normal request.
    expect(r.headers.get('X-Retry-Cost')).toBe('20');
    // Retrievable from state, with its bytes, for the records that attach it.
    const stored = t.state.files.get('temporary-file-1');
    expect(stored).toMatchObject({ name: 'filename.txt', size: 20, uploaded_by: 10000 });
    expect(Buffer.from(stored!.content).toString()).toBe(text20);
  });

  it('POST /v1/file/upload with the file field twice answers an array, with a thumbnail for images', async () => {
    const t = twin();
    t.state.nextId.file = 2;
    const form = new FormData();
    form.append('file', file('filename1.txt', text20));
    form.append('file', file('filename2.png', new Uint8Array([0x89, 0x50, 0x4e, 0x47]), 'image/png'));
    const r = await t.upload(form);
    expect(r.body).toEqual([
      { file_id: 'temporary-file-2', name: 'filename1.txt', size: 20, mimetype: 'text/plain', created_on: '2022-01-01 12:00:00', link: expect.stringMatching(S3_LINK) },
      {
        file_id: 'temporary-file-3',
        name: 'filename2.png',
        size: 4,
        mimetype: 'image/png',
        created_on: '2022-01-01 12:00:00',
        link: expect.stringMatching(S3_LINK),
        thumbnail: { small: expect.stringMatching(THUMB), medium: expect.stringMatching(THUMB), large: expect.stringMatching(THUMB) },
      },
    ]);
    expect([...t.state.files.keys()]).toEqual(['temporary-file-2', 'temporary-file-3']);
  });

  it('takes the declared type of a part, and guesses from the extension when none is given', async () => {
    const t = twin();
    const form = new FormData();
    form.append('file', file('data.bin', 'x', 'application/x-custom'));
    form.append('file', file('report.pdf', '%PDF'));
    form.append('file', file('blob', 'x'));
    const r = await t.upload(form);
    expect(r.body.map((f: { mimetype: string }) => f.mimetype)).toEqual(['application/x-custom', 'application/pdf', 'application/octet-stream']);
  });

  it.each([
    ['no body', undefined, undefined],
    ['a JSON body', '{"file":"x"}', 'application/json'],
    ['a form without a file part', (() => { const f = new FormData(); f.append('file', 'just text'); return f; })(), undefined],
    ['a file under another name', (() => { const f = new FormData(); f.append('attachment', file('a.txt', 'a')); return f; })(), undefined],
  ])('answers the documented validation error for %s', async (_what, body, type) => {
    const t = twin();
    const r = await t.upload(body, `Bearer ${SANDBOX_KEYS.owner}`, type);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      status_code: 400,
      endpoint: '/v1/file/upload',
      error_code: 'validation',
      error_message: "No file provided to upload endpoint '/v1/file/upload/' via multipart/form-data name: 'file'",
    });
    expect(t.state.files.size).toBe(0);
  });

  it('refuses a file over 100MB', async () => {
    const t = twin();
    const form = new FormData();
    form.append('file', new File([new Uint8Array(100 * 1024 * 1024 + 1)], 'huge.bin'));
    const r = await t.upload(form);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error_code: 'validation', error_message: expect.stringContaining('100MB') });
    expect(t.state.files.size).toBe(0);
  });

  it('needs a key', async () => {
    const t = twin();
    const form = new FormData();
    form.append('file', file('a.txt', 'a'));
    const r = await t.upload(form, null);
    expect(r.status).toBe(401);
    expect(t.state.files.size).toBe(0);
  });
});
