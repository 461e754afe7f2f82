import { listFooter } from '../../../shared/core/render';
import type { PodioFileListQuery } from '../wire';
import { fileLine, type FileMeta } from './render';

/** getFilesOnApp and getFilesOnSpace: the same query, the same page, the same text. */

export interface FileListInput {
  attached_to?: string;
  filetype?: string;
  limit: number;
  offset: number;
  sort_by?: 'name' | 'created_on';
  sort_desc?: boolean;
}

export interface FilePage {
  files: FileMeta[];
  offset: number;
  /** Set when the page was full: there may be more from this offset. */
  next_offset?: number;
}

export function fileListQuery(i: FileListInput): PodioFileListQuery {
  return {
    limit: i.limit,
    offset: i.offset,
    ...(i.attached_to ? { attached_to: i.attached_to } : {}),
    ...(i.filetype ? { filetype: i.filetype } : {}),
    ...(i.sort_by ? { sort_by: i.sort_by } : {}),
    ...(i.sort_desc !== undefined ? { sort_desc: i.sort_desc } : {}),
  };
}

export function filePage(files: FileMeta[], i: FileListInput): FilePage {
  // Podio gives no total: a full page means there may be more.
  return { files, offset: i.offset, ...(files.length === i.limit ? { next_offset: i.offset + i.limit } : {}) };
}

export function filePageText(p: FilePage, where: string, also: string): string {
  const footer = listFooter({ shown: p.files.length, noun: 'file', empty: `no files on ${where}${p.offset ? ` from offset ${p.offset}` : ''}`, ...(p.next_offset !== undefined ? { next: { param: 'offset', value: p.next_offset, also } } : {}) });
  return [...p.files.map(fileLine), footer].join('\n');
}
