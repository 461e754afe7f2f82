import { invalidParameter, ToolError } from '../../shared/errors';
import { checkUrl, fetchUrl, FETCH_LIMITS } from '../../shared/fetch-url';
import type { ToolContext } from '../../shared/tool';
import type { TapeClient, TapeFile, TapeUpload } from './client';

/**
 * Files for Tape's attachment and image fields: https URLs are downloaded through the SSRF guard
 * (shared/fetch-url.ts) and uploaded to Tape (file.md) in one multipart request, giving temporary
 * file ids. Used by uploadFiles and by the record tools for attachment/image field values.
 */

/** All downloads of one call together: the bytes are held in memory (512 MB Lambda) until the upload. */
export const MAX_TOTAL_BYTES = 50 * 1024 * 1024;
/** Downloads in flight at once. */
const CONCURRENCY = 4;
/** Time kept after the downloads for the upload to Tape and the answer. */
const UPLOAD_RESERVE_MS = 5_000;

/** A file to upload: a URL to download (errors name `parameter`), or bytes in hand. */
export type FileSource =
  | { url: string; parameter: string; name?: string; mimetype?: string }
  | { content: Uint8Array; name: string; mimetype?: string };

type Ctx = Pick<ToolContext<TapeClient>, 'client' | 'config' | 'deadline'>;

/** The checks that need no network (URL syntax, https), over every source before any download. */
export function checkSources(sources: readonly FileSource[], ctx: Pick<Ctx, 'config'>): void {
  for (const s of sources) if ('url' in s) checkUrl(s.url, { parameter: s.parameter, allowHttpHosts: ctx.config.allowHttpHosts });
}

/** Downloads the URL sources (bounded in parallel; the first failure stops the others). */
async function download(sources: readonly FileSource[], ctx: Ctx): Promise<TapeUpload[]> {
  const budget = { remaining: MAX_TOTAL_BYTES, limit: MAX_TOTAL_BYTES };
  const timeoutMs = Math.max(1_000, Math.min(FETCH_LIMITS.timeoutMs, ctx.deadline - Date.now() - UPLOAD_RESERVE_MS));
  const stop = new AbortController();
  let first: unknown;
  const out: TapeUpload[] = new Array(sources.length);
  let next = 0;
  const worker = async () => {
    while (next < sources.length && !stop.signal.aborted) {
      const i = next++;
      const s = sources[i]!;
      if (!('url' in s)) {
        out[i] = { name: s.name, content: s.content, mimetype: s.mimetype ?? 'application/octet-stream' };
        continue;
      }
      try {
        const f = await fetchUrl(s.url, { parameter: s.parameter, allowHttpHosts: ctx.config.allowHttpHosts, timeoutMs, budget, signal: stop.signal });
        out[i] = { name: s.name ?? f.fileName, content: f.bytes, mimetype: s.mimetype ?? f.contentType };
      } catch (err) {
        // The first failure is the one to report; the downloads it stops fail only because of it.
        if (!stop.signal.aborted) {
          first = err;
          stop.abort();
        }
        return;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, sources.length) }, worker));
  if (stop.signal.aborted) throw first;
  return out;
}

/**
 * Uploads the sources to Tape: all checked first, then all downloaded, then one multipart upload
 * (nothing reaches Tape if any source fails). Returns Tape's file objects in source order.
 */
export async function uploadSources(sources: readonly FileSource[], ctx: Ctx): Promise<TapeFile[]> {
  checkSources(sources, ctx);
  const uploads = await download(sources, ctx);
  const files = await ctx.client.uploadFiles(uploads);
  if (files.length !== uploads.length) {
    throw new ToolError('INTERNAL_ERROR', `Tape answered ${files.length} file objects for ${uploads.length} uploaded files.`, { upstream_status: 200 });
  }
  return files;
}

const URL_LIKE = /^[a-z][a-z0-9+.-]*:/i;
/** Tape's temporary file ids are opaque strings ("temporary-file-1" in its docs): no spaces, slashes or colons. */
const TEMPORARY_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,199}$/;
const EXPECTED = 'file id (number, or temporary id string from uploadFiles) or https URL';

/**
 * The values of an attachment or image field → what Tape takes: numbers (ids of files already in
 * Tape) pass through, as do numeric strings (as numbers) and temporary file ids (from uploadFiles);
 * https URLs are downloaded and uploaded, and replaced by their temporary file ids. Anything else is
 * INVALID_PARAMETER. `parameter` is the path of the array (e.g. `fields.attachments`); errors name
 * the element (`fields.attachments.0`). Every value is checked before anything is downloaded.
 */
export async function resolveAttachments(values: readonly (number | string)[], ctx: Ctx, parameter: string): Promise<(number | string)[]> {
  const out: (number | string)[] = [...values];
  const urls: { index: number; source: FileSource }[] = [];
  values.forEach((v, index) => {
    const path = `${parameter}.${index}`;
    if (typeof v === 'number') {
      if (!Number.isInteger(v) || v <= 0) {
        throw invalidParameter(path, EXPECTED, `Parameter "${path}": ${v} is not a file id; file ids are positive integers (or temporary id strings from uploadFiles).`);
      }
    } else if (typeof v === 'string' && URL_LIKE.test(v)) {
      urls.push({ index, source: { url: v, parameter: path } });
    } else if (typeof v === 'string' && /^\d+$/.test(v) && Number(v) > 0) {
      out[index] = Number(v);
    } else if (typeof v !== 'string' || !TEMPORARY_ID.test(v)) {
      throw invalidParameter(
        path,
        EXPECTED,
        `Parameter "${path}": ${JSON.stringify(v)} is neither a file id nor an https URL. Pass an https URL of the file (it is uploaded for you), a temporary file id from uploadFiles, or the numeric id of a file already in Tape.`,
      );
    }
  });
  if (urls.length === 0) return out;
  const files = await uploadSources(
    urls.map((u) => u.source),
    ctx,
  );
  urls.forEach((u, k) => {
    out[u.index] = files[k]!.file_id;
  });
  return out;
}
