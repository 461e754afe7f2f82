import type { BlobStore } from './blob';
import { MemoryBlobStore } from './memory';

export { contentDisposition, fileBlobKey, type BlobObject, type BlobStore, type SignedLink } from './blob';
export { BLOB_PATH, MemoryBlobStore, type MemoryBlobOptions } from './memory';

/**
 * The configured Blob store: S3 when BLOB_BUCKET is set (the SDK is loaded only then), else the
 * memory store the local server serves (BLOB_SECRET signs its links; BLOB_BASE_URL is where).
 */
export async function createBlobStore(env: Record<string, string | undefined> = process.env): Promise<BlobStore> {
  if (env.BLOB_BUCKET) {
    const [{ S3Client }, { S3BlobStore }] = await Promise.all([import('@aws-sdk/client-s3'), import('./s3')]);
    return new S3BlobStore(new S3Client(env.AWS_REGION ? { region: env.AWS_REGION } : {}), env.BLOB_BUCKET);
  }
  return new MemoryBlobStore({ ...(env.BLOB_SECRET ? { secret: env.BLOB_SECRET } : {}), ...(env.BLOB_BASE_URL ? { baseUrl: env.BLOB_BASE_URL } : {}) });
}
