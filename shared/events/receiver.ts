import { timingSafeEqual } from 'node:crypto';
import type { Context, Hono } from 'hono';
import type { Runtime } from '../core/runtime';
import type { ErrorCode } from '../core/errors';
import type { EventsConfig } from '../core/events-config';
import { fanOut, fanoutSenders, type Sender } from './fanout';
import { Inbox, secretHash } from './inbox';
import { eachBounded } from '../core/pool';
import { countRefusal, countStored } from './metrics';
import type { Delivery, EventsAdapter, InboxEvent, IncomingEvent, Refusal, Subscription } from '../core/event-model';
import { readBounded } from '../core/json-body';
import { ToolError } from '../core/errors';
import type { Platform } from '../core/tool';
import { vendorFetch } from '../core/vendor-fetch';
import { keptCredential } from '../identity';

/** The receiver's path; `{id}` is a subscription id (or an app-level target an adapter names). */
export const RECEIVER_PATH = '/v1/events/:platform/:id';

import { eventsConfigOf } from './config';

export { eventsConfigOf };

/** The receiver URL of a subscription; vendors that do not sign get its secret in the query. */
export function receiverUrl(config: EventsConfig, sub: Pick<Subscription, 'platform' | 'id' | 'secret'>, withSecret: boolean): string {
  const base = `${config.baseUrl}/v1/events/${sub.platform}/${sub.id}`;
  // The secret exists only while subscribeEvents sets the vendor up (the store keeps its hash).
  return withSecret && sub.secret !== undefined ? `${base}?secret=${encodeURIComponent(sub.secret)}` : base;
}

/** Authenticity for vendors that do not sign: the subscription's secret in the URL, its hash compared in constant time. */
export function secretInUrl(delivery: Delivery, sub: Subscription | undefined): Refusal | undefined {
  if (!sub) return refusal(404, 'unknown_subscription', 'No such subscription.');
  const given = Buffer.from(secretHash(new URL(delivery.url).searchParams.get('secret') ?? ''), 'hex');
  // A subscription saved before secrets were hashed still holds its secret: hashed here alike.
  const expectedHex = sub.secret_hash ?? (sub.secret !== undefined ? secretHash(sub.secret) : undefined);
  const expected = Buffer.from(expectedHex ?? '', 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return refusal(401, 'bad_secret', 'The delivery does not carry this subscription\'s secret.');
  return undefined;
}

/** A delivery whose body is one JSON object (Tape, ShareFile): the object, or why not. */
export function jsonObject(body: string): Record<string, unknown> | Refusal {
  try {
    const value = JSON.parse(body) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // refused below
  }
  return refusal(400, 'malformed', 'The delivery is not a JSON object.');
}

export const refusal = (status: number, reason: Refusal['reason'], message: string): Refusal => ({ status, reason, message });
export const isRefusal = (x: unknown): x is Refusal => typeof x === 'object' && x !== null && 'reason' in x && 'status' in x;

const utf8 = new TextDecoder();

/** Subscriptions of one app-level delivery appended side by side (each with its own bounded writes). */
const APPEND_PARALLEL = 4;

const CODES: Record<number, ErrorCode> = { 400: 'INVALID_PARAMETER', 401: 'UNAUTHORIZED', 403: 'FORBIDDEN', 404: 'NOT_FOUND', 405: 'INVALID_PARAMETER', 413: 'INVALID_PARAMETER' };

export interface ReceiverOptions {
  /** Fan-out senders; default: the ones the configuration names (shared/events/fanout.ts). */
  senders?: Sender[];
  now?: () => number;
}

/**
 * `POST /v1/events/{platform}/{id}`: a vendor's delivery. It is authenticated the vendor's way
 * before anything is parsed, stored once per event, optionally fanned out, then answered: the
 * receiver runs no tool, so it answers within every vendor's timeout. It calls the vendor only to
 * confirm the events of a vendor that does not sign (EventsAdapter.verify), one read per event.
 * Any refusal stores nothing and is counted (shared/events/metrics.ts).
 */
export function mountReceiver(app: Hono<any>, rt: Runtime, options: ReceiverOptions = {}): void {
  const now = options.now ?? Date.now;
  let senders = options.senders;
  app.all(RECEIVER_PATH, async (c) => {
    const platformName = c.req.param('platform');
    const platform = rt.registry.platforms.get(platformName);
    const adapter = platform?.events ? await platform.events() : undefined;
    if (!adapter) return refuse(c, platform ? platformName : '(unknown)', refusal(404, 'unknown_subscription', `No event receiver for platform "${platformName}".`));
    const config = eventsConfigOf(rt);
    if (c.req.method !== 'POST') return refuse(c, platformName, refusal(405, 'wrong_method', 'Deliveries are POSTed.'));
    // Reading stops at the limit, declared or streamed (shared/core/json-body.ts).
    const bytes = await readBounded(c.req.raw, config.maxBodyBytes);
    if (!bytes) return refuse(c, platformName, refusal(413, 'too_large', `A delivery is at most ${config.maxBodyBytes} bytes.`));
    const body = utf8.decode(bytes);
    const inbox = new Inbox(rt.store, config.ttlSeconds, now);
    const id = c.req.param('id');
    const sub = /^sub_[A-Za-z0-9_-]{1,40}$/.test(id) ? await inbox.forDelivery(id) : undefined;
    const owned = sub && sub.platform === platformName ? sub : undefined;
    const delivery: Delivery = { method: c.req.method, url: c.req.url, headers: c.req.raw.headers, body };
    const denied = await adapter.authenticate(delivery, owned, rt.config, now());
    if (denied) return refuse(c, platformName, denied);
    const parsed = adapter.parse(delivery, owned as Subscription);
    if (isRefusal(parsed)) return refuse(c, platformName, parsed);
    if (parsed.kind === 'verify') {
      if (!owned) return refuse(c, platformName, refusal(404, 'unknown_subscription', 'No such subscription.'));
      await inbox.putCode(owned.id, parsed.ref, parsed.code);
      return c.json({ success: true, data: { verification: 'received' } });
    }
    const stored: InboxEvent[] = [];
    let duplicates = 0;
    let dropped = 0;
    if (adapter.route) {
      // A batch's events mostly share an index (HubSpot: one portal): read each index once per delivery.
      const indexes = new Map<string, Promise<Subscription[]>>();
      const subscriptionsIn = (index: string) =>
        indexes.get(index) ??
        indexes.set(index, inbox.indexMembers(index).then(async (members) => (await Promise.all(members.map((m) => inbox.forDelivery(m.id)))).filter((s): s is Subscription => s !== undefined))).get(index)!;
      // Each subscription's events of the batch, in the batch's order, appended as one batch.
      const bySub = new Map<string, { sub: Subscription; events: IncomingEvent[] }>();
      for (const e of parsed.events) {
        const route = adapter.route(e, rt.config);
        if (!route) continue;
        for (const s of (await subscriptionsIn(route.index)).filter((x) => route.accepts(x))) {
          const entry = bySub.get(s.id) ?? bySub.set(s.id, { sub: s, events: [] }).get(s.id)!;
          entry.events.push(e);
        }
      }
      for (const r of await eachBounded([...bySub.values()], APPEND_PARALLEL, ({ sub: s, events }) => inbox.append(s, events), { afterFailure: 'continue' })) {
        stored.push(...r.stored);
        duplicates += r.duplicates;
      }
    } else {
      if (!owned) return refuse(c, platformName, refusal(404, 'unknown_subscription', 'No such subscription.'));
      const events = adapter.verify && owned.verify_with ? await confirmed(rt, platform!, adapter, owned, parsed.events) : parsed.events;
      dropped = parsed.events.length - events.length;
      const r = await inbox.append(owned, events);
      stored.push(...r.stored);
      duplicates += r.duplicates;
    }
    countStored(platformName, stored.length, duplicates);
    senders ??= fanoutSenders(config.fanout);
    await fanOut(senders, stored, platformName);
    if (dropped) countRefusal(platformName, refusal(200, 'unconfirmed', `${dropped} event(s) the vendor did not confirm`));
    return c.json({ success: true, data: { stored: stored.length, duplicates, ...(dropped ? { dropped } : {}) } });
  });
}

/**
 * The events of an unsigned delivery the vendor confirms (EventsAdapter.verify), checked through
 * the subscriber's own credential; the rest are dropped. A credential that no longer works (the
 * connection deleted or needing its user, the key refused) confirms nothing.
 */
async function confirmed(rt: Runtime, platform: Platform<unknown>, adapter: EventsAdapter, sub: Subscription, events: IncomingEvent[]): Promise<IncomingEvent[]> {
  let client: unknown;
  try {
    const { vendorKey, baseUrl } = await keptCredential(rt, sub.verify_with!, sub.id);
    client = platform.client(vendorKey, { baseUrl: rt.config.baseUrls[platform.name] ?? baseUrl ?? platform.defaultBaseUrl, fetch: rt.fetchFor?.[platform.name] ?? vendorFetch, timeoutMs: rt.config.upstreamTimeoutMs });
  } catch (err) {
    if (err instanceof ToolError && (err.code === 'UNAUTHORIZED' || err.code === 'NOT_FOUND')) return [];
    throw err;
  }
  const out: IncomingEvent[] = [];
  for (const event of events) {
    try {
      const ok = await adapter.verify!(event, sub, client);
      if (ok) out.push(ok);
    } catch (err) {
      // The subscriber's credential was refused: nothing can be confirmed with it.
      if (err instanceof ToolError && (err.code === 'UNAUTHORIZED' || err.code === 'FORBIDDEN')) continue;
      throw err;
    }
  }
  return out;
}

function refuse(c: Context, platform: string, r: Refusal): Response {
  countRefusal(platform, r);
  // The service's error envelope (shared/core/errors.ts codes), so a vendor's log shows why.
  const code = CODES[r.status] ?? 'INVALID_PARAMETER';
  // An INVALID_PARAMETER names what is wrong: the method, or the delivery's body.
  const parameter = code === 'INVALID_PARAMETER' ? { parameter: r.reason === 'wrong_method' ? '(method)' : '(body)' } : {};
  return c.json({ success: false, error: { code, message: r.message, details: { reason: r.reason, ...parameter } } }, r.status as 400);
}

export type { EventsAdapter };
