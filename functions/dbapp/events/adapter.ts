import * as z from 'zod';
import { deliveryHash } from '../../../shared/events/inbox';
import { isRefusal, jsonObject, refusal, secretInUrl } from '../../../shared/events/receiver';
import type { EventsAdapter, IncomingEvent, Parsed, Refusal } from '../../../shared/core/event-model';
import { removeVendorParts, verifiedHooks } from '../../../shared/events/hooks';
import { confirmHookEvent, orMissing } from '../../../shared/events/confirm';
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

  /**
   * Tape does not sign: the URL secret only shows the sender read the webhook URL, which anyone
   * with access to the app can (listWebhooks). Each event is checked with Tape as the subscriber
   * sees it, and stored as Tape confirms it — its hook one of the subscription's, its record,
   * comment or app in the watched app and in the state the event claims (created or updated:
   * there, at least at that revision; deleted: gone or deleted) — or dropped.
   */
  verify: (event, sub, client) =>
    confirmHookEvent(event, sub, async ({ data: d, id }) => {
      const appId = (sub.watch as Watch).app_id;
      const record = async (recordId: number | undefined) => (recordId === undefined ? undefined : orMissing(() => client.getRecord(recordId, { include_deleted: true })));
      switch (event.type) {
        case 'record.create':
        case 'record.update':
        case 'record.restore': {
          // Deleted ones too (Tape answers a deleted record 400 otherwise): a deleted record was not just created or updated.
          const r = await record(id('record_id'));
          if (!r || r.app?.app_id !== appId || r.deleted_on) return undefined;
          const revision = typeof d.revision_id === 'number' ? d.revision_id : undefined;
          if (revision !== undefined && typeof r.revision === 'number' && revision > r.revision) return undefined;
          return { record_id: r.record_id, ...(revision !== undefined ? { revision_id: revision } : {}), app_id: appId };
        }
        case 'record.delete': {
          const recordId = id('record_id');
          if (recordId === undefined) return undefined;
          const r = await record(recordId);
          // Gone for good, or deleted in the watched app: a record still there was not deleted.
          if (r && (r.app?.app_id !== appId || !r.deleted_on)) return undefined;
          return { record_id: recordId, app_id: appId, ...(r?.deleted_on ? { deleted_on: r.deleted_on } : {}) };
        }
        case 'comment.create':
        case 'comment.delete': {
          const commentId = id('comment_id');
          const r = await record(id('record_id'));
          if (commentId === undefined || !r || r.app?.app_id !== appId) return undefined;
          const comment = await orMissing(() => client.getComment(commentId));
          const onRecord = comment !== undefined && (comment.ref?.id === undefined || comment.ref.id === r.record_id);
          if (event.type === 'comment.create' ? !onRecord : comment !== undefined) return undefined;
          return { record_id: r.record_id, comment_id: commentId, app_id: appId };
        }
        case 'app.update': {
          if (d.app_id !== appId) return undefined;
          return (await orMissing(() => client.getApp(appId))) ? { app_id: appId } : undefined;
        }
        default:
          return undefined;
      }
    }),

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
