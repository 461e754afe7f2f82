import * as z from 'zod';
import { page } from '../../../../shared/core/params';
import { pageCursor } from '../../params';
import { dbappTool } from '../../tool';
import { listFooter, plainText, shortDate } from '../../../../shared/core/render';
import { recordId } from '../../records/inputs';
import { toComment, type RecordComment } from '../../records/comments';

interface CommentPage {
  total: number;
  cursor: string | null;
  comments: RecordComment[];
}

export const listRecordComments = dbappTool({
  name: 'listRecordComments',
  description:
    'List the comments on a record, oldest first: {comment_id, value, created_on, created_by {user_id, name}, files}. Pages of up to 100 ' +
    '(default 50); pass the cursor for the next page; the last page answers cursor: null. Use createRecordComment to add one. Read-only.',
  input: z.strictObject({
    record_id: recordId,
    limit: page({ default: 50, max: 100, what: 'Comments per page' }),
    cursor: pageCursor(),
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run({ record_id, limit, cursor }, { client }): Promise<CommentPage> {
    const page = await client.listComments(record_id, { limit, ...(cursor ? { cursor } : {}) });
    const more = page.comments.length >= limit && typeof page.cursor === 'string' && page.cursor !== '';
    return { total: page.total, cursor: more ? page.cursor : null, comments: page.comments.map(toComment) };
  },
  text: (r: CommentPage, input) => {
    const lines = r.comments.map((c) => {
      const files = c.files.length ? ` [files: ${c.files.map((f) => f.name).join(', ')}]` : '';
      return `#${c.comment_id} ${shortDate(c.created_on)} ${c.created_by.name}: ${plainText(c.value)}${files}`;
    });
    const next = r.cursor ? { param: 'cursor', value: r.cursor } : undefined;
    return [...lines, listFooter({ shown: r.comments.length, total: r.total, noun: 'comment', next, empty: `no comments on record #${input.record_id}` })].join('\n');
  },
  example: {
    input: { record_id: 5300 },
    result: {
      total: 2,
      cursor: null,
      comments: [
        { comment_id: 1000, record_id: 5300, value: 'Sent the proposal, waiting for legal.', created_on: '2025-03-01 12:00:00', created_by: { user_id: 10000, name: 'John Doe' }, files: [] },
        { comment_id: 1001, record_id: 5300, value: '@[John Doe](user:10000) legal approved the 12-month term.', created_on: '2025-03-03 09:30:00', created_by: { user_id: 10001, name: 'Zoe Maxwell' }, files: [{ file_id: 130, name: 'order-form.pdf', size: 48213 }] },
      ],
    },
  },
});
