import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocal } from '../../infra/local/server';
import { localPlatform } from '../../infra/local/platforms';
import { harness, SANDBOX_KEYS } from '../helpers/harness';
import { REPORT_DOCX_MARKDOWN } from '../helpers/files';
import { docxFile, imageFile, pdfFile, pptxFile, xlsxFile } from '../collab/files-fixtures';

const json = { query: 'format=json' };
const DEALS = 902;
type H = Awaited<ReturnType<typeof harness>>;

/** A "Documents" attachment field on the demo Deals app (a twin request beside the tools). */
async function addDocumentsField(fetchTwin: typeof fetch, base = 'https://api.tapeapp.com') {
  await fetchTwin(`${base}/v1/app/${DEALS}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}`, 'content-type': 'application/json' },
    body: JSON.stringify({ fields: [{ field_type: 'multi_attachment', config: { label: 'Documents' } }] }),
  });
}

/** Uploads the files with uploadFiles, attaches them to a new deal; the record id and each file's attached id. */
async function attach(call: (tool: string, params: unknown) => Promise<any>, files: { filename: string; bytes: Uint8Array }[]): Promise<{ record_id: number; ids: number[] }> {
  const up = await call('uploadFiles', { files: files.map((f) => ({ filename: f.filename, content: Buffer.from(f.bytes).toString('base64') })) });
  const rec = await call('createRecord', { app_id: DEALS, fields: { deal_name: 'With documents', stage: [4], documents: up.files.map((f: { file_id: string }) => f.file_id) }, id_only: false });
  const docs = rec.fields.find((f: { label: string }) => f.label === 'Documents').value as { file_id: number }[];
  return { record_id: rec.record_id, ids: docs.map((d) => d.file_id) };
}

const via = (h: H) => async (tool: string, params: unknown) => {
  const r = await h.call(`dbapp/${tool}`, params, json);
  expect(r.status, JSON.stringify(r.body.error)).toBe(200);
  return r.body.data;
};

describe('dbapp fileToMarkdown and analyzeFile: real files attached to a record', () => {
  it('DOCX, XLSX, PPTX, PDF and a PNG scan convert as collab converts them', async () => {
    const h = await harness();
    await addDocumentsField(h.tape.fetch);
    const { record_id, ids } = await attach(via(h), [
      { filename: 'report.docx', bytes: await docxFile() },
      { filename: 'prices.xlsx', bytes: await xlsxFile(2, 2) },
      { filename: 'plan.pptx', bytes: await pptxFile() },
      { filename: 'agreement.pdf', bytes: await pdfFile(2) },
      { filename: 'scan.png', bytes: await imageFile('png') },
    ]);
    const [docx, xlsx, pptx, pdf, png] = ids as [number, number, number, number, number];
    const r = await h.call('dbapp/fileToMarkdown', { record_id, file_id: docx }, json);
    expect(r.body.data).toMatchObject({ record_id, file_id: docx, name: 'report.docx', kind: 'docx' });
    expect(r.body.data.markdown).toBe(REPORT_DOCX_MARKDOWN);
    expect((await h.call('dbapp/fileToMarkdown', { record_id, file_id: xlsx }, json)).body.data.markdown).toContain('## Sheet: Region 1\n\n| Product | Units | Price |');
    expect((await h.call('dbapp/fileToMarkdown', { record_id, file_id: pptx }, json)).body.data.markdown).toContain('## Slide 1\n\nLaunch Plan');
    expect((await h.call('dbapp/fileToMarkdown', { record_id, file_id: pdf }, json)).body.data.markdown).toContain('## Section 2: Terms');
    expect((await h.call('dbapp/fileToMarkdown', { record_id, file_id: png }, json)).body.data.markdown).toContain('INVOICE 4711');
    const a = (await h.call('dbapp/analyzeFile', { record_id, file_id: xlsx }, json)).body.data;
    expect(a).toMatchObject({ record_id, file_id: xlsx, kind: 'xlsx', sheets: [{ name: 'Region 1', rows: 3, columns: 3 }, { name: 'Region 2', rows: 3, columns: 3 }] });
    expect((await h.call('dbapp/analyzeFile', { record_id, file_id: docx })).body.data).toMatch(new RegExp(`^#${docx} report\\.docx: DOCX, [\\d.]+ KB; 30 words, language eng`));
  }, 40_000);

  it('errors: a file not on the record lists the record\'s files; another type names the type found; an unknown record is NOT_FOUND', async () => {
    const h = await harness();
    await addDocumentsField(h.tape.fetch);
    const { record_id, ids } = await attach(via(h), [{ filename: 'notes.txt', bytes: new TextEncoder().encode('just text') }]);
    const other = await h.call('dbapp/fileToMarkdown', { record_id, file_id: 999999 }, json);
    expect(other.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'file_id' } });
    expect(other.body.error.message).toContain(`${ids[0]} (notes.txt)`);
    const t = await h.call('dbapp/analyzeFile', { record_id, file_id: ids[0] }, json);
    expect(t.body.error.details).toMatchObject({ parameter: 'file_id', type_found: 'text/plain (.txt), plain text' });
    expect((await h.call('dbapp/fileToMarkdown', { record_id: 987654, file_id: 1 }, json)).body.error.code).toBe('NOT_FOUND');
    const bad = await h.call('dbapp/fileToMarkdown', { record_id, file_id: 'x' }, json);
    expect(bad.body.error.details.parameter).toBe('file_id');
  });
});

describe('dbapp attachment links open where the user is: the local server', () => {
  let local: Awaited<ReturnType<typeof startLocal>>;
  beforeAll(async () => {
    local = await startLocal({ PORT: '0' });
  });
  afterAll(() => new Promise<void>((resolve) => local.server.close(() => resolve())));

  it('getRecord shows each attachment\'s download_url, pointing at the twin mounted on this server; a GET with no key downloads the bytes; fileToMarkdown reads it', async () => {
    const key = localPlatform('dbapp').keys.owner;
    const call = async (tool: string, params: unknown) => {
      const res = await fetch(`${local.base}/v1/tools/dbapp/${tool}?format=json`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(params) });
      return ((await res.json()) as { data: any }).data;
    };
    await addDocumentsField(fetch, `${local.base}/twins/tape`);
    const docx = await docxFile();
    const { record_id, ids } = await attach(call, [{ filename: 'report.docx', bytes: docx }]);
    // getRecord shows each attachment's download_url: Tape's signed link, here the twin's mount on this server.
    const record = await call('getRecord', { record_id });
    const [doc] = record.fields.find((f: { label: string }) => f.label === 'Documents').value as { file_id: number; name: string; download_url: string }[];
    expect(doc).toMatchObject({ file_id: ids[0], name: 'report.docx' });
    const link = doc!.download_url;
    expect(link.startsWith(`${local.base}/twins/tape/files/${ids[0]}/`)).toBe(true);
    const raw = await fetch(`${local.base}/twins/tape/v1/record/${record_id}`, { headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}` } });
    const field = ((await raw.json()) as { fields: { label: string; values: { value: { download_url: string } }[] }[] }).fields.find((f) => f.label === 'Documents')!;
    expect(link).toBe(field.values[0]!.value.download_url);
    const got = await fetch(link);
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer()).equals(Buffer.from(docx))).toBe(true);
    expect((await fetch(link.replace(/\/files\/(\d+)\/[0-9a-f]+\//, '/files/$1/0000/'))).status).toBe(404);
    expect((await call('fileToMarkdown', { record_id, file_id: ids[0] })).markdown).toMatch(/^# Quarterly Report/);
  });
});
