import { describe, expect, it } from 'vitest';
import { Inbox } from '../../shared/events/inbox';
import { MemoryStore } from '../../shared/store/memory';

/** The inbox's ordering rules on the Store port, with a clock the test moves. */
describe('inbox: a number taken but not yet written holds the listing back', () => {
  const setup = async () => {
    let now = Date.parse('2026-11-27T10:00:00Z');
    const clock = () => now;
    const store = new MemoryStore(clock);
    const inbox = new Inbox(store, 3600, clock);
    const sub = await inbox.create(Inbox.newSubscription('dbapp', 'owner', {}, now));
    const event = (n: number) => ({ key: `k${n}`, type: 'record.update', data: { revision_id: n } });
    return { store, inbox, sub, event, clock, advance: (ms: number) => void (now += ms) };
  };
  const revisions = (page: { events: { data: Record<string, unknown> }[] }) => page.events.map((e) => e.data.revision_id);

  it('lists nothing past a number whose event may still land, so no cursor or acknowledgement passes it', async () => {
    const { store, inbox, sub, event } = await setup();
    // A delivery took number 1 and is still writing; another stored number 2.
    await store.add(`evseq#${sub.id}`, 1, 3600);
    await inbox.append(sub, [event(2)]);
    const first = await inbox.listEvents([sub], { after: {}, limit: 50, includeAcked: false });
    expect(first.events).toEqual([]);
    expect(first.after[sub.id]).toBe(0);
    expect(await inbox.ack(sub, { upTo: first.after[sub.id]! })).toBe(0);
    // The first write lands: both are listed, in order.
    await store.putPairIfAbsent(`evdup#${sub.id}#x`, 1, 3600, { key: `ev#${sub.id}#1`, value: { id: `${sub.id}.1`, subscription_id: sub.id, seq: 1, type: 'record.update', received_at: new Date().toISOString(), data: { revision_id: 1 } } });
    expect(revisions(await inbox.listEvents([sub], { after: first.after, limit: 50, includeAcked: false }))).toEqual([1, 2]);
  });

  it('a number that never lands is passed once the events after it are older than any write can take', async () => {
    const { store, inbox, sub, event, advance } = await setup();
    await store.add(`evseq#${sub.id}`, 1, 3600);
    await inbox.append(sub, [event(2)]);
    advance(61_000);
    expect(revisions(await inbox.listEvents([sub], { after: {}, limit: 50, includeAcked: false }))).toEqual([2]);
  });

  it('a duplicate that loses the race marks its number as a final gap: nothing is held back', async () => {
    const { store, inbox, sub, event, clock } = await setup();
    // Copies in other processes (the same data, none of this process's claims in flight) race to the store.
    const elsewhere = () => new Inbox(Object.create(store) as MemoryStore, 3600, clock);
    const copies = await Promise.all([inbox.append(sub, [event(1)]), elsewhere().append(sub, [event(1)]), elsewhere().append(sub, [event(1)])]);
    expect(copies.map((c) => c.stored.length).sort()).toEqual([0, 0, 1]);
    await inbox.append(sub, [event(2)]);
    const page = await inbox.listEvents([sub], { after: {}, limit: 50, includeAcked: false });
    expect(revisions(page)).toEqual([1, 2]);
    expect(await inbox.ack(sub, { upTo: page.after[sub.id]! })).toBe(2);
    expect((await inbox.listEvents([sub], { after: {}, limit: 50, includeAcked: false })).events).toEqual([]);
  });

  it('acknowledging by id moves the floor over acknowledged events only', async () => {
    const { inbox, sub, event } = await setup();
    const stored = (await inbox.append(sub, [event(1), event(2), event(3)])).stored;
    expect(await inbox.ack(sub, { seqs: [stored[0]!.seq, stored[2]!.seq] })).toBe(2);
    expect(revisions(await inbox.listEvents([sub], { after: {}, limit: 50, includeAcked: false }))).toEqual([2]);
    expect(await inbox.ack(sub, { seqs: [stored[1]!.seq, stored[1]!.seq] })).toBe(1);
    expect((await inbox.listEvents([sub], { after: {}, limit: 50, includeAcked: false })).events).toEqual([]);
    expect(revisions(await inbox.listEvents([sub], { after: {}, limit: 50, includeAcked: true }))).toEqual([1, 2, 3]);
  });
});

describe('inbox: a delivery of many events is appended as one batch', () => {
  /** The memory store, counting the store operations append makes. */
  const counted = () => {
    const store = new MemoryStore();
    const calls: Record<string, number> = {};
    for (const op of ['get', 'getMany', 'add', 'putPairIfAbsent', 'put'] as const) {
      const orig = (store as any)[op].bind(store);
      (store as any)[op] = (...args: unknown[]) => {
        calls[op] = (calls[op] ?? 0) + 1;
        return orig(...args);
      };
    }
    return { store, calls };
  };
  const batch = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ key: `hubspot:1:${from + i}`, type: 'deal.creation', vendor_event_id: String(from + i), data: { eventId: from + i } }));

  it('100 events: their claims read in one request and their numbers taken in one add, stored in order', async () => {
    const { store, calls } = counted();
    const inbox = new Inbox(store, 3600);
    const sub = await inbox.create(Inbox.newSubscription('crm', 'owner', {}, Date.now()));
    for (const k of Object.keys(calls)) delete calls[k];
    const r = await inbox.append(sub, batch(1, 100));
    expect(r.stored.map((e) => e.seq)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(r.stored.map((e) => e.vendor_event_id)).toEqual(Array.from({ length: 100 }, (_, i) => String(i + 1)));
    // (The memory store's getMany reads key by key inside; on DynamoDB it is one BatchGetItem.)
    expect([calls.getMany, calls.add, calls.putPairIfAbsent, calls.put]).toEqual([1, 1, 100, undefined]);
  });

  it('repeats inside a batch, a batch retried and three copies racing: every event stored exactly once, none lost', async () => {
    const store = new MemoryStore();
    const inbox = new Inbox(store, 3600);
    const sub = await inbox.create(Inbox.newSubscription('crm', 'owner', {}, Date.now()));
    const first = batch(1, 50);
    const r1 = await inbox.append(sub, [...first, ...first.slice(0, 10)]);
    expect([r1.stored.length, r1.duplicates]).toEqual([50, 10]);
    // The vendor retries the whole batch with 50 new events added; three copies arrive at once.
    const second = [...first, ...batch(51, 50)];
    // Two copies in this process (one waits for the other's writes) and one in another process.
    const elsewhere = new Inbox(Object.create(store) as MemoryStore, 3600);
    const copies = await Promise.all([inbox.append(sub, second), inbox.append(sub, second), elsewhere.append(sub, second)]);
    expect(copies.reduce((n, c) => n + c.stored.length, 0)).toBe(50);
    expect(copies.reduce((n, c) => n + c.duplicates, 0)).toBe(3 * 100 - 50);
    const listed = await inbox.listEvents([sub], { after: {}, limit: 1000, includeAcked: true });
    const ids = listed.events.map((e) => Number(e.vendor_event_id));
    expect(ids.sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(listed.more).toBe(false);
  });
});
