import * as z from 'zod';
import { plural } from '../../../../shared/core/render';
import { fileboxTool } from '../../tool';
import { summaryOnlyInput } from '../../params';
import { itemLine, toItem, type Item } from '../../render';

interface TopLevel {
  description: string;
  count: number;
  folders: Item[];
}

/** The alias each top-level container answers to. */
const ALIAS_OF: Record<string, string> = { favorites: 'favorites', allshared: 'allshared', connectors: 'connectors' };

export const getTopLevelFolders = fileboxTool({
  name: 'getTopLevelFolders',
  description:
    'List the top-level containers the key sees: your home folder (employees), Favorites, Shared Folders and Connectors, with their ids. ' +
    'Start here to browse: pass an id or alias to listChildren. Client users have no home folder. Read-only.',
  input: z.strictObject({ summary_only: summaryOnlyInput }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run({ summary_only }, { client }): Promise<TopLevel> {
    const feed = await client.listChildren('top');
    const folders = feed.value.map((w) => toItem(w, summary_only));
    return {
      description: 'Top-level containers: Home (your personal folders, alias home), Favorites (favorites), Shared Folders (allshared), Connectors (connectors).',
      count: folders.length,
      folders,
    };
  },
  text: (r: TopLevel) =>
    [
      // The one container without an alias of its own is the home folder.
      ...r.folders.map((f) => `${itemLine(f)}${ALIAS_OF[f.Id] ? '' : ' (alias home)'}`),
      `${plural(r.count, 'top-level folder')} — list one with listChildren folder_id`,
    ].join('\n'),
  example: {
    input: {},
    result: {
      description: 'Top-level containers: Home (your personal folders, alias home), Favorites (favorites), Shared Folders (allshared), Connectors (connectors).',
      count: 2,
      folders: [
        { Id: 'fo00000b-5f1e-4b0c-9a7d-00000000000b', Name: 'Olivia Bennett', 'odata.type': 'ShareFile.Api.Models.Folder', FileSizeBytes: 5_134_512, FileCount: 3, CreationDate: '2024-01-15T09:00:00Z' },
        { Id: 'allshared', Name: 'Shared Folders', 'odata.type': 'ShareFile.Api.Models.Folder', FileSizeBytes: 1_048_576, FileCount: 2, CreationDate: '2024-01-15T09:00:00Z' },
      ],
    },
  },
});
