import { describe, expect, it } from 'vitest';
import { loopbackServer } from '../helpers/loopback';
import { loadConfig } from '../../shared/core/config';
import { ToolError } from '../../shared/core/errors';
import { createTapeClient } from '../../functions/dbapp/client';
import { resolveAttachments } from '../../functions/dbapp/files/attachments';
import { createTapeTwin } from '../../infra/twins/tape';
import { harness, SANDBOX_KEYS } from '../helpers/harness';

const json = { query: 'format=json' };
const MB = 1024 * 1024;
const pdf = Buffer.from('%PDF-1.4 invoice 2024-03');

// The files "on the internet": a server on 127.0.0.1, reachable only because ALLOW_HTTP_HOSTS lists it.
const base = loopbackServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  switch (url.pathname) {
    case '/files/invoice-2024-03.pdf':
      res.writeHead(200, { 'content-type': 'application/pdf' }).end(pdf);
      return;
    case '/download':
      res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="Q1 totals.csv"' }).end('name,amount\nAcme,1200\n');
      return;
    case '/redirect':
      res.writeHead(302, { location: url.searchParams.get('to') ?? '/' }).end();
      return;
    case '/missing':
      res.writeHead(404).end();
      return;
    case '/declared-huge':
      res.writeHead(200, { 'content-length': String(30 * MB) }).end();
      return;
    case '/blob': {
      // n MB streamed without Content-Length: only the reading cap can stop it.
      const total = Number(url.searchParams.get('mb')) * MB;
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = Buffer.alloc(MB, 7);
      let sent = 0;
      const pump = () => {
        while (sent < total && !res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) return res.once('drain', pump);
        }
        res.end();
      };
      pump();
      return;
    }
    default:
      res.writeHead(500).end();
  }
});


const local = () => harness({ env: { ALLOW_HTTP_HOSTS: '127.0.0.1' } });

describe('uploadFiles', () => {
  it('downloads a URL and uploads it to Tape, answering the temporary file id', async () => {
    const h = await local();
    const r = await h.call('dbapp/uploadFiles', { files: [{ filename: 'invoice-2024-03.pdf', url: `${base()}/files/invoice-2024-03.pdf` }] }, json);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ files: [{ file_id: 'temporary-file-1', name: 'invoice-2024-03.pdf', size: pdf.length, mimetype: 'application/pdf' }], count: 1 });
    const stored = h.tape.state.files.get('temporary-file-1')!;
    expect(Buffer.from(stored.content).equals(pdf)).toBe(true);
    expect(stored.uploaded_by).toBe(10000);
  });

  it('uploads URLs and base64 content together, ids in input order, and says what to do with them', async () => {
    const h = await local();
    const csv = 'name,amount\nAcme,1200\n';
    const r = await h.call('dbapp/uploadFiles', {
      files: [
        { filename: 'Q1 totals.csv', url: `${base()}/download` },
        { filename: 'notes.txt', content: Buffer.from(csv).toString('base64') },
        { filename: 'March invoice.pdf', url: `${base()}/files/invoice-2024-03.pdf` },
      ],
    });
    expect(r.body.data).toBe(
      [
        'temporary-file-1 Q1 totals.csv (text/csv, 22 B)',
        'temporary-file-2 notes.txt (text/plain, 22 B)',
        `temporary-file-3 March invoice.pdf (application/pdf, ${pdf.length} B)`,
        '3 files uploaded — put the file ids in attachment or image fields (createRecord, updateRecord) within 24 h, or Tape deletes them.',
      ].join('\n'),
    );
    expect(Buffer.from(h.tape.state.files.get('temporary-file-2')!.content).toString()).toBe(csv);
  });

  it('takes the one upload shape only: the former names are refused by name, never half-read', async () => {
    const h = await local();
    for (const old of [{ filename: 'a.pdf', url: 'https://example.com/a.pdf', mimetype: 'application/pdf' }, { filename: 'a.txt', content_base64: 'aGk=' }, { filename: 'a.txt', content: 'aGk=', name: 'b.txt' }]) {
      const r = await h.call('dbapp/uploadFiles', { files: [old] });
      expect(r.status).toBe(400);
      const extra = Object.keys(old).find((k) => !['filename', 'url', 'content'].includes(k))!;
      expect(r.body.error.details.parameter).toBe(`files.0.${extra}`);
    }
    expect(h.tape.state.files.size).toBe(0);
  });

  it('passes Tape\'s answer to the upload through the error catalogue', async () => {
    const h = await local();
    const r = await h.call('dbapp/uploadFiles', { files: [{ filename: 'hi.txt', content: 'aGk=' }] }, { key: 'user_key_unknownUnknown0000' });
    expect(r.status).toBe(401);
    expect(r.body.error).toMatchObject({ code: 'UNAUTHORIZED', details: { upstream_status: 401 } });
    expect(h.tape.state.files.size).toBe(0);
  });

  describe('refusals: nothing is uploaded', () => {
    it.each([
      ['http to a host not in ALLOW_HTTP_HOSTS', 'http://example.com/report.pdf', 'scheme', 'only https'],
      ['a private address', 'https://10.0.0.1/report.pdf', 'address', 'a private address (10.0.0.0/8)'],
      ['the metadata address', 'https://169.254.169.254/latest/meta-data/iam/', 'address', 'cloud metadata'],
      ['IPv6 loopback', 'https://[::1]/x', 'address', 'loopback'],
      ['a name resolving to loopback', 'https://localhost/x', 'address', 'loopback'],
      ['a non-http scheme', 'file:///etc/passwd', 'scheme', 'only https'],
    ])('%s', async (_what, url, reason, text) => {
      const h = await local();
      const r = await h.call('dbapp/uploadFiles', { files: [{ filename: 'report.pdf', url }] });
      expect(r.status).toBe(400);
      expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'files.0.url', reason } });
      expect(r.body.error.message).toContain(text);
      expect(h.tape.state.files.size).toBe(0);
    });

    it('refuses a redirect to a private address', async () => {
      const h = await local();
      const url = `${base()}/redirect?to=${encodeURIComponent('https://192.168.0.10/admin/backup.tar')}`;
      const r = await h.call('dbapp/uploadFiles', { files: [{ filename: 'report.pdf', url }] });
      expect(r.body.error.details).toMatchObject({ parameter: 'files.0.url', reason: 'address', address: '192.168.0.10' });
      expect(h.tape.state.files.size).toBe(0);
    });

    it('refuses the local server itself when ALLOW_HTTP_HOSTS does not list it', async () => {
      const h = await harness();
      const r = await h.call('dbapp/uploadFiles', { files: [{ filename: 'invoice-2024-03.pdf', url: `${base()}/files/invoice-2024-03.pdf` }] });
      expect(r.body.error.details).toMatchObject({ parameter: 'files.0.url', reason: 'scheme' });
    });

    it('refuses a file over 25 MB, declared or streamed', async () => {
      const h = await local();
      const declared = await h.call('dbapp/uploadFiles', { files: [{ filename: 'huge.bin', url: `${base()}/declared-huge` }] });
      expect(declared.body.error.details).toMatchObject({ parameter: 'files.0.url', reason: 'too_large', max_bytes: 25 * MB });
      expect(declared.body.error.message).toContain('larger than 25 MB');
      const streamed = await h.call('dbapp/uploadFiles', { files: [{ filename: 'blob.bin', url: `${base()}/blob?mb=26` }] });
      expect(streamed.body.error.details).toMatchObject({ parameter: 'files.0.url', reason: 'too_large' });
      expect(h.tape.state.files.size).toBe(0);
    });

    it('refuses more than 50 MB in one call', async () => {
      const h = await local();
      const url = `${base()}/blob?mb=20`;
      const r = await h.call('dbapp/uploadFiles', { files: [{ filename: 'a.bin', url }, { filename: 'b.bin', url }, { filename: 'c.bin', url }] });
      expect(r.body.error.details).toMatchObject({ reason: 'too_large', max_total_bytes: 50 * MB });
      expect(h.tape.state.files.size).toBe(0);
    });

    it('uploads none when one of several fails, naming the failing one', async () => {
      const h = await local();
      const good = `${base()}/files/invoice-2024-03.pdf`;
      const checked = await h.call('dbapp/uploadFiles', { files: [{ filename: 'a.pdf', url: good }, { filename: 'b.pdf', url: 'http://example.com/a.pdf' }] });
      expect(checked.body.error.details).toMatchObject({ parameter: 'files.1.url', reason: 'scheme' });
      const downloaded = await h.call('dbapp/uploadFiles', { files: [{ filename: 'a.pdf', url: good }, { filename: 'hi.txt', content: 'aGk=' }, { filename: 'c.pdf', url: `${base()}/missing` }] });
      expect(downloaded.body.error.details).toMatchObject({ parameter: 'files.2.url', reason: 'http_status', http_status: 404 });
      expect(h.tape.state.files.size).toBe(0);
    });
  });

  it.each([
    [{ files: [] }, 'files'],
    [{ files: Array.from({ length: 11 }, () => ({ filename: 'hi.txt', content: 'aGk=' })) }, 'files'],
    [{ files: [{ filename: 'a.pdf' }] }, 'files.0'],
    [{ files: [{ filename: 'a.pdf', url: 'https://example.com/a.pdf', content: 'aGk=' }] }, 'files.0'],
    [{ files: [{ content: 'aGk=' }] }, 'files.0.filename'],
    [{ files: [{ filename: 'a.txt', content: 'not base64!' }] }, 'files.0.content'],
    [{ files: [{ filename: 'a.pdf', url: 'https://example.com/a.pdf', size: 3 }] }, 'files.0.size'],
  ])('rejects %j naming %s, before any upload', async (params, parameter) => {
    const h = await local();
    const r = await h.call('dbapp/uploadFiles', params);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter } });
    expect(h.tape.state.files.size).toBe(0);
  });
});

describe('resolveAttachments (for attachment and image field values)', () => {
  function context(allow = '127.0.0.1') {
    const tape = createTapeTwin();
    const client = createTapeClient(SANDBOX_KEYS.owner, { baseUrl: 'https://api.tapeapp.com', fetch: tape.fetch, timeoutMs: 5000 });
    return { tape, ctx: { client, config: loadConfig({ ALLOW_HTTP_HOSTS: allow }), deadline: Number.POSITIVE_INFINITY } };
  }

  it('passes file ids through and replaces URLs by the ids of their uploads, in place', async () => {
    const { tape, ctx } = context();
    const out = await resolveAttachments([101, `${base()}/files/invoice-2024-03.pdf`, 'temporary-file-9', '102', `${base()}/download`], ctx, 'fields.hr_documents');
    expect(out).toEqual([101, 'temporary-file-1', 'temporary-file-9', 102, 'temporary-file-2']);
    expect([...tape.state.files.values()].map((f) => f.name)).toEqual(['invoice-2024-03.pdf', 'Q1 totals.csv']);
  });

  it('makes no upload when there is no URL', async () => {
    const { tape, ctx } = context();
    expect(await resolveAttachments([5, 'temporary-file-3'], ctx, 'fields.photos')).toEqual([5, 'temporary-file-3']);
    expect(tape.state.files.size).toBe(0);
  });

  it.each([
    [['report.pdf is here'], 'fields.docs.0', 'neither a file id nor an https URL'],
    [[1, 'example.com/a.pdf'], 'fields.docs.1', 'neither a file id nor an https URL'],
    [[0], 'fields.docs.0', 'positive integers'],
    [[1.5], 'fields.docs.0', 'positive integers'],
    [['https://example.com/a.pdf', 'ftp://example.com/a.pdf'], 'fields.docs.1', 'only https'],
    [['https://169.254.169.254/latest/meta-data/'], 'fields.docs.0', 'metadata'],
  ])('refuses %j naming %s, uploading nothing', async (values, parameter, text) => {
    const { tape, ctx } = context();
    const err = await resolveAttachments(values as (number | string)[], ctx, 'fields.docs').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ToolError);
    expect((err as ToolError).details.parameter).toBe(parameter);
    expect((err as ToolError).message).toContain(text);
    expect(tape.state.files.size).toBe(0);
  });
});
