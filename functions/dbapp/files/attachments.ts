import { ToolError } from '../../../shared/core/errors';
import { downloadSources, type FileSource } from '../../../shared/vendor/download';
import { positiveId, resolveFileRefs } from '../../../shared/files/refs';
import type { ToolContext } from '../../../shared/core/tool';
import type { TapeClient } from '../client';
import type { TapeFile } from '../wire';

/**
 * Files for Tape's attachment and image fields: https URLs are downloaded (shared/vendor/download.ts) and
 * uploaded to Tape in one multipart request, giving temporary file ids. Used by uploadFiles and by
 * the record tools for attachment/image field values.
 */

type Ctx = Pick<ToolContext<TapeClient>, 'client' | 'config' | 'deadline' | 'dryRun'>;

/**
 * Uploads the sources to Tape: all checked first, then all downloaded, then one multipart upload
 * (nothing reaches Tape if any source fails). Returns Tape's file objects in source order.
 */
export async function uploadSources(sources: readonly FileSource[], ctx: Ctx): Promise<TapeFile[]> {
  const uploads = await downloadSources(sources, ctx);
  const files = await ctx.client.uploadFiles(uploads);
  if (files.length !== uploads.length) {
    throw new ToolError('INTERNAL_ERROR', `Tape answered ${files.length} file objects for ${uploads.length} uploaded files.`, { upstream_status: 200 });
  }
  return files;
}

/** Tape's temporary file ids are opaque strings ("temporary-file-1" in its docs): no spaces, slashes or colons. */
const TEMPORARY_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,199}$/;

/**
 * The values of an attachment or image field → what Tape takes: numbers (ids of files already in
 * Tape) pass through, as do numeric strings (as numbers) and temporary file ids (from uploadFiles);
 * https URLs are downloaded and uploaded, and replaced by their temporary file ids. Anything else is
 * INVALID_PARAMETER. `parameter` is the path of the array (e.g. `fields.attachments`); errors name
 * the element (`fields.attachments.0`).
 */
export function resolveAttachments(values: readonly (number | string)[], ctx: Ctx, parameter: string): Promise<(number | string)[]> {
  return resolveFileRefs<number | string>(values, parameter, {
    asId: (v) => positiveId(v) ?? (typeof v === 'string' && TEMPORARY_ID.test(v) ? v : undefined),
    expected: 'file id (number, or temporary id string from uploadFiles) or https URL',
    refused: (path, v) =>
      typeof v === 'number'
        ? `Parameter "${path}": ${v} is not a file id; file ids are positive integers (or temporary id strings from uploadFiles).`
        : `Parameter "${path}": ${JSON.stringify(v)} is neither a file id nor an https URL. Pass an https URL of the file (it is uploaded for you), a temporary file id from uploadFiles, or the numeric id of a file already in Tape.`,
    upload: async (sources) => (await uploadSources(sources, ctx)).map((f) => f.file_id),
  });
}
