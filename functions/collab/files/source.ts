import type { Ctx } from '../params';
import { convertFile } from './convert';
import type { ConvertedDoc } from './document';

/** The file's metadata and bytes from Podio, converted: what fileToMarkdown and analyzeFile both start from. */
export async function convertedFile(fileId: number, { client }: Pick<Ctx, 'client'>): Promise<{ doc: ConvertedDoc; meta: { file_id: number; name: string; mimetype: string; size: number } }> {
  const file = await client.getFile(fileId);
  const bytes = await client.fileContent(fileId);
  const meta = { file_id: fileId, name: file.name, mimetype: file.mimetype ?? 'application/octet-stream', size: bytes.byteLength };
  return { doc: await convertFile(bytes, meta), meta };
}
