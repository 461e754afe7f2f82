import * as z from 'zod';
import { invalidParameter } from '../../../../shared/core/errors';
import { fileboxTool } from '../../tool';
import { concreteItemIdInput, expirationDateInput, isoExpiry } from '../../params';
import { itemDetail, toItem, type Item } from '../../render';
import { nameInput } from '../../items/targets';

export const updateItem = fileboxTool({
  name: 'updateItem',
  description:
    'Rename a file or folder, change its description or set its expiration date (the item is removed when it expires). Pass at least one of name, ' +
    'description, expiration_date. To move an item use moveItem. Returns the updated item.',
  input: z.strictObject({
    item_id: concreteItemIdInput('Id of the file (fi…) or folder (fo…) to change.'),
    name: nameInput('New name, 1-255 characters, without \\ / : * ? " < > |.').optional(),
    description: z.string().max(4000).optional().describe('New description ("" clears it).'),
    expiration_date: expirationDateInput('When the item expires.').optional(),
  }),
  annotations: { readOnly: false, destructive: true, idempotent: true },
  async run({ item_id, name, description, expiration_date }, { client }): Promise<Item> {
    if (name === undefined && description === undefined && expiration_date === undefined) {
      throw invalidParameter('name', 'at least one of name, description, expiration_date', 'Nothing to change: pass name, description or expiration_date.');
    }
    return toItem(
      await client.updateItem(item_id, {
        ...(name !== undefined ? { Name: name, FileName: name } : {}),
        ...(description !== undefined ? { Description: description } : {}),
        ...(expiration_date !== undefined ? { ExpirationDate: isoExpiry(expiration_date) } : {}),
      }),
    );
  },
  text: (i: Item) => `updated ${itemDetail(i)}`,
  example: {
    input: { item_id: 'fi00002a-5f1e-4b0c-9a7d-00000000002a', name: 'offer-signed.pdf' },
    result: { Id: 'fi00002a-5f1e-4b0c-9a7d-00000000002a', Name: 'offer-signed.pdf', 'odata.type': 'ShareFile.Api.Models.File', FileSizeBytes: 667, CreationDate: '2026-03-02T09:15:00Z', Path: '/Personal Folders/Olivia Bennett/Contracts/offer-signed.pdf' },
  },
});
