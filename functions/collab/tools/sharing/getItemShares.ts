import * as z from 'zod';
import { plural } from '../../../../shared/core/render';
import { collabTool } from '../../tool';
import { itemIdInput } from '../../params';
import { shareLine, toShare, type Share } from '../../sharing/render';

export const getItemShares = collabTool({
  name: 'getItemShares',
  description:
    'List who an item is shared with: one grant per person, with the user ({user_id, profile_id, name, type}; invited emails have type "mail"), access level (view/edit), ' +
    'rights and date. Workspace members see the item anyway and are not listed unless shared with. updateShare changes a level, deleteShare removes one. Read-only.',
  input: z.strictObject({ item_id: itemIdInput }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run({ item_id }, { client }): Promise<Share[]> {
    return (await client.listGrants('item', item_id)).map(toShare);
  },
  text: (r: Share[], input) =>
    r.length
      ? [...r.map(shareLine), `${plural(r.length, 'grant')} on item #${input.item_id} — updateShare changes a level, deleteShare removes one`].join('\n')
      : `item #${input.item_id} is shared with nobody beyond its workspace — shareItem shares it`,
  example: {
    input: { item_id: 30061 },
    result: [
      { grant_id: 50001, access_level: 'view', created_on: '2025-06-24 04:00:00', rights: ['view', 'comment'], user: { user_id: 1005, profile_id: 5105, name: 'Elena Rossi', type: 'user' }, created_by: { user_id: 1001, name: 'Ann Becker' } },
    ],
  },
});
