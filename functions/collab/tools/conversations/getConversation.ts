import * as z from 'zod';
import { collabTool } from '../../tool';
import { conversationIdInput } from '../../conversations/inputs';
import { conversationText, TEXT_MESSAGES, toConversation, type Conversation } from '../../conversations/render';
import { asParticipant } from '../../conversations/write';
import { SAMPLE_DIRECT } from '../../conversations/examples';

export const getConversation = collabTool({
  name: 'getConversation',
  description:
    'Read one conversation: subject, type (direct or group), participants {user_id, profile_id, name}, unread state, link and its messages (oldest first; ' +
    `the text shows the newest ${TEXT_MESSAGES}). Only participants can read a conversation: anyone else gets FORBIDDEN. getConversationEvents pages through ` +
    'everything that happened (messages, people added or leaving). Does not mark it read. Read-only.',
  input: z.strictObject({ conversation_id: conversationIdInput }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run({ conversation_id }, { client }): Promise<Conversation> {
    return toConversation(await asParticipant(conversation_id, () => client.getConversation(conversation_id)), true);
  },
  text: conversationText,
  example: { input: { conversation_id: 56002 }, result: SAMPLE_DIRECT },
});
