import * as z from 'zod';
import { offset, page } from '../../../../shared/core/params';
import { collabTool } from '../../tool';
import { conversationListText, toConversation, type Conversation } from '../../conversations/render';
import { SAMPLE_LISTED } from '../../conversations/examples';

export const searchConversations = collabTool({
  name: 'searchConversations',
  description:
    'Find your conversations by words in their subject or messages, or — with participants: true — by the name or email of someone in them ' +
    '(case-insensitive, part of a word is enough). Most recent activity first; limit (default 10) and offset page. Read-only.',
  input: z.strictObject({
    text: z.string().trim().min(1).max(200).describe('What to look for: words of a subject or message, or (participants: true) part of a name or email.'),
    participants: z.boolean().default(false).describe('Search the names and emails of the participants instead of subjects and messages (default false).'),
    limit: page({ default: 10, max: 100, what: 'Conversations per page' }),
    offset: offset(),
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run({ text, participants, limit, offset }, { client }): Promise<Conversation[]> {
    return (await client.searchConversations({ text, participants, limit, offset })).map((c) => toConversation(c, false));
  },
  text: (list: Conversation[], input) => {
    const what = input.participants ? `with a participant matching "${input.text}"` : `mentioning "${input.text}"`;
    return conversationListText(list, input, `your conversations ${what}:`, `no conversations ${what}`);
  },
  example: { input: { text: 'felix', participants: true }, result: [SAMPLE_LISTED] },
});
