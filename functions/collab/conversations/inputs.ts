import * as z from 'zod';
import { numericId } from '../../../shared/core/ids';
import { id } from '../../../shared/core/params';
import { fileIdsInput } from '../params';

/** Input fragments the conversation tools share (docs/spec.md#collab-conversation). */

export const conversationIdInput = id('Numeric id of the conversation (getConversations, searchConversations and getDirectConversation find it).');

export const subjectInput = z.string().trim().min(1).max(255).describe('The subject line of the conversation, e.g. "Q1 kickoff agenda".');

export const messageTextInput = z.string().trim().min(1).max(50_000).describe('The message text; "\\n" breaks lines.');

export const participantsInput = z
  .array(numericId())
  .min(1)
  .max(100)
  .describe(
    'User ids of the people to talk with (the user_id, not the profile_id — getOrganizationMembers lists both). Leave yourself out: the sender is always in. ' +
      'One person makes a direct conversation (Podio keeps one per pair and continues it); two or more a group.',
  );

export const embedUrlInput = z.url({ protocol: /^https?$/ }).max(2_000).optional().describe('A link to show with the message as an embed (Podio fetches its title and preview).');
export const embedIdInput = id('An embed already made in Podio (its embed_id), to show with the message.').optional();

/** The parts of a message: text, files, an embed. */
export const messageParts = { text: messageTextInput, file_ids: fileIdsInput, embed_url: embedUrlInput, embed_id: embedIdInput };

export const convRefTypeInput = z.enum(['item', 'task']).describe('What the conversation is about: "item" or "task".');
export const convRefIdInput = id('Numeric id of that object: the global item_id (not the number in an item URL) or the task_id.');
