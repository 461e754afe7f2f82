import * as z from 'zod';
import { collabTool } from '../../tool';
import { hookInput } from '../../params';
import { commentIdInput } from '../../comments/inputs';

interface Deleted {
  deleted: true;
  comment_id: number;
}

export const deleteComment = collabTool({
  name: 'deleteComment',
  description:
    'Delete a comment permanently, with the files attached to it; it cannot be restored. Runs comment.delete hooks unless hook is false. ' +
    'To change the text instead, use updateComment. Returns {deleted: true, comment_id}.',
  input: z.strictObject({ comment_id: commentIdInput, hook: hookInput }),
  annotations: { readOnly: false, destructive: true, idempotent: false },
  async run({ comment_id, hook }, { client }): Promise<Deleted> {
    await client.deleteComment(comment_id, { hook });
    return { deleted: true, comment_id };
  },
  text: (r: Deleted) => `deleted comment #${r.comment_id} (permanent)`,
  example: { input: { comment_id: 90041 }, result: { deleted: true, comment_id: 90041 } },
});
