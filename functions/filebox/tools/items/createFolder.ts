import * as z from 'zod';
import { fileboxTool } from '../../tool';
import { folderIdInput } from '../../params';
import { itemDetail, toItem, type Item } from '../../render';
import { checkClash, checkTarget, nameInput } from '../../items/targets';

export const createFolder = fileboxTool({
  name: 'createFolder',
  description:
    'Create a folder in a folder, in your home folder (parent_id "home") or as a new shared folder (parent_id "allshared", employees who may create folders). ' +
    'With overwrite false (default) an existing item of the same name is an error naming it, and nothing is created; overwrite true moves the existing one ' +
    'to the recycle bin and creates an empty folder. Returns the folder.',
  input: z.strictObject({
    parent_id: folderIdInput('Where to create it: a folder id (fo…), "home", "box" or "allshared" (creates a shared folder).'),
    name: nameInput('Folder name, 1-255 characters, without \\ / : * ? " < > |.'),
    description: z.string().max(4000).optional().describe('Folder description.'),
    overwrite: z.boolean().default(false).describe('Replace an existing item of the same name (it goes to the recycle bin); default false: refuse.'),
  }),
  annotations: { readOnly: false, destructive: true, idempotent: false },
  async run({ parent_id, name, description, overwrite }, { client }): Promise<Item> {
    checkTarget('parent_id', parent_id, { allowShared: true });
    await checkClash(client, parent_id, name, { overwrite, parameter: 'name', what: 'replace it (the existing item goes to the recycle bin)' });
    return toItem(await client.createFolder(parent_id, { Name: name, ...(description !== undefined ? { Description: description } : {}) }, { overwrite }));
  },
  text: (i: Item) => `created folder ${itemDetail(i)}`,
  example: {
    input: { parent_id: 'allshared', name: 'Smith Estate' },
    result: {
      Id: 'fo0003ea-5f1e-4b0c-9a7d-0000000003ea',
      Name: 'Smith Estate',
      FileName: 'Smith Estate',
      'odata.type': 'ShareFile.Api.Models.Folder',
      Parent: { Id: 'allshared' },
      CreationDate: '2026-03-10T09:00:00Z',
      Path: '/Shared Folders/Smith Estate',
      FileSizeBytes: 0,
      FileCount: 0,
      Info: { IsSharedFolder: true, CanView: true, CanUpload: true, CanDownload: true, CanDeleteCurrentItem: true, CanManagePermissions: true },
    },
  },
});
