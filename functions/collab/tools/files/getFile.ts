import * as z from 'zod';
import { collabTool } from '../../tool';
import { fileIdInput } from '../../files/inputs';
import { fileLine, toFile, type FileMeta } from '../../files/render';
import { handOut, MAX_DOWNLOAD_BYTES } from '../../files/handout';

/** The metadata, and a link to the bytes that opens without any key (null when none could be handed out). */
type FileWithDownload = FileMeta & { download_url: string | null; download_expires_at: string | null };

export const getFile = collabTool({
  name: 'getFile',
  description:
    'Read one file\'s metadata: name, mimetype, size, description, who uploaded it and when, and what it is attached to (context; null when unattached). ' +
    'link is Podio\'s own link, which needs a Podio login; download_url opens without any key until download_expires_at (one hour), as downloadFile\'s ' +
    '(null for files over 100 MB). No content: fileToMarkdown gives its text, analyzeFile its structure. Read-only.',
  input: z.strictObject({ file_id: fileIdInput }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run({ file_id }, { client, blob }): Promise<FileWithDownload> {
    const meta = await client.getFile(file_id);
    // The service's signed copy (files/handout.ts), as downloadFile hands it out: Podio's link needs the caller's token.
    const out = blob && (meta.size ?? 0) <= MAX_DOWNLOAD_BYTES ? await handOut(client, blob, meta) : undefined;
    return { ...toFile(meta), download_url: out?.download_url ?? null, download_expires_at: out?.expires_at ?? null };
  },
  text: (f: FileWithDownload) => `${fileLine(f)}${f.download_url ? `\ndownload without a key until ${f.download_expires_at}: ${f.download_url}` : ''}`,
  example: {
    input: { file_id: 60015 },
    result: {
      file_id: 60015, name: 'offer.pdf', mimetype: 'application/pdf', size: 48213, link: 'https://files.podio.com/60015', hosted_by: 'podio', description: 'Signed offer',
      created_on: '2025-03-04 08:00:00', created_by: { type: 'user', id: 1001 }, thumbnail_link: null, rights: ['download', 'view', 'delete', 'update'], context: { type: 'item', id: 30061 },
      download_url: 'https://tes-blobs.s3.eu-central-1.amazonaws.com/collab/files/60015?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=3600&X-Amz-Signature=…',
      download_expires_at: '2025-03-04T09:00:00.000Z',
    },
  },
});
