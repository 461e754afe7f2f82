import { createHash, randomBytes } from 'node:crypto';
import { ToolError } from '../core/errors';
import { eachBounded } from '../core/pool';
import type { Store } from '../core/store';
import type { IncomingEvent, InboxEvent, Subscription } from '../core/event-model';

/**
 * The event inbox on the Store port (shared/core/store.ts), one key per thing:
 *
 * - `evsub#<id>`: the subscription;
 * - `evix#<index>` (a counter) and `evix#<index>#<n>` (a subscription id): an index of
 *   subscriptions, by owner and platform (`own#<owner>#<platform>`) or by what an adapter names;
 * - `evseq#<id>`: the subscription's sequence (the last number taken);
 * - `evdup#<id>#<key>` → the sequence an event got: the deduplication claim, written in one
 *   transaction with `ev#<id>#<seq>`, the event itself (so a claim never exists without its event);
 * - `evfloor#<id>`: every event at or below it is acknowledged (or never existed);
 * - `evcode#<id>#<ref>`: a verification code the vendor POSTed (minutes).
 *
 * A sequence number is taken before the claim, so a duplicate that loses the race leaves a gap:
 * readers skip gaps. Events expire after the configured TTL (DynamoDB TTL on `expires_at`).
 *
 * Per store object (one per process), two things are kept in memory to spare round trips: the
 * claims being written right now (a copy of a delivery that arrives while another copy of it is
 * being stored waits for that one instead of racing it to the store), and active subscriptions
 * the receiver read in the last SUB_CACHE_MS. Neither decides anything alone: the store's
 * conditional write still does (copies in other processes race there, as before).
 */

/** Subscriptions and indexes are kept until deleted; the store needs a TTL, so: ten years. */
export const KEEP_SECONDS = 10 * 365 * 24 * 3600;
/** A verification code is needed for the seconds the handshake takes. */
const CODE_SECONDS = 600;
/**
 * A write in flight finishes within a Lambda's timeout (29 s) of taking its number, and a later
 * number was taken within 29 s of its own receipt: a missing number before an event received more
 * than this ago is a gap for good. A missing number not yet known to be final stops a listing
 * there (its event may be landing), so no cursor — and no acknowledgement up to one — passes it.
 */
const IN_FLIGHT_MS = 60_000;

/** What a duplicate that lost the race leaves at its number: a gap known to be final. */
interface Gap {
  gap: true;
  seq: number;
  received_at: string;
}
type Slot = InboxEvent | Gap;
const isGap = (s: Slot): s is Gap => 'gap' in s;
/** Sequence numbers read per listing round, and at most per call (a page of gaps ends early, with a cursor). */
const READ_BATCH = 100;
const READ_MAX = 2_000;
/** Claim-and-event transactions of one delivery in flight at once (a batch of 100 lands in ten rounds). */
export const WRITE_PARALLEL = 10;

/**
 * How long the receiver trusts a subscription it read: an active subscription only changes by being
 * removed (removal in this process forgets it at once; a delivery another process still takes in
 * these seconds lands in an inbox no one can list, and expires).
 */
export const SUB_CACHE_MS = 10_000;
const SUB_CACHE_MAX = 1_000;

/** What one process keeps per store: claims in flight (true once held in the store) and active subscriptions. */
interface Local {
  flights: Map<string, Promise<boolean>>;
  subs: Map<string, { sub: Subscription; until: number }>;
}
const locals = new WeakMap<Store, Local>();
function localOf(store: Store): Local {
  let local = locals.get(store);
  if (!local) locals.set(store, (local = { flights: new Map(), subs: new Map() }));
  return local;
}

export interface AppendResult {
  stored: InboxEvent[];
  duplicates: number;
}

export interface ListOptions {
  /** Per subscription: list events with a sequence above this. */
  after: Record<string, number>;
  limit: number;
  includeAcked: boolean;
  types?: readonly string[];
  /** Epoch ms: events received at or after it. */
  since?: number;
}

export interface ListPage {
  events: InboxEvent[];
  /** Per subscription: the last sequence read (the cursor of the next page). */
  after: Record<string, number>;
  more: boolean;
}

function needs<K extends keyof Store>(store: Store, ...methods: K[]): asserts store is Store & Required<Pick<Store, K>> {
  for (const m of methods) if (typeof store[m] !== 'function') throw new Error(`the event inbox needs a store with ${String(m)}()`);
}

/** SHA-256 (hex) of a subscription's secret: the only form of it the store sees. */
export const secretHash = (secret: string) => createHash('sha256').update(secret).digest('hex');

const withSecret = (secret: string) => ({ secret, secret_hash: secretHash(secret) });

/** A subscription as stored: without its secret (a copy of the table must not let anyone post into an inbox). */
function stored({ secret: _s, ...sub }: Subscription): Subscription {
  return sub;
}

export class Inbox {
  constructor(
    private readonly store: Store,
    private readonly ttlSeconds: number,
    private readonly now: () => number = Date.now,
  ) {
    needs(store, 'add', 'putPairIfAbsent', 'getMany', 'delete');
  }

  private get s() {
    return this.store as Store & Required<Pick<Store, 'add' | 'putPairIfAbsent' | 'getMany' | 'delete'>>;
  }

  static newSubscription(platform: string, owner: string, watch: Record<string, unknown>, now: number): Omit<Subscription, 'slot'> {
    return {
      id: `sub_${randomBytes(9).toString('base64url')}`,
      platform,
      owner,
      ...withSecret(randomBytes(24).toString('base64url')),
      status: 'pending',
      watch,
      vendor: {},
      created_at: new Date(now).toISOString(),
    };
  }

  // ---- subscriptions and indexes

  /** Saves a new subscription and enters it in its owner's index. */
  async create(sub: Omit<Subscription, 'slot'>): Promise<Subscription> {
    const slot = await this.indexAdd(ownerIndex(sub.owner, sub.platform), sub.id);
    const saved = { ...sub, slot };
    await this.s.put(`evsub#${sub.id}`, stored(saved), KEEP_SECONDS);
    return saved;
  }

  async save(sub: Subscription): Promise<void> {
    await this.s.put(`evsub#${sub.id}`, stored(sub), KEEP_SECONDS);
  }

  get(id: string): Promise<Subscription | undefined> {
    return this.s.get<Subscription>(`evsub#${id}`);
  }

  /**
   * The subscription for a delivery: an active one read in the last SUB_CACHE_MS is not read again.
   * A pending one is always read (subscribeEvents activates it in seconds), and a missing one too
   * (a verification POST can arrive right after the subscription was saved).
   */
  async forDelivery(id: string): Promise<Subscription | undefined> {
    const subs = localOf(this.store).subs;
    const now = this.now();
    const kept = subs.get(id);
    if (kept && kept.until > now) return kept.sub;
    subs.delete(id);
    const sub = await this.get(id);
    if (sub?.status === 'active') {
      // Oldest first in a Map: dropping the first entry keeps the newest.
      if (subs.size >= SUB_CACHE_MAX) subs.delete(subs.keys().next().value!);
      subs.set(id, { sub, until: now + SUB_CACHE_MS });
    }
    return sub;
  }

  /** The subscription when `owner` owns it on `platform`; NOT_FOUND otherwise (another's is not shown to exist). */
  async owned(id: string, owner: string, platform: string): Promise<Subscription> {
    const sub = /^sub_[A-Za-z0-9_-]{1,40}$/.test(id) ? await this.get(id) : undefined;
    if (!sub || sub.owner !== owner || sub.platform !== platform) {
      throw new ToolError('NOT_FOUND', `No subscription "${id}" on ${platform} for this key. listSubscriptions shows yours.`, { parameter: 'subscription_id', subscription_id: id });
    }
    return sub;
  }

  async list(owner: string, platform: string): Promise<Subscription[]> {
    const ids = await this.indexMembers(ownerIndex(owner, platform));
    const subs = await this.s.getMany<Subscription>(ids.map((m) => `evsub#${m.id}`));
    return subs.filter((s): s is Subscription => s !== undefined && s.owner === owner);
  }

  /** Removes the subscription, its indexes and its bookkeeping; its events expire with their TTL. */
  async remove(sub: Subscription): Promise<void> {
    await this.s.delete(`evsub#${sub.id}`);
    localOf(this.store).subs.delete(sub.id);
    await this.s.delete(`evix#${ownerIndex(sub.owner, sub.platform)}#${sub.slot}`);
    for (const [index, slot] of Object.entries(sub.indexes ?? {})) await this.s.delete(`evix#${index}#${slot}`);
  }

  /** Enters `id` in `index`; answers its slot (to remove it later). */
  async indexAdd(index: string, id: string): Promise<number> {
    const slot = await this.s.add(`evix#${index}`, 1, KEEP_SECONDS);
    await this.s.put(`evix#${index}#${slot}`, id, KEEP_SECONDS);
    return slot;
  }

  /** The ids in `index`, oldest first. */
  async indexMembers(index: string): Promise<{ id: string; slot: number }[]> {
    const count = await this.s.add(`evix#${index}`, 0, KEEP_SECONDS);
    const slots = Array.from({ length: count }, (_, i) => i + 1);
    const ids = await this.s.getMany<string>(slots.map((n) => `evix#${index}#${n}`));
    return ids.flatMap((id, i) => (id === undefined ? [] : [{ id, slot: slots[i]! }]));
  }

  // ---- verification codes

  async putCode(subId: string, ref: string, code: string): Promise<void> {
    await this.s.put(`evcode#${subId}#${ref}`, code, CODE_SECONDS);
  }

  takeCode(subId: string, ref: string): Promise<string | undefined> {
    return this.s.get<string>(`evcode#${subId}#${ref}`);
  }

  // ---- events

  /**
   * Stores each event once: a retry of a delivery (same key) finds its claim and stores nothing.
   * Answers the events stored by this call, in order. A delivery of many events (HubSpot batches
   * up to 100) costs three round trips plus its writes: the claims read at once (BatchGetItem),
   * one block of sequence numbers taken in one atomic add, then the claim-and-event transactions
   * WRITE_PARALLEL at a time. Those stay one transaction per event: DynamoDB's BatchWriteItem takes
   * no condition, and the condition is what keeps a racing copy from storing an event twice.
   * An event whose claim this process is writing right now is not sent to the store again: its
   * copy waits for that write, and is a duplicate once it holds (or goes the whole way itself, should it fail).
   */
  async append(sub: Subscription, incoming: readonly IncomingEvent[]): Promise<AppendResult> {
    const result: AppendResult = { stored: [], duplicates: 0 };
    // A key twice in one delivery is one event: the first copy counts.
    const seen = new Set<string>();
    const unique = incoming.filter((e) => !seen.has(e.key) && Boolean(seen.add(e.key)));
    result.duplicates += incoming.length - unique.length;
    const flights = localOf(this.store).flights;
    const mine: { e: IncomingEvent; claim: string }[] = [];
    const waiting: { e: IncomingEvent; flight: Promise<boolean> }[] = [];
    for (const e of unique) {
      const claim = `evdup#${sub.id}#${dedupKey(e.key)}`;
      const flight = flights.get(claim);
      if (flight) waiting.push({ e, flight });
      else mine.push({ e, claim });
    }
    // Registered before the first await, so a copy arriving from now on waits for these.
    const held = new Set<string>();
    const settle = new Map<string, (held: boolean) => void>();
    for (const { claim } of mine) flights.set(claim, new Promise<boolean>((resolve) => settle.set(claim, resolve)));
    try {
      if (mine.length > 0) await this.claimAndStore(sub, mine, held, result);
    } finally {
      for (const { claim } of mine) {
        flights.delete(claim);
        settle.get(claim)!(held.has(claim));
      }
    }
    const unsettled: IncomingEvent[] = [];
    for (const { e, flight } of waiting) {
      if (await flight) result.duplicates++;
      else unsettled.push(e);
    }
    if (unsettled.length > 0) {
      // The copy this one waited for failed before its claim held: this one stores them itself.
      const again = await this.append(sub, unsettled);
      result.stored.push(...again.stored);
      result.duplicates += again.duplicates;
    }
    return result;
  }

  /** `append` for events no other call of this process is storing; adds every claim that holds to `held`. */
  private async claimAndStore(sub: Subscription, mine: readonly { e: IncomingEvent; claim: string }[], held: Set<string>, result: AppendResult): Promise<void> {
    const claims = mine.map((m) => m.claim);
    // Most duplicates are retries of a delivery already stored: found without taking a number.
    // One key (Tape, Podio, ShareFile deliver one event each): a plain read, cheaper than a batch read.
    const found = claims.length === 1 ? [await this.s.get(claims[0]!)] : await this.s.getMany(claims);
    const fresh = mine.filter((m, i) => {
      if (found[i] === undefined) return true;
      held.add(m.claim);
      return false;
    });
    result.duplicates += mine.length - fresh.length;
    if (fresh.length === 0) return;
    const last = await this.s.add(`evseq#${sub.id}`, fresh.length, KEEP_SECONDS);
    const receivedAt = new Date(this.now()).toISOString();
    const events = fresh.map(({ e }, i): InboxEvent => {
      const seq = last - fresh.length + 1 + i;
      return {
        id: `${sub.id}.${seq}`,
        subscription_id: sub.id,
        seq,
        type: e.type,
        ...(e.occurred_at ? { occurred_at: e.occurred_at } : {}),
        received_at: receivedAt,
        ...(e.vendor_event_id ? { vendor_event_id: e.vendor_event_id } : {}),
        data: e.data,
      };
    });
    const won = await eachBounded(events, WRITE_PARALLEL, async (event, i) => {
      const claim = fresh[i]!.claim;
      const mineNow = await this.s.putPairIfAbsent(claim, event.seq, this.ttlSeconds, { key: eventKey(sub.id, event.seq), value: event });
      held.add(claim);
      if (mineNow) return true;
      // A copy in another process claimed it first: this number becomes a gap known to be final.
      const gap: Gap = { gap: true, seq: event.seq, received_at: event.received_at };
      await this.s.put(eventKey(sub.id, event.seq), gap, this.ttlSeconds);
      return false;
      // Each event stands alone: one that fails to land keeps none of the others from landing (the vendor's retry finds them stored).
    }, { afterFailure: 'continue' });
    for (const [i, event] of events.entries()) {
      if (won[i]) result.stored.push(event);
      else result.duplicates++;
    }
  }

  /** A page of events of these subscriptions, in sequence order per subscription, oldest subscription first. */
  async listEvents(subs: readonly Subscription[], o: ListOptions): Promise<ListPage> {
    const out: InboxEvent[] = [];
    const after = { ...o.after };
    let more = false;
    let budget = READ_MAX;
    for (const sub of subs) {
      const head = await this.s.add(`evseq#${sub.id}`, 0, KEEP_SECONDS);
      let from = Math.max(after[sub.id] ?? 0, o.includeAcked ? 0 : await this.floor(sub.id));
      let landing = false;
      while (from < head && out.length < o.limit && budget > 0 && !landing) {
        const seqs = range(from + 1, Math.min(head, from + Math.min(READ_BATCH, budget)));
        budget -= seqs.length;
        const slots = await this.s.getMany<Slot>(seqs.map((n) => eventKey(sub.id, n)));
        for (const [i, e] of slots.entries()) {
          if (!e && !this.finalGap(slots, i)) {
            landing = true;
            break;
          }
          from++;
          if (!e || isGap(e)) continue;
          if (!o.includeAcked && e.acked) continue;
          if (o.types && !o.types.includes(e.type)) continue;
          if (o.since !== undefined && Date.parse(e.received_at) < o.since) continue;
          out.push(e);
          if (out.length >= o.limit) break;
        }
      }
      after[sub.id] = from;
      // Stopped at a number whose event may be landing: the rest waits for the next listing.
      if (landing) continue;
      if (from < head) {
        more = true;
        break;
      }
    }
    return { events: out, after, more };
  }

  /**
   * Acknowledges events: by id (one subscription's sequence numbers), or all up to a sequence.
   * Answers how many events changed from unacknowledged to acknowledged.
   */
  async ack(sub: Subscription, o: { seqs?: readonly number[]; upTo?: number }): Promise<number> {
    let count = 0;
    if (o.seqs?.length) {
      // An id given twice is one event, acknowledged (and counted) once.
      const keys = [...new Set(o.seqs)].map((n) => eventKey(sub.id, n));
      const events = await this.s.getMany<Slot>(keys);
      for (const e of events) {
        if (!e || isGap(e) || e.acked) continue;
        await this.s.put(eventKey(sub.id, e.seq), { ...e, acked: true }, this.remaining(e));
        count++;
      }
    }
    const floor = await this.floor(sub.id);
    if (o.upTo !== undefined && o.upTo > floor) {
      const head = await this.s.add(`evseq#${sub.id}`, 0, KEEP_SECONDS);
      const upTo = Math.min(o.upTo, head);
      for (let from = floor; from < upTo; from += READ_BATCH) {
        const events = await this.s.getMany<Slot>(range(from + 1, Math.min(upTo, from + READ_BATCH)).map((n) => eventKey(sub.id, n)));
        count += events.filter((e) => e && !isGap(e) && !e.acked).length;
      }
      await this.s.put(`evfloor#${sub.id}`, upTo, KEEP_SECONDS);
      return count;
    }
    await this.advanceFloor(sub.id, floor);
    return count;
  }

  /** Unacknowledged events of a subscription (bounded by READ_MAX reads). */
  async pending(sub: Subscription): Promise<number> {
    const page = await this.listEvents([sub], { after: {}, limit: READ_MAX, includeAcked: false });
    return page.events.length;
  }

  private async floor(subId: string): Promise<number> {
    return (await this.s.get<number>(`evfloor#${subId}`)) ?? 0;
  }

  /** Moves the floor over acknowledged events and final gaps; it stops at the first other number. */
  private async advanceFloor(subId: string, floor: number): Promise<void> {
    const head = await this.s.add(`evseq#${subId}`, 0, KEEP_SECONDS);
    let next = floor;
    scan: for (let from = floor; from < head; from += READ_BATCH) {
      const seqs = range(from + 1, Math.min(head, from + READ_BATCH));
      const slots = await this.s.getMany<Slot>(seqs.map((n) => eventKey(subId, n)));
      for (const [i, e] of slots.entries()) {
        if (e ? !isGap(e) && !e.acked : !this.finalGap(slots, i)) break scan;
        next = seqs[i]!;
      }
    }
    if (next > floor) await this.s.put(`evfloor#${subId}`, next, KEEP_SECONDS);
  }

  /** Whether the missing number at `slots[i]` is final: a later slot of the batch was received long enough ago. */
  private finalGap(slots: readonly (Slot | undefined)[], i: number): boolean {
    const edge = this.now() - IN_FLIGHT_MS;
    return slots.slice(i + 1).some((s) => s !== undefined && Date.parse(s.received_at) < edge);
  }

  private remaining(e: InboxEvent): number {
    const left = Math.ceil((Date.parse(e.received_at) + this.ttlSeconds * 1000 - this.now()) / 1000);
    return Math.max(1, left);
  }
}

export const ownerIndex = (owner: string, platform: string) => `own#${owner}#${platform}`;
const eventKey = (subId: string, seq: number) => `ev#${subId}#${seq}`;
const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);

/** Keys of any length and alphabet become a fixed-size store key. */
function dedupKey(key: string): string {
  return createHash('sha256').update(key).digest('base64url');
}

/** A stable hash of a delivery's fields (vendors that give no event id): the same delivery retried hashes the same. */
export function deliveryHash(fields: Record<string, unknown>): string {
  const sorted = Object.keys(fields).sort().map((k) => [k, fields[k]]);
  return createHash('sha256').update(JSON.stringify(sorted)).digest('base64url');
}
