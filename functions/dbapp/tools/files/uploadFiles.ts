import * as z from 'zod';
import { entrySources, fileEntriesInput } from '../../../../shared/files/entries';
import { uploadSources } from '../../files/attachments';
import { plural } from '../../../../shared/core/render';
import { fileLine, toUploadedFile, type UploadedFile } from '../../files/render';
import { dbappTool } from '../../tool';

export const uploadFiles = dbappTool({
  name: 'uploadFiles',
  description:
    'Upload 1 to 10 files to Tape and get their temporary file ids for the attachment and image fields of createRecord / updateRecord. files: each a ' +
    'filename plus exactly one of url (an https link the service downloads) or content (the bytes, base64) — the same entries as every upload tool. ' +
    'Those record tools also take https URLs directly; use this one when you hold the bytes, or to upload a file once for several records. ' +
    'URLs must be public https (private, loopback, link-local and metadata addresses are refused, on every redirect too; hosts the deployment lists in ALLOW_HTTP_HOSTS, locally 127.0.0.1 and localhost, may use http and private addresses); at most 25 MB per file, 50 MB per call, 15 s per download. ' +
    'All files go up in one request and none if any fails. Tape deletes files not attached to a record within 24 hours.',
  input: z.strictObject({
    files: fileEntriesInput(10).describe('The files to upload, 1 to 10, each {filename, url} or {filename, content}, in the order their ids are returned.'),
  }),
  annotations: { readOnly: false, destructive: false, idempotent: false },
  async run(input, ctx) {
    const files = (await uploadSources(entrySources(input.files, 'files'), ctx)).map(toUploadedFile);
    return { files, count: files.length };
  },
  text: (r: { files: UploadedFile[]; count: number }) =>
    [
      ...r.files.map(fileLine),
      `${plural(r.count, 'file')} uploaded — put the file ids in attachment or image fields (createRecord, updateRecord) within 24 h, or Tape deletes them.`,
    ].join('\n'),
  example: {
    input: { files: [{ filename: 'invoice-2024-03.pdf', url: 'https://example.com/files/invoice-2024-03.pdf' }, { filename: 'totals.csv', content: 'bmFtZSxhbW91bnQKQWNtZSwxMjAwCg==' }] },
    result: {
      files: [
        { file_id: 'temporary-file-1', name: 'invoice-2024-03.pdf', size: 48213, mimetype: 'application/pdf' },
        { file_id: 'temporary-file-2', name: 'totals.csv', size: 22, mimetype: 'text/csv' },
      ],
      count: 2,
    },
  },
});
