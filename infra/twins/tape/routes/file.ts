import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import { tapeDateTime, TapeHttpError, type TwinEnv } from '../http';
import type { TapeFile, TapeState, TapeStoredFile } from '../state';

/** docs/vendors/tape.md#files: maximum file size 100MB. */
export const MAX_FILE_BYTES = 100 * 1024 * 1024;
/** docs/vendors/tape.md#files: the `link` URL expires "after some hours". */
const LINK_HOURS = 6;
const THUMBNAIL_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/bmp', 'image/tiff']);
const BY_EXTENSION: Record<string, string> = {
  txt: 'text/plain', csv: 'text/csv', html: 'text/html', json: 'application/json', pdf: 'application/pdf', zip: 'application/zip',
  jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp', bmp: 'image/bmp', tiff: 'image/tiff', svg: 'image/svg+xml',
  doc: 'application/msword', docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

const noFile = () => new TapeHttpError(400, 'validation', "No file provided to upload endpoint '/v1/file/upload/' via multipart/form-data name: 'file'");

function isFile(part: unknown): part is File {
  return typeof part === 'object' && part !== null && typeof (part as Blob).arrayBuffer === 'function';
}

/** The part's declared type, else a guess from the extension (as curl -F and Tape do). */
function mimetypeOf(part: File): string {
  const declared = part.type.split(';')[0]!.trim().toLowerCase();
  if (declared && declared !== 'application/octet-stream') return declared;
  const ext = /\.([a-z0-9]+)$/i.exec(part.name)?.[1]?.toLowerCase();
  return (ext && BY_EXTENSION[ext]) || 'application/octet-stream';
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex').slice(0, bytes * 2 - 2);

/** /v1/file, as docs/vendors/tape.md#files documents it: multipart upload of one or more `file` parts. */
export function fileRoutes(state: TapeState, now: () => number = Date.now) {
  const r = new Hono<TwinEnv>();

  /** A link in the shape of the docs' signed S3 URLs. */
  function link(): string {
    const expires = Math.floor(now() / 1000) + LINK_HOURS * 3600;
    const signature = encodeURIComponent(randomBytes(20).toString('base64'));
    return `https://s3.eu-central-1.amazonaws.com/tape-attachments/${hex(16)}?Expires=${expires}&Signature=${signature}`;
  }

  function wire(f: TapeStoredFile): TapeFile {
    const { content: _content, uploaded_by: _by, ...file } = f;
    return file;
  }

  r.post('/file/upload', async (c) => {
    const type = c.req.header('content-type') ?? '';
    let body: Record<string, unknown> = {};
    if (/^multipart\/form-data/i.test(type)) {
      try {
        body = await c.req.parseBody({ all: true });
      } catch {
        throw noFile();
      }
    }
    const parts = [body.file].flat().filter(isFile);
    if (parts.length === 0) throw noFile();
    const tooBig = parts.find((p) => p.size > MAX_FILE_BYTES);
    if (tooBig) throw new TapeHttpError(400, 'validation', `File '${tooBig.name}' (${tooBig.size} bytes) exceeds the maximum file size of 100MB.`);

    const user = c.get('user');
    const created_on = tapeDateTime(new Date(now()));
    const files: TapeFile[] = [];
    for (const part of parts) {
      const mimetype = mimetypeOf(part);
      const stored: TapeStoredFile = {
        file_id: `temporary-file-${state.nextId.file++}`,
        name: part.name || 'file',
        size: part.size,
        mimetype,
        created_on,
        link: link(),
        ...(THUMBNAIL_TYPES.has(mimetype)
          ? {
              thumbnail: {
                small: `https://s3.eu-central-1.amazonaws.com/tape-thumbnails/${hex(16)}`,
                medium: `https://s3.eu-central-1.amazonaws.com/tape-thumbnails/${hex(16)}`,
                large: `https://s3.eu-central-1.amazonaws.com/tape-thumbnails/${hex(16)}`,
              },
            }
          : {}),
        content: new Uint8Array(await part.arrayBuffer()),
        uploaded_by: user.user_id,
      };
      state.files.set(stored.file_id, stored);
      files.push(wire(stored));
    }
    // docs/vendors/tape.md#files: one file → a file object; more than one → an array of file objects.
    return c.json(files.length === 1 ? files[0] : files);
  });

  return r;
}
