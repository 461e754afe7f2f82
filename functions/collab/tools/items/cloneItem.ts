import * as z from 'zod';
import { plural } from '../../../../shared/core/render';
import { collabTool } from '../../tool';
import { itemIdInput, silentInput } from '../../params';
// The files of the copy are copied by the same code as copyItemFiles'.
import { copyFilesBetweenItems } from '../../files/copy';

export interface ClonedItem {
  item_id: number;
  /** include_files: each file of the original and its copy on the new item. */
  files?: { file_id: number; new_file_id: number; name: string }[];
  /** include_files: files that could not be copied (the item itself was cloned). */
  files_failed?: { file_id: number; name: string; error: string }[];
}

export const cloneItem = collabTool({
  name: 'cloneItem',
  description:
    'Copy an item into a new item of the same app: same field values and tags, a new item_id (and app_item_id). Podio does not copy the attached ' +
    'files: with include_files true each file is copied to a new file id and attached to the new item (the originals stay where they are). ' +
    'Notifies unless silent. Returns {item_id} of the copy (with include_files, also files: [{file_id, new_file_id, name}]).',
  input: z.strictObject({
    item_id: itemIdInput,
    include_files: z.boolean().default(false).describe("Also copy the item's attached files to the new item, as new files with new ids (default false)."),
    silent: silentInput,
  }),
  annotations: { readOnly: false, destructive: false, idempotent: false },
  async run({ item_id, include_files, silent }, ctx): Promise<ClonedItem> {
    const copy = await ctx.client.cloneItem(item_id, { silent });
    if (!include_files) return { item_id: copy.item_id };
    const files = await copyFilesBetweenItems({ source_item_id: item_id, target_item_id: copy.item_id, overwrite_duplicates: false, silent }, ctx);
    return { item_id: copy.item_id, files: files.copied, ...(files.failed?.length ? { files_failed: files.failed } : {}) };
  },
  text: (r: ClonedItem, input) =>
    [
      `cloned item #${input.item_id} → new item #${r.item_id}${r.files ? `; ${plural(r.files.length, 'file')} copied` : ''}`,
      ...(r.files_failed ?? []).map((f) => `file #${f.file_id} ${f.name} not copied — ${f.error}`),
    ].join('\n'),
  example: {
    input: { item_id: 30061, include_files: true },
    result: { item_id: 30301, files: [{ file_id: 60001, new_file_id: 60015, name: 'proposal.pdf' }] },
  },
});
