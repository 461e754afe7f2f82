import * as z from 'zod';
import { invalidParameter, ToolError } from '../../../../shared/core/errors';
import { downloadSources } from '../../../../shared/vendor/download';
import { entrySources, fileEntriesInput } from '../../../../shared/files/entries';
import { plural } from '../../../../shared/core/render';
import { fileboxTool } from '../../tool';
import { folderIdInput } from '../../params';
import { itemDetail, toItem, type Item } from '../../render';
import { checkClash, checkTarget } from '../../items/targets';

/** Files one call uploads (each is two requests to ShareFile). */
const MAX_FILES = 20;
/** Characters ShareFile refuses in item names. */
const BAD_NAME = /[\\/:*?"<>|]/;

interface UploadedFile {
  filename: string;
  status: 'uploaded' | 'failed';
  /** True when the upload added a version to an existing file of that name. */
  new_version?: boolean;
  item?: Item;
  /** Why this file could not be uploaded; the others are. */
  error?: string;
}

interface Uploaded {
  folder_id: string;
  uploaded: number;
  files: UploadedFile[];
}

export const uploadFile = fileboxTool({
  name: 'uploadFile',
  description:
    'Upload files into a folder. files: each a filename plus exactly one of url (an https link the service downloads; public hosts, at most 25 MB) or ' +
    'content (the bytes, base64) — the same entries as every upload tool. With overwrite false (default) an existing file of the same name is an error ' +
    'naming it, before anything is uploaded; overwrite true uploads a new version of it (same StreamID, new id). Returns each file with its new item ' +
    '(status "uploaded"), or "failed" with the reason when ShareFile refused that one (the others stay uploaded).',
  input: z.strictObject({
    folder_id: folderIdInput('Folder to upload into: a folder id (fo…), "home" or "box".'),
    files: fileEntriesInput(MAX_FILES).describe(`The files, 1-${MAX_FILES}: each {filename, url} or {filename, content}.`),
    description: z.string().max(4000).optional().describe('Description given to every uploaded file.'),
    overwrite: z.boolean().default(false).describe('Upload as a new version of an existing file of the same name (default false: refuse).'),
  }),
  annotations: { readOnly: false, destructive: false, idempotent: false },
  async run(input, ctx): Promise<Uploaded> {
    const { client } = ctx;
    checkTarget('folder_id', input.folder_id, { allowShared: false });
    const seen = new Map<string, number>();
    input.files.forEach((f, i) => {
      const at = `files.${i}.filename`;
      if (BAD_NAME.test(f.filename)) throw invalidParameter(at, 'a name without \\ / : * ? " < > |', `Parameter "${at}": ShareFile refuses the characters \\ / : * ? " < > | in "${f.filename}"; choose another name.`);
      const twin = seen.get(f.filename.toLowerCase());
      if (twin !== undefined) throw invalidParameter(at, 'a name no other entry uses', `Parameter "${at}": "${f.filename}" is also the name of files.${twin}; one folder holds one file of a name.`);
      seen.set(f.filename.toLowerCase(), i);
    });
    // Every entry checked, every URL downloaded and every name checked in the folder before the first byte goes up.
    const downloaded = await downloadSources(entrySources(input.files, 'files'), ctx);
    const existing = await Promise.all(
      downloaded.map(async (file, i) => {
        const found = await checkClash(client, input.folder_id, file.name, { overwrite: input.overwrite, parameter: `files.${i}.filename`, what: 'upload it as a new version' });
        if (found && /Folder$/.test(found['odata.type'])) throw invalidParameter(`files.${i}.filename`, 'a name no folder uses', `A folder named "${found.Name}" is in the way (${found.Id}); choose another file name.`);
        return found;
      }),
    );
    const files: UploadedFile[] = [];
    for (const [i, file] of downloaded.entries()) {
      try {
        const spec = await client.uploadSpecification(input.folder_id, { FileName: file.name, FileSize: file.content.length, Overwrite: input.overwrite, ...(input.description ? { Description: input.description } : {}) });
        const stored = await client.sendUpload(spec.ChunkUri, file);
        files.push({ filename: file.name, status: 'uploaded', new_version: Boolean(existing[i]), item: toItem(await client.getItem(stored.id)) });
      } catch (err) {
        // The files before are uploaded already: report this one rather than lose them.
        if (!(err instanceof ToolError) || downloaded.length === 1) throw err;
        files.push({ filename: file.name, status: 'failed', error: `${err.code}: ${err.message}` });
      }
    }
    return { folder_id: input.folder_id, uploaded: files.filter((f) => f.status === 'uploaded').length, files };
  },
  text: (r: Uploaded) =>
    [
      ...r.files.map((f) => (f.item ? `uploaded ${f.new_version ? '(new version) ' : ''}${itemDetail(f.item)}` : `${f.filename} failed — ${f.error}`)),
      `${plural(r.uploaded, 'file')} uploaded to ${r.folder_id}${r.uploaded < r.files.length ? `; ${r.files.length - r.uploaded} failed (retry those alone)` : ''}`,
    ].join('\n'),
  example: {
    input: { folder_id: 'fo000015-5f1e-4b0c-9a7d-000000000015', files: [{ filename: 'hello.txt', content: 'SGVsbG8=' }, { filename: 'northwind-offer.pdf', url: 'https://example.com/offers/northwind.pdf' }] },
    result: {
      folder_id: 'fo000015-5f1e-4b0c-9a7d-000000000015',
      uploaded: 2,
      files: [
        { filename: 'hello.txt', status: 'uploaded', new_version: false, item: { Id: 'fi0003ec-5f1e-4b0c-9a7d-0000000003ec', Name: 'hello.txt', 'odata.type': 'ShareFile.Api.Models.File', FileSizeBytes: 5, CreationDate: '2026-03-10T09:00:00Z', Parent: { Id: 'fo000015-5f1e-4b0c-9a7d-000000000015' } } },
        { filename: 'northwind-offer.pdf', status: 'uploaded', new_version: false, item: { Id: 'fi0003ed-5f1e-4b0c-9a7d-0000000003ed', Name: 'northwind-offer.pdf', 'odata.type': 'ShareFile.Api.Models.File', FileSizeBytes: 48213, CreationDate: '2026-03-10T09:00:00Z', Parent: { Id: 'fo000015-5f1e-4b0c-9a7d-000000000015' } } },
      ],
    },
  },
});
