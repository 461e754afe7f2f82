import * as z from 'zod';
import { invalidParameter } from '../../../../shared/core/errors';
import { listed, type Listed } from '../../../../shared/core/listed';
import { byteSize } from '../../../../shared/core/render';
import { fileboxTool } from '../../tool';
import { folderIdInput, skipInput } from '../../params';
import { pageFooter, type Paged } from '../../render';

interface HitFields {
  Id: string;
  Name: string;
  ItemType: string;
  ParentID: string;
  ParentName?: string;
  Path?: string;
  FileSizeBytes?: number;
  CreationDate?: string;
  CreatorName?: string;
}
/** Every field of a hit is present, null when ShareFile gives none. */
const HIT = ['Id', 'Name', 'ItemType', 'ParentID', 'ParentName', 'Path', 'FileSizeBytes', 'CreationDate', 'CreatorName'] as const;
type Hit = Listed<HitFields, (typeof HIT)[number]>;

interface Found extends Paged {
  query: string;
  folder_id?: string;
  /** ShareFile cut the search short (time-out or partial index): more may exist. */
  partial: boolean;
  items: Hit[];
}

export const searchItems = fileboxTool({
  name: 'searchItems',
  description:
    'Find files and folders by name or content text, within a folder and its subfolders (folder_id) or everywhere the key can see (no folder_id). ' +
    'item_type narrows to files or folders; name_only ignores the content. Paged with top (default 50) and skip. Returns ids, names, parent, path, size. Read-only.',
  input: z.strictObject({
    query: z.string().trim().min(1).max(200).describe('Words to find in names (and, unless name_only, in descriptions and file content).'),
    folder_id: folderIdInput('Search only below this folder: a folder id (fo…), "home" or "box"; omit to search everywhere you have access.').optional(),
    item_type: z.enum(['any', 'file', 'folder']).default('any').describe('Only files, only folders, or both (default any).'),
    name_only: z.boolean().default(false).describe('Match names only, not content (default false).'),
    top: z.number().int().min(1).max(200).default(50).describe('Results per page, 1-200 (default 50).'),
    skip: skipInput,
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run({ query, folder_id, item_type, name_only, top, skip }, { client }): Promise<Found> {
    if (folder_id && ['top', 'allshared', 'favorites', 'connectors'].includes(folder_id)) {
      throw invalidParameter('folder_id', 'a folder id (fo…), home or box', `Invalid parameter "folder_id": "${folder_id}" is a listing, not a folder; omit folder_id to search everywhere you have access.`);
    }
    const r = await client.search({
      Query: { ItemType: item_type === 'any' ? '' : item_type === 'file' ? 'File' : 'Folder', ParentID: folder_id ?? '', CreatorID: '', SearchQuery: query, CreateStartDate: '', CreateEndDate: '', ItemNameOnly: name_only },
      Paging: { Count: top, Skip: skip },
      Sort: { SortBy: '', Ascending: false },
      TimeoutInSeconds: 10,
    });
    const items = r.Results.map((h): Hit =>
      listed<HitFields, (typeof HIT)[number]>(
        {
          Id: h.ItemID,
          Name: h.DisplayName || h.FileName,
          ItemType: h.ItemType,
          ParentID: h.ParentID,
          ParentName: h.ParentName || undefined,
          Path: h.Path || undefined,
          FileSizeBytes: h.Size,
          CreationDate: h.CreationDate || undefined,
          CreatorName: h.CreatorName || undefined,
        },
        HIT,
      ),
    );
    const total = r.TotalCount ?? skip + items.length + (items.length === top ? 1 : 0);
    return { query, ...(folder_id ? { folder_id } : {}), total_count: total, returned_count: items.length, has_more: skip + items.length < total, partial: r.PartialResults || r.TimedOut, items };
  },
  text: (r: Found, input) =>
    [
      ...r.items.map((h) => {
        const folder = /folder/i.test(h.ItemType);
        const size = !folder && h.FileSizeBytes != null ? ` ${byteSize(h.FileSizeBytes)}` : '';
        return `${h.Id} ${h.Name}${folder ? '/' : ''}${size}${h.CreationDate ? ` ${h.CreationDate.slice(0, 10)}` : ''} in ${h.ParentName ? `${h.ParentName} ` : ''}(${h.ParentID})`;
      }),
      pageFooter(r, input.skip, 'result', `nothing matches "${r.query}"${r.folder_id ? ` below ${r.folder_id}` : ''}`) + (r.partial ? ' (partial results: ShareFile cut the search short)' : ''),
    ].join('\n'),
  example: {
    input: { query: 'proposal' },
    result: {
      query: 'proposal',
      total_count: 1,
      returned_count: 1,
      has_more: false,
      partial: false,
      items: [{ Id: 'fi000033-5f1e-4b0c-9a7d-000000000033', Name: 'proposal.pdf', ItemType: 'File', ParentID: 'fo000020-5f1e-4b0c-9a7d-000000000020', ParentName: 'Ortiz Renovation', Path: '/Shared Folders/Client Projects/Ortiz Renovation', FileSizeBytes: 712, CreationDate: '2026-03-05T10:00:00Z', CreatorName: 'Olivia Bennett' }],
    },
  },
});
