import type { Config } from '../core/config';
import { checkUrl } from './address-rules';
import { fetchUrl, FETCH_LIMITS } from './fetch-url';
import { eachBounded } from '../core/pool';

/**
 * Caller-supplied files, ready to upload to a vendor: https URLs downloaded through the SSRF guard
 * (shared/vendor/fetch-url.ts), bytes in hand passed through. Every platform that takes files (attachments,
 * images, comment files) uploads what this returns, in its own way.
 */

/** All downloads of one call together: the bytes are held in memory (512 MB Lambda) until the upload. */
export const MAX_TOTAL_BYTES = 50 * 1024 * 1024;
/** Downloads in flight at once. */
export const DOWNLOAD_CONCURRENCY = 4;
/** Time kept after the downloads, by default, for the upload to the vendor and the answer. */
export const UPLOAD_RESERVE_MS = 5_000;

/** A file to upload: a URL to download (errors name `parameter`), or bytes in hand. */
export type FileSource =
  | { url: string; parameter: string; name?: string; mimetype?: string }
  | { content: Uint8Array; name: string; mimetype?: string };

/** A file ready to upload: its bytes, name and media type. */
export interface DownloadedFile {
  name: string;
  content: Uint8Array;
  mimetype: string;
}

export interface DownloadContext {
  config: Pick<Config, 'allowHttpHosts'>;
  /** Epoch ms after which no new upstream work should start (the call's remaining time). */
  deadline: number;
  /** A dry run checks the URLs but downloads nothing (shared/core/dry-run.ts): the files come back empty. */
  dryRun?: boolean;
}

export interface DownloadOptions {
  /** Time kept after the downloads for the upload and the answer (default 5 s). */
  reserveMs?: number;
  /** Bytes all downloads of the call may take together (default 50 MB). */
  maxTotalBytes?: number;
}

/** The checks that need no network (URL syntax, https), over every source before any download. */
export function checkSources(sources: readonly FileSource[], ctx: Pick<DownloadContext, 'config'>): void {
  for (const s of sources) if ('url' in s) checkUrl(s.url, { parameter: s.parameter, allowHttpHosts: ctx.config.allowHttpHosts });
}

/**
 * Checks every source, then downloads the URL ones, at most 4 at once, within one byte budget for
 * the call and a timeout that leaves `reserveMs` before the deadline; the first failure stops the
 * others and is thrown (nothing is half-returned). Files come back in source order. In a dry run
 * nothing is fetched: URL files come back empty (the plan shows them with size 0).
 */
export async function downloadSources(sources: readonly FileSource[], ctx: DownloadContext, opts: DownloadOptions = {}): Promise<DownloadedFile[]> {
  checkSources(sources, ctx);
  const limit = opts.maxTotalBytes ?? MAX_TOTAL_BYTES;
  const budget = { remaining: limit, limit };
  const timeoutMs = Math.max(1_000, Math.min(FETCH_LIMITS.timeoutMs, ctx.deadline - Date.now() - (opts.reserveMs ?? UPLOAD_RESERVE_MS)));
  return eachBounded(sources, DOWNLOAD_CONCURRENCY, async (s, _i, signal): Promise<DownloadedFile> => {
    if (!('url' in s)) return { name: s.name, content: s.content, mimetype: s.mimetype ?? 'application/octet-stream' };
    if (ctx.dryRun) return { name: s.name ?? (new URL(s.url).pathname.split('/').pop() || 'download'), content: new Uint8Array(0), mimetype: s.mimetype ?? 'application/octet-stream' };
    const f = await fetchUrl(s.url, { parameter: s.parameter, allowHttpHosts: ctx.config.allowHttpHosts, timeoutMs, budget, signal });
    return { name: s.name ?? f.fileName, content: f.bytes, mimetype: s.mimetype ?? f.contentType };
  });
}
