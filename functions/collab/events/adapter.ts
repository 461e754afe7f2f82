import * as z from 'zod';
import { deliveryHash } from '../../../shared/events/inbox';
import { refusal, secretInUrl } from '../../../shared/events/receiver';
import type { EventsAdapter, Parsed, Refusal } from '../../../shared/core/event-model';
import { removeVendorParts, verifiedHooks } from '../../../shared/events/hooks';
import type { PodioClient } from '../client';
import { HOOK_EVENTS, hookRefIdInput, hookRefTypeInput } from '../hooks/inputs';

/**
 * Podio's part of the event inbox: one Podio hook per event type on the app or space, pointing
 * at the receiver with the subscription's secret in its URL (Podio does not sign its POSTs), each
 * verified at once — Podio POSTs the form fields type=hook.verify, hook_id and code to the
 * receiver, which keeps the code for validateHookVerification's call. Deliveries are form fields
 * (type, hook_id, item_id, item_revision_id, …) with no event id: deduplicated by their hash,
 * which a retry repeats and a new revision or comment does not.
 * Podio's hooks: https://developers.podio.com/doc/hooks (public).
 */

const ALL = [...HOOK_EVENTS.app, ...HOOK_EVENTS.space] as const;

const watch = z
  .strictObject({
    ref_type: hookRefTypeInput,
    ref_id: hookRefIdInput,
    event_types: z
      .array(z.enum(ALL))
      .min(1)
      .max(HOOK_EVENTS.app.length)
      .optional()
      .describe(`Which events: on an app any of ${HOOK_EVENTS.app.join(', ')} (default item.create, item.update, item.delete); on a space any of ${HOOK_EVENTS.space.join(', ')} (default all).`),
  })
  .superRefine((w, ctx) => {
    const allowed = HOOK_EVENTS[w.ref_type] as readonly string[];
    const wrong = (w.event_types ?? []).filter((t) => !allowed.includes(t));
    if (wrong.length) ctx.addIssue({ code: 'custom', path: ['event_types'], message: `${wrong.join(', ')} ${wrong.length === 1 ? 'is not an event' : 'are not events'} of a ${w.ref_type}; a ${w.ref_type}'s events are ${allowed.join(', ')}` });
    if (new Set(w.event_types).size !== (w.event_types ?? []).length) ctx.addIssue({ code: 'custom', path: ['event_types'], message: 'each event type once' });
  })
  .transform((w) => ({ ...w, event_types: w.event_types ?? (w.ref_type === 'app' ? ['item.create', 'item.update', 'item.delete'] : [...HOOK_EVENTS.space]) }));
type Watch = z.output<typeof watch>;

export const podioEvents: EventsAdapter<PodioClient, Watch> = {
  platform: 'collab',
  vendor: 'Podio',
  watch: watch as unknown as z.ZodType<Watch>,
  describe: 'Watch an app (item, comment and file changes) or a space (apps and members): ref_type, ref_id and event_types; each event carries the ids of the change (item_id, item_revision_id, comment_id, …).',
  example: { ref_type: 'app', ref_id: 8102, event_types: ['item.create', 'item.update'] },
  watchLine: (w) => `${w.ref_type} #${w.ref_id}: ${w.event_types.join(', ')}`,

  async subscribe(w, _sub, ctx) {
    const hooks = await verifiedHooks(w.event_types, ctx, {
      create: async (type) => (await ctx.client.createHook(w.ref_type, w.ref_id, { url: ctx.receiverUrl, type })).hook_id,
      requestVerification: (id) => ctx.client.requestHookVerification(id),
      validate: (id, code) => ctx.client.validateHookVerification(id, code),
      remove: (id) => ctx.client.deleteHook(id),
    });
    return { vendor: { hook_ids: hooks } };
  },

  async unsubscribe(sub, ctx) {
    await removeVendorParts((sub.vendor.hook_ids as number[] | undefined) ?? [], (id) => ctx.client.deleteHook(id));
  },

  authenticate: (delivery, sub) => secretInUrl(delivery, sub),

  parse(delivery): Parsed | Refusal {
    const form = Object.fromEntries(new URLSearchParams(delivery.body));
    const type = form.type ?? form._type;
    if (type === 'hook.verify') {
      if (!form.code || !/^\d+$/.test(form.hook_id ?? '')) return refusal(400, 'malformed', 'A hook.verify delivery has the form fields hook_id and code.');
      return { kind: 'verify', ref: form.hook_id!, code: form.code };
    }
    if (!type || !(ALL as readonly string[]).includes(type)) return refusal(400, 'malformed', `Unknown Podio hook type ${JSON.stringify(type ?? null)}.`);
    const data: Record<string, unknown> = Object.fromEntries(Object.entries(form).map(([k, v]) => [k, /^\d{1,15}$/.test(v) ? Number(v) : v]));
    return { kind: 'events', events: [{ key: deliveryHash(data), type, data }] };
  },
};
