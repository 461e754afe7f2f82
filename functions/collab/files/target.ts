import * as z from 'zod';
import { id } from '../../../shared/core/params';
import type { Ctx } from './../params';

/** uploadFiles' `attach_to`: the object the files go on, which must exist before anything is uploaded. */
export const attachToInput = z
  .strictObject({
    ref_type: z.enum(['item', 'comment', 'space']).describe('What the files go on: item, comment or space.'),
    ref_id: id('Numeric id of that object (an item\'s global item_id, not the number in its URL).'),
  })
  .describe('The existing object to attach the files to, e.g. {"ref_type": "item", "ref_id": 30061}.');

export type AttachTo = z.output<typeof attachToInput>;

/** Reads the target (NOT_FOUND / FORBIDDEN from Podio when it does not exist or is not visible). */
export async function checkTarget(t: AttachTo, { client }: Pick<Ctx, 'client'>): Promise<void> {
  if (t.ref_type === 'item') await client.getItem(t.ref_id);
  else if (t.ref_type === 'comment') await client.getComment(t.ref_id);
  else await client.getSpace(t.ref_id);
}
