import { createHash } from 'node:crypto';

/** A file's MD5, as ShareFile reports it (the seed's bytes come from kit/documents.ts). */
export const md5 = (b: Uint8Array) => createHash('md5').update(b).digest('hex');

/** The media type of a file name, for downloads. */
export function mediaType(name: string): string {
  const ext = name.toLowerCase().split('.').pop() ?? '';
  return (
    {
      pdf: 'application/pdf',
      docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
      png: 'image/png',
      jpg: 'image/jpeg',
      txt: 'text/plain',
      csv: 'text/csv',
    } as Record<string, string>
  )[ext] ?? 'application/octet-stream';
}
