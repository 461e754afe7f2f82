import * as z from 'zod';
import type { FileSource } from '../../../../shared/download';
import { uploadSources } from '../../attachments';
import { plural } from '../../../../shared/render';
import { fileLine, toUploadedFile, type UploadedFile } from '../../files/render';
import { dbappTool } from '../../tool';

/** The request body of a call is capped at 6 MB (Lambda); base64 inflates by 4/3. */
const MAX_BASE64_CHARS = 5_500_000;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2,3})?$/;

const fileItem = z
  .strictObject({
    url: z
      .string()
      .max(2048)
      .optional()
      .describe('https URL of the file on the public internet; it is downloaded (max 25 MB, 15 s; no private or internal addresses) and uploaded.'),
    content_base64: z
      .string()
      .max(MAX_BASE64_CHARS)
      .optional()
      .describe('The file content, base64-encoded, when you hold the bytes rather than a URL (up to about 4 MB). Needs name.'),
    name: z
      .string()
      .trim()
      .min(1)
      .max(255)
      .optional()
      .describe('File name with extension, e.g. "invoice-2024-03.pdf". Required with content_base64; with url it replaces the name from the download.'),
    mimetype: z
      .string()
      .regex(/^[\w.+-]+\/[\w.+-]+$/)
      .optional()
      .describe('Media type such as "application/pdf"; by default the server\'s for a url, or guessed by Tape from the name.'),
  })
  .superRefine((f, issue) => {
    if ((f.url === undefined) === (f.content_base64 === undefined)) {
      issue.addIssue({ code: 'custom', message: 'give exactly one of "url" or "content_base64"' });
    } else if (f.content_base64 !== undefined && f.name === undefined) {
      issue.addIssue({ code: 'custom', path: ['name'], message: 'a file name such as "notes.txt" is required with content_base64' });
    } else if (f.content_base64 !== undefined && !BASE64.test(f.content_base64.replace(/\s+/g, ''))) {
      issue.addIssue({ code: 'custom', path: ['content_base64'], message: 'is not base64; encode the bytes with the standard alphabet (A-Z a-z 0-9 + /, = padding)' });
    }
  })
  .describe('One file: {url} or {content_base64, name}, optionally with name and mimetype.');

export const uploadFiles = dbappTool({
  name: 'uploadFiles',
  description:
    'Upload 1 to 10 files to Tape, from https URLs or base64 content, and get their temporary file ids for the attachment and image fields of ' +
    'createRecord / updateRecord. Those tools also take https URLs directly; use this one when you hold the bytes, or to upload a file once for several records. ' +
    'URLs must be public https (private, loopback, link-local and metadata addresses are refused, on every redirect too; hosts the deployment lists in ALLOW_HTTP_HOSTS, locally 127.0.0.1 and localhost, may use http and private addresses); at most 25 MB per file, 50 MB per call, 15 s per download. ' +
    'All files go up in one request and none if any fails. Tape deletes files not attached to a record within 24 hours.',
  input: z.strictObject({
    files: z.array(fileItem).min(1).max(10).describe('The files to upload, 1 to 10, in the order their ids are returned.'),
  }),
  annotations: { readOnly: false, destructive: false, idempotent: false },
  async run(input, ctx) {
    const sources: FileSource[] = input.files.map((f, i) =>
      f.url !== undefined
        ? { url: f.url, parameter: `files.${i}.url`, ...(f.name ? { name: f.name } : {}), ...(f.mimetype ? { mimetype: f.mimetype } : {}) }
        : { content: Buffer.from(f.content_base64!, 'base64'), name: f.name!, ...(f.mimetype ? { mimetype: f.mimetype } : {}) },
    );
    const files = (await uploadSources(sources, ctx)).map(toUploadedFile);
    return { files, count: files.length };
  },
  text: (r: { files: UploadedFile[]; count: number }) =>
    [
      ...r.files.map(fileLine),
      `${plural(r.count, 'file')} uploaded — put the file ids in attachment or image fields (createRecord, updateRecord) within 24 h, or Tape deletes them.`,
    ].join('\n'),
  example: {
    input: { files: [{ url: 'https://example.com/files/invoice-2024-03.pdf' }, { content_base64: 'bmFtZSxhbW91bnQKQWNtZSwxMjAwCg==', name: 'totals.csv' }] },
    result: {
      files: [
        { file_id: 'temporary-file-1', name: 'invoice-2024-03.pdf', size: 48213, mimetype: 'application/pdf' },
        { file_id: 'temporary-file-2', name: 'totals.csv', size: 22, mimetype: 'text/csv' },
      ],
      count: 2,
    },
  },
});
