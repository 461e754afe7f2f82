import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { contentDisposition, type BlobObject, type BlobStore, type SignedLink } from '../core/blob';
import { errorBody, writeEnvelope } from '../core/envelope';
import type { ErrorCode } from '../core/errors';

/** A refused link as the envelope every route answers (the link works without a key, so nothing names the caller). */
function refuse(status: number, code: ErrorCode, message: string, details: Record<string, unknown> = {}): Response {
  const written = writeEnvelope({ status, body: errorBody(code, message, details), headers: {} });
  return new Response(written.body, { status: written.status, headers: written.headers });
}

/** A path's segments decoded, or undefined when one is not valid percent-encoding (e.g. %E0%A4%A). */
function decodedKey(path: string): string | undefined {
  try {
    return path.split('/').map(decodeURIComponent).join('/');
  } catch {
    return undefined;
  }
}

/**
 * The local Blob store: objects in memory, served by the local server at
 * `GET /v1/blobs/<key>?expires=<epoch s>&sig=<hex>`, where `sig` is an HMAC-SHA256 of the key and
 * the expiry under a secret of the process (BLOB_SECRET, else random at start). A link works
 * until `expires` and not after; a changed key or expiry breaks the signature.
 */

export interface MemoryBlobOptions {
  /** The HMAC secret; default random per process (links die with the process, as the objects do). */
  secret?: string;
  /** Where the server that serves the links listens, e.g. http://127.0.0.1:8787. */
  baseUrl?: string;
  /** The clock (epoch ms). */
  now?: () => number;
  /** Bytes kept at most; the oldest objects go first (default 256 MB). */
  maxBytes?: number;
}

export const BLOB_PATH = '/v1/blobs/';

interface Stored extends BlobObject {
  /** Epoch ms after which no link to it works any more: then it is dropped. */
  until: number;
}

export class MemoryBlobStore implements BlobStore {
  readonly kind = 'memory';
  baseUrl: string;
  private readonly secret: Buffer;
  private readonly now: () => number;
  private readonly maxBytes: number;
  private readonly objects = new Map<string, Stored>();

  constructor(opts: MemoryBlobOptions = {}) {
    this.secret = opts.secret ? Buffer.from(opts.secret) : randomBytes(32);
    this.baseUrl = (opts.baseUrl ?? 'http://127.0.0.1:8787').replace(/\/$/, '');
    this.now = opts.now ?? Date.now;
    this.maxBytes = opts.maxBytes ?? 256 * 1024 * 1024;
  }

  async put(object: BlobObject): Promise<void> {
    this.sweep();
    // Kept a day unless a link asks for longer: the lifecycle rule of the S3 bucket, in memory.
    this.objects.set(object.key, { ...object, until: this.now() + 86_400_000 });
    let total = [...this.objects.values()].reduce((n, o) => n + o.body.byteLength, 0);
    for (const [key, o] of this.objects) {
      if (total <= this.maxBytes) break;
      this.objects.delete(key);
      total -= o.body.byteLength;
    }
  }

  async link(key: string, expiresIn: number): Promise<SignedLink> {
    const stored = this.objects.get(key);
    if (!stored) throw new Error(`No blob "${key}"`);
    const expires = Math.floor(this.now() / 1000) + expiresIn;
    stored.until = Math.max(stored.until, expires * 1000);
    const path = key.split('/').map(encodeURIComponent).join('/');
    return { url: `${this.baseUrl}${BLOB_PATH}${path}?expires=${expires}&sig=${this.sign(key, expires)}`, expires_in: expiresIn, expires_at: new Date(expires * 1000).toISOString() };
  }

  async remove(key: string): Promise<void> {
    this.objects.delete(key);
  }

  /**
   * Answers a GET of a link: 200 with the bytes, 400 when the path is not valid percent-encoding,
   * 403 when the signature is wrong or the link has expired, 404 when the object is gone; every
   * refusal an envelope. `now` (epoch ms) defaults to the store's clock.
   */
  serve(request: Request, now = this.now()): Response {
    const url = new URL(request.url);
    const at = url.pathname.indexOf(BLOB_PATH);
    if (at < 0) return refuse(404, 'NOT_FOUND', 'No such download link.');
    const key = decodedKey(url.pathname.slice(at + BLOB_PATH.length));
    if (key === undefined) {
      return refuse(400, 'INVALID_PARAMETER', 'The link\'s path is not valid percent-encoding (RFC 3986); use the download_url exactly as the tool returned it.', { parameter: '(path)', expected: 'a download_url as returned' });
    }
    const expires = Number(url.searchParams.get('expires'));
    const sig = url.searchParams.get('sig') ?? '';
    const want = Buffer.from(this.sign(key, expires));
    const got = Buffer.from(sig);
    if (!Number.isInteger(expires) || got.length !== want.length || !timingSafeEqual(got, want)) return refuse(403, 'FORBIDDEN', 'The link\'s signature does not match: use the download_url exactly as the tool returned it, or ask the tool for a new link.');
    if (now >= expires * 1000) return refuse(403, 'FORBIDDEN', 'The link has expired; ask the tool for a new one.');
    const o = this.objects.get(key);
    if (!o) return refuse(404, 'NOT_FOUND', 'The file of this link is gone; ask the tool for a new link.');
    return new Response(o.body as Uint8Array<ArrayBuffer>, { status: 200, headers: { 'content-type': o.contentType, 'content-length': String(o.body.byteLength), 'content-disposition': contentDisposition(o.filename), 'cache-control': 'private, no-store' } });
  }

  private sign(key: string, expires: number): string {
    return createHmac('sha256', this.secret).update(`${key}\n${expires}`).digest('hex');
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, o] of this.objects) if (o.until <= now) this.objects.delete(key);
  }
}
