import * as z from 'zod';
import { deliveryHash } from '../../../shared/events/inbox';
import { isRefusal, refusal, secretInUrl } from '../../../shared/events/receiver';
import { createVerifiedHooks, removeVerifiedHooks, type VerifiedHookCalls } from '../../../shared/events/verified-hooks';
import type { EventsAdapter, IncomingEvent, Parsed, Refusal } from '../../../shared/events/model';
import type { TapeClient } from '../client';
import { WEBHOOK_EVENT_TYPES, webhookAppId } from '../webhooks/inputs';

/**
 * Tape's part of the event inbox: one Tape webhook per event type, pointing at the receiver with
 * the subscription's secret in its URL (Tape does not sign deliveries), verified at once — Tape
 * POSTs {hook_id, type: "hook.verify", code} to the receiver, which keeps the code; it is then
 * validated. Tape's payloads carry no event id: a delivery is deduplicated by its hash (hook,
 * record, revision or comment, type), which a retry repeats and a new change does not.
 */

type TapeType = (typeof WEBHOOK_EVENT_TYPES)[number];
const DEFAULT_TYPES: TapeType[] = ['record.create', 'record.update', 'record.delete'];

const watch = z.strictObject({
  app_id: webhookAppId,
  event_types: z
    .array(z.enum(WEBHOOK_EVENT_TYPES))
    .min(1)
    .max(WEBHOOK_EVENT_TYPES.length)
    .refine((a) => new Set(a).size === a.length, 'each event type once')
    .default(DEFAULT_TYPES)
    .describe(`Which changes to receive, any of ${WEBHOOK_EVENT_TYPES.join(', ')}. Default: record.create, record.update, record.delete.`),
});
type Watch = z.output<typeof watch>;

/** Tape's webhook calls on the app watched (`w`), delivering to `url`. */
const hookCalls = (client: TapeClient, w: Watch, url: string): VerifiedHookCalls<Watch['event_types'][number]> => ({
  create: async (type) => (await client.createWebhook(w.app_id, { type, url })).hook_id,
  requestVerification: (id) => client.requestWebhookVerification(id),
  validate: (id, code) => client.validateWebhookVerification(id, { code }),
  remove: (id) => client.deleteWebhook(id),
});

export const tapeEvents: EventsAdapter<TapeClient, Watch> = {
  platform: 'dbapp',
  vendor: 'Tape',
  watch: watch as unknown as z.ZodType<Watch>,
  describe: 'Watch one app (app_id) for record and comment changes and app updates (event_types); each event carries the record, revision or comment id.',
  example: { app_id: 1, event_types: ['record.create', 'record.update'] },
  watchLine: (w) => `app #${w.app_id}: ${w.event_types.join(', ')}`,

  async subscribe(w, _sub, ctx) {
    return { vendor: { hook_ids: await createVerifiedHooks(hookCalls(ctx.client, w, ctx.receiverUrl), w.event_types, (ref) => ctx.verificationCode(ref)) } };
  },

  async unsubscribe(sub, ctx) {
    await removeVerifiedHooks({ remove: (id) => ctx.client.deleteWebhook(id) }, (sub.vendor.hook_ids as number[] | undefined) ?? []);
  },

  authenticate: (delivery, sub) => secretInUrl(delivery, sub),

  parse(delivery): Parsed | Refusal {
    const payload = jsonObject(delivery.body);
    if (isRefusal(payload)) return payload;
    const type = payload.type;
    if (type === 'hook.verify') {
      if (typeof payload.code !== 'string' || !Number.isSafeInteger(payload.hook_id)) return refusal(400, 'malformed', 'A hook.verify delivery has a hook_id and a code.');
      return { kind: 'verify', ref: String(payload.hook_id), code: payload.code };
    }
    if (typeof type !== 'string' || !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(type)) return refusal(400, 'malformed', `Unknown Tape event type ${JSON.stringify(type)}.`);
    const event: IncomingEvent = { key: deliveryHash(payload), type, data: payload };
    return { kind: 'events', events: [event] };
  },
};

/** A JSON object body, or why not. */
export function jsonObject(body: string): Record<string, unknown> | Refusal {
  try {
    const value = JSON.parse(body) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // refused below
  }
  return refusal(400, 'malformed', 'The delivery is not a JSON object.');
}
