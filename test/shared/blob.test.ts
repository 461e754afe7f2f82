import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import { createBlobStore, fileBlobKey, MemoryBlobStore } from '../../shared/blob';
import { S3BlobStore } from '../../shared/blob/s3';

const T0 = Date.parse('2026-01-15T10:00:00Z');
const bytes = new TextEncoder().encode('%PDF-1.4 hello');

describe('memory Blob store: HMAC-signed, expiring links', () => {
  it('a link serves the bytes with type and file name until it expires, and not after', async () => {
    const blob = new MemoryBlobStore({ secret: 's3cret', baseUrl: 'http://127.0.0.1:8787/', now: () => T0 });
    const key = fileBlobKey('collab', 60015);
    expect(key).toBe('collab/files/60015');
    await blob.put({ key, body: bytes, contentType: 'application/pdf', filename: 'Offer (final).pdf' });
    const link = await blob.link(key, 3600);
    expect(link).toEqual({ url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:8787\/v1\/blobs\/collab\/files\/60015\?expires=\d+&sig=[0-9a-f]{64}$/), expires_in: 3600, expires_at: '2026-01-15T11:00:00.000Z' });
    const ok = blob.serve(new Request(link.url), T0 + 3599_000);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('application/pdf');
    expect(ok.headers.get('content-disposition')).toBe(`attachment; filename="Offer (final).pdf"; filename*=UTF-8''Offer%20(final).pdf`);
    expect(new Uint8Array(await ok.arrayBuffer())).toEqual(bytes);
    expect(blob.serve(new Request(link.url), T0 + 3600_000).status).toBe(403);
  });

  it('a tampered expiry, signature or key is refused; a link of another secret too', async () => {
    const blob = new MemoryBlobStore({ secret: 'a', now: () => T0 });
    const key = fileBlobKey('collab', 7);
    await blob.put({ key, body: bytes, contentType: 'text/plain', filename: 'x.txt' });
    const { url } = await blob.link(key, 60);
    const u = new URL(url);
    u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 3600));
    expect(blob.serve(new Request(u)).status).toBe(403);
    const sig = new URL(url).searchParams.get('sig')!;
    expect(blob.serve(new Request(url.replace(`sig=${sig}`, `sig=${sig[0] === '0' ? '1' : '0'}${sig.slice(1)}`))).status).toBe(403);
    expect(blob.serve(new Request(url.replace('files/7', 'files/8'))).status).toBe(403);
    const other = new MemoryBlobStore({ secret: 'b', now: () => T0 });
    await other.put({ key, body: bytes, contentType: 'text/plain', filename: 'x.txt' });
    expect(other.serve(new Request(url)).status).toBe(403);
  });

  it('a removed object answers its links 404 NOT_FOUND, as an envelope; removing it again is no error', async () => {
    const blob = new MemoryBlobStore({ secret: 'a', now: () => T0 });
    const key = fileBlobKey('collab', 60015);
    await blob.put({ key, body: bytes, contentType: 'application/pdf', filename: 'offer.pdf' });
    const { url } = await blob.link(key, 3600);
    expect(blob.serve(new Request(url)).status).toBe(200);
    await blob.remove(key);
    const gone = blob.serve(new Request(url));
    expect(gone.status).toBe(404);
    expect(await gone.json()).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    await expect(blob.remove(key)).resolves.toBeUndefined();
  });

  it('keeps at most maxBytes: the oldest objects go first', async () => {
    const blob = new MemoryBlobStore({ maxBytes: 20, now: () => T0 });
    await blob.put({ key: 'a', body: new Uint8Array(12), contentType: 'x/y', filename: 'a' });
    await blob.put({ key: 'b', body: new Uint8Array(12), contentType: 'x/y', filename: 'b' });
    await expect(blob.link('a', 60)).rejects.toThrow(/No blob/);
    expect(blob.serve(new Request((await blob.link('b', 60)).url)).status).toBe(200);
  });
});

describe('S3 Blob store: PutObject and a presigned GET URL', () => {
  it('puts the object with its type and file name; the link is a SigV4 presigned GET for 3600 s; remove is a DeleteObject', async () => {
    const s3 = mockClient(S3Client);
    s3.on(PutObjectCommand).resolves({});
    const client = new S3Client({ region: 'eu-central-1', credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' } });
    const blob = new S3BlobStore(client, 'tes-blobs', () => T0);
    await blob.put({ key: 'collab/abc/offer.pdf', body: bytes, contentType: 'application/pdf', filename: 'offer.pdf' });
    expect(s3.commandCalls(PutObjectCommand)[0]!.args[0].input).toEqual({
      Bucket: 'tes-blobs', Key: 'collab/abc/offer.pdf', Body: bytes, ContentType: 'application/pdf', ContentDisposition: `attachment; filename="offer.pdf"; filename*=UTF-8''offer.pdf`, ContentLength: bytes.byteLength,
    });
    const link = await blob.link('collab/abc/offer.pdf', 3600);
    const u = new URL(link.url);
    expect(u.host).toBe('tes-blobs.s3.eu-central-1.amazonaws.com');
    expect(u.pathname).toBe('/collab/abc/offer.pdf');
    expect(u.searchParams.get('X-Amz-Expires')).toBe('3600');
    expect(u.searchParams.get('X-Amz-Date')).toBe('20260115T100000Z');
    expect(u.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(u.searchParams.get('x-id')).toBe('GetObject');
    // The secret never appears; only the access key id, as SigV4 requires.
    expect(link.url).not.toContain('secret');
    expect(link).toMatchObject({ expires_in: 3600, expires_at: '2026-01-15T11:00:00.000Z' });
    // Presigning sends nothing.
    expect(s3.commandCalls(GetObjectCommand)).toHaveLength(0);
    s3.on(DeleteObjectCommand).resolves({});
    await blob.remove('collab/files/60015');
    expect(s3.commandCalls(DeleteObjectCommand).map((c) => c.args[0].input)).toEqual([{ Bucket: 'tes-blobs', Key: 'collab/files/60015' }]);
    s3.restore();
  });

  it('createBlobStore: S3 when BLOB_BUCKET is set, memory otherwise', async () => {
    expect((await createBlobStore({ BLOB_BUCKET: 'b', AWS_REGION: 'eu-central-1' })).kind).toBe('s3');
    const mem = await createBlobStore({ BLOB_BASE_URL: 'http://localhost:9999' });
    expect(mem.kind).toBe('memory');
    expect((mem as MemoryBlobStore).baseUrl).toBe('http://localhost:9999');
  });
});
