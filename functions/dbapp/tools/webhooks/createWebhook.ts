import * as z from 'zod';
import { checkWebhookTarget } from '../../../../shared/vendor/webhook-target';
import { dbappTool } from '../../tool';
import { webhookAppId, webhookEventType } from '../../webhooks/inputs';
import { toWebhook, webhookLine, type Webhook } from '../../webhooks/render';

type Created = Webhook & { note: string };

export const createWebhook = dbappTool({
  name: 'createWebhook',
  description:
    'Register a webhook: Tape will POST a small JSON payload ({hook_id, record_id, revision_id|comment_id, type} or {hook_id, app_id, type}) to the url whenever ' +
    'the event happens in the app. Exactly one event_type per webhook; for several types create several webhooks. The url must be a publicly reachable https endpoint ' +
      '(hosts the deployment lists in ALLOW_HTTP_HOSTS — 127.0.0.1 and localhost when run locally — may also use http, any port and a private address). ' +
    'The webhook starts inactive and receives nothing until verified: next call requestWebhookVerification, then validateWebhookVerification with the code the url received.',
  input: z.strictObject({
    app_id: webhookAppId,
    url: z.string().trim().min(1).max(2000).describe('The receiver: a publicly reachable https URL on the default port, e.g. "https://hooks.example.com/tape", or a URL on a host the deployment lists in ALLOW_HTTP_HOSTS (locally 127.0.0.1 and localhost: http, any port). It must answer 2xx within 5 s.'),
    event_type: webhookEventType,
  }),
  annotations: { readOnly: false, destructive: false, idempotent: false },
  async run({ app_id, url, event_type }, ctx) {
    const { client } = ctx;
    await checkWebhookTarget(url, ctx, 'Tape');
    const hook = toWebhook(await client.createWebhook(app_id, { type: event_type, url }));
    const note =
      `Inactive until verified: call requestWebhookVerification with hook_id ${hook.hook_id} — Tape then POSTs {"hook_id", "type": "hook.verify", "code"} to the url — ` +
      'and pass that code to validateWebhookVerification.';
    return { ...hook, note };
  },
  text: (w: Created) => `created webhook ${webhookLine(w)}\n${w.note}`,
  example: {
    input: { app_id: 1, url: 'https://webhook.example.org/example-webhook-endpoint', event_type: 'record.create' },
    result: {
      hook_id: 1,
      app_id: 1,
      status: 'inactive',
      num_failed_executions: 0,
      type: 'record.create',
      url: 'https://webhook.example.org/example-webhook-endpoint',
      note: 'Inactive until verified: call requestWebhookVerification with hook_id 1 — Tape then POSTs {"hook_id", "type": "hook.verify", "code"} to the url — and pass that code to validateWebhookVerification.',
    },
  },
});
