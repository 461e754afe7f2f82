/**
 * The Blob port: files the service hands out by a signed, expiring link that works
 * without the caller's key. Put the bytes, then ask for a link; the link names the object by its
 * key and a signature, never by anything of the caller's. Implementations: memory (local
 * server, served by it with an HMAC-signed URL) and S3 (a presigned GET URL).
 */

export interface BlobObject {
  /** Where the object lives — see fileBlobKey. */
  key: string;
  body: Uint8Array;
  contentType: string;
  /** The name the download gets (Content-Disposition). */
  filename: string;
}

export interface SignedLink {
  url: string;
  /** Seconds the link works from now. */
  expires_in: number;
  /** When it stops working, ISO 8601. */
  expires_at: string;
}

export interface BlobStore {
  /** Which implementation (for logs and tests). */
  readonly kind: 'memory' | 's3';
  put(object: BlobObject): Promise<void>;
  /** A GET link to the object, working for `expiresIn` seconds and not after. */
  link(key: string, expiresIn: number): Promise<SignedLink>;
  /** Drops the object, so every link to it answers 404 from now on; no object is not an error. */
  remove(key: string): Promise<void>;
}

/**
 * `<platform>/files/<file id>`: the copy of one vendor file, so the tool that deletes the file can
 * drop the copy too and its links stop working. The key need not be secret: a link is valid only
 * with the signature over the key and its expiry (HMAC locally, SigV4 on S3). The download's
 * name travels in Content-Disposition.
 */
export function fileBlobKey(platform: string, fileId: string | number): string {
  return `${platform}/files/${encodeURIComponent(String(fileId))}`;
}

/** `attachment; filename="…"; filename*=UTF-8''…` (RFC 6266), safe for any name. */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
