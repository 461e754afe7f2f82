import * as z from 'zod';
import { ToolError, invalidParameter } from '../../../../shared/core/errors';
import { dbappTool } from '../../tool';
import { hookId } from '../../webhooks/inputs';

export const requestWebhookVerification = dbappTool({
  name: 'requestWebhookVerification',
  description:
    'Step 2 of setting up a webhook: Tape POSTs {"hook_id", "type": "hook.verify", "code"} to the webhook url. The receiver (or whoever reads its log) ' +
    'then passes that code to validateWebhookVerification. Only for an unverified (inactive) webhook; each call sends a new code.',
  input: z.strictObject({ hook_id: hookId }),
  annotations: { readOnly: false, destructive: false, idempotent: false },
  async run({ hook_id }, { client }) {
    let url: string;
    try {
      ({ url } = await client.requestWebhookVerification(hook_id));
    } catch (err) {
      if (err instanceof ToolError && err.code === 'INVALID_PARAMETER') {
        throw invalidParameter('hook_id', 'an unverified (inactive) webhook', `${err.message.replace(/\.$/, '')}. An active webhook already receives events; listWebhooks shows each status.`, err.details);
      }
      throw err;
    }
    const note = `A verification code was POSTed to ${url} as {"hook_id": ${hook_id}, "type": "hook.verify", "code": "…"}; pass that code to validateWebhookVerification with hook_id ${hook_id}.`;
    return { hook_id, note };
  },
  text: (r: { hook_id: number; note: string }) => `verification requested for webhook #${r.hook_id}\n${r.note}`,
  example: {
    input: { hook_id: 1 },
    result: {
      hook_id: 1,
      note: 'A verification code was POSTed to https://webhook.example.org/example-webhook-endpoint as {"hook_id": 1, "type": "hook.verify", "code": "…"}; pass that code to validateWebhookVerification with hook_id 1.',
    },
  },
});
