import { downloadSources, type FileSource } from '../../../shared/vendor/download';
import { positiveId, resolveFileRefs } from '../../../shared/files/refs';
import type { Ctx } from '../params';
import type { PodioFile } from '../wire';

/**
 * https URLs where Podio takes file ids (item `file_ids`, image fields, comment and conversation
 * `file_ids`): each is downloaded and uploaded to Podio as a new unattached file, whose id then
 * goes where the URL was (shared/files/refs.ts).
 */

type UploadCtx = Pick<Ctx, 'client' | 'config' | 'deadline' | 'dryRun'>;

/** Downloads the sources (all checked, then all fetched) and uploads each; Podio's files in source order. */
export async function uploadSources(sources: readonly FileSource[], ctx: UploadCtx): Promise<PodioFile[]> {
  const files = await downloadSources(sources, ctx);
  const out: PodioFile[] = [];
  // One at a time: Podio has no multi-file upload, and its hourly budget is better kept for the write.
  for (const f of files) out.push(await ctx.client.uploadFile(f));
  return out;
}

/** Downloads the sources and uploads each; ids in source order. */
export async function uploadUrls(sources: readonly FileSource[], ctx: UploadCtx): Promise<number[]> {
  return (await uploadSources(sources, ctx)).map((f) => f.file_id);
}

/**
 * `file_ids` (numbers, numeric strings or https URLs) → Podio file ids. A UUID or other text is
 * refused: Podio's file ids are numbers.
 */
export async function resolveFileIds(values: readonly (number | string)[] | undefined, ctx: UploadCtx, parameter = 'file_ids'): Promise<number[] | undefined> {
  if (!values) return undefined;
  return resolveFileRefs(values, parameter, {
    asId: positiveId,
    expected: 'a numeric Podio file id or an https URL',
    refused: (path, v) => `Parameter "${path}": ${JSON.stringify(v)} is not a Podio file id (a number, from uploadFile or getFile) nor an https URL.`,
    upload: (sources) => uploadUrls(sources, ctx),
  });
}
