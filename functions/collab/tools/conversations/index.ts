import { toolGroup } from '../../../../shared/core/tool';
import type { PodioClient } from '../../client';

/** The conversation tools (docs/spec.md#collab-conversation), each loaded on first use. */
export const conversationTools = toolGroup<PodioClient>('conversations', {
  createConversation: () => import('./createConversation').then((m) => m.createConversation),
  createConversationOnObject: () => import('./createConversationOnObject').then((m) => m.createConversationOnObject),
  getConversation: () => import('./getConversation').then((m) => m.getConversation),
  getConversationEvents: () => import('./getConversationEvents').then((m) => m.getConversationEvents),
  getConversations: () => import('./getConversations').then((m) => m.getConversations),
  getConversationsOnObject: () => import('./getConversationsOnObject').then((m) => m.getConversationsOnObject),
  getDirectConversation: () => import('./getDirectConversation').then((m) => m.getDirectConversation),
  searchConversations: () => import('./searchConversations').then((m) => m.searchConversations),
  replyToConversation: () => import('./replyToConversation').then((m) => m.replyToConversation),
  addConversationParticipants: () => import('./addConversationParticipants').then((m) => m.addConversationParticipants),
  leaveConversation: () => import('./leaveConversation').then((m) => m.leaveConversation),
});
