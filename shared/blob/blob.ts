/**
 * The Blob port (docs/architecture.md#stores): files the service hands out by a signed, expiring link that works
 * without the caller's key. Put the bytes, then ask for a link; the link names the object by a
 * random key and a signature, never by anything of the caller's. Implementations: memory (local
 * server, served by it with an HMAC-signed URL) and S3 (a presigned GET URL).
 */

export interface BlobObject {
  /** Where the object lives; callers make it unguessable (a random part) — see newBlobKey. */
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
}

/** `<prefix>/<32 random hex>/<safe file name>`: unguessable, and readable in a bucket listing. */
export function newBlobKey(prefix: string, filename: string): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  const random = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  const safe = filename.replace(/[^\w.-]+/g, '_').replace(/^\.+/, '').slice(-120) || 'file';
  return `${prefix}/${random}/${safe}`;
}

/** `attachment; filename="…"; filename*=UTF-8''…` (RFC 6266), safe for any name. */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
