import * as z from 'zod';
import { invalidParameter } from '../../../../shared/errors';
import { downloadSources, type FileSource } from '../../../../shared/download';
import { fileboxTool } from '../../tool';
import { folderIdInput } from '../../params';
import { itemDetail, toItem, type Item } from '../../render';
import { checkClash, checkTarget, nameInput } from '../../items/targets';

/** base64 of at most ~6 MB (a Lambda request carries 6 MB); larger files go by file_url. */
const MAX_BASE64 = 8_000_000;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

interface Uploaded {
  uploaded: true;
  /** True when the upload added a version to an existing file of that name. */
  new_version: boolean;
  item: Item;
}

export const uploadFile = fileboxTool({
  name: 'uploadFile',
  description:
    'Upload a file into a folder, from an https URL (downloaded by the service, up to 25 MB) or from base64 content. With overwrite false (default) an ' +
    'existing file of the same name is an error naming it; overwrite true uploads a new version of it (same StreamID, new id). Uses ShareFile\'s two-step ' +
    'upload (upload spec, then the bytes). Returns the new file.',
  input: z.strictObject({
    folder_id: folderIdInput('Folder to upload into: a folder id (fo…), "home" or "box".'),
    file_url: z.url({ protocol: /^https?$/, message: 'an https URL' }).optional().describe('https URL of the file to upload (give this or content_base64).'),
    content_base64: z.string().max(MAX_BASE64).optional().describe('The file content, base64-encoded (give this or file_url); needs file_name.'),
    file_name: nameInput('File name with extension, e.g. report.pdf; default with file_url: the name the server gives.').optional(),
    description: z.string().max(4000).optional().describe('File description.'),
    overwrite: z.boolean().default(false).describe('Upload as a new version of an existing file of the same name (default false: refuse).'),
  }),
  annotations: { readOnly: false, destructive: false, idempotent: false },
  async run(input, ctx): Promise<Uploaded> {
    const { client } = ctx;
    checkTarget('folder_id', input.folder_id, { allowShared: false });
    if ((input.file_url === undefined) === (input.content_base64 === undefined)) {
      throw invalidParameter('file_url', 'exactly one of file_url, content_base64', 'Give exactly one of file_url (an https URL) or content_base64 (the bytes in base64).');
    }
    let source: FileSource;
    if (input.content_base64 !== undefined) {
      const b64 = input.content_base64.replace(/\s+/g, '');
      if (!BASE64.test(b64) || b64.length % 4 !== 0) throw invalidParameter('content_base64', 'standard base64 (A-Z a-z 0-9 + /, padded with =)', 'Invalid parameter "content_base64": not valid base64.');
      if (!input.file_name) throw invalidParameter('file_name', 'a file name with extension', 'Invalid parameter "file_name": required with content_base64 (e.g. "notes.txt").');
      source = { content: Buffer.from(b64, 'base64'), name: input.file_name };
    } else source = { url: input.file_url!, parameter: 'file_url', ...(input.file_name ? { name: input.file_name } : {}) };
    // With a URL the name is known only after the download: download first, then check the name.
    const [file] = await downloadSources([source], ctx);
    const existing = await checkClash(client, input.folder_id, file!.name, { overwrite: input.overwrite, parameter: input.file_name ? 'file_name' : 'file_url', what: 'upload it as a new version' });
    if (existing && /Folder$/.test(existing['odata.type'])) {
      throw invalidParameter('file_name', 'a name no folder uses', `A folder named "${existing.Name}" is in the way (${existing.Id}); choose another file name.`);
    }
    const spec = await client.uploadSpecification(input.folder_id, { FileName: file!.name, FileSize: file!.content.length, Overwrite: input.overwrite, ...(input.description ? { Description: input.description } : {}) });
    const stored = await client.sendUpload(spec.ChunkUri, file!);
    return { uploaded: true, new_version: Boolean(existing), item: toItem(await client.getItem(stored.id)) };
  },
  text: (r: Uploaded) => `uploaded ${r.new_version ? '(new version) ' : ''}${itemDetail(r.item)}`,
  example: {
    input: { folder_id: 'fo000015-5f1e-4b0c-9a7d-000000000015', content_base64: 'SGVsbG8=', file_name: 'hello.txt' },
    result: {
      uploaded: true,
      new_version: false,
      item: { Id: 'fi0003ec-5f1e-4b0c-9a7d-0000000003ec', Name: 'hello.txt', 'odata.type': 'ShareFile.Api.Models.File', FileSizeBytes: 5, CreationDate: '2026-03-10T09:00:00Z', Parent: { Id: 'fo000015-5f1e-4b0c-9a7d-000000000015' } },
    },
  },
});
