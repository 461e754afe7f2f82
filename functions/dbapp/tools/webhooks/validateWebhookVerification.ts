import * as z from 'zod';
import { ToolError, invalidParameter } from '../../../../shared/core/errors';
import { dbappTool } from '../../tool';
import { hookId } from '../../webhooks/inputs';
import { toWebhook, webhookLine, type Webhook } from '../../webhooks/render';

type Validated = Webhook & { note: string };

export const validateWebhookVerification = dbappTool({
  name: 'validateWebhookVerification',
  description:
    'Step 3 of setting up a webhook: pass the code Tape POSTed to the url (after requestWebhookVerification) to make the webhook active. ' +
    'From then on it receives its one event type. A wrong or outdated code leaves it inactive.',
  input: z.strictObject({
    hook_id: hookId,
    code: z.string().trim().min(1).max(200).describe('The "code" of the {"type": "hook.verify"} request the webhook url received, e.g. "f43d05e6".'),
  }),
  // A second call changes nothing more (the hook is already active), though Tape answers it with an error.
  annotations: { readOnly: false, destructive: false, idempotent: true },
  async run({ hook_id, code }, { client }) {
    let hook: Webhook;
    try {
      hook = toWebhook(await client.validateWebhookVerification(hook_id, { code }));
    } catch (err) {
      if (err instanceof ToolError && err.code === 'INVALID_PARAMETER') {
        throw invalidParameter(
          'code',
          'the code of the latest hook.verify request the url received',
          `${err.message.replace(/\.$/, '')}. Use the code of the latest verification POST; requestWebhookVerification sends a new one (only while the webhook is inactive).`,
          err.details,
        );
      }
      throw err;
    }
    return { ...hook, note: `Active: ${hook.url} now receives ${hook.type} events; each must be answered 2xx within 5 s.` };
  },
  text: (w: Validated) => `verified webhook ${webhookLine(w)}\n${w.note}`,
  example: {
    input: { hook_id: 1, code: 'f43d05e6' },
    result: {
      hook_id: 1,
      status: 'active',
      num_failed_executions: 0,
      type: 'record.create',
      url: 'https://webhook.example.org/example-webhook-endpoint',
      note: 'Active: https://webhook.example.org/example-webhook-endpoint now receives record.create events; each must be answered 2xx within 5 s.',
    },
  },
});
