import * as z from 'zod';
import { id } from '../../../shared/core/params';

// --- webhooks ---
export const WEBHOOK_EVENT_TYPES = ['record.create', 'record.update', 'record.delete', 'record.restore', 'comment.create', 'comment.delete', 'app.update'] as const;
export const hookId = id('Numeric id of the webhook (from listWebhooks or createWebhook).');
export const webhookAppId = id('Numeric id of the app the webhooks belong to (from listApps).');
export const webhookEventType = z
  .enum(WEBHOOK_EVENT_TYPES)
  .describe(
    'Exactly one event type per webhook (a string, not a list): record.create, record.update, record.delete, record.restore, comment.create, comment.delete, ' +
      'or app.update (fields or settings of the app changed). To receive several types, create one webhook per type.',
  );
