import * as z from 'zod';
import { collabTool } from '../../tool';
import { commentIdInput } from '../../comments/inputs';
import { commentText, toComment, type Comment } from '../../comments/render';

export const getComment = collabTool({
  name: 'getComment',
  description:
    'Get one comment: its text (value, with mention markup, and rich_value), author {user_id, name, type}, date, files, what it is on (ref {type, id}) and likes. ' +
    'getCommentsOnObject lists the comments of an item, task or status; getCommentRevisions shows earlier versions of an edited one. Read-only.',
  input: z.strictObject({ comment_id: commentIdInput }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run({ comment_id }, { client }): Promise<Comment> {
    return toComment(await client.getComment(comment_id));
  },
  text: commentText,
  example: {
    input: { comment_id: 90001 },
    result: {
      comment_id: 90001,
      value: '@[Chloé Martin](user:1003) Sent the revised proposal this morning.',
      rich_value: '<p><a href="https://podio.com/users/1003" data-id="1003" data-type="user">@Chloé Martin</a> Sent the revised proposal this morning.</p>',
      created_by: { user_id: 1002, name: 'Ben Okafor', type: 'user' },
      created_on: '2025-01-20 14:00:00',
      files: [],
      ref: { type: 'item', id: 30061 },
      like_count: 1,
      is_liked: false,
      embed: null,
    },
  },
});
