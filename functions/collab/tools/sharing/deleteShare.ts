import * as z from 'zod';
import { collabTool } from '../../tool';
import { itemIdInput } from '../../params';
import { noGrantHint } from '../../sharing/errors';
import { shareUserIdInput } from '../../sharing/inputs';

interface Removed {
  item_id: number;
  user_id: number;
}

export const deleteShare = collabTool({
  name: 'deleteShare',
  description:
    "Remove one person's grant on an item: they lose the access the share gave them (access through workspace membership stays). One user per call — " +
    'call it again for each further person; getItemShares lists who holds a grant. Returns {item_id, user_id}.',
  input: z.strictObject({ item_id: itemIdInput, user_id: shareUserIdInput }),
  annotations: { readOnly: false, destructive: true, idempotent: false },
  async run({ item_id, user_id }, { client }): Promise<Removed> {
    await noGrantHint(client.deleteGrant('item', item_id, user_id), item_id, user_id);
    return { item_id, user_id };
  },
  text: (r: Removed) => `removed user ${r.user_id}'s grant on item #${r.item_id}`,
  example: { input: { item_id: 30061, user_id: 1005 }, result: { item_id: 30061, user_id: 1005 } },
});
