import { byteSize } from '../../../shared/core/render';
import type { PodioFile } from '../wire';

/** A file's metadata: every field Podio's file model lists, null when Podio gives none; listings add `context`. */
export interface FileMeta {
  file_id: number;
  name: string;
  mimetype: string;
  size: number;
  link: string | null;
  hosted_by: string | null;
  description: string | null;
  created_on: string | null;
  created_by: { type?: string; id?: number; name?: string } | null;
  thumbnail_link: string | null;
  rights: string[] | null;
  context?: { type: string; id: number; title?: string | null } | null;
}

export function toFile(f: PodioFile): FileMeta {
  const by = f.created_by;
  return {
    file_id: f.file_id,
    name: f.name,
    mimetype: f.mimetype ?? 'application/octet-stream',
    size: f.size ?? 0,
    link: f.link || null,
    hosted_by: f.hosted_by || null,
    description: f.description ?? null,
    created_on: f.created_on || null,
    created_by: by ? { ...(by.type ? { type: by.type } : {}), ...(typeof by.id === 'number' ? { id: by.id } : {}), ...(by.name ? { name: by.name } : {}) } : null,
    thumbnail_link: f.thumbnail_link ?? null,
    rights: f.rights ?? null,
    context: f.context ? { type: f.context.type, id: f.context.id, ...(f.context.title ? { title: f.context.title } : {}) } : null,
  };
}

/** uploadFile's entry (docs/spec.md#collab-file): the metadata a fresh upload has. */
export function uploadedFile(p: PodioFile): Pick<FileMeta, 'file_id' | 'name' | 'mimetype' | 'size' | 'link' | 'hosted_by'> {
  const { file_id, name, mimetype, size, link, hosted_by } = toFile(p);
  return { file_id, name, mimetype, size, link, hosted_by };
}

/** Where a file is, in words: `on item #30061 "Title"`, or `unattached`. */
export function contextText(c: FileMeta['context']): string {
  if (!c) return 'unattached';
  return `on ${c.type} #${c.id}${c.title ? ` "${c.title}"` : ''}`;
}

/** `#60015 offer.pdf (application/pdf, 12.3 KB) on item #30061 "Deal"`. */
export function fileLine(f: FileMeta): string {
  const desc = f.description ? ` — ${f.description}` : '';
  return `#${f.file_id} ${f.name} (${f.mimetype}, ${byteSize(f.size)}) ${contextText(f.context)}${f.created_on ? `, ${f.created_on}` : ''}${desc}`;
}
