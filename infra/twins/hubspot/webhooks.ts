import { createHmac } from 'node:crypto';
import { Hono, type MiddlewareHandler } from 'hono';
import { DeliveryQueue, targetProblem, type Clock, type Delivery, type WebhookTargets } from '../kit';
import { HubSpotHttpError, jsonBody, notFound, validationError, type TwinEnv } from './http';
import { OBJECT_TYPES, type ObjectType } from './model';
import type { CrmRecord, HubSpotState } from './state';

/**
 * HubSpot's webhooks as a public app has them (Webhooks API v3,
 * https://developers.hubspot.com/docs/api/webhooks): app-level settings (one target URL) and
 * subscriptions by event type (`contact.creation`, `deal.propertyChange` with a propertyName, …),
 * managed with the app's developer API key (`?hapikey=`). Every portal that installed the app
 * sends its changes to the target in batches of up to 100 events, each signed v3: header
 * `X-HubSpot-Signature-v3` = base64 HMAC-SHA256, keyed by the app's client secret, of method +
 * URI + body + `X-HubSpot-Request-Timestamp` (https://developers.hubspot.com/docs/api/webhooks/validating-requests).
 * Changes are seen by comparing the records after each write with what the twin last sent.
 */

/** The sandbox app the twin knows (any deployment's own HubSpot app stands here). */
export const HUBSPOT_APP = { appId: '4046712', developerKey: 'sbx-hubspot-developer-key', clientSecret: 'sbx-hubspot-client-secret-7f3a' } as const;

/** The object types webhooks cover and their event-type prefix. */
const PREFIX: Partial<Record<ObjectType, string>> = { contacts: 'contact', companies: 'company', deals: 'deal', tickets: 'ticket' };
export const HUBSPOT_WEBHOOK_EVENTS = ['creation', 'deletion', 'propertyChange'] as const;
export const HUBSPOT_EVENT_TYPES = Object.values(PREFIX).flatMap((p) => HUBSPOT_WEBHOOK_EVENTS.map((e) => `${p}.${e}`));

/** HubSpot's batch size. */
const BATCH = 100;

export interface HubSpotWebhookSubscription {
  id: number;
  eventType: string;
  propertyName?: string;
  active: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface HubSpotWebhookOptions {
  portalId: number;
  clock: Clock;
  targets: WebhookTargets;
  fetch: typeof fetch;
  /** HubSpot: the target must answer within 5 s. */
  timeoutMs?: number;
  /** Extra copies of each POST (at-least-once delivery; kit/webhooks.ts). */
  redeliver?: number;
}

/** base64 HMAC-SHA256 of method + URI + body + timestamp, keyed by the client secret (v3). */
export function signV3(clientSecret: string, method: string, uri: string, body: string, timestamp: string): string {
  return createHmac('sha256', clientSecret).update(`${method}${uri}${body}${timestamp}`).digest('base64');
}

export class HubSpotWebhooks {
  targetUrl: string | undefined;
  readonly subscriptions = new Map<number, HubSpotWebhookSubscription>();
  private readonly queue: DeliveryQueue<{ batch: number }>;
  /** What the twin last reported per record (`type/id`): the baseline of the next comparison. */
  private readonly seen = new Map<string, CrmRecord>();
  private nextSubscription = 1;
  private nextEvent = 1;
  private batches = 0;

  constructor(
    private readonly state: HubSpotState,
    readonly options: HubSpotWebhookOptions,
  ) {
    this.queue = new DeliveryQueue({
      timeoutMs: options.timeoutMs ?? 5000,
      fetch: options.fetch,
      headers: { 'content-type': 'application/json', 'user-agent': 'HubSpot Connect 2.0 (http://dev.hubspot.com/)' },
      encode: (p) => JSON.stringify(p.events),
      sign: (url, body) => {
        const timestamp = String(options.clock.now());
        return { 'X-HubSpot-Signature-v3': signV3(HUBSPOT_APP.clientSecret, 'POST', url, body, timestamp), 'X-HubSpot-Request-Timestamp': timestamp, 'X-HubSpot-Signature-Version': 'v3' };
      },
      ...(options.redeliver ? { redeliver: options.redeliver } : {}),
    });
    this.baseline();
  }

  get log(): Delivery<{ batch: number }>[] {
    return this.queue.log;
  }

  idle(): Promise<void> {
    return this.queue.idle();
  }

  private baseline(): void {
    for (const type of OBJECT_TYPES) for (const r of this.state.records[type].values()) this.seen.set(`${type}/${r.id}`, r);
  }

  /** /webhooks/v3/{appId}/…, with the developer key: mounted before the token check. */
  routes(): Hono<TwinEnv> {
    const r = new Hono<TwinEnv>();
    const now = () => new Date(this.options.clock.now()).toISOString();
    r.use('/webhooks/v3/:appId/*', async (c, next) => {
      if (c.req.query('hapikey') !== HUBSPOT_APP.developerKey) throw new HubSpotHttpError(401, 'INVALID_AUTHENTICATION', 'The API key provided is invalid. View or manage your API key here: https://app.hubspot.com/l/api-key/');
      if (c.req.param('appId') !== HUBSPOT_APP.appId) throw notFound(`App ${c.req.param('appId')} not found for this developer account`);
      await next();
    });
    r.get('/webhooks/v3/:appId/settings', (c) => {
      if (!this.targetUrl) throw notFound('No webhook settings for this app');
      return c.json({ targetUrl: this.targetUrl, throttling: { maxConcurrentRequests: 10, period: 'SECONDLY' }, createdAt: now() });
    });
    r.put('/webhooks/v3/:appId/settings', async (c) => {
      const body = await jsonBody(c);
      if (typeof body.targetUrl !== 'string') throw validationError('targetUrl is required');
      const problem = targetProblem(body.targetUrl, this.options.targets);
      if (problem) throw validationError(problem.replace('"url"', 'targetUrl'));
      this.targetUrl = body.targetUrl;
      return c.json({ targetUrl: this.targetUrl, throttling: body.throttling ?? { maxConcurrentRequests: 10, period: 'SECONDLY' }, createdAt: now() });
    });
    r.get('/webhooks/v3/:appId/subscriptions', (c) => c.json({ results: [...this.subscriptions.values()] }));
    r.post('/webhooks/v3/:appId/subscriptions', async (c) => {
      const body = await jsonBody(c);
      const eventType = body.eventType;
      if (typeof eventType !== 'string' || !HUBSPOT_EVENT_TYPES.includes(eventType)) throw validationError(`eventType must be one of ${HUBSPOT_EVENT_TYPES.join(', ')}`);
      const propertyName = typeof body.propertyName === 'string' ? body.propertyName : undefined;
      if (eventType.endsWith('.propertyChange') && !propertyName) throw validationError('propertyName is required for propertyChange subscriptions');
      const same = [...this.subscriptions.values()].find((s) => s.eventType === eventType && s.propertyName === propertyName);
      if (same) throw new HubSpotHttpError(409, 'CONFLICT', `A subscription for ${eventType}${propertyName ? ` (${propertyName})` : ''} already exists: ${same.id}`);
      const sub: HubSpotWebhookSubscription = { id: this.nextSubscription++, eventType, ...(propertyName ? { propertyName } : {}), active: body.active !== false, createdAt: now(), updatedAt: now() };
      this.subscriptions.set(sub.id, sub);
      return c.json(sub, 201);
    });
    r.delete('/webhooks/v3/:appId/subscriptions/:id', (c) => {
      if (!this.subscriptions.delete(Number(c.req.param('id')))) throw notFound(`Subscription ${c.req.param('id')} not found`);
      return c.body(null, 204);
    });
    return r;
  }

  /** `GET /account-info/v3/details`: the portal a token belongs to (where its events come from). */
  accountRoutes(): Hono<TwinEnv> {
    const r = new Hono<TwinEnv>();
    r.get('/account-info/v3/details', (c) => c.json({ portalId: this.options.portalId, timeZone: 'Europe/Berlin', accountType: 'SANDBOX', companyCurrency: 'EUR', uiDomain: 'app.hubspot.com', dataHostingLocation: 'eu1' }));
    return r;
  }

  /** After each successful write: the changes it made, as events of the active subscriptions. */
  watch(): MiddlewareHandler<TwinEnv> {
    return async (c, next) => {
      await next();
      if (c.req.method === 'GET' || c.res.status >= 300) return;
      this.compare();
    };
  }

  private compare(): void {
    const events: Record<string, unknown>[] = [];
    const at = this.options.clock.now();
    const active = [...this.subscriptions.values()].filter((s) => s.active);
    const emit = (sub: HubSpotWebhookSubscription, id: string, extra: Record<string, unknown> = {}) =>
      events.push({ eventId: this.nextEvent++, subscriptionId: sub.id, portalId: this.options.portalId, appId: Number(HUBSPOT_APP.appId), occurredAt: at, subscriptionType: sub.eventType, attemptNumber: 0, objectId: Number(id), changeSource: 'API', ...extra });
    for (const type of OBJECT_TYPES) {
      const prefix = PREFIX[type];
      for (const rec of this.state.records[type].values()) {
        const key = `${type}/${rec.id}`;
        const before = this.seen.get(key);
        if (before === rec) continue;
        this.seen.set(key, rec);
        if (!prefix) continue;
        const subs = (event: string) => active.filter((s) => s.eventType === `${prefix}.${event}`);
        if (rec.archivedAt !== undefined && before?.archivedAt === undefined) {
          for (const s of subs('deletion')) emit(s, rec.id);
          continue;
        }
        if (!before) for (const s of subs('creation')) emit(s, rec.id);
        for (const s of subs('propertyChange')) {
          const name = s.propertyName!;
          const value = rec.properties[name];
          if (value !== undefined && value !== before?.properties[name]) emit(s, rec.id, { propertyName: name, propertyValue: value });
        }
      }
    }
    if (!this.targetUrl || events.length === 0) return;
    const url = this.targetUrl;
    for (let i = 0; i < events.length; i += BATCH) {
      const batch = ++this.batches;
      const chunk = events.slice(i, i + BATCH);
      this.queue.send('app', () => ({ url, payload: { events: chunk }, extra: { batch } }));
    }
  }
}
