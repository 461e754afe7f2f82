import * as z from 'zod';
import { deliveryHash } from '../../../shared/events/inbox';
import { isRefusal, jsonObject, refusal, secretInUrl } from '../../../shared/events/receiver';
import type { EventsAdapter, IncomingEvent, Parsed, Refusal } from '../../../shared/core/event-model';
import { removeVendorParts, verifiedHooks } from '../../../shared/events/hooks';
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

export const tapeEvents: EventsAdapter<TapeClient, Watch> = {
  platform: 'dbapp',
  vendor: 'Tape',
  watch: watch as unknown as z.ZodType<Watch>,
  describe: 'Watch one app (app_id) for record and comment changes and app updates (event_types); each event carries the record, revision or comment id.',
  example: { app_id: 1, event_types: ['record.create', 'record.update'] },
  watchLine: (w) => `app #${w.app_id}: ${w.event_types.join(', ')}`,

  async subscribe(w, _sub, ctx) {
    const hooks = await verifiedHooks(w.event_types, ctx, {
      create: async (type) => (await ctx.client.createWebhook(w.app_id, { type, url: ctx.receiverUrl })).hook_id,
      requestVerification: (id) => ctx.client.requestWebhookVerification(id),
      validate: (id, code) => ctx.client.validateWebhookVerification(id, { code }),
      remove: (id) => ctx.client.deleteWebhook(id),
    });
    return { vendor: { hook_ids: hooks } };
  },

  async unsubscribe(sub, ctx) {
    await removeVendorParts((sub.vendor.hook_ids as number[] | undefined) ?? [], (id) => ctx.client.deleteWebhook(id));
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
