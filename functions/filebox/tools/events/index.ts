import { toolGroup } from '../../../../shared/tool';
import type { ShareFileClient } from '../../client';

/** The event inbox (shared/events): subscribe, read, acknowledge; each loaded on first use. */
export const eventTools = toolGroup<ShareFileClient>('events', {
  subscribeEvents: () => import('./subscribeEvents').then((m) => m.subscribeEvents),
  listEvents: () => import('./listEvents').then((m) => m.listEvents),
  ackEvents: () => import('./ackEvents').then((m) => m.ackEvents),
  getSubscription: () => import('./getSubscription').then((m) => m.getSubscription),
  listSubscriptions: () => import('./listSubscriptions').then((m) => m.listSubscriptions),
  deleteSubscription: () => import('./deleteSubscription').then((m) => m.deleteSubscription),
});
