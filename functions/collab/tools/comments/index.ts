import { toolGroup } from '../../../../shared/core/tool';
import type { PodioClient } from '../../client';

/** The comments tools (docs/spec.md#collab-comment), each loaded on first use. */
export const commentTools = toolGroup<PodioClient>('comments', {
  addCommentToObject: () => import('./addCommentToObject').then((m) => m.addCommentToObject),
  getComment: () => import('./getComment').then((m) => m.getComment),
  getCommentsOnObject: () => import('./getCommentsOnObject').then((m) => m.getCommentsOnObject),
  getCommentRevisions: () => import('./getCommentRevisions').then((m) => m.getCommentRevisions),
  updateComment: () => import('./updateComment').then((m) => m.updateComment),
  deleteComment: () => import('./deleteComment').then((m) => m.deleteComment),
});
