import { createWebhook } from './createWebhook';
import { deleteWebhook } from './deleteWebhook';
import { listWebhooks } from './listWebhooks';
import { requestWebhookVerification } from './requestWebhookVerification';
import { validateWebhookVerification } from './validateWebhookVerification';

export const webhookTools = [listWebhooks, createWebhook, requestWebhookVerification, validateWebhookVerification, deleteWebhook];
