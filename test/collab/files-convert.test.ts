import { describe, expect, it } from 'vitest';
import { harness } from '../helpers/harness';
import { REPORT_DOCX_MARKDOWN, uploadOne } from '../helpers/files';
import { PODIO_DEMO, type PodioTwin } from '../../infra/twins/podio';
import { docxFile, imageFile, pdfFile, pptxFile, xlsxFile } from './files-fixtures';

const json = { query: 'format=json' };
const D = PODIO_DEMO;
type H = Awaited<ReturnType<typeof harness>>;

async function put(h: H, filename: string, bytes: Uint8Array): Promise<number> {
  return (await uploadOne(h, 'collab/uploadFile', filename, bytes)).file_id;
}

describe('fileToMarkdown: real files of every format', () => {
  it('DOCX: headings, paragraphs, lists and tables kept', async () => {
    const h = await harness();
    const id = await put(h, 'report.docx', await docxFile());
    const r = await h.call('collab/fileToMarkdown', { file_id: id }, json);
    expect(r.body.data).toMatchObject({ file_id: id, name: 'report.docx', kind: 'docx' });
    expect(r.body.data.markdown).toBe(REPORT_DOCX_MARKDOWN);
    // Text mode is the markdown itself.
    expect((await h.call('collab/fileToMarkdown', { file_id: id })).body.data).toBe(r.body.data.markdown);
  });

  it('XLSX: every sheet as a heading and a markdown table', async () => {
    const h = await harness();
    const id = await put(h, 'prices.xlsx', await xlsxFile(3, 2));
    const md = (await h.call('collab/fileToMarkdown', { file_id: id }, json)).body.data.markdown;
    for (const s of [1, 2, 3]) expect(md).toContain(`## Sheet: Region ${s}\n\n| Product | Units | Price |\n| --- | --- | --- |\n| Widget ${s}-1 | 10 | 2.5 |\n| Widget ${s}-2 | 20 | 5 |`);
  });

  it('PPTX: each slide as a heading with its text and tables', async () => {
    const h = await harness();
    const id = await put(h, 'plan.pptx', await pptxFile());
    const md = (await h.call('collab/fileToMarkdown', { file_id: id }, json)).body.data.markdown;
    expect(md).toContain('## Slide 1\n\nLaunch Plan\n\nShip the beta to pilot customers in March.');
    expect(md).toContain('## Slide 2\n\nBudget\n\n| Item | Cost |\n| --- | --- |\n| Hosting | 4000 |\n| Design | 2500 |');
  });

  it('PDF: headings by size, paragraphs, pages; more than 50 pages are capped with a note', async () => {
    const h = await harness();
    const id = await put(h, 'agreement.pdf', await pdfFile(2));
    const md = (await h.call('collab/fileToMarkdown', { file_id: id }, json)).body.data.markdown;
    expect(md).toContain('# Service Agreement');
    expect(md).toContain('## Section 1: Terms\n\nThe supplier delivers the services described in section 1.');
    expect(md).toContain('---\n\n## Section 2: Terms');
    const long = await put(h, 'long.pdf', await pdfFile(52));
    const capped = (await h.call('collab/fileToMarkdown', { file_id: long }, json)).body.data;
    expect(capped.truncated).toBe('Only the first 50 pages were converted; the PDF has more.');
    expect(capped.markdown).toContain('## Section 50: Terms');
    expect(capped.markdown).not.toContain('Section 51');
    expect(capped.markdown.endsWith('> Only the first 50 pages were converted; the PDF has more.')).toBe(true);
  });

  it('images by OCR, offline: PNG, JPEG, GIF and WEBP', async () => {
    const h = await harness();
    for (const format of ['png', 'jpeg', 'gif', 'webp'] as const) {
      const id = await put(h, `scan.${format}`, await imageFile(format));
      const r = await h.call('collab/fileToMarkdown', { file_id: id }, json);
      expect(r.body.data.kind, format).toBe('image');
      expect(r.body.data.markdown, format).toContain('INVOICE 4711');
      expect(r.body.data.markdown, format).toContain('1250 EUR');
    }
  }, 60_000);

  it('an unsupported or corrupt file is INVALID_PARAMETER naming the type found; a too large one says the cap', async () => {
    const h = await harness();
    const text = await put(h, 'notes.txt', new TextEncoder().encode('just text'));
    const t = await h.call('collab/fileToMarkdown', { file_id: text }, json);
    expect(t.status).toBe(400);
    expect(t.body.error.details).toMatchObject({ parameter: 'file_id', type_found: 'text/plain (.txt), plain text' });
    expect(t.body.error.message).toContain('only PDF, DOCX, XLSX, PPTX, or an image (PNG, JPEG, GIF, WEBP) files are converted');
    const zip = await put(h, 'archive.zip', new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]));
    expect((await h.call('collab/fileToMarkdown', { file_id: zip }, json)).body.error.details.type_found).toMatch(/ZIP archive \(\.zip\) that is not DOCX/);
    const broken = await put(h, 'broken.docx', new Uint8Array([0x50, 0x4b, 0x03, 0x04, 9, 9, 9, 9, 9]));
    const b = await h.call('collab/fileToMarkdown', { file_id: broken }, json);
    expect(b.status).toBe(400);
    expect(b.body.error.message).toMatch(/looks like a DOCX but could not be read/);
    // A stub that only starts like a PDF is named as one.
    const stub = await put(h, 'stub.pdf', new TextEncoder().encode('%PDF-1.4\n% not a document\n'));
    expect((await h.call('collab/fileToMarkdown', { file_id: stub }, json)).body.error.details.type_found).toBe('pdf');
    // The seeded deal proposals are real PDFs: the first document a new user tries converts.
    const proposal = h.twin<PodioTwin>('collab').state.items.get(D.items.firstDeal)!.file_ids[0]!;
    const read = await h.call('collab/fileToMarkdown', { file_id: proposal });
    expect(read.status).toBe(200);
    expect(read.body.data).toMatch(/Proposal: .+\n*[\s\S]*Amount: \d+\.00 (EUR|USD)/);
    // Over 20 MB: refused before any conversion.
    const twin = h.twin<PodioTwin>('collab');
    twin.state.files.get(text)!.content = new Uint8Array(21 * 1024 * 1024);
    const big = await h.call('collab/fileToMarkdown', { file_id: text }, json);
    expect(big.body.error.details.expected).toBe('a file of at most 20 MB');
  });
});

describe('analyzeFile', () => {
  it('XLSX: sheets with rows×columns, tables, first lines', async () => {
    const h = await harness();
    const id = await put(h, 'prices.xlsx', await xlsxFile(3, 4));
    const a = (await h.call('collab/analyzeFile', { file_id: id }, json)).body.data;
    expect(a).toMatchObject({ file_id: id, kind: 'xlsx', name: 'prices.xlsx', headings: [], first_lines: ['Product Units Price', 'Widget 1-1 10 2.5', 'Widget 1-2 20 5', 'Widget 1-3 30 7.5', 'Widget 1-4 40 10'] });
    expect(a.sheets).toEqual([1, 2, 3].map((s) => ({ name: `Region ${s}`, rows: 5, columns: 3 })));
    expect(a.tables).toEqual([1, 2, 3].map((s) => ({ index: s, rows: 5, columns: 3, where: `sheet "Region ${s}"` })));
    expect(a.size_human).toMatch(/KB$/);
  });

  it('DOCX: outline, tables, word count and language; the text is a few lines', async () => {
    const h = await harness();
    const id = await put(h, 'report.docx', await docxFile());
    const a = (await h.call('collab/analyzeFile', { file_id: id }, json)).body.data;
    expect(a.headings).toEqual([{ level: 1, text: 'Quarterly Report' }, { level: 2, text: 'Highlights' }]);
    expect(a.tables).toEqual([{ index: 1, rows: 3, columns: 2 }]);
    expect(a.word_count).toBe(30);
    expect(a.language).toBe('eng');
    const text = (await h.call('collab/analyzeFile', { file_id: id })).body.data;
    expect(text).toMatch(/^#\d+ report\.docx: DOCX, [\d.]+ KB; 30 words, language eng\noutline: # Quarterly Report \| ## Highlights\ntables: 3×2\nstarts: Quarterly Report \/ Revenue grew/);
  });

  it('PDF pages, PPTX slides, image dimensions with OCR', async () => {
    const h = await harness();
    const pdf = (await h.call('collab/analyzeFile', { file_id: await put(h, 'a.pdf', await pdfFile(3)) }, json)).body.data;
    expect(pdf).toMatchObject({ kind: 'pdf', pages: 3, headings: expect.arrayContaining([{ level: 1, text: 'Service Agreement' }]) });
    const pptx = (await h.call('collab/analyzeFile', { file_id: await put(h, 'p.pptx', await pptxFile()) }, json)).body.data;
    expect(pptx).toMatchObject({ kind: 'pptx', slides: 2, tables: [{ index: 1, rows: 3, columns: 2, where: 'slide 2' }] });
    const img = (await h.call('collab/analyzeFile', { file_id: await put(h, 'i.png', await imageFile('png')) }, json)).body.data;
    expect(img).toMatchObject({ kind: 'image', image: { width: 840, height: 240, format: 'png' }, ocr: true, language: null, first_lines: ['INVOICE 4711 Total due: 1250 EUR'] });
  }, 30_000);
});
