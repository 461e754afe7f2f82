import * as z from 'zod';
import { collabTool } from '../../tool';
import { conversationIdInput, participantsInput } from '../../conversations/inputs';
import { toConversation, type Participant } from '../../conversations/render';
import { asParticipant, checkedParticipants } from '../../conversations/write';

export const addConversationParticipants = collabTool({
  name: 'addConversationParticipants',
  description:
    'Add people to a group conversation you are part of, by user id (profile ids are refused before anything is sent; getOrganizationMembers lists both). ' +
    'They see the whole history. Someone already in is left as is. A direct conversation takes no one else: start a group conversation instead. ' +
    'Returns every participant after the change.',
  input: z.strictObject({ conversation_id: conversationIdInput, participants: participantsInput.describe('User ids of the people to add (user_id, not profile_id).') }),
  annotations: { readOnly: false, destructive: false, idempotent: true },
  async run({ conversation_id, participants }, ctx): Promise<Participant[]> {
    const ids = await checkedParticipants(ctx, participants);
    await asParticipant(conversation_id, () => ctx.client.addConversationParticipants(conversation_id, ids));
    // Podio answers with the event of who joined: the full list is read back.
    return toConversation(await ctx.client.getConversation(conversation_id), true).participants;
  },
  text: (ps: Participant[], input) => `conversation #${input.conversation_id} now has ${ps.length} participants: ${ps.map((p) => `${p.name} #${p.user_id}`).join(', ')}`,
  example: {
    input: { conversation_id: 56001, participants: [1005] },
    result: [
      { user_id: 1001, profile_id: 5101, name: 'Ann Becker', type: 'user' },
      { user_id: 1002, profile_id: 5102, name: 'Ben Okafor', type: 'user' },
      { user_id: 1005, profile_id: 5105, name: 'Elena Rossi', type: 'user' },
    ],
  },
});
