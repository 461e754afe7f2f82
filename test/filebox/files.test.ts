import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_KEYS, SHAREFILE_DEMO as D, type ShareFileTwin } from '../../infra/twins/sharefile';
import { startLocal } from '../../infra/local/server';
import { localPlatform } from '../../infra/local/platforms';
import { harness } from '../helpers/harness';
import { REPORT_DOCX_MARKDOWN, uploadOne } from '../helpers/files';
import { docxFile, imageFile, pdfFile, pptxFile, xlsxFile } from '../collab/files-fixtures';

const json = { query: 'format=json' };
type H = Awaited<ReturnType<typeof harness>>;

/** Uploads the bytes into the Contracts folder through uploadFile; the new file's item id. */
async function put(h: H, filename: string, bytes: Uint8Array): Promise<string> {
  return (await uploadOne(h, 'filebox/uploadFile', filename, bytes, { folder_id: D.folders.contracts })).item.Id;
}

describe('filebox fileToMarkdown and analyzeFile: real files stored in ShareFile', () => {
  it('DOCX, XLSX, PPTX and PDF convert as collab converts them, by item id', async () => {
    const h = await harness();
    const docx = await put(h, 'report.docx', await docxFile());
    const r = await h.call('filebox/fileToMarkdown', { item_id: docx }, json);
    expect(r.body.data).toMatchObject({ item_id: docx, name: 'report.docx', kind: 'docx' });
    expect(r.body.data.markdown).toBe(REPORT_DOCX_MARKDOWN);
    expect((await h.call('filebox/fileToMarkdown', { item_id: docx })).body.data).toBe(r.body.data.markdown);

    const xlsx = await put(h, 'prices.xlsx', await xlsxFile(2, 2));
    expect((await h.call('filebox/fileToMarkdown', { item_id: xlsx }, json)).body.data.markdown).toContain('## Sheet: Region 2\n\n| Product | Units | Price |\n| --- | --- | --- |\n| Widget 2-1 | 10 | 2.5 |');
    const pptx = await put(h, 'plan.pptx', await pptxFile());
    expect((await h.call('filebox/fileToMarkdown', { item_id: pptx }, json)).body.data.markdown).toContain('## Slide 2\n\nBudget\n\n| Item | Cost |');
    const pdf = await put(h, 'agreement.pdf', await pdfFile(2));
    expect((await h.call('filebox/fileToMarkdown', { item_id: pdf }, json)).body.data.markdown).toContain('# Service Agreement');

    const a = (await h.call('filebox/analyzeFile', { item_id: xlsx }, json)).body.data;
    expect(a).toMatchObject({ item_id: xlsx, kind: 'xlsx', name: 'prices.xlsx', mimetype: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', sheets: [{ name: 'Region 1', rows: 3, columns: 3 }, { name: 'Region 2', rows: 3, columns: 3 }] });
    const text = (await h.call('filebox/analyzeFile', { item_id: docx })).body.data;
    expect(text).toMatch(new RegExp(`^${docx} report\\.docx: DOCX, [\\d.]+ KB; 30 words, language eng\\noutline: # Quarterly Report \\| ## Highlights`));
    expect((await h.call('filebox/analyzeFile', { item_id: pdf }, json)).body.data).toMatchObject({ kind: 'pdf', pages: 2 });
  });

  it('a PNG scan is read by OCR', async () => {
    const h = await harness();
    const png = await put(h, 'scan.png', await imageFile('png'));
    const md = await h.call('filebox/fileToMarkdown', { item_id: png }, json);
    expect(md.body.data).toMatchObject({ kind: 'image' });
    expect(md.body.data.markdown).toContain('INVOICE 4711');
    expect((await h.call('filebox/analyzeFile', { item_id: png }, json)).body.data).toMatchObject({ image: { width: 840, height: 240, format: 'png' }, ocr: true });
  }, 30_000);

  it('errors name item_id: a folder, another type, a corrupt file, no download rights, a file over 20 MB (refused before the download)', async () => {
    const h = await harness();
    const twin = h.twin<ShareFileTwin>('filebox');
    const folder = await h.call('filebox/fileToMarkdown', { item_id: D.folders.contracts });
    expect(folder.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'item_id' } });
    const text = await put(h, 'notes.txt', new TextEncoder().encode('just text'));
    const t = await h.call('filebox/fileToMarkdown', { item_id: text }, json);
    expect(t.body.error.details).toMatchObject({ parameter: 'item_id', type_found: 'text/plain (.txt), plain text' });
    expect(t.body.error.message).toContain(`File ${text} (notes.txt) is text/plain (.txt), plain text; only PDF, DOCX, XLSX, PPTX, or an image (PNG, JPEG, GIF, WEBP) files are converted.`);
    const broken = await put(h, 'broken.docx', new Uint8Array([0x50, 0x4b, 0x03, 0x04, 9, 9, 9, 9, 9]));
    expect((await h.call('filebox/analyzeFile', { item_id: broken }, json)).body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'item_id', type_found: 'docx' } });
    const denied = await h.call('filebox/fileToMarkdown', { item_id: D.files.offer }, { key: SANDBOX_KEYS.member });
    expect(denied.body.error.code).toBe('FORBIDDEN');
    const sent = h.recordRequests('filebox');
    const item = twin.state.items.get(text)!;
    item.content = Buffer.alloc(21 * 1024 * 1024);
    const big = await h.call('filebox/fileToMarkdown', { item_id: text }, json);
    expect(big.body.error.details).toMatchObject({ parameter: 'item_id', expected: 'a file of at most 20 MB' });
    expect(big.body.error.message).toContain('Use downloadFile for a link instead.');
    expect(sent.map((s) => s.path)).toEqual([`/sf/v3/Items(${text})`]);
  });
});

describe('links filebox hands out open where the user is: the local server', () => {
  let local: Awaited<ReturnType<typeof startLocal>>;
  beforeAll(async () => {
    local = await startLocal({ PORT: '0' });
  });
  afterAll(() => new Promise<void>((resolve) => local.server.close(() => resolve())));
  const key = localPlatform('filebox').keys.owner;
  const call = async (tool: string, params: unknown) => {
    const res = await fetch(`${local.base}/v1/tools/filebox/${tool}?format=json`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(params) });
    return ((await res.json()) as { data: any }).data;
  };

  it('downloadFile: the link points at the twin mounted on this server, and a plain GET (no key) downloads the bytes', async () => {
    const up = await call('uploadFile', { folder_id: D.folders.contracts, files: [{ filename: 'hello.txt', content: Buffer.from('Hello, offline').toString('base64') }] });
    const d = await call('downloadFile', { item_id: up.files[0].item.Id });
    expect(d.download_url.startsWith(`${local.base}/twins/sharefile/download?dt=`)).toBe(true);
    const got = await fetch(d.download_url);
    expect(got.status).toBe(200);
    expect(await got.text()).toBe('Hello, offline');
  });

  it('a Send share\'s Uri opens on this server and its file downloads', async () => {
    const s = await call('createShare', { share_type: 'Send', items: [D.files.offer], title: 'Offer' });
    const uri: string = (s.share ?? s).Uri;
    expect(uri.startsWith(`${local.base}/twins/sharefile/share/view/`)).toBe(true);
    const page = await fetch(uri);
    expect(page.status).toBe(200);
    const href = /href="([^"]+)"/.exec(await page.text())![1]!;
    const file = await fetch(new URL(href, uri));
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).subarray(0, 4).toString('latin1')).toBe('%PDF');
  });

  it('fileToMarkdown reads the bytes behind such a link in-process', async () => {
    const up = await call('uploadFile', { folder_id: D.folders.contracts, files: [{ filename: 'report.docx', content: Buffer.from(await docxFile()).toString('base64') }] });
    expect((await call('fileToMarkdown', { item_id: up.files[0].item.Id })).markdown).toMatch(/^# Quarterly Report/);
  });
});
