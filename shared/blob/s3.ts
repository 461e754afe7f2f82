import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { contentDisposition, type BlobObject, type BlobStore, type SignedLink } from '../core/blob';

/**
 * The Blob store on AWS: objects in an S3 bucket (BLOB_BUCKET; a lifecycle rule in serverless.yml
 * deletes them after a day), links as presigned GET URLs (SigV4 query signature, X-Amz-Expires).
 * The Lambda role may only put, get and delete objects of that bucket.
 */
export class S3BlobStore implements BlobStore {
  readonly kind = 's3';

  constructor(
    private readonly client: S3Client,
    readonly bucket: string,
    private readonly now: () => number = Date.now,
  ) {}

  async put(o: BlobObject): Promise<void> {
    await this.client.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: o.key, Body: o.body, ContentType: o.contentType, ContentDisposition: contentDisposition(o.filename), ContentLength: o.body.byteLength }),
    );
  }

  async link(key: string, expiresIn: number): Promise<SignedLink> {
    const signingDate = new Date(this.now());
    const url = await getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.bucket, Key: key }), { expiresIn, signingDate });
    return { url, expires_in: expiresIn, expires_at: new Date(signingDate.getTime() + expiresIn * 1000).toISOString() };
  }

  /** S3 answers 204 for a key that is not there too, so a second delete is no error. */
  async remove(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }
}
