import { listed, type Listed } from '../../shared/core/listed';
import { byteSize, listFooter, plural } from '../../shared/core/render';
import type { SfItem } from './wire';

/** Shapes and text the filebox groups share: items (docs/spec.md#filebox-item) appear in listings, searches and shares. */

const FULL = ['Id', 'Name', 'FileName', 'odata.type', 'url', 'Parent', 'CreationDate', 'ProgenyEditDate', 'Description', 'Path', 'CreatorFirstName', 'CreatorLastName', 'FileSizeBytes', 'FileCount', 'State', 'StreamID', 'Info'] as const;
/** The summary form of docs/spec.md#filebox-item. */
export const ITEM_SUMMARY_FIELDS = ['Id', 'Name', 'odata.type', 'FileSizeBytes', 'CreationDate'] as const;

/**
 * An item in JSON mode: the fields of docs/spec.md#filebox-item as ShareFile names them
 * (PascalCase, `odata.type`), each present (null when ShareFile gives none); the summary form
 * carries only its own fields, so the others are typed optional.
 */
export type Item = Listed<SfItem, (typeof ITEM_SUMMARY_FIELDS)[number]> &
  Partial<Listed<SfItem, Exclude<(typeof FULL)[number], (typeof ITEM_SUMMARY_FIELDS)[number]>>> & {
    /** When it expires (ShareFile's "never" is left out). */
    ExpirationDate?: string;
    /** Only when true: the item is in the recycle bin (listed with include_deleted). */
    HasPendingDeletion?: true;
    Children?: Item[];
  };

/** ShareFile writes "never expires" as the end of time; it is left out. */
const NEVER = /^9999-/;

export function toItem(w: SfItem, summary = false): Item {
  const out: Item = listed(w, summary ? ITEM_SUMMARY_FIELDS : FULL);
  if (!summary && w.ExpirationDate && !NEVER.test(w.ExpirationDate)) out.ExpirationDate = w.ExpirationDate;
  if (w.HasPendingDeletion) out.HasPendingDeletion = true;
  return out;
}

export const isFolder = (i: { 'odata.type': string }) => /Folder$/.test(i['odata.type']);
const day = (iso?: string | null) => (iso ? iso.slice(0, 10) : '');

/** One line: `fo123 Contracts/ (12 files)` or `fi456 offer.pdf 240 KB 2026-03-02`. */
export function itemLine(i: Item): string {
  const gone = i.HasPendingDeletion ? ' [in recycle bin]' : '';
  if (isFolder(i)) return `${i.Id} ${i.Name ?? ''}/${i.FileCount != null ? ` (${plural(i.FileCount, 'file')})` : ''}${gone}`;
  const size = i.FileSizeBytes != null ? ` ${byteSize(i.FileSizeBytes)}` : '';
  return `${i.Id} ${i.Name ?? ''}${size}${i.CreationDate ? ` ${day(i.CreationDate)}` : ''}${gone}`;
}

/** An item with the details that matter under its line (path, description, creator, rights). */
export function itemDetail(i: Item): string {
  const lines = [itemLine(i)];
  if (i.Path) lines.push(`  path: ${i.Path}`);
  if (i.Description) lines.push(`  description: ${i.Description}`);
  const by = [i.CreatorFirstName, i.CreatorLastName].filter(Boolean).join(' ');
  if (i.CreationDate || by) lines.push(`  created ${day(i.CreationDate)}${by ? ` by ${by}` : ''}${i.ProgenyEditDate && day(i.ProgenyEditDate) !== day(i.CreationDate) ? `, last change ${day(i.ProgenyEditDate)}` : ''}`.replace('created  by', 'created by'));
  if (i.ExpirationDate) lines.push(`  expires ${day(i.ExpirationDate)}`);
  if (i.Parent?.Id) lines.push(`  parent: ${i.Parent.Id}`);
  if (i.Info) {
    const rights = (['CanView', 'CanDownload', 'CanUpload', 'CanDeleteCurrentItem', 'CanManagePermissions'] as const).filter((k) => i.Info![k]).map((k) => k.replace(/^Can/, '').replace('DeleteCurrentItem', 'Delete').toLowerCase());
    const kind = i.Info.IsMyHomeFolder ? 'your home folder' : i.Info.IsAHomeFolder ? 'a home folder' : i.Info.IsSharedFolder ? 'a shared folder' : '';
    lines.push(`  ${kind ? `${kind}; ` : ''}you can: ${rights.join(', ') || 'nothing'}`);
  }
  return lines.join('\n');
}

/** The paging part of list results (docs/spec.md#filebox-item: total_count, returned_count, has_more). */
export interface Paged {
  total_count: number;
  returned_count: number;
  has_more: boolean;
}

export function paged(feed: { 'odata.count'?: number; 'odata.nextLink'?: string; value: unknown[] }, skip: number): Paged {
  const total = feed['odata.count'] ?? skip + feed.value.length;
  return { total_count: total, returned_count: feed.value.length, has_more: Boolean(feed['odata.nextLink']) || skip + feed.value.length < total };
}

/** The footer of a paged list: count, and how to get the next page (`skip`). */
export function pageFooter(p: Paged, skip: number, noun: string, empty?: string): string {
  return listFooter({ shown: p.returned_count, total: p.total_count, noun, next: p.has_more ? { param: 'skip', value: skip + p.returned_count } : undefined, empty });
}
