import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';

/**
 * Small but real documents for the twins' seeds, generated in code (no committed binaries), so
 * the document tools convert what a new user finds first: a PDF with a page of text, DOCX, XLSX
 * and PPTX (zips of the parts Office needs, which officeparser reads), a PNG of a colour, and a
 * PNG of text (OCR reads it). All synchronous and quick, so a twin's start stays fast; a seed
 * builds them once per process and hands out the same Buffers, which callers must not write into.
 */

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** A one-page PDF 1.4 showing `lines` of Helvetica text, with a correct xref table. */
export function tinyPdf(lines: string[]): Buffer {
  const esc = (s: string) => s.replace(/[\\()]/g, (m) => `\\${m}`);
  const stream = `BT /F1 12 Tf 72 720 Td 16 TL ${lines.map((l) => `(${esc(l)}) '`).join(' ')} ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`,
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** A zip archive of `entries`, stored (no compression): enough for a DOCX. */
export function storedZip(entries: { name: string; data: Buffer }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const crc = crc32(e.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(e.data.length, 18);
    local.writeUInt32LE(e.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(e.data.length, 20);
    central.writeUInt32LE(e.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, e.data);
    centrals.push(central, name);
    offset += 30 + name.length + e.data.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

/** A Word document with one paragraph per line. */
export function tinyDocx(paragraphs: string[]): Buffer {
  const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
  return ooxml({
    path: 'word/document.xml',
    type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml',
    xml: `${XML}<w:document xmlns:w="${W}"><w:body>${paragraphs.map((p) => `<w:p><w:r><w:t>${xml(p)}</w:t></w:r></w:p>`).join('')}</w:body></w:document>`,
  });
}

/** A `size`×`size` RGB PNG: a diagonal gradient of `rgb`. */
export function tinyPng(size: number, rgb: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([head, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour
  const raw = Buffer.alloc(size * (1 + size * 3));
  for (let y = 0; y < size; y++) {
    const row = y * (1 + size * 3);
    for (let x = 0; x < size; x++) {
      const k = (x + y) / (2 * size);
      for (let ch = 0; ch < 3; ch++) raw[row + 1 + x * 3 + ch] = Math.round(rgb[ch]! * (0.5 + k / 2));
    }
  }
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}


/** One part of an OOXML package: its path, its XML, and its content type (none: the package's default for .xml and .rels). */
interface Part {
  path: string;
  xml: string;
  type?: string;
}

/**
 * An OOXML package (DOCX, XLSX, PPTX): `[Content_Types].xml` naming each part's type, the package
 * relationship to `main`, and the parts, each declared once.
 */
function ooxml(main: Part & { type: string }, parts: Part[] = []): Buffer {
  const all = [main, ...parts];
  const types = all.filter((p) => p.type).map((p) => `<Override PartName="/${p.path}" ContentType="${p.type}"/>`).join('');
  return storedZip([
    { name: '[Content_Types].xml', data: Buffer.from(`${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>${types}</Types>`) },
    { name: '_rels/.rels', data: Buffer.from(`${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="${main.path}"/></Relationships>`) },
    ...all.map((p) => ({ name: p.path, data: Buffer.from(p.xml) })),
  ]);
}

const rels = (targets: { type: string; target: string }[]) =>
  `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${targets.map((t, i) => `<Relationship Id="rId${i + 1}" Type="${REL}/${t.type}" Target="${t.target}"/>`).join('')}</Relationships>`;

/** An Excel workbook of one sheet: `rows` of strings and numbers (strings shared, as Excel writes them). */
export function tinyXlsx(sheet: string, rows: (string | number)[][]): Buffer {
  const S = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  const strings: string[] = [];
  const col = (i: number) => String.fromCharCode(65 + i);
  const cells = rows.map((row, r) => `<row r="${r + 1}">${row.map((v, c) => {
    const ref = `${col(c)}${r + 1}`;
    if (typeof v === 'number') return `<c r="${ref}"><v>${v}</v></c>`;
    strings.push(v);
    return `<c r="${ref}" t="s"><v>${strings.length - 1}</v></c>`;
  }).join('')}</row>`).join('');
  const ct = 'application/vnd.openxmlformats-officedocument.spreadsheetml';
  return ooxml({ path: 'xl/workbook.xml', type: `${ct}.sheet.main+xml`, xml: `${XML}<workbook xmlns="${S}" xmlns:r="${REL}"><sheets><sheet name="${xml(sheet)}" sheetId="1" r:id="rId1"/></sheets></workbook>` }, [
    { path: 'xl/_rels/workbook.xml.rels', xml: rels([{ type: 'worksheet', target: 'worksheets/sheet1.xml' }, { type: 'sharedStrings', target: 'sharedStrings.xml' }]) },
    { path: 'xl/worksheets/sheet1.xml', type: `${ct}.worksheet+xml`, xml: `${XML}<worksheet xmlns="${S}"><sheetData>${cells}</sheetData></worksheet>` },
    { path: 'xl/sharedStrings.xml', type: `${ct}.sharedStrings+xml`, xml: `${XML}<sst xmlns="${S}" count="${strings.length}" uniqueCount="${strings.length}">${strings.map((s) => `<si><t>${xml(s)}</t></si>`).join('')}</sst>` },
  ]);
}

/** A PowerPoint deck: one slide per entry, a title and body lines. */
export function tinyPptx(slides: { title: string; lines: string[] }[]): Buffer {
  const P = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';
  const ct = 'application/vnd.openxmlformats-officedocument.presentationml';
  const shape = (id: number, paragraphs: string[]) =>
    `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="Text ${id}"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/>${paragraphs.map((t) => `<a:p><a:r><a:t>${xml(t)}</a:t></a:r></a:p>`).join('')}</p:txBody></p:sp>`;
  return ooxml(
    {
      path: 'ppt/presentation.xml',
      type: `${ct}.presentation.main+xml`,
      xml: `${XML}<p:presentation ${P} xmlns:r="${REL}"><p:sldIdLst>${slides.map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${i + 1}"/>`).join('')}</p:sldIdLst><p:sldSz cx="9144000" cy="6858000"/><p:notesSz cx="6858000" cy="9144000"/></p:presentation>`,
    },
    [
      { path: 'ppt/_rels/presentation.xml.rels', xml: rels(slides.map((_, i) => ({ type: 'slide', target: `slides/slide${i + 1}.xml` }))) },
      ...slides.map((s, i) => ({
        path: `ppt/slides/slide${i + 1}.xml`,
        type: `${ct}.slide+xml`,
        xml: `${XML}<p:sld ${P}><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>${shape(2, [s.title])}${shape(3, s.lines)}</p:spTree></p:cSld></p:sld>`,
      })),
    ],
  );
}

const require = createRequire(import.meta.url);

/** Where `textCanvas` draws (px): the canvas width, the font size, the first baseline, the line height, the left margin, the space below the last baseline. */
export interface TextLayout {
  width: number;
  fontPx: number;
  top: number;
  lineHeight: number;
  left: number;
  bottom: number;
}

/**
 * Dark text on white, large enough for OCR, drawn with the Liberation Sans font that pdf.js ships
 * (no system fonts needed) on @napi-rs/canvas, which the local server and the tests install (a
 * development dependency, as the twins are): the canvas, for the caller to encode.
 */
export function textCanvas(lines: string[], layout: TextLayout, colour = '#111111') {
  const { createCanvas, GlobalFonts } = require('@napi-rs/canvas') as typeof import('@napi-rs/canvas');
  if (!GlobalFonts.has('Twin Sans')) GlobalFonts.registerFromPath(join(dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts', 'LiberationSans-Bold.ttf'), 'Twin Sans');
  const canvas = createCanvas(layout.width, layout.top + (lines.length - 1) * layout.lineHeight + layout.bottom);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = colour;
  ctx.font = `${layout.fontPx}px "Twin Sans"`;
  lines.forEach((l, i) => ctx.fillText(l, layout.left, layout.top + i * layout.lineHeight));
  return canvas;
}

/** A PNG of dark text on white (textCanvas). */
export function textImage(lines: string[]): Buffer {
  return textCanvas(lines, { width: 720, fontPx: 40, top: 64, lineHeight: 64, left: 32, bottom: 40 }).toBuffer('image/png');
}
