import type * as z from 'zod';
import type { Config } from './config';
import type { Store } from './store';
import type { KeptCredential } from './seal';

/**
 * A subscription: what one caller watches on one platform, and the vendor webhooks that deliver
 * it to `POST /v1/events/{platform}/{id}`. `owner` is the scope of every read and write: today
 * the caller's key hash; a tenant id once service keys exist (nothing else depends on its form).
 */
export interface Subscription {
  id: string;
  platform: string;
  owner: string;
  /**
   * Unguessable; in the receiver URL of vendors that do not sign. Held only in memory while
   * subscribeEvents hands the URL to the vendor: the store keeps `secret_hash` alone.
   */
  secret?: string;
  /** SHA-256 (hex) of `secret`: what a delivery's secret is compared with (in constant time). */
  secret_hash?: string;
  status: 'pending' | 'active';
  /** What is watched, as the platform's adapter took it (e.g. {app_id, event_types}). */
  watch: Record<string, unknown>;
  /** What the adapter created at the vendor (hook ids, subscription ids), to delete it later. */
  vendor: Record<string, unknown>;
  created_at: string;
  /** The owner index slot (shared/events/inbox.ts): removed with the subscription. */
  slot: number;
  /** Extra index slots an adapter asked for (e.g. HubSpot's portal index), name → slot. */
  indexes?: Record<string, number>;
  /**
   * The subscriber's credential (its connection, or its vendor key sealed), kept when the adapter
   * checks deliveries with the vendor (EventsAdapter.verify): each delivery is checked as its
   * subscriber would see it. A subscription saved before there was one has none.
   */
  verify_with?: KeptCredential;
}

/** One stored event as listEvents shows it. */
export interface InboxEvent {
  /** `<subscription id>.<sequence>`: unique, ordered within its subscription. */
  id: string;
  subscription_id: string;
  seq: number;
  type: string;
  /** When the vendor says it happened, when it says so (ISO 8601). */
  occurred_at?: string;
  received_at: string;
  /** The vendor's own event id, when it gives one. */
  vendor_event_id?: string;
  /** The delivery's fields for this event, as the vendor sent them. */
  data: Record<string, unknown>;
  acked?: boolean;
}

/** An event a delivery carries, before it is stored. */
export interface IncomingEvent {
  /** Deduplication key: the vendor's event id, else a hash of what identifies the delivery. */
  key: string;
  type: string;
  occurred_at?: string;
  vendor_event_id?: string;
  data: Record<string, unknown>;
}

/** A delivery as the receiver read it: nothing is parsed before it is authenticated. */
export interface Delivery {
  method: string;
  /** The full URL the vendor called, as it called it (HubSpot signs it). */
  url: string;
  headers: Headers;
  body: string;
}

/** What an adapter makes of an authenticated delivery. */
export type Parsed =
  | { kind: 'verify'; ref: string; code: string }
  | { kind: 'events'; events: IncomingEvent[] };

/** Why a delivery is refused; `status` is the HTTP answer. */
export interface Refusal {
  status: number;
  reason: 'unknown_subscription' | 'bad_secret' | 'bad_signature' | 'wrong_subscription' | 'stale' | 'unsigned' | 'malformed' | 'too_large' | 'wrong_method' | 'unconfirmed';
  message: string;
}

/** What an adapter may use while it sets up or removes the vendor side. */
export interface AdapterContext<C> {
  client: C;
  config: Config;
  store: Store;
  /** The receiver URL of this subscription, secret included. */
  receiverUrl: string;
  /** `<base>/v1/events/<platform>`: vendors with one target per app post to `<this>/app`. */
  receiverBase: string;
  /** The subscriptions entered in an index (e.g. every subscription through one vendor app). */
  subscriptionsIn(index: string): Promise<Subscription[]>;
  /** Waits for the verification code the vendor POSTed to the receiver for `ref` (a hook id). */
  verificationCode(ref: string): Promise<string>;
}

/**
 * What one platform contributes to the inbox: how to create and remove its vendor's webhooks,
 * how to check and read a delivery. Everything else (the store, the tools, the receiver) is shared.
 */
export interface EventsAdapter<C = unknown, W extends Record<string, unknown> = Record<string, unknown>> {
  platform: string;
  vendor: string;
  /** The `watch` parameter of subscribeEvents. */
  watch: z.ZodType<W>;
  /** What the vendor delivers, for subscribeEvents's description. */
  describe: string;
  example: W;
  /** The watch in a few words, for the text answers. */
  watchLine(watch: W): string;
  /** Creates the vendor side and completes its verification; answers what to keep to delete it. */
  subscribe(watch: W, sub: Subscription, ctx: AdapterContext<C>): Promise<{ vendor: Record<string, unknown>; indexes?: Record<string, string> }>;
  /** Removes the vendor side (a part already gone is no error). */
  unsubscribe(sub: Subscription, ctx: AdapterContext<C>): Promise<void>;
  /**
   * Whether this delivery comes from the vendor. Vendors that sign are checked by signature;
   * the others by the subscription's secret in the URL (the shared `secretInUrl`).
   */
  authenticate(delivery: Delivery, sub: Subscription | undefined, config: Config, now: number): Refusal | undefined | Promise<Refusal | undefined>;
  /** The delivery's events (or verification code); a Refusal when it is malformed. */
  parse(delivery: Delivery, sub: Subscription): Parsed | Refusal;
  /**
   * Vendors that do not sign their deliveries: the URL secret only shows the sender knows the
   * webhook URL, which the vendor shows to anyone with access to the app. Such a delivery is a
   * hint: this checks the event with the vendor, through `client` (the subscriber's credential),
   * and answers the event as the vendor confirms it — its data from the vendor's answer — or
   * undefined when the vendor does not confirm it (it is dropped). Errors other than the vendor's
   * "not found" propagate: the delivery is answered 500 and the vendor retries it.
   */
  verify?(event: IncomingEvent, sub: Subscription, client: C): Promise<IncomingEvent | undefined>;
  /**
   * Vendors with one target per app (HubSpot): the subscriptions a delivery's event belongs to,
   * looked up by an index the adapter named at subscribe time. Absent: the subscription in the path.
   */
  route?(event: IncomingEvent, config: Config): { index: string; accepts(sub: Subscription): boolean } | undefined;
}
