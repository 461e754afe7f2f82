import * as z from 'zod';
import { dbappTool } from '../../tool';
import { resolveAttachments } from '../../files/attachments';
import { hookInput, recordId, silentInput } from '../../records/inputs';
import { toComment, type RecordComment } from '../../records/comments';

export const createRecordComment = dbappTool({
  name: 'createRecordComment',
  description:
    'Add a comment to a record. value is plain text; "\\n" breaks lines and @[Name](user:<user_id>) mentions a user (notified unless silent). ' +
    'files attaches files: file ids, temporary ids from uploadFiles, or https URLs (downloaded and uploaded for you). Runs comment.create ' +
    'webhooks unless hook is false. Returns the comment {comment_id, record_id, value, created_on, created_by, files}.',
  input: z.strictObject({
    record_id: recordId,
    value: z.string().trim().min(1).max(100_000).describe('The comment text; "\\n" for new lines, @[Dan Jacob](user:123) to mention a user.'),
    files: z
      .array(z.union([z.number().int().positive(), z.string().min(1)]))
      .max(20)
      .optional()
      .describe('Files to attach: file ids or https URLs (uploaded automatically), at most 20.'),
    silent: silentInput,
    hook: hookInput,
  }),
  annotations: { readOnly: false, destructive: false, idempotent: false },
  async run({ record_id, value, files, silent, hook }, ctx): Promise<RecordComment> {
    const file_ids = files?.length ? await resolveAttachments(files, ctx, 'files') : undefined;
    const c = await ctx.client.createComment(record_id, { value, ...(file_ids ? { file_ids } : {}) }, { silent, hook });
    return toComment(c);
  },
  text: (c: RecordComment) =>
    `commented #${c.comment_id} on record #${c.record_id} as ${c.created_by.name}${c.files.length ? ` with ${c.files.map((f) => f.name).join(', ')}` : ''}`,
  example: {
    input: { record_id: 5300, value: 'Sent the proposal, waiting for legal.\n@[Zoe Maxwell](user:10001) please follow up on Friday.' },
    result: { comment_id: 1002, record_id: 5300, value: 'Sent the proposal, waiting for legal.\n@[Zoe Maxwell](user:10001) please follow up on Friday.', created_on: '2025-03-04 08:00:00', created_by: { user_id: 10000, name: 'John Doe' }, files: [] },
  },
});
