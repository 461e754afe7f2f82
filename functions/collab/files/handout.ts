import type { BlobStore } from '../../../shared/core/blob';
import { fileBlobKey } from '../../../shared/core/blob';
import type { PodioClient } from '../client';
import type { PodioFile } from '../wire';

/** docs/spec.md#collab-file, #limits: the link works for an hour. */
export const DOWNLOAD_LINK_SECONDS = 3600;
/** What one hand-out copies through the Lambda's memory (512 MB). */
export const MAX_DOWNLOAD_BYTES = 100 * 1024 * 1024;

/** A file's bytes behind the service's own signed link. */
export interface HandedOut {
  download_url: string;
  expires_in: number;
  expires_at: string;
  mimetype: string;
  size: number;
}

/**
 * Podio's own file links need the caller's token: the service copies the file to its storage (S3 on
 * AWS, the local server's blob route locally) and signs a link to the copy, which opens without any
 * key for DOWNLOAD_LINK_SECONDS and stops working when the file is deleted (deleteFile drops the
 * copy). One copy per file: handing it out again overwrites it. The caller checks the size first.
 */
export async function handOut(client: PodioClient, blob: BlobStore, meta: PodioFile): Promise<HandedOut> {
  const body = await client.fileContent(meta.file_id);
  const mimetype = meta.mimetype ?? 'application/octet-stream';
  const key = fileBlobKey('collab', meta.file_id);
  await blob.put({ key, body, contentType: mimetype, filename: meta.name });
  const link = await blob.link(key, DOWNLOAD_LINK_SECONDS);
  return { download_url: link.url, expires_in: link.expires_in, expires_at: link.expires_at, mimetype, size: body.byteLength };
}
