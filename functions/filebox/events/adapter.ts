import { createHmac, timingSafeEqual } from 'node:crypto';
import * as z from 'zod';
import { deliveryHash } from '../../../shared/events/inbox';
import { DEFAULT_EVENT_TTL_SECONDS } from '../../../shared/core/events-config';
import { removeVendorParts } from '../../../shared/events/hooks';
import { isRefusal, jsonObject, refusal, secretInUrl } from '../../../shared/events/receiver';
import type { EventsAdapter, Parsed, Refusal } from '../../../shared/core/event-model';
import { readSecret } from '../../../shared/events/secrets';
import type { ShareFileClient } from '../client';

/**
 * ShareFile's part of the event inbox: one webhook subscription (WebhookSubscriptions,
 * https://api.sharefile.com/html/docs/WebhookSubscriptions.html) on a folder and what lies below
 * it, pointing at the receiver with the subscription's secret in its URL. ShareFile needs no
 * verification handshake. It signs each payload with the signature keys of the OAuth client's
 * webhook client (HMAC-SHA256 of the body in SF-WEBHOOK-PRIMARY-SIGNATURE and
 * SF-WEBHOOK-SECONDARY-SIGNATURE, https://api.sharefile.com/webhooks/payloads): when the deployment
 * configures those keys (FILEBOX_EVENTS_SIGNATURE_KEY, docs/vendors/sharefile.md), a delivery must
 * carry a signature matching one of them, else only the URL secret authenticates. Either way the
 * payload must name this subscription's ShareFile webhook subscription and be younger than the
 * event TTL (older, its deduplication claim may be gone: a replay would be stored again).
 * Payloads carry no event id: deduplicated by their hash (subscription, time, operation, item),
 * which a retry repeats.
 */

const SIGNATURE_HEADERS = ['sf-webhook-primary-signature', 'sf-webhook-secondary-signature'];
/** A payload stamped this far ahead of the receiver's clock is not ShareFile's. */
const SKEW_MS = 5 * 60 * 1000;

/**
 * Whether `given` is the HMAC-SHA256 of `body` under `key`, compared in constant time. ShareFile's
 * page names the algorithm, not the text encoding of the digest: base64 (as the twin sends) and
 * hex are both taken — either encodes the same 32 bytes.
 */
export function signatureMatches(key: string, body: string, given: string): boolean {
  const expected = createHmac('sha256', key).update(body).digest();
  const trimmed = given.trim();
  const bytes = /^[0-9a-f]{64}$/i.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  return bytes.length === expected.length && timingSafeEqual(bytes, expected);
}

const EVENTS = ['File.Upload', 'File.Update', 'File.Delete', 'Folder.Delete'] as const;

const watch = z.strictObject({
  folder_id: z.string().trim().regex(/^fo[0-9a-z-]{1,60}$/, 'a folder id, e.g. "fo000015-5f1e-4b0c-9a7d-000000000015"').describe('The folder to watch (and everything below it): a folder id (fo…) from getTopLevelFolders or listChildren.'),
  events: z.array(z.enum(EVENTS)).min(1).max(EVENTS.length).default(['File.Upload', 'File.Update', 'File.Delete']).describe(`Which changes: any of ${EVENTS.join(', ')}. Default: File.Upload, File.Update, File.Delete.`),
});
type Watch = z.output<typeof watch>;

export const shareFileEvents: EventsAdapter<ShareFileClient, Watch> = {
  platform: 'filebox',
  vendor: 'ShareFile',
  watch: watch as unknown as z.ZodType<Watch>,
  describe: 'Watch a folder and everything below it (folder_id) for file uploads, updates and deletions and folder deletions (events); each event carries the item id and its parent folder.',
  example: { folder_id: 'fo000015-5f1e-4b0c-9a7d-000000000015', events: ['File.Upload'] },
  watchLine: (w) => `folder ${w.folder_id}: ${w.events.join(', ')}`,

  async subscribe(w, _sub, ctx) {
    const made = await ctx.client.createWebhookSubscription({
      SubscriptionContext: { ResourceType: 'Folder', ResourceId: w.folder_id },
      WebhookUrl: ctx.receiverUrl,
      Events: w.events.map((e) => {
        const [ResourceType, OperationName] = e.split('.') as [string, string];
        return { ResourceType, OperationName };
      }),
    });
    return { vendor: { webhook_subscription_id: made.Id } };
  },

  async unsubscribe(sub, ctx) {
    const id = sub.vendor.webhook_subscription_id;
    if (typeof id !== 'string') return;
    await removeVendorParts([id], (part) => ctx.client.deleteWebhookSubscription(part));
  },

  async authenticate(delivery, sub, config, now) {
    const denied = secretInUrl(delivery, sub);
    if (denied) return denied;
    const keys = config.events?.signatureKeys.filebox;
    if (keys) {
      const given = SIGNATURE_HEADERS.map((h) => delivery.headers.get(h)).filter((v): v is string => !!v);
      if (given.length === 0) return refusal(401, 'unsigned', `ShareFile deliveries to this deployment carry ${SIGNATURE_HEADERS.join(' or ')}.`);
      const secrets = await Promise.all([keys.primary, ...(keys.secondary ? [keys.secondary] : [])].map(readSecret));
      // During a rotation either key may be the one both sides hold: any configured key matching any signature.
      if (!secrets.some((key) => given.some((sig) => signatureMatches(key, delivery.body, sig)))) return refusal(401, 'bad_signature', 'The ShareFile payload signature does not match.');
    }
    const payload = jsonObject(delivery.body);
    if (isRefusal(payload)) return undefined; // parse refuses it as malformed
    // While subscribeEvents is still saving, the ShareFile id is not yet known: an event that quick is taken (the URL secret and signature still hold).
    if (sub!.status === 'active' && payload.WebhookSubscriptionId !== sub!.vendor.webhook_subscription_id) {
      return refusal(401, 'wrong_subscription', 'The payload belongs to another ShareFile webhook subscription than this one.');
    }
    const at = Date.parse(String((payload.Event as { Timestamp?: unknown } | undefined)?.Timestamp ?? ''));
    const ttlMs = (config.events?.ttlSeconds ?? DEFAULT_EVENT_TTL_SECONDS) * 1000;
    if (Number.isNaN(at)) return refusal(400, 'malformed', 'A ShareFile payload has Event.Timestamp.');
    if (now - at > ttlMs || at - now > SKEW_MS) return refusal(401, 'stale', `The payload's Event.Timestamp is outside the ${Math.round(ttlMs / 86_400_000)}-day window in which a repeat is recognised.`);
    return undefined;
  },

  parse(delivery): Parsed | Refusal {
    const payload = jsonObject(delivery.body);
    if (isRefusal(payload)) return payload;
    const event = payload.Event as { ResourceType?: unknown; OperationName?: unknown; Timestamp?: unknown } | undefined;
    const type = event ? `${String(event.ResourceType)}.${String(event.OperationName)}` : '';
    if (!(EVENTS as readonly string[]).includes(type)) return refusal(400, 'malformed', `Unknown ShareFile event ${JSON.stringify(type || null)}.`);
    return { kind: 'events', events: [{ key: deliveryHash(payload), type, ...(typeof event!.Timestamp === 'string' ? { occurred_at: event!.Timestamp } : {}), data: payload }] };
  },
};
