import * as z from 'zod';
import { collabTool } from '../../tool';
import { conversationIdInput, messageParts } from '../../conversations/inputs';
import { eventLine, toEvent, type ConversationEvent } from '../../conversations/render';
import { asParticipant, messageBody } from '../../conversations/write';

export const replyToConversation = collabTool({
  name: 'replyToConversation',
  description:
    'Write a message in a conversation you are part of (others get FORBIDDEN: a participant must add you first). file_ids takes new file ids or https URLs ' +
    '(downloaded and uploaded for you); embed_url shows a link preview. Notifies the other participants. Returns the new event ' +
    '{event_id, action: message, created_on, created_by, created_via, data {message_id, text, files, embed, embed_file}}.',
  input: z.strictObject({ conversation_id: conversationIdInput, ...messageParts }),
  annotations: { readOnly: false, destructive: false, idempotent: false },
  async run({ conversation_id, ...content }, ctx): Promise<ConversationEvent> {
    const body = await messageBody(content, ctx);
    return toEvent(await asParticipant(conversation_id, () => ctx.client.replyToConversation(conversation_id, body)));
  },
  text: (e: ConversationEvent, input) => `replied in conversation #${input.conversation_id}: ${eventLine(e)}`,
  example: {
    input: { conversation_id: 56002, text: 'Offer sent, see attachment.', file_ids: ['https://example.com/offers/northwind.pdf'] },
    result: {
      event_id: 57012,
      action: 'message',
      created_on: '2026-01-15 10:00:00',
      created_by: { user_id: 1001, name: 'Ann Becker' },
      created_via: { id: 1, name: 'Podio', url: 'https://podio.com' },
      data: { message_id: 58012, text: 'Offer sent, see attachment.', created_on: '2026-01-15 10:00:00', files: [{ file_id: 60015, name: 'northwind.pdf' }], embed: null, embed_file: null },
    },
  },
});
