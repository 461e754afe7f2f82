import * as z from 'zod';
import { collabTool } from '../../tool';
import { messageParts, participantsInput, subjectInput } from '../../conversations/inputs';
import { conversationText, toConversation, type Conversation } from '../../conversations/render';
import { checkedParticipants, messageBody } from '../../conversations/write';

const EXAMPLE: Conversation = {
  conversation_id: 56005,
  subject: 'Northwind renewal',
  type: 'group',
  excerpt: 'Can we close the renewal this week?',
  created_by: { user_id: 1001, name: 'Ann Becker', type: 'user' },
  created_on: '2026-01-15 10:00:00',
  last_event_on: '2026-01-15 10:00:00',
  participants: [
    { user_id: 1001, profile_id: 5101, name: 'Ann Becker', type: 'user' },
    { user_id: 1002, profile_id: 5102, name: 'Ben Okafor', type: 'user' },
    { user_id: 1003, profile_id: 5103, name: 'Chloé Martin', type: 'user' },
  ],
  starred: false,
  unread: false,
  unread_count: 0,
  link: 'https://podio.com/conversations/56005',
  messages: [{ message_id: 58010, text: 'Can we close the renewal this week?', created_on: '2026-01-15 10:00:00', created_by: { user_id: 1001, name: 'Ann Becker' } }],
};

export const createConversation = collabTool({
  name: 'createConversation',
  description:
    'Start a private conversation with other users of your organization: a subject, a first message and the participants as user ids (not profile ids: a ' +
    'profile id is refused before anything is sent, with the right user id; getOrganizationMembers lists both). You are always in it; naming yourself is ' +
    'ignored. One participant makes a direct conversation — Podio keeps one per pair, so the message continues an existing one (getDirectConversation ' +
    'reads it). file_ids attaches files: new file ids or https URLs (downloaded and uploaded for you); embed_url shows a link preview. Notifies the ' +
    'participants. For a conversation about an item or task use createConversationOnObject. Returns the conversation with its messages.',
  input: z.strictObject({ subject: subjectInput, participants: participantsInput, ...messageParts }),
  annotations: { readOnly: false, destructive: false, idempotent: false },
  async run({ subject, participants, ...content }, ctx): Promise<Conversation> {
    const others = await checkedParticipants(ctx, participants);
    const body = await messageBody(content, ctx);
    return toConversation(await ctx.client.createConversation({ subject, participants: others, ...body }), true);
  },
  text: (c: Conversation) => `started ${conversationText(c)}`,
  example: { input: { subject: 'Northwind renewal', participants: [1002, 1003], text: 'Can we close the renewal this week?' }, result: EXAMPLE },
});
