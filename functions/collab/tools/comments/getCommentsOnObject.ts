import * as z from 'zod';
import { offset } from '../../../../shared/core/params';
import { listFooter } from '../../../../shared/core/render';
import { collabTool } from '../../tool';
import { refIdInput, refTypeInput } from '../../comments/inputs';
import { DESC_WINDOW, listCommentsPage, pageLimit } from '../../comments/listing';
import { commentLine, toComment, type Comment } from '../../comments/render';

export const getCommentsOnObject = collabTool({
  name: 'getCommentsOnObject',
  description:
    'List the comments on an item, task or status message: comment_id, author {user_id, name, type}, date, text with mention markup, files, likes. ' +
    `sort "desc" (default) is newest first and reaches the newest ${DESC_WINDOW} only: offset + limit must be <= ${DESC_WINDOW} (Podio lists oldest first, so the ` +
    'service reads the list in pages of 100 to count it and cuts the newest from the end). sort "asc" is oldest first and pages through the whole history ' +
    'with offset/limit. Read-only.',
  input: z.strictObject({
    type: refTypeInput,
    id: refIdInput,
    sort: z.enum(['desc', 'asc']).default('desc').describe(`"desc" newest first (default; only the newest ${DESC_WINDOW}) or "asc" oldest first (all).`),
    limit: z
      .number()
      .int()
      .min(1)
      .max(100)
      .optional()
      .describe(`Comments to return, 1-100 (default 100; in desc mode default ${DESC_WINDOW} - offset, and offset + limit <= ${DESC_WINDOW}).`),
    offset: offset(),
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run({ type, id, sort, limit, offset }, { client }): Promise<Comment[]> {
    const size = pageLimit(sort, offset, limit);
    return (await listCommentsPage(client, type, id, sort, offset, size)).map((c) => toComment(c, false));
  },
  text: (comments: Comment[], input) => {
    const size = pageLimit(input.sort, input.offset, input.limit);
    const full = comments.length >= size;
    const on = `${input.type} #${input.id}`;
    let foot: string;
    if (full && input.sort === 'desc' && input.offset + size >= DESC_WINDOW) {
      foot = `the newest ${DESC_WINDOW} comments on ${on} end here — older ones: sort "asc" (oldest first) with offset`;
    } else {
      foot = listFooter({
        shown: comments.length,
        noun: 'comment',
        next: full ? { param: 'offset', value: input.offset + comments.length, also: `with the same sort` } : undefined,
        empty: input.offset ? `no comments on ${on} past offset ${input.offset}` : `no comments on ${on}`,
      });
    }
    const order = input.sort === 'desc' ? 'newest first' : 'oldest first';
    return [...(comments.length ? [`comments on ${on}, ${order}:`] : []), ...comments.map(commentLine), foot].join('\n');
  },
  example: {
    input: { type: 'item', id: 30061, limit: 2 },
    result: [
      {
        comment_id: 90021,
        value: 'Legal has the contract now.',
        rich_value: '<p>Legal has the contract now.</p>',
        created_by: { user_id: 1003, name: 'Chloé Martin', type: 'user' },
        created_on: '2025-02-03 11:00:00',
        files: [],
        like_count: 0,
        is_liked: false,
        embed: null,
      },
      {
        comment_id: 90001,
        value: '@[Chloé Martin](user:1003) Sent the revised proposal this morning.',
        rich_value: null,
        created_by: { user_id: 1002, name: 'Ben Okafor', type: 'user' },
        created_on: '2025-01-20 14:00:00',
        files: [{ file_id: 60012, name: 'proposal-v2.pdf', mimetype: 'application/pdf', size: 91234 }],
        like_count: 1,
        is_liked: false,
        embed: null,
      },
    ],
  },
});
