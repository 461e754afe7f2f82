import { createHmac, timingSafeEqual } from 'node:crypto';
import * as z from 'zod';
import { removeVendorParts } from '../../../shared/events/hooks';
import { refusal } from '../../../shared/events/receiver';
import { readSecret } from '../../../shared/events/secrets';
import type { EventsAdapter, IncomingEvent, Parsed, Refusal, Subscription } from '../../../shared/core/event-model';
import { ToolError } from '../../../shared/core/errors';
import type { Config } from '../../../shared/core/config';
import type { HubSpotClient } from '../client';

/**
 * HubSpot's part of the event inbox. HubSpot's webhooks belong to a public app, not to a portal's
 * token (Webhooks API v3, https://developers.hubspot.com/docs/api/webhooks): one target URL per
 * app, subscriptions by event type for every portal that installed it, managed with the app's
 * developer key. The deployment names its app (CRM_EVENTS_APP_ID, CRM_EVENTS_DEVELOPER_KEY,
 * CRM_EVENTS_CLIENT_SECRET; deployed, the two secrets come from SSM through `…_PARAMETER`,
 * shared/events/secrets.ts); subscribeEvents points the app's target at `/v1/events/crm/app`,
 * makes the vendor subscriptions the watch needs (shared by every caller of the app) and enters the
 * subscription under the caller's portal. Deliveries are batches signed v3
 * (https://developers.hubspot.com/docs/api/webhooks/validating-requests): checked with the client
 * secret and a 5-minute window, then each event goes to the subscriptions of its portal that watch
 * it, deduplicated by HubSpot's eventId.
 */

const OBJECTS = { contacts: 'contact', companies: 'company', deals: 'deal', tickets: 'ticket' } as const;
type ObjectName = keyof typeof OBJECTS;
const EVENTS = ['creation', 'deletion', 'propertyChange'] as const;

/** HubSpot: a request older than 5 minutes is refused (replays). */
export const SIGNATURE_WINDOW_MS = 5 * 60 * 1000;

const watch = z
  .strictObject({
    object_types: z.array(z.enum(Object.keys(OBJECTS) as [ObjectName, ...ObjectName[]])).min(1).max(4).describe('Which records: any of contacts, companies, deals, tickets.'),
    events: z.array(z.enum(EVENTS)).min(1).max(3).default(['creation', 'deletion']).describe('Which changes: creation, deletion, propertyChange (needs properties). Default: creation and deletion.'),
    properties: z.array(z.string().trim().regex(/^[a-z0-9_]{1,100}$/, 'a property name, e.g. "dealstage"')).min(1).max(20).optional().describe('For propertyChange: the properties to watch, e.g. ["dealstage", "amount"] (HubSpot subscribes per property).'),
  })
  .superRefine((w, ctx) => {
    if ((w.events ?? []).includes('propertyChange') && !w.properties) ctx.addIssue({ code: 'custom', path: ['properties'], message: 'propertyChange needs the properties to watch, e.g. ["dealstage"]' });
    if (w.properties && !(w.events ?? []).includes('propertyChange')) ctx.addIssue({ code: 'custom', path: ['properties'], message: 'properties are only for the propertyChange event; add it to events or drop properties' });
  });
type Watch = z.output<typeof watch>;

interface Need {
  eventType: string;
  propertyName?: string;
}

/** The vendor subscriptions a watch needs. */
function needs(w: Watch): Need[] {
  return w.object_types.flatMap((t) =>
    w.events.flatMap((e) => (e === 'propertyChange' ? (w.properties ?? []).map((p) => ({ eventType: `${OBJECTS[t]}.${e}`, propertyName: p })) : [{ eventType: `${OBJECTS[t]}.${e}` }])),
  );
}

const needKey = (n: Need) => `${n.eventType}/${n.propertyName ?? ''}`;

function appOf(config: Config) {
  const app = config.events?.apps.crm;
  if (!app) {
    // HubSpot's webhooks belong to an app: without one configured, this deployment offers no crm inbox.
    throw new ToolError('FORBIDDEN', 'This deployment offers no HubSpot event inbox: CRM_EVENTS_APP_ID, CRM_EVENTS_DEVELOPER_KEY and CRM_EVENTS_CLIENT_SECRET (the public app whose webhooks the service uses) are not set. Ask its operator to set them.', {});
  }
  return app;
}

/** The app with its developer key read (from the environment, or SSM once per container). */
async function appWithKey(config: Config): Promise<{ appId: string; developerKey: string }> {
  const app = appOf(config);
  return { appId: app.appId, developerKey: await readSecret(app.developerKey) };
}

/**
 * HubSpot signs the URI with these characters decoded (validating-requests, v3); the receiver
 * rebuilds it the same way before comparing.
 */
const DECODED: Record<string, string> = { '%3A': ':', '%2F': '/', '%3F': '?', '%40': '@', '%21': '!', '%24': '$', '%27': "'", '%28': '(', '%29': ')', '%2A': '*', '%2C': ',', '%3B': ';' };
export function signedUri(url: string): string {
  return url.replace(/%(3A|2F|3F|40|21|24|27|28|29|2A|2C|3B)/gi, (m) => DECODED[m.toUpperCase()]!);
}

export function hubspotSignature(clientSecret: string, method: string, url: string, body: string, timestamp: string): string {
  return createHmac('sha256', clientSecret).update(`${method}${signedUri(url)}${body}${timestamp}`).digest('base64');
}

const portalIndex = (portalId: unknown) => `crm#portal#${String(portalId)}`;
const appIndex = (appId: string) => `crm#app#${appId}`;

export const hubspotEvents: EventsAdapter<HubSpotClient, Watch> = {
  platform: 'crm',
  vendor: 'HubSpot',
  watch: watch as unknown as z.ZodType<Watch>,
  describe: 'Watch contacts, companies, deals or tickets (object_types) for creation, deletion or changes of named properties (events, properties); each event carries the record id (objectId), and for a property change its name and new value.',
  example: { object_types: ['deals'], events: ['creation', 'propertyChange'], properties: ['dealstage'] },
  watchLine: (w) => `${w.object_types.join(', ')}: ${w.events.join(', ')}${w.properties ? ` (${w.properties.join(', ')})` : ''}`,

  async subscribe(w, _sub, ctx) {
    const app = await appWithKey(ctx.config);
    const { portalId } = await ctx.client.accountDetails();
    const hooks = ctx.client.webhooks(app);
    await hooks.setTarget(`${ctx.receiverBase}/app`);
    const existing = new Map((await hooks.listSubscriptions()).results.map((s) => [needKey(s), s]));
    const made: number[] = [];
    const used: number[] = [];
    try {
      for (const need of needs(w)) {
        let found = existing.get(needKey(need));
        if (!found) {
          try {
            found = await hooks.createSubscription(need.eventType, need.propertyName);
            made.push(found.id);
          } catch (err) {
            // Made meanwhile by another subscribe through the same app: use that one.
            found = (await hooks.listSubscriptions()).results.find((s) => needKey(s) === needKey(need));
            if (!found) throw err;
          }
        }
        used.push(found.id);
      }
    } catch (err) {
      for (const id of made) await hooks.deleteSubscription(id).catch(() => undefined);
      throw err;
    }
    return { vendor: { app_id: app.appId, portal_id: portalId, hubspot_subscription_ids: used }, indexes: { portal: portalIndex(portalId), app: appIndex(app.appId) } };
  },

  async unsubscribe(sub, ctx) {
    const app = await appWithKey(ctx.config);
    const hooks = ctx.client.webhooks(app);
    // App-level subscriptions are shared: one goes only when no other subscription needs it.
    const others = (await ctx.subscriptionsIn(appIndex(app.appId))).filter((s) => s.id !== sub.id);
    const stillUsed = new Set(others.flatMap((s) => (s.vendor.hubspot_subscription_ids as number[] | undefined) ?? []));
    const ids = ((sub.vendor.hubspot_subscription_ids as number[] | undefined) ?? []).filter((id) => !stillUsed.has(id));
    await removeVendorParts(ids, (id) => hooks.deleteSubscription(id));
  },

  async authenticate(delivery, _sub, config, now) {
    const app = config.events?.apps.crm;
    if (!app) return refusal(404, 'unknown_subscription', 'This deployment receives no HubSpot webhooks.');
    const signature = delivery.headers.get('x-hubspot-signature-v3');
    const timestamp = delivery.headers.get('x-hubspot-request-timestamp');
    if (!signature || !timestamp) return refusal(401, 'unsigned', 'HubSpot deliveries carry X-HubSpot-Signature-v3 and X-HubSpot-Request-Timestamp.');
    const at = Number(timestamp);
    if (!Number.isSafeInteger(at) || Math.abs(now - at) > SIGNATURE_WINDOW_MS) return refusal(401, 'stale', 'The delivery\'s timestamp is outside the 5-minute window.');
    const expected = Buffer.from(hubspotSignature(await readSecret(app.clientSecret), delivery.method, delivery.url, delivery.body, timestamp));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return refusal(401, 'bad_signature', 'The v3 signature does not match.');
    return undefined;
  },

  parse(delivery): Parsed | Refusal {
    let batch: unknown;
    try {
      batch = JSON.parse(delivery.body);
    } catch {
      return refusal(400, 'malformed', 'A HubSpot delivery is a JSON array of events.');
    }
    if (!Array.isArray(batch) || batch.length === 0) return refusal(400, 'malformed', 'A HubSpot delivery is a non-empty JSON array of events.');
    const events: IncomingEvent[] = [];
    for (const e of batch as Record<string, unknown>[]) {
      if (!e || typeof e !== 'object' || !Number.isSafeInteger(e.eventId) || typeof e.subscriptionType !== 'string' || e.portalId === undefined) {
        return refusal(400, 'malformed', 'Each HubSpot event has an eventId, a subscriptionType and a portalId.');
      }
      events.push({
        key: `hubspot:${String(e.appId ?? '')}:${String(e.eventId)}`,
        type: e.subscriptionType,
        ...(typeof e.occurredAt === 'number' ? { occurred_at: new Date(e.occurredAt).toISOString() } : {}),
        vendor_event_id: String(e.eventId),
        data: e,
      });
    }
    return { kind: 'events', events };
  },

  route(e) {
    const [object, event] = e.type.split('.') as [string, string];
    const name = (Object.keys(OBJECTS) as ObjectName[]).find((k) => OBJECTS[k] === object);
    if (!name) return undefined;
    return {
      index: portalIndex(e.data.portalId),
      accepts: (sub: Subscription) => {
        const w = sub.watch as Watch;
        if (!w.object_types.includes(name) || !(w.events as readonly string[]).includes(event)) return false;
        return event !== 'propertyChange' || (w.properties ?? []).includes(String(e.data.propertyName));
      },
    };
  },
};
