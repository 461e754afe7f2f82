import * as z from 'zod';
import { dbappTool } from '../../tool';
import { webhookAppId } from '../../webhooks/inputs';
import { plural } from '../../../../shared/core/render';
import { toWebhook, webhookLine, type Webhook } from '../../webhooks/render';

export const listWebhooks = dbappTool({
  name: 'listWebhooks',
  description:
    'List the webhooks of one app: id, event type, target url, status (active = verified and receiving, inactive = waiting for verification) and the count of ' +
    'consecutive failed deliveries. Use it to find a hook_id, to check whether a webhook still works, or before createWebhook to avoid a duplicate. Read-only.',
  input: z.strictObject({ app_id: webhookAppId }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run({ app_id }, { client }) {
    const page = await client.listWebhooks(app_id);
    return { webhooks: page.webhooks.map(toWebhook), total: page.total };
  },
  text: (r: { webhooks: Webhook[]; total: number }, { app_id }) =>
    r.total === 0 ? `app #${app_id} has no webhooks — createWebhook adds one` : [...r.webhooks.map((w) => webhookLine(w)), plural(r.total, 'webhook')].join('\n'),
  example: {
    input: { app_id: 1 },
    result: {
      webhooks: [
        { hook_id: 1, app_id: 1, status: 'active', num_failed_executions: 0, type: 'record.create', url: 'https://webhook.example.org/example-webhook-endpoint' },
        { hook_id: 2, app_id: 1, status: 'inactive', num_failed_executions: 0, type: 'comment.create', url: 'https://webhook.example.org/comments' },
      ],
      total: 2,
    },
  },
});
