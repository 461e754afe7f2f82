import * as z from 'zod';
import { collabTool } from '../../tool';
import { convRefIdInput, convRefTypeInput } from '../../conversations/inputs';
import { conversationListText, toConversation, type Conversation } from '../../conversations/render';
import { SAMPLE_LISTED } from '../../conversations/examples';

export const getConversationsOnObject = collabTool({
  name: 'getConversationsOnObject',
  description:
    'The conversations about an item or a task that you are part of (others on it stay private to their participants), most recent activity first. ' +
    'createConversationOnObject starts one; getConversation reads one with its messages. Read-only.',
  input: z.strictObject({ ref_type: convRefTypeInput, ref_id: convRefIdInput }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run({ ref_type, ref_id }, { client }): Promise<Conversation[]> {
    return (await client.listConversationsOnObject(ref_type, ref_id)).map((c) => toConversation(c, false));
  },
  text: (list: Conversation[], input) => conversationListText(list, {}, `your conversations on ${input.ref_type} #${input.ref_id}:`, `none of your conversations is on ${input.ref_type} #${input.ref_id}`),
  example: { input: { ref_type: 'item', ref_id: 30061 }, result: [SAMPLE_LISTED] },
});
