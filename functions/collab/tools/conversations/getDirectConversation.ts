import * as z from 'zod';
import { id } from '../../../../shared/core/params';
import { ToolError } from '../../../../shared/core/errors';
import { collabTool } from '../../tool';
import { conversationText, toConversation, type Conversation } from '../../conversations/render';
import { checkUserIds } from '../../conversations/users';
import { SAMPLE_DIRECT } from '../../conversations/examples';

export const getDirectConversation = collabTool({
  name: 'getDirectConversation',
  description:
    'The direct (one-to-one) conversation between you and another user, by their user_id (not profile_id), with its messages. When there is none yet the ' +
    'answer is NOT_FOUND with the next step: createConversation with participants [user_id], a subject and a text starts it. Read-only.',
  input: z.strictObject({ user_id: id('The other person\'s user_id (getOrganizationMembers lists it; not the profile_id).') }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run({ user_id }, ctx): Promise<Conversation> {
    try {
      return toConversation(await ctx.client.getDirectConversation(user_id), true);
    } catch (err) {
      if (!(err instanceof ToolError && err.code === 'NOT_FOUND')) throw err;
      // A profile id or an unknown id explains the 404 better than "none yet".
      await checkUserIds(ctx, [user_id], 'user_id', false);
      throw new ToolError(
        'NOT_FOUND',
        `You have no direct conversation with user ${user_id} yet. To start one, call createConversation with participants [${user_id}], a subject and a text.`,
        { ...err.details, user_id, next_step: { tool: 'createConversation', params: { participants: [user_id] } } },
      );
    }
  },
  text: conversationText,
  example: { input: { user_id: 1002 }, result: SAMPLE_DIRECT },
});
