import { byteSize } from '../../../shared/core/render';

/** An uploaded file as uploadFiles returns it: the temporary id goes into attachment or image fields. */
export interface UploadedFile {
  file_id: string;
  name: string;
  size: number;
  mimetype: string;
}

export function toUploadedFile(f: UploadedFile): UploadedFile {
  return { file_id: f.file_id, name: f.name, size: f.size, mimetype: f.mimetype };
}

/** 512 → "512 B", 12_600 → "12.3 KB", 3_500_000 → "3.3 MB". */
export function fileLine(f: UploadedFile): string {
  return `${f.file_id} ${f.name} (${f.mimetype}, ${byteSize(f.size)})`;
}
