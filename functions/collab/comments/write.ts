import { resolveFileIds } from '../files/uploads';
import type { Ctx } from '../params';
import type { PodioCommentWrite } from '../wire';
import { checkMentions, type Mentionable } from './mentions';

/** What addCommentToObject and updateComment send besides their target. */
export interface CommentContent {
  value: string;
  file_ids?: (number | string)[];
  embed_url?: string;
  external_id?: string;
}

/**
 * The body of a comment write, checked in order of cost: mentions first (their syntax with no call,
 * then against the org's members), then `file_ids` (https URLs downloaded and uploaded). Nothing is
 * written to Podio until all of it holds.
 */
export async function commentBody(content: CommentContent, ctx: Ctx, mentionable: Mentionable): Promise<PodioCommentWrite> {
  await checkMentions(content.value, 'value', mentionable);
  const fileIds = await resolveFileIds(content.file_ids, ctx, 'file_ids');
  return {
    value: content.value,
    ...(fileIds?.length ? { file_ids: fileIds } : {}),
    ...(content.embed_url ? { embed_url: content.embed_url } : {}),
    ...(content.external_id ? { external_id: content.external_id } : {}),
  };
}
