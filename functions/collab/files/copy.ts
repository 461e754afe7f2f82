import { invalidParameter, ToolError } from '../../../shared/core/errors';
import type { Ctx } from '../params';

/**
 * Copies the attached files of one item onto another (copyItemFiles, and cloneItem with
 * include_files): each file copied to a new unattached file, then attached to the target or put in
 * place of the target's same-named file.
 */

export interface Copied {
  file_id: number;
  new_file_id: number;
  name: string;
}
export interface Replaced extends Copied {
  /** The target's same-named file that the copy took the place of. */
  replaced_file_id: number;
}
export interface Skipped {
  file_id: number;
  name: string;
  /** The target's same-named file that was kept. */
  existing_file_id: number;
}
export interface Failed {
  file_id: number;
  name: string;
  error: string;
}

export interface CopiedFiles {
  source_item_id: number;
  target_item_id: number;
  copied: Copied[];
  replaced: Replaced[];
  skipped: Skipped[];
  failed?: Failed[];
}

export interface CopyItemFiles {
  source_item_id: number;
  target_item_id: number;
  file_ids?: number[];
  overwrite_duplicates: boolean;
  silent: boolean;
}

export async function copyFilesBetweenItems({ source_item_id, target_item_id, file_ids, overwrite_duplicates, silent }: CopyItemFiles, { client }: Pick<Ctx, 'client'>): Promise<CopiedFiles> {
  if (source_item_id === target_item_id) throw invalidParameter('target_item_id', 'another item than source_item_id', 'Parameter "target_item_id": copying an item\'s files onto itself would duplicate them; give another item.');
  const [source, target] = await Promise.all([client.getItem(source_item_id), client.getItem(target_item_id)]);
  const files = source.files ?? [];
  (file_ids ?? []).forEach((id, i) => {
    if (!files.some((f) => f.file_id === id)) {
      throw invalidParameter(`file_ids.${i}`, `one of the source item's files (${files.map((f) => f.file_id).join(', ') || 'it has none'})`, `Parameter "file_ids.${i}": file #${id} is not attached to item #${source_item_id}.`);
    }
  });
  const byName = new Map((target.files ?? []).map((f) => [f.name, f.file_id]));
  const r: CopiedFiles = { source_item_id, target_item_id, copied: [], replaced: [], skipped: [] };
  const failed: Failed[] = [];
  for (const f of files.filter((x) => !file_ids || file_ids.includes(x.file_id))) {
    const existing = byName.get(f.name);
    if (existing !== undefined && !overwrite_duplicates) {
      r.skipped.push({ file_id: f.file_id, name: f.name, existing_file_id: existing });
      continue;
    }
    try {
      const copy = await client.copyFile(f.file_id);
      if (existing !== undefined) {
        await client.replaceFile(copy.file_id, existing, { silent });
        r.replaced.push({ file_id: f.file_id, new_file_id: copy.file_id, name: f.name, replaced_file_id: existing });
      } else {
        await client.attachFile(copy.file_id, { ref_type: 'item', ref_id: target_item_id }, { silent });
        r.copied.push({ file_id: f.file_id, new_file_id: copy.file_id, name: f.name });
      }
      byName.set(f.name, copy.file_id);
    } catch (err) {
      // Files done so far stay done; this one is reported, not lost.
      failed.push({ file_id: f.file_id, name: f.name, error: err instanceof ToolError ? `${err.code}: ${err.message}` : 'unexpected error' });
    }
  }
  return failed.length ? { ...r, failed } : r;
}
