import * as z from 'zod';
import { deliveryHash } from '../../../shared/events/inbox';
import { isRefusal, refusal, secretInUrl } from '../../../shared/events/receiver';
import type { EventsAdapter, Parsed, Refusal } from '../../../shared/events/model';
import { ToolError } from '../../../shared/errors';
import type { ShareFileClient } from '../client';

/**
 * ShareFile's part of the event inbox: one webhook subscription (WebhookSubscriptions,
 * https://api.sharefile.com/html/docs/WebhookSubscriptions.html) on a folder and what lies below
 * it, pointing at the receiver with the subscription's secret in its URL. ShareFile needs no
 * verification handshake; its payload signatures need a WebhookClient (an OAuth client's signature
 * keys), which an API key does not have, so the URL secret authenticates. Payloads carry no event
 * id: deduplicated by their hash (subscription, time, operation, item), which a retry repeats.
 */

const EVENTS = ['File.Upload', 'File.Update', 'File.Delete', 'Folder.Delete'] as const;

const watch = z.strictObject({
  folder_id: z.string().trim().regex(/^fo[0-9a-z-]{1,60}$/, 'a folder id, e.g. "fo000015-5f1e-4b0c-9a7d-000000000015"').describe('The folder to watch (and everything below it): a folder id (fo…) from getTopLevelFolders or listChildren.'),
  events: z.array(z.enum(EVENTS)).min(1).max(EVENTS.length).default(['File.Upload', 'File.Update', 'File.Delete']).describe(`Which changes: any of ${EVENTS.join(', ')}. Default: File.Upload, File.Update, File.Delete.`),
});
type Watch = z.output<typeof watch>;

function jsonObject(body: string): Record<string, unknown> | Refusal {
  try {
    const v = JSON.parse(body) as unknown;
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // refused below
  }
  return refusal(400, 'malformed', 'A ShareFile delivery is a JSON object.');
}

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
    await ctx.client.deleteWebhookSubscription(id).catch((err: unknown) => {
      if (!(err instanceof ToolError && err.code === 'NOT_FOUND')) throw err;
    });
  },

  authenticate: (delivery, sub) => secretInUrl(delivery, sub),

  parse(delivery): Parsed | Refusal {
    const payload = jsonObject(delivery.body);
    if (isRefusal(payload)) return payload;
    const event = payload.Event as { ResourceType?: unknown; OperationName?: unknown; Timestamp?: unknown } | undefined;
    const type = event ? `${String(event.ResourceType)}.${String(event.OperationName)}` : '';
    if (!(EVENTS as readonly string[]).includes(type)) return refusal(400, 'malformed', `Unknown ShareFile event ${JSON.stringify(type || null)}.`);
    return { kind: 'events', events: [{ key: deliveryHash(payload), type, ...(typeof event!.Timestamp === 'string' ? { occurred_at: event!.Timestamp } : {}), data: payload }] };
  },
};
