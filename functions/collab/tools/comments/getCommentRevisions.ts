import * as z from 'zod';
import { plural } from '../../../../shared/core/render';
import { collabTool } from '../../tool';
import { commentIdInput } from '../../comments/inputs';
import { revisionLine, toRevision, type CommentRevision } from '../../comments/render';

export const getCommentRevisions = collabTool({
  name: 'getCommentRevisions',
  description:
    'The versions of a comment, oldest first (the last is the current text): created_on, value, rich_value, embed, embed_file. updateComment adds a version; ' +
    'use this to see what a comment said before it was edited. Read-only.',
  input: z.strictObject({ comment_id: commentIdInput }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run({ comment_id }, { client }): Promise<CommentRevision[]> {
    const revisions = await client.listCommentRevisions(comment_id);
    // Oldest first whatever order the list comes in: by revision id, else by date.
    const order = (r: (typeof revisions)[number]) => (typeof r.revision_id === 'number' ? r.revision_id : Date.parse(`${r.created_on.replace(' ', 'T')}Z`));
    return [...revisions].sort((a, b) => order(a) - order(b)).map(toRevision);
  },
  text: (revisions: CommentRevision[], input) =>
    revisions.length
      ? [...revisions.map(revisionLine), `${plural(revisions.length, 'version')} of comment #${input.comment_id}, oldest first (the last is current)`].join('\n')
      : `no versions of comment #${input.comment_id}`,
  example: {
    input: { comment_id: 90001 },
    result: [
      { created_on: '2025-01-20 14:00:00', value: 'Sent the proposal this morning.', rich_value: '<p>Sent the proposal this morning.</p>', embed: null, embed_file: null },
      { created_on: '2025-01-20 14:05:00', value: 'Sent the revised proposal this morning.', rich_value: '<p>Sent the revised proposal this morning.</p>', embed: null, embed_file: null },
    ],
  },
});
