import * as z from 'zod';
import { offset, page } from '../../../../shared/core/params';
import { collabTool } from '../../tool';
import { conversationListText, toConversation, type Conversation } from '../../conversations/render';
import { SAMPLE_LISTED } from '../../conversations/examples';

export const getConversations = collabTool({
  name: 'getConversations',
  description:
    "The key's conversations, most recent activity first: subject, type, participants {user_id, name}, last activity and excerpt, unread state. " +
    'Pages with limit (default 10) and offset. searchConversations finds one by words or people; getConversation reads one with its messages. Read-only.',
  input: z.strictObject({ limit: page({ default: 10, max: 100, what: 'Conversations per page' }), offset: offset() }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run({ limit, offset }, { client }): Promise<Conversation[]> {
    return (await client.listConversations({ limit, offset })).map((c) => toConversation(c, false));
  },
  text: (list: Conversation[], input) => conversationListText(list, input, 'your conversations, most recent first:', 'no conversations'),
  example: { input: { limit: 1 }, result: [SAMPLE_LISTED] },
});
