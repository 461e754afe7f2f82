import { ToolError } from '../../../shared/core/errors';
import type { Ctx } from '../params';
import { resolveFileIds } from '../files/uploads';
import type { PodioConversationWrite } from '../wire';
import { checkUserIds, me } from './users';

/** A message as the tools take it. */
export interface MessageContent {
  text: string;
  file_ids?: (number | string)[];
  embed_url?: string;
  embed_id?: number;
}

/** The message part of a create or reply body; https URLs in file_ids are uploaded (after every other check). */
export async function messageBody(content: MessageContent, ctx: Ctx): Promise<PodioConversationWrite> {
  const fileIds = await resolveFileIds(content.file_ids, ctx, 'file_ids');
  return {
    text: content.text,
    ...(fileIds?.length ? { file_ids: fileIds } : {}),
    ...(content.embed_url ? { embed_url: content.embed_url } : {}),
    ...(content.embed_id ? { embed_id: content.embed_id } : {}),
  };
}

/**
 * `participants` checked before anything is sent: user ids of members (profile ids refused with the
 * right id), duplicates dropped, and the sender left out — Podio adds the sender itself, so naming
 * oneself is harmless and is dropped rather than refused. Naming only oneself is refused.
 */
export async function checkedParticipants(ctx: Ctx, participants: readonly number[], parameter = 'participants'): Promise<number[]> {
  await checkUserIds(ctx, participants, parameter);
  const self = (await me(ctx)).user_id;
  const others = [...new Set(participants)].filter((id) => id !== self);
  if (!others.length) {
    throw new ToolError('INVALID_PARAMETER', `Parameter "${parameter}" names only you (user ${self}); the sender is always a participant — name the people to talk with.`, {
      parameter,
      expected: 'user ids of other members',
    });
  }
  return others;
}

/**
 * Podio lets only participants read or write in a conversation and answers anyone else 403: the
 * message says so and what to do, instead of a bare "forbidden".
 */
export async function asParticipant<T>(conversationId: number, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof ToolError && err.code === 'FORBIDDEN') {
      throw new ToolError(
        'FORBIDDEN',
        `Only participants can read or write in conversation #${conversationId}, and this key's user is not (or no longer) one. ` +
          'A participant can add you with addConversationParticipants; getConversations lists the conversations you are in.',
        { ...err.details, conversation_id: conversationId },
      );
    }
    throw err;
  }
}
