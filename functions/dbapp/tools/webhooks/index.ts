import { toolGroup } from '../../../../shared/core/tool';
import type { TapeClient } from '../../client';

export const webhookTools = toolGroup<TapeClient>('webhooks', {
  listWebhooks: () => import('./listWebhooks').then((m) => m.listWebhooks),
  createWebhook: () => import('./createWebhook').then((m) => m.createWebhook),
  requestWebhookVerification: () => import('./requestWebhookVerification').then((m) => m.requestWebhookVerification),
  validateWebhookVerification: () => import('./validateWebhookVerification').then((m) => m.validateWebhookVerification),
  deleteWebhook: () => import('./deleteWebhook').then((m) => m.deleteWebhook),
});
