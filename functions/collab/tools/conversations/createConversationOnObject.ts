import * as z from 'zod';
import { collabTool } from '../../tool';
import { convRefIdInput, convRefTypeInput, messageParts, participantsInput, subjectInput } from '../../conversations/inputs';
import { checkedParticipants, messageBody } from '../../conversations/write';

interface Created {
  conversation_id: number;
  message_id: number;
  embed_id: number | null;
  embed_file_id: number | null;
}

export const createConversationOnObject = collabTool({
  name: 'createConversationOnObject',
  description:
    'Start a private conversation about an item or a task: it is linked to that object (getConversationsOnObject lists it there) while only the participants ' +
    'see it. Participants are user ids (profile ids are refused before anything is sent; getOrganizationMembers lists both); you are always in it. ' +
    'file_ids takes new file ids or https URLs (uploaded for you); embed_url shows a link preview. Returns {conversation_id, message_id, embed_id, embed_file_id}; ' +
    'getConversation reads it back.',
  input: z.strictObject({ ref_type: convRefTypeInput, ref_id: convRefIdInput, subject: subjectInput, participants: participantsInput, ...messageParts }),
  annotations: { readOnly: false, destructive: false, idempotent: false },
  async run({ ref_type, ref_id, subject, participants, ...content }, ctx): Promise<Created> {
    const others = await checkedParticipants(ctx, participants);
    const body = await messageBody(content, ctx);
    const r = await ctx.client.createConversationOnObject(ref_type, ref_id, { subject, participants: others, ...body });
    return { conversation_id: r.conversation_id, message_id: r.message_id, embed_id: r.embed_id ?? null, embed_file_id: r.embed_file_id ?? null };
  },
  text: (r: Created, input) =>
    `started conversation #${r.conversation_id} "${input.subject}" on ${input.ref_type} #${input.ref_id} (message #${r.message_id}${r.embed_id ? `, embed #${r.embed_id}` : ''}) — getConversation ${r.conversation_id} reads it`,
  example: {
    input: { ref_type: 'item', ref_id: 30061, subject: 'Contract questions', participants: [1002], text: 'Legal asked about the liability clause.' },
    result: { conversation_id: 56006, message_id: 58011, embed_id: null, embed_file_id: null },
  },
});
