import * as z from 'zod';
import { collabTool } from '../../tool';
import { itemIdInput } from '../../params';
import { noGrantHint } from '../../sharing/errors';
import { accessLevelInput, shareUserIdInput } from '../../sharing/inputs';
import type { PodioAccessLevel } from '../../wire';

interface Updated {
  success: true;
  item_id: number;
  user_id: number;
  access_level: PodioAccessLevel;
}

export const updateShare = collabTool({
  name: 'updateShare',
  description:
    "Change the access level (view or edit) of one person's existing grant on an item. For someone without a grant use shareItem; getItemShares lists the grants. " +
    'Returns {success: true, item_id, user_id, access_level}.',
  input: z.strictObject({ item_id: itemIdInput, user_id: shareUserIdInput, access_level: accessLevelInput }),
  annotations: { readOnly: false, destructive: true, idempotent: true },
  async run({ item_id, user_id, access_level }, { client }): Promise<Updated> {
    await noGrantHint(client.updateGrant('item', item_id, user_id, { access_level }), item_id, user_id);
    return { success: true, item_id, user_id, access_level };
  },
  text: (r: Updated) => `user ${r.user_id} now has ${r.access_level} access to item #${r.item_id}`,
  example: { input: { item_id: 30061, user_id: 1005, access_level: 'edit' }, result: { success: true, item_id: 30061, user_id: 1005, access_level: 'edit' } },
});

