import * as z from 'zod';
import { collabTool } from '../../tool';
import { fileIdsInput } from '../../params';
import { commentIdInput, commentValueInput, embedUrlInput, externalIdInput } from '../../comments/inputs';
import { mentionableInComment } from '../../comments/mentions';
import { commentBody } from '../../comments/write';

interface Updated {
  updated: true;
  comment_id: number;
}

export const updateComment = collabTool({
  name: 'updateComment',
  description:
    'Replace the text of a comment (the old text stays in getCommentRevisions). Mentions @[Full Name](user:<user_id>) are checked as in addCommentToObject: ' +
    'a non-numeric id, a profile id or an id that is no user of the org is refused before anything changes. file_ids adds files (new file ids or https URLs, ' +
    'uploaded for you); embed_url sets a link preview; external_id sets your own id. Only the author can edit a comment. Returns {updated: true, comment_id}.',
  input: z.strictObject({
    comment_id: commentIdInput,
    value: commentValueInput,
    file_ids: fileIdsInput,
    embed_url: embedUrlInput,
    external_id: externalIdInput,
  }),
  // Not idempotent: file_ids given as URLs upload and attach new copies on every call.
  annotations: { readOnly: false, destructive: true, idempotent: false },
  async run({ comment_id, ...content }, ctx): Promise<Updated> {
    const body = await commentBody(content, ctx, mentionableInComment(ctx, comment_id));
    await ctx.client.updateComment(comment_id, body);
    return { updated: true, comment_id };
  },
  text: (r: Updated, input) => `updated comment #${r.comment_id}: ${input.value.length > 200 ? `${input.value.slice(0, 197)}...` : input.value} — earlier text in getCommentRevisions`,
  example: {
    input: { comment_id: 90001, value: '@[Chloé Martin](user:1003) Sent the revised proposal (v3) this morning.' },
    result: { updated: true, comment_id: 90001 },
  },
});
