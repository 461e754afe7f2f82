import * as z from 'zod';
import { invalidParameter } from '../core/errors';
import { FETCH_LIMITS } from '../vendor/fetch-url';
import { MAX_TOTAL_BYTES, type FileSource } from '../vendor/download';

/**
 * The one shape of a file to upload, on every platform's upload tool: `filename` plus exactly one
 * of `url` (downloaded by the service) or `content` (the bytes, base64).
 */
export const fileEntryInput = z.strictObject({
  filename: z.string().trim().min(1).max(255).describe('Name the file gets, with its extension (e.g. "offer.pdf"): the platform derives the type from it.'),
  url: z.string().min(1).max(2_000).optional().describe('https URL of the file: the service downloads it (public hosts only, at most 25 MB) and uploads it.'),
  content: z.string().min(1).max(8_000_000).optional().describe('The file\'s bytes, base64-encoded (standard alphabet, padding optional). Use url instead for large files.'),
});

/** An array of 1 to `max` entries. */
export const fileEntriesInput = (max: number) => z.array(fileEntryInput).min(1).max(max);

export type FileEntry = z.output<typeof fileEntryInput>;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Entries → upload sources, every entry checked before anything is downloaded or uploaded. */
export function entrySources(entries: readonly FileEntry[], parameter: string): FileSource[] {
  let total = 0;
  return entries.map((e, i) => {
    const at = `${parameter}.${i}`;
    if ((e.url === undefined) === (e.content === undefined)) {
      throw invalidParameter(at, 'exactly one of url or content', `Parameter "${at}": give exactly one of "url" (an https link to download) or "content" (the bytes, base64) — ${e.url === undefined ? 'neither was' : 'both were'} given.`);
    }
    if (e.url !== undefined) return { url: e.url, parameter: `${at}.url`, name: e.filename };
    const text = e.content!.replace(/\s+/g, '');
    if (!BASE64.test(text) || text.length % 4 === 1) throw invalidParameter(`${at}.content`, 'base64 text', `Parameter "${at}.content" is not base64: encode the file's bytes with the standard base64 alphabet (A-Z a-z 0-9 + /).`);
    const content = new Uint8Array(Buffer.from(text, 'base64'));
    if (content.byteLength === 0) throw invalidParameter(`${at}.content`, 'base64 text of a non-empty file', `Parameter "${at}.content" decodes to an empty file.`);
    if (content.byteLength > FETCH_LIMITS.maxBytes) throw invalidParameter(`${at}.content`, `at most ${FETCH_LIMITS.maxBytes} bytes`, `Parameter "${at}.content" is ${content.byteLength} bytes; at most ${FETCH_LIMITS.maxBytes} bytes per file.`);
    total += content.byteLength;
    if (total > MAX_TOTAL_BYTES) throw invalidParameter(`${at}.content`, `at most ${MAX_TOTAL_BYTES} bytes in all`, `The files of "${parameter}" add up to more than ${MAX_TOTAL_BYTES} bytes; upload them in several calls.`);
    return { content, name: e.filename };
  });
}
