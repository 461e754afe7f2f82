import * as z from 'zod';
import { collabTool } from '../../tool';
import { conversationIdInput } from '../../conversations/inputs';
import { asParticipant } from '../../conversations/write';

interface Left {
  left: true;
  conversation_id: number;
}

export const leaveConversation = collabTool({
  name: 'leaveConversation',
  description:
    'Leave a conversation: you stop receiving its messages and can no longer read it; the others see that you left. Only a participant can re-add you. ' +
    'Returns {left: true, conversation_id}.',
  input: z.strictObject({ conversation_id: conversationIdInput }),
  annotations: { readOnly: false, destructive: true, idempotent: false },
  async run({ conversation_id }, { client }): Promise<Left> {
    await asParticipant(conversation_id, () => client.leaveConversation(conversation_id));
    return { left: true, conversation_id };
  },
  text: (r: Left) => `left conversation #${r.conversation_id} — a participant can add you back with addConversationParticipants`,
  example: { input: { conversation_id: 56001 }, result: { left: true, conversation_id: 56001 } },
});
