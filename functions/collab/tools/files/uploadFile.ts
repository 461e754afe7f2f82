import * as z from 'zod';
import { byteSize, plural } from '../../../../shared/core/render';
import { collabTool } from '../../tool';
import { entrySources, fileEntriesInput } from '../../../../shared/files/entries';
import { uploadSources } from '../../files/uploads';
import { uploadedFile } from '../../files/render';

interface Uploaded {
  files: { file_id: number; name: string; mimetype: string; size: number; link: string | null; hosted_by: string | null }[];
}

export const uploadFile = collabTool({
  name: 'uploadFile',
  description:
    'Upload files to Podio without attaching them: each entry is a filename plus exactly one of url (an https link the service downloads, public hosts only, ' +
    'at most 25 MB) or content (the bytes, base64). Returns the new numeric file_ids. An unattached file is deleted by Podio after a few hours: attach it ' +
    'with attachFile, or pass its id in file_ids of createItem/updateItem/addCommentToObject. To upload and attach in one call, use uploadFiles.',
  input: z.strictObject({ files: fileEntriesInput(20).describe('The files, 1-20: each {filename, url} or {filename, content}.') }),
  annotations: { readOnly: false, destructive: false, idempotent: false },
  async run({ files }, ctx): Promise<Uploaded> {
    const uploaded = await uploadSources(entrySources(files, 'files'), ctx);
    return { files: uploaded.map(uploadedFile) };
  },
  text: (r: Uploaded) =>
    [
      ...r.files.map((f) => `#${f.file_id} ${f.name} (${f.mimetype}, ${byteSize(f.size)})`),
      `uploaded ${plural(r.files.length, 'file')}, unattached — attach within a few hours (attachFile, or file_ids of an item/comment write) or Podio deletes them`,
    ].join('\n'),
  example: {
    input: { files: [{ filename: 'offer.pdf', url: 'https://example.com/offers/northwind.pdf' }, { filename: 'notes.txt', content: 'aGVsbG8gcG9kaW8=' }] },
    result: {
      files: [
        { file_id: 60015, name: 'offer.pdf', mimetype: 'application/pdf', size: 48213, link: 'https://files.podio.com/60015', hosted_by: 'podio' },
        { file_id: 60016, name: 'notes.txt', mimetype: 'text/plain', size: 11, link: 'https://files.podio.com/60016', hosted_by: 'podio' },
      ],
    },
  },
});
