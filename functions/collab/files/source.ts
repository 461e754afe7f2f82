import type { DocumentSource } from '../../../shared/files/read';
import type { Ctx } from '../params';

/** A Podio file as fileToMarkdown and analyzeFile read it: its metadata, then its bytes (shared/files/read.ts converts them). */
export async function documentSource(fileId: number, { client }: Pick<Ctx, 'client'>): Promise<DocumentSource> {
  const file = await client.getFile(fileId);
  return {
    parameter: 'file_id',
    label: `File #${fileId}`,
    name: file.name,
    mimetype: file.mimetype ?? 'application/octet-stream',
    ...(file.size !== undefined ? { size: file.size } : {}),
    instead: 'Use downloadFile for a link instead.',
    bytes: () => client.fileContent(fileId),
  };
}
