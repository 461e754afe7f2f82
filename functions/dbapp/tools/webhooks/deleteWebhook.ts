import * as z from 'zod';
import { dbappTool } from '../../tool';
import { hookId } from '../../webhooks/inputs';
import { toWebhook, webhookLine } from '../../webhooks/render';

export const deleteWebhook = dbappTool({
  name: 'deleteWebhook',
  description:
    'Delete a webhook: it stops receiving events at once. Cannot be undone — to receive the events again, create and verify a new webhook. ' +
    'Needs hook_id (see listWebhooks). Returns the removed webhook.',
  input: z.strictObject({ hook_id: hookId }),
  annotations: { readOnly: false, destructive: true, idempotent: false },
  async run({ hook_id }, { client }) {
    return toWebhook(await client.deleteWebhook(hook_id));
  },
  text: (w) => `deleted webhook ${webhookLine(w, false)}; it receives no more events (cannot be undone)`,
  example: {
    input: { hook_id: 1 },
    result: { hook_id: 1, status: 'inactive', num_failed_executions: 0, type: 'record.create', url: 'https://webhook.example.org/example-webhook-endpoint' },
  },
});
