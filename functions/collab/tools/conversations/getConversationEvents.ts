import * as z from 'zod';
import { offset, page } from '../../../../shared/core/params';
import { listFooter } from '../../../../shared/core/render';
import { collabTool } from '../../tool';
import { conversationIdInput } from '../../conversations/inputs';
import { eventLine, toEvent, type ConversationEvent } from '../../conversations/render';
import { asParticipant } from '../../conversations/write';

export const getConversationEvents = collabTool({
  name: 'getConversationEvents',
  description:
    'What happened in a conversation, newest first: messages (data {message_id, text, created_on, files, embed, embed_file}), people added or leaving; each ' +
    'event has created_by and created_via (the app or client it came from). Pages with limit (default 10) and offset. Participants only (FORBIDDEN otherwise). Read-only.',
  input: z.strictObject({ conversation_id: conversationIdInput, limit: page({ default: 10, max: 100, what: 'Events per page' }), offset: offset() }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run({ conversation_id, limit, offset }, { client }): Promise<ConversationEvent[]> {
    return (await asParticipant(conversation_id, () => client.listConversationEvents(conversation_id, { limit, offset }))).map(toEvent);
  },
  text: (events: ConversationEvent[], input) =>
    [
      ...(events.length ? [`events of conversation #${input.conversation_id}, newest first:`] : []),
      ...events.map(eventLine),
      listFooter({
        shown: events.length,
        noun: 'event',
        next: events.length >= input.limit ? { param: 'offset', value: input.offset + events.length } : undefined,
        empty: `no events in conversation #${input.conversation_id}${input.offset ? ` past offset ${input.offset}` : ''}`,
      }),
    ].join('\n'),
  example: {
    input: { conversation_id: 56001, limit: 2 },
    result: [
      {
        event_id: 57003,
        action: 'message',
        created_on: '2025-12-01 11:00:00',
        created_by: { user_id: 1001, name: 'Ann Becker' },
        created_via: { id: 1, name: 'Podio', url: 'https://podio.com' },
        data: { message_id: 58003, text: 'Agreed, I moved it up.', created_on: '2025-12-01 11:00:00', files: [], embed: null, embed_file: null },
      },
      {
        event_id: 57002,
        action: 'message',
        created_on: '2025-12-01 10:30:00',
        created_by: { user_id: 1002, name: 'Ben Okafor' },
        created_via: { id: 1, name: 'Podio', url: 'https://podio.com' },
        data: { message_id: 58002, text: 'Pipeline review should come first.', created_on: '2025-12-01 10:30:00', files: [], embed: null, embed_file: null },
      },
    ],
  },
});
