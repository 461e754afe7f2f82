/** Sample conversations of the demo org, shared by the conversation tools' examples. */
import type { Conversation } from './render';

/** The direct conversation of Ben and Ann, read whole (getConversation, getDirectConversation). */
export const SAMPLE_DIRECT: Conversation = {
  conversation_id: 56002,
  subject: 'Northwind pricing',
  type: 'direct',
  excerpt: 'Great, sending the offer today.',
  created_by: { user_id: 1002, name: 'Ben Okafor', type: 'user' },
  created_on: '2025-12-03 14:00:00',
  last_event_on: '2025-12-04 08:00:00',
  participants: [
    { user_id: 1002, profile_id: 5102, name: 'Ben Okafor', type: 'user' },
    { user_id: 1001, profile_id: 5101, name: 'Ann Becker', type: 'user' },
  ],
  starred: false,
  unread: true,
  unread_count: 1,
  link: 'https://podio.com/conversations/56002',
  messages: [
    { message_id: 58004, text: 'Can we offer 10% on the support package?', created_on: '2025-12-03 14:00:00', created_by: { user_id: 1002, name: 'Ben Okafor' } },
    { message_id: 58005, text: 'Yes, up to 10% is fine.', created_on: '2025-12-03 15:00:00', created_by: { user_id: 1001, name: 'Ann Becker' } },
    { message_id: 58006, text: 'Great, sending the offer today.', created_on: '2025-12-04 08:00:00', created_by: { user_id: 1002, name: 'Ben Okafor' } },
  ],
};

/** A group conversation on a deal, as lists show it (getConversations, getConversationsOnObject, searchConversations). */
export const SAMPLE_LISTED: Conversation = {
  conversation_id: 56003,
  subject: 'Contract questions',
  type: 'group',
  excerpt: 'Legal asked about the liability clause on this deal.',
  created_by: { user_id: 1003, name: 'Chloé Martin', type: 'user' },
  created_on: '2025-12-05 09:00:00',
  last_event_on: '2025-12-05 09:00:00',
  participants: [
    { user_id: 1003, name: 'Chloé Martin' },
    { user_id: 1001, name: 'Ann Becker' },
    { user_id: 1006, name: 'Felix Wagner' },
  ],
  starred: false,
  unread: true,
  unread_count: 1,
  ref: { type: 'item', id: 30061 },
};
