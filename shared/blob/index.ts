import type { BlobObject, BlobStore, SignedLink } from '../core/blob';
import { MemoryBlobStore } from './memory';

export { contentDisposition, fileBlobKey, type BlobObject, type BlobStore, type SignedLink } from '../core/blob';
export { BLOB_PATH, MemoryBlobStore, type MemoryBlobOptions } from './memory';

/**
 * The configured Blob store: S3 when BLOB_BUCKET is set, else the memory store the local server
 * serves (BLOB_SECRET signs its links; BLOB_BASE_URL is where).
 */
export async function createBlobStore(env: Record<string, string | undefined> = process.env): Promise<BlobStore> {
  if (env.BLOB_BUCKET) return lazyS3(env.BLOB_BUCKET, env.AWS_REGION);
  return new MemoryBlobStore({ ...(env.BLOB_SECRET ? { secret: env.BLOB_SECRET } : {}), ...(env.BLOB_BASE_URL ? { baseUrl: env.BLOB_BASE_URL } : {}) });
}

/**
 * The S3 store, with the S3 client (over 100 ms to load) loaded when the first file is handed out,
 * not in a cold start: only a few tools of one platform ever hand files out. A failed load is not
 * kept, so the next hand-out tries again.
 */
function lazyS3(bucket: string, region: string | undefined): BlobStore {
  let loading: Promise<BlobStore> | undefined;
  const store = (): Promise<BlobStore> => {
    loading ??= Promise.all([import('@aws-sdk/client-s3'), import('./s3')]).then(([{ S3Client }, { S3BlobStore }]) => new S3BlobStore(new S3Client(region ? { region } : {}), bucket));
    loading.catch(() => (loading = undefined));
    return loading;
  };
  return {
    kind: 's3',
    put: async (object: BlobObject): Promise<void> => (await store()).put(object),
    link: async (key: string, expiresIn: number): Promise<SignedLink> => (await store()).link(key, expiresIn),
    remove: async (key: string): Promise<void> => (await store()).remove(key),
  };
}
