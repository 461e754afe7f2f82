import * as z from 'zod';
import { collabTool } from '../../tool';
import { fileIdsInput, hookInput, silentInput } from '../../params';
import { commentValueInput, embedUrlInput, externalIdInput, refIdInput, refTypeInput } from '../../comments/inputs';
import { mentionableOn } from '../../comments/mentions';
import { commentText, toComment, type Comment } from '../../comments/render';
import { commentBody } from '../../comments/write';

export const addCommentToObject = collabTool({
  name: 'addCommentToObject',
  description:
    'Add a comment to an item, task or status message. Mention people with @[Full Name](user:<user_id>): every mention is checked first — a non-numeric id, ' +
    'a profile id, or an id that is no user of the org is refused (Podio would drop it silently and nobody would be notified); getOrganizationMembers lists user ids. ' +
    'file_ids attaches files: new file ids or https URLs (downloaded and uploaded for you); embed_url shows a link preview. Notifies mentioned and following users ' +
    'unless silent; runs comment.create hooks unless hook is false; alert_invite invites mentioned users who are not in the space. Returns the comment.',
  input: z.strictObject({
    type: refTypeInput,
    id: refIdInput,
    value: commentValueInput,
    file_ids: fileIdsInput,
    embed_url: embedUrlInput,
    external_id: externalIdInput,
    silent: silentInput,
    hook: hookInput,
    alert_invite: z.boolean().default(false).describe('Invite mentioned users who are not members of the workspace (default false).'),
  }),
  annotations: { readOnly: false, destructive: false, idempotent: false },
  async run({ type, id, silent, hook, alert_invite, ...content }, ctx): Promise<Comment> {
    const body = await commentBody(content, ctx, mentionableOn(ctx, { type, id }));
    const added = await ctx.client.addComment(type, id, body, { silent, hook, ...(alert_invite ? { alert_invite } : {}) });
    // Podio answers {comment_id}: the comment is read back. If that read fails the comment still
    // exists: answer with what is known rather than an error that would invite a duplicate.
    const full = await ctx.client.getComment(added.comment_id).catch(() => null);
    if (full) return toComment(full);
    return { comment_id: added.comment_id, value: body.value, rich_value: null, created_by: { user_id: null, name: 'unknown', type: 'user' }, created_on: null, files: [], ref: { type, id }, like_count: 0, is_liked: false, embed: null };
  },
  text: (c: Comment) => `added comment ${commentText(c)}`,
  example: {
    input: { type: 'item', id: 30061, value: '@[Ben Okafor](user:1002) the customer signed — please send the invoice.', file_ids: ['https://example.com/contracts/northwind-signed.pdf'] },
    result: {
      comment_id: 90041,
      value: '@[Ben Okafor](user:1002) the customer signed — please send the invoice.',
      rich_value: '<p><a href="https://podio.com/users/1002" data-id="1002" data-type="user">@Ben Okafor</a> the customer signed — please send the invoice.</p>',
      created_by: { user_id: 1001, name: 'Ann Becker', type: 'user' },
      created_on: '2025-03-04 08:00:00',
      files: [{ file_id: 60031, name: 'northwind-signed.pdf', mimetype: 'application/pdf', size: 48213 }],
      ref: { type: 'item', id: 30061 },
      like_count: 0,
      is_liked: false,
      embed: null,
    },
  },
});
