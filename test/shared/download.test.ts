import { describe, expect, it } from 'vitest';
import { loopbackServer } from '../helpers/loopback';
import { downloadSources, type FileSource } from '../../shared/vendor/download';
import { ToolError } from '../../shared/core/errors';

// A plain http server on 127.0.0.1: reachable only because the context lists 127.0.0.1 in allowHttpHosts.
const hits: string[] = [];
const base = loopbackServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  hits.push(url.pathname);
  if (url.pathname === '/a.txt') return void res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('alpha');
  if (url.pathname === '/named') return void res.writeHead(200, { 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="Q3.pdf"' }).end('%PDF');
  if (url.pathname === '/kb') return void res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.alloc(Number(url.searchParams.get('n')) * 1024));
  if (url.pathname === '/hang') return; // never answers: only an abort ends it
  res.writeHead(404).end();
});

const ctx = () => ({ config: { allowHttpHosts: ['127.0.0.1'] }, deadline: Date.now() + 60_000 });
const failure = async (p: Promise<unknown>) => {
  const e = await p.then(() => undefined, (err: unknown) => err);
  expect(e).toBeInstanceOf(ToolError);
  return e as ToolError;
};

describe('downloadSources', () => {
  it('downloads URLs and passes bytes in hand through, in source order, with names and media types', async () => {
    const sources: FileSource[] = [
      { url: `${base()}/a.txt`, parameter: 'files.0' },
      { content: new TextEncoder().encode('hi'), name: 'hi.txt' },
      { url: `${base()}/named`, parameter: 'files.2', name: 'renamed.pdf' },
    ];
    const files = await downloadSources(sources, ctx());
    expect(files.map((f) => [f.name, f.mimetype, new TextDecoder().decode(f.content)])).toEqual([
      ['a.txt', 'text/plain', 'alpha'],
      ['hi.txt', 'application/octet-stream', 'hi'],
      ['renamed.pdf', 'application/pdf', '%PDF'],
    ]);
  });

  it('checks every source before downloading any', async () => {
    hits.length = 0;
    const err = await failure(downloadSources([{ url: `${base()}/a.txt`, parameter: 'files.0' }, { url: 'http://example.com/x', parameter: 'files.1' }], ctx()));
    expect(err.details).toMatchObject({ parameter: 'files.1', reason: 'scheme' });
    expect(hits).toEqual([]);
  });

  it('keeps one byte budget for all downloads of the call', async () => {
    const sources = [1, 2, 3].map((i) => ({ url: `${base()}/kb?n=4`, parameter: `files.${i}` }));
    const err = await failure(downloadSources(sources, ctx(), { maxTotalBytes: 10 * 1024 }));
    expect(err.details).toMatchObject({ reason: 'too_large', max_total_bytes: 10 * 1024 });
  });

  it('stops the other downloads at the first failure and reports that one', async () => {
    // The hanging download must be aborted: waited for, it would outlast the test's 5 s timeout (its own is 15 s).
    const err = await failure(downloadSources([{ url: `${base()}/hang`, parameter: 'files.0' }, { url: `${base()}/missing`, parameter: 'files.1' }], ctx()));
    expect(err.details).toMatchObject({ parameter: 'files.1', reason: 'http_status', http_status: 404 });
  });
});
