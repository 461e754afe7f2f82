import * as z from 'zod';
import { invalidParameter, ToolError } from '../../../../shared/core/errors';
import { byteSize } from '../../../../shared/core/render';
import { collabTool } from '../../tool';
import { fileIdInput } from '../../files/inputs';
import { handOut, MAX_DOWNLOAD_BYTES } from '../../files/handout';

interface Download {
  file_id: number;
  name: string;
  download_url: string;
  expires_in: number;
  expires_at: string;
  mimetype: string;
  size: number;
  size_human: string;
}

export const downloadFile = collabTool({
  name: 'downloadFile',
  description:
    'Get a download link for a file that works without any key for one hour (expires_in 3600 s, expires_at): hand it to a person, a browser or another ' +
    'service. Podio\'s own file links need the caller\'s token, so the service copies the file to its own storage and signs a link to the copy; the link ' +
    'never contains a key and stops working when the file is deleted. For the file\'s text use fileToMarkdown; for its metadata only, getFile. At most 100 MB.',
  input: z.strictObject({ file_id: fileIdInput }),
  annotations: { readOnly: true, destructive: false, idempotent: false },
  async run({ file_id }, { client, blob }): Promise<Download> {
    if (!blob) throw new ToolError('INTERNAL_ERROR', 'No file storage is configured for download links (BLOB_BUCKET on AWS; the local server has one built in).');
    const meta = await client.getFile(file_id);
    const size = meta.size ?? 0;
    if (size > MAX_DOWNLOAD_BYTES) throw invalidParameter('file_id', `a file of at most ${byteSize(MAX_DOWNLOAD_BYTES)}`, `File #${file_id} is ${byteSize(size)}; downloadFile hands out files of at most ${byteSize(MAX_DOWNLOAD_BYTES)}.`);
    const out = await handOut(client, blob, meta);
    return { file_id, name: meta.name, ...out, size_human: byteSize(out.size) };
  },
  text: (d: Download) => `#${d.file_id} ${d.name} (${d.mimetype}, ${d.size_human}) — ${d.download_url}\nlink works without a key until ${d.expires_at} (${d.expires_in} s)`,
  example: {
    input: { file_id: 60015 },
    result: {
      file_id: 60015,
      name: 'offer.pdf',
      download_url: 'https://tes-blobs.s3.eu-central-1.amazonaws.com/collab/files/60015?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=3600&X-Amz-Signature=…',
      expires_in: 3600,
      expires_at: '2025-03-04T09:00:00.000Z',
      mimetype: 'application/pdf',
      size: 48213,
      size_human: '47.1 KB',
    },
  },
});
