import type { DocumentSource } from '../../../shared/files/read';
import { mediaTypeOf } from '../../../shared/files/read';
import type { ToolContext } from '../../../shared/core/tool';
import type { ShareFileClient } from '../client';

/**
 * A ShareFile file as fileToMarkdown and analyzeFile read it: its name and size, then its bytes
 * through the download-token flow (the same link downloadFile hands out; needs download rights).
 */
export async function documentSource(itemId: string, { client }: Pick<ToolContext<ShareFileClient>, 'client'>): Promise<DocumentSource> {
  const item = await client.getItem(itemId, { select: 'Name,FileSizeBytes' });
  const name = item.Name ?? itemId;
  return {
    parameter: 'item_id',
    label: `File ${itemId}`,
    name,
    mimetype: mediaTypeOf(name),
    ...(item.FileSizeBytes !== undefined ? { size: item.FileSizeBytes } : {}),
    instead: 'Use downloadFile for a link instead.',
    bytes: async () => client.downloadBytes((await client.downloadSpecification(itemId)).DownloadUrl),
  };
}
