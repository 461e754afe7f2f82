import * as z from 'zod';
import { numericId } from '../../../../shared/core/ids';
import { plural } from '../../../../shared/core/render';
import { collabTool } from '../../tool';
import { itemIdInput, silentInput } from '../../params';
import { copyFilesBetweenItems, type CopiedFiles } from '../../files/copy';

export const copyItemFiles = collabTool({
  name: 'copyItemFiles',
  description:
    'Copy the attached files of one item to another: each file is copied (a new file id, the original stays) and attached to the target. A file whose name ' +
    'the target already has is skipped, unless overwrite_duplicates is true: then the copy replaces the target\'s file. file_ids narrows to some of the ' +
    'source\'s files. Returns {copied, replaced, skipped} with old and new ids (and failed, if any file could not be copied).',
  input: z.strictObject({
    source_item_id: itemIdInput.describe('Global item_id of the item whose files are copied.'),
    target_item_id: itemIdInput.describe('Global item_id of the item that receives the copies.'),
    file_ids: z.array(numericId()).min(1).max(100).optional().describe('Only these files of the source item (default: all its files).'),
    overwrite_duplicates: z.boolean().default(false).describe('Replace target files of the same name (default false: skip those).'),
    silent: silentInput,
  }),
  annotations: { readOnly: false, destructive: true, idempotent: false },
  run: (input, ctx): Promise<CopiedFiles> => copyFilesBetweenItems(input, ctx),
  text: (r: CopiedFiles) =>
    [
      ...r.copied.map((c) => `copied #${c.file_id} ${c.name} → #${c.new_file_id}`),
      ...r.replaced.map((c) => `replaced #${c.replaced_file_id} ${c.name} with copy #${c.new_file_id} of #${c.file_id}`),
      ...r.skipped.map((c) => `skipped #${c.file_id} ${c.name} (target has #${c.existing_file_id}; overwrite_duplicates true replaces it)`),
      ...(r.failed ?? []).map((c) => `failed #${c.file_id} ${c.name} — ${c.error}`),
      `item #${r.source_item_id} → #${r.target_item_id}: ${plural(r.copied.length, 'copied', 'copied')}, ${r.replaced.length} replaced, ${r.skipped.length} skipped${r.failed ? `, ${r.failed.length} failed` : ''}`,
    ].join('\n'),
  example: {
    input: { source_item_id: 30061, target_item_id: 30062 },
    result: {
      source_item_id: 30061,
      target_item_id: 30062,
      copied: [{ file_id: 60015, new_file_id: 60022, name: 'offer.pdf' }],
      replaced: [],
      skipped: [{ file_id: 60016, name: 'notes.txt', existing_file_id: 60018 }],
    },
  },
});
